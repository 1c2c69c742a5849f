// memref.load/store and vector.load/store of #tile.layout buffers lower to
// the layout's addresses: the indices over the shards, the byte offset
// swizzled (bits [4, 7) XOR bits [7, 10) for 128B). A vector access whose
// innermost index is a known multiple of its width, in a layout that keeps
// the elements adjacent, is one aligned access; others go element by element.
// RUN: tile-opt %s --convert-tile-to-nvvm --canonicalize --cse | FileCheck %s

// CHECK-LABEL: gpu.func @accesses
// CHECK-DAG: %[[ARENA:.*]] = llvm.mlir.addressof @__tile_arena : !llvm.ptr<3>
// CHECK-DAG: %[[I:.*]] = builtin.unrealized_conversion_cast %arg2 : index to i64
// CHECK-DAG: %[[J:.*]] = builtin.unrealized_conversion_cast %arg3 : index to i64
// CHECK-DAG: %[[U:.*]] = llvm.getelementptr %[[ARENA]][1024]
// The load of element (i, j) of the swizzled tile: byte 2 (64 i + j), then
// its 16-byte chunk XOR its 128-byte row.
// CHECK: %[[ROW:.*]] = arith.muli %[[I]], %c64_i64 : i64
// CHECK-NEXT: %[[E:.*]] = arith.addi %[[ROW]], %[[J]] : i64
// CHECK-NEXT: %[[B:.*]] = arith.muli %[[E]], %c2_i64 : i64
// CHECK-NEXT: %[[R:.*]] = arith.shrui %[[B]], %c7_i64 : i64
// CHECK-NEXT: %[[R7:.*]] = arith.andi %[[R]], %c7_i64 : i64
// CHECK-NEXT: %[[X:.*]] = arith.shli %[[R7]], %c4_i64 : i64
// CHECK-NEXT: %[[SW:.*]] = arith.xori %[[B]], %[[X]] : i64
// CHECK-NEXT: %[[P:.*]] = llvm.getelementptr %[[ARENA]][%[[SW]]]
// CHECK-NEXT: %[[V:.*]] = llvm.load %[[P]] {alignment = 2 : i64} : !llvm.ptr<3> -> bf16
// CHECK: arith.xori
// CHECK: llvm.store %[[V]], %{{.*}} {alignment = 2 : i64} : bf16, !llvm.ptr<3>
// The padded tile at index 2j (a known multiple of 2): one 4-byte store.
// CHECK: %[[PROW:.*]] = arith.muli %[[I]], %c72_i64 : i64
// CHECK: %[[Q:.*]] = llvm.getelementptr %[[U]][%{{.*}}]
// CHECK-NEXT: llvm.store %arg1, %[[Q]] {alignment = 4 : i64} : vector<2xbf16>, !llvm.ptr<3>
// At index j (parity unknown): element by element.
// CHECK: llvm.extractelement %arg1
// CHECK: llvm.store %{{.*}} {alignment = 2 : i64} : bf16, !llvm.ptr<3>
// CHECK: llvm.extractelement %arg1
// CHECK: llvm.store %{{.*}} {alignment = 2 : i64} : bf16, !llvm.ptr<3>
// CHECK: llvm.load %[[Q]] {alignment = 4 : i64} : !llvm.ptr<3> -> vector<2xbf16>
// CHECK-NOT: memref.load
// CHECK-NOT: memref.store
!T = memref<8x64xbf16, #tile.layout<(8, 64) : (64, 1), swizzle = 128B>, #gpu.address_space<workgroup>>
!U = memref<8x64xbf16, #tile.layout<(8, 64) : (72, 1)>, #gpu.address_space<workgroup>>
gpu.module @k {
  gpu.func @accesses(%out: memref<8xbf16>, %v: vector<2xbf16>, %i: index, %j: index) kernel {
    %t = tile.arena_view [0] : !T
    %u = tile.arena_view [1024] : !U
    %c2 = arith.constant 2 : index
    %jj = arith.muli %j, %c2 : index
    %x = memref.load %t[%i, %j] : !T
    memref.store %x, %t[%i, %jj] : !T
    vector.store %v, %u[%i, %jj] : !U, vector<2xbf16>
    vector.store %v, %u[%i, %j] : !U, vector<2xbf16>
    %w = vector.load %u[%i, %jj] : !U, vector<2xbf16>
    vector.store %w, %out[%i] : memref<8xbf16>, vector<2xbf16>
    gpu.return
  }
}
