// RUN: tile-opt %s --tile-report-copy-plans -o /dev/null | FileCheck %s
// RUN: tile-opt %s --tile-plan-copies --tile-tensor-map-abi --convert-tile-to-nvvm | FileCheck %s --check-prefix=NVVM

// A copy that is one contiguous run once two memref dimensions merge, in the
// other order than the memref's (column-major) or with a dimension between
// them, is one TMA instruction, as CuTe's coalescing finds it: the planner
// merges the dimensions instead of cutting 8-byte columns (inner-box-bytes).

!bars = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
!colmajor = memref<8x8xi8, #tile.layout<(8, 8) : (1, 8)>, #gpu.address_space<workgroup>>
!kmk = memref<4x2x128xf16, #tile.layout<(4, 2, 128) : (1, 512, 4)>, #gpu.address_space<workgroup>>

module attributes {gpu.container_module} {
  gpu.module @kernels {
    // NVVM-LABEL: gpu.func @column_major
    // NVVM-SAME: map = #tile.tiled_map<"u8", dim = [64], strides = [], box = [64], element_strides = [1]
    gpu.func @column_major(%g: memref<8x8xi8, strided<[1, 8]>>) kernel {
      %c0 = arith.constant 0 : index
      %bar = nvgpu.mbarrier.create -> !bars
      %s = tile.arena_view [0] : !colmajor
      // CHECK: {"loc":"{{.*}}:[[@LINE+4]]:7","op":"tile.copy_async","direction":"g2s","selected":"tma","declined":[],"tensor_map":{"data_type":"u8","rank":1,"global_dim":[64],"global_strides":[],"box_dim":[64],"element_strides":[1],"interleave":0,"swizzle":0,"l2_promotion":2,"oob_fill":0,"base_offset_bytes":0},"issues":[{"smem_byte_offset":0,"coords":[0]}],"guards":[],"bytes":64}
      // NVVM: nvvm.cp.async.bulk.tensor.shared.cluster.global
      // NVVM-NOT: nvvm.cp.async.bulk.tensor.shared.cluster.global
      // NVVM: gpu.return
      tile.copy_async %s[0, 0] [8, 8], %g[0, 0] [8, 8] barrier(%bar[%c0])
          : !colmajor, memref<8x8xi8, strided<[1, 8]>>, !bars
      gpu.return
    }

    // NVVM-LABEL: gpu.func @apart
    // NVVM-SAME: map = #tile.tiled_map<"u64", dim = [256], strides = [], box = [256], element_strides = [1]
    gpu.func @apart(%g: memref<4x2x128xf16, strided<[1, 512, 4]>>) kernel {
      %c0 = arith.constant 0 : index
      %bar = nvgpu.mbarrier.create -> !bars
      %s = tile.arena_view [0] : !kmk
      // CHECK-NEXT: {"loc":"{{.*}}:[[@LINE+1]]:7","op":"tile.copy_async","direction":"g2s","selected":"tma","declined":[],"tensor_map":{"data_type":"u64","rank":1,"global_dim":[256]{{.*}}"issues":[{"smem_byte_offset":0,"coords":[0]}],"guards":[],"bytes":2048}
      tile.copy_async %s[0, 0, 0] [4, 2, 128], %g[0, 0, 0] [4, 2, 128] barrier(%bar[%c0])
          : !kmk, memref<4x2x128xf16, strided<[1, 512, 4]>>, !bars
      gpu.return
    }
  }
}
