// RUN: tile-opt %s | FileCheck %s
// RUN: tile-opt %s | tile-opt | FileCheck %s
// RUN: tile-opt %s --mlir-print-op-generic | tile-opt | FileCheck %s

// Row-major layouts print in the short form, explicit strides only when they
// differ from row-major, and the swizzle last.

// CHECK-LABEL: func.func @row_major
// CHECK-SAME: memref<8x256xf16, #tile.layout<(8, 256)>>
func.func @row_major(%a: memref<8x256xf16, #tile.layout<(8, 256)>>) { return }

// CHECK-LABEL: func.func @row_major_explicit
// CHECK-SAME: memref<8x256xf16, #tile.layout<(8, 256)>>
func.func @row_major_explicit(%a: memref<8x256xf16, #tile.layout<(8, 256) : (256, 1)>>) { return }

// CHECK-LABEL: func.func @reference_swizzle
// CHECK-SAME: memref<8x256xf16, #tile.layout<(8, 4, 64) : (64, 512, 1), swizzle = 128B>, #gpu.address_space<workgroup>>
func.func @reference_swizzle(%a: memref<8x256xf16, #tile.layout<(8, 4, 64) : (64, 512, 1), swizzle = 128B>, #gpu.address_space<workgroup>>) { return }

// CHECK-LABEL: func.func @swizzles
// CHECK-SAME: #tile.layout<(16, 16), swizzle = 32B>
// CHECK-SAME: #tile.layout<(16, 32), swizzle = 64B>
// CHECK-SAME: #tile.layout<(64, 64) : (1, 64), swizzle = 128B>
func.func @swizzles(%a: memref<16x16xf16, #tile.layout<(16, 16), swizzle = 32B>, 3>,
                    %b: memref<16x32xf16, #tile.layout<(16, 32), swizzle = 64B>, 3>,
                    %c: memref<64x64xi8, #tile.layout<(64, 64) : (1, 64), swizzle = 128B>, 3>) { return }

// Extent-1 shards may stand anywhere; a size-1 dimension may have an empty
// group; a stage dimension in front.
// CHECK-LABEL: func.func @grouping
// CHECK-SAME: #tile.layout<(1, 128, 1, 64) : (0, 64, 0, 1)>
// CHECK-SAME: #tile.layout<(3, 128, 64), swizzle = 128B>
// CHECK-SAME: memref<1x32xf32, #tile.layout<(32)>>
func.func @grouping(%a: memref<128x64xbf16, #tile.layout<(1, 128, 1, 64) : (0, 64, 0, 1)>, 3>,
                    %b: memref<3x128x64xf16, #tile.layout<(3, 128, 64) : (8192, 64, 1), swizzle = 128B>, 3>,
                    %c: memref<1x32xf32, #tile.layout<(32)>>) { return }
