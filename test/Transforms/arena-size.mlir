// RUN: tile-opt %s -split-input-file --tile-arena-size -verify-diagnostics | FileCheck %s

!ref = memref<8x256xf16, #tile.layout<(8, 4, 64) : (64, 512, 1), swizzle = 128B>, #gpu.address_space<workgroup>>
module attributes {gpu.container_module} {
  // CHECK-LABEL: func.func @no_size
  // CHECK: %[[S:.*]] = arith.constant 8192 : i32
  // CHECK: gpu.launch_func @k::@two_views {{.*}} dynamic_shared_memory_size %[[S]]
  func.func @no_size() {
    %c1 = arith.constant 1 : index
    gpu.launch_func @k::@two_views blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    return
  }
  gpu.module @k {
    // CHECK: gpu.func @two_views() kernel attributes {tile.arena_bytes = 8192 : i64}
    gpu.func @two_views() kernel {
      %a = tile.arena_view [0] : !ref
      %b = tile.arena_view [4096] : !ref
      gpu.return
    }
  }
}

// -----

!ref = memref<8x256xf16, #tile.layout<(8, 4, 64) : (64, 512, 1), swizzle = 128B>, #gpu.address_space<workgroup>>
module attributes {gpu.container_module} {
  func.func @too_small() {
    %c1 = arith.constant 1 : index
    %smem = arith.constant 1024 : i32
    // expected-error @+1 {{arena: kernel two_views carves 8192 bytes of dynamic shared memory out of its arena (tile.arena_view), but the launch provides 1024}}
    gpu.launch_func @k::@two_views blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) dynamic_shared_memory_size %smem
    return
  }
  gpu.module @k {
    gpu.func @two_views() kernel {
      %a = tile.arena_view [0] : !ref
      %b = tile.arena_view [4096] : !ref
      gpu.return
    }
  }
}

// -----

// At the exact limit: 8192 bytes are enough, 8191 one byte short.
!ref = memref<8x256xf16, #tile.layout<(8, 4, 64) : (64, 512, 1), swizzle = 128B>, #gpu.address_space<workgroup>>
module attributes {gpu.container_module} {
  func.func @exact_sizes() {
    %c1 = arith.constant 1 : index
    %enough = arith.constant 8192 : i32
    %short = arith.constant 8191 : i32
    gpu.launch_func @k::@two_views blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) dynamic_shared_memory_size %enough
    // expected-error @+1 {{arena: kernel two_views carves 8192 bytes of dynamic shared memory out of its arena (tile.arena_view), but the launch provides 8191}}
    gpu.launch_func @k::@two_views blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) dynamic_shared_memory_size %short
    return
  }
  gpu.module @k {
    gpu.func @two_views() kernel {
      %a = tile.arena_view [0] : !ref
      %b = tile.arena_view [4096] : !ref
      gpu.return
    }
  }
}
