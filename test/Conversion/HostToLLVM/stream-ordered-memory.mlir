// RUN: tile-opt %s --convert-tile-host-to-llvm | FileCheck %s

// gpu.alloc async and gpu.dealloc async on a token's stream become the
// runtime's stream-ordered calls (from its pool, cuMemFreeAsync on that
// stream, the null stream included), the descriptor built from the returned
// pointer, and the token replaced by the stream itself. Host-shared memory
// (synchronous) keeps upstream's managed allocation.

// CHECK-DAG: llvm.func @tileRuntimeMemAllocAsync(i64, !llvm.ptr) -> !llvm.ptr
// CHECK-DAG: llvm.func @tileRuntimeMemFreeAsync(!llvm.ptr, !llvm.ptr)
module attributes {gpu.container_module} {
// CHECK-LABEL: llvm.func @scratch
// CHECK-SAME: (%[[ROWS:.*]]: i64, %[[STREAM:.*]]: !llvm.ptr) -> !llvm.ptr
// The bytes: rows x 24 bf16 elements.
// CHECK: %[[COLS:.*]] = llvm.mlir.constant(24 : index) : i64
// CHECK: %[[ELEMS:.*]] = llvm.mul %[[COLS]], %[[ROWS]] : i64
// CHECK: %[[END:.*]] = llvm.getelementptr %{{.*}}[%[[ELEMS]]] : (!llvm.ptr, i64) -> !llvm.ptr, bf16
// CHECK: %[[BYTES:.*]] = llvm.ptrtoint %[[END]] : !llvm.ptr to i64
// CHECK: %[[PTR:.*]] = llvm.call @tileRuntimeMemAllocAsync(%[[BYTES]], %[[STREAM]]) : (i64, !llvm.ptr) -> !llvm.ptr
// CHECK: llvm.insertvalue %[[PTR]], %{{.*}}[0]
// CHECK: llvm.insertvalue %[[PTR]], %{{.*}}[1]
// CHECK: %[[FREED:.*]] = llvm.extractvalue %{{.*}}[0]
// CHECK: llvm.call @tileRuntimeMemFreeAsync(%[[FREED]], %[[STREAM]]) : (!llvm.ptr, !llvm.ptr) -> ()
// CHECK: llvm.return %[[STREAM]] : !llvm.ptr
func.func @scratch(%rows: index, %stream: !gpu.async.token) -> !gpu.async.token {
  %buf, %t0 = gpu.alloc async [%stream] (%rows) : memref<?x24xbf16>
  %t1 = gpu.dealloc async [%t0] %buf : memref<?x24xbf16>
  return %t1 : !gpu.async.token
}

// CHECK-LABEL: llvm.func @shared
// CHECK: llvm.call @mgpuMemAlloc
// CHECK-NOT: tileRuntimeMemAllocAsync
func.func @shared() -> memref<16xf32> {
  %buf = gpu.alloc host_shared () : memref<16xf32>
  return %buf : memref<16xf32>
}
}
