// tile.arrive_expect_tx becomes nvgpu.mbarrier.arrive.expect_tx with the
// bytes of the loads it covers.
// RUN: tile-opt %s -split-input-file --tile-materialize-expect-tx -verify-diagnostics | FileCheck %s

!tileA = memref<128x64xbf16, #tile.layout<(128, 64) : (64, 1), swizzle = 128B>, #gpu.address_space<workgroup>>
!tileB = memref<256x64xbf16, #tile.layout<(256, 64) : (64, 1), swizzle = 128B>, #gpu.address_space<workgroup>>
!half = memref<8x256xf16, #tile.layout<(8, 256)>, #gpu.address_space<workgroup>>
!bars = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 2>
module attributes {gpu.container_module} {
  gpu.module @k {
    // Two loads on full[%s]: 128 x 64 x 2 + 256 x 64 x 2 = 49152 bytes.
    // CHECK-LABEL: gpu.func @two_loads
    // CHECK: %[[FULL:.*]] = nvgpu.mbarrier.create
    // CHECK: scf.for %[[K:.*]] =
    // CHECK: %[[S:.*]] = arith.remui %[[K]]
    // CHECK: tile.copy_async {{.*}} barrier(%[[FULL]][%[[S]]])
    // CHECK: tile.copy_async {{.*}} barrier(%[[FULL]][%[[S]]])
    // CHECK-NEXT: %[[BYTES:.*]] = arith.constant 49152 : index
    // CHECK-NEXT: nvgpu.mbarrier.arrive.expect_tx %[[FULL]][%[[S]]], %[[BYTES]]
    // CHECK-NOT: tile.arrive_expect_tx
    gpu.func @two_loads(%A: memref<1024x64xbf16>, %B: memref<1024x64xbf16>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c4 = arith.constant 4 : index
      %a = tile.arena_view [0] : !tileA
      %b = tile.arena_view [16384] : !tileB
      %full = nvgpu.mbarrier.create -> !bars
      scf.for %k = %c0 to %c4 step %c1 {
        %s = arith.remui %k, %c2 : index
        tile.copy_async %a[0, 0] [128, 64], %A[0, 0] [128, 64] barrier(%full[%s])
            : !tileA, memref<1024x64xbf16>, !bars
        tile.copy_async %b[0, 0] [256, 64], %B[0, 0] [256, 64] barrier(%full[%s])
            : !tileB, memref<1024x64xbf16>, !bars
        tile.arrive_expect_tx %full[%s] : !bars
      }
      gpu.return
    }

    // Announcing first, then an issue loop of 3 loads of 8 x 256 f16 (the
    // last one partly out of bounds), then a second phase after the wait.
    // CHECK-LABEL: gpu.func @issue_loop
    // CHECK: %[[BAR:.*]] = nvgpu.mbarrier.create
    // CHECK: %[[B1:.*]] = arith.constant 12288 : index
    // CHECK-NEXT: nvgpu.mbarrier.arrive.expect_tx %[[BAR]][%[[C1:.*]]], %[[B1]]
    // CHECK: scf.for
    // CHECK: nvgpu.mbarrier.try_wait.parity %[[BAR]][%[[C1]]]
    // CHECK: %[[B2:.*]] = arith.constant 4096 : index
    // CHECK-NEXT: nvgpu.mbarrier.arrive.expect_tx %[[BAR]][%[[C1]]], %[[B2]]
    gpu.func @issue_loop(%A: memref<20x256xf16>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c3 = arith.constant 3 : index
      %c8 = arith.constant 8 : index
      %s = tile.arena_view [0] : !half
      %bar = nvgpu.mbarrier.create -> !bars
      tile.arrive_expect_tx %bar[%c1] : !bars
      scf.for %i = %c0 to %c3 step %c1 {
        %row = arith.muli %i, %c8 : index
        tile.copy_async %s[0, 0] [8, 256], %A[%row, 0] [8, 256] barrier(%bar[%c1])
            : !half, memref<20x256xf16>, !bars
      }
      %phase = arith.constant false
      %ticks = arith.constant 1000 : index
      nvgpu.mbarrier.try_wait.parity %bar[%c1], %phase, %ticks : !bars
      tile.copy_async %s[0, 0] [8, 256], %A[0, 0] [8, 256] barrier(%bar[%c1])
          : !half, memref<20x256xf16>, !bars
      tile.arrive_expect_tx %bar[%c1] : !bars
      gpu.return
    }
  }
}

// -----

!half = memref<8x256xf16, #tile.layout<(8, 256)>, #gpu.address_space<workgroup>>
!bars = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 2>
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @declines(%A: memref<8x256xf16>, %mask: i16, %c: i1) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %bytes = arith.constant 4096 : index
      %s = tile.arena_view [0] : !half
      %bar = nvgpu.mbarrier.create -> !bars
      // expected-error @+1 {{async-tx-bytes: cannot derive the bytes to expect on barrier 0 of %1: it covers no tile.copy_async or tile.copy_im2col load}}
      tile.arrive_expect_tx %bar[%c0] : !bars
      tile.copy_async %s[0, 0] [8, 256], %A[0, 0] [8, 256] barrier(%bar[%c1]) multicast(%mask)
          : !half, memref<8x256xf16>, !bars
      // expected-error @+1 {{async-tx-bytes: cannot derive the bytes to expect on barrier 1 of %1: a load it covers multicasts and the CTAs that issue it cannot be told (a mask that is not the whole cluster, a condition on the CTA's position, or an unknown cluster size), so the bytes each CTA receives depend on the other CTAs' loads}}
      tile.arrive_expect_tx %bar[%c1] : !bars
      gpu.return
    }
    gpu.func @two_announcements(%A: memref<8x256xf16>) kernel {
      %c0 = arith.constant 0 : index
      %bytes = arith.constant 4096 : index
      %s = tile.arena_view [0] : !half
      %bar = nvgpu.mbarrier.create -> !bars
      tile.copy_async %s[0, 0] [8, 256], %A[0, 0] [8, 256] barrier(%bar[%c0])
          : !half, memref<8x256xf16>, !bars
      nvgpu.mbarrier.arrive.expect_tx %bar[%c0], %bytes : !bars
      // expected-error @+1 {{async-tx-bytes: cannot derive the bytes to expect on barrier 0 of %1: another arrive.expect_tx announces bytes in the same phase}}
      tile.arrive_expect_tx %bar[%c0] : !bars
      gpu.return
    }
    gpu.func @unknown_index(%A: memref<8x256xf16>, %i: index, %j: index) kernel {
      %s = tile.arena_view [0] : !half
      %bar = nvgpu.mbarrier.create -> !bars
      tile.copy_async %s[0, 0] [8, 256], %A[0, 0] [8, 256] barrier(%bar[%i])
          : !half, memref<8x256xf16>, !bars
      // expected-error @+1 {{async-tx-bytes: cannot derive the bytes to expect: the loads on this barrier group are not all in this block (or in issue loops with constant trip counts in it), or their barrier indices cannot be told apart}}
      tile.arrive_expect_tx %bar[%j] : !bars
      gpu.return
    }
  }
}

// -----

// A multicast under control that every CTA of the cluster shares: the
// cluster's CTAs are consecutive along x from a multiple of its size, so
// block x divided by a multiple of 2, the block ids along y (the cluster
// does not span y) and the cluster's id take one value in the whole
// cluster. Each CTA then receives both CTAs' halves: 2 x 2048 bytes.

!quarter = memref<4x256xf16, #tile.layout<(4, 256)>, #gpu.address_space<workgroup>>
!whole = memref<8x256xf16, #tile.layout<(8, 256)>, #gpu.address_space<workgroup>>
!bars = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 1>
module attributes {gpu.container_module} {
  gpu.module @k {
    // CHECK-LABEL: gpu.func @cluster_uniform
    // CHECK: %[[BYTES:.*]] = arith.constant 4096 : index
    // CHECK-NEXT: nvgpu.mbarrier.arrive.expect_tx %{{.*}}[%{{.*}}], %[[BYTES]]
    // CHECK-LABEL: gpu.func @cluster_id
    // CHECK: arith.constant 4096 : index
    gpu.func @cluster_uniform(%A: memref<64x256xf16>, %n: index) kernel
        attributes {known_cluster_size = array<i32: 2, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c4 = arith.constant 4 : index
      %all = arith.constant 3 : i16
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %pair = arith.divui %bx, %c4 : index
      %row = arith.addi %pair, %by : index
      %go = arith.cmpi ult, %row, %n : index
      %rank32 = nvvm.read.ptx.sreg.cluster.ctarank : i32
      %rank = arith.index_cast %rank32 : i32 to index
      %half = arith.muli %rank, %c4 : index
      %s = tile.arena_view [0] : !whole
      %q = tile.arena_view [0] : !quarter
      %bar = nvgpu.mbarrier.create -> !bars
      scf.if %go {
        tile.copy_async %q[0, 0] [4, 256], %A[%half, 0] [4, 256] barrier(%bar[%c0]) multicast(%all)
            : !quarter, memref<64x256xf16>, !bars
        tile.arrive_expect_tx %bar[%c0] : !bars
      }
      gpu.return
    }
    gpu.func @cluster_id(%A: memref<64x256xf16>, %n: index) kernel
        attributes {known_cluster_size = array<i32: 2, 1, 1>} {
      %c0 = arith.constant 0 : index
      %all = arith.constant 3 : i16
      %cid = gpu.cluster_id x
      %go = arith.cmpi ult, %cid, %n : index
      %q = tile.arena_view [0] : !quarter
      %bar = nvgpu.mbarrier.create -> !bars
      scf.if %go {
        tile.copy_async %q[0, 0] [4, 256], %A[0, 0] [4, 256] barrier(%bar[%c0]) multicast(%all)
            : !quarter, memref<64x256xf16>, !bars
        tile.arrive_expect_tx %bar[%c0] : !bars
      }
      gpu.return
    }
  }
}

// -----

!quarter = memref<4x256xf16, #tile.layout<(4, 256)>, #gpu.address_space<workgroup>>
!bars = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 1>
module attributes {gpu.container_module} {
  gpu.module @k {
    // Block x divided by 3, or its remainder by 2, differs between the CTAs
    // of a cluster of 2.
    gpu.func @cluster_split(%A: memref<64x256xf16>, %n: index) kernel
        attributes {known_cluster_size = array<i32: 2, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      %all = arith.constant 3 : i16
      %bx = gpu.block_id x
      %third = arith.divui %bx, %c3 : index
      %go = arith.cmpi ult, %third, %n : index
      %member = arith.remui %bx, %c2 : index
      %go2 = arith.cmpi ult, %member, %n : index
      %q = tile.arena_view [0] : !quarter
      %bar = nvgpu.mbarrier.create -> !bars
      scf.if %go {
        tile.copy_async %q[0, 0] [4, 256], %A[0, 0] [4, 256] barrier(%bar[%c0]) multicast(%all)
            : !quarter, memref<64x256xf16>, !bars
        // expected-error @+1 {{a condition on the CTA's position}}
        tile.arrive_expect_tx %bar[%c0] : !bars
      }
      scf.if %go2 {
        tile.copy_async %q[0, 0] [4, 256], %A[0, 0] [4, 256] barrier(%bar[%c0]) multicast(%all)
            : !quarter, memref<64x256xf16>, !bars
        // expected-error @+1 {{a condition on the CTA's position}}
        tile.arrive_expect_tx %bar[%c0] : !bars
      }
      gpu.return
    }
  }
}

// -----

// The same rules for a gpu.launch body, whose block and cluster ids are its
// arguments: block x over 4 (a multiple of the cluster's 2 along x), block y
// (the cluster does not span y) and the cluster's id are shared by the
// cluster's CTAs, so each CTA receives both halves: 2 x 2048 bytes. Block x
// itself differs between them.

!quarter = memref<4x256xf16, #tile.layout<(4, 256)>, #gpu.address_space<workgroup>>
!bars = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 1>
// CHECK-LABEL: func.func @launch_cluster_uniform
// CHECK: %[[BYTES:.*]] = arith.constant 4096 : index
// CHECK-NEXT: nvgpu.mbarrier.arrive.expect_tx %{{.*}}[%{{.*}}], %[[BYTES]]
func.func @launch_cluster_uniform(%A: memref<64x256xf16>, %n: index) {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c128 = arith.constant 128 : index
  gpu.launch clusters(%cx, %cy, %cz) in (%ncx = %c2, %ncy = %c1, %ncz = %c1)
             blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c2, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c128, %sy = %c1, %sz = %c1) {
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %all = arith.constant 3 : i16
    %pair = arith.divui %bx, %c4 : index
    %row = arith.addi %pair, %by : index
    %at = arith.addi %row, %cx : index
    %go = arith.cmpi ult, %at, %n : index
    %q = tile.arena_view [0] : !quarter
    %bar = nvgpu.mbarrier.create -> !bars
    scf.if %go {
      tile.copy_async %q[0, 0] [4, 256], %A[0, 0] [4, 256] barrier(%bar[%c0]) multicast(%all)
          : !quarter, memref<64x256xf16>, !bars
      tile.arrive_expect_tx %bar[%c0] : !bars
    }
    gpu.terminator
  }
  return
}

// -----

!quarter = memref<4x256xf16, #tile.layout<(4, 256)>, #gpu.address_space<workgroup>>
!bars = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 1>
func.func @launch_cluster_split(%A: memref<64x256xf16>, %n: index) {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c128 = arith.constant 128 : index
  gpu.launch clusters(%cx, %cy, %cz) in (%ncx = %c2, %ncy = %c1, %ncz = %c1)
             blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c128, %sy = %c1, %sz = %c1) {
    %c0 = arith.constant 0 : index
    %all = arith.constant 3 : i16
    %go = arith.cmpi ult, %bx, %n : index
    %q = tile.arena_view [0] : !quarter
    %bar = nvgpu.mbarrier.create -> !bars
    scf.if %go {
      tile.copy_async %q[0, 0] [4, 256], %A[0, 0] [4, 256] barrier(%bar[%c0]) multicast(%all)
          : !quarter, memref<64x256xf16>, !bars
      // expected-error @+1 {{a condition on the CTA's position}}
      tile.arrive_expect_tx %bar[%c0] : !bars
    }
    gpu.terminator
  }
  return
}
