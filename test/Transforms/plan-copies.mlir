// RUN: tile-opt %s --tile-plan-copies | FileCheck %s
// The record prints and parses back unchanged.
// RUN: tile-opt %s --tile-plan-copies | tile-opt | FileCheck %s

// tile-plan-copies decides each copy once and records the decision on the op:
// the variant, the variants declined before it, and for TMA the whole plan,
// with the dynamic row offset as symbol s0.

!bars = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 2>
!tile = memref<64x64xf16, #tile.layout<(64, 64), swizzle = 128B>, #gpu.address_space<workgroup>>
!tposed = memref<64x64xf16, #tile.layout<(64, 64) : (1, 64)>, #gpu.address_space<workgroup>>

gpu.module @kernels {
  // CHECK-LABEL: gpu.func @copies
  gpu.func @copies(%g: memref<256x64xf16>, %k: index) kernel {
    %c0 = arith.constant 0 : index
    %bar = nvgpu.mbarrier.create -> !bars
    %a = tile.arena_view [0] : !tile
    %t = tile.arena_view [8192] : !tposed
    %c64 = arith.constant 64 : index
    %row = arith.muli %k, %c64 : index
    // CHECK: tile.copy_async
    // CHECK-SAME: {tile.plan_input = {{-?[0-9]+}} : i64, tile.tma_plan = #tile.tma_plan<"f16", dim = [64, 256], strides = [128], box = [64, 64], element_strides = [1, 1], swizzle = "128B", interleave = 0, l2_promotion = 2, oob = "zero", base = 0, element_bytes = 2, promoted = false, issues = [{smem = 0, coords = [0, s0]}], bytes = 8192>, tile.variant = "tma"}
    tile.copy_async %a[0, 0] [64, 64], %g[%row, 0] [64, 64] barrier(%bar[%c0])
        : !tile, memref<256x64xf16>, !bars
    // A transposed tile: TMA declines with its reason, simt takes it.
    // CHECK: tile.copy_async
    // CHECK-SAME: {tile.declined = {{\[}}["tma", "elementwise: the shared stride-1 run of 64 elements has global stride 64; the TMA reads the innermost dimension contiguously"]], tile.variant = "simt"}
    tile.copy_async %t[0, 0] [64, 64], %g[64, 0] [64, 64] barrier(%bar[%c0])
        : !tposed, memref<256x64xf16>, !bars
    // A requested variant is the only one tried.
    // CHECK: tile.copy_async
    // CHECK-SAME: {dispatch = "simt", tile.variant = "simt"}
    tile.copy_async %a[0, 0] [64, 64], %g[0, 0] [64, 64] barrier(%bar[%c0])
        {dispatch = "simt"} : !tile, memref<256x64xf16>, !bars
    // Planning again replaces the record (the op keeps one decision).
    // CHECK: tile.copy_async
    // CHECK-SAME: {tile.plan_input = {{-?[0-9]+}} : i64, tile.tma_plan = #tile.tma_plan<"f16", dim = [64, 256], strides = [128], box = [64, 64], element_strides = [1, 1], swizzle = "128B", interleave = 0, l2_promotion = 2, oob = "zero", base = 0, element_bytes = 2, promoted = false, issues = [{smem = 0, coords = [0, 128]}], bytes = 8192>, tile.variant = "tma"}
    tile.copy_async %a[0, 0] [64, 64], %g[128, 0] [64, 64] barrier(%bar[%c0])
        {tile.declined = [["simt", "stale"]], tile.variant = "simt"}
        : !tile, memref<256x64xf16>, !bars
    gpu.return
  }

  // One offset value used twice is one symbol; a strided view's offset moves
  // the map's base; a reshaping copy plans the global region with its own
  // sizes.
  // CHECK-LABEL: gpu.func @symbols_views_reshapes
  gpu.func @symbols_views_reshapes(%sq: memref<256x256xf16>, %view: memref<128x64xf16, strided<[64, 1], offset: 64>>, %cube: memref<4x64x64xf16>, %k: index) kernel {
    %c0 = arith.constant 0 : index
    %bar = nvgpu.mbarrier.create -> !bars
    %a = tile.arena_view [0] : !tile
    %c64 = arith.constant 64 : index
    %d = arith.muli %k, %c64 : index
    // CHECK: tile.copy_async
    // CHECK-SAME: issues = [{smem = 0, coords = [s0, s0]}]
    tile.copy_async %a[0, 0] [64, 64], %sq[%d, %d] [64, 64] barrier(%bar[%c0])
        : !tile, memref<256x256xf16>, !bars
    // CHECK: tile.copy_async
    // CHECK-SAME: #tile.tma_plan<"f16", dim = [64, 128], strides = [128], box = [64, 64], element_strides = [1, 1], swizzle = "128B", interleave = 0, l2_promotion = 2, oob = "zero", base = 128, element_bytes = 2, promoted = false, issues = [{smem = 0, coords = [0, 0]}], bytes = 8192>
    tile.copy_async %a[0, 0] [64, 64], %view[0, 0] [64, 64] barrier(%bar[%c0])
        : !tile, memref<128x64xf16, strided<[64, 1], offset: 64>>, !bars
    // CHECK: tile.copy_async
    // CHECK-SAME: #tile.tma_plan<"f16", dim = [64, 256], strides = [128], box = [64, 64], element_strides = [1, 1], swizzle = "128B", interleave = 0, l2_promotion = 2, oob = "zero", base = 0, element_bytes = 2, promoted = false, issues = [{smem = 0, coords = [0, 128]}], bytes = 8192>
    tile.copy_async %a[0, 0] [64, 64], %cube[2, 0, 0] [1, 64, 64] barrier(%bar[%c0])
        : !tile, memref<4x64x64xf16>, !bars
    gpu.return
  }
}
