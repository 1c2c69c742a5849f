// RUN: tile-opt %s -split-input-file -verify-diagnostics --tile-tensor-map-abi

// The tensor-map ABI reads the plan tile-plan-copies recorded on an im2col
// load and never plans it again: a load without one is an error.

!bars = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
!tile = memref<64x64xf16, #tile.layout<(64, 64), swizzle = 128B>, #gpu.address_space<workgroup>>
gpu.module @kernels {
  gpu.func @unplanned(%x: memref<2x8x8x64xf16>, %n: index, %h: index, %w: index) kernel {
    %c0 = arith.constant 0 : index
    %bar = nvgpu.mbarrier.create -> !bars
    %s = tile.arena_view [0] : !tile
    // expected-error @+1 {{'tile.copy_im2col' op plan-missing: this im2col load carries no recorded plan; run --tile-plan-copies first (--tile-gpu-pipeline does)}}
    tile.copy_im2col %s, %x[%n, %h, %w, %c0] offsets [%c0, %c0] barrier(%bar[%c0])
        {lower = array<i64: -1, -1>, upper = array<i64: -1, -1>} : !tile, memref<2x8x8x64xf16>, !bars
    gpu.return
  }
}
