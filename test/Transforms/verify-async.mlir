// Each rule of tile-verify-async on a minimal wrong kernel and its corrected
// twin (which verifies clean).
// RUN: tile-opt %s -split-input-file --tile-verify-async -verify-diagnostics -o /dev/null

// async-tx-bytes: the expected bytes must be the bytes the loads deliver
// (8 x 256 f16 = 4096 bytes).
!smem = memref<8x256xf16, #tile.layout<(8, 256)>, #gpu.address_space<workgroup>>
!bars = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @tx_wrong(%A: memref<8x256xf16>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %bytes = arith.constant 2048 : index
      %s = tile.arena_view [0] : !smem
      %bar = nvgpu.mbarrier.create -> !bars
      nvgpu.mbarrier.init %bar[%c0], %c1 : !bars
      // expected-note @+1 {{this load delivers 4096 bytes}}
      tile.copy_async %s[0, 0] [8, 256], %A[0, 0] [8, 256] barrier(%bar[%c0])
          : !smem, memref<8x256xf16>, !bars
      // expected-error @+1 {{async-tx-bytes: arrive.expect_tx announces 2048 bytes on barrier 0 of %1, but the 1 load(s) signalling it in this phase deliver 4096 bytes (4096)}}
      nvgpu.mbarrier.arrive.expect_tx %bar[%c0], %bytes : !bars
      %phase = arith.constant false
      %ticks = arith.constant 10000000 : index
      nvgpu.mbarrier.try_wait.parity %bar[%c0], %phase, %ticks : !bars
      gpu.return
    }
    gpu.func @tx_right(%A: memref<8x256xf16>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %bytes = arith.constant 4096 : index
      %s = tile.arena_view [0] : !smem
      %bar = nvgpu.mbarrier.create -> !bars
      nvgpu.mbarrier.init %bar[%c0], %c1 : !bars
      tile.copy_async %s[0, 0] [8, 256], %A[0, 0] [8, 256] barrier(%bar[%c0])
          : !smem, memref<8x256xf16>, !bars
      nvgpu.mbarrier.arrive.expect_tx %bar[%c0], %bytes : !bars
      %phase = arith.constant false
      %ticks = arith.constant 10000000 : index
      nvgpu.mbarrier.try_wait.parity %bar[%c0], %phase, %ticks : !bars
      gpu.return
    }
  }
}

// -----

// async-tx-bytes: an issue loop delivers its load's bytes once per
// iteration; out-of-bounds elements count.
!half = memref<4x256xf16, #tile.layout<(4, 256)>, #gpu.address_space<workgroup>>
!smem = memref<8x256xf16, #tile.layout<(8, 256)>, #gpu.address_space<workgroup>>
!bars = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @issue_loop_wrong(%A: memref<8x256xf16>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c4 = arith.constant 4 : index
      %bytes = arith.constant 2048 : index
      %s = tile.arena_view [0] : !smem
      %bar = nvgpu.mbarrier.create -> !bars
      nvgpu.mbarrier.init %bar[%c0], %c1 : !bars
      scf.for %i = %c0 to %c2 step %c1 {
        %row = arith.muli %i, %c4 : index
        // expected-note @+1 {{this load delivers 2048 bytes per iteration}}
        tile.copy_async %s[%row, 0] [4, 256], %A[%row, 0] [4, 256] barrier(%bar[%c0])
            : !smem, memref<8x256xf16>, !bars
      }
      // expected-error @+1 {{async-tx-bytes: arrive.expect_tx announces 2048 bytes on barrier 0 of %1, but the 1 load(s) signalling it in this phase deliver 4096 bytes (2 x 2048)}}
      nvgpu.mbarrier.arrive.expect_tx %bar[%c0], %bytes : !bars
      gpu.return
    }
    gpu.func @oob_wrong(%A: memref<8x256xf16>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %bytes = arith.constant 1024 : index
      %s = tile.arena_view [0] : !half
      %bar = nvgpu.mbarrier.create -> !bars
      nvgpu.mbarrier.init %bar[%c0], %c1 : !bars
      // Rows 6..9: two of them past the tensor, still delivered (zeros).
      // expected-note @+1 {{this load delivers 2048 bytes}}
      tile.copy_async %s[0, 0] [4, 256], %A[6, 0] [4, 256] barrier(%bar[%c0])
          : !half, memref<8x256xf16>, !bars
      // expected-error @+1 {{async-tx-bytes: arrive.expect_tx announces 1024 bytes on barrier 0 of %1, but the 1 load(s) signalling it in this phase deliver 2048 bytes (2048)}}
      nvgpu.mbarrier.arrive.expect_tx %bar[%c0], %bytes : !bars
      gpu.return
    }
    gpu.func @issue_loop_right(%A: memref<8x256xf16>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c4 = arith.constant 4 : index
      %bytes = arith.constant 4096 : index
      %s = tile.arena_view [0] : !smem
      %bar = nvgpu.mbarrier.create -> !bars
      nvgpu.mbarrier.init %bar[%c0], %c1 : !bars
      scf.for %i = %c0 to %c2 step %c1 {
        %row = arith.muli %i, %c4 : index
        tile.copy_async %s[%row, 0] [4, 256], %A[%row, 0] [4, 256] barrier(%bar[%c0])
            : !smem, memref<8x256xf16>, !bars
      }
      nvgpu.mbarrier.arrive.expect_tx %bar[%c0], %bytes : !bars
      gpu.return
    }
  }
}

// -----

// async-proxy-fence: tile.copy (generic stores) into shared memory, then a
// TMA store reading it, needs fence.proxy.async in between.
!smem = memref<8x256xf16, #tile.layout<(8, 256)>, #gpu.address_space<workgroup>>
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @fence_wrong(%A: memref<8x256xf16>, %B: memref<8x256xf16>) kernel {
      %c0 = arith.constant 0 : index
      %tx = gpu.thread_id x
      %s = tile.arena_view [0] : !smem
      // expected-note @+1 {{the generic write}}
      tile.copy %s[0, 0] [8, 256], %A[0, 0] [8, 256] {scope = "cta"}
          : !smem, memref<8x256xf16>
      gpu.barrier
      %leader = arith.cmpi eq, %tx, %c0 : index
      scf.if %leader {
        // expected-error @+1 {{async-proxy-fence: this TMA store reads shared bytes [0, 4096) that a generic write (tile.copy) stored at bytes [0, 4096) with no fence.proxy.async on the path between them}}
        tile.copy_async %B[0, 0] [8, 256], %s[0, 0] [8, 256]
            : memref<8x256xf16>, !smem
        tile.bulk_commit_group
        tile.bulk_wait_group 0
      }
      gpu.return
    }
    gpu.func @fence_right(%A: memref<8x256xf16>, %B: memref<8x256xf16>) kernel {
      %c0 = arith.constant 0 : index
      %tx = gpu.thread_id x
      %s = tile.arena_view [0] : !smem
      tile.copy %s[0, 0] [8, 256], %A[0, 0] [8, 256] {scope = "cta"}
          : !smem, memref<8x256xf16>
      nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
      gpu.barrier
      %leader = arith.cmpi eq, %tx, %c0 : index
      scf.if %leader {
        tile.copy_async %B[0, 0] [8, 256], %s[0, 0] [8, 256]
            : memref<8x256xf16>, !smem
        tile.bulk_commit_group
        tile.bulk_wait_group 0
      }
      gpu.return
    }
  }
}

// -----

// async-proxy-fence: the fence must be on every path; memref.store is a
// generic write too.
!smem = memref<8x256xf16, #gpu.address_space<workgroup>>
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @fence_one_path(%B: memref<8x256xf16>, %v: f16, %c: i1) kernel {
      %c0 = arith.constant 0 : index
      %s = tile.arena_view [0] : !smem
      // expected-note @+1 {{the generic write}}
      memref.store %v, %s[%c0, %c0] : !smem
      scf.if %c {
        nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
      }
      gpu.barrier
      // expected-error @+1 {{async-proxy-fence: this TMA store reads shared bytes [0, 4096) that a generic write (memref.store) stored at bytes [0, 4096)}}
      tile.copy_async %B[0, 0] [8, 256], %s[0, 0] [8, 256]
          : memref<8x256xf16>, !smem
      tile.bulk_commit_group
      tile.bulk_wait_group 0
      gpu.return
    }
    gpu.func @fence_other_bytes(%B: memref<8x256xf16>, %v: f16) kernel {
      %c0 = arith.constant 0 : index
      %s = tile.arena_view [0] : !smem
      %t = tile.arena_view [4096] : !smem
      // Writes bytes the store does not read.
      memref.store %v, %t[%c0, %c0] : !smem
      gpu.barrier
      tile.copy_async %B[0, 0] [8, 256], %s[0, 0] [8, 256]
          : memref<8x256xf16>, !smem
      tile.bulk_commit_group
      tile.bulk_wait_group 0
      gpu.return
    }
  }
}

// -----

// async-load-wait: shared memory a TMA load writes is read only after a
// wait on its barrier.
!smem = memref<8x256xf16, #tile.layout<(8, 256)>, #gpu.address_space<workgroup>>
!bars = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @load_wait_wrong(%A: memref<8x256xf16>, %B: memref<8x256xf16>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %bytes = arith.constant 4096 : index
      %tx = gpu.thread_id x
      %s = tile.arena_view [0] : !smem
      %bar = nvgpu.mbarrier.create -> !bars
      %leader = arith.cmpi eq, %tx, %c0 : index
      scf.if %leader {
        nvgpu.mbarrier.init %bar[%c0], %c1 : !bars
      }
      gpu.barrier
      scf.if %leader {
        // expected-note @+1 {{the TMA load}}
        tile.copy_async %s[0, 0] [8, 256], %A[0, 0] [8, 256] barrier(%bar[%c0])
            : !smem, memref<8x256xf16>, !bars
        nvgpu.mbarrier.arrive.expect_tx %bar[%c0], %bytes : !bars
      }
      gpu.barrier
      // expected-error @+1 {{async-load-wait: this read of shared bytes [0, 4096) comes before any wait on barrier 0 of %1, which completes the TMA load writing bytes [0, 4096)}}
      tile.copy %B[0, 0] [8, 256], %s[0, 0] [8, 256] {scope = "cta"}
          : memref<8x256xf16>, !smem
      gpu.return
    }
    gpu.func @load_wait_right(%A: memref<8x256xf16>, %B: memref<8x256xf16>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %bytes = arith.constant 4096 : index
      %tx = gpu.thread_id x
      %s = tile.arena_view [0] : !smem
      %bar = nvgpu.mbarrier.create -> !bars
      %leader = arith.cmpi eq, %tx, %c0 : index
      scf.if %leader {
        nvgpu.mbarrier.init %bar[%c0], %c1 : !bars
      }
      gpu.barrier
      scf.if %leader {
        tile.copy_async %s[0, 0] [8, 256], %A[0, 0] [8, 256] barrier(%bar[%c0])
            : !smem, memref<8x256xf16>, !bars
        nvgpu.mbarrier.arrive.expect_tx %bar[%c0], %bytes : !bars
      }
      %phase = arith.constant false
      %ticks = arith.constant 10000000 : index
      nvgpu.mbarrier.try_wait.parity %bar[%c0], %phase, %ticks : !bars
      tile.copy %B[0, 0] [8, 256], %s[0, 0] [8, 256] {scope = "cta"}
          : memref<8x256xf16>, !smem
      gpu.return
    }
  }
}

// -----

// async-store-reuse: a stage that a bulk store reads is written again only
// after a bulk_wait_group (read) covering the store.
!smem = memref<8x256xf16, #tile.layout<(8, 256)>, #gpu.address_space<workgroup>>
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @reuse_wrong(%A: memref<8x256xf16>, %B: memref<8x256xf16>) kernel {
      %s = tile.arena_view [0] : !smem
      // expected-note @+1 {{the bulk store}}
      tile.copy_async %B[0, 0] [8, 256], %s[0, 0] [8, 256]
          : memref<8x256xf16>, !smem
      tile.bulk_commit_group
      // expected-error @+1 {{async-store-reuse: this write of shared bytes [0, 4096) comes before a tile.bulk_wait_group covers the bulk store reading bytes [0, 4096) (its group is 1 of 1 pending, counted from the newest)}}
      tile.copy %s[0, 0] [8, 256], %A[0, 0] [8, 256] {scope = "thread"}
          : !smem, memref<8x256xf16>
      gpu.return
    }
    gpu.func @reuse_group_count_wrong(%A: memref<8x256xf16>, %B: memref<8x256xf16>, %C: memref<8x256xf16>) kernel {
      %s = tile.arena_view [0] : !smem
      %t = tile.arena_view [4096] : !smem
      // expected-note @+1 {{the bulk store}}
      tile.copy_async %B[0, 0] [8, 256], %s[0, 0] [8, 256]
          : memref<8x256xf16>, !smem
      tile.bulk_commit_group
      tile.copy_async %C[0, 0] [8, 256], %t[0, 0] [8, 256]
          : memref<8x256xf16>, !smem
      tile.bulk_commit_group
      // Leaves the two newest groups pending: the first store too.
      tile.bulk_wait_group 2 {read}
      // expected-error @+1 {{async-store-reuse: this write of shared bytes [0, 4096) comes before a tile.bulk_wait_group covers the bulk store reading bytes [0, 4096) (its group is 2 of 2 pending, counted from the newest)}}
      tile.copy %s[0, 0] [8, 256], %A[0, 0] [8, 256] {scope = "thread"}
          : !smem, memref<8x256xf16>
      gpu.return
    }
    gpu.func @reuse_right(%A: memref<8x256xf16>, %B: memref<8x256xf16>, %C: memref<8x256xf16>) kernel {
      %s = tile.arena_view [0] : !smem
      %t = tile.arena_view [4096] : !smem
      tile.copy_async %B[0, 0] [8, 256], %s[0, 0] [8, 256]
          : memref<8x256xf16>, !smem
      tile.bulk_commit_group
      tile.copy_async %C[0, 0] [8, 256], %t[0, 0] [8, 256]
          : memref<8x256xf16>, !smem
      tile.bulk_commit_group
      // The older group (the first store) has read its source.
      tile.bulk_wait_group 1 {read}
      tile.copy %s[0, 0] [8, 256], %A[0, 0] [8, 256] {scope = "thread"}
          : !smem, memref<8x256xf16>
      tile.bulk_wait_group 0
      gpu.return
    }
  }
}

// -----

// async-phase and async-load-wait in a two-stage pipeline: stage i % 2 is
// loaded on full[i % 2] and waited with parity (i / 2) % 2.
!stages = memref<2x8x256xf16, #tile.layout<(2, 8, 256)>, #gpu.address_space<workgroup>>
!smem = memref<8x256xf16, #tile.layout<(8, 256)>, #gpu.address_space<workgroup>>
!bars = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 2>
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @phase_wrong(%A: memref<64x256xf16>, %B: memref<64x256xf16>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c8 = arith.constant 8 : index
      %n = arith.constant 8 : index
      %bytes = arith.constant 4096 : index
      %ticks = arith.constant 10000000 : index
      %buf = tile.arena_view [0] : !stages
      %full = nvgpu.mbarrier.create -> !bars
      nvgpu.mbarrier.init %full[%c0], %c1 : !bars
      nvgpu.mbarrier.init %full[%c1], %c1 : !bars
      scf.for %i = %c0 to %n step %c1 {
        %s = arith.remui %i, %c2 : index
        %st = tile.stage %buf[%s] : !stages -> !smem
        %row = arith.muli %i, %c8 : index
        tile.copy_async %st[0, 0] [8, 256], %A[%row, 0] [8, 256] barrier(%full[%s])
            : !smem, memref<64x256xf16>, !bars
        nvgpu.mbarrier.arrive.expect_tx %full[%s], %bytes : !bars
        // Wrong: the parity of the iteration, not of the stage's round.
        %bit = arith.remui %i, %c2 : index
        %parity = arith.cmpi ne, %bit, %c0 : index
        // expected-error @+1 {{async-phase: waits for parity 1 of barrier 1 of %1, but this thread has waited for 0 completion(s) of it, so the phase to wait for has parity 0}}
        nvgpu.mbarrier.try_wait.parity %full[%s], %parity, %ticks : !bars
        tile.copy %B[%row, 0] [8, 256], %st[0, 0] [8, 256] {scope = "thread"}
            : memref<64x256xf16>, !smem
      }
      gpu.return
    }
    gpu.func @phase_right(%A: memref<64x256xf16>, %B: memref<64x256xf16>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c8 = arith.constant 8 : index
      %n = arith.constant 8 : index
      %bytes = arith.constant 4096 : index
      %ticks = arith.constant 10000000 : index
      %buf = tile.arena_view [0] : !stages
      %full = nvgpu.mbarrier.create -> !bars
      nvgpu.mbarrier.init %full[%c0], %c1 : !bars
      nvgpu.mbarrier.init %full[%c1], %c1 : !bars
      scf.for %i = %c0 to %n step %c1 {
        %s = arith.remui %i, %c2 : index
        %st = tile.stage %buf[%s] : !stages -> !smem
        %row = arith.muli %i, %c8 : index
        tile.copy_async %st[0, 0] [8, 256], %A[%row, 0] [8, 256] barrier(%full[%s])
            : !smem, memref<64x256xf16>, !bars
        nvgpu.mbarrier.arrive.expect_tx %full[%s], %bytes : !bars
        %round = arith.divui %i, %c2 : index
        %bit = arith.remui %round, %c2 : index
        %parity = arith.cmpi ne, %bit, %c0 : index
        nvgpu.mbarrier.try_wait.parity %full[%s], %parity, %ticks : !bars
        tile.copy %B[%row, 0] [8, 256], %st[0, 0] [8, 256] {scope = "thread"}
            : memref<64x256xf16>, !smem
      }
      gpu.return
    }
    // A prefetching pipeline: the load of step i + 1 is issued before
    // step i's stage is waited for and read. Wrong: reads the stage being
    // prefetched instead of the waited one.
    gpu.func @stage_wrong(%A: memref<64x256xf16>, %B: memref<64x256xf16>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c8 = arith.constant 8 : index
      %n = arith.constant 8 : index
      %bytes = arith.constant 4096 : index
      %ticks = arith.constant 10000000 : index
      %buf = tile.arena_view [0] : !stages
      %full = nvgpu.mbarrier.create -> !bars
      nvgpu.mbarrier.init %full[%c0], %c1 : !bars
      nvgpu.mbarrier.init %full[%c1], %c1 : !bars
      %st0 = tile.stage %buf[%c0] : !stages -> !smem
      tile.copy_async %st0[0, 0] [8, 256], %A[0, 0] [8, 256] barrier(%full[%c0])
          : !smem, memref<64x256xf16>, !bars
      nvgpu.mbarrier.arrive.expect_tx %full[%c0], %bytes : !bars
      scf.for %i = %c0 to %n step %c1 {
        %next = arith.addi %i, %c1 : index
        %s = arith.remui %i, %c2 : index
        %sn = arith.remui %next, %c2 : index
        %more = arith.cmpi ult, %next, %n : index
        scf.if %more {
          %stn = tile.stage %buf[%sn] : !stages -> !smem
          %rown = arith.muli %next, %c8 : index
          // expected-note @+1 {{the TMA load}}
          tile.copy_async %stn[0, 0] [8, 256], %A[%rown, 0] [8, 256] barrier(%full[%sn])
              : !smem, memref<64x256xf16>, !bars
          nvgpu.mbarrier.arrive.expect_tx %full[%sn], %bytes : !bars
        }
        %round = arith.divui %i, %c2 : index
        %bit = arith.remui %round, %c2 : index
        %parity = arith.cmpi ne, %bit, %c0 : index
        nvgpu.mbarrier.try_wait.parity %full[%s], %parity, %ticks : !bars
        %row = arith.muli %i, %c8 : index
        %wrong = tile.stage %buf[%sn] : !stages -> !smem
        // expected-error @+1 {{async-load-wait: this read of shared bytes [4096, 8192) comes before any wait on barrier 1 of %1, which completes the TMA load writing bytes [4096, 8192)}}
        tile.copy %B[%row, 0] [8, 256], %wrong[0, 0] [8, 256] {scope = "thread"}
            : memref<64x256xf16>, !smem
      }
      gpu.return
    }
    gpu.func @stage_right(%A: memref<64x256xf16>, %B: memref<64x256xf16>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c8 = arith.constant 8 : index
      %n = arith.constant 8 : index
      %bytes = arith.constant 4096 : index
      %ticks = arith.constant 10000000 : index
      %buf = tile.arena_view [0] : !stages
      %full = nvgpu.mbarrier.create -> !bars
      nvgpu.mbarrier.init %full[%c0], %c1 : !bars
      nvgpu.mbarrier.init %full[%c1], %c1 : !bars
      %st0 = tile.stage %buf[%c0] : !stages -> !smem
      tile.copy_async %st0[0, 0] [8, 256], %A[0, 0] [8, 256] barrier(%full[%c0])
          : !smem, memref<64x256xf16>, !bars
      nvgpu.mbarrier.arrive.expect_tx %full[%c0], %bytes : !bars
      scf.for %i = %c0 to %n step %c1 {
        %next = arith.addi %i, %c1 : index
        %s = arith.remui %i, %c2 : index
        %sn = arith.remui %next, %c2 : index
        %more = arith.cmpi ult, %next, %n : index
        scf.if %more {
          %stn = tile.stage %buf[%sn] : !stages -> !smem
          %rown = arith.muli %next, %c8 : index
          tile.copy_async %stn[0, 0] [8, 256], %A[%rown, 0] [8, 256] barrier(%full[%sn])
              : !smem, memref<64x256xf16>, !bars
          nvgpu.mbarrier.arrive.expect_tx %full[%sn], %bytes : !bars
        }
        %round = arith.divui %i, %c2 : index
        %bit = arith.remui %round, %c2 : index
        %parity = arith.cmpi ne, %bit, %c0 : index
        nvgpu.mbarrier.try_wait.parity %full[%s], %parity, %ticks : !bars
        %row = arith.muli %i, %c8 : index
        %st = tile.stage %buf[%s] : !stages -> !smem
        tile.copy %B[%row, 0] [8, 256], %st[0, 0] [8, 256] {scope = "thread"}
            : memref<64x256xf16>, !smem
      }
      gpu.return
    }
  }
}

// -----

// async-phase with the round's parity carried from iteration to iteration, as
// tile-expand-pipelines' persistent loops carry their ring position: the walk
// follows the values a loop it unrolls carries.
!stages = memref<2x8x256xf16, #tile.layout<(2, 8, 256)>, #gpu.address_space<workgroup>>
!smem = memref<8x256xf16, #tile.layout<(8, 256)>, #gpu.address_space<workgroup>>
!bars = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 2>
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @carried_wrong(%A: memref<64x256xf16>, %B: memref<64x256xf16>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c8 = arith.constant 8 : index
      %n = arith.constant 8 : index
      %bytes = arith.constant 4096 : index
      %ticks = arith.constant 10000000 : index
      %false = arith.constant false
      %true = arith.constant true
      %buf = tile.arena_view [0] : !stages
      %full = nvgpu.mbarrier.create -> !bars
      nvgpu.mbarrier.init %full[%c0], %c1 : !bars
      nvgpu.mbarrier.init %full[%c1], %c1 : !bars
      %last = scf.for %i = %c0 to %n step %c1 iter_args(%p = %false) -> (i1) {
        %s = arith.remui %i, %c2 : index
        %st = tile.stage %buf[%s] : !stages -> !smem
        %row = arith.muli %i, %c8 : index
        tile.copy_async %st[0, 0] [8, 256], %A[%row, 0] [8, 256] barrier(%full[%s])
            : !smem, memref<64x256xf16>, !bars
        nvgpu.mbarrier.arrive.expect_tx %full[%s], %bytes : !bars
        // expected-error @+1 {{async-phase: waits for parity 1 of barrier 1 of %1, but this thread has waited for 0 completion(s) of it, so the phase to wait for has parity 0}}
        nvgpu.mbarrier.try_wait.parity %full[%s], %p, %ticks : !bars
        tile.copy %B[%row, 0] [8, 256], %st[0, 0] [8, 256] {scope = "thread"}
            : memref<64x256xf16>, !smem
        // Wrong: flips at every iteration, not when the ring wraps.
        %next = arith.xori %p, %true : i1
        scf.yield %next : i1
      }
      gpu.return
    }
    gpu.func @carried_right(%A: memref<64x256xf16>, %B: memref<64x256xf16>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c8 = arith.constant 8 : index
      %n = arith.constant 8 : index
      %bytes = arith.constant 4096 : index
      %ticks = arith.constant 10000000 : index
      %false = arith.constant false
      %buf = tile.arena_view [0] : !stages
      %full = nvgpu.mbarrier.create -> !bars
      nvgpu.mbarrier.init %full[%c0], %c1 : !bars
      nvgpu.mbarrier.init %full[%c1], %c1 : !bars
      %last = scf.for %i = %c0 to %n step %c1 iter_args(%p = %false) -> (i1) {
        %s = arith.remui %i, %c2 : index
        %st = tile.stage %buf[%s] : !stages -> !smem
        %row = arith.muli %i, %c8 : index
        tile.copy_async %st[0, 0] [8, 256], %A[%row, 0] [8, 256] barrier(%full[%s])
            : !smem, memref<64x256xf16>, !bars
        nvgpu.mbarrier.arrive.expect_tx %full[%s], %bytes : !bars
        nvgpu.mbarrier.try_wait.parity %full[%s], %p, %ticks : !bars
        tile.copy %B[%row, 0] [8, 256], %st[0, 0] [8, 256] {scope = "thread"}
            : memref<64x256xf16>, !smem
        // The round's parity flips after the last stage.
        %wrap = arith.cmpi eq, %s, %c1 : index
        %next = arith.xori %p, %wrap : i1
        scf.yield %next : i1
      }
      // The loop's result is what its last iteration carried: 8 loads are 4
      // rounds, so parity 0 again, which a ninth load into stage 0 waits for.
      %t0 = tile.stage %buf[%c0] : !stages -> !smem
      tile.copy_async %t0[0, 0] [8, 256], %A[%c0, 0] [8, 256] barrier(%full[%c0])
          : !smem, memref<64x256xf16>, !bars
      nvgpu.mbarrier.arrive.expect_tx %full[%c0], %bytes : !bars
      nvgpu.mbarrier.try_wait.parity %full[%c0], %last, %ticks : !bars
      gpu.return
    }
    gpu.func @carried_result_wrong(%A: memref<64x256xf16>, %B: memref<64x256xf16>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c8 = arith.constant 8 : index
      %n = arith.constant 6 : index
      %bytes = arith.constant 4096 : index
      %ticks = arith.constant 10000000 : index
      %false = arith.constant false
      %true = arith.constant true
      %buf = tile.arena_view [0] : !stages
      %full = nvgpu.mbarrier.create -> !bars
      nvgpu.mbarrier.init %full[%c0], %c1 : !bars
      nvgpu.mbarrier.init %full[%c1], %c1 : !bars
      %last = scf.for %i = %c0 to %n step %c1 iter_args(%p = %false) -> (i1) {
        %s = arith.remui %i, %c2 : index
        %st = tile.stage %buf[%s] : !stages -> !smem
        %row = arith.muli %i, %c8 : index
        tile.copy_async %st[0, 0] [8, 256], %A[%row, 0] [8, 256] barrier(%full[%s])
            : !smem, memref<64x256xf16>, !bars
        nvgpu.mbarrier.arrive.expect_tx %full[%s], %bytes : !bars
        nvgpu.mbarrier.try_wait.parity %full[%s], %p, %ticks : !bars
        tile.copy %B[%row, 0] [8, 256], %st[0, 0] [8, 256] {scope = "thread"}
            : memref<64x256xf16>, !smem
        %wrap = arith.cmpi eq, %s, %c1 : index
        %next = arith.xori %p, %wrap : i1
        scf.yield %next : i1
      }
      // Wrong: 6 loads are 3 rounds, so the seventh waits for parity 1, not
      // for the negation of what the loop carried out.
      %flipped = arith.xori %last, %true : i1
      %t0 = tile.stage %buf[%c0] : !stages -> !smem
      tile.copy_async %t0[0, 0] [8, 256], %A[%c0, 0] [8, 256] barrier(%full[%c0])
          : !smem, memref<64x256xf16>, !bars
      nvgpu.mbarrier.arrive.expect_tx %full[%c0], %bytes : !bars
      // expected-error @+1 {{async-phase: waits for parity 0 of barrier 0 of %1, but this thread has waited for 3 completion(s) of it, so the phase to wait for has parity 1}}
      nvgpu.mbarrier.try_wait.parity %full[%c0], %flipped, %ticks : !bars
      gpu.return
    }
  }
}
