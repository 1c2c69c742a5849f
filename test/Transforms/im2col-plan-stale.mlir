// RUN: tile-opt %s -split-input-file -verify-diagnostics --tile-check-recorded-plans

// tile-check-recorded-plans plans each im2col load again and compares: a
// record that no longer matches the load (here: written for padding 1 on
// the last row, the load pads 2) is an error naming the plan it makes now.
// A record on another op is an error of the verifier.

!bars = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
!tile = memref<64x64xf16, #tile.layout<(64, 64), swizzle = 128B>, #gpu.address_space<workgroup>>
gpu.module @kernels {
  gpu.func @stale(%x: memref<2x8x8x64xf16>, %n: index, %h: index, %w: index) kernel {
    %c0 = arith.constant 0 : index
    %bar = nvgpu.mbarrier.create -> !bars
    %s = tile.arena_view [0] : !tile
    // expected-error @+1 {{'tile.copy_im2col' op plan-stale: the recorded im2col plan no longer describes this load (re-run tile-plan-copies after changing it); now: #tile.im2col_plan<map = #tile.im2col_map<"f16", dim = [64, 8, 8, 2], strides = [128, 1024, 8192], rank = 4, lower_corner = [-2, -1], upper_corner = [-1, -1], channels_per_pixel = 64, pixels_per_column = 64, element_strides = [1, 1, 1, 1], swizzle = "128B", l2_promotion = 2, oob = "zero", element_bytes = 2>, bytes = 8192>}}
    tile.copy_im2col %s, %x[%n, %h, %w, %c0] offsets [%c0, %c0] barrier(%bar[%c0])
        {lower = array<i64: -1, -2>, upper = array<i64: -1, -1>,
         tile.im2col_plan = #tile.im2col_plan<map = #tile.im2col_map<"f16", dim = [64, 8, 8, 2], strides = [128, 1024, 8192], rank = 4, lower_corner = [-1, -1], upper_corner = [-1, -1], channels_per_pixel = 64, pixels_per_column = 64, element_strides = [1, 1, 1, 1], swizzle = "128B", l2_promotion = 2, oob = "zero", element_bytes = 2>, bytes = 8192>}
        : !tile, memref<2x8x8x64xf16>, !bars
    gpu.return
  }
}

// -----

gpu.module @kernels {
  // expected-error @+1 {{'gpu.func' op plan-stale: 'tile.im2col_plan' must be a #tile.im2col_plan on a tile.copy_im2col}}
  gpu.func @misplaced() kernel attributes {tile.im2col_plan = #tile.im2col_plan<map = #tile.im2col_map<"f16", rank = 4, lower_corner = [-1, -1], upper_corner = [-1, -1], channels_per_pixel = 64, pixels_per_column = 64, element_strides = [1, 1, 1, 1], swizzle = "128B", l2_promotion = 2, oob = "zero", element_bytes = 2>, bytes = 8192>} {
    gpu.return
  }
}
