// RUN: tile-opt %s -split-input-file --tile-plan-copies --tile-expand-collective-copies | FileCheck %s
// RUN: tile-opt %s -split-input-file --tile-plan-copies --tile-expand-collective-copies --tile-verify-async -o /dev/null

// A CTA-wide tile.copy planned for the TMA (collective_tma) becomes thread
// (0, 0, 0)'s tile.copy_async. The kernel's entry gets the linear thread
// index, one mbarrier per expanded load (initialised by thread 0, then a
// block barrier) and each thread's phase counter; the workgroup buffer gets the 1024-byte alignment
// the plan assumed. A load: proxy fence and block barrier, arrive.expect_tx
// of the plan's bytes and the copy on the mbarrier, every thread's wait at its
// counted phase, the counter flipped. A store: proxy fence and block barrier,
// the copy, commit and wait (not `read`: the global writes are done), a block
// barrier. The expansion passes tile-verify-async (second RUN line).

// CHECK-LABEL: gpu.func @loop
// CHECK-SAME: workgroup(%[[S:.*]] : memref<32x64xf16, #gpu.address_space<workgroup>> {llvm.align = 1024 : i64})
// CHECK: %[[X:.*]] = gpu.thread_id x
// CHECK: %[[Y:.*]] = gpu.thread_id y
// CHECK: %[[Z:.*]] = gpu.thread_id z
// CHECK: %[[TID:.*]] = arith.addi %[[X]]
// CHECK-NEXT: %[[ISSUER:.*]] = arith.cmpi eq, %[[TID]], %{{.*}} : index
// CHECK-NOT: arith.divui
// CHECK: %[[BARS:.*]] = nvgpu.mbarrier.create -> <memorySpace = #gpu.address_space<workgroup>>
// CHECK: %[[PHASES:.*]] = memref.alloca() : memref<1xi32>
// CHECK: memref.store %{{.*}}, %[[PHASES]]
// CHECK: scf.if %[[ISSUER]] {
// CHECK: nvgpu.mbarrier.init %[[BARS]][%{{.*}}], %{{.*}}
// CHECK: }
// CHECK-NEXT: gpu.barrier
// CHECK: scf.for
// CHECK: %[[ROW:.*]] = arith.muli
// CHECK-NEXT: nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// CHECK-NEXT: gpu.barrier
// CHECK: scf.if %[[ISSUER]] {
// CHECK-NEXT: %[[BYTES:.*]] = arith.constant 4096 : index
// CHECK-NEXT: nvgpu.mbarrier.arrive.expect_tx %[[BARS]][%[[I:.*]]], %[[BYTES]]
// CHECK-NEXT: tile.copy_async %[[S]][0, 0] [32, 64], %{{.*}}[%[[ROW]], 0] [32, 64] barrier(%[[BARS]][%[[I]]]) {{{.*}}tile.variant = "tma"}
// CHECK-NEXT: }
// CHECK-NEXT: %[[K:.*]] = arith.constant 0 : index
// CHECK-NEXT: %[[P:.*]] = memref.load %[[PHASES]][%[[K]]]
// CHECK-NEXT: %[[PARITY:.*]] = arith.trunci %[[P]] : i32 to i1
// CHECK: nvgpu.mbarrier.try_wait.parity %[[BARS]][%[[I]]], %[[PARITY]]
// CHECK: %[[NEXT:.*]] = arith.xori %[[P]]
// CHECK-NEXT: memref.store %[[NEXT]], %[[PHASES]][%[[K]]]
// CHECK-NEXT: nvvm.fence.proxy
// CHECK-NEXT: gpu.barrier
// CHECK-NEXT: scf.if %[[ISSUER]] {
// CHECK-NEXT: tile.copy_async %{{.*}}[%[[ROW]], 0] [32, 64], %[[S]][0, 0] [32, 64] {{{.*}}tile.variant = "tma"}
// CHECK-NEXT: tile.bulk_commit_group
// CHECK-NEXT: tile.bulk_wait_group 0
// CHECK-NEXT: }
// CHECK-NEXT: gpu.barrier
// CHECK-NOT: tile.copy %
!S = memref<32x64xf16, #gpu.address_space<workgroup>>
gpu.module @kernels {
  // A load and a store per iteration: one mbarrier, initialised at entry.
  gpu.func @loop(%A: memref<128x64xf16>, %B: memref<128x64xf16>, %n: index)
      workgroup(%S : !S) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    scf.for %i = %c0 to %n step %c1 {
      %row = arith.muli %i, %c32 : index
      tile.copy %S[0, 0] [32, 64], %A[%row, 0] [32, 64] {scope = "cta"}
          : !S, memref<128x64xf16>
      tile.copy %B[%row, 0] [32, 64], %S[0, 0] [32, 64] {scope = "cta"}
          : memref<128x64xf16>, !S
    }
    gpu.return
  }
}

// -----

// Each copy below stays element-wise (`collective`), with the TMA variant's
// reason recorded.
// CHECK-LABEL: gpu.func @declined
// CHECK-NOT: llvm.align
// CHECK: tile.declined = {{\[\[}}"collective_tma", "scope: only a CTA-wide or warpgroup-wide tile.copy goes through the tensor memory accelerator (one thread of the scope issues it, the scope waits)"{{\]\]}}, tile.variant = "collective"
// CHECK: tile.declined = {{\[\[}}"collective_tma", "guard: the global buffer has run-time sizes, strides or offset; a collective copy has no fallback version, so it stays element-wise"{{\]\]}}, tile.variant = "collective"
// CHECK: tile.declined = {{\[\[}}"collective_tma", "tma: the global buffer is not an argument of the kernel (a view made inside it), so the host cannot encode its tensor map"{{\]\]}}, tile.variant = "collective"
// CHECK: tile.declined = {{\[\[}}"collective_tma", "smem-align: the shared buffer is neither a tile.arena_view nor a buffer declared with an alignment (a workgroup buffer of the kernel, a memref.global), so its start alignment is unknown"{{\]\]}}, tile.variant = "collective"
// CHECK: tile.declined = {{\[\[}}"collective_tma", "direction: both buffers are in shared memory; the tensor memory accelerator copies between global and shared memory"{{\]\]}}, tile.variant = "collective"
// CHECK: tile.declined = {{\[\[}}"collective_tma", "direction: both buffers are in global memory; the tensor memory accelerator copies between global and shared memory"{{\]\]}}, tile.variant = "collective"
// CHECK-NOT: nvgpu.mbarrier
// CHECK-NOT: tile.copy_async
!S = memref<32x64xf16, #gpu.address_space<workgroup>>
gpu.module @kernels {

  gpu.func @declined(%A: memref<128x64xf16>, %D: memref<?x64xf16>, %P: !S,
                     %B: memref<128x64xf16>)
      workgroup(%S : !S) kernel {
    tile.copy %S[0, 0] [32, 64], %A[0, 0] [32, 64] {scope = "warp"}
        : !S, memref<128x64xf16>
    tile.copy %S[0, 0] [32, 64], %D[0, 0] [32, 64] {scope = "cta"}
        : !S, memref<?x64xf16>
    %v = memref.subview %A[0, 0] [32, 64] [2, 1]
        : memref<128x64xf16> to memref<32x64xf16, strided<[128, 1]>>
    tile.copy %S[0, 0] [32, 64], %v[0, 0] [32, 64] {scope = "cta"}
        : !S, memref<32x64xf16, strided<[128, 1]>>
    tile.copy %P[0, 0] [32, 64], %A[0, 0] [32, 64] {scope = "cta"}
        : !S, memref<128x64xf16>
    tile.copy %S[0, 0] [32, 64], %P[0, 0] [32, 64] {scope = "cta"}
        : !S, !S
    tile.copy %B[0, 0] [32, 64], %A[0, 0] [32, 64] {scope = "cta"}
        : memref<128x64xf16>, memref<128x64xf16>
    gpu.return
  }
}

// -----

// A warpgroup-wide copy: the issuer is thread 0 of each warpgroup (linear
// index % 128 == 0), each warpgroup waits on its own mbarrier (the load's
// first slot + warpgroup index; the kernel states 256 threads, so the load
// keeps 2 slots after the CTA-wide load's 1) and meets on its named barrier
// 1 + warpgroup index over 128 threads. Thread 0 of the CTA initialises all
// 3 mbarriers at entry. The phase counters stay one per load.
// CHECK-LABEL: gpu.func @warpgroups
// CHECK: %[[X:.*]] = gpu.thread_id x
// CHECK: %[[TID:.*]] = arith.addi %[[X]], %{{.*}} : index
// CHECK-NEXT: %[[CTA:.*]] = arith.cmpi eq, %[[TID]], %[[C0:.*]] : index
// CHECK-NEXT: %[[C128:.*]] = arith.constant 128 : index
// CHECK-NEXT: %[[WG:.*]] = arith.divui %[[TID]], %[[C128]] : index
// CHECK-NEXT: %[[LANE:.*]] = arith.remui %[[TID]], %[[C128]] : index
// CHECK-NEXT: %[[WGISSUER:.*]] = arith.cmpi eq, %[[LANE]], %[[C0]] : index
// CHECK-NEXT: %[[BARS:.*]] = nvgpu.mbarrier.create -> <memorySpace = #gpu.address_space<workgroup>, num_barriers = 3>
// CHECK-NEXT: %[[PHASES:.*]] = memref.alloca() : memref<2xi32>
// CHECK: scf.if %[[CTA]] {
// CHECK-COUNT-3: nvgpu.mbarrier.init
// CHECK: gpu.barrier
// The CTA-wide load: slot 0, block barrier.
// CHECK: nvvm.fence.proxy
// CHECK-NEXT: gpu.barrier
// CHECK-NEXT: %[[S0:.*]] = arith.constant 0 : index
// CHECK-NEXT: scf.if %[[CTA]] {
// CHECK: tile.copy_async {{.*}} barrier(%[[BARS]][%[[S0]]])
// The warpgroup-wide load: slots 1 + warpgroup, named barrier.
// CHECK: nvvm.fence.proxy
// CHECK-NEXT: %[[C128B:.*]] = arith.constant 128 : index
// CHECK-NEXT: %[[G:.*]] = arith.divui %[[TID]], %[[C128B]] : index
// CHECK-NEXT: %[[ONE:.*]] = arith.constant 1 : index
// CHECK-NEXT: %[[ID:.*]] = arith.addi %[[G]], %[[ONE]] : index
// CHECK-NEXT: %[[ID32:.*]] = arith.index_cast %[[ID]] : index to i32
// CHECK-NEXT: %[[N:.*]] = arith.constant 128 : i32
// CHECK-NEXT: nvvm.barrier id = %[[ID32]] number_of_threads = %[[N]]
// CHECK-NEXT: %[[FIRST:.*]] = arith.constant 1 : index
// CHECK-NEXT: %[[SLOT:.*]] = arith.addi %[[FIRST]], %[[WG]] : index
// CHECK-NEXT: scf.if %[[WGISSUER]] {
// CHECK-NEXT: %[[BYTES:.*]] = arith.constant 4096 : index
// CHECK-NEXT: nvgpu.mbarrier.arrive.expect_tx %[[BARS]][%[[SLOT]]], %[[BYTES]]
// CHECK-NEXT: tile.copy_async {{.*}} barrier(%[[BARS]][%[[SLOT]]]) {{{.*}}tile.variant = "tma"}
// CHECK-NEXT: }
// CHECK-NEXT: %[[K:.*]] = arith.constant 1 : index
// CHECK-NEXT: %[[P:.*]] = memref.load %[[PHASES]][%[[K]]]
// CHECK: nvgpu.mbarrier.try_wait.parity %[[BARS]][%[[SLOT]]]
// The warpgroup-wide store: issued by each warpgroup's thread 0, completed,
// then the named barrier.
// CHECK: nvvm.fence.proxy
// CHECK: nvvm.barrier id
// CHECK-NEXT: scf.if %[[WGISSUER]] {
// CHECK-NEXT: tile.copy_async
// CHECK-NEXT: tile.bulk_commit_group
// CHECK-NEXT: tile.bulk_wait_group 0
// CHECK-NEXT: }
// CHECK: nvvm.barrier id
// CHECK-NOT: tile.copy %
!S = memref<64x64xf16, #gpu.address_space<workgroup>>
gpu.module @kernels {
  gpu.func @warpgroups(%A: memref<128x64xf16>, %B: memref<128x64xf16>)
      workgroup(%S : !S) kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
    %c128 = arith.constant 128 : index
    %c32 = arith.constant 32 : index
    %tx = gpu.thread_id x
    %g = arith.divui %tx, %c128 : index
    %row = arith.muli %g, %c32 : index
    tile.copy %S[0, 0] [64, 64], %A[0, 0] [64, 64] {scope = "cta"}
        : !S, memref<128x64xf16>
    tile.copy %S[%row, 0] [32, 64], %A[%row, 0] [32, 64] {scope = "warpgroup"}
        : !S, memref<128x64xf16>
    tile.copy %B[%row, 0] [32, 64], %S[%row, 0] [32, 64] {scope = "warpgroup"}
        : memref<128x64xf16>, !S
    gpu.return
  }
}

// -----

// A stated block size that no CTA has (the pipeline rejects it before this
// pass; the pass on its own does not trust it): the load keeps an mbarrier
// for each of the eight warpgroups a CTA can hold, as for a kernel that
// states no size.
// CHECK-LABEL: gpu.func @unusable_block_size
// CHECK: nvgpu.mbarrier.create -> <memorySpace = #gpu.address_space<workgroup>, num_barriers = 8>
// CHECK-LABEL: gpu.func @negative_block_size
// CHECK: nvgpu.mbarrier.create -> <memorySpace = #gpu.address_space<workgroup>, num_barriers = 8>
!S = memref<64x64xf16, #gpu.address_space<workgroup>>
gpu.module @kernels {
  gpu.func @unusable_block_size(%A: memref<128x64xf16>)
      workgroup(%S : !S) kernel attributes {known_block_size = array<i32: 2147483647, 2147483647, 2147483647>} {
    tile.copy %S[0, 0] [32, 64], %A[0, 0] [32, 64] {scope = "warpgroup"}
        : !S, memref<128x64xf16>
    gpu.return
  }
  gpu.func @negative_block_size(%A: memref<128x64xf16>)
      workgroup(%S : !S) kernel attributes {known_block_size = array<i32: 128, -1, 1>} {
    tile.copy %S[0, 0] [32, 64], %A[0, 0] [32, 64] {scope = "warpgroup"}
        : !S, memref<128x64xf16>
    gpu.return
  }
}

// -----

// A swizzled shared tile (a #tile.layout view of the arena, 128-byte
// swizzle): the load and the store through the TMA carry the swizzle in
// their plans, and the arena view needs no alignment attribute. A copy the
// planner itself declines (rows of 6 bytes, where a box's inner extent must
// be a multiple of 16 bytes: inner-box-bytes) stays element-wise, with the
// rule recorded.
// CHECK-LABEL: gpu.func @swizzled
// CHECK: %[[SW:.*]] = tile.arena_view [0]
// CHECK: tile.copy_async %[[SW]][0, 0] [64, 64], %{{.*}}[0, 0] [64, 64] barrier({{.*}}) {tile.plan_input = {{.*}}, tile.tma_plan = #tile.tma_plan<"f16", dim = [64, 128], strides = [128], box = [64, 64], element_strides = [1, 1], swizzle = "128B", {{.*}}bytes = 8192>, tile.variant = "tma"}
// CHECK: tile.copy_async %{{.*}}[0, 0] [64, 64], %[[SW]][0, 0] [64, 64] {tile.plan_input = {{.*}}, tile.tma_plan = #tile.tma_plan<"f16", dim = [64, 128], strides = [128], box = [64, 64], element_strides = [1, 1], swizzle = "128B", {{.*}}bytes = 8192>, tile.variant = "tma"}
// CHECK: tile.copy {{.*}}tile.declined = {{\[\[}}"collective_tma", "inner-box-bytes: {{.*}}tile.variant = "collective"
!SW = memref<64x64xf16, #tile.layout<(64, 64) : (64, 1), swizzle = 128B>, #gpu.address_space<workgroup>>
!S4 = memref<4x3xf16, #gpu.address_space<workgroup>>
gpu.module @kernels {
  gpu.func @swizzled(%A: memref<128x64xf16>, %B: memref<128x64xf16>,
                     %C: memref<4x8xf16>)
      workgroup(%S4 : !S4) kernel {
    %sw = tile.arena_view [0] : !SW
    tile.copy %sw[0, 0] [64, 64], %A[0, 0] [64, 64] {scope = "cta"}
        : !SW, memref<128x64xf16>
    tile.copy %B[0, 0] [64, 64], %sw[0, 0] [64, 64] {scope = "cta"}
        : memref<128x64xf16>, !SW
    tile.copy %S4[0, 0] [4, 3], %C[0, 0] [4, 3] {scope = "cta"}
        : !S4, memref<4x8xf16>
    gpu.return
  }
}
