// RUN: tile-opt %s --tile-check-host-arguments | FileCheck %s

// Static sizes, strides and offset are compared in that order, each failing
// into a report and a return; dynamic fields and the stride of a dimension
// of size 1 are not checked; the scalar argument has nothing to check.
// CHECK-DAG: llvm.mlir.global private constant @[[FN:__tile_str_[0-9a-f]+]]("@host\00")
// CHECK-DAG: llvm.mlir.global private constant @[[TY:__tile_str_[0-9a-f]+]]("memref<1x?x64xf32, strided<[4096, 128, 1], offset: ?>>\00")
// CHECK-DAG: llvm.mlir.global private constant @[[S0:__tile_str_[0-9a-f]+]]("size 0\00")
// CHECK-DAG: llvm.mlir.global private constant @[[S2:__tile_str_[0-9a-f]+]]("size 2\00")
// CHECK-DAG: llvm.mlir.global private constant @[[T1:__tile_str_[0-9a-f]+]]("stride 1\00")
// CHECK-DAG: llvm.mlir.global private constant @[[T2:__tile_str_[0-9a-f]+]]("stride 2\00")
// CHECK-DAG: func.func private @tileRuntimeCheckArgument(!llvm.ptr, i32, !llvm.ptr, !llvm.ptr, i64, i64) -> i32
// CHECK-LABEL: func.func @host(
// CHECK-SAME: %[[A:.*]]: memref<1x?x64xf32, strided<[4096, 128, 1], offset: ?>>, %{{.*}}: index)
// CHECK: %[[D:.*]] = builtin.unrealized_conversion_cast %[[A]] : memref<1x?x64xf32, strided<[4096, 128, 1], offset: ?>> to !llvm.struct<(ptr, ptr, i64, array<3 x i64>, array<3 x i64>)>
// CHECK: %[[V0:.*]] = llvm.extractvalue %[[D]][3, 0]
// CHECK: %[[E0:.*]] = llvm.mlir.constant(1 : i64) : i64
// CHECK: %[[NE0:.*]] = llvm.icmp "ne" %[[V0]], %[[E0]] : i64
// CHECK: cf.cond_br %[[NE0]], ^[[R0:.*]], ^[[N0:.*]]
// CHECK: ^[[R0]]:
// CHECK: %[[I0:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK: llvm.mlir.addressof @[[FN]]
// CHECK: llvm.mlir.addressof @[[TY]]
// CHECK: llvm.mlir.addressof @[[S0]]
// CHECK: call @tileRuntimeCheckArgument({{.*}}, %[[I0]], {{.*}}, {{.*}}, %[[E0]], %[[V0]])
// CHECK-NEXT: return
// CHECK: ^[[N0]]:
// CHECK-NEXT: llvm.extractvalue %[[D]][3, 2]
// CHECK: llvm.mlir.constant(64 : i64)
// CHECK: llvm.mlir.addressof @[[S2]]
// CHECK: ^{{.*}}:
// CHECK-NEXT: llvm.extractvalue %[[D]][4, 1]
// CHECK: llvm.mlir.constant(128 : i64)
// CHECK: llvm.mlir.addressof @[[T1]]
// CHECK: ^{{.*}}:
// CHECK-NEXT: llvm.extractvalue %[[D]][4, 2]
// CHECK: llvm.mlir.constant(1 : i64)
// CHECK: llvm.mlir.addressof @[[T2]]
// CHECK: ^[[LAST:.*]]:
// CHECK-NEXT: cf.br ^[[BODY:.*]]
// CHECK: ^[[BODY]]:
// CHECK: gpu.launch_func @k::@k
// CHECK-NOT: extractvalue %[[D]][4, 0]
// CHECK-NOT: extractvalue %[[D]][2]
// CHECK-LABEL: func.func @no_launch(
// CHECK-NEXT: return
// CHECK-LABEL: func.func @with_result(
// CHECK-NEXT: %{{.*}} = arith.constant
// CHECK-LABEL: func.func private @internal(
// CHECK-NEXT: arith.constant
module attributes {gpu.container_module} {
  func.func @host(%A: memref<1x?x64xf32, strided<[4096, 128, 1], offset: ?>>, %n: index) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @k::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
        args(%A : memref<1x?x64xf32, strided<[4096, 128, 1], offset: ?>>)
    return
  }
  // Launches nothing: its arguments reach no kernel.
  func.func @no_launch(%A: memref<8x256xf16>) {
    return
  }
  // Functions with results are not checked (there is nothing to return).
  func.func @with_result(%A: memref<8xf32>) -> index {
    %c1 = arith.constant 1 : index
    gpu.launch_func @k::@k8 blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
        args(%A : memref<8xf32>)
    return %c1 : index
  }
  // Private functions are called from checked entries, not by users.
  func.func private @internal(%A: memref<8xf32>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @k::@k8 blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
        args(%A : memref<8xf32>)
    return
  }
  gpu.module @k {
    gpu.func @k(%A: memref<1x?x64xf32, strided<[4096, 128, 1], offset: ?>>) kernel {
      gpu.return
    }
    gpu.func @k8(%A: memref<8xf32>) kernel {
      gpu.return
    }
  }
}

