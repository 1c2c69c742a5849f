// A pipeline across a cluster of 2 CTAs (cluster_size = 2): a multicast load
// is the operand the CTAs share. Each CTA issues its slice (half the box's
// rows, at rank x 4) to both, so each CTA's full barrier expects the whole
// box from the two slices, plus its private load; every release arrives on
// the empty barrier of both CTAs, which therefore counts both CTAs'
// releases; the barriers are fenced and cluster-synchronized before use and
// the kernel ends on a cluster barrier.
// RUN: tile-opt %s -split-input-file --tile-expand-pipelines --tile-materialize-expect-tx --canonicalize --cse | FileCheck %s
// The generated protocol passes tile-verify-async, and the announced bytes
// equal the planned copies' (the loads planned first).
// RUN: tile-opt %s -split-input-file --tile-expand-pipelines --tile-materialize-expect-tx --tile-plan-copies --tile-verify-async -o /dev/null

// The software-pipelined form.
// CHECK-LABEL: gpu.func @software
// CHECK-SAME: known_cluster_size = array<i32: 2, 1, 1>
// CHECK-DAG: %[[C4:.*]] = arith.constant 4 : index
// CHECK-DAG: %[[BYTES:.*]] = arith.constant 6144 : index
// CHECK: %[[FULL:.*]] = nvgpu.mbarrier.create
// CHECK-NEXT: %[[EMPTY:.*]] = nvgpu.mbarrier.create
// CHECK: %[[RANK32:.*]] = nvvm.read.ptx.sreg.cluster.ctarank : i32
// CHECK-NEXT: %[[RANK:.*]] = arith.index_cast %[[RANK32]] : i32 to index
// CHECK: %[[THREADS:.*]] = arith.muli %{{.*}}, %block_dim_z
// CHECK: %[[RELEASES:.*]] = arith.muli %[[THREADS]], %c2
// CHECK: nvgpu.mbarrier.init %[[FULL]][%{{.*}}], %c1
// CHECK-NEXT: nvgpu.mbarrier.init %[[EMPTY]][%{{.*}}], %[[RELEASES]]
// CHECK: nvvm.fence.mbarrier.init
// CHECK: gpu.barrier
// CHECK-NEXT: nvvm.cluster.arrive
// CHECK-NEXT: nvvm.cluster.wait
// Prologue: this CTA's half of the shared box, multicast to both CTAs.
// CHECK: %[[SHIFT:.*]] = arith.muli %[[RANK]], %[[C4]]
// CHECK: %[[GROW:.*]] = arith.addi %{{.*}}, %[[SHIFT]]
// CHECK: tile.copy_async %{{.*}}[%[[SHIFT]], 0] [4, 64], %{{.*}}[%[[GROW]], 0] [4, 64] barrier(%[[FULL]][%[[PS:.*]]]) multicast(%{{.*}})
// CHECK-NEXT: tile.copy_async %{{.*}}[0, 0] [16, 64], %{{.*}} barrier(%[[FULL]][%[[PS]]]) :
// CHECK-NEXT: nvgpu.mbarrier.arrive.expect_tx %[[FULL]][%[[PS]]], %[[BYTES]]
// Releases go to both CTAs' empty barriers.
// CHECK: scf.for
// CHECK: nvgpu.mbarrier.try_wait.parity %[[FULL]]
// CHECK: tile.arrive_remote %[[EMPTY]][%[[SLOT:.*]]] on(%c0)
// CHECK-NEXT: tile.arrive_remote %[[EMPTY]][%[[SLOT]]] on(%c1)
// CHECK: nvgpu.mbarrier.try_wait.parity %[[EMPTY]]
// CHECK: tile.copy_async {{.*}} [4, 64], {{.*}} [4, 64] barrier(%[[FULL]]{{.*}}) multicast
// CHECK: memref.store
// CHECK-NEXT: nvvm.cluster.arrive
// CHECK-NEXT: nvvm.cluster.wait
// CHECK-NEXT: gpu.return
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
    tile.pipeline (%n) stages(%s, %s2 : !S, !S2) iter_args(%z : f32)
        attributes {cluster_size = 2} produce {
    ^bb0(%k: index, %t: !T, %u: !T2):
      %c8 = arith.constant 8 : index
      %c16 = arith.constant 16 : index
      %mask = arith.constant 3 : i16
      %row = arith.muli %k, %c8 : index
      %brow = arith.muli %k, %c16 : index
      tile.copy_async %t[0, 0] [8, 64], %A[%row, 0] [8, 64] multicast(%mask) : !T, !A
      tile.copy_async %u[0, 0] [16, 64], %B[%brow, 0] [16, 64] : !T2, !A
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

// Warp-specialized with wgmma reads: one thread per consumer warpgroup of
// each CTA releases, so empty counts 2 warpgroups x 2 CTAs; a 128 x 64 bf16
// operand with a 128B swizzle, sliced at row 64 (8 KiB, whole swizzle
// atoms).
// CHECK-LABEL: gpu.func @specialized
// CHECK-SAME: known_block_size = array<i32: 384, 1, 1>
// CHECK-SAME: known_cluster_size = array<i32: 2, 1, 1>
// CHECK-DAG: %[[C64:.*]] = arith.constant 64 : index
// CHECK-DAG: %[[C4:.*]] = arith.constant 4 : index
// CHECK-DAG: %[[BYTES:.*]] = arith.constant 16384 : index
// CHECK: nvgpu.mbarrier.create
// CHECK-NEXT: %[[EMPTY:.*]] = nvgpu.mbarrier.create
// CHECK: %[[RANK32:.*]] = nvvm.read.ptx.sreg.cluster.ctarank : i32
// CHECK-NEXT: %[[RANK:.*]] = arith.index_cast %[[RANK32]] : i32 to index
// CHECK: nvgpu.mbarrier.init %[[EMPTY]][%{{.*}}], %[[C4]]
// CHECK: nvvm.cluster.wait
// CHECK: %[[SHIFT:.*]] = arith.muli %[[RANK]], %[[C64]]
// CHECK: tile.copy_async %{{.*}}[%[[SHIFT]], 0] [64, 64], %{{.*}}[%{{.*}}, %{{.*}}] [64, 64] barrier({{.*}}) multicast
// CHECK-NEXT: nvgpu.mbarrier.arrive.expect_tx %{{.*}}, %[[BYTES]]
// CHECK: } else {
// CHECK: nvvm.wgmma.wait.group.sync.aligned 1
// CHECK: scf.if
// CHECK: tile.arrive_remote %[[EMPTY]][%[[SLOT:.*]]] on(%c0)
// CHECK-NEXT: tile.arrive_remote %[[EMPTY]][%[[SLOT]]] on(%c1)
// CHECK: nvvm.cluster.arrive
// CHECK-NEXT: nvvm.cluster.wait
// CHECK-NEXT: gpu.return
#sw = #tile.layout<(128, 64) : (64, 1), swizzle = 128B>
!A = memref<?x?xbf16>
!S = memref<2x128x64xbf16, #tile.layout<(2, 128, 64) : (8192, 64, 1), swizzle = 128B>, #gpu.address_space<workgroup>>
!T = memref<128x64xbf16, #sw, #gpu.address_space<workgroup>>
gpu.module @k {
  gpu.func @specialized(%A: !A, %m: index, %n: index, %out: memref<?xi64>) kernel {
    %s = tile.arena_view [0] : !S
    %z = arith.constant 0 : i64
    tile.pipeline (%n) stages(%s : !S) iter_args(%z : i64)
        attributes {consumers = 2, reads = #tile.consumer_reads<wgmma>,
                    in_flight = 1, cluster_size = 2} produce {
    ^bb0(%k: index, %t: !T):
      %c64 = arith.constant 64 : index
      %mask = arith.constant 3 : i16
      %col = arith.muli %k, %c64 : index
      tile.copy_async %t[0, 0] [128, 64], %A[%m, %col] [128, 64] multicast(%mask) : !T, !A
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

// In a gpu.launch, the launch's cluster states the size.
// CHECK-LABEL: func.func @launch
// CHECK: gpu.launch clusters
// CHECK: nvvm.fence.mbarrier.init
// CHECK: tile.copy_async {{.*}} [4, 64], {{.*}} [4, 64] barrier({{.*}}) multicast
// CHECK: nvgpu.mbarrier.arrive.expect_tx %{{.*}}, %c2048
// CHECK: tile.arrive_remote
// CHECK: nvvm.cluster.wait
// CHECK-NEXT: gpu.terminator
!A = memref<?x?xf32>
!S = memref<2x8x64xf32, #gpu.address_space<workgroup>>
!T = memref<8x64xf32, #gpu.address_space<workgroup>>
func.func @launch(%A: !A, %n: index) {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c128 = arith.constant 128 : index
  gpu.launch clusters(%cx, %cy, %cz) in (%ncx = %c2, %ncy = %c1, %ncz = %c1)
             blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c128, %sy = %c1, %sz = %c1) {
    %s = tile.arena_view [0] : !S
    tile.pipeline (%n) stages(%s : !S) attributes {cluster_size = 2} produce {
    ^bb0(%k: index, %t: !T):
      %mask = arith.constant 3 : i16
      tile.copy_async %t[0, 0] [8, 64], %A[0, 0] [8, 64] multicast(%mask) : !T, !A
      tile.yield
    } consume {
    ^bb0(%k: index, %t: !T, %c: index):
      tile.yield
    } epilogue {
    ^bb0(%c: index):
      tile.yield
    }
    gpu.terminator
  }
  return
}
