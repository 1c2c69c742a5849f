// tile_loads: buffers a persistent pipeline's consumers read for a whole
// tile (attention's query rows), loaded once per tile on barriers of their
// own. The producer loads them after the tile's first stage, once the
// previous tile's consumers released them (it waits right before the first
// load); the consumers wait for them before the tile's iterations and
// release them after the epilogue, each thread once its bulk stores have
// read shared memory.
// RUN: tile-opt %s -split-input-file --tile-expand-pipelines --tile-materialize-expect-tx --canonicalize --cse | FileCheck %s
// The generated protocol passes tile-verify-async.
// RUN: tile-opt %s -split-input-file --tile-expand-pipelines --tile-materialize-expect-tx --tile-plan-copies --tile-verify-async -o /dev/null

// CHECK-LABEL: gpu.func @tile_rows
// CHECK: %[[FULL:.*]] = nvgpu.mbarrier.create -> <memorySpace = #gpu.address_space<workgroup>, num_barriers = 3>
// CHECK-NEXT: %[[EMPTY:.*]] = nvgpu.mbarrier.create -> <memorySpace = #gpu.address_space<workgroup>, num_barriers = 3>
// CHECK-NEXT: %[[TFULL:.*]] = nvgpu.mbarrier.create -> <memorySpace = #gpu.address_space<workgroup>>
// CHECK-NEXT: %[[TEMPTY:.*]] = nvgpu.mbarrier.create -> <memorySpace = #gpu.address_space<workgroup>>
// Initialised with the stages': one arrival (the producer's) and every
// consumer thread's (two consumers).
// CHECK: nvgpu.mbarrier.init %[[TFULL]][%c0], %c1
// CHECK-NEXT: nvgpu.mbarrier.init %[[TEMPTY]][%c0], %c256
// The producer: each tile's first stage load, then the tile's Q rows once
// tile t - 1's consumers released them (parity (t - 1) % 2).
// CHECK: scf.for %[[T:.*]] = %c0 to %[[TILES:arg3]] step %c1 {
// CHECK: scf.for %[[K:.*]] = %c0 to %[[N:arg2]] step %c1 iter_args(%{{.*}} = %{{.*}}) -> (i32) {
// CHECK: tile.copy_async %{{.*}}[0, 0] [8, 64], %arg0[%{{.*}}, 0] [8, 64] barrier(%[[FULL]][%[[SLOT:.*]]])
// CHECK-NEXT: nvgpu.mbarrier.arrive.expect_tx %[[FULL]][%[[SLOT]]], %c2048
// CHECK-NEXT: %[[FIRST:.*]] = arith.cmpi eq, %[[K]], %c0 : index
// CHECK-NEXT: scf.if %[[FIRST]] {
// CHECK-NEXT: %[[QROW:.*]] = arith.muli %[[T]], %c8 : index
// CHECK-NEXT: %[[LATER:.*]] = arith.cmpi ugt, %[[T]], %c0 : index
// CHECK-NEXT: scf.if %[[LATER]] {
// CHECK-NEXT: %[[PREV:.*]] = arith.subi %[[T]], %c1 : index
// CHECK-NEXT: %[[BIT:.*]] = arith.remui %[[PREV]], %c2 : index
// CHECK-NEXT: %[[PAR:.*]] = arith.cmpi ne, %[[BIT]], %c0 : index
// CHECK-NEXT: nvgpu.mbarrier.try_wait.parity %[[TEMPTY]][%c0], %[[PAR]], %c10000000
// CHECK-NEXT: }
// CHECK-NEXT: tile.copy_async %[[Q:.*]][0, 0] [8, 64], %arg1[%[[QROW]], 0] [8, 64] barrier(%[[TFULL]][%c0])
// CHECK-NEXT: nvgpu.mbarrier.arrive.expect_tx %[[TFULL]][%c0], %c2048
// A tile without iterations still loads them (its consumers wait for them).
// CHECK: %[[NONE:.*]] = arith.cmpi eq, %[[N]], %c0 : index
// CHECK-NEXT: scf.if %[[NONE]] {
// CHECK: nvgpu.mbarrier.try_wait.parity %[[TEMPTY]][%c0]
// CHECK: tile.copy_async %[[Q]][0, 0] [8, 64], %arg1[%{{.*}}, 0] [8, 64] barrier(%[[TFULL]][%c0])
// CHECK-NEXT: nvgpu.mbarrier.arrive.expect_tx %[[TFULL]][%c0], %c2048
// The consumers: wait for tile t's loads (parity t % 2) before its
// iterations; after the epilogue, wait for their stores to read, release.
// CHECK: } else {
// CHECK: %[[CT:.*]] = arith.index_castui %{{.*}} : i64 to index
// CHECK-NEXT: %[[BASE:.*]] = arith.muli %[[CT]], %[[N]] : index
// CHECK-NEXT: %[[REST:.*]] = arith.remui %[[BASE]], %c6 : index
// CHECK-NEXT: %[[R0:.*]] = arith.index_castui %[[REST]] : index to i32
// CHECK-NEXT: %[[CBIT:.*]] = arith.remui %[[CT]], %c2 : index
// CHECK-NEXT: %[[CPAR:.*]] = arith.cmpi ne, %[[CBIT]], %c0 : index
// CHECK-NEXT: nvgpu.mbarrier.try_wait.parity %[[TFULL]][%c0], %[[CPAR]], %c10000000
// CHECK-NEXT: scf.for
// CHECK: tile.bulk_commit_group
// CHECK-NEXT: }
// CHECK-NEXT: tile.bulk_wait_group 0 {read}
// CHECK-NEXT: nvgpu.mbarrier.arrive %[[TEMPTY]][%c0]
!A = memref<?x64xf32>
!Q = memref<?x64xf32>
!stages = memref<3x8x64xf32, #gpu.address_space<workgroup>>
!stage = memref<8x64xf32, #gpu.address_space<workgroup>>
!tileQ = memref<8x64xf32, #gpu.address_space<workgroup>>
gpu.module @kernels {
  gpu.func @tile_rows(%A: !A, %Q: !Q, %n: index, %tiles: index, %out: memref<?x64xf32>) kernel {
    %c8 = arith.constant 8 : index
    %c64 = arith.constant 64 : index
    %zero = arith.constant 0.0 : f32
    %tid = gpu.thread_id x
    %col = arith.remui %tid, %c64 : index
    %buf = tile.arena_view [0] : !stages
    %q = tile.arena_view [6144] : !tileQ
    tile.pipeline (%n) tiles(%tiles) stages(%buf : !stages) iter_args(%zero : f32)
        attributes {consumers = 2 : i64} tile_loads {
    ^bb0(%t: index):
      %qrow = arith.muli %t, %c8 : index
      tile.copy_async %q[0, 0] [8, 64], %Q[%qrow, 0] [8, 64] : !tileQ, !Q
      tile.yield
    } produce {
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
      %w = memref.load %q[%wg, %col] : !tileQ
      %p = arith.mulf %v, %w : f32
      %next = arith.addf %sum, %p : f32
      tile.yield %next : f32
    } epilogue {
    ^bb0(%t: index, %wg: index, %sum: f32):
      // Each consumer stages its sums in its own row of the Q tile (after
      // its warpgroup's reads: named barrier 1 + consumer), then one thread
      // stores the row.
      %c0 = arith.constant 0 : index
      %c128_i32 = arith.constant 128 : i32
      %wg_i32 = arith.index_cast %wg : index to i32
      %one = arith.constant 1 : i32
      %bar = arith.addi %wg_i32, %one : i32
      nvvm.barrier id = %bar number_of_threads = %c128_i32
      memref.store %sum, %q[%wg, %col] : !tileQ
      nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
      nvvm.barrier id = %bar number_of_threads = %c128_i32
      %rows = arith.muli %t, %c8 : index
      %orow = arith.addi %rows, %wg : index
      %local = arith.remui %tid, %c64 : index
      %lead = arith.cmpi eq, %local, %c0 : index
      scf.if %lead {
        tile.copy_async %out[%orow, 0] [1, 64], %q[%wg, 0] [1, 64] : memref<?x64xf32>, !tileQ
        tile.bulk_commit_group
      }
      tile.yield
    }
    gpu.return
  }
}

// -----

// An epilogue that reads a stage buffer (the last in_flight iterations'
// stages, still held) runs before they are released: the release of the
// tile's last stage follows the epilogue's read, a wait for all groups and
// one for its bulk stores to read shared memory (an epilogue may stage its
// output in a held stage).
// CHECK-LABEL: gpu.func @reads_last_stage
// CHECK: nvgpu.mbarrier.create
// CHECK-NEXT: %[[EMPTY:.*]] = nvgpu.mbarrier.create
// CHECK: nvvm.wgmma.wait.group.sync.aligned 0
// CHECK-NEXT: %[[LASTK:.*]] = arith.subi %[[N:arg1]], %c1 : index
// CHECK-NEXT: %[[G:.*]] = arith.addi %{{.*}}, %[[LASTK]] : index
// CHECK-NEXT: %[[SLOT:.*]] = arith.remui %[[G]], %c3 : index
// CHECK-NEXT: %[[VIEW:.*]] = tile.stage %{{.*}}[%[[SLOT]]]
// CHECK-NEXT: %[[V:.*]] = memref.load %[[VIEW]][%c0, %{{.*}}]
// CHECK-NEXT: memref.store %[[V]], %arg3
// CHECK-NEXT: nvvm.wgmma.wait.group.sync.aligned 0
// CHECK-NEXT: tile.bulk_wait_group 0 {read}
// CHECK-NEXT: %[[HAS:.*]] = arith.cmpi uge, %[[N]], %c1 : index
// The same stage, from the position the loop carried out: end - 1.
// CHECK-NEXT: %[[GE:.*]] = arith.cmpi uge, %[[END:.*]], %c1_i32 : i32
// CHECK-NEXT: %[[DEC:.*]] = arith.subi %[[END]], %c1_i32 : i32
// CHECK-NEXT: %[[UP:.*]] = arith.addi %[[END]], %c5_i32 : i32
// CHECK-NEXT: %[[LASTR:.*]] = arith.select %[[GE]], %[[DEC]], %[[UP]] : i32
// CHECK-NEXT: %[[TAIL:.*]] = arith.andi %{{.*}}, %[[HAS]] : i1
// CHECK-NEXT: scf.if %[[TAIL]] {
// CHECK-NEXT: %[[HI:.*]] = arith.cmpi uge, %[[LASTR]], %c3_i32 : i32
// CHECK-NEXT: %[[LO:.*]] = arith.subi %[[LASTR]], %c3_i32 : i32
// CHECK-NEXT: %[[LSEL:.*]] = arith.select %[[HI]], %[[LO]], %[[LASTR]] : i32
// CHECK-NEXT: %[[LSLOT:.*]] = arith.index_castui %[[LSEL]] : i32 to index
// CHECK-NEXT: nvgpu.mbarrier.arrive %[[EMPTY]][%[[LSLOT]]]
!A = memref<?x64xf32>
!S = memref<3x8x64xf32, #gpu.address_space<workgroup>>
!T = memref<8x64xf32, #gpu.address_space<workgroup>>
gpu.module @k {
  gpu.func @reads_last_stage(%A: !A, %n: index, %tiles: index, %out: memref<?x128xf32>) kernel {
    %s = tile.arena_view [0] : !S
    %zero = arith.constant 0.0 : f32
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %c8 = arith.constant 8 : index
    %c64 = arith.constant 64 : index
    %tid = gpu.thread_id x
    %col = arith.remui %tid, %c64 : index
    tile.pipeline (%n) tiles(%tiles) stages(%s : !S) iter_args(%zero : f32)
        attributes {consumers = 1 : i64, in_flight = 1 : i64, reads = #tile.consumer_reads<wgmma>} produce {
    ^bb0(%t: index, %k: index, %st: !T):
      %base = arith.muli %t, %n : index
      %kk = arith.addi %base, %k : index
      %row = arith.muli %kk, %c8 : index
      tile.copy_async %st[0, 0] [8, 64], %A[%row, 0] [8, 64] : !T, !A
      tile.yield
    } consume {
    ^bb0(%t: index, %k: index, %st: !T, %wg: index, %sum: f32):
      tile.yield %sum : f32
    } epilogue {
    ^bb0(%t: index, %wg: index, %sum: f32):
      // The last iteration's stage: ring position t x n + n - 1.
      %base = arith.muli %t, %n : index
      %last = arith.subi %n, %c1 : index
      %g = arith.addi %base, %last : index
      %slot = arith.remui %g, %c3 : index
      %view = tile.stage %s[%slot] : !S -> !T
      %v = memref.load %view[%c0, %col] : !T
      memref.store %v, %out[%t, %col] : memref<?x128xf32>
      tile.yield
    }
    gpu.return
  }
}

// -----

// An epilogue that does not use the tile's buffers: the consumers release
// them before it (after the wait for their wgmma groups), so the producer
// loads the next tile's during the epilogue, which stages its output in the
// tile's last stage, still held; that stage goes back once the store has
// read it.
// CHECK-LABEL: gpu.func @early_release
// CHECK: nvgpu.mbarrier.create
// CHECK-NEXT: %[[EMPTY:.*]] = nvgpu.mbarrier.create
// CHECK-NEXT: nvgpu.mbarrier.create
// CHECK-NEXT: %[[TEMPTY:.*]] = nvgpu.mbarrier.create
// CHECK: } else {
// CHECK: scf.for
// CHECK: nvvm.wgmma.wait.group.sync.aligned 0
// CHECK-NEXT: nvgpu.mbarrier.arrive %[[TEMPTY]][%c0]
// CHECK-NEXT: %[[LASTK:.*]] = arith.subi %[[N:arg2]], %c1 : index
// CHECK: %[[VIEW:.*]] = tile.stage
// CHECK: memref.store %{{.*}}, %[[VIEW]]
// CHECK: tile.copy_async %arg4[%{{.*}}, 0] [1, 64], %[[VIEW]][%{{.*}}, 0] [1, 64]
// CHECK-NEXT: tile.bulk_commit_group
// CHECK-NEXT: }
// CHECK-NEXT: nvvm.wgmma.wait.group.sync.aligned 0
// CHECK-NEXT: tile.bulk_wait_group 0 {read}
// CHECK: scf.if
// CHECK: nvgpu.mbarrier.arrive %[[EMPTY]]
// CHECK-NOT: nvgpu.mbarrier.arrive %[[TEMPTY]]
// CHECK: gpu.return
!A = memref<?x64xf32>
!Q = memref<?x64xf32>
!S = memref<3x8x64xf32, #gpu.address_space<workgroup>>
!T = memref<8x64xf32, #gpu.address_space<workgroup>>
gpu.module @k {
  gpu.func @early_release(%A: !A, %Q: !Q, %n: index, %tiles: index, %out: memref<?x64xf32>) kernel {
    %s = tile.arena_view [0] : !S
    %q = tile.arena_view [6144] : !T
    %zero = arith.constant 0.0 : f32
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %c8 = arith.constant 8 : index
    %c64 = arith.constant 64 : index
    %tid = gpu.thread_id x
    %col = arith.remui %tid, %c64 : index
    tile.pipeline (%n) tiles(%tiles) stages(%s : !S) iter_args(%zero : f32)
        attributes {consumers = 1 : i64, in_flight = 1 : i64, reads = #tile.consumer_reads<wgmma>} tile_loads {
    ^bb0(%t: index):
      %qrow = arith.muli %t, %c8 : index
      tile.copy_async %q[0, 0] [8, 64], %Q[%qrow, 0] [8, 64] : !T, !Q
      tile.yield
    } produce {
    ^bb0(%t: index, %k: index, %st: !T):
      %base = arith.muli %t, %n : index
      %kk = arith.addi %base, %k : index
      %row = arith.muli %kk, %c8 : index
      tile.copy_async %st[0, 0] [8, 64], %A[%row, 0] [8, 64] : !T, !A
      tile.yield
    } consume {
    ^bb0(%t: index, %k: index, %st: !T, %wg: index, %sum: f32):
      %w = memref.load %q[%c0, %col] : !T
      %next = arith.addf %sum, %w : f32
      tile.yield %next : f32
    } epilogue {
    ^bb0(%t: index, %wg: index, %sum: f32):
      // The last iteration's stage (n >= 1 here): ring position t x n + n - 1.
      %base = arith.muli %t, %n : index
      %last = arith.subi %n, %c1 : index
      %g = arith.addi %base, %last : index
      %slot = arith.remui %g, %c3 : index
      %view = tile.stage %s[%slot] : !S -> !T
      memref.store %sum, %view[%c0, %col] : !T
      nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
      %lead = arith.cmpi eq, %col, %c0 : index
      scf.if %lead {
        tile.copy_async %out[%t, 0] [1, 64], %view[%c0, 0] [1, 64] : memref<?x64xf32>, !T
        tile.bulk_commit_group
      }
      tile.yield
    }
    gpu.return
  }
}

// -----

// A prefetch in tile_loads warms L2 for a later tile. It takes no barrier,
// its bytes are not expected on the tile's full barrier (2048, the load's
// alone), and one before the first load does not wait for the previous
// tile's consumers to release the buffer: here tile t prefetches tile
// t + 1's rows at once, then loads its own after the wait. The consumers
// release the buffer before the epilogue, which does not use it.
// CHECK-LABEL: gpu.func @prefetch_next_rows
// CHECK: %[[TFULL:.*]] = nvgpu.mbarrier.create -> <memorySpace = #gpu.address_space<workgroup>>
// CHECK-NEXT: %[[TEMPTY:.*]] = nvgpu.mbarrier.create -> <memorySpace = #gpu.address_space<workgroup>>
// CHECK: nvgpu.mbarrier.arrive.expect_tx
// CHECK-NEXT: %[[FIRST:.*]] = arith.cmpi eq, %{{.*}}, %c0 : index
// CHECK-NEXT: scf.if %[[FIRST]] {
// CHECK-NEXT: %[[QROW:.*]] = arith.muli %[[T:.*]], %c8 : index
// CHECK-NEXT: %[[NEXT:.*]] = arith.addi %[[QROW]], %c8 : index
// CHECK-NEXT: tile.copy_async %[[Q:.*]][0, 0] [8, 64], %arg1[%[[NEXT]], 0] [8, 64] {prefetch} : memref<8x64xf32, #gpu.address_space<workgroup>>, memref<?x64xf32>
// CHECK-NEXT: %[[LATER:.*]] = arith.cmpi ugt, %[[T]], %c0 : index
// CHECK-NEXT: scf.if %[[LATER]] {
// CHECK: nvgpu.mbarrier.try_wait.parity %[[TEMPTY]][%c0]
// CHECK-NEXT: }
// CHECK-NEXT: tile.copy_async %[[Q]][0, 0] [8, 64], %arg1[%[[QROW]], 0] [8, 64] barrier(%[[TFULL]][%c0])
// CHECK-NEXT: nvgpu.mbarrier.arrive.expect_tx %[[TFULL]][%c0], %c2048
// CHECK: nvgpu.mbarrier.try_wait.parity %[[TFULL]][%c0]
// CHECK: nvgpu.mbarrier.arrive %[[TEMPTY]][%c0]
// CHECK: memref.store
!A = memref<?x64xf32>
!Q = memref<?x64xf32>
!stages = memref<3x8x64xf32, #gpu.address_space<workgroup>>
!stage = memref<8x64xf32, #gpu.address_space<workgroup>>
!tileQ = memref<8x64xf32, #gpu.address_space<workgroup>>
gpu.module @kernels {
  gpu.func @prefetch_next_rows(%A: !A, %Q: !Q, %n: index, %tiles: index, %out: memref<?x64xf32>) kernel {
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %c64 = arith.constant 64 : index
    %zero = arith.constant 0.0 : f32
    %tid = gpu.thread_id x
    %col = arith.remui %tid, %c64 : index
    %buf = tile.arena_view [0] : !stages
    %q = tile.arena_view [6144] : !tileQ
    tile.pipeline (%n) tiles(%tiles) stages(%buf : !stages) iter_args(%zero : f32)
        attributes {consumers = 2 : i64} tile_loads {
    ^bb0(%t: index):
      %qrow = arith.muli %t, %c8 : index
      %next = arith.addi %qrow, %c8 : index
      tile.copy_async %q[0, 0] [8, 64], %Q[%next, 0] [8, 64] {prefetch} : !tileQ, !Q
      tile.copy_async %q[0, 0] [8, 64], %Q[%qrow, 0] [8, 64] : !tileQ, !Q
      tile.yield
    } produce {
    ^bb0(%t: index, %k: index, %s: !stage):
      %base = arith.muli %t, %n : index
      %kk = arith.addi %base, %k : index
      %row = arith.muli %kk, %c8 : index
      tile.copy_async %s[0, 0] [8, 64], %A[%row, 0] [8, 64] : !stage, !A
      tile.yield
    } consume {
    ^bb0(%t: index, %k: index, %s: !stage, %wg: index, %sum: f32):
      %c0 = arith.constant 0 : index
      %w = memref.load %q[%wg, %col] : !tileQ
      %next = arith.addf %sum, %w : f32
      tile.yield %next : f32
    } epilogue {
    ^bb0(%t: index, %wg: index, %sum: f32):
      %rows = arith.muli %t, %c8 : index
      %orow = arith.addi %rows, %wg : index
      memref.store %sum, %out[%orow, %col] : memref<?x64xf32>
      tile.yield
    }
    gpu.return
  }
}

// -----

// tile.release_tile_loads in consume: the buffers go back where it stands
// in the tile's last iteration (i + 1 = n), not before the epilogue, which
// releases them only for a tile without iterations.
// CHECK-LABEL: gpu.func @release_in_consume
// CHECK: %[[TFULL:.*]] = nvgpu.mbarrier.create -> <memorySpace = #gpu.address_space<workgroup>>
// CHECK-NEXT: %[[TEMPTY:.*]] = nvgpu.mbarrier.create -> <memorySpace = #gpu.address_space<workgroup>>
// CHECK: nvgpu.mbarrier.try_wait.parity %[[TFULL]][%c0]
// CHECK: scf.for %[[I:.*]] = %c0 to %[[N:arg2]] step %c1
// CHECK: %[[W:.*]] = memref.load %{{.*}}[%{{.*}}, %{{.*}}] : memref<8x64xf32, #gpu.address_space<workgroup>>
// CHECK-NEXT: %[[NEXTI:.*]] = arith.addi %[[I]], %c1 : index
// CHECK-NEXT: %[[LAST:.*]] = arith.cmpi eq, %[[NEXTI]], %[[N]] : index
// CHECK-NEXT: scf.if %[[LAST]] {
// CHECK-NEXT: nvgpu.mbarrier.arrive %[[TEMPTY]][%c0]
// CHECK-NEXT: }
// CHECK-NEXT: arith.addf
// CHECK: %[[NONE:.*]] = arith.cmpi eq, %[[N]], %c0 : index
// CHECK-NEXT: scf.if %[[NONE]] {
// CHECK-NEXT: nvgpu.mbarrier.arrive %[[TEMPTY]][%c0]
// CHECK-NEXT: }
// CHECK: memref.store
!A = memref<?x64xf32>
!Q = memref<?x64xf32>
!stages = memref<3x8x64xf32, #gpu.address_space<workgroup>>
!stage = memref<8x64xf32, #gpu.address_space<workgroup>>
!tileQ = memref<8x64xf32, #gpu.address_space<workgroup>>
gpu.module @kernels {
  gpu.func @release_in_consume(%A: !A, %Q: !Q, %n: index, %tiles: index, %out: memref<?x64xf32>) kernel {
    %c8 = arith.constant 8 : index
    %c64 = arith.constant 64 : index
    %zero = arith.constant 0.0 : f32
    %tid = gpu.thread_id x
    %col = arith.remui %tid, %c64 : index
    %buf = tile.arena_view [0] : !stages
    %q = tile.arena_view [6144] : !tileQ
    tile.pipeline (%n) tiles(%tiles) stages(%buf : !stages) iter_args(%zero : f32)
        attributes {consumers = 2 : i64} tile_loads {
    ^bb0(%t: index):
      %qrow = arith.muli %t, %c8 : index
      tile.copy_async %q[0, 0] [8, 64], %Q[%qrow, 0] [8, 64] : !tileQ, !Q
      tile.yield
    } produce {
    ^bb0(%t: index, %k: index, %s: !stage):
      %base = arith.muli %t, %n : index
      %kk = arith.addi %base, %k : index
      %row = arith.muli %kk, %c8 : index
      tile.copy_async %s[0, 0] [8, 64], %A[%row, 0] [8, 64] : !stage, !A
      tile.yield
    } consume {
    ^bb0(%t: index, %k: index, %s: !stage, %wg: index, %sum: f32):
      %w = memref.load %q[%wg, %col] : !tileQ
      tile.release_tile_loads
      %next = arith.addf %sum, %w : f32
      tile.yield %next : f32
    } epilogue {
    ^bb0(%t: index, %wg: index, %sum: f32):
      %rows = arith.muli %t, %c8 : index
      %orow = arith.addi %rows, %wg : index
      memref.store %sum, %out[%orow, %col] : memref<?x64xf32>
      tile.yield
    }
    gpu.return
  }
}
