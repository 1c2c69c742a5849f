// GPU suite: a three-stage TMA pipeline over eight 64x64 f16 tiles. The
// leader keeps two loads in flight; each iteration waits on the stage's
// mbarrier (dynamic index and parity), the CTA copies the tile out, and the
// stage is refilled with tile k+2. `tile.stage` and the global row offset are
// dynamic. Afterwards B equals A.

#stages = #tile.layout<(3, 64, 64) : (4096, 64, 1), swizzle = 128B>
!stages = memref<3x64x64xf16, #stages, #gpu.address_space<workgroup>>
!stage = memref<64x64xf16, #tile.layout<(64, 64), swizzle = 128B>, #gpu.address_space<workgroup>>
!bars = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 3>

module attributes {gpu.container_module} {
  func.func @pipeline(%A: memref<512x64xf16>, %B: memref<512x64xf16>) {
    %c1 = arith.constant 1 : index
    %c128 = arith.constant 128 : index
    %smem_bytes = arith.constant 24576 : i32
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c128, %sy = %c1, %sz = %c1)
               dynamic_shared_memory_size %smem_bytes {
      %c0 = arith.constant 0 : index
      %one = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      %c8 = arith.constant 8 : index
      %c64 = arith.constant 64 : index
      %tx_bytes = arith.constant 8192 : index
      %ticks = arith.constant 10000000 : index
      %buf = tile.arena_view [0] : !stages
      %bar = nvgpu.mbarrier.create -> !bars
      %leader = arith.cmpi eq, %tx, %c0 : index
      scf.if %leader {
        scf.for %s = %c0 to %c3 step %one {
          nvgpu.mbarrier.init %bar[%s], %one : !bars
        }
      }
      gpu.barrier
      scf.if %leader {
        scf.for %n = %c0 to %c2 step %one {
          %st = tile.stage %buf[%n] : !stages -> !stage
          %row = arith.muli %n, %c64 : index
          tile.copy_async %st[0, 0] [64, 64], %A[%row, 0] [64, 64]
              barrier(%bar[%n]) : !stage, memref<512x64xf16>, !bars
          nvgpu.mbarrier.arrive.expect_tx %bar[%n], %tx_bytes : !bars
        }
      }
      scf.for %k = %c0 to %c8 step %one {
        %s = arith.remui %k, %c3 : index
        %round = arith.divui %k, %c3 : index
        %odd = arith.remui %round, %c2 : index
        %phase = arith.cmpi ne, %odd, %c0 : index
        nvgpu.mbarrier.try_wait.parity %bar[%s], %phase, %ticks : !bars
        %st = tile.stage %buf[%s] : !stages -> !stage
        %row = arith.muli %k, %c64 : index
        tile.copy %B[%row, 0] [64, 64], %st[0, 0] [64, 64] {scope = "cta"}
            : memref<512x64xf16>, !stage
        %n = arith.addi %k, %c2 : index
        %more = arith.cmpi ult, %n, %c8 : index
        %issue = arith.andi %leader, %more : i1
        scf.if %issue {
          %ns = arith.remui %n, %c3 : index
          %nst = tile.stage %buf[%ns] : !stages -> !stage
          %nrow = arith.muli %n, %c64 : index
          tile.copy_async %nst[0, 0] [64, 64], %A[%nrow, 0] [64, 64]
              barrier(%bar[%ns]) : !stage, memref<512x64xf16>, !bars
          nvgpu.mbarrier.arrive.expect_tx %bar[%ns], %tx_bytes : !bars
        }
      }
      gpu.terminator
    }
    return
  }
}
