// RUN: tile-opt %s --tile-report-copy-plans -o /dev/null | FileCheck %s

// The report line of each sm_100a form: "cta_group" and "mode" appear only
// on the copies that use them; only tma issues them, so a four-row copy the
// planner declines has no variant.

!bars = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
!pair = memref<8x256xf16, #tile.layout<(8, 4, 64) : (64, 512, 1), swizzle = 128B>, #gpu.address_space<workgroup>>
!rows = memref<4x64xf16, #tile.layout<(4, 64), swizzle = 128B>, #gpu.address_space<workgroup>>
!wide = memref<4x32xf16, #tile.layout<(4, 32) : (64, 1)>, #gpu.address_space<workgroup>>

func.func @forms(%g: memref<16x256xf16>, %t: memref<1024x64xf16>, %p: !pair, %s: !rows, %w: !wide, %bar: !bars, %r: index) {
  %c0 = arith.constant 0 : index
  %c5 = arith.constant 5 : index
  // CHECK: {"loc":"{{.*}}:[[@LINE+1]]:3","op":"tile.copy_async","direction":"g2s","cta_group":1,"selected":"tma","declined":[],"tensor_map":{"data_type":"f16","rank":3,"global_dim":[64,16,4],"global_strides":[512,128],"box_dim":[64,8,4],"element_strides":[1,1,1],"interleave":0,"swizzle":3,"l2_promotion":2,"oob_fill":0,"base_offset_bytes":0},"issues":[{"smem_byte_offset":0,"coords":[0,0,0]}],"guards":[],"bytes":4096}
  tile.copy_async %p[0, 0] [8, 256], %g[0, 0] [8, 256] barrier(%bar[%c0]) {cta_group = 1 : i32} : !pair, memref<16x256xf16>, !bars
  // Constant rows are constant coordinates; a dynamic one is null.
  // CHECK: {"loc":"{{.*}}:[[@LINE+1]]:3","op":"tile.copy_async","direction":"g2s","mode":"tile::gather4","selected":"tma","declined":[],"tensor_map":{"data_type":"f16","rank":2,"global_dim":[64,1024],"global_strides":[128],"box_dim":[64,1],"element_strides":[1,1],"interleave":0,"swizzle":3,"l2_promotion":2,"oob_fill":0,"base_offset_bytes":0},"issues":[{"smem_byte_offset":0,"coords":[0,5,null,0,5]}],"guards":[],"bytes":512}
  tile.copy_async %s[0, 0] [4, 64], %t[0, 0] [4, 64] rows(%c5, %r, %c0, %c5) barrier(%bar[%c0]) : !rows, memref<1024x64xf16>, !bars
  // CHECK: {"loc":"{{.*}}:[[@LINE+1]]:3","op":"tile.copy_async","direction":"s2g","mode":"tile::scatter4","selected":null,"declined":[{"variant":"tma","reason":"gather4: the shared region must hold the four rows as one dense box, 32 elements apart; element 32 is at offset 64, expected 32","rule":"gather4"},{"variant":"simt","reason":"sm100-form: only the tma variant issues tile::scatter4 (cp.async.bulk.tensor on sm_100a)","rule":"sm100-form"}],"bytes":256}
  tile.copy_async %t[0, 0] [4, 32], %w[0, 0] [4, 32] rows(%r, %r, %r, %r) : memref<1024x64xf16>, !wide
  return
}
