// RUN: tile-opt %s -split-input-file --pass-pipeline='builtin.module(gpu.module(tile-lower-views))' | FileCheck %s
// RUN: tile-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(tile-lower-views))' | FileCheck %s --check-prefix=HOST

// A kernel module holding a view: expand-strided-metadata makes it a
// reinterpret cast of the buffer's base, and lower-affine turns the offset
// arithmetic it leaves into arith.
// CHECK-LABEL: gpu.module @views
// CHECK: memref.extract_strided_metadata
// CHECK: memref.reinterpret_cast
// CHECK-NOT: memref.subview
// CHECK-NOT: affine.
gpu.module @views {
  gpu.func @k(%a: memref<64x64xf16>, %i: index) kernel {
    %v = memref.subview %a[%i, 0] [8, 64] [1, 1]
        : memref<64x64xf16> to memref<8x64xf16, strided<[64, 1], offset: ?>>
    %c0 = arith.constant 0 : index
    %x = memref.load %v[%c0, %c0] : memref<8x64xf16, strided<[64, 1], offset: ?>>
    memref.store %x, %a[%c0, %c0] : memref<64x64xf16>
    gpu.return
  }
}

// -----

// An affine op alone is work too.
// CHECK-LABEL: gpu.module @affine
// CHECK: arith.muli
// CHECK-NOT: affine.
gpu.module @affine {
  gpu.func @k(%a: memref<64xf16>, %i: index) kernel {
    %j = affine.apply affine_map<(d0) -> (d0 * 2)>(%i)
    %x = memref.load %a[%j] : memref<64xf16>
    memref.store %x, %a[%i] : memref<64xf16>
    gpu.return
  }
}

// -----

// Nothing to do: the module is left exactly as it was. (The two passes'
// drivers would have folded the constant addition and erased the unused
// constant.)
// CHECK-LABEL: gpu.module @plain
// CHECK: %[[C1:.*]] = arith.constant 1 : index
// CHECK: %[[UNUSED:.*]] = arith.constant 7 : index
// CHECK: %[[SUM:.*]] = arith.addi %[[C1]], %[[C1]] : index
// CHECK: memref.load %{{.*}}[%[[SUM]]]
gpu.module @plain {
  gpu.func @k(%a: memref<64xf16>) kernel {
    %c1 = arith.constant 1 : index
    %unused = arith.constant 7 : index
    %s = arith.addi %c1, %c1 : index
    %x = memref.load %a[%s] : memref<64xf16>
    memref.store %x, %a[%c1] : memref<64xf16>
    gpu.return
  }
}

// -----

// On host functions as well.
// HOST-LABEL: func.func @host_view
// HOST: memref.reinterpret_cast
// HOST-LABEL: func.func @host_plain
// HOST: arith.constant 7 : index
func.func @host_view(%a: memref<64x64xf16>) -> memref<8x64xf16, strided<[64, 1]>> {
  %v = memref.subview %a[0, 0] [8, 64] [1, 1]
      : memref<64x64xf16> to memref<8x64xf16, strided<[64, 1]>>
  return %v : memref<8x64xf16, strided<[64, 1]>>
}
func.func @host_plain() -> index {
  %unused = arith.constant 7 : index
  %c1 = arith.constant 1 : index
  return %c1 : index
}
