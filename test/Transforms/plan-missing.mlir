// RUN: tile-opt %s -split-input-file -verify-diagnostics --tile-tensor-map-abi
// RUN: tile-opt %s -split-input-file -verify-diagnostics --convert-tile-to-nvvm

// Passes after tile-plan-copies read its record and never decide again: a
// copy without one, or with a variant that does not exist, is an error.

!bars = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 1>
!tile = memref<64x64xf16, #tile.layout<(64, 64), swizzle = 128B>, #gpu.address_space<workgroup>>

gpu.module @kernels {
  gpu.func @unplanned(%g: memref<256x64xf16>) kernel {
    %c0 = arith.constant 0 : index
    %bar = nvgpu.mbarrier.create -> !bars
    %a = tile.arena_view [0] : !tile
    // expected-error @+1 {{plan-missing: this copy carries no recorded decision; run --tile-plan-copies first (--tile-gpu-pipeline does)}}
    tile.copy_async %a[0, 0] [64, 64], %g[0, 0] [64, 64] barrier(%bar[%c0])
        : !tile, memref<256x64xf16>, !bars
    gpu.return
  }
}

// -----

!bars = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 1>
!tile = memref<64x64xf16, #tile.layout<(64, 64), swizzle = 128B>, #gpu.address_space<workgroup>>

gpu.module @kernels {
  gpu.func @unknown_variant(%g: memref<256x64xf16>) kernel {
    %c0 = arith.constant 0 : index
    %bar = nvgpu.mbarrier.create -> !bars
    %a = tile.arena_view [0] : !tile
    // expected-error @+1 {{plan-stale: the recorded variant 'bulk' is not a registered variant for tile.copy_async}}
    tile.copy_async %a[0, 0] [64, 64], %g[0, 0] [64, 64] barrier(%bar[%c0])
        {tile.variant = "bulk"} : !tile, memref<256x64xf16>, !bars
    gpu.return
  }
}

// -----

!bars = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 1>
!tile = memref<64x64xf16, #tile.layout<(64, 64), swizzle = 128B>, #gpu.address_space<workgroup>>

gpu.module @kernels {
  gpu.func @tma_without_plan(%g: memref<256x64xf16>) kernel {
    %c0 = arith.constant 0 : index
    %bar = nvgpu.mbarrier.create -> !bars
    %a = tile.arena_view [0] : !tile
    // expected-error @+1 {{plan-stale: the recorded variant 'tma' no longer applies to this copy (re-run tile-plan-copies after changing copies): the copy has no recorded 'tile.tma_plan'}}
    tile.copy_async %a[0, 0] [64, 64], %g[0, 0] [64, 64] barrier(%bar[%c0])
        {tile.variant = "tma"} : !tile, memref<256x64xf16>, !bars
    gpu.return
  }
}
