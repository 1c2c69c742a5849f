// RUN: tile-opt %s --tile-plan-copies | FileCheck %s --check-prefix=PLAN
// RUN: tile-opt %s --tile-plan-copies --tile-version-kernels | FileCheck %s --check-prefix=VERSION

// tile-plan-copies decides a guarded copy's fallback once, beside its own
// decision; tile-version-kernels gives the fallback clone that decision and
// does not dispatch again.

// PLAN: tile.copy_async {{.*}}{tile.fallback_declined = {{\[\["tma", "guard: the fallback version of @load, launched when a guard of this copy's TMA plan fails at run time"\]\]}}, tile.fallback_variant = "simt", tile.plan_input = {{.*}}, tile.tma_plan = #tile.tma_plan<"f16", dim = [size(1), size(0)]{{.*}}, tile.variant = "tma"}

// VERSION-LABEL: gpu.func @load(
// VERSION-SAME: tile.fallback = @load_fallback
// VERSION: tile.copy_async {{.*}}tile.variant = "tma"
// VERSION-LABEL: gpu.func @load_fallback(
// VERSION: tile.copy_async {{.*}}{tile.declined = {{\[\["tma", "guard: the fallback version of @load, launched when a guard of this copy's TMA plan fails at run time"\]\]}}, tile.variant = "simt"}
// VERSION-NOT: tile.fallback_variant

!bars = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
!tile = memref<64x64xf16, #tile.layout<(64, 64), swizzle = 128B>, #gpu.address_space<workgroup>>
gpu.module @kernels {
  gpu.func @load(%g: memref<?x?xf16>) kernel {
    %c0 = arith.constant 0 : index
    %bar = nvgpu.mbarrier.create -> !bars
    %s = tile.arena_view [0] : !tile
    tile.copy_async %s[0, 0] [64, 64], %g[0, 0] [64, 64] barrier(%bar[%c0])
        : !tile, memref<?x?xf16>, !bars
    gpu.return
  }
}

