// RUN: tile-opt %s --split-input-file --tile-plan-copies --tile-tensor-map-abi --convert-tile-to-nvvm --verify-diagnostics | FileCheck %s

// A prefetch of the next tile and the load of this one: the prefetch is
// planned as the load of its region, so both use one tensor map; it issues
// cp.async.bulk.prefetch.tensor with the load's coordinates, writes no shared
// memory and signals no barrier.

!bars = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
!tile = memref<64x64xf16, #tile.layout<(64, 64), swizzle = 128B>, #gpu.address_space<workgroup>>

module attributes {gpu.container_module} {
  gpu.module @kernels {
    // CHECK-LABEL: gpu.func @prefetch_next
    // CHECK-SAME: (%[[G:.*]]: memref<256x64xf16>, %[[K:.*]]: index, %[[MAP:.*]]: !llvm.array<16 x i64>)
    // CHECK-NOT: !llvm.array<16 x i64>
    // CHECK-SAME: tile.tensor_maps = [#tile.tensor_map<tiled, arg = 2, global_arg = 0, map = #tile.tiled_map<"f16", dim = [64, 256], strides = [128], box = [64, 64], element_strides = [1, 1], swizzle = "128B", {{.*}}>>]
    gpu.func @prefetch_next(%g: memref<256x64xf16>, %k: index) kernel {
      %c0 = arith.constant 0 : index
      %c64 = arith.constant 64 : index
      %bar = nvgpu.mbarrier.create -> !bars
      %s = tile.arena_view [0] : !tile
      %row = arith.muli %k, %c64 : index
      %next = arith.addi %row, %c64 : index
      // CHECK: %[[NEXT:.*]] = arith.addi
      // CHECK: %[[PMAP:.*]] = builtin.unrealized_conversion_cast %[[MAP]] : !llvm.array<16 x i64> to !llvm.ptr {tile.tensor_map_address}
      // CHECK: %[[POLICY:.*]] = arith.constant 1364590687093260288 : i64
      // CHECK: %[[C0:.*]] = arith.constant 0 : i32
      // CHECK: %[[NROW:.*]] = arith.index_cast %[[NEXT]] : index to i32
      // CHECK: nvvm.cp.async.bulk.tensor.prefetch %[[PMAP]], box[%[[C0]], %[[NROW]]] l2_cache_hint = %[[POLICY]] : !llvm.ptr
      tile.copy_async %s[0, 0] [64, 64], %g[%next, 0] [64, 64] {cache_hint = "evict_first", prefetch}
          : !tile, memref<256x64xf16>
      // CHECK: %[[LMAP:.*]] = builtin.unrealized_conversion_cast %[[MAP]] : !llvm.array<16 x i64> to !llvm.ptr {tile.tensor_map_address}
      // CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %[[LMAP]], %{{.*}}, box[%{{.*}}, %{{.*}}] : !llvm.ptr<7>, !llvm.ptr
      tile.copy_async %s[0, 0] [64, 64], %g[%row, 0] [64, 64] barrier(%bar[%c0])
          : !tile, memref<256x64xf16>, !bars
      gpu.return
    }
  }
}

// -----

// TMA declines a transposed prefetch, and no other variant prefetches: the
// error names both reasons.

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @prefetch_transposed(%g: memref<32x64xf16>) kernel {
      %s = tile.arena_view [0] : memref<64x32xf16, #tile.layout<(64, 32) : (1, 64)>, #gpu.address_space<workgroup>>
      // expected-error @+1 {{no dispatch variant can lower this copy: [tma] elementwise: the shared stride-1 run of 64 elements has global stride 64; the TMA reads the innermost dimension contiguously; [simt] prefetch: only the tma variant prefetches (cp.async.bulk.prefetch.tensor); per-thread loads would write shared memory}}
      tile.copy_async %s[0, 0] [64, 32], %g[0, 0] [64, 32] {prefetch}
          : memref<64x32xf16, #tile.layout<(64, 32) : (1, 64)>, #gpu.address_space<workgroup>>, memref<32x64xf16>
      gpu.return
    }
  }
}
