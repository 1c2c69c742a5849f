// The reference demonstration program: one thread bulk-copies an 8x256 f16
// tile from global memory into a 128B-swizzled shared buffer through the
// Tensor Memory Accelerator, signals an mbarrier, waits, and the whole CTA
// copies the tile back to a second global buffer (B equals A afterwards).
//
//   tile-opt examples/copy_async_tma.mlir                      # verify, print
//   tile-opt examples/copy_async_tma.mlir --tile-report-copy-plans -o /dev/null

// The reference's mma_shared_layout(float16, 128B, (8, 256)).
#swizzled = #tile.layout<(8, 4, 64) : (64, 512, 1), swizzle = 128B>
!smem = memref<8x256xf16, #swizzled, #gpu.address_space<workgroup>>
!barriers = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>

module attributes {gpu.container_module} {
  func.func @copy_async(%A: memref<8x256xf16>, %B: memref<8x256xf16>) {
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %smem_bytes = arith.constant 4096 : i32
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c8, %sy = %c1, %sz = %c1)
               dynamic_shared_memory_size %smem_bytes {
      %c0 = arith.constant 0 : index
      %one = arith.constant 1 : index
      %tx_bytes = arith.constant 4096 : index
      %smem = tile.arena_view [0] : !smem
      %bar = nvgpu.mbarrier.create -> !barriers
      %leader = arith.cmpi eq, %tx, %c0 : index
      scf.if %leader {
        nvgpu.mbarrier.init %bar[%c0], %one : !barriers
      }
      gpu.barrier
      scf.if %leader {
        tile.copy_async %smem[0, 0] [8, 256], %A[0, 0] [8, 256]
            barrier(%bar[%c0]) {dispatch = "tma"}
            : !smem, memref<8x256xf16>, !barriers
        nvgpu.mbarrier.arrive.expect_tx %bar[%c0], %tx_bytes : !barriers
      }
      %phase = arith.constant false
      %ticks = arith.constant 10000000 : index
      nvgpu.mbarrier.try_wait.parity %bar[%c0], %phase, %ticks : !barriers
      gpu.barrier
      tile.copy %B[0, 0] [8, 256], %smem[0, 0] [8, 256] {scope = "cta", dispatch = "collective"}
          : memref<8x256xf16>, !smem
      gpu.terminator
    }
    return
  }
}
