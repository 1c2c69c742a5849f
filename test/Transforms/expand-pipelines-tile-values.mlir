// tile.pipeline iterations { ... tile.yield %first, %end, %values... }: the
// region answers once per tile which rows the tile covers (here read from
// a table in device memory, as a grouped GEMM reads its groups' counts),
// and every region takes those values after the tile. The producer reads
// them once per tile and computes what depends on them before the tile's
// loop over its iterations; the consumers make them warp-uniform.
// RUN: tile-opt %s --tile-expand-pipelines --tile-materialize-expect-tx --canonicalize --cse | FileCheck %s
// The generated protocol passes tile-verify-async.
// RUN: tile-opt %s --tile-expand-pipelines --tile-materialize-expect-tx --tile-plan-copies --tile-verify-async -o /dev/null

// The producer: the table read once per tile, the load's row (a tile
// value) before the tile's loop over its iterations.
// CHECK-LABEL: gpu.func @table
// CHECK: scf.for %[[PT:.*]] = %c0 to %[[TILES:arg2]] step %c1 iter_args(%{{.*}} = %c0_i32, %{{.*}} = %c3) -> (i32, index) {
// CHECK-NEXT: %[[PFIRST:.*]] = memref.load %[[TABLE:arg1]][%[[PT]]] : memref<?xindex>
// CHECK-NEXT: %[[PROW:.*]] = arith.muli %[[PFIRST]], %c8 : index
// CHECK: scf.for %[[PI:.*]] = %c0 to %c4 step %c1 iter_args(%{{.*}} = %{{.*}}) -> (i32) {
// CHECK-NOT: memref.load
// CHECK: tile.copy_async %{{.*}}[0, 0] [8, 64], %arg0[%[[PROW]], %{{.*}}] [8, 64] barrier
// The consumers: the same read, the values shuffled from lane 0 (their
// two 32-bit halves); the row, a multiple of 8, shuffled as row / 8 and
// multiplied back, so the IR still proves it a multiple of 8 (a TMA
// coordinate's alignment).
// CHECK: } else {
// CHECK: scf.for %{{.*}} = %c0 to %[[TILES]] step %c1 iter_args(%{{.*}} = %c0_i32) -> (i32) {
// CHECK: %[[FIRST:.*]] = memref.load %[[TABLE]][%{{.*}}] : memref<?xindex>
// CHECK-NEXT: %[[ROW:.*]] = arith.muli %[[FIRST]], %c8 : index
// CHECK-NEXT: %[[WIDE:.*]] = arith.index_castui %[[FIRST]] : index to i64
// CHECK: gpu.shuffle  idx
// CHECK: gpu.shuffle  idx
// CHECK: %[[VU:.*]] = arith.index_castui %{{.*}} : i64 to index
// CHECK-NEXT: %[[QUOT:.*]] = arith.divui %[[ROW]], %c8 : index
// CHECK: gpu.shuffle  idx
// CHECK: gpu.shuffle  idx
// CHECK: %[[QU:.*]] = arith.index_castui %{{.*}} : i64 to index
// CHECK-NEXT: %[[ROWU:.*]] = arith.muli %[[QU]], %c8 : index
// CHECK: nvvm.wgmma.wait.group.sync.aligned 0
// CHECK: memref.store %{{.*}}, %arg3[%[[VU]], %{{.*}}] : memref<?x2xi64>
// CHECK-NEXT: memref.store %{{.*}}, %arg3[%[[ROWU]], %{{.*}}] : memref<?x2xi64>
!A = memref<?x?xf32>
!S = memref<3x8x64xf32, #gpu.address_space<workgroup>>
!T = memref<8x64xf32, #gpu.address_space<workgroup>>
gpu.module @k {
  gpu.func @table(%A: !A, %table: memref<?xindex>, %tiles: index, %out: memref<?x2xi64>) kernel {
    %s = tile.arena_view [0] : !S
    %z = arith.constant 0 : i64
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    tile.pipeline tiles(%tiles) stages(%s : !S) iter_args(%z : i64)
        attributes {consumers = 2, reads = #tile.consumer_reads<wgmma>, in_flight = 1}
    iterations {
    ^bb0(%tile: index):
      %first = memref.load %table[%tile] : memref<?xindex>
      %row = arith.muli %first, %c8 : index
      tile.yield %c0, %c4, %first, %row : index, index, index, index
    } produce {
    ^bb0(%tile: index, %first: index, %row: index, %k: index, %t: !T):
      %col = arith.muli %k, %c8 : index
      tile.copy_async %t[0, 0] [8, 64], %A[%row, %col] [8, 64] : !T, !A
      tile.yield
    } consume {
    ^bb0(%tile: index, %first: index, %row: index, %k: index, %t: !T, %c: index, %acc: i64):
      %one = arith.constant 1 : i64
      %next = arith.addi %acc, %one : i64
      tile.yield %next : i64
    } epilogue {
    ^bb0(%tile: index, %first: index, %row: index, %c: index, %acc: i64):
      memref.store %acc, %out[%first, %c] : memref<?x2xi64>
      memref.store %acc, %out[%row, %c] : memref<?x2xi64>
      tile.yield
    }
    gpu.return
  }
}
