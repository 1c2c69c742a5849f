// tile-expand-pipelines writes out each tile.pipeline's protocol; with
// tile-materialize-expect-tx the byte count comes from the loads' plans.
// RUN: tile-opt %s -split-input-file --tile-expand-pipelines --tile-materialize-expect-tx --canonicalize --cse | FileCheck %s
// The generated protocol passes tile-verify-async (the loads planned first).
// RUN: tile-opt %s -split-input-file --tile-expand-pipelines --tile-materialize-expect-tx --tile-plan-copies --tile-verify-async -o /dev/null

// The software-pipelined form (consumers = 0), 4 stages, two buffers, a
// run-time trip count: every thread consumes and releases (empty counts the
// block's threads), thread 0 loads 4 iterations ahead.
// CHECK-LABEL: gpu.func @software
// CHECK-NOT: known_block_size
// CHECK-DAG: %[[C4:.*]] = arith.constant 4 : index
// CHECK-DAG: %[[BYTES:.*]] = arith.constant 6144 : index
// CHECK: %[[FULL:.*]] = nvgpu.mbarrier.create -> <memorySpace = #gpu.address_space<workgroup>, num_barriers = 4>
// CHECK: %[[EMPTY:.*]] = nvgpu.mbarrier.create -> <memorySpace = #gpu.address_space<workgroup>, num_barriers = 4>
// CHECK: %[[THREADS:.*]] = arith.muli %{{.*}}, %block_dim_z
// CHECK: %[[FIRST:.*]] = arith.cmpi eq, %[[TID:.*]], %c0
// CHECK: scf.if %[[FIRST]]
// CHECK: scf.for %[[S:.*]] = %c0 to %[[C4]]
// CHECK-NEXT: nvgpu.mbarrier.init %[[FULL]][%[[S]]], %c1
// CHECK-NEXT: nvgpu.mbarrier.init %[[EMPTY]][%[[S]]], %[[THREADS]]
// CHECK: gpu.barrier
// Prologue: iterations 0..3 that exist.
// CHECK: scf.for %[[J:.*]] = %c0 to %[[C4]]
// CHECK-NEXT: %[[EXISTS:.*]] = arith.cmpi ult, %[[J]], %[[N:.*]] : index
// CHECK-NEXT: %[[MINE:.*]] = arith.andi %[[FIRST]], %[[EXISTS]]
// CHECK-NEXT: scf.if %[[MINE]]
// CHECK: tile.copy_async {{.*}} barrier(%[[FULL]][%[[PS:.*]]])
// CHECK: tile.copy_async {{.*}} barrier(%[[FULL]][%[[PS]]])
// CHECK-NEXT: nvgpu.mbarrier.arrive.expect_tx %[[FULL]][%[[PS]]], %[[BYTES]]
// Steady state: wait for phase (k / 4) % 2 of full[k % 4], consume, release.
// CHECK: %[[R:.*]] = scf.for %[[K:.*]] = %c0 to %[[N]] step %c1 iter_args
// CHECK-NEXT: %[[ROUND:.*]] = arith.divui %[[K]], %[[C4]]
// CHECK-NEXT: %[[BIT:.*]] = arith.remui %[[ROUND]], %c2
// CHECK-NEXT: %[[PAR:.*]] = arith.cmpi ne, %[[BIT]], %c0
// CHECK-NEXT: %[[SLOT:.*]] = arith.remui %[[K]], %[[C4]]
// CHECK-NEXT: nvgpu.mbarrier.try_wait.parity %[[FULL]][%[[SLOT]]], %[[PAR]]
// CHECK: memref.load
// CHECK: memref.load
// CHECK: nvgpu.mbarrier.arrive %[[EMPTY]][%[[SLOT]]]
// Refill with iteration k + 4 once every thread released the stage: phase
// ((k + 4) / 4 - 1) % 2 of empty.
// CHECK-NEXT: %[[NEXT:.*]] = arith.addi %[[K]], %[[C4]]
// CHECK-NEXT: %[[MORE:.*]] = arith.cmpi ult, %[[NEXT]], %[[N]]
// CHECK-NEXT: %[[REFILL:.*]] = arith.andi %[[FIRST]], %[[MORE]]
// CHECK-NEXT: scf.if %[[REFILL]]
// CHECK-NEXT: %[[NROUND:.*]] = arith.divui %[[NEXT]], %[[C4]]
// CHECK-NEXT: %[[PREV:.*]] = arith.subi %[[NROUND]], %c1
// CHECK-NEXT: %[[PBIT:.*]] = arith.remui %[[PREV]], %c2
// CHECK-NEXT: %[[PPAR:.*]] = arith.cmpi ne, %[[PBIT]], %c0
// CHECK-NEXT: %[[NSLOT:.*]] = arith.remui %[[NEXT]], %[[C4]]
// CHECK-NEXT: nvgpu.mbarrier.try_wait.parity %[[EMPTY]][%[[NSLOT]]], %[[PPAR]]
// CHECK: tile.copy_async {{.*}} barrier(%[[FULL]][%[[NSLOT]]])
// CHECK: tile.copy_async {{.*}} barrier(%[[FULL]][%[[NSLOT]]])
// CHECK-NEXT: nvgpu.mbarrier.arrive.expect_tx %[[FULL]][%[[NSLOT]]], %[[BYTES]]
// The epilogue gets the carried value.
// CHECK: memref.store %[[R]], %{{.*}}[%{{.*}}] : memref<?xf32>
// CHECK-NOT: tile.pipeline
// CHECK-NOT: tile.arrive_expect_tx
!A = memref<?x?xf32>
!S = memref<4x8x64xf32, #gpu.address_space<workgroup>>
!T = memref<8x64xf32, #gpu.address_space<workgroup>>
!S2 = memref<4x16x64xf32, #gpu.address_space<workgroup>>
!T2 = memref<16x64xf32, #gpu.address_space<workgroup>>
gpu.module @k {
  gpu.func @software(%A: !A, %B: !A, %n: index, %out: memref<?xf32>) kernel {
    %s = tile.arena_view [0] : !S
    %s2 = tile.arena_view [8192] : !S2
    %z = arith.constant 0.0 : f32
    tile.pipeline (%n) stages(%s, %s2 : !S, !S2) iter_args(%z : f32) produce {
    ^bb0(%k: index, %t: !T, %u: !T2):
      %c8 = arith.constant 8 : index
      %row = arith.muli %k, %c8 : index
      tile.copy_async %t[0, 0] [8, 64], %A[%row, 0] [8, 64] : !T, !A
      tile.copy_async %u[0, 0] [16, 64], %B[%row, 0] [16, 64] : !T2, !A
      tile.yield
    } consume {
    ^bb0(%k: index, %t: !T, %u: !T2, %wg: index, %acc: f32):
      %c0 = arith.constant 0 : index
      %x = memref.load %t[%c0, %c0] : !T
      %y = memref.load %u[%c0, %c0] : !T2
      %xy = arith.addf %x, %y : f32
      %next = arith.addf %acc, %xy : f32
      tile.yield %next : f32
    } epilogue {
    ^bb0(%wg: index, %acc: f32):
      memref.store %acc, %out[%wg] : memref<?xf32>
      tile.yield
    }
    gpu.return
  }
}

// -----

// Warp-specialized (consumers = 2) with wgmma reads and one group in flight:
// warpgroup 0 gives registers away and thread 0 loads, from the second round
// on after the stage's release; warpgroups 1 and 2 take registers, consume,
// wait until one wgmma group is pending and release iteration k - 1's stage,
// one thread per warpgroup (empty counts 2 arrivals).
// The kernel's block size becomes known: 3 warpgroups.
// CHECK-LABEL: gpu.func @specialized
// CHECK-SAME: known_block_size = array<i32: 384, 1, 1>
// CHECK-SAME: nvvm.minctasm = 1 : i32
// CHECK-DAG: %[[C2:.*]] = arith.constant 2 : index
// CHECK: %[[FULL:.*]] = nvgpu.mbarrier.create -> <memorySpace = #gpu.address_space<workgroup>, num_barriers = 2>
// CHECK: %[[EMPTY:.*]] = nvgpu.mbarrier.create
// CHECK: nvgpu.mbarrier.init %[[FULL]][%{{.*}}], %c1
// CHECK-NEXT: nvgpu.mbarrier.init %[[EMPTY]][%{{.*}}], %[[C2]]
// CHECK: gpu.barrier
// CHECK: gpu.shuffle idx
// CHECK: %[[PRODUCER:.*]] = arith.cmpi eq, %[[WG:.*]], %c0
// CHECK-NEXT: scf.if %[[PRODUCER]]
// CHECK-NEXT: nvvm.setmaxregister decrease 40
// CHECK: scf.for %[[K:.*]] = %c0 to %[[N:.*]] step
// CHECK-NEXT: %[[REUSE:.*]] = arith.cmpi uge, %[[K]], %[[C2]]
// CHECK-NEXT: scf.if %[[REUSE]]
// CHECK: nvgpu.mbarrier.try_wait.parity %[[EMPTY]]
// CHECK: tile.copy_async {{.*}} barrier(%[[FULL]]
// CHECK-NEXT: nvgpu.mbarrier.arrive.expect_tx %[[FULL]][%{{.*}}], %c2048
// CHECK: } else {
// CHECK-NEXT: nvvm.setmaxregister increase 232
// CHECK-NEXT: %[[CONSUMER:.*]] = arith.subi %[[WG]], %c1
// CHECK: %[[ELECTED:.*]] = arith.cmpi eq, %{{.*}}, %c0
// CHECK: %[[R:.*]] = scf.for %[[K2:.*]] = %c0 to %[[N]]
// CHECK: nvgpu.mbarrier.try_wait.parity %[[FULL]]
// CHECK: arith.addi
// CHECK-NEXT: nvvm.wgmma.wait.group.sync.aligned 1
// CHECK-NEXT: %[[STARTED:.*]] = arith.cmpi uge, %[[K2]], %c1
// CHECK-NEXT: %[[DONE:.*]] = arith.subi %[[K2]], %c1
// CHECK-NEXT: %[[RELEASE:.*]] = arith.andi %[[ELECTED]], %[[STARTED]]
// CHECK-NEXT: scf.if %[[RELEASE]]
// CHECK-NEXT: %[[DSLOT:.*]] = arith.remui %[[DONE]], %[[C2]]
// CHECK-NEXT: nvgpu.mbarrier.arrive %[[EMPTY]][%[[DSLOT]]]
// CHECK: nvvm.wgmma.wait.group.sync.aligned 0
// CHECK-NEXT: memref.store %[[R]], %{{.*}}[%[[CONSUMER]]]
!A = memref<?x?xf32>
!S = memref<2x8x64xf32, #gpu.address_space<workgroup>>
!T = memref<8x64xf32, #gpu.address_space<workgroup>>
gpu.module @k {
  gpu.func @specialized(%A: !A, %n: index, %out: memref<?xi64>) kernel {
    %s = tile.arena_view [0] : !S
    %z = arith.constant 0 : i64
    tile.pipeline (%n) stages(%s : !S) iter_args(%z : i64)
        attributes {consumers = 2, reads = #tile.consumer_reads<wgmma>, in_flight = 1,
                    producer_registers = 40, consumer_registers = 232} produce {
    ^bb0(%k: index, %t: !T):
      %c8 = arith.constant 8 : index
      %row = arith.muli %k, %c8 : index
      tile.copy_async %t[0, 0] [8, 64], %A[%row, 0] [8, 64] : !T, !A
      tile.yield
    } consume {
    ^bb0(%k: index, %t: !T, %c: index, %acc: i64):
      %one = arith.constant 1 : i64
      %next = arith.addi %acc, %one : i64
      tile.yield %next : i64
    } epilogue {
    ^bb0(%c: index, %acc: i64):
      memref.store %acc, %out[%c] : memref<?xi64>
      tile.yield
    }
    gpu.return
  }
}

// -----

// One stage, generic reads, specialized with one consumer warpgroup: every
// consumer thread releases (empty counts 128); a 1-stage ring refills only
// after the release of the round before.
// CHECK-LABEL: gpu.func @one_stage
// CHECK-DAG: %[[C128:.*]] = arith.constant 128 : index
// CHECK: %[[FULL:.*]] = nvgpu.mbarrier.create -> <memorySpace = #gpu.address_space<workgroup>>
// CHECK: %[[EMPTY:.*]] = nvgpu.mbarrier.create
// CHECK: nvgpu.mbarrier.init %[[EMPTY]][%{{.*}}], %[[C128]]
// CHECK: scf.for %[[K:.*]] =
// CHECK-NEXT: %[[REUSE:.*]] = arith.cmpi uge, %[[K]], %c1
// CHECK-NOT: nvvm.setmaxregister
// CHECK-NOT: nvvm.wgmma.wait
// CHECK: nvgpu.mbarrier.arrive %[[EMPTY]]
!A = memref<?x?xf32>
!S = memref<1x8x64xf32, #gpu.address_space<workgroup>>
!T = memref<8x64xf32, #gpu.address_space<workgroup>>
gpu.module @k {
  gpu.func @one_stage(%A: !A, %n: index, %out: memref<?xf32>) kernel {
    %s = tile.arena_view [0] : !S
    tile.pipeline (%n) stages(%s : !S) attributes {consumers = 1} produce {
    ^bb0(%k: index, %t: !T):
      tile.copy_async %t[0, 0] [8, 64], %A[%k, 0] [8, 64] : !T, !A
      tile.yield
    } consume {
    ^bb0(%k: index, %t: !T, %c: index):
      %c0 = arith.constant 0 : index
      %x = memref.load %t[%c0, %c0] : !T
      memref.store %x, %out[%k] : memref<?xf32>
      tile.yield
    } epilogue {
    ^bb0(%c: index):
      tile.yield
    }
    gpu.return
  }
}

// -----

// An issue loop in produce (4 loads of 8 rows each): the arrival announces
// all 4 x 2048 bytes, once per stage fill.
// CHECK-LABEL: gpu.func @issue_loop
// CHECK: %[[BYTES:.*]] = arith.constant 8192 : index
// CHECK: scf.for
// CHECK-COUNT-1: tile.copy_async
// CHECK: }
// CHECK-NEXT: nvgpu.mbarrier.arrive.expect_tx %{{.*}}, %[[BYTES]]
!A = memref<?x64xf32>
!S = memref<2x32x64xf32, #gpu.address_space<workgroup>>
!T = memref<32x64xf32, #gpu.address_space<workgroup>>
gpu.module @k {
  gpu.func @issue_loop(%A: !A, %n: index) kernel {
    %s = tile.arena_view [0] : !S
    tile.pipeline (%n) stages(%s : !S) produce {
    ^bb0(%k: index, %t: !T):
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %c8 = arith.constant 8 : index
      %c32 = arith.constant 32 : index
      %base = arith.muli %k, %c32 : index
      scf.for %i = %c0 to %c4 step %c1 {
        %r = arith.muli %i, %c8 : index
        %g = arith.addi %base, %r : index
        tile.copy_async %t[%r, 0] [8, 64], %A[%g, 0] [8, 64] : !T, !A
      }
      tile.yield
    } consume {
    ^bb0(%k: index, %t: !T, %c: index):
      tile.yield
    } epilogue {
    ^bb0(%c: index):
      tile.yield
    }
    gpu.return
  }
}

// -----

// A consume body that ends waiting for its wgmma groups (at most in_flight
// pending) gets no wait of its own from the expansion: the body's is the
// last before the release and the loop's back edge.
// CHECK-LABEL: gpu.func @body_waits
// CHECK: nvgpu.mbarrier.try_wait.parity
// CHECK: nvvm.wgmma.wait.group.sync.aligned 0
// CHECK-NOT: nvvm.wgmma.wait.group.sync.aligned
// CHECK: nvgpu.mbarrier.arrive
// CHECK: scf.yield
// CHECK: nvvm.wgmma.wait.group.sync.aligned 0
!A = memref<?x64xf32>
!stages = memref<3x8x64xf32, #gpu.address_space<workgroup>>
!stage = memref<8x64xf32, #gpu.address_space<workgroup>>
gpu.module @kernels {
  gpu.func @body_waits(%A: !A, %n: index) kernel {
    %zero = arith.constant 0 : i64
    %buf = tile.arena_view [0] : !stages
    tile.pipeline (%n) stages(%buf : !stages) iter_args(%zero : i64)
        attributes {consumers = 1, reads = #tile.consumer_reads<wgmma>, in_flight = 1} produce {
    ^bb0(%k: index, %s: !stage):
      %c8 = arith.constant 8 : index
      %row = arith.muli %k, %c8 : index
      tile.copy_async %s[0, 0] [8, 64], %A[%row, 0] [8, 64] : !stage, !A
      tile.yield
    } consume {
    ^bb0(%k: index, %s: !stage, %wg: index, %acc: i64):
      %one = arith.constant 1 : i64
      %next = arith.addi %acc, %one : i64
      nvvm.wgmma.wait.group.sync.aligned 0
      tile.yield %next : i64
    } epilogue {
    ^bb0(%wg: index, %acc: i64):
      tile.yield
    }
    gpu.return
  }
}
