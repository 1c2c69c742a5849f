// The cluster rules of tile-verify-async, each on a minimal wrong kernel and
// its corrected twin (which verifies clean).
// RUN: tile-opt %s -split-input-file --tile-verify-async -verify-diagnostics -o /dev/null

// async-cluster-barrier: only thread 0 arrives at the cluster barrier, so the
// other threads of the cluster wait for it forever.
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @barrier_wrong() kernel {
      %c0 = arith.constant 0 : index
      %tid = gpu.thread_id x
      %leader = arith.cmpi eq, %tid, %c0 : index
      // expected-note @+1 {{the divergent control flow}}
      scf.if %leader {
        // expected-error @+1 {{async-cluster-barrier: 'nvvm.cluster.arrive' completes only when every thread of every CTA of the cluster arrives, but it sits under 'scf.if', whose condition depends on the thread's or the CTA's position; threads that skip it leave the others waiting}}
        nvvm.cluster.arrive
        nvvm.cluster.wait
      }
      gpu.return
    }
    // The twin: every thread reaches the barrier; only the work is the
    // leader's.
    gpu.func @barrier_right(%flag: i1) kernel {
      %c0 = arith.constant 0 : index
      %tid = gpu.thread_id x
      %leader = arith.cmpi eq, %tid, %c0 : index
      scf.if %leader {
        nvvm.fence.mbarrier.init
      }
      // A condition every thread shares (a kernel argument) may enclose it.
      scf.if %flag {
        nvvm.cluster.arrive
        nvvm.cluster.wait
      }
      gpu.return
    }
  }
}

// -----

// async-cluster-barrier: the condition is the CTA's rank in the cluster,
// reached through arithmetic; a loop whose bound depends on the thread counts
// too.
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @rank_wrong(%n: index) kernel {
      %zero = arith.constant 0 : i32
      %rank = nvvm.read.ptx.sreg.cluster.ctarank : i32
      %first = arith.cmpi eq, %rank, %zero : i32
      // expected-note @+1 {{the divergent control flow}}
      scf.if %first {
        // expected-error @+1 {{async-cluster-barrier: 'nvvm.cluster.arrive' completes only when every thread of every CTA of the cluster arrives}}
        nvvm.cluster.arrive
      }
      nvvm.cluster.wait
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %tid = gpu.thread_id x
      %bound = arith.addi %tid, %n : index
      // expected-note @+1 {{the divergent control flow}}
      scf.for %i = %c0 to %bound step %c1 {
        // expected-error @+1 {{async-cluster-barrier: 'nvvm.cluster.arrive' completes only when every thread of every CTA of the cluster arrives, but it sits under 'scf.for', whose bounds depend on the thread's or the CTA's position}}
        nvvm.cluster.arrive
        nvvm.cluster.wait
      }
      gpu.return
    }
    gpu.func @rank_right(%n: index) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      scf.for %i = %c0 to %n step %c1 {
        nvvm.cluster.arrive
        nvvm.cluster.wait
      }
      gpu.return
    }
  }
}

// -----

// async-cluster-barrier in a gpu.launch body: the block id is one of the
// body's arguments.
func.func @launch_wrong() {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c128 = arith.constant 128 : index
  gpu.launch clusters(%cx, %cy, %cz) in (%ncx = %c2, %ncy = %c1, %ncz = %c1)
             blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c128, %sy = %c1, %sz = %c1) {
    %c0 = arith.constant 0 : index
    %odd = arith.cmpi ne, %bx, %c0 : index
    // expected-note @+1 {{the divergent control flow}}
    scf.if %odd {
      // expected-error @+1 {{async-cluster-barrier}}
      nvvm.cluster.arrive
    }
    nvvm.cluster.wait
    // The block size is shared by every thread.
    %wide = arith.cmpi eq, %sx, %c128 : index
    scf.if %wide {
      nvvm.cluster.arrive
      nvvm.cluster.wait
    }
    gpu.terminator
  }
  return
}

// -----

// async-cluster-exit: CTA 0 multicasts into both CTAs of the cluster and
// nothing keeps CTA 1 alive until the copy has landed.
!smem = memref<8x256xf16, #tile.layout<(8, 256)>, #gpu.address_space<workgroup>>
!bars = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @exit_wrong(%A: memref<8x256xf16>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %bytes = arith.constant 4096 : index
      %ticks = arith.constant 10000000 : index
      %s = tile.arena_view [0] : !smem
      %bar = nvgpu.mbarrier.create -> !bars
      %tid = gpu.thread_id x
      %leader = arith.cmpi eq, %tid, %c0 : index
      scf.if %leader {
        nvgpu.mbarrier.init %bar[%c0], %c1 : !bars
        nvvm.fence.mbarrier.init
      }
      nvvm.cluster.arrive
      nvvm.cluster.wait
      scf.if %leader {
        nvgpu.mbarrier.arrive.expect_tx %bar[%c0], %bytes : !bars
        %rank = nvvm.read.ptx.sreg.cluster.ctarank : i32
        %zero = arith.constant 0 : i32
        %first = arith.cmpi eq, %rank, %zero : i32
        scf.if %first {
          %mask = arith.constant 3 : i16
          // expected-error @+1 {{async-cluster-exit: this multicast load writes the shared memory of the cluster's other CTAs, but the kernel has no cluster barrier (nvvm.cluster.arrive, nvvm.cluster.wait) after it in its top-level block; a CTA may exit while a peer's load still writes into its shared memory}}
          tile.copy_async %s[0, 0] [8, 256], %A[0, 0] [8, 256]
              barrier(%bar[%c0]) multicast(%mask)
              : !smem, memref<8x256xf16>, !bars
        }
      }
      %phase = arith.constant false
      nvgpu.mbarrier.try_wait.parity %bar[%c0], %phase, %ticks : !bars
      gpu.return
    }
    gpu.func @exit_right(%A: memref<8x256xf16>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %bytes = arith.constant 4096 : index
      %ticks = arith.constant 10000000 : index
      %s = tile.arena_view [0] : !smem
      %bar = nvgpu.mbarrier.create -> !bars
      %tid = gpu.thread_id x
      %leader = arith.cmpi eq, %tid, %c0 : index
      scf.if %leader {
        nvgpu.mbarrier.init %bar[%c0], %c1 : !bars
        nvvm.fence.mbarrier.init
      }
      nvvm.cluster.arrive
      nvvm.cluster.wait
      scf.if %leader {
        nvgpu.mbarrier.arrive.expect_tx %bar[%c0], %bytes : !bars
        %rank = nvvm.read.ptx.sreg.cluster.ctarank : i32
        %zero = arith.constant 0 : i32
        %first = arith.cmpi eq, %rank, %zero : i32
        scf.if %first {
          %mask = arith.constant 3 : i16
          tile.copy_async %s[0, 0] [8, 256], %A[0, 0] [8, 256]
              barrier(%bar[%c0]) multicast(%mask)
              : !smem, memref<8x256xf16>, !bars
        }
      }
      %phase = arith.constant false
      nvgpu.mbarrier.try_wait.parity %bar[%c0], %phase, %ticks : !bars
      // No CTA leaves while a peer may still receive its multicast.
      nvvm.cluster.arrive
      nvvm.cluster.wait
      gpu.return
    }
  }
}

// -----

// async-tx-bytes with multicast: in a cluster of 2 every CTA's thread 0
// issues its half of the tile (4 rows, 2048 bytes) to both CTAs, so each
// CTA's barrier receives both halves, 4096 bytes; announcing one half leaves
// the phase to complete before the peer's half landed.
!smem = memref<8x256xf16, #tile.layout<(8, 256)>, #gpu.address_space<workgroup>>
!bars = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @tx_multicast_wrong(%A: memref<8x256xf16>) kernel
        attributes {known_cluster_size = array<i32: 2, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %half = arith.constant 2048 : index
      %ticks = arith.constant 10000000 : index
      %s = tile.arena_view [0] : !smem
      %bar = nvgpu.mbarrier.create -> !bars
      %tid = gpu.thread_id x
      %rank32 = nvvm.read.ptx.sreg.cluster.ctarank : i32
      %rank = arith.index_cast %rank32 : i32 to index
      %row = arith.muli %rank, %c4 : index
      %leader = arith.cmpi eq, %tid, %c0 : index
      scf.if %leader {
        nvgpu.mbarrier.init %bar[%c0], %c1 : !bars
        nvvm.fence.mbarrier.init
      }
      nvvm.cluster.arrive
      nvvm.cluster.wait
      scf.if %leader {
        // expected-error @+1 {{async-tx-bytes: arrive.expect_tx announces 2048 bytes on barrier 0 of %1, but the 1 load(s) signalling it in this phase deliver 4096 bytes (2 CTAs x 2048)}}
        nvgpu.mbarrier.arrive.expect_tx %bar[%c0], %half : !bars
        %mask = arith.constant 3 : i16
        // expected-note @+1 {{this load delivers 2048 bytes from each of the cluster's 2 CTAs}}
        tile.copy_async %s[%row, 0] [4, 256], %A[%row, 0] [4, 256]
            barrier(%bar[%c0]) multicast(%mask)
            : !smem, memref<8x256xf16>, !bars
      }
      %phase = arith.constant false
      nvgpu.mbarrier.try_wait.parity %bar[%c0], %phase, %ticks : !bars
      nvvm.cluster.arrive
      nvvm.cluster.wait
      gpu.return
    }
    gpu.func @tx_multicast_right(%A: memref<8x256xf16>) kernel
        attributes {known_cluster_size = array<i32: 2, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %both = arith.constant 4096 : index
      %ticks = arith.constant 10000000 : index
      %s = tile.arena_view [0] : !smem
      %bar = nvgpu.mbarrier.create -> !bars
      %tid = gpu.thread_id x
      %rank32 = nvvm.read.ptx.sreg.cluster.ctarank : i32
      %rank = arith.index_cast %rank32 : i32 to index
      %row = arith.muli %rank, %c4 : index
      %leader = arith.cmpi eq, %tid, %c0 : index
      scf.if %leader {
        nvgpu.mbarrier.init %bar[%c0], %c1 : !bars
        nvvm.fence.mbarrier.init
      }
      nvvm.cluster.arrive
      nvvm.cluster.wait
      scf.if %leader {
        nvgpu.mbarrier.arrive.expect_tx %bar[%c0], %both : !bars
        %mask = arith.constant 3 : i16
        tile.copy_async %s[%row, 0] [4, 256], %A[%row, 0] [4, 256]
            barrier(%bar[%c0]) multicast(%mask)
            : !smem, memref<8x256xf16>, !bars
      }
      %phase = arith.constant false
      nvgpu.mbarrier.try_wait.parity %bar[%c0], %phase, %ticks : !bars
      nvvm.cluster.arrive
      nvvm.cluster.wait
      gpu.return
    }
  }
}
