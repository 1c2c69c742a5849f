// GPU suite, async-phase (docs/async-protocol.md): eight 8x256 f16 rows
// through two stages; step i loads stage i % 2, waits, copies it to B.
// Wrong: waits with parity i % 2 (the step's) instead of (i / 2) % 2 (the
// stage's round): from step 1 on, waits return before the load landed and
// B gets stale rows (or the barrier's phases run out of step and the
// kernel hangs). The waits after the loop let the last loads finish.
!stages = memref<2x8x256xf16, #tile.layout<(2, 8, 256)>, #gpu.address_space<workgroup>>
!stage = memref<8x256xf16, #tile.layout<(8, 256)>, #gpu.address_space<workgroup>>
!bars = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 2>
module attributes {gpu.container_module} {
  func.func @async_phase_wrong(%A: memref<64x256xf16>, %B: memref<64x256xf16>) {
    %c1 = arith.constant 1 : index
    %c128 = arith.constant 128 : index
    %smem_bytes = arith.constant 8192 : i32
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c128, %sy = %c1, %sz = %c1)
               dynamic_shared_memory_size %smem_bytes {
      %c0 = arith.constant 0 : index
      %one = arith.constant 1 : index
      %ticks = arith.constant 10000000 : index
      %leader = arith.cmpi eq, %tx, %c0 : index
      %c2 = arith.constant 2 : index
      %c8 = arith.constant 8 : index
      %buf = tile.arena_view [0] : !stages
      %full = nvgpu.mbarrier.create -> !bars
      scf.if %leader {
        nvgpu.mbarrier.init %full[%c0], %one : !bars
        nvgpu.mbarrier.init %full[%one], %one : !bars
      }
      gpu.barrier
      scf.for %i = %c0 to %c8 step %one {
        %s = arith.remui %i, %c2 : index
        %st = tile.stage %buf[%s] : !stages -> !stage
        %row = arith.muli %i, %c8 : index
        scf.if %leader {
          %bytes = arith.constant 4096 : index
          tile.copy_async %st[0, 0] [8, 256], %A[%row, 0] [8, 256] barrier(%full[%s])
              : !stage, memref<64x256xf16>, !bars
          nvgpu.mbarrier.arrive.expect_tx %full[%s], %bytes : !bars
        }
        %bit = arith.remui %i, %c2 : index
        %parity = arith.cmpi ne, %bit, %c0 : index
        nvgpu.mbarrier.try_wait.parity %full[%s], %parity, %ticks : !bars
        tile.copy %B[%row, 0] [8, 256], %st[0, 0] [8, 256] {scope = "cta"}
            : memref<64x256xf16>, !stage
        gpu.barrier
      }
      %last = arith.constant true
      nvgpu.mbarrier.try_wait.parity %full[%c0], %last, %ticks : !bars
      nvgpu.mbarrier.try_wait.parity %full[%one], %last, %ticks : !bars
      gpu.terminator
    }
    return
  }
}
