// RUN: tile-opt %s --tile-plan-copies --convert-tile-to-nvvm | FileCheck %s
// RUN: tile-opt %s --tile-plan-copies | FileCheck %s --check-prefix=RECORD
// RUN: tile-opt %s --tile-plan-copies --tile-check-recorded-plans -o /dev/null

// The 128x64 bf16 A tile with the 128B swizzle: rows of 128 B, 8-row atoms
// 1024 B apart. Fields: LBO 16 B (1 << 16), SBO 1024 B (64 << 32), swizzle
// mode 1 (1 << 62): 0x4000004000010000 = 4611686293305360384.

// tile-plan-copies records the fields that are constants of the layout; the
// conversion reads them back.
// RECORD-LABEL: func.func @static_start
// RECORD: tile.wgmma_descriptor {{.*}}{k = 16 : i64, rows = 64 : i64, tile.wgmma_plan = #tile.wgmma_plan<lbo = 16, sbo = 1024, base_offset = 0, swizzle = "128B">}

!a = memref<128x64xbf16, #tile.layout<(128, 64) : (64, 1), swizzle = 128B>, #gpu.address_space<workgroup>>
!b64 = memref<128x64xf16, #tile.layout<(128, 2, 32) : (32, 4096, 1), swizzle = 64B>, #gpu.address_space<workgroup>>

// CHECK-LABEL: func.func @static_start
// CHECK: %[[ARENA:.*]] = llvm.mlir.addressof @__tile_arena : !llvm.ptr<3>
// Row 0, column 0: the buffer's address.
// CHECK: %[[A0:.*]] = llvm.ptrtoint %[[ARENA]] : !llvm.ptr<3> to i64
// CHECK: %[[C4:.*]] = arith.constant 4 : i64
// CHECK: %[[S0:.*]] = arith.shrui %[[A0]], %[[C4]] : i64
// CHECK: %[[M0:.*]] = arith.constant 16383 : i64
// CHECK: %[[F0:.*]] = arith.andi %[[S0]], %[[M0]] : i64
// CHECK: %[[H0:.*]] = arith.constant 4611686293305360384 : i64
// CHECK: %[[D0:.*]] = arith.ori %[[F0]], %[[H0]] : i64
// Row 8, column 16: 8 x 128 B + 16 x 2 B = 1056 B.
// CHECK: %[[P1:.*]] = llvm.ptrtoint %[[ARENA]] : !llvm.ptr<3> to i64
// CHECK: %[[O1:.*]] = arith.constant 1056 : i64
// CHECK: %[[A1:.*]] = arith.addi %[[P1]], %[[O1]] : i64
// CHECK: %[[S1:.*]] = arith.shrui %[[A1]], %{{.*}} : i64
// CHECK: %[[F1:.*]] = arith.andi %[[S1]], %{{.*}} : i64
// CHECK: %[[H1:.*]] = arith.constant 4611686293305360384 : i64
// CHECK: %[[D1:.*]] = arith.ori %[[F1]], %[[H1]] : i64
// CHECK: return %[[D0]], %[[D1]] : i64, i64
func.func @static_start() -> (i64, i64) {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %buf = tile.arena_view [0] : !a
  %d0 = tile.wgmma_descriptor %buf[%c0, %c0] {rows = 64, k = 16} : !a -> i64
  %d1 = tile.wgmma_descriptor %buf[%c8, %c16] {rows = 64, k = 16} : !a -> i64
  return %d0, %d1 : i64, i64
}

// A run-time column over two 64B-swizzled K panels of 32 elements (4096
// elements, 8 KiB apart): column c is at ((c % 32) + (c / 32) x 4096) x 2 B,
// unswizzled. Fields: LBO 16 B, SBO 512 B (32 << 32), swizzle mode 2
// (2 << 62): 0x8000002000010000 = -9223371899415756800 as i64.
// CHECK-LABEL: func.func @dynamic_column
// CHECK: %[[BASE:.*]] = llvm.getelementptr %{{.*}}[%{{.*}}] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, i8
// CHECK: %[[COL:.*]] = arith.index_castui %{{.*}} : index to i64
// CHECK-NEXT: %[[C32:.*]] = arith.constant 32 : i64
// CHECK-NEXT: %[[IN:.*]] = arith.remui %[[COL]], %[[C32]] : i64
// CHECK-NEXT: %[[C32B:.*]] = arith.constant 32 : i64
// CHECK-NEXT: %[[PANEL:.*]] = arith.divui %[[COL]], %[[C32B]] : i64
// CHECK-NEXT: %[[C4096:.*]] = arith.constant 4096 : i64
// CHECK-NEXT: %[[PANELE:.*]] = arith.muli %[[PANEL]], %[[C4096]] : i64
// CHECK-NEXT: %[[E:.*]] = arith.addi %[[IN]], %[[PANELE]] : i64
// CHECK-NEXT: %[[C2:.*]] = arith.constant 2 : i64
// CHECK-NEXT: %[[OFF:.*]] = arith.muli %[[E]], %[[C2]] : i64
// CHECK-NEXT: %[[P:.*]] = llvm.ptrtoint %[[BASE]] : !llvm.ptr<3> to i64
// CHECK-NEXT: %[[ADDR:.*]] = arith.addi %[[P]], %[[OFF]] : i64
// CHECK: %[[S:.*]] = arith.shrui %[[ADDR]], %{{.*}} : i64
// CHECK: %[[F:.*]] = arith.andi %[[S]], %{{.*}} : i64
// CHECK: %[[H:.*]] = arith.constant -9223371899415756800 : i64
// CHECK: arith.ori %[[F]], %[[H]] : i64
func.func @dynamic_column(%kk: index) -> i64 {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %b = tile.arena_view [16384] : !b64
  %col = arith.muli %kk, %c16 : index
  %d = tile.wgmma_descriptor %b[%c0, %col] {rows = 128, k = 16} : !b64 -> i64
  return %d : i64
}
