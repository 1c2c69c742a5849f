// RUN: tile-opt %s -split-input-file -verify-diagnostics

// expected-error @+1 {{does not fit the buffer shape}}
func.func @ungroupable(%a: memref<8x100xf16, #tile.layout<(8, 4, 64) : (64, 512, 1)>>) { return }

// -----

// expected-error @+1 {{invalid layout: shard 1 has extent 0}}
func.func @zero_extent(%a: memref<8x256xf16, #tile.layout<(8, 0) : (256, 1)>>) { return }

// -----

// expected-error @+1 {{invalid layout: shard 0 has extent -4}}
func.func @negative_extent(%a: memref<8x256xf16, #tile.layout<(-4, 2) : (256, 1)>>) { return }

// -----

// expected-error @+1 {{invalid layout: shard 0 has stride 0 but extent 8}}
func.func @zero_stride(%a: memref<8x256xf16, #tile.layout<(8, 256) : (0, 1)>>) { return }

// -----

// expected-error @+1 {{invalid layout: shard 1 has negative stride -1}}
func.func @negative_stride(%a: memref<8x256xf16, #tile.layout<(8, 256) : (256, -1)>>) { return }

// -----

// expected-error @+1 {{unknown swizzle '16B': expected 32B, 64B or 128B}}
func.func @unknown_swizzle(%a: memref<8x256xf16, #tile.layout<(8, 256), swizzle = 16B>>) { return }

// -----

// expected-error @+1 {{layout has 2 extents but 3 strides}}
func.func @stride_count(%a: memref<8x256xf16, #tile.layout<(8, 256) : (256, 1, 1)>>) { return }

// -----

// expected-error @+1 {{#tile.layout requires a static shape}}
func.func @dynamic(%a: memref<?x256xf16, #tile.layout<(8, 256)>>) { return }
