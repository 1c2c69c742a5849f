// A kernel with rank-0 copies lowers through the pipeline and tile-compile;
// the PTX moves one element each way.
// The kernel checks the lowering of rank-0 copies, not a protocol that runs
// (it stores the scalar without waiting for its load): verify-async=false.
// RUN: tile-opt %s --tile-gpu-pipeline="format=isa verify-async=false" -o %t.mlir
// RUN: python3 %tile_src_root/scripts/extract-ptx.py %t.mlir -o %t.ptx
// RUN: FileCheck %s < %t.ptx
// CHECK: ld.global.b16 [[V:%rs[0-9]+]], [%rd{{[0-9]+}}];
// CHECK: st.shared.b16 [__tile_arena], [[V]];
// CHECK: mbarrier.complete_tx.relaxed.cta.shared.b64 [__mbarrier], %r{{[0-9]+}};
// CHECK: ld.shared.b16 [[W:%rs[0-9]+]], [__tile_arena];
// CHECK: st.global.b16 [%rd{{[0-9]+}}], [[W]];
// CHECK: cp.async.bulk.commit_group;

!bars = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
module attributes {gpu.container_module} {
  func.func @k(%A: memref<f16>) {
    %c1 = arith.constant 1 : index
    %c128 = arith.constant 128 : index
    %smem_bytes = arith.constant 4096 : i32
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c128, %sy = %c1, %sz = %c1)
               dynamic_shared_memory_size %smem_bytes {
      %c0 = arith.constant 0 : index
      %one = arith.constant 1 : index
      %smem = tile.arena_view [0] : memref<f16, #gpu.address_space<workgroup>>
      %bar = nvgpu.mbarrier.create -> !bars
      nvgpu.mbarrier.init %bar[%c0], %one : !bars
      gpu.barrier
      tile.copy_async %smem[] [], %A[] [] barrier(%bar[%c0])  : memref<f16, #gpu.address_space<workgroup>>, memref<f16>, !bars
      tile.copy_async %A[] [], %smem[] [] : memref<f16>, memref<f16, #gpu.address_space<workgroup>>
      tile.bulk_commit_group
      tile.bulk_wait_group 0
      gpu.terminator
    }
    return
  }
}
