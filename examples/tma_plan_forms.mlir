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
