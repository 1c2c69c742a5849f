// RUN: tile-opt %s --tile-version-kernels | FileCheck %s

// A hand-written record whose fallback reason differs from the one a
// dispatch would give: the clone carries the recorded one, so
// tile-version-kernels read the record and did not decide again.

// CHECK-LABEL: gpu.func @load_fallback(
// CHECK: tile.copy_async {{.*}}{tile.declined = {{\[\["tma", "guard: recorded by hand"\]\]}}, tile.variant = "simt"}

// Without a recorded fallback (IR planned before tile-plan-copies recorded
// them, or a fallback variant that records a plan) the clone's copy is
// decided again, without the variant whose plan carries the guards.
// CHECK-LABEL: gpu.func @unrecorded_fallback(
// CHECK: tile.copy_async {{.*}}{tile.declined = {{\[\["tma", "guard: the fallback version of @unrecorded, launched when a guard of this copy's TMA plan fails at run time"\]\]}}, tile.variant = "simt"}

!bars = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
!tile = memref<64x64xf16, #tile.layout<(64, 64), swizzle = 128B>, #gpu.address_space<workgroup>>
gpu.module @kernels {
  gpu.func @load(%g: memref<?x?xf16>) kernel {
    %c0 = arith.constant 0 : index
    %bar = nvgpu.mbarrier.create -> !bars
    %s = tile.arena_view [0] : !tile
    tile.copy_async %s[0, 0] [64, 64], %g[0, 0] [64, 64] barrier(%bar[%c0])
        {tile.fallback_declined = [["tma", "guard: recorded by hand"]], tile.fallback_variant = "simt", tile.tma_plan = #tile.tma_plan<"f16", dim = [size(1), size(0)], strides = [stride(0)*2], box = [64, 64], element_strides = [1, 1], swizzle = "128B", interleave = 0, l2_promotion = 2, oob = "zero", base = 0, element_bytes = 2, promoted = false, issues = [{smem = 0, coords = [0, 0]}], bytes = 8192>, tile.variant = "tma"}
        : !tile, memref<?x?xf16>, !bars
    gpu.return
  }
  gpu.func @unrecorded(%g: memref<?x?xf16>) kernel {
    %c0 = arith.constant 0 : index
    %bar = nvgpu.mbarrier.create -> !bars
    %s = tile.arena_view [0] : !tile
    tile.copy_async %s[0, 0] [64, 64], %g[0, 0] [64, 64] barrier(%bar[%c0])
        {tile.tma_plan = #tile.tma_plan<"f16", dim = [size(1), size(0)], strides = [stride(0)*2], box = [64, 64], element_strides = [1, 1], swizzle = "128B", interleave = 0, l2_promotion = 2, oob = "zero", base = 0, element_bytes = 2, promoted = false, issues = [{smem = 0, coords = [0, 0]}], bytes = 8192>, tile.variant = "tma"}
        : !tile, memref<?x?xf16>, !bars
    gpu.return
  }
}
