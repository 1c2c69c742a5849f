// schedule = #tile.consumer_schedule<pingpong>: the consumers take the work
// tiles in turn, consumer c running tiles c, c + N, ... One consumer's
// release frees a stage (the empty barriers count one arrival with wgmma
// reads). A tile after the first waits for its turn (named barrier 15 - c,
// the two warpgroups of the turn) and passes the turn on to the next tile's
// consumer when its iterations are done, before its epilogue: the next
// consumer's main loop then runs while this one's epilogue does.
// RUN: tile-opt %s -split-input-file --tile-expand-pipelines --tile-materialize-expect-tx --canonicalize --cse | FileCheck %s
// The generated protocol passes tile-verify-async.
// RUN: tile-opt %s -split-input-file --tile-expand-pipelines --tile-materialize-expect-tx --tile-plan-copies --tile-verify-async -o /dev/null

// A count per tile: consumer c's loop steps over the other consumer's tiles
// (ring position t x count, as in the cooperative form).
// CHECK-LABEL: gpu.func @turns
// CHECK: nvgpu.mbarrier.init %[[FULL:.*]][%{{.*}}], %c1 :
// CHECK-NEXT: nvgpu.mbarrier.init %[[EMPTY:.*]][%{{.*}}], %c1 :
// CHECK: %[[WG:.*]] = arith.index_cast %{{.*}} : i32 to index
// CHECK: } else {
// CHECK-NEXT: %[[C:.*]] = arith.subi %[[WG]], %c1 : index
// CHECK: scf.for %[[T:.*]] = %[[C]] to %[[TILES:arg2]] step %c2 {
// CHECK: %[[TU:.*]] = arith.index_castui %{{.*}} : i64 to index
// CHECK-NEXT: %[[BASE:.*]] = arith.muli %[[TU]], %[[N:arg1]] : index
// CHECK-NEXT: %[[REST:.*]] = arith.remui %[[BASE]], %c6 : index
// CHECK-NEXT: %[[R0:.*]] = arith.index_castui %[[REST]] : index to i32
// CHECK-NEXT: %[[LATER:.*]] = arith.cmpi ugt, %[[TU]], %c0 : index
// CHECK-NEXT: scf.if %[[LATER]] {
// CHECK-NEXT: %[[MINE:.*]] = arith.subi %c16, %[[WG]] : index
// CHECK-NEXT: %[[MINE32:.*]] = arith.index_cast %[[MINE]] : index to i32
// CHECK-NEXT: nvvm.barrier id = %[[MINE32]] number_of_threads = %c256_i32
// CHECK-NEXT: }
// CHECK-NEXT: %[[R:.*]]:2 = scf.for %[[K:.*]] = %c0 to %[[N]] step %c1 iter_args(%{{.*}} = %c0_i64, %{{.*}} = %[[R0]]) -> (i64, i32) {
// CHECK: nvgpu.mbarrier.try_wait.parity %[[FULL]]
// CHECK: nvgpu.mbarrier.arrive %[[EMPTY]]
// CHECK: scf.yield
// CHECK-NEXT: }
// CHECK-NEXT: %[[NEXT:.*]] = arith.addi %[[TU]], %c1 : index
// CHECK-NEXT: %[[MORE:.*]] = arith.cmpi ult, %[[NEXT]], %[[TILES]] : index
// CHECK-NEXT: scf.if %[[MORE]] {
// CHECK-NEXT: %[[PARITY:.*]] = arith.remui %[[WG]], %c2 : index
// CHECK-NEXT: %[[THEIRS:.*]] = arith.subi %c15, %[[PARITY]] : index
// CHECK-NEXT: %[[THEIRS32:.*]] = arith.index_cast %[[THEIRS]] : index to i32
// CHECK-NEXT: nvvm.barrier.arrive id = %[[THEIRS32]] number_of_threads = %c256_i32
// CHECK-NEXT: }
// CHECK-NEXT: nvvm.wgmma.wait.group.sync.aligned 0
// CHECK: memref.store %[[R]]#0, %arg3[%[[TU]], %[[C]]] : memref<?x2xi64>
!A = memref<?x?xf32>
!S = memref<3x8x64xf32, #gpu.address_space<workgroup>>
!T = memref<8x64xf32, #gpu.address_space<workgroup>>
gpu.module @k {
  gpu.func @turns(%A: !A, %n: index, %tiles: index, %out: memref<?x2xi64>) kernel {
    %s = tile.arena_view [0] : !S
    %z = arith.constant 0 : i64
    tile.pipeline (%n) tiles(%tiles) stages(%s : !S) iter_args(%z : i64)
        attributes {consumers = 2, reads = #tile.consumer_reads<wgmma>, in_flight = 1,
                    schedule = #tile.consumer_schedule<pingpong>} produce {
    ^bb0(%tile: index, %k: index, %t: !T):
      %c8 = arith.constant 8 : index
      %row = arith.muli %tile, %c8 : index
      %col = arith.muli %k, %c8 : index
      tile.copy_async %t[0, 0] [8, 64], %A[%row, %col] [8, 64] : !T, !A
      tile.yield
    } consume {
    ^bb0(%tile: index, %k: index, %t: !T, %c: index, %acc: i64):
      %one = arith.constant 1 : i64
      %next = arith.addi %acc, %one : i64
      tile.yield %next : i64
    } epilogue {
    ^bb0(%tile: index, %c: index, %acc: i64):
      memref.store %acc, %out[%tile, %c] : memref<?x2xi64>
      tile.yield
    }
    gpu.return
  }
}

// -----

// An iterations region: every consumer walks every tile, carrying the ring
// position of each tile's first iteration, and runs its own tiles (t mod 2
// is its index) with their turns.
// CHECK-LABEL: gpu.func @ranged
// CHECK: } else {
// CHECK-NEXT: %[[C:.*]] = arith.subi %{{.*}}, %c1 : index
// CHECK: scf.for %{{.*}} = %c0 to %[[TILES:arg2]] step %c1 iter_args(%{{.*}} = %c0_i32) -> (i32) {
// CHECK: %[[TU:.*]] = arith.index_castui %{{.*}} : i64 to index
// CHECK: %[[COUNT:.*]] = arith.select
// CHECK-NEXT: %[[SLOT:.*]] = arith.remui %[[TU]], %c2 : index
// CHECK-NEXT: %[[MINE:.*]] = arith.cmpi eq, %[[SLOT]], %[[C]] : index
// CHECK-NEXT: scf.if %[[MINE]] {
// CHECK: nvvm.barrier id
// CHECK: scf.for %{{.*}} = %c0 to %[[COUNT]] step %c1
// CHECK: nvvm.barrier.arrive id
// CHECK: nvvm.wgmma.wait.group.sync.aligned 0
// CHECK: memref.store
// CHECK: }
// CHECK: %[[REST:.*]] = arith.remui %[[COUNT]], %c6 : index
// CHECK: %[[NEXTRING:.*]] = arith.select
// CHECK-NEXT: scf.yield %[[NEXTRING]] : i32
!A = memref<?x?xf32>
!S = memref<3x8x64xf32, #gpu.address_space<workgroup>>
!T = memref<8x64xf32, #gpu.address_space<workgroup>>
gpu.module @k {
  gpu.func @ranged(%A: !A, %n: index, %tiles: index, %out: memref<?x2xi64>) kernel {
    %s = tile.arena_view [0] : !S
    %z = arith.constant 0 : i64
    tile.pipeline tiles(%tiles) stages(%s : !S) iter_args(%z : i64)
        attributes {consumers = 2, reads = #tile.consumer_reads<wgmma>, in_flight = 1,
                    schedule = #tile.consumer_schedule<pingpong>} iterations {
    ^bb0(%tile: index):
      %first = arith.muli %tile, %n : index
      %end0 = arith.addi %first, %n : index
      %c1x = arith.constant 1 : index
      %end = arith.subi %end0, %c1x : index
      tile.yield %first, %end : index, index
    } produce {
    ^bb0(%tile: index, %k: index, %t: !T):
      %c8 = arith.constant 8 : index
      %row = arith.muli %tile, %c8 : index
      %col = arith.muli %k, %c8 : index
      tile.copy_async %t[0, 0] [8, 64], %A[%row, %col] [8, 64] : !T, !A
      tile.yield
    } consume {
    ^bb0(%tile: index, %k: index, %t: !T, %c: index, %acc: i64):
      %one = arith.constant 1 : i64
      %next = arith.addi %acc, %one : i64
      tile.yield %next : i64
    } epilogue {
    ^bb0(%tile: index, %c: index, %acc: i64):
      memref.store %acc, %out[%tile, %c] : memref<?x2xi64>
      tile.yield
    }
    gpu.return
  }
}
