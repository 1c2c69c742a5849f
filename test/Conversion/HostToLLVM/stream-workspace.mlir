// RUN: tile-opt %s --convert-tile-host-to-llvm | FileCheck %s
// RUN: tile-opt %s --convert-tile-host-to-llvm | FileCheck %s --check-prefix=ONCE

// tile.stream_workspace becomes the runtime's
// tileRuntimeStreamWorkspace(name, bytes, zeroed, stream): the name a
// NUL-terminated constant (one global per text, shared by the requests that
// name it), the bytes the elements' (size x element bytes), the descriptor
// built from the returned pointer.

// CHECK-DAG: llvm.func @tileRuntimeStreamWorkspace(!llvm.ptr, i64, i32, !llvm.ptr) -> !llvm.ptr
// CHECK-DAG: llvm.mlir.global private constant @[[COUNTERS:__tile_str_[0-9a-f]+]]("split counters\00")
// CHECK-DAG: llvm.mlir.global private constant @[[PARTIALS:__tile_str_[0-9a-f]+]]("split partials\00")
// One global per text: the second request for the counters adds none.
// ONCE-COUNT-2: llvm.mlir.global private constant
// ONCE-NOT: llvm.mlir.global
module attributes {gpu.container_module} {
// CHECK-LABEL: llvm.func @split_workspace
// CHECK-SAME: (%[[N:.*]]: i64, %[[STREAM:.*]]: !llvm.ptr)
// CHECK: %[[NAME:.*]] = llvm.mlir.addressof @[[PARTIALS]]
// CHECK: %[[SCRATCH:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK: %[[END:.*]] = llvm.getelementptr %{{.*}}[%[[N]]] : (!llvm.ptr, i64) -> !llvm.ptr, f32
// CHECK: %[[BYTES:.*]] = llvm.ptrtoint %[[END]] : !llvm.ptr to i64
// CHECK: %[[PTR:.*]] = llvm.call @tileRuntimeStreamWorkspace(%[[NAME]], %[[BYTES]], %[[SCRATCH]], %[[STREAM]]) : (!llvm.ptr, i64, i32, !llvm.ptr) -> !llvm.ptr
// CHECK: llvm.insertvalue %[[PTR]], %{{.*}}[0]
// CHECK: llvm.insertvalue %[[PTR]], %{{.*}}[1]
// CHECK: %[[ZEROED:.*]] = llvm.mlir.constant(1 : i32) : i32
// CHECK: llvm.call @tileRuntimeStreamWorkspace(%{{.*}}, %{{.*}}, %[[ZEROED]], %[[STREAM]])
// The second request for the counters reuses their name's global.
// CHECK: %[[AGAIN:.*]] = llvm.mlir.addressof @[[COUNTERS]] : !llvm.ptr
// CHECK: llvm.call @tileRuntimeStreamWorkspace(%[[AGAIN]], 
func.func @split_workspace(%n: index, %stream: !gpu.async.token) -> (memref<?xf32>, memref<?xi32>, memref<?xi32>) {
  %partials = tile.stream_workspace "split partials" [%stream] (%n) : memref<?xf32>
  %counters = tile.stream_workspace "split counters" [%stream] (%n) zeroed : memref<?xi32>
  %again = tile.stream_workspace "split counters" [%stream] (%n) zeroed : memref<?xi32>
  return %partials, %counters, %again : memref<?xf32>, memref<?xi32>, memref<?xi32>
}
}
