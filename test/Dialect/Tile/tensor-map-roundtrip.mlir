// RUN: tile-opt %s -split-input-file | tile-opt -split-input-file | FileCheck %s

// A kernel's tensor-map records print and parse back unchanged: the mode,
// the map's argument (and its parameter index once memrefs are expanded),
// the buffer's argument, the encode's fields and the guards.

// CHECK-LABEL: gpu.func @tiled
// CHECK-SAME: tile.tensor_maps = [#tile.tensor_map<tiled, arg = 1, global_arg = 0, map = #tile.tiled_map<"f16", dim = [64, 8, 4], strides = [512, 128], box = [64, 8, 4], element_strides = [1, 1, 1], swizzle = "128B", interleave = 0, l2_promotion = 2, oob = "zero", base = 0, element_bytes = 2, promoted = false>>]
gpu.module @k {
  gpu.func @tiled(%a: memref<8x256xf16>, %m: !llvm.array<16 x i64>) kernel
      attributes {tile.tensor_maps = [#tile.tensor_map<tiled, arg = 1, global_arg = 0, map = #tile.tiled_map<"f16", dim = [64, 8, 4], strides = [512, 128], box = [64, 8, 4], element_strides = [1, 1, 1], swizzle = "128B", interleave = 0, l2_promotion = 2, oob = "zero", base = 0, element_bytes = 2, promoted = false>>]} {
    gpu.return
  }
}

// -----

// Run-time fields and every guard form: in_range and multiple_of over
// size(D), stride(D), offset and address, with coefficients and a constant.
// CHECK-LABEL: gpu.func @guarded
// CHECK-SAME: tile.tensor_maps = [#tile.tensor_map<tiled, arg = 1, global_arg = 0, map = #tile.tiled_map<"f32", dim = [size(1), size(0)/2], strides = [stride(0)*4], box = [32, 2], element_strides = [1, 1], swizzle = "none", interleave = 0, l2_promotion = 0, oob = "nan", base = 16, element_bytes = 4, promoted = false, offset_scale = 4>, guards = [#tile.guard<in_range, rule = "global-dim", constant = 0, terms = [size(1)], lo = 1, hi = 4294967296>, #tile.guard<multiple_of, rule = "global-align", constant = 16, terms = [address, offset*4], modulus = 16>, #tile.guard<multiple_of, rule = "region-split", constant = -2, terms = [size(0), stride(0)*-3], modulus = 2>]>]
gpu.module @k {
  gpu.func @guarded(%a: memref<?x?xf32, strided<[?, 1], offset: ?>>, %m: !llvm.array<16 x i64>) kernel
      attributes {tile.tensor_maps = [#tile.tensor_map<tiled, arg = 1, global_arg = 0, map = #tile.tiled_map<"f32", dim = [size(1), size(0)/2], strides = [stride(0)*4], box = [32, 2], element_strides = [1, 1], swizzle = "none", interleave = 0, l2_promotion = 0, oob = "nan", base = 16, element_bytes = 4, promoted = false, offset_scale = 4>, guards = [#tile.guard<in_range, rule = "global-dim", constant = 0, terms = [size(1)*1], lo = 1, hi = 4294967296>, #tile.guard<multiple_of, rule = "global-align", constant = 16, terms = [address, offset*4], modulus = 16>, #tile.guard<multiple_of, rule = "region-split", constant = -2, terms = [size(0), stride(0)*-3], modulus = 2>]>]} {
    gpu.return
  }
}

// -----

// An im2col map (its sizes and strides come from the buffer at run time),
// and `param` on a lowered kernel.
// CHECK-LABEL: gpu.func @im2col
// CHECK-SAME: tile.tensor_maps = [#tile.tensor_map<im2col, arg = 1, global_arg = 0, map = #tile.im2col_map<"bf16", rank = 4, lower_corner = [-1, -2], upper_corner = [1, 0], channels_per_pixel = 64, pixels_per_column = 128, element_strides = [1, 1, 2, 1], swizzle = "64B", l2_promotion = 3, oob = "zero", element_bytes = 2>>]
// CHECK-LABEL: llvm.func @lowered
// CHECK-SAME: tile.tensor_maps = [#tile.tensor_map<tiled, arg = 2, param = 9, global_arg = 0, map = #tile.tiled_map<"u8", dim = [256], strides = [], box = [256], element_strides = [1], swizzle = "none", interleave = 0, l2_promotion = 2, oob = "zero", base = 0, element_bytes = 1, promoted = false>>]
gpu.module @k {
  gpu.func @im2col(%a: memref<2x16x16x64xbf16>, %m: !llvm.array<16 x i64>) kernel
      attributes {tile.tensor_maps = [#tile.tensor_map<im2col, arg = 1, global_arg = 0, map = #tile.im2col_map<"bf16", rank = 4, lower_corner = [-1, -2], upper_corner = [1, 0], channels_per_pixel = 64, pixels_per_column = 128, element_strides = [1, 1, 2, 1], swizzle = "64B", l2_promotion = 3, oob = "zero", element_bytes = 2>>]} {
    gpu.return
  }
}
llvm.func @lowered(%p: !llvm.ptr, %m: !llvm.ptr)
    attributes {tile.tensor_maps = [#tile.tensor_map<tiled, arg = 2, param = 9, global_arg = 0, map = #tile.tiled_map<"u8", dim = [256], strides = [], box = [256], element_strides = [1], swizzle = "none", interleave = 0, l2_promotion = 2, oob = "zero", base = 0, element_bytes = 1, promoted = false>>]} {
  llvm.return
}

// -----

// The plan tile-plan-copies records on an im2col load: the map with the
// buffer's static sizes and byte strides (0 where the type leaves a size to
// run time), and the bytes one instruction delivers.
// CHECK: module attributes {test.plan = #tile.im2col_plan<map = #tile.im2col_map<"f16", dim = [32, 16, 16, 0], strides = [64, 1024, 16384], rank = 4, lower_corner = [-1, -1], upper_corner = [-1, -1], channels_per_pixel = 32, pixels_per_column = 64, element_strides = [1, 1, 1, 1], swizzle = "64B", l2_promotion = 2, oob = "zero", element_bytes = 2>, bytes = 4096>}
module attributes {test.plan = #tile.im2col_plan<map = #tile.im2col_map<"f16", dim = [32, 16, 16, 0], strides = [64, 1024, 16384], rank = 4, lower_corner = [-1, -1], upper_corner = [-1, -1], channels_per_pixel = 32, pixels_per_column = 64, element_strides = [1, 1, 1, 1], swizzle = "64B", l2_promotion = 2, oob = "zero", element_bytes = 2>, bytes = 4096>} {
}
