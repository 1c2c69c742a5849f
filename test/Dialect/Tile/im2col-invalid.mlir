// RUN: tile-opt %s -split-input-file --tile-plan-copies -verify-diagnostics

// tile.copy_im2col: every rule, at the op, with its values: the structural
// ones from the op verifier, the planner's (im2col-*) from tile-plan-copies
// (docs/im2col.md, docs/rules.md).

!bars = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
!t = memref<64x64xf16, #gpu.address_space<workgroup>>
func.func @direction(%x: memref<2x9x9x64xf16, #gpu.address_space<workgroup>>, %s: !t, %bar: !bars, %c0: index, %i: index) {
  // expected-error @+1 {{direction: im2col loads from global memory into shared memory (#gpu.address_space<workgroup>); got a shared source and a shared destination}}
  tile.copy_im2col %s, %x[%i, %i, %i, %c0] offsets [%c0, %c0] barrier(%bar[%c0]) {lower = array<i64: -1, -1>, upper = array<i64: -1, -1>}
      : !t, memref<2x9x9x64xf16, #gpu.address_space<workgroup>>, !bars
  return
}

// -----

!bars = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
!t = memref<64x64xf16, #gpu.address_space<workgroup>>
func.func @rank2(%x: memref<9x64xf16>, %s: !t, %bar: !bars, %c0: index, %i: index) {
  // expected-error @+1 {{im2col-rank: the global tensor has rank 2; im2col loads a channels-last tensor of rank 3..5 ([N, W, C], [N, H, W, C], [N, D, H, W, C])}}
  tile.copy_im2col %s, %x[%i, %c0] offsets [] barrier(%bar[%c0]) {lower = array<i64>, upper = array<i64>}
      : !t, memref<9x64xf16>, !bars
  return
}

// -----

!bars = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
!t = memref<64x64xf16, #gpu.address_space<workgroup>>
func.func @offset_count(%x: memref<2x9x9x64xf16>, %s: !t, %bar: !bars, %c0: index, %i: index) {
  // expected-error @+1 {{im2col-rank: 1 offset(s) for a rank-4 tensor; expected 2}}
  tile.copy_im2col %s, %x[%i, %i, %i, %c0] offsets [%c0] barrier(%bar[%c0]) {lower = array<i64: -1, -1>, upper = array<i64: -1, -1>}
      : !t, memref<2x9x9x64xf16>, !bars
  return
}

// -----

!bars = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
!t = memref<64x64xf16, #gpu.address_space<workgroup>>
func.func @strides_count(%x: memref<2x9x9x64xf16>, %s: !t, %bar: !bars, %c0: index, %i: index) {
  // expected-error @+1 {{im2col-rank: 1 traversal stride(s) for a rank-4 tensor; expected 2}}
  tile.copy_im2col %s, %x[%i, %i, %i, %c0] offsets [%c0, %c0] barrier(%bar[%c0]) {lower = array<i64: -1, -1>, upper = array<i64: -1, -1>, strides = array<i64: 1>}
      : !t, memref<2x9x9x64xf16>, !bars
  return
}

// -----

!bars = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
!t = memref<64x64xf16, #gpu.address_space<workgroup>>
func.func @channels_stride(%x: memref<2x9x9x64xf16, strided<[10368, 1152, 128, 2]>>, %s: !t, %bar: !bars, %c0: index, %i: index) {
  // expected-error @+1 {{im2col-global: the channels (dimension 3) have stride 2; im2col reads each pixel's channels contiguously (stride 1)}}
  tile.copy_im2col %s, %x[%i, %i, %i, %c0] offsets [%c0, %c0] barrier(%bar[%c0]) {lower = array<i64: -1, -1>, upper = array<i64: -1, -1>}
      : !t, memref<2x9x9x64xf16, strided<[10368, 1152, 128, 2]>>, !bars
  return
}

// -----

!bars = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
!t = memref<64x64xf16, #gpu.address_space<workgroup>>
func.func @row_stride(%x: memref<2x9x9x64xf16, strided<[10368, 1152, 68, 1]>>, %s: !t, %bar: !bars, %c0: index, %i: index) {
  // expected-error @+1 {{im2col-global: stride 68 of dimension 2 is 136 B, not a multiple of 16 B}}
  tile.copy_im2col %s, %x[%i, %i, %i, %c0] offsets [%c0, %c0] barrier(%bar[%c0]) {lower = array<i64: -1, -1>, upper = array<i64: -1, -1>}
      : !t, memref<2x9x9x64xf16, strided<[10368, 1152, 68, 1]>>, !bars
  return
}

// -----

!bars = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
!t = memref<64x64xf16, #gpu.address_space<workgroup>>
func.func @corner(%x: memref<2x9x9x64xf16>, %s: !t, %bar: !bars, %c0: index, %i: index) {
  // expected-error @+1 {{im2col-corner: lower corner -129 of dimension 1 is outside [-128, 127] (rank 4)}}
  tile.copy_im2col %s, %x[%i, %i, %i, %c0] offsets [%c0, %c0] barrier(%bar[%c0]) {lower = array<i64: -129, -1>, upper = array<i64: -1, -1>}
      : !t, memref<2x9x9x64xf16>, !bars
  return
}

// -----

!bars = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
!t = memref<64x64xf16, #gpu.address_space<workgroup>>
func.func @empty_box(%x: memref<2x9x9x64xf16>, %s: !t, %bar: !bars, %c0: index, %i: index) {
  %k3 = arith.constant 3 : index
  // expected-error @+1 {{im2col-corner: the bounding box of dimension 1 is empty: [3, 1] (size 9, corners 3 and -7)}}
  tile.copy_im2col %s, %x[%i, %k3, %i, %c0] offsets [%c0, %c0] barrier(%bar[%c0]) {lower = array<i64: 3, -1>, upper = array<i64: -7, -1>}
      : !t, memref<2x9x9x64xf16>, !bars
  return
}

// -----

!bars = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
!t = memref<64x64xf16, #gpu.address_space<workgroup>>
func.func @traversal_stride(%x: memref<2x9x9x64xf16>, %s: !t, %bar: !bars, %c0: index, %i: index) {
  // expected-error @+1 {{im2col-stride: traversal stride 9 of dimension 2 is outside 1..8}}
  tile.copy_im2col %s, %x[%i, %i, %i, %c0] offsets [%c0, %c0] barrier(%bar[%c0]) {lower = array<i64: -1, -1>, upper = array<i64: -1, -1>, strides = array<i64: 1, 9>}
      : !t, memref<2x9x9x64xf16>, !bars
  return
}

// -----

!bars = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
!t = memref<64x4xf16, #gpu.address_space<workgroup>>
func.func @channels_bytes(%x: memref<2x9x9x64xf16>, %s: !t, %bar: !bars, %c0: index, %i: index) {
  // expected-error @+1 {{im2col-channels: 4 channels x 2 B = 8 B is not a multiple of 16 B}}
  tile.copy_im2col %s, %x[%i, %i, %i, %c0] offsets [%c0, %c0] barrier(%bar[%c0]) {lower = array<i64: -1, -1>, upper = array<i64: -1, -1>}
      : !t, memref<2x9x9x64xf16>, !bars
  return
}

// -----

!bars = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
!t = memref<8x128xf16, #tile.layout<(8, 128), swizzle = 128B>, #gpu.address_space<workgroup>>
func.func @channels_span(%x: memref<2x9x9x64xf16>, %s: !t, %bar: !bars, %c0: index, %i: index) {
  // expected-error @+1 {{im2col-channels: 128 channels x 2 B = 256 B exceed the 128B swizzle span of 128 B}}
  tile.copy_im2col %s, %x[%i, %i, %i, %c0] offsets [%c0, %c0] barrier(%bar[%c0]) {lower = array<i64: -1, -1>, upper = array<i64: -1, -1>}
      : !t, memref<2x9x9x64xf16>, !bars
  return
}

// -----

!bars = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
!t = memref<2048x8xf16, #gpu.address_space<workgroup>>
func.func @pixels(%x: memref<2x9x9x64xf16>, %s: !t, %bar: !bars, %c0: index, %i: index) {
  // expected-error @+1 {{im2col-pixels: 2048 pixels per column; the hardware loads 1..1024}}
  tile.copy_im2col %s, %x[%i, %i, %i, %c0] offsets [%c0, %c0] barrier(%bar[%c0]) {lower = array<i64: -1, -1>, upper = array<i64: -1, -1>}
      : !t, memref<2x9x9x64xf16>, !bars
  return
}

// -----

!bars = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
!t = memref<16x64xf16, #tile.layout<(16, 64) : (128, 1)>, #gpu.address_space<workgroup>>
func.func @shared_layout(%x: memref<2x9x9x64xf16>, %s: !t, %bar: !bars, %c0: index, %i: index) {
  // expected-error @+1 {{im2col-shared: pixel 1 channel 0 is at shared byte 256; the hardware writes it at byte 128}}
  tile.copy_im2col %s, %x[%i, %i, %i, %c0] offsets [%c0, %c0] barrier(%bar[%c0]) {lower = array<i64: -1, -1>, upper = array<i64: -1, -1>}
      : !t, memref<2x9x9x64xf16>, !bars
  return
}

// -----

!bars = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
!t = memref<4x8x64xf16, #gpu.address_space<workgroup>>
func.func @shared_rank(%x: memref<2x9x9x64xf16>, %s: !t, %bar: !bars, %c0: index, %i: index) {
  // expected-error @+1 {{im2col-shared: the shared tile has shape [4, 8, 64]; im2col writes a [pixels, channels] tile}}
  tile.copy_im2col %s, %x[%i, %i, %i, %c0] offsets [%c0, %c0] barrier(%bar[%c0]) {lower = array<i64: -1, -1>, upper = array<i64: -1, -1>}
      : !t, memref<2x9x9x64xf16>, !bars
  return
}

// -----

!bars = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
!t = memref<64x64xf16, #gpu.address_space<workgroup>>
func.func @offset_range(%x: memref<2x9x9x64xf16>, %s: !t, %bar: !bars, %c0: index, %i: index) {
  %big = arith.constant 300 : index
  // expected-error @+1 {{im2col-offset: offset 300 of dimension 2 is outside [0, 255] (rank 4 keeps 8 bits)}}
  tile.copy_im2col %s, %x[%i, %i, %i, %c0] offsets [%c0, %big] barrier(%bar[%c0]) {lower = array<i64: -1, -1>, upper = array<i64: -1, -1>}
      : !t, memref<2x9x9x64xf16>, !bars
  return
}

// -----

!bars = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
!t = memref<64x64xf16, #gpu.address_space<workgroup>>
func.func @start_outside(%x: memref<2x9x9x64xf16>, %s: !t, %bar: !bars, %c0: index, %i: index) {
  %m3 = arith.constant -3 : index
  // expected-error @+1 {{im2col-start: start -3 of dimension 1 lies outside the bounding box [-1, 7] (size 9, corners -1 and -1); the instruction traps}}
  tile.copy_im2col %s, %x[%i, %m3, %i, %c0] offsets [%c0, %c0] barrier(%bar[%c0]) {lower = array<i64: -1, -1>, upper = array<i64: -1, -1>}
      : !t, memref<2x9x9x64xf16>, !bars
  return
}

// -----

!bars = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
!t = memref<64x64xi16, #gpu.address_space<workgroup>>
func.func @nan_int(%x: memref<2x9x9x64xi16>, %s: !t, %bar: !bars, %c0: index, %i: index) {
  // expected-error @+1 {{nan-fill-type: NaN fill needs f16, bf16, f32 or f64 elements, not 'i16'}}
  tile.copy_im2col %s, %x[%i, %i, %i, %c0] offsets [%c0, %c0] barrier(%bar[%c0]) {lower = array<i64: -1, -1>, upper = array<i64: -1, -1>, oob = "nan"}
      : !t, memref<2x9x9x64xi16>, !bars
  return
}

// -----

!bars = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
!t = memref<64x64xf16, #gpu.address_space<workgroup>>
func.func @element_type(%x: memref<2x9x9x64xbf16>, %s: !t, %bar: !bars, %c0: index, %i: index) {
  // expected-error @+1 {{element-type: element type mismatch: destination has 'f16', source has 'bf16'}}
  tile.copy_im2col %s, %x[%i, %i, %i, %c0] offsets [%c0, %c0] barrier(%bar[%c0]) {lower = array<i64: -1, -1>, upper = array<i64: -1, -1>}
      : !t, memref<2x9x9x64xbf16>, !bars
  return
}

// -----

!bars = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
!t = memref<64x64xf16, #gpu.address_space<workgroup>>
func.func @barrier_index(%x: memref<2x9x9x64xf16>, %s: !t, %bar: !bars, %c0: index, %i: index) {
  %c5 = arith.constant 5 : index
  // expected-error @+1 {{barrier: index 5 is outside the group's 1 barrier(s)}}
  tile.copy_im2col %s, %x[%i, %i, %i, %c0] offsets [%c0, %c0] barrier(%bar[%c5]) {lower = array<i64: -1, -1>, upper = array<i64: -1, -1>}
      : !t, memref<2x9x9x64xf16>, !bars
  return
}
