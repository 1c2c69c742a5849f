// RUN: tile-opt %s | tile-opt | FileCheck %s
// RUN: tile-opt %s --mlir-print-op-generic | tile-opt | FileCheck %s

// The register-fragment ops round-trip: an f32 accumulator (m64n32: 16 f32
// per thread) gives the A fragments of its two k16 steps, which feed a
// wgmma with A in registers and an MN-major B, also guarded (`if %issue`),
// and one that starts from zero (`zero_init`).

!acc32 = !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
!acc16 = !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>
!v = memref<32x64xbf16, #tile.layout<(32, 64) : (64, 1), swizzle = 128B>, #gpu.address_space<workgroup>>

// CHECK-LABEL: func.func @fragments
// CHECK: %[[P0:.*]] = tile.wgmma_a_fragment %{{.*}}[0] : !llvm.struct<({{(f32, )+}}f32)> -> vector<8xbf16>
// CHECK: %[[P1:.*]] = tile.wgmma_a_fragment %{{.*}}[1] : !llvm.struct<({{(f32, )+}}f32)> -> vector<8xf16>
// CHECK: %[[D:.*]] = tile.wgmma_descriptor %{{.*}}[%{{.*}}, %{{.*}}] {k = 16 : i64, major = #tile.wgmma_major<mn>, rows = 16 : i64}
// CHECK: tile.wgmma_register_a %[[P0]], %[[D]], %{{.*}} {b_major = #tile.wgmma_major<mn>} : vector<8xbf16>, !llvm.struct<({{(f32, )+}}f32)>
// CHECK: tile.wgmma_register_a %[[P0]], %{{.*}}, %{{.*}} : vector<8xbf16>, !llvm.struct<({{(f32, )+}}f32)>
// CHECK: tile.wgmma_register_a %[[P0]], %[[D]], %{{.*}} if %{{.*}} {b_major = #tile.wgmma_major<mn>} : vector<8xbf16>, !llvm.struct<({{(f32, )+}}f32)>
// CHECK: tile.wgmma_register_a %[[P0]], %{{.*}}, %{{.*}} {zero_init} : vector<8xbf16>, !llvm.struct<({{(f32, )+}}f32)>
// CHECK: tile.wgmma_fence_operand %[[P0]] : vector<8xbf16>
func.func @fragments(%s: !acc32, %o: !acc16, %db: i64, %issue: i1) -> (vector<8xf16>, !acc16, !acc16, !acc16, !acc16) {
  %c0 = arith.constant 0 : index
  %p0 = tile.wgmma_a_fragment %s[0] : !acc32 -> vector<8xbf16>
  %p1 = tile.wgmma_a_fragment %s[1] : !acc32 -> vector<8xf16>
  %buf = tile.arena_view [0] : !v
  %dv = tile.wgmma_descriptor %buf[%c0, %c0] {rows = 16, k = 16, major = #tile.wgmma_major<mn>} : !v -> i64
  %o1 = tile.wgmma_register_a %p0, %dv, %o {b_major = #tile.wgmma_major<mn>} : vector<8xbf16>, !acc16
  %o2 = tile.wgmma_register_a %p0, %db, %o : vector<8xbf16>, !acc16
  %o3 = tile.wgmma_register_a %p0, %dv, %o if %issue {b_major = #tile.wgmma_major<mn>} : vector<8xbf16>, !acc16
  %o4 = tile.wgmma_register_a %p0, %db, %o {zero_init} : vector<8xbf16>, !acc16
  %h = tile.wgmma_fence_operand %p0 : vector<8xbf16>
  return %p1, %o1, %o2, %o3, %o4 : vector<8xf16>, !acc16, !acc16, !acc16, !acc16
}
