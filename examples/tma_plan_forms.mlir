// Copies whose plans docs/plan-report.md shows, one per form:
//
//   tile-opt examples/tma_plan_forms.mlir --tile-report-copy-plans -o /dev/null

!bars = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
!rows = memref<64x96xui8, #tile.layout<(64, 96) : (96, 1)>, #gpu.address_space<workgroup>>

// Fewest instructions: 64 rows of 96 bytes from row 33 of a 4x4x128x96 u8
// tensor take one rank-4 box, with the two inner dims kept apart.
func.func @fewest_instructions(%g: memref<4x4x128x96xui8>, %s: !rows, %bar: !bars) {
  %c0 = arith.constant 0 : index
  tile.copy_async %s[0, 0] [64, 96], %g[2, 1, 33, 0] [1, 1, 64, 96] barrier(%bar[%c0])
      : !rows, memref<4x4x128x96xui8>, !bars
  return
}

// Prefetch: the next 64x64 f16 tile into L2, planned as its load (one box,
// the load's tensor map), then this tile's load.
!tile = memref<64x64xf16, #tile.layout<(64, 64), swizzle = 128B>, #gpu.address_space<workgroup>>
func.func @prefetch_next_tile(%g: memref<256x64xf16>, %s: !tile, %bar: !bars) {
  %c0 = arith.constant 0 : index
  tile.copy_async %s[0, 0] [64, 64], %g[64, 0] [64, 64] {prefetch} : !tile, memref<256x64xf16>
  tile.copy_async %s[0, 0] [64, 64], %g[0, 0] [64, 64] barrier(%bar[%c0]) : !tile, memref<256x64xf16>, !bars
  return
}

// Every second element of the innermost dim: TMA's traversal strides skip
// elements only along outer dims (the driver ignores elementStrides[0]
// without interleave), so `tma` declines and `simt` copies.
!half = memref<8x32xf16, #tile.layout<(8, 32)>, #gpu.address_space<workgroup>>
func.func @every_second_element(%g: memref<8x32xf16, strided<[128, 2]>>, %s: !half, %bar: !bars) {
  %c0 = arith.constant 0 : index
  tile.copy_async %s[0, 0] [8, 32], %g[0, 0] [8, 32] barrier(%bar[%c0]) : !half, memref<8x32xf16, strided<[128, 2]>>, !bars
  return
}

// Every second row: a strided view whose row stride (2 x 64 elements) the
// map holds as its dim-1 stride; element strides stay 1.
!rows8 = memref<8x64xf16, #tile.layout<(8, 64)>, #gpu.address_space<workgroup>>
func.func @every_second_row(%g: memref<8x64xf16, strided<[128, 1]>>, %s: !rows8, %bar: !bars) {
  %c0 = arith.constant 0 : index
  tile.copy_async %s[0, 0] [8, 64], %g[0, 0] [8, 64] barrier(%bar[%c0]) : !rows8, memref<8x64xf16, strided<[128, 1]>>, !bars
  return
}

// The sm_100a forms (chip=sm_100a; a gpu.module whose target is another chip
// rejects them). A pair-CTA load: the plan is the load's, the instruction
// gets .cta_group::2.
!pair = memref<8x256xf16, #tile.layout<(8, 4, 64) : (64, 512, 1), swizzle = 128B>, #gpu.address_space<workgroup>>
func.func @cta_pair_load(%g: memref<16x256xf16>, %s: !pair, %bar: !bars) {
  %c0 = arith.constant 0 : index
  tile.copy_async %s[0, 0] [8, 256], %g[8, 0] [8, 256] barrier(%bar[%c0]) {cta_group = 2 : i32} : !pair, memref<16x256xf16>, !bars
  return
}

// Four rows of a 1024x64 f16 table: one tile::gather4 load into a swizzled
// 4x64 tile, and the same rows written back with tile::scatter4. The map's
// box is one row high; the rows are the instruction's last four coordinates.
!rows4 = memref<4x64xf16, #tile.layout<(4, 64), swizzle = 128B>, #gpu.address_space<workgroup>>
func.func @gather_scatter_rows(%table: memref<1024x64xf16>, %s: !rows4, %bar: !bars, %r0: index, %r1: index, %r2: index, %r3: index) {
  %c0 = arith.constant 0 : index
  tile.copy_async %s[0, 0] [4, 64], %table[0, 0] [4, 64] rows(%r0, %r1, %r2, %r3) barrier(%bar[%c0]) : !rows4, memref<1024x64xf16>, !bars
  tile.copy_async %table[0, 0] [4, 64], %s[0, 0] [4, 64] rows(%r0, %r1, %r2, %r3) : memref<1024x64xf16>, !rows4
  return
}
