// RUN: tile-opt %s --tile-plan-copies --convert-tile-to-nvvm | FileCheck %s
//
// A rank-0 copy moves its one element: TMA declines (rank 0), the simt path
// copies the element with an always-true bounds test and completes the
// barrier with its 2 bytes.

!bars = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
// CHECK-LABEL: func.func @rank0_load
func.func @rank0_load(%g: memref<f16>, %bar: !bars, %c0: index) {
  // CHECK: %[[C0:.*]] = arith.constant 0 : index
  // CHECK: %[[C1:.*]] = arith.constant 1 : index
  // CHECK: %[[UB:.*]] = arith.constant 1 : index
  // CHECK: scf.for %{{.*}} = %[[C0]] to %[[UB]] step %[[C1]] {
  // CHECK: %[[TRUE:.*]] = arith.constant true
  // CHECK: %[[V:.*]] = scf.if %[[TRUE]] -> (f16) {
  // CHECK: %[[OFF:.*]] = llvm.extractvalue %{{.*}}[2] : !llvm.struct<(ptr, ptr, i64)>
  // CHECK: %[[BASE:.*]] = llvm.extractvalue %{{.*}}[1] : !llvm.struct<(ptr, ptr, i64)>
  // CHECK: %[[C2:.*]] = arith.constant 2 : i64
  // CHECK: %[[BYTES:.*]] = arith.muli %[[OFF]], %[[C2]] : i64
  // CHECK: %[[SRC:.*]] = llvm.getelementptr %[[BASE]][%[[BYTES]]] : (!llvm.ptr, i64) -> !llvm.ptr, i8
  // CHECK: %[[L:.*]] = llvm.load %[[SRC]] : !llvm.ptr -> f16
  // CHECK: scf.yield %[[L]] : f16
  // CHECK: llvm.store %[[V]], %{{.*}} : f16, !llvm.ptr<3>
  // CHECK: %[[TX:.*]] = arith.constant 2 : i32
  // CHECK: nvvm.mbarrier.complete_tx %{{.*}}, %[[TX]] : !llvm.ptr<3>, i32
  %s = tile.arena_view [0] : memref<f16, #gpu.address_space<workgroup>>
  tile.copy_async %s[] [], %g[] [] barrier(%bar[%c0]) : memref<f16, #gpu.address_space<workgroup>>, memref<f16>, !bars
  return
}

// CHECK-LABEL: func.func @rank0_store
func.func @rank0_store(%g: memref<i32>) {
  // CHECK: %[[V:.*]] = llvm.load %{{.*}} : !llvm.ptr<3> -> i32
  // CHECK: llvm.store %[[V]], %{{.*}} : i32, !llvm.ptr
  %s = tile.arena_view [0] : memref<i32, #gpu.address_space<workgroup>>
  tile.copy_async %g[] [], %s[] [] : memref<i32>, memref<i32, #gpu.address_space<workgroup>>
  return
}
