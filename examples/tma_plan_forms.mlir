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
