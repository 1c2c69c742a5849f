// Rank-0 copies: one thread loads a single f32 from A into shared memory
// (simt, completing the barrier's transaction count) and stores it to B.
!scalar = memref<f32, #gpu.address_space<workgroup>>
!barriers = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>

module attributes {gpu.container_module} {
  func.func @rank0(%A: memref<f32>, %B: memref<f32>) {
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %smem_bytes = arith.constant 1024 : i32
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1)
               dynamic_shared_memory_size %smem_bytes {
      %c0 = arith.constant 0 : index
      %one = arith.constant 1 : index
      %tx_bytes = arith.constant 4 : index
      %s = tile.arena_view [0] : !scalar
      %bar = nvgpu.mbarrier.create -> !barriers
      %leader = arith.cmpi eq, %tx, %c0 : index
      scf.if %leader {
        nvgpu.mbarrier.init %bar[%c0], %one : !barriers
      }
      gpu.barrier
      scf.if %leader {
        nvgpu.mbarrier.arrive.expect_tx %bar[%c0], %tx_bytes : !barriers
        tile.copy_async %s[] [], %A[] [] barrier(%bar[%c0]) : !scalar, memref<f32>, !barriers
      }
      %phase = arith.constant false
      %ticks = arith.constant 10000000 : index
      nvgpu.mbarrier.try_wait.parity %bar[%c0], %phase, %ticks : !barriers
      scf.if %leader {
        tile.copy_async %B[] [], %s[] [] : memref<f32>, !scalar
        tile.bulk_commit_group
        tile.bulk_wait_group 0
      }
      gpu.terminator
    }
    return
  }
}
