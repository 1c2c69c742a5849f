// RUN: tile-opt %s -split-input-file -verify-diagnostics

// The rule stream-workspace: host code, a non-empty name, a one-dimensional
// global memref<?xT> of whole-byte elements with the identity layout.

func.func @empty_name(%n: index, %s: !gpu.async.token) {
  // expected-error @below {{stream-workspace: the workspace's name is empty; the runtime keeps one buffer per name and stream}}
  %w = tile.stream_workspace "" [%s] (%n) : memref<?xi32>
  return
}

// -----

func.func @two_dims(%n: index, %s: !gpu.async.token) {
  // expected-error @below {{stream-workspace: the workspace is 'memref<4x?xi32>'; a stream workspace is one-dimensional, memref<?xT>}}
  %w = tile.stream_workspace "w" [%s] (%n) : memref<4x?xi32>
  return
}

// -----

func.func @static_size(%n: index, %s: !gpu.async.token) {
  // expected-error @below {{stream-workspace: the workspace is 'memref<16xi32>'; a stream workspace is one-dimensional, memref<?xT>}}
  %w = tile.stream_workspace "w" [%s] (%n) : memref<16xi32>
  return
}

// -----

func.func @strided(%n: index, %s: !gpu.async.token) {
  // expected-error @below {{stream-workspace: the workspace 'memref<?xi32, strided<[2]>>' has a layout; a stream workspace is contiguous}}
  %w = tile.stream_workspace "w" [%s] (%n) : memref<?xi32, strided<[2]>>
  return
}

// -----

func.func @shared(%n: index, %s: !gpu.async.token) {
  // expected-error @below {{stream-workspace: the workspace 'memref<?xi32, #gpu.address_space<workgroup>>' is not in global memory; the runtime allocates device memory}}
  %w = tile.stream_workspace "w" [%s] (%n) : memref<?xi32, #gpu.address_space<workgroup>>
  return
}

// -----

func.func @bits(%n: index, %s: !gpu.async.token) {
  // expected-error @below {{stream-workspace: the workspace's element 'i1' is not a whole number of bytes}}
  %w = tile.stream_workspace "w" [%s] (%n) : memref<?xi1>
  return
}

// -----

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%n: index, %s: !gpu.async.token) kernel {
      // expected-error @below {{stream-workspace: tile.stream_workspace sits in device code; the host asks for the buffer before the launches that use it}}
      %w = tile.stream_workspace "w" [%s] (%n) : memref<?xi32>
      gpu.return
    }
  }
}
