// RUN: tile-opt %s --tile-report-copy-plans -o /dev/null | FileCheck %s
// RUN: tile-opt %s --tile-report-copy-plans=output=%t.jsonl -o /dev/null
// RUN: FileCheck %s < %t.jsonl
// RUN: tile-opt %s --tile-report-copy-plans -o /dev/null | count 6

// One JSON object per tile.copy_async, in program order.

!bars = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 4>
!ref = memref<8x256xf16, #tile.layout<(8, 4, 64) : (64, 512, 1), swizzle = 128B>, #gpu.address_space<workgroup>>

func.func @plans(%A: memref<8x256xf16>, %s: !ref, %bar: !bars,
                 %t: memref<64x32xf16, #tile.layout<(64, 32) : (1, 64)>, #gpu.address_space<workgroup>>,
                 %G: memref<32x64xf16>, %I: memref<8x64xi32>,
                 %si: memref<8x64xi32, #gpu.address_space<workgroup>>) {
  %c0 = arith.constant 0 : index
  // The reference demo.
  // CHECK: {"loc":"{{.*}}report-copy-plans.mlir:[[@LINE+1]]:3","op":"tile.copy_async","direction":"g2s","selected":"tma","declined":[],"tensor_map":{"data_type":"f16","rank":3,"global_dim":[64,8,4],"global_strides":[512,128],"box_dim":[64,8,4],"element_strides":[1,1,1],"interleave":0,"swizzle":3,"l2_promotion":2,"oob_fill":0,"base_offset_bytes":0},"issues":[{"smem_byte_offset":0,"coords":[0,0,0]}],"guards":[],"bytes":4096}
  tile.copy_async %s[0, 0] [8, 256], %A[0, 0] [8, 256] barrier(%bar[%c0]) : !ref, memref<8x256xf16>, !bars

  // The store back to global.
  // CHECK-NEXT: {"loc":"{{.*}}:[[@LINE+1]]:3","op":"tile.copy_async","direction":"s2g","selected":"tma","declined":[],"tensor_map":{"data_type":"f16","rank":3,{{.*}}"swizzle":3,{{.*}}},"issues":[{"smem_byte_offset":0,"coords":[0,0,0]}],"guards":[],"bytes":4096}
  tile.copy_async %A[0, 0] [8, 256], %s[0, 0] [8, 256] : memref<8x256xf16>, !ref

  // A transposed shared layout: TMA declines, the simt variant takes it.
  // CHECK-NEXT: {"loc":"{{.*}}:[[@LINE+1]]:3","op":"tile.copy_async","direction":"g2s","selected":"simt","declined":[{"variant":"tma","reason":"elementwise: {{.*}}","rule":"elementwise"}],"bytes":4096}
  tile.copy_async %t[0, 0] [64, 32], %G[0, 0] [64, 32] barrier(%bar[%c0])
      : memref<64x32xf16, #tile.layout<(64, 32) : (1, 64)>, #gpu.address_space<workgroup>>, memref<32x64xf16>, !bars

  // NaN fill on an integer type is rejected by the verifier; a plain integer
  // load with dispatch = "simt" skips the TMA variant.
  // CHECK-NEXT: {"loc":"{{.*}}:[[@LINE+1]]:3","op":"tile.copy_async","direction":"g2s","selected":"simt","declined":[],"bytes":2048}
  tile.copy_async %si[0, 0] [8, 64], %I[0, 0] [8, 64] barrier(%bar[%c0]) {dispatch = "simt"}
      : memref<8x64xi32, #gpu.address_space<workgroup>>, memref<8x64xi32>, !bars

  // A partial region at a non-zero offset, leaving the tensor (zero fill).
  // CHECK-NEXT: {"loc":"{{.*}}:[[@LINE+1]]:3","op":"tile.copy_async","direction":"g2s","selected":"tma",{{.*}}"bytes":1024}
  tile.copy_async %si[0, 0] [4, 64], %I[6, 32] [4, 64] barrier(%bar[%c0])
      : memref<8x64xi32, #gpu.address_space<workgroup>>, memref<8x64xi32>, !bars

  // A reduce-add store.
  // CHECK-NEXT: {"loc":"{{.*}}:[[@LINE+1]]:3","op":"tile.copy_async","direction":"s2g","selected":"tma",{{.*}}"data_type":"i32"{{.*}}"bytes":2048}
  tile.copy_async %I[0, 0] [8, 64], %si[0, 0] [8, 64] {reduce = "add"}
      : memref<8x64xi32>, memref<8x64xi32, #gpu.address_space<workgroup>>
  return
}
