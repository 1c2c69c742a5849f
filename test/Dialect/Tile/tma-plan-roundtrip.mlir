// RUN: tile-opt %s -split-input-file | tile-opt -split-input-file | FileCheck %s

// #tile.tma_plan prints and parses back unchanged; offsets and coordinates
// are affine in the copy's symbols (N, sK and N*sK joined by + and -).

// CHECK: module attributes {test.plan = #tile.tma_plan<"u8", dim = [64, 4], strides = [64], box = [64, 1], element_strides = [1, 1], swizzle = "none", interleave = 0, l2_promotion = 2, oob = "nan", base = 16, element_bytes = 1, promoted = true, issues = [{smem = -8 + 64*s0 + s1, coords = [-s1, -3 + 2*s0]}, {smem = 0, coords = [0, 3]}], bytes = 64>}
module attributes {test.plan = #tile.tma_plan<"u8", dim = [64, 4], strides = [64], box = [64, 1], element_strides = [1, 1], swizzle = "none", interleave = 0, l2_promotion = 2, oob = "nan", base = 16, element_bytes = 1, promoted = true, issues = [{smem = 64*s0 - 8 + s1, coords = [-s1, 2*s0 - 3]}, {smem = 0, coords = [0, 3]}], bytes = 64>} {
}

// -----

// Run-time fields of a buffer with '?' in its type: size(D) and stride(D) of
// memref dimension D, scaled and divided; a run-time offset's bytes per
// element.
// CHECK: module attributes {test.plan = #tile.tma_plan<"f16", dim = [256, size(1)/256, size(0)], strides = [512, stride(0)*2], box = [256, 2, 2], element_strides = [1, 1, 1], swizzle = "none", interleave = 0, l2_promotion = 2, oob = "zero", base = 0, element_bytes = 2, promoted = false, offset_scale = 2, issues = [{smem = 0, coords = [0, 0, s0]}], bytes = 2048>}
module attributes {test.plan = #tile.tma_plan<"f16", dim = [256, size(1)/256, size(0)], strides = [512, stride(0)*2], box = [256, 2, 2], element_strides = [1, 1, 1], swizzle = "none", interleave = 0, l2_promotion = 2, oob = "zero", base = 0, element_bytes = 2, promoted = false, offset_scale = 2, issues = [{smem = 0, coords = [0, 0, s0]}], bytes = 2048>} {
}
