// RUN: tile-opt %s --convert-tile-to-nvvm | FileCheck %s

// gpu.dynamic_shared_memory is the start of the kernel's arena: the external,
// 1024-byte aligned shared global tile.arena_view points into (upstream's own
// lowering makes a zero-size internal global, which ptxas may place on top of
// another static shared variable, 16-byte aligned). Both ops see the same
// address; the descriptor's pointers are the arena's, offset 0, size 0,
// stride 1.

// CHECK: llvm.mlir.global external @__tile_arena() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<0 x i8>
// CHECK-LABEL: gpu.func @dynamic
// CHECK: %[[BASE:.*]] = llvm.mlir.addressof @__tile_arena : !llvm.ptr<3>
// CHECK: %[[D0:.*]] = llvm.mlir.poison : !llvm.struct<(ptr<3>, ptr<3>, i64, array<1 x i64>, array<1 x i64>)>
// CHECK: %[[D1:.*]] = llvm.insertvalue %[[BASE]], %[[D0]][0]
// CHECK: %[[D2:.*]] = llvm.insertvalue %[[BASE]], %[[D1]][1]
// CHECK: %[[ZERO:.*]] = llvm.mlir.constant(0 : index) : i64
// CHECK: llvm.insertvalue %[[ZERO]], %[[D2]][2]
// CHECK: %[[ARENA:.*]] = llvm.mlir.addressof @__tile_arena : !llvm.ptr<3>
// CHECK-NOT: __dynamic_shmem
!bytes = memref<?xi8, #gpu.address_space<workgroup>>
!tile = memref<64x64xf16, #gpu.address_space<workgroup>>
gpu.module @kernels {
  gpu.func @dynamic(%out: memref<2xf16>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %smem = gpu.dynamic_shared_memory : !bytes
    %a = memref.view %smem[%c0][] : !bytes to !tile
    %b = tile.arena_view [0] : !tile
    %x = memref.load %a[%c0, %c0] : !tile
    %y = memref.load %b[%c0, %c1] : !tile
    memref.store %x, %out[%c0] : memref<2xf16>
    memref.store %y, %out[%c1] : memref<2xf16>
    gpu.return
  }
}
