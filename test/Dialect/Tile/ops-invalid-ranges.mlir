// RUN: tile-opt %s -split-input-file -verify-diagnostics
//
// Values at the edges of int64: literals that collide with the dynamic-offset
// marker, offsets and sizes whose sums or products would overflow, buffers
// and arena views larger than any address space, element types whose storage
// differs between host and device, and constant indices out of range.

// The literal equal to the dynamic-offset marker is not an offset.
func.func @marker_literal_copy(%a: memref<64xi8>, %b: memref<64xi8>) {
  // expected-error @+1 {{offset-range: source offsets have 1 dynamic entries but 0 offset operands; the literal -9223372036854775808 is reserved as the dynamic-offset marker}}
  tile.copy %a[0] [64], %b[-9223372036854775808] [64] : memref<64xi8>, memref<64xi8>
  return
}

// -----

func.func @marker_literal_copy_async(%g: memref<8x256xf16>) {
  %s = tile.arena_view [0] : memref<8x64xf16, #gpu.address_space<workgroup>>
  // expected-error @+1 {{offset-range: source offsets have 1 dynamic entries but 0 offset operands}}
  tile.copy_async %g[0, 0] [8, 64], %s[0, -9223372036854775808] [8, 64] : memref<8x256xf16>, memref<8x64xf16, #gpu.address_space<workgroup>>
  return
}

// -----

// A literal marker next to a real dynamic offset: two markers, one operand.
func.func @marker_literal_mixed(%g: memref<8x256xf16>, %i: index) {
  %s = tile.arena_view [0] : memref<8x64xf16, #gpu.address_space<workgroup>>
  // expected-error @+1 {{offset-range: destination offsets have 2 dynamic entries but 1 offset operands}}
  tile.copy_async %g[%i, -9223372036854775808] [8, 64], %s[0, 0] [8, 64] : memref<8x256xf16>, memref<8x64xf16, #gpu.address_space<workgroup>>
  return
}

// -----

// A store at column 2^63-8 of a 256-wide tensor: `offset + size` would wrap.
func.func @store_offset_overflow(%g: memref<8x256xf16>) {
  %s = tile.arena_view [0] : memref<8x64xf16, #gpu.address_space<workgroup>>
  // expected-error @+1 {{offset-range: destination offset 9223372036854775800 in dimension 1 is outside [-2^52, 2^52]}}
  tile.copy_async %g[0, 9223372036854775800] [8, 64], %s[0, 0] [8, 64] : memref<8x256xf16>, memref<8x64xf16, #gpu.address_space<workgroup>>
  return
}

// -----

// One past -2^52 on a load's source (a negative start is legal for loads:
// the part before the tensor is fill).
func.func @load_offset_below_range(%g: memref<8x256xf16>) {
  %s = tile.arena_view [0] : memref<8x64xf16, #gpu.address_space<workgroup>>
  %bar = nvgpu.mbarrier.create -> !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{offset-range: source offset -4503599627370497 in dimension 1 is outside [-2^52, 2^52]}}
  tile.copy_async %s[0, 0] [8, 64], %g[0, -4503599627370497] [8, 64] barrier(%bar[%c0]) : memref<8x64xf16, #gpu.address_space<workgroup>>, memref<8x256xf16>, !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
  return
}

// -----

func.func @copy_row_int64_max(%a: memref<8x256xf16>, %b: memref<8x256xf16>) {
  // expected-error @+1 {{offset-range: destination offset 9223372036854775807 in dimension 0 is outside [-2^52, 2^52]}}
  tile.copy %a[9223372036854775807, 0] [1, 256], %b[9223372036854775807, 0] [1, 256] : memref<8x256xf16>, memref<8x256xf16>
  return
}

// -----

// The largest offset accepted still lands out of the tensor's bounds for a
// tile.copy (global-bounds), with the exact values.
func.func @copy_row_bound(%a: memref<8x256xf16>, %b: memref<8x256xf16>) {
  // expected-error @+1 {{global-bounds: global region [4503599627370496, +1) leaves dimension 0 of size 8 (buffer [8, 256])}}
  tile.copy %a[4503599627370496, 0] [1, 256], %b[0, 0] [1, 256] : memref<8x256xf16>, memref<8x256xf16>
  return
}

// -----

// (2^55 + 1) x 512 elements would wrap to 512 in 64-bit arithmetic.
!bars = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
func.func @element_count_wraps(%g: memref<8x256xf16>, %bar: !bars, %c0: index) {
  %s = tile.arena_view [0] : memref<8x64xf16, #gpu.address_space<workgroup>>
  // expected-error @+1 {{region-size: source region size 36028797018963969 in dimension 0 exceeds 2^52}}
  tile.copy_async %s[0, 0] [8, 64], %g[0, 0] [36028797018963969, 512] barrier(%bar[%c0]) : memref<8x64xf16, #gpu.address_space<workgroup>>, memref<8x256xf16>, !bars
  return
}

// -----

// Each size fits, the product does not.
!bars = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
func.func @element_count_product(%g: memref<8x256x1xf16>, %bar: !bars, %c0: index) {
  %s = tile.arena_view [0] : memref<8x64xf16, #gpu.address_space<workgroup>>
  // expected-error @+1 {{region-size: source region [67108864, 67108864, 2] has more than 2^52 elements}}
  tile.copy_async %s[0, 0] [8, 64], %g[0, 0, 0] [67108864, 67108864, 2] barrier(%bar[%c0]) : memref<8x64xf16, #gpu.address_space<workgroup>>, memref<8x256x1xf16>, !bars
  return
}

// -----

// An arena view's offset plus span must fit the kernel's shared memory.
func.func @arena_offset_overflow() {
  // expected-error @+1 {{smem-size: the view spans bytes [9223372036854771712, 9223372036854771712 + 4096) of the arena; a kernel has at most 232448 bytes of dynamic shared memory}}
  %s = tile.arena_view [9223372036854771712] : memref<8x256xf16, #gpu.address_space<workgroup>>
  return
}

// -----

// 8 GiB would be truncated to a 32-bit 0 at the launch.
func.func @arena_8gib() {
  // expected-error @+1 {{smem-size: the view spans bytes [0, 0 + 8589934592) of the arena}}
  %s = tile.arena_view [0] : memref<8589934592xi8, #gpu.address_space<workgroup>>
  return
}

// -----

func.func @arena_above_limit() {
  // expected-error @+1 {{smem-size: the view spans bytes [0, 0 + 400000) of the arena; a kernel has at most 232448 bytes}}
  %s = tile.arena_view [0] : memref<400000xi8, #gpu.address_space<workgroup>>
  return
}

// -----

// The last byte of the limit is accepted.
func.func @arena_at_limit() {
  %s = tile.arena_view [1024] : memref<231424xi8, #gpu.address_space<workgroup>>
  // expected-error @+1 {{smem-size: the view spans bytes [1024, 1024 + 231425) of the arena}}
  %t = tile.arena_view [1024] : memref<231425xi8, #gpu.address_space<workgroup>>
  return
}

// -----

// A view whose byte span would wrap to 0.
func.func @arena_span_wraps() {
  // expected-error @+1 {{buffer-size: result buffer 'memref<4611686018427387904x4xi8, #gpu.address_space<workgroup>>': shard 0 (4611686018427387904:4) makes the layout exceed 2^52}}
  %s = tile.arena_view [0] : memref<4611686018427387904x4xi8, #gpu.address_space<workgroup>>
  return
}

// -----

// A global buffer whose extent is not addressable.
func.func @global_too_large(%a: memref<4611686018427387904x4xi8>, %b: memref<16x4xi8>) {
  // expected-error @+1 {{buffer-size: source buffer 'memref<4611686018427387904x4xi8>': shard 0 (4611686018427387904:4) makes the layout exceed 2^52}}
  tile.copy %b[0, 0] [16, 4], %a[0, 0] [16, 4] : memref<16x4xi8>, memref<4611686018427387904x4xi8>
  return
}

// -----

// i24 is 3 bytes in the kernel's address arithmetic but 4 in LLVM's host
// layout: rejected rather than copied with the wrong pitch.
func.func @i24_elements(%a: memref<64xi24>, %b: memref<64xi24>) {
  // expected-error @+1 {{element-type: destination element type 'i24' is 24 bits wide; copies carry elements of 8, 16, 32, 64 or 128 bits}}
  tile.copy %a[0] [64], %b[0] [64] : memref<64xi24>, memref<64xi24>
  return
}

// -----

func.func @i48_elements(%a: memref<64xi48>, %b: memref<64xi48>) {
  // expected-error @+1 {{element-type: destination element type 'i48' is 48 bits wide}}
  tile.copy %a[0] [64], %b[0] [64] : memref<64xi48>, memref<64xi48>
  return
}

// -----

func.func @complex_elements(%a: memref<64xcomplex<f32>>, %b: memref<64xcomplex<f32>>) {
  // expected-error @+1 {{element-type: destination element type 'complex<f32>' is not supported; copies carry integer and floating-point elements of 1, 2, 4, 8 or 16 bytes}}
  tile.copy %a[0] [64], %b[0] [64] : memref<64xcomplex<f32>>, memref<64xcomplex<f32>>
  return
}

// -----

// Booleans and complex numbers are refused by the copies, asynchronous ones
// too, and by the arena: a program copies them as bytes or words of their
// width (tile_mlir.copy does: docs/python.md).
!bars = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
!sc = memref<8x64xcomplex<f64>, #tile.layout<(8, 64)>, #gpu.address_space<workgroup>>
func.func @complex_async(%g: memref<8x64xcomplex<f64>>, %s: !sc, %bar: !bars) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{element-type: destination element type 'complex<f64>' is not supported; copies carry integer and floating-point elements of 1, 2, 4, 8 or 16 bytes}}
  tile.copy_async %s[0, 0] [8, 64], %g[0, 0] [8, 64] barrier(%bar[%c0]) : !sc, memref<8x64xcomplex<f64>>, !bars
  return
}

// -----

func.func @bool_arena() {
  // expected-error @+1 {{element-type: result element type 'i1' is 1 bits wide; copies carry elements of 8, 16, 32, 64 or 128 bits (other widths are padded differently on host and device)}}
  %s = tile.arena_view [0] : memref<8x64xi1, #tile.layout<(8, 64)>, #gpu.address_space<workgroup>>
  return
}

// -----

func.func @bool_copy(%a: memref<64xi1>, %b: memref<64xi1>) {
  // expected-error @+1 {{element-type: destination element type 'i1' is 1 bits wide; copies carry elements of 8, 16, 32, 64 or 128 bits}}
  tile.copy %a[0] [64], %b[0] [64] : memref<64xi1>, memref<64xi1>
  return
}

// -----

// A constant barrier index outside the group.
!bars = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 2>
func.func @barrier_index(%g: memref<8x64xf16>, %bar: !bars) {
  %c2 = arith.constant 2 : index
  %s = tile.arena_view [0] : memref<8x64xf16, #gpu.address_space<workgroup>>
  // expected-error @+1 {{barrier: index 2 is outside the group's 2 barrier(s)}}
  tile.copy_async %s[0, 0] [8, 64], %g[0, 0] [8, 64] barrier(%bar[%c2]) : memref<8x64xf16, #gpu.address_space<workgroup>>, memref<8x64xf16>, !bars
  return
}

// -----

!bars = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 2>
func.func @barrier_index_negative(%g: memref<8x64xf16>, %bar: !bars) {
  %m1 = arith.constant -1 : index
  %s = tile.arena_view [0] : memref<8x64xf16, #gpu.address_space<workgroup>>
  // expected-error @+1 {{barrier: index -1 is outside the group's 2 barrier(s)}}
  tile.copy_async %s[0, 0] [8, 64], %g[0, 0] [8, 64] barrier(%bar[%m1]) : memref<8x64xf16, #gpu.address_space<workgroup>>, memref<8x64xf16>, !bars
  return
}

// -----

// A constant stage index outside the buffer's stages.
func.func @stage_index() {
  %c3 = arith.constant 3 : index
  %buf = tile.arena_view [0] : memref<3x8x64xf16, #gpu.address_space<workgroup>>
  // expected-error @+1 {{stage: index 3 is outside the 3 stage(s) of 'memref<3x8x64xf16, #gpu.address_space<workgroup>>'}}
  %s = tile.stage %buf[%c3] : memref<3x8x64xf16, #gpu.address_space<workgroup>> -> memref<8x64xf16, #gpu.address_space<workgroup>>
  return
}

// -----

// Barriers live in shared memory: the lowering addresses them there.
!bars5 = !nvgpu.mbarrier.group<memorySpace = 5>
func.func @barrier_space(%g: memref<8x64xf16>, %bar: !bars5, %c0: index) {
  %s = tile.arena_view [0] : memref<8x64xf16, #gpu.address_space<workgroup>>
  // expected-error @+1 {{barrier: the mbarrier group must live in shared memory (#gpu.address_space<workgroup>), not 5 : i64}}
  tile.copy_async %s[0, 0] [8, 64], %g[0, 0] [8, 64] barrier(%bar[%c0]) : memref<8x64xf16, #gpu.address_space<workgroup>>, memref<8x64xf16>, !bars5
  return
}

// -----

// A row-major layout whose strides overflow int64 is rejected with its
// values, not wrapped.
// expected-error @+1 {{makes the layout exceed 2^52}}
func.func @layout_strides_overflow(%a: memref<4194304x4194304x4194304xi8, #tile.layout<(4194304, 4194304, 4194304)>>) {
  return
}
