// RUN: tile-opt %s -split-input-file -verify-diagnostics

!acc16 = !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
func.func @k_step_outside(%s: !acc16) -> vector<8xbf16> {
  // expected-error @+1 {{wgmma-fragment: k_step 2 reads accumulator columns 32..47, but the accumulator holds N = 32 columns (16 f32)}}
  %p = tile.wgmma_a_fragment %s[2] : !acc16 -> vector<8xbf16>
  return %p : vector<8xbf16>
}

// -----

// Steps far outside the accumulator name the range instead of columns whose
// numbers would overflow.
!acc16 = !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
func.func @k_step_negative(%s: !acc16) -> vector<8xbf16> {
  // expected-error @+1 {{wgmma-fragment: k_step -9223372036854775808 is outside 0..1: the accumulator holds N = 32 columns (16 f32)}}
  %p = tile.wgmma_a_fragment %s[-9223372036854775808] : !acc16 -> vector<8xbf16>
  return %p : vector<8xbf16>
}

// -----

!acc16 = !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
func.func @k_step_huge(%s: !acc16) -> vector<8xbf16> {
  // expected-error @+1 {{wgmma-fragment: k_step 9223372036854775807 is outside 0..1: the accumulator holds N = 32 columns (16 f32)}}
  %p = tile.wgmma_a_fragment %s[9223372036854775807] : !acc16 -> vector<8xbf16>
  return %p : vector<8xbf16>
}

// -----

!acc4 = !llvm.struct<(f32, f32, f32, f32)>
func.func @n8_has_no_k16(%s: !acc4) -> vector<8xbf16> {
  // expected-error @+1 {{wgmma-fragment: the accumulator holds 4 f32 (N = 8); A fragments are taken 16 columns (8 f32) at a time}}
  %p = tile.wgmma_a_fragment %s[0] : !acc4 -> vector<8xbf16>
  return %p : vector<8xbf16>
}

// -----

!acc = !llvm.struct<(f32, f16, f32, f32, f32, f32, f32, f32)>
func.func @not_f32(%s: !acc) -> vector<8xbf16> {
  // expected-error @+1 {{wgmma-fragment: the accumulator has type '!llvm.struct<(f32, f16, f32, f32, f32, f32, f32, f32)>'; a wgmma f32 accumulator is an !llvm.struct of f32}}
  %p = tile.wgmma_a_fragment %s[0] : !acc -> vector<8xbf16>
  return %p : vector<8xbf16>
}

// -----

func.func @fragment_type(%s: !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>) -> vector<8xf32> {
  // expected-error @+1 {{'tile.wgmma_a_fragment' op result #0 must be vector of 16-bit float or bfloat16 type values of length 8, but got 'vector<8xf32>'}}
  %p = tile.wgmma_a_fragment %s[0] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)> -> vector<8xf32>
  return %p : vector<8xf32>
}

// -----

!acc = !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
func.func @n_too_large(%a: vector<8xbf16>, %b: i64, %o: !acc) -> !acc {
  // expected-error @+1 {{wgmma-fragment: the accumulator holds 132 f32 (N = 264); wgmma m64nNk16 has N = 8..256 in multiples of 8}}
  %r = tile.wgmma_register_a %a, %b, %o : vector<8xbf16>, !acc
  return %r : !acc
}

// -----

!v = memref<32x64xbf16, #tile.layout<(32, 64) : (64, 1), swizzle = 128B>, #gpu.address_space<workgroup>>
!acc = !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>
func.func @major_disagrees(%a: vector<8xbf16>, %o: !acc) -> !acc {
  %c0 = arith.constant 0 : index
  %buf = tile.arena_view [0] : !v
  %d = tile.wgmma_descriptor %buf[%c0, %c0] {rows = 16, k = 16, major = #tile.wgmma_major<mn>} : !v -> i64
  // expected-error @+1 {{wgmma-fragment: b_major is k but the B descriptor is planned mn-major; the two must agree}}
  %r = tile.wgmma_register_a %a, %d, %o : vector<8xbf16>, !acc
  return %r : !acc
}

// -----

!v = memref<32x64xbf16, #tile.layout<(32, 64) : (64, 1), swizzle = 128B>, #gpu.address_space<workgroup>>
!acc = !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>
func.func @n_disagrees(%a: vector<8xbf16>, %o: !acc) -> !acc {
  %c0 = arith.constant 0 : index
  %buf = tile.arena_view [0] : !v
  %d = tile.wgmma_descriptor %buf[%c0, %c0] {rows = 32, k = 16, major = #tile.wgmma_major<mn>} : !v -> i64
  // expected-error @+1 {{wgmma-fragment: the B descriptor covers 32 columns (rows = 32), the accumulator N = 16}}
  %r = tile.wgmma_register_a %a, %d, %o {b_major = #tile.wgmma_major<mn>} : vector<8xbf16>, !acc
  return %r : !acc
}

// -----

!v = memref<32x64xf16, #tile.layout<(32, 64) : (64, 1), swizzle = 128B>, #gpu.address_space<workgroup>>
!acc = !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>
func.func @types_disagree(%a: vector<8xbf16>, %o: !acc) -> !acc {
  %c0 = arith.constant 0 : index
  %buf = tile.arena_view [0] : !v
  %d = tile.wgmma_descriptor %buf[%c0, %c0] {rows = 16, k = 16, major = #tile.wgmma_major<mn>} : !v -> i64
  // expected-error @+1 {{wgmma-fragment: A is 'bf16' but B is 'f16'; wgmma multiplies two operands of one type}}
  %r = tile.wgmma_register_a %a, %d, %o {b_major = #tile.wgmma_major<mn>} : vector<8xbf16>, !acc
  return %r : !acc
}

// -----

func.func @fence_scalar(%x: f32) -> f32 {
  // expected-error @+1 {{wgmma-fragment: the value has type 'f32'; a wgmma register operand is an A fragment (vector<8xbf16>, vector<8xf16>) or an f32 accumulator (!llvm.struct of f32)}}
  %y = tile.wgmma_fence_operand %x : f32
  return %y : f32
}

// -----

// zero_init writes the accumulator without reading it: a guard that skips
// the wgmma would leave the result undefined.
!acc8 = !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>
func.func @zero_init_guarded(%a: vector<8xbf16>, %b: i64, %o: !acc8, %issue: i1) -> !acc8 {
  // expected-error @+1 {{wgmma-fragment: zero_init with a guard (`if`) leaves the result undefined where the guard is false; zero the accumulator instead}}
  %r = tile.wgmma_register_a %a, %b, %o if %issue {zero_init} : vector<8xbf16>, !acc8
  return %r : !acc8
}

// -----

// The guard is an i1 (a predicate register): any other type is refused at
// the operand.
!acc8 = !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>
func.func @guard_not_i1(%a: vector<8xbf16>, %b: i64, %o: !acc8, %issue: i32) -> !acc8 {
  // expected-note @-1 {{prior use here}}
  // expected-error @+1 {{use of value '%issue' expects different type than prior uses: 'i1' vs 'i32'}}
  %r = tile.wgmma_register_a %a, %b, %o if %issue : vector<8xbf16>, !acc8
  return %r : !acc8
}

// -----

// tile.wgmma_store_fragment: the buffer is 2-D, shared, of the fragment's
// element type.
!G = memref<128x64xbf16>
func.func @store_fragment_global(%f: vector<8xbf16>, %c: !G, %r: index) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{wgmma-fragment: the buffer has type 'memref<128x64xbf16>'; a fragment of 'bf16' is stored to a 2-D shared buffer of 'bf16'}}
  tile.wgmma_store_fragment %f, %c[%r, %c0] : vector<8xbf16>, !G
  return
}

// -----

!H = memref<128x64xf16, #tile.layout<(128, 64) : (64, 1), swizzle = 128B>, #gpu.address_space<workgroup>>
gpu.module @k {
  gpu.func @store_fragment_element(%f: vector<8xbf16>, %r: index) kernel {
    %t = tile.arena_view [0] : !H
    %c0 = arith.constant 0 : index
    // expected-error @+1 {{wgmma-fragment: the buffer has type 'memref<128x64xf16, #tile.layout<(128, 64), swizzle = 128B>, #gpu.address_space<workgroup>>'; a fragment of 'bf16' is stored to a 2-D shared buffer of 'bf16'}}
    tile.wgmma_store_fragment %f, %t[%r, %c0] : vector<8xbf16>, !H
    gpu.return
  }
}

// -----

// A shared buffer without a #tile.layout: stmatrix addresses its rows
// through the layout.
!S = memref<128x64xbf16, #gpu.address_space<workgroup>>
func.func @store_fragment_plain(%f: vector<8xbf16>, %c: !S, %r: index) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{wgmma-fragment: the buffer has type 'memref<128x64xbf16, #gpu.address_space<workgroup>>'; stmatrix addresses its rows through a #tile.layout}}
  tile.wgmma_store_fragment %f, %c[%r, %c0] : vector<8xbf16>, !S
  return
}

// -----

// Eight consecutive elements of a row are not one 16-byte unit of a
// column-major tile.
!T = memref<64x64xbf16, #tile.layout<(64, 64) : (1, 64)>, #gpu.address_space<workgroup>>
gpu.module @k {
  gpu.func @store_fragment_column_major(%f: vector<8xbf16>, %r: index) kernel {
    %t = tile.arena_view [0] : !T
    %c0 = arith.constant 0 : index
    // expected-error @+1 {{wgmma-fragment: the buffer's layout keeps 1 consecutive elements of a row together; stmatrix writes 8 (16 bytes) at once}}
    tile.wgmma_store_fragment %f, %t[%r, %c0] : vector<8xbf16>, !T
    gpu.return
  }
}

// -----

// A column not known to be a multiple of 8.
!T = memref<128x64xbf16, #tile.layout<(128, 64) : (64, 1), swizzle = 128B>, #gpu.address_space<workgroup>>
gpu.module @k {
  gpu.func @store_fragment_column(%f: vector<8xbf16>, %r: index) kernel {
    %t = tile.arena_view [0] : !T
    %c4 = arith.constant 4 : index
    // expected-error @+1 {{wgmma-fragment: the column index is a known multiple of 4 only; stmatrix rows start at multiples of 8 columns}}
    tile.wgmma_store_fragment %f, %t[%r, %c4] : vector<8xbf16>, !T
    gpu.return
  }
}

// -----

// A buffer 8-byte aligned: each lane's row is one 16-byte access.
!P = memref<128x64xbf16, #tile.layout<(128, 64) : (64, 1)>, #gpu.address_space<workgroup>>
gpu.module @k {
  gpu.func @store_fragment_alignment(%f: vector<8xbf16>, %r: index) kernel {
    %t = tile.arena_view [8] : !P
    %c0 = arith.constant 0 : index
    // expected-error @+1 {{wgmma-fragment: the buffer starts 8-byte aligned; stmatrix rows are 16-byte accesses}}
    tile.wgmma_store_fragment %f, %t[%r, %c0] : vector<8xbf16>, !P
    gpu.return
  }
}
