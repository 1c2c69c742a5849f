// RUN: tile-opt %s -split-input-file --tile-report-copy-plans -o /dev/null -verify-diagnostics

!bars = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
func.func @unknown(%g: memref<8x64xf32>, %s: memref<8x64xf32, #gpu.address_space<workgroup>>, %bar: !bars, %c0: index) {
  // expected-error @+1 {{dispatch: unknown variant 'bulk' for tile.copy_async; registered variants: tma, simt}}
  tile.copy_async %s[0, 0] [8, 64], %g[0, 0] [8, 64] barrier(%bar[%c0]) {dispatch = "bulk"}
      : memref<8x64xf32, #gpu.address_space<workgroup>>, memref<8x64xf32>, !bars
  return
}

// -----

// The collective variant lowers tile.copy, not tile.copy_async.
!bars = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
func.func @wrong_kind(%g: memref<8x64xf32>, %s: memref<8x64xf32, #gpu.address_space<workgroup>>, %bar: !bars, %c0: index) {
  // expected-error @+1 {{dispatch: unknown variant 'collective'}}
  tile.copy_async %s[0, 0] [8, 64], %g[0, 0] [8, 64] barrier(%bar[%c0]) {dispatch = "collective"}
      : memref<8x64xf32, #gpu.address_space<workgroup>>, memref<8x64xf32>, !bars
  return
}
