// One barrier, spelled `%c2` and `arith.addi %c1, %c1`: the transaction-byte
// scan (tile-materialize-expect-tx, the async-tx-bytes rule) and the path
// walk (async-phase, async-load-wait) both name it barrier 2
// (AsyncProtocol/BarrierIdentity.h).
// RUN: tile-opt %s -split-input-file --tile-materialize-expect-tx | FileCheck %s
// RUN: tile-opt %s -split-input-file --tile-materialize-expect-tx --tile-verify-async -verify-diagnostics -o /dev/null

!half = memref<8x256xf16, #tile.layout<(8, 256)>, #gpu.address_space<workgroup>>
!quarter = memref<4x256xf16, #tile.layout<(4, 256)>, #gpu.address_space<workgroup>>
!bars = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 4>
module attributes {gpu.container_module} {
  gpu.module @k {
    // 4096 bytes on barrier 2, announced on %two; 2048 on barrier 1. The
    // walk then waits on %two for the load issued on %c2 and reads its bytes
    // without a report.
    // CHECK-LABEL: gpu.func @computed_index
    // CHECK: %[[TWO:.*]] = arith.addi
    // CHECK: %[[BAR:.*]] = nvgpu.mbarrier.create
    // CHECK: %[[B2:.*]] = arith.constant 4096 : index
    // CHECK-NEXT: nvgpu.mbarrier.arrive.expect_tx %[[BAR]][%[[TWO]]], %[[B2]]
    // CHECK: %[[B1:.*]] = arith.constant 2048 : index
    // CHECK-NEXT: nvgpu.mbarrier.arrive.expect_tx %[[BAR]][%{{.*}}], %[[B1]]
    // CHECK-NOT: tile.arrive_expect_tx
    gpu.func @computed_index(%A: memref<8x256xf16>, %B: memref<8x256xf16>) kernel {
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %phase = arith.constant false
      %ticks = arith.constant 10000000 : index
      %two = arith.addi %c1, %c1 : index
      %s = tile.arena_view [0] : !half
      %q = tile.arena_view [4096] : !quarter
      %bar = nvgpu.mbarrier.create -> !bars
      nvgpu.mbarrier.init %bar[%two], %c1 : !bars
      nvgpu.mbarrier.init %bar[%c1], %c1 : !bars
      tile.copy_async %s[0, 0] [8, 256], %A[0, 0] [8, 256] barrier(%bar[%c2])
          : !half, memref<8x256xf16>, !bars
      tile.copy_async %q[0, 0] [4, 256], %A[0, 0] [4, 256] barrier(%bar[%c1])
          : !quarter, memref<8x256xf16>, !bars
      tile.arrive_expect_tx %bar[%two] : !bars
      tile.arrive_expect_tx %bar[%c1] : !bars
      nvgpu.mbarrier.try_wait.parity %bar[%two], %phase, %ticks : !bars
      tile.copy %B[0, 0] [8, 256], %s[0, 0] [8, 256] {scope = "cta"}
          : memref<8x256xf16>, !half
      nvgpu.mbarrier.try_wait.parity %bar[%c1], %phase, %ticks : !bars
      gpu.return
    }
  }
}

// -----

// The same barrier under both spellings in the verifier: the scan adds the
// bytes of the load on %c2 to the announcement on %two, and the walk counts
// the wait on %two as the first completion of the barrier the wait on %c2
// waits for again.
!half = memref<8x256xf16, #tile.layout<(8, 256)>, #gpu.address_space<workgroup>>
!bars = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 4>
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @both_engines(%A: memref<8x256xf16>, %B: memref<8x256xf16>) kernel {
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %bytes = arith.constant 2048 : index
      %full = arith.constant 4096 : index
      %phase = arith.constant false
      %ticks = arith.constant 10000000 : index
      %two = arith.addi %c1, %c1 : index
      %s = tile.arena_view [0] : !half
      %bar = nvgpu.mbarrier.create -> !bars
      nvgpu.mbarrier.init %bar[%two], %c1 : !bars
      // expected-note @+1 {{this load delivers 4096 bytes}}
      tile.copy_async %s[0, 0] [8, 256], %A[0, 0] [8, 256] barrier(%bar[%c2])
          : !half, memref<8x256xf16>, !bars
      // expected-error @+1 {{async-tx-bytes: arrive.expect_tx announces 2048 bytes on barrier 2 of %2, but the 1 load(s) signalling it in this phase deliver 4096 bytes (4096)}}
      nvgpu.mbarrier.arrive.expect_tx %bar[%two], %bytes : !bars
      nvgpu.mbarrier.try_wait.parity %bar[%two], %phase, %ticks : !bars
      tile.copy %B[0, 0] [8, 256], %s[0, 0] [8, 256] {scope = "cta"}
          : memref<8x256xf16>, !half
      tile.copy_async %s[0, 0] [8, 256], %A[0, 0] [8, 256] barrier(%bar[%two])
          : !half, memref<8x256xf16>, !bars
      nvgpu.mbarrier.arrive.expect_tx %bar[%c2], %full : !bars
      // expected-error @+1 {{async-phase: waits for parity 0 of barrier 2 of %2, but this thread has waited for 1 completion(s) of it, so the phase to wait for has parity 1}}
      nvgpu.mbarrier.try_wait.parity %bar[%c2], %phase, %ticks : !bars
      gpu.return
    }
  }
}

// -----

// An index neither engine knows is the barrier of its SSA value; the walk
// names it so, as the scan does.
!half = memref<8x256xf16, #tile.layout<(8, 256)>, #gpu.address_space<workgroup>>
!bars = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 4>
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @symbolic_index(%A: memref<8x256xf16>, %B: memref<8x256xf16>, %i: index) kernel {
      %s = tile.arena_view [0] : !half
      %bar = nvgpu.mbarrier.create -> !bars
      // expected-note @+1 {{the TMA load}}
      tile.copy_async %s[0, 0] [8, 256], %A[0, 0] [8, 256] barrier(%bar[%i])
          : !half, memref<8x256xf16>, !bars
      // expected-error @+1 {{async-load-wait: this read of shared bytes [0, 4096) comes before any wait on barrier %arg2 of %1, which completes the TMA load writing bytes [0, 4096)}}
      tile.copy %B[0, 0] [8, 256], %s[0, 0] [8, 256] {scope = "cta"}
          : memref<8x256xf16>, !half
      gpu.return
    }
  }
}
