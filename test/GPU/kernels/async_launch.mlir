// An asynchronous launch of a TMA kernel (gpu.launch async): the host
// encodes the map, launches on the dependency's stream, and waits on the
// launch token. B equals A afterwards; a TMA store writes C from shared.
#swizzled = #tile.layout<(8, 4, 64) : (64, 512, 1), swizzle = 128B>
!smem = memref<8x256xf16, #swizzled, #gpu.address_space<workgroup>>
!barriers = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>

module attributes {gpu.container_module} {
  func.func @async_launch(%A: memref<8x256xf16>, %B: memref<8x256xf16>, %C: memref<8x256xf16>) {
    %c1 = arith.constant 1 : index
    %c128 = arith.constant 128 : index
    %smem_bytes = arith.constant 4096 : i32
    %dep = gpu.wait async
    %done = gpu.launch async [%dep]
               blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c128, %sy = %c1, %sz = %c1)
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
      tile.copy %B[0, 0] [8, 256], %smem[0, 0] [8, 256] {scope = "cta"}
          : memref<8x256xf16>, !smem
      scf.if %leader {
        tile.copy_async %C[0, 0] [8, 256], %smem[0, 0] [8, 256] {dispatch = "tma"}
            : memref<8x256xf16>, !smem
        tile.bulk_commit_group
        tile.bulk_wait_group 0
      }
      gpu.terminator
    }
    gpu.wait [%done]
    return
  }
}
