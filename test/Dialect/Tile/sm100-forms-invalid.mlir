// RUN: tile-opt %s -split-input-file -verify-diagnostics

// The sm_100a forms of tile.copy_async: cta_group on loads, rows(...) for
// tile::gather4 / tile::scatter4, and the chip of the enclosing gpu.module.

!bars = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
!s = memref<4x64xf16, #tile.layout<(4, 64)>, #gpu.address_space<workgroup>>
func.func @cta_group_three(%g: memref<256x64xf16>, %s: !s, %bar: !bars, %c0: index) {
  // expected-error @+1 {{cta-group: cta_group is 1 or 2, not 3}}
  tile.copy_async %s[0, 0] [4, 64], %g[0, 0] [4, 64] barrier(%bar[%c0]) {cta_group = 3 : i32}
      : !s, memref<256x64xf16>, !bars
  return
}

// -----

!s = memref<4x64xf16, #tile.layout<(4, 64)>, #gpu.address_space<workgroup>>
func.func @cta_group_store(%g: memref<256x64xf16>, %s: !s) {
  // expected-error @+1 {{cta-group: cta_group applies to loads only; this copy is a store}}
  tile.copy_async %g[0, 0] [4, 64], %s[0, 0] [4, 64] {cta_group = 2 : i32}
      : memref<256x64xf16>, !s
  return
}

// -----

!s = memref<4x64xf16, #tile.layout<(4, 64)>, #gpu.address_space<workgroup>>
func.func @cta_group_prefetch(%g: memref<256x64xf16>, %s: !s) {
  // expected-error @+1 {{cta-group: a prefetch writes no shared memory of a CTA pair; it takes no cta_group}}
  tile.copy_async %s[0, 0] [4, 64], %g[0, 0] [4, 64] {cta_group = 2 : i32, prefetch}
      : !s, memref<256x64xf16>
  return
}

// -----

!bars = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
!s = memref<4x64xf16, #tile.layout<(4, 64)>, #gpu.address_space<workgroup>>
func.func @three_rows(%g: memref<256x64xf16>, %s: !s, %bar: !bars, %c0: index, %r: index) {
  // expected-error @+1 {{gather4: rows(...) names 4 rows, not 3}}
  tile.copy_async %s[0, 0] [4, 64], %g[0, 0] [4, 64] rows(%r, %r, %r) barrier(%bar[%c0])
      : !s, memref<256x64xf16>, !bars
  return
}

// -----

!bars = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
!s = memref<4x64xf16, #tile.layout<(4, 64)>, #gpu.address_space<workgroup>>
func.func @rows_of_3d(%g: memref<2x256x64xf16>, %s: !s, %bar: !bars, %c0: index, %r: index) {
  // expected-error @+1 {{gather4: tile::gather4 and tile::scatter4 address a 2D tensor; the global buffer has 3 dimensions}}
  tile.copy_async %s[0, 0] [4, 64], %g[0, 0, 0] [1, 4, 64] rows(%r, %r, %r, %r) barrier(%bar[%c0])
      : !s, memref<2x256x64xf16>, !bars
  return
}

// -----

!bars = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
!s = memref<4x64xf16, #tile.layout<(4, 64)>, #gpu.address_space<workgroup>>
func.func @rows_region_start(%g: memref<256x64xf16>, %s: !s, %bar: !bars, %c0: index, %r: index) {
  // expected-error @+1 {{gather4: the global region of a row gather is [0, col] [4, n] (its rows come from rows(...)); this one starts at row 8 and spans 4 rows}}
  tile.copy_async %s[0, 0] [4, 64], %g[8, 0] [4, 64] rows(%r, %r, %r, %r) barrier(%bar[%c0])
      : !s, memref<256x64xf16>, !bars
  return
}

// -----

!bars = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
!s = memref<2x128xf16, #tile.layout<(2, 128)>, #gpu.address_space<workgroup>>
func.func @rows_region_height(%g: memref<256x128xf16>, %s: !s, %bar: !bars, %c0: index, %r: index) {
  // expected-error @+1 {{gather4: the global region of a row gather is [0, col] [4, n] (its rows come from rows(...)); this one starts at row 0 and spans 2 rows}}
  tile.copy_async %s[0, 0] [2, 128], %g[0, 0] [2, 128] rows(%r, %r, %r, %r) barrier(%bar[%c0])
      : !s, memref<256x128xf16>, !bars
  return
}

// -----

!bars = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
!s = memref<4x64xf16, #tile.layout<(4, 64)>, #gpu.address_space<workgroup>>
func.func @rows_multicast(%g: memref<256x64xf16>, %s: !s, %bar: !bars, %c0: index, %r: index, %mask: i16) {
  // expected-error @+1 {{gather4: the four-row forms take no multicast}}
  tile.copy_async %s[0, 0] [4, 64], %g[0, 0] [4, 64] rows(%r, %r, %r, %r) barrier(%bar[%c0]) multicast(%mask)
      : !s, memref<256x64xf16>, !bars
  return
}

// -----

!s = memref<4x64xf32, #tile.layout<(4, 64)>, #gpu.address_space<workgroup>>
func.func @rows_reduce(%g: memref<256x64xf32>, %s: !s, %r: index) {
  // expected-error @+1 {{gather4: the four-row forms take no reduce}}
  tile.copy_async %g[0, 0] [4, 64], %s[0, 0] [4, 64] rows(%r, %r, %r, %r) {reduce = "add"}
      : memref<256x64xf32>, !s
  return
}

// -----

// On sm_90a (the chip the gpu.module's target names) neither form exists.

!bars = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
!s = memref<4x64xf16, #tile.layout<(4, 64)>, #gpu.address_space<workgroup>>
module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_90a", features = "+ptx80">] {
    gpu.func @cta_pair(%g: memref<256x64xf16>) kernel {
      %c0 = arith.constant 0 : index
      %bar = nvgpu.mbarrier.create -> !bars
      %s = tile.arena_view [0] : !s
      // expected-error @+1 {{sm100-form: cta_group = 2 needs chip sm_100a or sm_100f; the target chip of the gpu.module is sm_90a}}
      tile.copy_async %s[0, 0] [4, 64], %g[0, 0] [4, 64] barrier(%bar[%c0]) {cta_group = 2 : i32}
          : !s, memref<256x64xf16>, !bars
      gpu.return
    }
  }
}

// -----

!bars = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
!s = memref<4x64xf16, #tile.layout<(4, 64)>, #gpu.address_space<workgroup>>
module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_90a", features = "+ptx80">] {
    gpu.func @gather(%g: memref<256x64xf16>, %r0: index, %r1: index, %r2: index, %r3: index) kernel {
      %c0 = arith.constant 0 : index
      %bar = nvgpu.mbarrier.create -> !bars
      %s = tile.arena_view [0] : !s
      // expected-error @+1 {{sm100-form: tile::gather4 needs chip sm_100a or sm_100f; the target chip of the gpu.module is sm_90a}}
      tile.copy_async %s[0, 0] [4, 64], %g[0, 0] [4, 64] rows(%r0, %r1, %r2, %r3) barrier(%bar[%c0])
          : !s, memref<256x64xf16>, !bars
      gpu.return
    }
  }
}

// -----

!s = memref<4x64xf16, #tile.layout<(4, 64)>, #gpu.address_space<workgroup>>
module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_90a", features = "+ptx80">] {
    gpu.func @scatter(%g: memref<256x64xf16>, %r0: index, %r1: index, %r2: index, %r3: index) kernel {
      %s = tile.arena_view [0] : !s
      // expected-error @+1 {{sm100-form: tile::scatter4 needs chip sm_100a or sm_100f; the target chip of the gpu.module is sm_90a}}
      tile.copy_async %g[0, 0] [4, 64], %s[0, 0] [4, 64] rows(%r0, %r1, %r2, %r3)
          : memref<256x64xf16>, !s
      gpu.return
    }
  }
}
