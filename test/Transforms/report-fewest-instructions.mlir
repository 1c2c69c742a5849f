// RUN: tile-opt %s --tile-report-copy-plans -o /dev/null | FileCheck %s
// RUN: tile-opt %s --tile-plan-copies --tile-tensor-map-abi --convert-tile-to-nvvm | FileCheck %s --check-prefix=NVVM

// The planner chooses the candidate with the fewest instructions: which
// contiguous global dims stay fused, promotion, and the box prefix.

!bars = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
!rows = memref<64x96xui8, #tile.layout<(64, 96) : (96, 1)>, #gpu.address_space<workgroup>>
!s576 = memref<576x3xf32, #tile.layout<(576, 3)>, #gpu.address_space<workgroup>>
!g259 = memref<10x4x259xf32, strided<[1056, 259, 1]>>
!s256 = memref<2x256xf32, #tile.layout<(2, 256)>, #gpu.address_space<workgroup>>

module attributes {gpu.container_module} {
  gpu.module @kernels {
    // NVVM-LABEL: gpu.func @rows
    // NVVM-SAME: tile.tensor_maps = [#tile.tensor_map<tiled, arg = 1, global_arg = 0, map = #tile.tiled_map<"u8", dim = [96, 128, 4, 4], strides = [96, 12288, 49152], box = [96, 64, 1, 1], element_strides = [1, 1, 1, 1], {{.*}}>>]
    gpu.func @rows(%g: memref<4x4x128x96xui8>) kernel {
      %c0 = arith.constant 0 : index
      %bar = nvgpu.mbarrier.create -> !bars
      %s = tile.arena_view [0] : !rows
      // Rows 33..96 of 96 bytes: with the two inner dims fused, 256-byte box
      // rows would not start on row 33 (three u64 boxes); kept apart, one box.
      // CHECK: {"loc":"{{.*}}:[[@LINE+8]]:7","op":"tile.copy_async","direction":"g2s","selected":"tma","declined":[],"tensor_map":{"data_type":"u8","rank":4,"global_dim":[96,128,4,4],"global_strides":[96,12288,49152],"box_dim":[96,64,1,1],"element_strides":[1,1,1,1],"interleave":0,"swizzle":0,"l2_promotion":2,"oob_fill":0,"base_offset_bytes":0},"issues":[{"smem_byte_offset":0,"coords":[0,33,1,2]}],"guards":[],"bytes":6144}
      // NVVM: %[[C0:.*]] = arith.constant 0 : i32
      // NVVM: %[[C33:.*]] = arith.constant 33 : i32
      // NVVM: %[[C1:.*]] = arith.constant 1 : i32
      // NVVM: %[[C2:.*]] = arith.constant 2 : i32
      // NVVM: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %{{.*}}, %{{.*}}, box[%[[C0]], %[[C33]], %[[C1]], %[[C2]]]
      // NVVM-NOT: nvvm.cp.async.bulk.tensor.shared.cluster.global
      // NVVM: gpu.return
      tile.copy_async %s[0, 0] [64, 96], %g[2, 1, 33, 0] [1, 1, 64, 96] barrier(%bar[%c0])
          : !rows, memref<4x4x128x96xui8>, !bars
      gpu.return
    }

    gpu.func @more(%g: memref<4x4x128x96xui8>, %g2: memref<50x64x6x3xf32>, %g3: !g259) kernel {
      %c0 = arith.constant 0 : index
      %bar = nvgpu.mbarrier.create -> !bars
      %s = tile.arena_view [0] : !rows
      // From row 32 the fused run starts on a 256-byte row: one box as well,
      // and the fused candidate comes first.
      // CHECK-NEXT: {"loc":"{{.*}}:[[@LINE+1]]:7","op":"tile.copy_async","direction":"g2s","selected":"tma","declined":[],"tensor_map":{"data_type":"u8","rank":4,"global_dim":[256,48,4,4],"global_strides":[256,12288,49152],"box_dim":[256,24,1,1],"element_strides":[1,1,1,1],"interleave":0,"swizzle":0,"l2_promotion":2,"oob_fill":0,"base_offset_bytes":0},"issues":[{"smem_byte_offset":0,"coords":[0,12,1,2]}],"guards":[],"bytes":6144}
      tile.copy_async %s[0, 0] [64, 96], %g[2, 1, 32, 0] [1, 1, 64, 96] barrier(%bar[%c0])
          : !rows, memref<4x4x128x96xui8>, !bars
      // The fused inner run starts at 180, which 216-element box rows do not
      // divide: the inner map dim spans the whole run from 180, the next one
      // steps over the region only.
      %s2 = tile.arena_view [0] : !s576
      // CHECK-NEXT: {"loc":"{{.*}}:[[@LINE+1]]:7","op":"tile.copy_async","direction":"g2s","selected":"tma","declined":[],"tensor_map":{"data_type":"f32","rank":3,"global_dim":[1152,4,50],"global_strides":[864,4608],"box_dim":[216,4,2],"element_strides":[1,1,1],"interleave":0,"swizzle":0,"l2_promotion":2,"oob_fill":0,"base_offset_bytes":0},"issues":[{"smem_byte_offset":0,"coords":[180,0,10]}],"guards":[],"bytes":6912}
      tile.copy_async %s2[0, 0] [576, 3], %g2[10, 10, 0, 0] [2, 48, 6, 3] barrier(%bar[%c0])
          : !s576, memref<50x64x6x3xf32>, !bars
      // Row 2 of a dim with a 1036-byte stride: no descriptor stride, and
      // 2072 bytes is no aligned base; the offset moves into the inner
      // coordinate (2 + 518 = 520), whose bound grows by 518.
      %s3 = tile.arena_view [0] : !s256
      // CHECK-NEXT: {"loc":"{{.*}}:[[@LINE+1]]:7","op":"tile.copy_async","direction":"g2s","selected":"tma","declined":[],"tensor_map":{"data_type":"f32","rank":2,"global_dim":[777,10],"global_strides":[4224],"box_dim":[256,2],"element_strides":[1,1],"interleave":0,"swizzle":0,"l2_promotion":2,"oob_fill":0,"base_offset_bytes":0},"issues":[{"smem_byte_offset":0,"coords":[520,1]}],"guards":[],"bytes":2048}
      tile.copy_async %s3[0, 0] [2, 256], %g3[1, 2, 2] [2, 1, 256] barrier(%bar[%c0])
          : !s256, !g259, !bars
      gpu.return
    }
  }
}
