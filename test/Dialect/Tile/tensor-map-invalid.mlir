// RUN: tile-opt %s -split-input-file -verify-diagnostics

// A tensor-map record that a host could not encode is an error where it is
// written: each record checks its own fields, the kernel checks the record
// against its arguments.

#m = #tile.tiled_map<"f16", dim = [64, 8], strides = [128], box = [64, 8], element_strides = [1, 1], swizzle = "none", interleave = 0, l2_promotion = 2, oob = "zero", base = 0, element_bytes = 2, promoted = false>
gpu.module @k {
  // expected-error @+1 {{'gpu.func' op tensor-map: 'tile.tensor_maps' must be a list of #tile.tensor_map on a kernel}}
  gpu.func @dictionary(%a: memref<8x64xf16>, %m: !llvm.array<16 x i64>) kernel
      attributes {tile.tensor_maps = [{arg = 1 : i64, global_arg = 0 : i64}]} {
    gpu.return
  }
}

// -----

#m = #tile.tiled_map<"f16", dim = [64, 8], strides = [128], box = [64, 8], element_strides = [1, 1], swizzle = "none", interleave = 0, l2_promotion = 2, oob = "zero", base = 0, element_bytes = 2, promoted = false>
gpu.module @k {
  // expected-error @+1 {{'gpu.func' op tensor-map: map #0 of 'tile.tensor_maps' cannot be encoded by a host: its 'arg' is 0; the maps are the kernel's last arguments, so it is 1}}
  gpu.func @wrong_arg(%a: memref<8x64xf16>, %m: !llvm.array<16 x i64>) kernel
      attributes {tile.tensor_maps = [#tile.tensor_map<tiled, arg = 0, global_arg = 0, map = #m>]} {
    gpu.return
  }
}

// -----

#m = #tile.tiled_map<"f16", dim = [64, 8], strides = [128], box = [64, 8], element_strides = [1, 1], swizzle = "none", interleave = 0, l2_promotion = 2, oob = "zero", base = 0, element_bytes = 2, promoted = false>
gpu.module @k {
  // expected-error @+1 {{'gpu.func' op tensor-map: map #0 of 'tile.tensor_maps' cannot be encoded by a host: 'global_arg' 1 is not a memref}}
  gpu.func @not_a_memref(%a: memref<8x64xf16>, %i: i32, %m: !llvm.array<16 x i64>) kernel
      attributes {tile.tensor_maps = [#tile.tensor_map<tiled, arg = 2, global_arg = 1, map = #m>]} {
    gpu.return
  }
}

// -----

#m = #tile.tiled_map<"f16", dim = [64, 8], strides = [128], box = [64, 8], element_strides = [1, 1], swizzle = "none", interleave = 0, l2_promotion = 2, oob = "zero", base = 0, element_bytes = 2, promoted = false>
gpu.module @k {
  // expected-error @+1 {{'gpu.func' op tensor-map: map #0 of 'tile.tensor_maps' cannot be encoded by a host: 'global_arg' 1 is not a user argument of the kernel}}
  gpu.func @map_as_buffer(%a: memref<8x64xf16>, %m: !llvm.array<16 x i64>) kernel
      attributes {tile.tensor_maps = [#tile.tensor_map<tiled, arg = 1, global_arg = 1, map = #m>]} {
    gpu.return
  }
}

// -----

#m = #tile.tiled_map<"f16", dim = [64, size(2)], strides = [128], box = [64, 8], element_strides = [1, 1], swizzle = "none", interleave = 0, l2_promotion = 2, oob = "zero", base = 0, element_bytes = 2, promoted = false>
gpu.module @k {
  // expected-error @+1 {{'gpu.func' op tensor-map: map #0 of 'tile.tensor_maps' cannot be encoded by a host: it reads dimension 2 of a buffer of rank 2}}
  gpu.func @field_past_rank(%a: memref<?x64xf16>, %m: !llvm.array<16 x i64>) kernel
      attributes {tile.tensor_maps = [#tile.tensor_map<tiled, arg = 1, global_arg = 0, map = #m>]} {
    gpu.return
  }
}

// -----

#m = #tile.tiled_map<"f16", dim = [64, 8], strides = [128], box = [64, 8], element_strides = [1, 1], swizzle = "none", interleave = 0, l2_promotion = 2, oob = "zero", base = 0, element_bytes = 2, promoted = false>
gpu.module @k {
  // expected-error @+1 {{'gpu.func' op tensor-map: map #0 of 'tile.tensor_maps' cannot be encoded by a host: it reads dimension 3 of a buffer of rank 2}}
  gpu.func @guard_past_rank(%a: memref<8x64xf16>, %m: !llvm.array<16 x i64>) kernel
      attributes {tile.tensor_maps = [#tile.tensor_map<tiled, arg = 1, global_arg = 0, map = #m, guards = [#tile.guard<multiple_of, rule = "global-stride", constant = 0, terms = [stride(3)], modulus = 16>]>]} {
    gpu.return
  }
}

// -----

#i = #tile.im2col_map<"f16", rank = 4, lower_corner = [-1, -1], upper_corner = [-1, -1], channels_per_pixel = 32, pixels_per_column = 64, element_strides = [1, 1, 1, 1], swizzle = "64B", l2_promotion = 2, oob = "zero", element_bytes = 2>
gpu.module @k {
  // expected-error @+1 {{'gpu.func' op tensor-map: map #0 of 'tile.tensor_maps' cannot be encoded by a host: 'global_arg' 0 is not a memref of rank 4}}
  gpu.func @im2col_rank(%a: memref<8x8x64xf16>, %m: !llvm.array<16 x i64>) kernel
      attributes {tile.tensor_maps = [#tile.tensor_map<im2col, arg = 1, global_arg = 0, map = #i>]} {
    gpu.return
  }
}

// -----

#i = #tile.im2col_map<"f16", rank = 4, lower_corner = [-1, -1], upper_corner = [-1, -1], channels_per_pixel = 32, pixels_per_column = 64, element_strides = [1, 1, 1, 1], swizzle = "64B", l2_promotion = 2, oob = "zero", element_bytes = 2>
// expected-error @+1 {{tensor-map: a tiled record's map is a #tile.tiled_map}}
module attributes {test.map = #tile.tensor_map<tiled, arg = 1, global_arg = 0, map = #i>} {}

// -----

#m = #tile.tiled_map<"f16", dim = [64, 8], strides = [128], box = [64, 8], element_strides = [1, 1], swizzle = "none", interleave = 0, l2_promotion = 2, oob = "zero", base = 0, element_bytes = 2, promoted = false>
// expected-error @+1 {{tensor-map: an im2col record's map is a #tile.im2col_map}}
module attributes {test.map = #tile.tensor_map<im2col, arg = 1, global_arg = 0, map = #m>} {}

// -----

#i = #tile.im2col_map<"f16", rank = 4, lower_corner = [-1, -1], upper_corner = [-1, -1], channels_per_pixel = 32, pixels_per_column = 64, element_strides = [1, 1, 1, 1], swizzle = "64B", l2_promotion = 2, oob = "zero", element_bytes = 2>
// expected-error @+1 {{tensor-map: an im2col map has no guards (the runtime's encode checks its buffer)}}
module attributes {test.map = #tile.tensor_map<im2col, arg = 1, global_arg = 0, map = #i, guards = [#tile.guard<multiple_of, rule = "global-align", constant = 0, terms = [address], modulus = 16>]>} {}

// -----

#m = #tile.tiled_map<"f16", dim = [64, 8], strides = [128], box = [64, 8], element_strides = [1, 1], swizzle = "none", interleave = 0, l2_promotion = 2, oob = "zero", base = 0, element_bytes = 2, promoted = false>
// expected-error @+1 {{tensor-map: arg, param and global_arg are argument indices (>= 0)}}
module attributes {test.map = #tile.tensor_map<tiled, arg = -1, global_arg = 0, map = #m>} {}

// -----

#m = #tile.tiled_map<"f16", dim = [64, 8], strides = [128, 4], box = [64, 8], element_strides = [1, 1], swizzle = "none", interleave = 0, l2_promotion = 2, oob = "zero", base = 0, element_bytes = 2, promoted = false>
// expected-error @+1 {{tensor-map: a tiled map of rank 1 to 5 lists rank dims, boxes and element strides and rank - 1 strides (it lists 2 dims, 2 strides, 2 boxes, 2 element strides)}}
module attributes {test.map = #tile.tensor_map<tiled, arg = 1, global_arg = 0, map = #m>} {}

// -----

#m = #tile.tiled_map<"f16", dim = [64, 8], strides = [128], box = [64, 8], element_strides = [1, 1], swizzle = "none", interleave = 0, l2_promotion = 2, oob = "zero", base = s0, element_bytes = 2, promoted = false>
// expected-error @+1 {{tensor-map: a tiled map's base offset is a compile-time constant, not s0}}
module attributes {test.map = #tile.tensor_map<tiled, arg = 1, global_arg = 0, map = #m>} {}

// -----

#i = #tile.im2col_map<"f16", rank = 4, lower_corner = [-1], upper_corner = [-1, -1], channels_per_pixel = 32, pixels_per_column = 64, element_strides = [1, 1, 1, 1], swizzle = "64B", l2_promotion = 2, oob = "zero", element_bytes = 2>
// expected-error @+1 {{tensor-map: an im2col map of rank 3 to 5 lists rank - 2 values per corner and rank element strides (rank 4: 1, 2 and 4)}}
module attributes {test.map = #tile.tensor_map<im2col, arg = 1, global_arg = 0, map = #i>} {}

// -----

// expected-error @+1 {{im2col-rank: an im2col map has rank 3 to 5, 1 to 256 channels and 1 to 1024 pixels (it has rank 2, 32 channels, 64 pixels)}}
module attributes {test.map = #tile.im2col_map<"f16", rank = 2, lower_corner = [], upper_corner = [], channels_per_pixel = 32, pixels_per_column = 64, element_strides = [1, 1], swizzle = "64B", l2_promotion = 2, oob = "zero", element_bytes = 2>} {}

// -----

// expected-error @+1 {{'global-alignment' is not a rule id (docs/rules.md)}}
module attributes {test.guard = #tile.guard<multiple_of, rule = "global-alignment", constant = 0, terms = [address], modulus = 16>} {}

// -----

// expected-error @+1 {{a multiple_of guard's modulus is positive, not 0}}
module attributes {test.guard = #tile.guard<multiple_of, rule = "global-align", constant = 0, terms = [address], modulus = 0>} {}

// -----

// expected-error @+1 {{an in_range guard needs lo <= hi (5 > 4)}}
module attributes {test.guard = #tile.guard<in_range, rule = "global-dim", constant = 0, terms = [size(0)], lo = 5, hi = 4>} {}

// -----

// expected-error @+1 {{a guard is multiple_of or in_range, not 'equal'}}
module attributes {test.guard = #tile.guard<equal, rule = "global-dim", constant = 0, terms = [size(0)], modulus = 2>} {}

// -----

// expected-error @+1 {{a guard term is size(D), stride(D), offset or address, not 'pitch'}}
module attributes {test.guard = #tile.guard<multiple_of, rule = "global-dim", constant = 0, terms = [pitch], modulus = 2>} {}

// -----

// expected-error @+1 {{tensor-map: an im2col map's `dim` lists rank 4 sizes and `strides` rank - 1 byte strides (it lists 4 and 2)}}
module attributes {test.map = #tile.im2col_map<"f16", dim = [32, 16, 16, 2], strides = [64, 1024], rank = 4, lower_corner = [-1, -1], upper_corner = [-1, -1], channels_per_pixel = 32, pixels_per_column = 64, element_strides = [1, 1, 1, 1], swizzle = "64B", l2_promotion = 2, oob = "zero", element_bytes = 2>} {}
