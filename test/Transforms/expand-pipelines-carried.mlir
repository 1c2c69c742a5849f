// A persistent pipeline's loops carry the ring position g as r = g mod 2S
// (docs/pipelines.md, "Carried positions"). With the tiles and their
// iterations known, tile-verify-async follows every iteration and the values
// the loops carry, so the stage and the round's parity of each wait are
// checked against the barrier's completions, in five pipelines: a count
// per tile, cooperative and in turns, two stages in flight, and iterations
// regions with tiles of different lengths and empty ones. The first: 3
// tiles of 4 iterations on 3 stages, so the position wraps (2S = 6) inside a
// tile and between tiles, and the tiles start at stages 0, 1 and 2.
// RUN: tile-opt %s -split-input-file --tile-expand-pipelines --tile-materialize-expect-tx --tile-plan-copies --tile-verify-async | FileCheck %s
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

// -----

// Two stages, 5 iterations per tile, the consumers taking the tiles in turns:
// each consumer carries the position through the other's tiles.
// CHECK-LABEL: gpu.func @pingpong
// CHECK-NOT: tile.pipeline
!A = memref<?x?xf32>
!S = memref<2x8x64xf32, #gpu.address_space<workgroup>>
!T = memref<8x64xf32, #gpu.address_space<workgroup>>
gpu.module @k {
  gpu.func @pingpong(%A: !A, %out: memref<?x2xi64>) kernel {
    %s = tile.arena_view [0] : !S
    %z = arith.constant 0 : i64
    %n = arith.constant 5 : index
    %tiles = arith.constant 4 : index
    tile.pipeline (%n) tiles(%tiles) stages(%s : !S) iter_args(%z : i64)
        attributes {consumers = 2, reads = #tile.consumer_reads<wgmma>, in_flight = 1, schedule = #tile.consumer_schedule<pingpong>} produce {
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

// Four stages, 3 iterations per tile, 2 in flight: each tile ends holding
// two stages, released from the position the loop carried out.
// CHECK-LABEL: gpu.func @two_in_flight
// CHECK-NOT: tile.pipeline
!A = memref<?x?xf32>
!S = memref<4x8x64xf32, #gpu.address_space<workgroup>>
!T = memref<8x64xf32, #gpu.address_space<workgroup>>
gpu.module @k {
  gpu.func @two_in_flight(%A: !A, %out: memref<?x2xi64>) kernel {
    %s = tile.arena_view [0] : !S
    %z = arith.constant 0 : i64
    %n = arith.constant 3 : index
    %tiles = arith.constant 5 : index
    tile.pipeline (%n) tiles(%tiles) stages(%s : !S) iter_args(%z : i64)
        attributes {consumers = 2, reads = #tile.consumer_reads<wgmma>, in_flight = 2} produce {
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

// An iterations region: tile t runs [t, 2t + 1), so the tiles have 1, 2, 3
// and 4 iterations and the position moves on by each count mod 6.
// CHECK-LABEL: gpu.func @ranged
// CHECK-NOT: tile.pipeline
!A = memref<?x?xf32>
!S = memref<3x8x64xf32, #gpu.address_space<workgroup>>
!T = memref<8x64xf32, #gpu.address_space<workgroup>>
gpu.module @k {
  gpu.func @ranged(%A: !A, %out: memref<?x2xi64>) kernel {
    %s = tile.arena_view [0] : !S
    %z = arith.constant 0 : i64
    %tiles = arith.constant 4 : index
    tile.pipeline tiles(%tiles) stages(%s : !S) iter_args(%z : i64)
        attributes {consumers = 2, reads = #tile.consumer_reads<wgmma>, in_flight = 1} iterations {
    ^bb0(%t: index):
      %c2 = arith.constant 2 : index
      %c1 = arith.constant 1 : index
      %twice = arith.muli %t, %c2 : index
      %end = arith.addi %twice, %c1 : index
      tile.yield %t, %end : index, index
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

// -----

// Tiles without iterations: tile t runs [t, t + 3 (t mod 2)), so tiles 0 and
// 2 are empty and the position does not move across them.
// CHECK-LABEL: gpu.func @ranged_empty
// CHECK-NOT: tile.pipeline
!A = memref<?x?xf32>
!S = memref<3x8x64xf32, #gpu.address_space<workgroup>>
!T = memref<8x64xf32, #gpu.address_space<workgroup>>
gpu.module @k {
  gpu.func @ranged_empty(%A: !A, %out: memref<?x2xi64>) kernel {
    %s = tile.arena_view [0] : !S
    %z = arith.constant 0 : i64
    %tiles = arith.constant 4 : index
    tile.pipeline tiles(%tiles) stages(%s : !S) iter_args(%z : i64)
        attributes {consumers = 2, reads = #tile.consumer_reads<wgmma>, in_flight = 1} iterations {
    ^bb0(%t: index):
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      %odd = arith.remui %t, %c2 : index
      %len = arith.muli %odd, %c3 : index
      %end = arith.addi %t, %len : index
      tile.yield %t, %end : index, index
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

// -----

// tile.held_stage in consume: the current iteration's stage (0) and the
// previous one's (1), still held with in_flight = 1; the previous one read
// from the tile's second iteration on. Both become the carried position's
// stages, r and r - 1, and the walk checks each read lands on a stage whose
// load it has waited for.
// CHECK-LABEL: gpu.func @held_in_consume
// CHECK-NOT: tile.held_stage
!A = memref<?x?xf32>
!S = memref<3x8x64xf32, #gpu.address_space<workgroup>>
!T = memref<8x64xf32, #gpu.address_space<workgroup>>
gpu.module @k {
  gpu.func @held_in_consume(%A: !A, %out: memref<?x2xf32>) kernel {
    %s = tile.arena_view [0] : !S
    %z = arith.constant 0.0 : f32
    %n = arith.constant 4 : index
    %tiles = arith.constant 3 : index
    tile.pipeline (%n) tiles(%tiles) stages(%s : !S) iter_args(%z : f32)
        attributes {consumers = 2, reads = #tile.consumer_reads<wgmma>, in_flight = 1} produce {
    ^bb0(%tile: index, %k: index, %t: !T):
      %c8 = arith.constant 8 : index
      %row = arith.muli %tile, %c8 : index
      %col = arith.muli %k, %c8 : index
      tile.copy_async %t[0, 0] [8, 64], %A[%row, %col] [8, 64] : !T, !A
      tile.yield
    } consume {
    ^bb0(%tile: index, %k: index, %t: !T, %c: index, %acc: f32):
      %c0 = arith.constant 0 : index
      %now = tile.held_stage 0
      %vnow = tile.stage %s[%now] : !S -> !T
      %x = memref.load %vnow[%c0, %c0] : !T
      %has_prev = arith.cmpi ugt, %k, %c0 : index
      %y = scf.if %has_prev -> (f32) {
        %prev = tile.held_stage 1
        %vprev = tile.stage %s[%prev] : !S -> !T
        %p = memref.load %vprev[%c0, %c0] : !T
        scf.yield %p : f32
      } else {
        scf.yield %z : f32
      }
      %sum = arith.addf %x, %y : f32
      %next = arith.addf %acc, %sum : f32
      tile.yield %next : f32
    } epilogue {
    ^bb0(%tile: index, %c: index, %acc: f32):
      memref.store %acc, %out[%tile, %c] : memref<?x2xf32>
      tile.yield
    }
    gpu.return
  }
}
