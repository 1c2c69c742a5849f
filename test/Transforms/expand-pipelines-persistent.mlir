// tile.pipeline tiles(%n): the persistent form. One ring of stages runs
// through every tile's iterations (ring position t x count + k), the carried
// values restart from iter_args at each tile, and the epilogue runs per tile.
// RUN: tile-opt %s -split-input-file --tile-expand-pipelines --tile-materialize-expect-tx --canonicalize --cse | FileCheck %s
// The generated protocol passes tile-verify-async.
// RUN: tile-opt %s -split-input-file --tile-expand-pipelines --tile-materialize-expect-tx --tile-plan-copies --tile-verify-async -o /dev/null

// Software-pipelined: the prologue and the refills load ring positions,
// split into (tile, iteration) for produce; the consumers loop over the
// tiles and, in each, over its iterations; the epilogue gets the tile.
// CHECK-LABEL: gpu.func @software
// CHECK: gpu.barrier
// CHECK-NEXT: %[[RING:.*]] = arith.muli %[[N:arg1]], %[[TILES:arg2]] : index
// CHECK-NEXT: scf.for %[[J:.*]] = %c0 to %c3 step %c1 {
// CHECK-NEXT: %[[EXISTS:.*]] = arith.cmpi ult, %[[J]], %[[RING]] : index
// CHECK: scf.if
// CHECK-NEXT: %[[PT:.*]] = arith.divui %[[J]], %[[N]] : index
// CHECK-NEXT: %[[PK:.*]] = arith.remui %[[J]], %[[N]] : index
// CHECK-NEXT: %[[PS:.*]] = arith.remui %[[J]], %c3 : index
// CHECK: scf.for %{{.*}} = %c0 to %[[TILES]] step %c1 {
// CHECK-NEXT: nvvm.bar.warp.sync
// CHECK: %[[T:.*]] = arith.index_castui %{{.*}} : i64 to index
// CHECK-NEXT: %[[BASE:.*]] = arith.muli %[[T]], %[[N]] : index
// CHECK-NEXT: %[[SUM:.*]] = scf.for %[[K:.*]] = %c0 to %[[N]] step %c1 iter_args(%{{.*}} = %cst) -> (f32) {
// CHECK-NEXT: %[[G:.*]] = arith.addi %[[BASE]], %[[K]] : index
// CHECK-NEXT: %[[ROUND:.*]] = arith.divui %[[G]], %c3 : index
// CHECK: nvgpu.mbarrier.try_wait.parity %{{.*}}[%{{.*}}], %{{.*}}, %c10000000
// CHECK: nvgpu.mbarrier.arrive
// The refill: ring position g + 3, if the ring has it.
// CHECK-NEXT: %[[NEXT:.*]] = arith.addi %[[G]], %c3 : index
// CHECK-NEXT: %[[MORE:.*]] = arith.cmpi ult, %[[NEXT]], %[[RING]] : index
// CHECK: arith.divui %[[NEXT]], %[[N]] : index
// CHECK: scf.yield
// CHECK: memref.store %[[SUM]], %{{.*}}[%[[T]], %thread_id_x]
!A = memref<?x64xf32>
!stages = memref<3x8x64xf32, #gpu.address_space<workgroup>>
!stage = memref<8x64xf32, #gpu.address_space<workgroup>>
gpu.module @kernels {
  gpu.func @software(%A: !A, %n: index, %tiles: index, %out: memref<?x128xf32>) kernel {
    %c8 = arith.constant 8 : index
    %c64 = arith.constant 64 : index
    %zero = arith.constant 0.0 : f32
    %tid = gpu.thread_id x
    %col = arith.remui %tid, %c64 : index
    %buf = tile.arena_view [0] : !stages
    tile.pipeline (%n) tiles(%tiles) stages(%buf : !stages) iter_args(%zero : f32) produce {
    ^bb0(%t: index, %k: index, %s: !stage):
      %base = arith.muli %t, %n : index
      %kk = arith.addi %base, %k : index
      %row = arith.muli %kk, %c8 : index
      tile.copy_async %s[0, 0] [8, 64], %A[%row, 0] [8, 64] : !stage, !A
      tile.yield
    } consume {
    ^bb0(%t: index, %k: index, %s: !stage, %wg: index, %sum: f32):
      %c0 = arith.constant 0 : index
      %v = memref.load %s[%c0, %col] : !stage
      %next = arith.addf %sum, %v : f32
      tile.yield %next : f32
    } epilogue {
    ^bb0(%t: index, %wg: index, %sum: f32):
      memref.store %sum, %out[%t, %tid] : memref<?x128xf32>
      tile.yield
    }
    gpu.return
  }
}

// -----

// Warp-specialized with wgmma reads, one group in flight. The producer
// computes what produce does per tile (here the tile's row) once per tile,
// before the tile's iterations, where it has any. The consumers make the
// tile warp-uniform (a warp sync, then lane 0's value), release the tile's
// last stage after the wait for all groups, and then run the epilogue, so
// the producer refills that stage during it.
// CHECK-LABEL: gpu.func @persistent
// The producer: tile t's first iteration is at ring position g = t x n,
// which the loop carries as r = g mod 2S (6 for 3 stages). The stages no
// earlier iteration used (3 - t x n, where positive) need no wait.
// CHECK: scf.for %[[PT:.*]] = %c0 to %[[TILES:arg2]] step %c1 {
// CHECK-NEXT: %[[PBASE:.*]] = arith.muli %[[PT]], %[[N:arg1]] : index
// CHECK-NEXT: %[[PREST:.*]] = arith.remui %[[PBASE]], %c6 : index
// CHECK-NEXT: %[[PR0:.*]] = arith.index_castui %[[PREST]] : index to i32
// CHECK-NEXT: %[[UNUSED:.*]] = arith.cmpi ult, %[[PBASE]], %c3 : index
// CHECK-NEXT: %[[LEFT:.*]] = arith.subi %c3, %[[PBASE]] : index
// CHECK-NEXT: %[[FRESH:.*]] = arith.select %[[UNUSED]], %[[LEFT]], %c0 : index
// CHECK-NEXT: %[[SOME:.*]] = arith.cmpi ugt, %[[N]], %c0 : index
// CHECK-NEXT: scf.if %[[SOME]] {
// CHECK-NEXT: %[[STRIDE:.*]] = arith.muli %[[PT]], %grid_dim_x : index
// CHECK-NEXT: %[[WHICH:.*]] = arith.addi %block_id_x, %[[STRIDE]] : index
// CHECK-NEXT: scf.for %[[PK:.*]] = %c0 to %[[N]] step %c1 iter_args(%[[PR:.*]] = %[[PR0]]) -> (i32) {
// CHECK-NEXT: %[[REUSE:.*]] = arith.cmpi uge, %[[PK]], %[[FRESH]] : index
// CHECK-NEXT: scf.if %[[REUSE]] {
// Round g / 3 - 1 of empty[g mod 3]: parity r < 3.
// CHECK-NEXT: %[[PPAR:.*]] = arith.cmpi ult, %[[PR]], %c3_i32 : i32
// CHECK-NEXT: %[[PHI:.*]] = arith.cmpi uge, %[[PR]], %c3_i32 : i32
// CHECK-NEXT: %[[PLO:.*]] = arith.subi %[[PR]], %c3_i32 : i32
// CHECK-NEXT: %[[PW:.*]] = arith.select %[[PHI]], %[[PLO]], %[[PR]] : i32
// CHECK-NEXT: %[[PWS:.*]] = arith.index_castui %[[PW]] : i32 to index
// CHECK-NEXT: nvgpu.mbarrier.try_wait.parity %{{.*}}[%[[PWS]]], %[[PPAR]], %c10000000
// CHECK: %[[PSLOT:.*]] = arith.index_castui %{{.*}} : i32 to index
// CHECK: %[[ROW:.*]] = arith.muli %[[WHICH]], %c8 : index
// CHECK: tile.copy_async %{{.*}}[0, 0] [8, 64], %arg0[%[[ROW]], %{{.*}}] [8, 64] barrier(%{{.*}}[%[[PSLOT]]])
// The next position: r + 1, wrapping at 6.
// CHECK: %[[PINC:.*]] = arith.addi %[[PR]], %c1_i32 : i32
// CHECK-NEXT: %[[PWRAP:.*]] = arith.cmpi uge, %[[PINC]], %c6_i32 : i32
// CHECK-NEXT: %[[PDOWN:.*]] = arith.addi %[[PR]], %c-5_i32 : i32
// CHECK-NEXT: %[[PNEXT:.*]] = arith.select %[[PWRAP]], %[[PDOWN]], %[[PINC]] : i32
// CHECK-NEXT: scf.yield %[[PNEXT]] : i32
// CHECK: } else {
// CHECK: scf.for %[[T:.*]] = %c0 to %[[TILES]] step %c1 {
// CHECK-NEXT: nvvm.bar.warp.sync %c-1_i32 : i32
// CHECK: gpu.shuffle  idx
// CHECK: gpu.shuffle  idx
// CHECK: %[[TU:.*]] = arith.index_castui %{{.*}} : i64 to index
// CHECK-NEXT: %[[BASE:.*]] = arith.muli %[[TU]], %[[N]] : index
// CHECK-NEXT: %[[REST:.*]] = arith.remui %[[BASE]], %c6 : index
// CHECK-NEXT: %[[R0:.*]] = arith.index_castui %[[REST]] : index to i32
// CHECK-NEXT: %[[R:.*]]:2 = scf.for %[[K:.*]] = %c0 to %[[N]] step %c1 iter_args(%{{.*}} = %c0_i64, %[[RK:.*]] = %[[R0]]) -> (i64, i32) {
// Round g / 3 of full[g mod 3]: parity r >= 3.
// CHECK-NEXT: %[[ODD:.*]] = arith.cmpi uge, %[[RK]], %c3_i32 : i32
// CHECK-NEXT: %[[LOW:.*]] = arith.subi %[[RK]], %c3_i32 : i32
// CHECK-NEXT: %[[SEL:.*]] = arith.select %[[ODD]], %[[LOW]], %[[RK]] : i32
// CHECK-NEXT: %[[SLOT:.*]] = arith.index_castui %[[SEL]] : i32 to index
// CHECK-NEXT: nvgpu.mbarrier.try_wait.parity %{{.*}}[%[[SLOT]]], %[[ODD]], %c10000000
// CHECK: nvvm.wgmma.wait.group.sync.aligned 1
// Iteration k - 1's position: r - 1, or r + 5 where r is 0.
// CHECK-NEXT: %[[STARTED:.*]] = arith.cmpi uge, %[[K]], %c1 : index
// CHECK-NEXT: %[[GE:.*]] = arith.cmpi uge, %[[RK]], %c1_i32 : i32
// CHECK-NEXT: %[[DEC:.*]] = arith.subi %[[RK]], %c1_i32 : i32
// CHECK-NEXT: %[[UP:.*]] = arith.addi %[[RK]], %c5_i32 : i32
// CHECK-NEXT: %[[DONE:.*]] = arith.select %[[GE]], %[[DEC]], %[[UP]] : i32
// CHECK-NEXT: %[[RELEASE:.*]] = arith.andi %{{.*}}, %[[STARTED]] : i1
// CHECK-NEXT: scf.if %[[RELEASE]] {
// CHECK-NEXT: %[[DHI:.*]] = arith.cmpi uge, %[[DONE]], %c3_i32 : i32
// CHECK-NEXT: %[[DLO:.*]] = arith.subi %[[DONE]], %c3_i32 : i32
// CHECK-NEXT: %[[DSEL:.*]] = arith.select %[[DHI]], %[[DLO]], %[[DONE]] : i32
// CHECK-NEXT: %[[DSLOT:.*]] = arith.index_castui %[[DSEL]] : i32 to index
// CHECK-NEXT: nvgpu.mbarrier.arrive %{{.*}}[%[[DSLOT]]]
// CHECK: scf.yield
// CHECK-NEXT: }
// CHECK-NEXT: nvvm.wgmma.wait.group.sync.aligned 0
// The tile's last iteration (position end - 1) goes back before the
// epilogue.
// CHECK-NEXT: %[[HAS:.*]] = arith.cmpi uge, %[[N]], %c1 : index
// CHECK-NEXT: %[[EGE:.*]] = arith.cmpi uge, %[[R]]#1, %c1_i32 : i32
// CHECK-NEXT: %[[EDEC:.*]] = arith.subi %[[R]]#1, %c1_i32 : i32
// CHECK-NEXT: %[[EUP:.*]] = arith.addi %[[R]]#1, %c5_i32 : i32
// CHECK-NEXT: %[[LASTR:.*]] = arith.select %[[EGE]], %[[EDEC]], %[[EUP]] : i32
// CHECK-NEXT: %[[TAIL:.*]] = arith.andi %{{.*}}, %[[HAS]] : i1
// CHECK-NEXT: scf.if %[[TAIL]] {
// CHECK-NEXT: %[[LHI:.*]] = arith.cmpi uge, %[[LASTR]], %c3_i32 : i32
// CHECK-NEXT: %[[LLO:.*]] = arith.subi %[[LASTR]], %c3_i32 : i32
// CHECK-NEXT: %[[LSEL:.*]] = arith.select %[[LHI]], %[[LLO]], %[[LASTR]] : i32
// CHECK-NEXT: %[[LSLOT:.*]] = arith.index_castui %[[LSEL]] : i32 to index
// CHECK-NEXT: nvgpu.mbarrier.arrive %{{.*}}[%[[LSLOT]]]
// CHECK-NEXT: }
// CHECK-NEXT: memref.store %[[R]]#0, %arg3[%[[TU]], %{{.*}}] : memref<?x2xi64>
!A = memref<?x?xf32>
!S = memref<3x8x64xf32, #gpu.address_space<workgroup>>
!T = memref<8x64xf32, #gpu.address_space<workgroup>>
gpu.module @k {
  gpu.func @persistent(%A: !A, %n: index, %tiles: index, %out: memref<?x2xi64>) kernel {
    %s = tile.arena_view [0] : !S
    %z = arith.constant 0 : i64
    %cta = gpu.block_id x
    %ctas = gpu.grid_dim x
    tile.pipeline (%n) tiles(%tiles) stages(%s : !S) iter_args(%z : i64)
        attributes {consumers = 2, reads = #tile.consumer_reads<wgmma>, in_flight = 1} produce {
    ^bb0(%tile: index, %k: index, %t: !T):
      %c8 = arith.constant 8 : index
      %stride = arith.muli %tile, %ctas : index
      %which = arith.addi %cta, %stride : index
      %row = arith.muli %which, %c8 : index
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

// tile.held_stage in an epilogue: the stage of the tile's last iteration,
// from the position the consumers' loop carried out (end - 1), with no ring
// arithmetic in the epilogue; the epilogue reads it, so the stage goes back
// after the epilogue.
// CHECK-LABEL: gpu.func @held_stage
// CHECK: } else {
// CHECK: %[[R:.*]] = scf.for
// CHECK: nvvm.wgmma.wait.group.sync.aligned 0
// CHECK-NEXT: %[[GE:.*]] = arith.cmpi uge, %[[R]], %c1_i32 : i32
// CHECK-NEXT: %[[DEC:.*]] = arith.subi %[[R]], %c1_i32 : i32
// CHECK-NEXT: %[[UP:.*]] = arith.addi %[[R]], %c5_i32 : i32
// CHECK-NEXT: %[[LASTR:.*]] = arith.select %[[GE]], %[[DEC]], %[[UP]] : i32
// CHECK-NEXT: %[[HI:.*]] = arith.cmpi uge, %[[LASTR]], %c3_i32 : i32
// CHECK-NEXT: %[[LO:.*]] = arith.subi %[[LASTR]], %c3_i32 : i32
// CHECK-NEXT: %[[SEL:.*]] = arith.select %[[HI]], %[[LO]], %[[LASTR]] : i32
// CHECK-NEXT: %[[SLOT:.*]] = arith.index_castui %[[SEL]] : i32 to index
// CHECK-NEXT: %[[VIEW:.*]] = tile.stage %{{.*}}[%[[SLOT]]]
// CHECK-NEXT: %[[X:.*]] = memref.load %[[VIEW]][%c0, %c0]
// CHECK-NEXT: memref.store %[[X]]
// CHECK-NEXT: nvvm.wgmma.wait.group.sync.aligned 0
// CHECK-NEXT: tile.bulk_wait_group 0 {read}
// CHECK: nvgpu.mbarrier.arrive %{{.*}}[%[[SLOT]]]
// CHECK-NOT: tile.held_stage
!A = memref<?x?xf32>
!S = memref<3x8x64xf32, #gpu.address_space<workgroup>>
!T = memref<8x64xf32, #gpu.address_space<workgroup>>
gpu.module @k {
  gpu.func @held_stage(%A: !A, %n: index, %tiles: index, %out: memref<?x2xf32>) kernel {
    %s = tile.arena_view [0] : !S
    tile.pipeline (%n) tiles(%tiles) stages(%s : !S)
        attributes {consumers = 2, reads = #tile.consumer_reads<wgmma>, in_flight = 1} produce {
    ^bb0(%tile: index, %k: index, %t: !T):
      %c8 = arith.constant 8 : index
      %row = arith.muli %tile, %c8 : index
      %col = arith.muli %k, %c8 : index
      tile.copy_async %t[0, 0] [8, 64], %A[%row, %col] [8, 64] : !T, !A
      tile.yield
    } consume {
    ^bb0(%tile: index, %k: index, %t: !T, %c: index):
      tile.yield
    } epilogue {
    ^bb0(%tile: index, %c: index):
      %c0 = arith.constant 0 : index
      %held = tile.held_stage 1
      %v = tile.stage %s[%held] : !S -> !T
      %x = memref.load %v[%c0, %c0] : !T
      memref.store %x, %out[%tile, %c] : memref<?x2xf32>
      tile.yield
    }
    gpu.return
  }
}

// -----

// The one-tile form: the stage of iteration count - 1, (count - 1) mod S.
// CHECK-LABEL: gpu.func @held_stage_one_tile
// CHECK: nvvm.wgmma.wait.group.sync.aligned 0
// CHECK-NEXT: %[[LASTK:.*]] = arith.subi %[[N:arg1]], %c1 : index
// CHECK-NEXT: %[[SLOT:.*]] = arith.remui %[[LASTK]], %c3 : index
// CHECK-NEXT: %[[VIEW:.*]] = tile.stage %{{.*}}[%[[SLOT]]]
// CHECK-NOT: tile.held_stage
!A = memref<?x?xf32>
!S = memref<3x8x64xf32, #gpu.address_space<workgroup>>
!T = memref<8x64xf32, #gpu.address_space<workgroup>>
gpu.module @k {
  gpu.func @held_stage_one_tile(%A: !A, %n: index, %out: memref<2xf32>) kernel {
    %s = tile.arena_view [0] : !S
    tile.pipeline (%n) stages(%s : !S)
        attributes {consumers = 2, reads = #tile.consumer_reads<wgmma>, in_flight = 1} produce {
    ^bb0(%k: index, %t: !T):
      %c8 = arith.constant 8 : index
      %col = arith.muli %k, %c8 : index
      tile.copy_async %t[0, 0] [8, 64], %A[0, %col] [8, 64] : !T, !A
      tile.yield
    } consume {
    ^bb0(%k: index, %t: !T, %c: index):
      tile.yield
    } epilogue {
    ^bb0(%c: index):
      %c0 = arith.constant 0 : index
      %held = tile.held_stage 1
      %v = tile.stage %s[%held] : !S -> !T
      %x = memref.load %v[%c0, %c0] : !T
      memref.store %x, %out[%c] : memref<2xf32>
      tile.yield
    }
    gpu.return
  }
}

// -----

// A consume body may yield a held stage: the loop carries the stage the
// expansion computed (r mod S of the iteration's carried position r).
// CHECK-LABEL: gpu.func @yields_held
// CHECK: scf.for %{{.*}} iter_args(%{{.*}} = %c0, %[[RK:.*]] = %{{.*}}) -> (index, i32)
// CHECK-NEXT: %[[ODD:.*]] = arith.cmpi uge, %[[RK]], %c3_i32 : i32
// CHECK-NEXT: %[[LOW:.*]] = arith.subi %[[RK]], %c3_i32 : i32
// CHECK-NEXT: %[[SEL:.*]] = arith.select %[[ODD]], %[[LOW]], %[[RK]] : i32
// CHECK-NEXT: %[[SLOT:.*]] = arith.index_castui %[[SEL]] : i32 to index
// CHECK: scf.yield %[[SLOT]], %{{.*}} : index, i32
// CHECK-NOT: tile.held_stage
!A = memref<?x?xf32>
!S = memref<3x8x64xf32, #gpu.address_space<workgroup>>
!T = memref<8x64xf32, #gpu.address_space<workgroup>>
gpu.module @k {
  gpu.func @yields_held(%A: !A, %n: index, %tiles: index, %out: memref<?x2xindex>) kernel {
    %s = tile.arena_view [0] : !S
    %z = arith.constant 0 : index
    tile.pipeline (%n) tiles(%tiles) stages(%s : !S) iter_args(%z : index)
        attributes {consumers = 2, reads = #tile.consumer_reads<wgmma>, in_flight = 1} produce {
    ^bb0(%tile: index, %k: index, %t: !T):
      tile.copy_async %t[0, 0] [8, 64], %A[%tile, %k] [8, 64] : !T, !A
      tile.yield
    } consume {
    ^bb0(%tile: index, %k: index, %t: !T, %c: index, %last: index):
      %now = tile.held_stage 0
      tile.yield %now : index
    } epilogue {
    ^bb0(%tile: index, %c: index, %last: index):
      memref.store %last, %out[%tile, %c] : memref<?x2xindex>
      tile.yield
    }
    gpu.return
  }
}
