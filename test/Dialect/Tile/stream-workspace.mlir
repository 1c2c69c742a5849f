// RUN: tile-opt %s | tile-opt | FileCheck %s

// tile.stream_workspace round-trips: a named buffer per stream, zeroed or
// scratch.

// CHECK-LABEL: func.func @split_workspace
// CHECK: tile.stream_workspace "split partials" [%{{.*}}] (%{{.*}}) : memref<?xf32>
// CHECK: tile.stream_workspace "split counters" [%{{.*}}] (%{{.*}}) zeroed : memref<?xi32>
func.func @split_workspace(%n: index, %stream: !gpu.async.token) -> (memref<?xf32>, memref<?xi32>) {
  %partials = tile.stream_workspace "split partials" [%stream] (%n) : memref<?xf32>
  %counters = tile.stream_workspace "split counters" [%stream] (%n) zeroed : memref<?xi32>
  return %partials, %counters : memref<?xf32>, memref<?xi32>
}
