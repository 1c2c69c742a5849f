// RUN: tile-opt %s -split-input-file --tile-plan-copies --convert-tile-to-nvvm -verify-diagnostics

// dispatch = "tma" restricts the search to the tma variant, which declines a
// transposed copy: the diagnostic lists it with its rule.
!bars = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
func.func @tma_only(%g: memref<32x64xf16>, %t: memref<64x32xf16, #tile.layout<(64, 32) : (1, 64)>, #gpu.address_space<workgroup>>, %bar: !bars, %c0: index) {
  // expected-error @+1 {{no dispatch variant can lower this copy: [tma] elementwise: the shared stride-1 run of 64 elements has global stride 64; the TMA reads the innermost dimension contiguously}}
  tile.copy_async %t[0, 0] [64, 32], %g[0, 0] [64, 32] barrier(%bar[%c0]) {dispatch = "tma"}
      : memref<64x32xf16, #tile.layout<(64, 32) : (1, 64)>, #gpu.address_space<workgroup>>, memref<32x64xf16>, !bars
  return
}

// -----

// Every variant declines: a transposed max-reduce store (TMA reads and
// writes the innermost dimension contiguously; per-element atomics have no
// floating-point max).
func.func @none(%g: memref<64x32xf16>, %t: memref<64x32xf16, #tile.layout<(64, 32) : (1, 64)>, #gpu.address_space<workgroup>>) {
  // expected-error-re @+1 {{no dispatch variant can lower this copy: [tma] elementwise: {{.*}}; [simt] reduce-type: per-element atomics have no max for floating-point elements}}
  tile.copy_async %g[0, 0] [64, 32], %t[0, 0] [64, 32] {reduce = "max"}
      : memref<64x32xf16>, memref<64x32xf16, #tile.layout<(64, 32) : (1, 64)>, #gpu.address_space<workgroup>>
  return
}

// -----

// A TMA copy needs the tensor-map ABI pass first.
!bars = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
func.func @no_abi(%g: memref<8x64xf32>, %s: memref<8x64xf32, #gpu.address_space<workgroup>>, %bar: !bars, %c0: index) {
  // expected-error @+1 {{tma: this copy has no tensor-map kernel argument; run --tile-tensor-map-abi first}}
  tile.copy_async %s[0, 0] [8, 64], %g[0, 0] [8, 64] barrier(%bar[%c0])
      : memref<8x64xf32, #gpu.address_space<workgroup>>, memref<8x64xf32>, !bars
  return
}
