// tile.pipeline tiles(%n) iterations {...}: each work tile runs its own
// iterations [first, end), as a stream-K GEMM's shares of an output tile's
// K steps do. The producer and the consumers evaluate the region per tile,
// carry the ring position of the tile's first iteration from tile to tile,
// and hand the regions the iteration itself (first + i).
// RUN: tile-opt %s --tile-expand-pipelines --tile-materialize-expect-tx --canonicalize --cse | FileCheck %s
// The generated protocol passes tile-verify-async.
// RUN: tile-opt %s --tile-expand-pipelines --tile-materialize-expect-tx --tile-plan-copies --tile-verify-async -o /dev/null

// The producer: per tile, the range (here [t, 2t + 1)) and its length,
// clamped at zero. The loops carry the ring position g as r = g mod 2S (6
// for 3 stages), from tile to tile as well, with the stages no earlier
// iteration used (3 at first), which the producer fills without waiting.
// After the tile both move on by the length.
// CHECK-LABEL: gpu.func @ranged
// CHECK: scf.for %[[PT:.*]] = %c0 to %[[TILES:arg1]] step %c1 iter_args(%[[PR0:.*]] = %c0_i32, %[[FRESH:.*]] = %c3) -> (i32, index) {
// CHECK-NEXT: %[[PTWICE:.*]] = arith.muli %[[PT]], %c2 : index
// CHECK-NEXT: %[[PHI:.*]] = arith.addi %[[PTWICE]], %c1 : index
// CHECK-NEXT: %[[PSOME:.*]] = arith.cmpi ugt, %[[PHI]], %[[PT]] : index
// CHECK-NEXT: %[[PLEN:.*]] = arith.subi %[[PHI]], %[[PT]] : index
// CHECK-NEXT: %[[PCOUNT:.*]] = arith.select %[[PSOME]], %[[PLEN]], %c0 : index
// CHECK: scf.for %[[PI:.*]] = %c0 to %[[PCOUNT]] step %c1 iter_args(%[[PR:.*]] = %[[PR0]]) -> (i32) {
// CHECK-NEXT: %[[REUSE:.*]] = arith.cmpi uge, %[[PI]], %[[FRESH]] : index
// CHECK-NEXT: scf.if %[[REUSE]] {
// CHECK-NEXT: %[[PPAR:.*]] = arith.cmpi ult, %[[PR]], %c3_i32 : i32
// CHECK: nvgpu.mbarrier.try_wait.parity %{{.*}}[%{{.*}}], %[[PPAR]], %c10000000
// The load's column is the iteration itself: first + i.
// CHECK: %[[PK:.*]] = arith.addi %[[PT]], %[[PI]] : index
// CHECK: %[[COL:.*]] = arith.muli %[[PK]], %c8 : index
// CHECK: tile.copy_async %{{.*}}[0, 0] [8, 64], %arg0[%{{.*}}, %[[COL]]] [8, 64] barrier
// CHECK: scf.yield %{{.*}} : i32
// CHECK-NEXT: }
// r + length mod 6, and the unused stages less the length (at least 0).
// CHECK-NEXT: %[[PREST:.*]] = arith.remui %[[PCOUNT]], %c6 : index
// CHECK-NEXT: %[[PSTEP:.*]] = arith.index_castui %[[PREST]] : index to i32
// CHECK-NEXT: %[[PSUM:.*]] = arith.addi %[[PR0]], %[[PSTEP]] : i32
// CHECK-NEXT: %[[POVER:.*]] = arith.cmpi uge, %[[PSUM]], %c6_i32 : i32
// CHECK-NEXT: %[[PWRAP:.*]] = arith.subi %[[PSUM]], %c6_i32 : i32
// CHECK-NEXT: %[[PNEXT:.*]] = arith.select %[[POVER]], %[[PWRAP]], %[[PSUM]] : i32
// CHECK-NEXT: %[[LEFT:.*]] = arith.cmpi ugt, %[[FRESH]], %[[PCOUNT]] : index
// CHECK-NEXT: %[[FLESS:.*]] = arith.subi %[[FRESH]], %[[PCOUNT]] : index
// CHECK-NEXT: %[[FNEXT:.*]] = arith.select %[[LEFT]], %[[FLESS]], %c0 : index
// CHECK-NEXT: scf.yield %[[PNEXT]], %[[FNEXT]] : i32, index
// The consumers: the tile and the position made warp-uniform, the same
// range, the tile's last stage released at its end.
// CHECK: } else {
// CHECK: scf.for %{{.*}} = %c0 to %[[TILES]] step %c1 iter_args(%[[CR:.*]] = %c0_i32) -> (i32) {
// CHECK-NEXT: nvvm.bar.warp.sync %c-1_i32 : i32
// CHECK: %[[TU:.*]] = arith.index_castui %{{.*}} : i64 to index
// CHECK-NEXT: %[[RU:.*]], %{{.*}} = gpu.shuffle  idx %[[CR]], %c0_i32, %c32_i32 : i32
// CHECK-NEXT: %[[TWICE:.*]] = arith.muli %[[TU]], %c2 : index
// CHECK-NEXT: %[[HI:.*]] = arith.addi %[[TWICE]], %c1 : index
// CHECK-NEXT: %[[SOME:.*]] = arith.cmpi ugt, %[[HI]], %[[TU]] : index
// CHECK-NEXT: %[[LEN:.*]] = arith.subi %[[HI]], %[[TU]] : index
// CHECK-NEXT: %[[COUNT:.*]] = arith.select %[[SOME]], %[[LEN]], %c0 : index
// CHECK-NEXT: %[[R:.*]]:2 = scf.for %[[I:.*]] = %c0 to %[[COUNT]] step %c1 iter_args(%{{.*}} = %c0_i64, %[[RI:.*]] = %[[RU]]) -> (i64, i32) {
// CHECK-NEXT: %[[ODD:.*]] = arith.cmpi uge, %[[RI]], %c3_i32 : i32
// CHECK: nvgpu.mbarrier.try_wait.parity %{{.*}}[%{{.*}}], %[[ODD]], %c10000000
// CHECK: nvvm.wgmma.wait.group.sync.aligned 1
// CHECK-NEXT: %[[STARTED:.*]] = arith.cmpi uge, %[[I]], %c1 : index
// CHECK-NEXT: %[[GE:.*]] = arith.cmpi uge, %[[RI]], %c1_i32 : i32
// CHECK: nvvm.wgmma.wait.group.sync.aligned 0
// CHECK-NEXT: %[[HAS:.*]] = arith.cmpi uge, %[[COUNT]], %c1 : index
// CHECK-NEXT: %[[EGE:.*]] = arith.cmpi uge, %[[R]]#1, %c1_i32 : i32
// CHECK-NEXT: %[[EDEC:.*]] = arith.subi %[[R]]#1, %c1_i32 : i32
// CHECK-NEXT: %[[EUP:.*]] = arith.addi %[[R]]#1, %c5_i32 : i32
// CHECK-NEXT: %{{.*}} = arith.select %[[EGE]], %[[EDEC]], %[[EUP]] : i32
// CHECK-NEXT: %[[TAIL:.*]] = arith.andi %{{.*}}, %[[HAS]] : i1
// CHECK-NEXT: scf.if %[[TAIL]] {
// CHECK: memref.store %[[R]]#0, %arg2[%[[TU]], %{{.*}}] : memref<?x2xi64>
// CHECK-NEXT: %[[CREST:.*]] = arith.remui %[[COUNT]], %c6 : index
// CHECK-NEXT: %[[CSTEP:.*]] = arith.index_castui %[[CREST]] : index to i32
// CHECK-NEXT: %[[CSUM:.*]] = arith.addi %[[RU]], %[[CSTEP]] : i32
// CHECK: scf.yield %{{.*}} : i32
!A = memref<?x?xf32>
!S = memref<3x8x64xf32, #gpu.address_space<workgroup>>
!T = memref<8x64xf32, #gpu.address_space<workgroup>>
gpu.module @k {
  gpu.func @ranged(%A: !A, %tiles: index, %out: memref<?x2xi64>) kernel {
    %s = tile.arena_view [0] : !S
    %z = arith.constant 0 : i64
    tile.pipeline tiles(%tiles) stages(%s : !S) iter_args(%z : i64)
        attributes {consumers = 2, reads = #tile.consumer_reads<wgmma>, in_flight = 1}
    iterations {
    ^bb0(%tile: index):
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %twice = arith.muli %tile, %c2 : index
      %end = arith.addi %twice, %c1 : index
      tile.yield %tile, %end : index, index
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
