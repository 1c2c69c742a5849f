// RUN: tile-opt %s -split-input-file --tile-plan-copies -verify-diagnostics

!a = memref<128x64xbf16, #tile.layout<(128, 64) : (64, 1), swizzle = 128B>, #gpu.address_space<workgroup>>

func.func @global_operand(%g: memref<128x64xbf16>, %c0: index) -> i64 {
  // expected-error @+1 {{direction: the wgmma operand 'memref<128x64xbf16>' must be a shared buffer (#gpu.address_space<workgroup>)}}
  %d = tile.wgmma_descriptor %g[%c0, %c0] {rows = 64, k = 16} : memref<128x64xbf16> -> i64
  return %d : i64
}

// -----

!a = memref<128x64xbf16, #tile.layout<(128, 64) : (64, 1), swizzle = 128B>, #gpu.address_space<workgroup>>
func.func @k_step(%buf: !a) -> i64 {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{wgmma-shape: k = 8 elements x 2 B = 16 B; one wgmma k-step is 32 B}}
  %d = tile.wgmma_descriptor %buf[%c0, %c0] {rows = 64, k = 8} : !a -> i64
  return %d : i64
}

// -----

// Any attribute value is checked before it is multiplied.
!a = memref<128x64xbf16, #tile.layout<(128, 64) : (64, 1), swizzle = 128B>, #gpu.address_space<workgroup>>
func.func @huge_k(%buf: !a) -> i64 {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{wgmma-shape: k = 9223372036854775800 elements; one wgmma k-step is 32 B, at most 32 elements}}
  %d = tile.wgmma_descriptor %buf[%c0, %c0] {rows = 64, k = 9223372036854775800} : !a -> i64
  return %d : i64
}

// -----

!a = memref<128x64xbf16, #tile.layout<(128, 64) : (64, 1), swizzle = 128B>, #gpu.address_space<workgroup>>
func.func @rows(%buf: !a) -> i64 {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{wgmma-shape: rows = 60; an operand has 8..256 rows in multiples of 8}}
  %d = tile.wgmma_descriptor %buf[%c0, %c0] {rows = 60, k = 16} : !a -> i64
  return %d : i64
}

// -----

!f64 = memref<64x4xf64, #tile.layout<(64, 4) : (4, 1), swizzle = 32B>, #gpu.address_space<workgroup>>
func.func @element_type(%buf: !f64) -> i64 {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{wgmma-shape: element type 'f64' is not a wgmma operand type; expected f16, bf16, f32 (tf32), i8, f8E4M3FN or f8E5M2}}
  %d = tile.wgmma_descriptor %buf[%c0, %c0] {rows = 64, k = 4} : !f64 -> i64
  return %d : i64
}

// -----

!a = memref<128x64xbf16, #tile.layout<(128, 64) : (64, 1), swizzle = 128B>, #gpu.address_space<workgroup>>
func.func @outside(%buf: !a) -> i64 {
  %c0 = arith.constant 0 : index
  %c96 = arith.constant 96 : index
  // expected-error @+1 {{smem-bounds: wgmma block [96, +64) leaves dimension 0 of size 128}}
  %d = tile.wgmma_descriptor %buf[%c96, %c0] {rows = 64, k = 16} : !a -> i64
  return %d : i64
}

// -----

!plain = memref<128x64xbf16, #tile.layout<(128, 64) : (64, 1)>, #gpu.address_space<workgroup>>
func.func @no_swizzle(%buf: !plain) -> i64 {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{wgmma-layout: layout (128, 64) has no swizzle; the descriptor supports the swizzled 32B, 64B and 128B modes only}}
  %d = tile.wgmma_descriptor %buf[%c0, %c0] {rows = 64, k = 16} : !plain -> i64
  return %d : i64
}

// -----

// M-major (transposed): K elements are 128 apart.
!t = memref<128x64xbf16, #tile.layout<(128, 64) : (1, 128), swizzle = 128B>, #gpu.address_space<workgroup>>
func.func @transposed(%buf: !t) -> i64 {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{wgmma-layout: K is not contiguous: column 1 is 256 B after column 0, a K-major layout has it 2 B after}}
  %d = tile.wgmma_descriptor %buf[%c0, %c0] {rows = 64, k = 16} : !t -> i64
  return %d : i64
}

// -----

// Rows of 64 B under the 128B swizzle (TMA would pad them to 128 B).
!narrow = memref<128x32xbf16, #tile.layout<(128, 32) : (32, 1), swizzle = 128B>, #gpu.address_space<workgroup>>
func.func @row_pitch(%buf: !narrow) -> i64 {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{wgmma-layout: rows 0 and 8 are 512 B apart; the 128B K-major layout stacks its 8-row atoms a positive multiple of 1024 B apart (below 2^18 B)}}
  %d = tile.wgmma_descriptor %buf[%c0, %c0] {rows = 64, k = 16} : !narrow -> i64
  return %d : i64
}

// -----

!a = memref<128x64xbf16, #tile.layout<(128, 64) : (64, 1), swizzle = 128B>, #gpu.address_space<workgroup>>
func.func @start_row(%buf: !a) -> i64 {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  // expected-error @+1 {{wgmma-align: start byte offset 512 lies in row 4 of a 128B swizzle atom (1024 B); the block must start in the atom's first row}}
  %d = tile.wgmma_descriptor %buf[%c4, %c0] {rows = 64, k = 16} : !a -> i64
  return %d : i64
}

// -----

!a = memref<128x64xbf16, #tile.layout<(128, 64) : (64, 1), swizzle = 128B>, #gpu.address_space<workgroup>>
func.func @start_k(%buf: !a) -> i64 {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  // expected-error @+1 {{wgmma-align: start byte offset 16 is not a multiple of the 32 B k-step}}
  %d = tile.wgmma_descriptor %buf[%c0, %c8] {rows = 64, k = 16} : !a -> i64
  return %d : i64
}

// -----

!a = memref<128x64xbf16, #tile.layout<(128, 64) : (64, 1), swizzle = 128B>, #gpu.address_space<workgroup>>
func.func @dynamic_col(%buf: !a, %i: index) -> i64 {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %col = arith.muli %i, %c8 : index
  // expected-error @+1 {{wgmma-align: the dynamic column start is known to be a multiple of 8; the descriptor needs a multiple of 16 (one 32 B k-step)}}
  %d = tile.wgmma_descriptor %buf[%c0, %col] {rows = 64, k = 16} : !a -> i64
  return %d : i64
}

// -----

!a = memref<128x64xbf16, #tile.layout<(128, 64) : (64, 1), swizzle = 128B>, #gpu.address_space<workgroup>>
func.func @dynamic_row(%buf: !a, %row: index) -> i64 {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{wgmma-align: the dynamic row start is known to be a multiple of 1; the descriptor needs a multiple of 8 (one 8-row atom)}}
  %d = tile.wgmma_descriptor %buf[%row, %c0] {rows = 64, k = 16} : !a -> i64
  return %d : i64
}

// -----

// Two 64-row halves: atoms 2048 B apart inside a half, 18432 B across, so
// no single stride byte offset serves every run-time row start.
!uneven = memref<128x64xbf16, #tile.layout<(2, 8, 8, 64) : (16384, 1024, 64, 1), swizzle = 128B>, #gpu.address_space<workgroup>>
func.func @dynamic_sbo(%buf: !uneven, %i: index) -> i64 {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %row = arith.muli %i, %c8 : index
  // expected-error @+1 {{wgmma-layout: row starts 0 and 56 need SBO 2048 B and 18432 B; a dynamic start needs one}}
  %d = tile.wgmma_descriptor %buf[%row, %c0] {rows = 16, k = 16} : !uneven -> i64
  return %d : i64
}
