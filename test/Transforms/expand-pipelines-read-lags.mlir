// read_lags: consume(k) reads stage buffer 0 (lag 0) at iteration k and
// buffer 1 (lag 1) at iteration max(k - 1, 0), as attention reads K of block
// k and V of block k - 1 (docs/pipelines.md, "Buffers read at different
// iterations"). Each lag has its own full and empty barriers: the producer
// waits for buffer 0's release right before its load and announces its bytes
// right after, then does the same for buffer 1; the consumer waits for each
// lag's stage, and releases buffer 0's stage of iteration k and buffer 1's
// of k - 1 after consume(k); the epilogue waits for buffer 1's last stage.
// With 6 iterations on 3 stages, tile-verify-async follows every iteration
// and checks each wait's stage and parity against the barriers' completions.
// RUN: tile-opt %s -split-input-file --tile-expand-pipelines --tile-materialize-expect-tx --tile-plan-copies --tile-verify-async | FileCheck %s
// RUN: tile-opt %s -split-input-file --tile-expand-pipelines | FileCheck %s --check-prefix=EXPAND

// CHECK-LABEL: gpu.func @lagged
// CHECK-NOT: tile.pipeline
// EXPAND-LABEL: gpu.func @lagged
// Two barrier groups per role: full and empty for lag 0, then for lag 1.
// EXPAND: %[[FULL0:.*]] = nvgpu.mbarrier.create -> <memorySpace = #gpu.address_space<workgroup>, num_barriers = 3>
// EXPAND: %[[EMPTY0:.*]] = nvgpu.mbarrier.create
// EXPAND: %[[FULL1:.*]] = nvgpu.mbarrier.create
// EXPAND: %[[EMPTY1:.*]] = nvgpu.mbarrier.create
// EXPAND: nvgpu.mbarrier.init %[[FULL0]]
// EXPAND: nvgpu.mbarrier.init %[[EMPTY0]]
// EXPAND: nvgpu.mbarrier.init %[[FULL1]]
// EXPAND: nvgpu.mbarrier.init %[[EMPTY1]]
// The producer: buffer 0's release, load and bytes, then buffer 1's.
// EXPAND: scf.for %[[K:.*]] = %c0 to %c6 step %c1 {
// EXPAND: %[[SLOT:.*]] = arith.remui %[[K]], %c3
// EXPAND: scf.if
// EXPAND-NEXT: arith.divui %[[K]], %c3
// EXPAND: nvgpu.mbarrier.try_wait.parity %[[EMPTY0]][%{{.*}}]
// EXPAND: tile.copy_async {{.*}} barrier(%[[FULL0]][%[[SLOT]]])
// EXPAND-NEXT: tile.arrive_expect_tx %[[FULL0]][%[[SLOT]]]
// EXPAND-NEXT: scf.if
// EXPAND: nvgpu.mbarrier.try_wait.parity %[[EMPTY1]][%{{.*}}]
// EXPAND: tile.copy_async {{.*}} barrier(%[[FULL1]][%[[SLOT]]])
// EXPAND-NEXT: tile.arrive_expect_tx %[[FULL1]][%[[SLOT]]]
// The consumer: buffer 0 at k, buffer 1 at max(k - 1, 0).
// EXPAND: scf.for %[[I:.*]] = %c0 to %c6 step %c1 iter_args
// EXPAND: nvgpu.mbarrier.try_wait.parity %[[FULL0]]
// EXPAND: %[[PAST:.*]] = arith.cmpi uge, %[[I]], %c1
// EXPAND: %[[BACK:.*]] = arith.subi %[[I]], %c1
// EXPAND: %[[READ:.*]] = arith.select %[[PAST]], %[[BACK]], %[[I]]
// Each phase is waited for once: iteration 0 at k = 0, k - 1 from k = 2.
// EXPAND: %[[FIRST:.*]] = arith.cmpi eq, %[[I]], %c0
// EXPAND: %[[LATER:.*]] = arith.cmpi ugt, %[[I]], %c1
// EXPAND: %[[WAIT:.*]] = arith.ori %[[FIRST]], %[[LATER]]
// EXPAND: scf.if %[[WAIT]]
// EXPAND: nvgpu.mbarrier.try_wait.parity %[[FULL1]]
// Releases: buffer 0's stage of k at once, buffer 1's of k - 1 from k = 1.
// EXPAND: nvgpu.mbarrier.arrive %[[EMPTY0]]
// EXPAND: %[[STARTED:.*]] = arith.cmpi uge, %[[I]], %c1
// EXPAND: scf.if
// EXPAND: nvgpu.mbarrier.arrive %[[EMPTY1]]
// The epilogue waits for buffer 1's last stage (where it is not stage 0).
// EXPAND: arith.cmpi ugt, %c6, %c1
// EXPAND: scf.if
// EXPAND: nvgpu.mbarrier.try_wait.parity %[[FULL1]]
// EXPAND: memref.load
// EXPAND: memref.store
!A = memref<?x?xf32>
!S = memref<3x8x64xf32, #gpu.address_space<workgroup>>
!T = memref<8x64xf32, #gpu.address_space<workgroup>>
gpu.module @k {
  gpu.func @lagged(%A: !A, %B: !A, %out: memref<2xf32>) kernel {
    %sa = tile.arena_view [0] : !S
    %sb = tile.arena_view [6144] : !S
    %z = arith.constant 0.0 : f32
    %n = arith.constant 6 : index
    tile.pipeline (%n) stages(%sa, %sb : !S, !S) iter_args(%z : f32)
        attributes {consumers = 2, read_lags = array<i64: 0, 1>} produce {
    ^bb0(%k: index, %a: !T, %b: !T):
      %c8 = arith.constant 8 : index
      %row = arith.muli %k, %c8 : index
      tile.copy_async %a[0, 0] [8, 64], %A[%row, 0] [8, 64] : !T, !A
      tile.copy_async %b[0, 0] [8, 64], %B[%row, 0] [8, 64] : !T, !A
      tile.yield
    } consume {
    ^bb0(%k: index, %a: !T, %b: !T, %c: index, %acc: f32):
      %c0 = arith.constant 0 : index
      %x = memref.load %a[%c0, %c0] : !T
      %y = memref.load %b[%c0, %c0] : !T
      %s = arith.addf %x, %y : f32
      %next = arith.addf %acc, %s : f32
      tile.yield %next : f32
    } epilogue {
    ^bb0(%c: index, %acc: f32):
      // Buffer 1's last stage (iteration 5, stage 2), as attention's last
      // P V reads the last block's V.
      %c0 = arith.constant 0 : index
      %c2 = arith.constant 2 : index
      %last = tile.stage %sb[%c2] : !S -> !T
      %y = memref.load %last[%c0, %c0] : !T
      %s = arith.addf %acc, %y : f32
      memref.store %s, %out[%c] : memref<2xf32>
      tile.yield
    }
    gpu.return
  }
}

// -----

// A persistent pipeline with read_lags: 3 tiles of 4 iterations on 3 stages
// (the ring wraps inside tiles and between them), lags counted within a
// tile (its first iteration reads the tile's own first stage of buffer 1).
// Each tile ends holding buffer 1's last stage, which the epilogue reads
// (tile.held_stage 1 as a view of buffer 1) and which goes back after it.
// tile-verify-async follows every tile and iteration.
// CHECK-LABEL: gpu.func @lagged_persistent
// CHECK-NOT: tile.pipeline
// EXPAND-LABEL: gpu.func @lagged_persistent
// The consumer's loop carries the ring position; buffer 1 is read one
// position back, or at the current one in the tile's first iteration.
// EXPAND: scf.for %[[I:.*]] = %c0 to %c4 step %c1 iter_args(%{{.*}} = %cst{{.*}}, %[[P:.*]] = %{{.*}}) -> (f32, i32)
// EXPAND: %[[PAST:.*]] = arith.cmpi uge, %[[I]], %c1
// EXPAND: arith.select %[[PAST]], %{{.*}}, %[[P]] : i32
// After the tile's loop: the last stage of buffer 1 waited for, the
// epilogue, then its release.
// EXPAND: arith.cmpi ugt, %c4, %c1
// EXPAND: nvgpu.mbarrier.try_wait.parity
// EXPAND: memref.load
// EXPAND: memref.store
// EXPAND: nvgpu.mbarrier.arrive
!A = memref<?x?xf32>
!S = memref<3x8x64xf32, #gpu.address_space<workgroup>>
!T = memref<8x64xf32, #gpu.address_space<workgroup>>
gpu.module @k {
  gpu.func @lagged_persistent(%A: !A, %B: !A, %out: memref<3x2xf32>) kernel {
    %sa = tile.arena_view [0] : !S
    %sb = tile.arena_view [6144] : !S
    %z = arith.constant 0.0 : f32
    %n = arith.constant 4 : index
    %tiles = arith.constant 3 : index
    tile.pipeline (%n) tiles(%tiles) stages(%sa, %sb : !S, !S) iter_args(%z : f32)
        attributes {consumers = 2, read_lags = array<i64: 0, 1>} produce {
    ^bb0(%t: index, %k: index, %a: !T, %b: !T):
      %c8 = arith.constant 8 : index
      %row = arith.muli %k, %c8 : index
      %col = arith.muli %t, %c8 : index
      tile.copy_async %a[0, 0] [8, 64], %A[%row, %col] [8, 64] : !T, !A
      tile.copy_async %b[0, 0] [8, 64], %B[%row, %col] [8, 64] : !T, !A
      tile.yield
    } consume {
    ^bb0(%t: index, %k: index, %a: !T, %b: !T, %c: index, %acc: f32):
      %c0 = arith.constant 0 : index
      %x = memref.load %a[%c0, %c0] : !T
      %y = memref.load %b[%c0, %c0] : !T
      %s = arith.addf %x, %y : f32
      %next = arith.addf %acc, %s : f32
      tile.yield %next : f32
    } epilogue {
    ^bb0(%t: index, %c: index, %acc: f32):
      %c0 = arith.constant 0 : index
      %held = tile.held_stage 1
      %last = tile.stage %sb[%held] : !S -> !T
      %y = memref.load %last[%c0, %c0] : !T
      %s = arith.addf %acc, %y : f32
      memref.store %s, %out[%t, %c] : memref<3x2xf32>
      tile.yield
    }
    gpu.return
  }
}
