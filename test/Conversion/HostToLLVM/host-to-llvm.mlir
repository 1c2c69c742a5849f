// RUN: tile-opt %s --convert-tile-host-to-llvm | FileCheck %s

// The host's functions, memref descriptors, control flow, arithmetic and
// launches become LLVM in one conversion; the kernel module is left exactly
// as it was (its arith, memref and gpu ops are the device pipeline's), which
// is what keeps the host lowering from walking every kernel.

// CHECK-LABEL: gpu.module @kernels
// CHECK: llvm.func @scale(%[[P:.*]]: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: i64, %{{.*}}: i64, %{{.*}}: i64, %[[S:.*]]: f32) attributes {gpu.kernel, nvvm.kernel}
// CHECK-NEXT: %[[TWO:.*]] = arith.constant 2.000000e+00 : f32
// CHECK-NEXT: %[[Y:.*]] = arith.mulf %[[S]], %[[TWO]] : f32
// CHECK-NEXT: llvm.store %[[Y]], %[[P]] : f32, !llvm.ptr
// CHECK-NEXT: llvm.return
module attributes {gpu.container_module} {
gpu.module @kernels [#nvvm.target<chip = "sm_90a">] {
  llvm.func @scale(%p: !llvm.ptr, %q: !llvm.ptr, %o: i64, %n: i64, %st: i64,
                   %s: f32) attributes {gpu.kernel, nvvm.kernel} {
    %two = arith.constant 2.0 : f32
    %y = arith.mulf %s, %two : f32
    llvm.store %y, %p : f32, !llvm.ptr
    llvm.return
  }
}

// CHECK-LABEL: llvm.func @host
// CHECK-SAME: (%{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: i64, %{{.*}}: i64, %{{.*}}: i64, %{{.*}}: f32, %{{.*}}: i1)
// CHECK: llvm.cond_br
// CHECK: %[[ONE:.*]] = llvm.mlir.constant(1 : index) : i64
// CHECK: %[[SIXTYFOUR:.*]] = llvm.mlir.constant(64 : index) : i64
// CHECK: gpu.launch_func  @kernels::@scale blocks in (%[[ONE]], %[[ONE]], %[[ONE]]) threads in (%[[SIXTYFOUR]], %[[ONE]], %[[ONE]]) : i64 args(%{{.*}} : !llvm.ptr, %{{.*}} : !llvm.ptr, %{{.*}} : i64, %{{.*}} : i64, %{{.*}} : i64, %{{.*}} : f32)
// CHECK: llvm.br
// CHECK: llvm.return
// CHECK-NOT: memref.
// CHECK-NOT: cf.
// CHECK-NOT: func.func
func.func @host(%b: memref<64xf32>, %s: f32, %go: i1) attributes {llvm.emit_c_interface} {
  cf.cond_br %go, ^launch, ^done
^launch:
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  gpu.launch_func @kernels::@scale blocks in (%c1, %c1, %c1)
      threads in (%c64, %c1, %c1) args(%b : memref<64xf32>, %s : f32)
  cf.br ^done
^done:
  return
}
}
// The C interface wrapper comes from the func patterns, as with
// convert-func-to-llvm.
// CHECK-LABEL: llvm.func @_mlir_ciface_host
