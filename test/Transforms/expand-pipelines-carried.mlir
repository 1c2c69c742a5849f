// A persistent pipeline's loops carry the ring position g as r = g mod 2S
// (docs/pipelines.md, "Carried positions"). With the tiles and their
// iterations known, tile-verify-async follows every iteration and the values
// the loops carry, so the stage and the round's parity of each wait are
// checked against the barrier's completions: here 3 tiles of 4 iterations
// on 3 stages, so the position wraps (2S = 6) inside a tile and between
// tiles, and the tiles start at stages 0, 1 and 2.
// RUN: tile-opt %s --tile-expand-pipelines --tile-materialize-expect-tx --tile-plan-copies --tile-verify-async | FileCheck %s
// CHECK-LABEL: gpu.func @persistent
// The producer's loop over a tile's iterations, then the consumers'.
// CHECK: scf.for %{{.*}} = %c0 to %c4 step %c1 iter_args(%{{.*}} = %{{.*}}) -> (i32)
// CHECK: scf.for %{{.*}} = %c0 to %c4 step %c1 iter_args(%{{.*}} = %c0_i64, %{{.*}} = %{{.*}}) -> (i64, i32)
// CHECK-NOT: tile.pipeline
!A = memref<?x?xf32>
!S = memref<3x8x64xf32, #gpu.address_space<workgroup>>
!T = memref<8x64xf32, #gpu.address_space<workgroup>>
gpu.module @k {
  gpu.func @persistent(%A: !A, %out: memref<?x2xi64>) kernel {
    %s = tile.arena_view [0] : !S
    %z = arith.constant 0 : i64
    %n = arith.constant 4 : index
    %tiles = arith.constant 3 : index
    tile.pipeline (%n) tiles(%tiles) stages(%s : !S) iter_args(%z : i64)
        attributes {consumers = 2, reads = #tile.consumer_reads<wgmma>, in_flight = 1} produce {
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
