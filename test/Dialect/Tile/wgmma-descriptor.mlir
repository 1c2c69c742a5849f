// RUN: tile-opt %s | FileCheck %s
// RUN: tile-opt %s | tile-opt | FileCheck %s
// RUN: tile-opt %s --mlir-print-op-generic | tile-opt | FileCheck %s

!a = memref<128x64xbf16, #tile.layout<(128, 64) : (64, 1), swizzle = 128B>, #gpu.address_space<workgroup>>
!b64 = memref<128x64xf16, #tile.layout<(128, 2, 32) : (32, 4096, 1), swizzle = 64B>, #gpu.address_space<workgroup>>
!stages = memref<3x128x64xbf16, #tile.layout<(3, 128, 64) : (8192, 64, 1), swizzle = 128B>, #gpu.address_space<workgroup>>

// CHECK-LABEL: func.func @static_start
func.func @static_start(%buf: !a) -> (i64, i64) {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  // CHECK: tile.wgmma_descriptor %{{.*}}[%{{.*}}, %{{.*}}] {k = 16 : i64, rows = 64 : i64} : memref<128x64xbf16, #tile.layout<(128, 64), swizzle = 128B>, #gpu.address_space<workgroup>> -> i64
  %d0 = tile.wgmma_descriptor %buf[%c0, %c0] {rows = 64, k = 16} : !a -> i64
  // CHECK: tile.wgmma_descriptor %{{.*}}[%{{.*}}, %{{.*}}] {k = 16 : i64, rows = 64 : i64}
  %d1 = tile.wgmma_descriptor %buf[%c8, %c16] {rows = 64, k = 16} : !a -> i64
  return %d0, %d1 : i64, i64
}

// A k-loop over one stage: the column is a multiple of 16 at run time.
// CHECK-LABEL: func.func @dynamic_k
func.func @dynamic_k(%i: index, %kk: index) -> i64 {
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %all = tile.arena_view [0] : !stages
  %s = tile.stage %all[%i] : !stages -> !a
  %col = arith.muli %kk, %c16 : index
  // CHECK: tile.wgmma_descriptor %{{.*}}[%{{.*}}, %{{.*}}] {k = 16 : i64, rows = 64 : i64}
  %d = tile.wgmma_descriptor %s[%c64, %col] {rows = 64, k = 16} : !a -> i64
  return %d : i64
}

// A B operand with N = 128 in two 64B-swizzled K panels of 32 elements.
// CHECK-LABEL: func.func @swizzle64
func.func @swizzle64(%kk: index) -> i64 {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %b = tile.arena_view [1024] : !b64
  %col = arith.muli %kk, %c16 : index
  // CHECK: tile.wgmma_descriptor %{{.*}}[%{{.*}}, %{{.*}}] {k = 16 : i64, rows = 128 : i64} : memref<128x64xf16, #tile.layout<(128, 2, 32) : (32, 4096, 1), swizzle = 64B>, #gpu.address_space<workgroup>> -> i64
  %d = tile.wgmma_descriptor %b[%c0, %col] {rows = 128, k = 16} : !b64 -> i64
  return %d : i64
}
