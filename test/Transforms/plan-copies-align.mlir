// RUN: tile-opt %s --tile-plan-copies | FileCheck %s

// A TMA plan assumes a shared buffer that is not an arena view starts on a
// 1024-byte boundary; tile-plan-copies makes the declarations say so: the
// kernel's workgroup buffer gets llvm.align = 1024, the workgroup
// memref.global alignment = 1024 (from 16). An element-wise copy changes
// nothing (the `other` global keeps its alignment).

!bars = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
!S = memref<8x64xf16, #gpu.address_space<workgroup>>

// CHECK-LABEL: gpu.module @kernels
// CHECK-DAG: memref.global "private" @staged : memref<8x64xf16, #gpu.address_space<workgroup>> {alignment = 1024 : i64}
// CHECK-DAG: memref.global "private" @other : memref<8x64xf16, #gpu.address_space<workgroup>> {alignment = 16 : i64}
// CHECK: gpu.func @f({{.*}}) workgroup(%{{.*}} : memref<8x64xf16, #gpu.address_space<workgroup>> {llvm.align = 1024 : i64}) kernel
gpu.module @kernels {
  memref.global "private" @staged : !S {alignment = 16}
  memref.global "private" @other : !S {alignment = 16}
  gpu.func @f(%A: memref<8x64xf16>) workgroup(%W : !S) kernel {
    %c0 = arith.constant 0 : index
    %bar = nvgpu.mbarrier.create -> !bars
    tile.copy_async %W[0, 0] [8, 64], %A[0, 0] [8, 64] barrier(%bar[%c0])
        : !S, memref<8x64xf16>, !bars
    %g = memref.get_global @staged : !S
    tile.copy_async %g[0, 0] [8, 64], %A[0, 0] [8, 64] barrier(%bar[%c0])
        : !S, memref<8x64xf16>, !bars
    %o = memref.get_global @other : !S
    tile.copy_async %o[0, 0] [8, 64], %A[0, 0] [8, 64] barrier(%bar[%c0]) {dispatch = "simt"}
        : !S, memref<8x64xf16>, !bars
    gpu.return
  }
}
