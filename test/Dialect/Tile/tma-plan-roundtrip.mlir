// RUN: tile-opt %s | tile-opt | FileCheck %s

// #tile.tma_plan prints and parses back unchanged; offsets and coordinates
// are affine in the copy's symbols (N, sK and N*sK joined by + and -).

// CHECK: module attributes {test.plan = #tile.tma_plan<"u8", dim = [64, 4], strides = [64], box = [64, 1], element_strides = [1, 1], swizzle = "none", interleave = 0, l2_promotion = 2, oob = "nan", base = 16, element_bytes = 1, promoted = true, issues = [{smem = -8 + 64*s0 + s1, coords = [-s1, -3 + 2*s0]}, {smem = 0, coords = [0, 3]}], bytes = 64>}
module attributes {test.plan = #tile.tma_plan<"u8", dim = [64, 4], strides = [64], box = [64, 1], element_strides = [1, 1], swizzle = "none", interleave = 0, l2_promotion = 2, oob = "nan", base = 16, element_bytes = 1, promoted = true, issues = [{smem = 64*s0 - 8 + s1, coords = [-s1, 2*s0 - 3]}, {smem = 0, coords = [0, 3]}], bytes = 64>} {
}
