// tile.wgmma_store_fragment: one stmatrix.x4 of the warp, the fragment's
// four 32-bit registers in order; lane l addresses row l % 16 (row l % 8 of
// matrix l / 8) and column 8 (l / 16) of the 16 x 16 block at [%row, 16],
// through the buffer's 128-byte swizzle (the layout's address, as for
// memref.store).
// RUN: tile-opt %s --convert-tile-to-nvvm --canonicalize --cse | FileCheck %s

// CHECK-LABEL: gpu.func @store_fragment
// CHECK-DAG: %[[C1:.*]] = llvm.mlir.constant(1 : i64) : i64
// CHECK-DAG: %[[C16:.*]] = llvm.mlir.constant(16 : i64) : i64
// CHECK-DAG: %[[C15:.*]] = llvm.mlir.constant(15 : i64) : i64
// CHECK-DAG: %[[ARENA:.*]] = llvm.mlir.addressof @__tile_arena : !llvm.ptr<3>
// CHECK-DAG: %[[ROW:.*]] = builtin.unrealized_conversion_cast %arg1 : index to i64
// CHECK-DAG: %[[COL:.*]] = builtin.unrealized_conversion_cast %c16 : index to i64
// CHECK: %[[LANE32:.*]] = nvvm.read.ptx.sreg.laneid : i32
// CHECK: %[[LANE:.*]] = llvm.zext %[[LANE32]] : i32 to i64
// CHECK: %[[RIB:.*]] = llvm.and %[[LANE]], %[[C15]] : i64
// CHECK: %[[HALF:.*]] = llvm.and %[[LANE]], %[[C16]] : i64
// CHECK: %[[CIB:.*]] = llvm.lshr %[[HALF]], %[[C1]] : i64
// CHECK: %[[R:.*]] = llvm.add %[[ROW]], %[[RIB]] : i64
// CHECK: %[[C:.*]] = llvm.add %[[COL]], %[[CIB]] : i64
// Byte 2 (64 r + c), its 16-byte chunk XOR its 128-byte row.
// CHECK: %[[RB:.*]] = arith.muli %[[R]], %c64_i64 : i64
// CHECK-NEXT: %[[E:.*]] = arith.addi %[[RB]], %[[C]] : i64
// CHECK-NEXT: %[[B:.*]] = arith.muli %[[E]], %c2_i64 : i64
// CHECK-NEXT: %[[SR:.*]] = arith.shrui %[[B]], %c7_i64 : i64
// CHECK-NEXT: %[[S7:.*]] = arith.andi %[[SR]], %c7_i64 : i64
// CHECK-NEXT: %[[X:.*]] = arith.shli %[[S7]], %c4_i64 : i64
// CHECK-NEXT: %[[SW:.*]] = arith.xori %[[B]], %[[X]] : i64
// CHECK-NEXT: %[[ADDR:.*]] = llvm.getelementptr %[[ARENA]][%[[SW]]]
// CHECK: %[[REGS:.*]] = llvm.bitcast %arg0 : vector<8xbf16> to vector<4xi32>
// CHECK: %[[R0:.*]] = llvm.extractelement %[[REGS]][%{{.*}} : i32] : vector<4xi32>
// CHECK: %[[R1:.*]] = llvm.extractelement %[[REGS]][%{{.*}} : i32] : vector<4xi32>
// CHECK: %[[R2:.*]] = llvm.extractelement %[[REGS]][%{{.*}} : i32] : vector<4xi32>
// CHECK: %[[R3:.*]] = llvm.extractelement %[[REGS]][%{{.*}} : i32] : vector<4xi32>
// CHECK: nvvm.stmatrix %[[ADDR]], %[[R0]], %[[R1]], %[[R2]], %[[R3]] {eltType = #nvvm.ld_st_matrix_elt_type<b16>, layout = #nvvm.mma_layout<row>, shape = #nvvm.ld_st_matrix_shape<m = 8, n = 8>}
// CHECK-NOT: tile.wgmma_store_fragment
!T = memref<128x64xbf16, #tile.layout<(128, 64) : (64, 1), swizzle = 128B>, #gpu.address_space<workgroup>>
gpu.module @k {
  gpu.func @store_fragment(%f: vector<8xbf16>, %row: index) kernel {
    %t = tile.arena_view [0] : !T
    %c16 = arith.constant 16 : index
    tile.wgmma_store_fragment %f, %t[%row, %c16] : vector<8xbf16>, !T
    gpu.return
  }
}
