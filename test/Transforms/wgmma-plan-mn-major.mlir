// RUN: tile-opt %s -split-input-file --tile-plan-copies -verify-diagnostics | FileCheck %s

// Attention's V stage read MN-major by O += P V: 128 kv rows (K) x 128
// head columns (N) of bf16, two 64-column panels of 128B-swizzled rows 16
// KiB apart. LBO is the panel distance (16384 B), SBO the 8-row group
// distance along K (1024 B); a k-step starts 16 rows (2048 B) on.

!v = memref<128x128xbf16, #tile.layout<(128, 2, 64) : (64, 8192, 1), swizzle = 128B>, #gpu.address_space<workgroup>>

// CHECK-LABEL: func.func @value_tile
// CHECK: tile.wgmma_descriptor {{.*}}major = #tile.wgmma_major<mn>, rows = 128 : i64, tile.wgmma_plan = #tile.wgmma_plan<lbo = 16384, sbo = 1024, base_offset = 0, swizzle = "128B">}
// CHECK: tile.wgmma_descriptor {{.*}}major = #tile.wgmma_major<mn>, rows = 128 : i64, tile.wgmma_plan = #tile.wgmma_plan<lbo = 16384, sbo = 1024, base_offset = 0, swizzle = "128B">}
func.func @value_tile(%kt: index) -> (i64, i64) {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %buf = tile.arena_view [0] : !v
  %d0 = tile.wgmma_descriptor %buf[%c0, %c0] {rows = 128, k = 16, major = #tile.wgmma_major<mn>} : !v -> i64
  // A run-time k-step: a multiple of 16 rows.
  %row = arith.muli %kt, %c16 : index
  %d1 = tile.wgmma_descriptor %buf[%row, %c0] {rows = 128, k = 16, major = #tile.wgmma_major<mn>} : !v -> i64
  return %d0, %d1 : i64, i64
}

// -----

!v = memref<128x128xbf16, #tile.layout<(128, 2, 64) : (64, 8192, 1), swizzle = 128B>, #gpu.address_space<workgroup>>
func.func @inside_a_span() -> i64 {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %buf = tile.arena_view [0] : !v
  // expected-error @+1 {{wgmma-align: column start 8 is not on a swizzle span (64 elements); an MN-major block starts on an atom's first byte}}
  %d = tile.wgmma_descriptor %buf[%c0, %c8] {rows = 64, k = 16, major = #tile.wgmma_major<mn>} : !v -> i64
  return %d : i64
}

// -----

!v = memref<128x128xbf16, #tile.layout<(128, 2, 64) : (64, 8192, 1), swizzle = 128B>, #gpu.address_space<workgroup>>
func.func @dynamic_k_row(%r: index) -> i64 {
  %c0 = arith.constant 0 : index
  %buf = tile.arena_view [0] : !v
  // expected-error @+1 {{wgmma-align: the dynamic K-row start is known to be a multiple of 1; the descriptor needs a multiple of 8 (one 8-row group)}}
  %d = tile.wgmma_descriptor %buf[%r, %c0] {rows = 128, k = 16, major = #tile.wgmma_major<mn>} : !v -> i64
  return %d : i64
}

// -----

// 8-bit operands are read K-major only.
!v = memref<128x128xf8E4M3FN, #tile.layout<(128, 128) : (128, 1), swizzle = 128B>, #gpu.address_space<workgroup>>
func.func @fp8_transposed() -> i64 {
  %c0 = arith.constant 0 : index
  %buf = tile.arena_view [0] : !v
  // expected-error @+1 {{wgmma-shape: element size 1 B; wgmma reads an MN-major (transposed) operand of f16 or bf16 only}}
  %d = tile.wgmma_descriptor %buf[%c0, %c0] {rows = 128, k = 32, major = #tile.wgmma_major<mn>} : !v -> i64
  return %d : i64
}

// -----

// K contiguous (a K-major buffer) read as MN-major.
!v = memref<128x64xbf16, #tile.layout<(128, 64) : (1, 128), swizzle = 128B>, #gpu.address_space<workgroup>>
func.func @k_contiguous() -> i64 {
  %c0 = arith.constant 0 : index
  %buf = tile.arena_view [0] : !v
  // expected-error @+1 {{wgmma-layout: column 1 is 256 B after column 0; the 128B MN-major layout (M/N contiguous in spans of 128 B, LBO = 1024 B apart) has it 2 B after}}
  %d = tile.wgmma_descriptor %buf[%c0, %c0] {rows = 64, k = 16, major = #tile.wgmma_major<mn>} : !v -> i64
  return %d : i64
}
