// RUN: tile-opt %s --tile-plan-copies --tile-tensor-map-abi --convert-tile-to-nvvm | FileCheck %s

!bars = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 3>
!tile = memref<64x64xf16, #tile.layout<(64, 64), swizzle = 128B>, #gpu.address_space<workgroup>>
!stages = memref<3x64x64xf16, #tile.layout<(3, 64, 64), swizzle = 128B>, #gpu.address_space<workgroup>>

module attributes {gpu.container_module} {
  gpu.module @kernels {
    // CHECK-LABEL: gpu.module @kernels
    // CHECK: llvm.mlir.global external @__tile_arena() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<0 x i8>

    // CHECK-LABEL: gpu.func @load
    // CHECK-SAME: (%[[G:.*]]: memref<256x64xf16>, %[[MASK:.*]]: i16, %[[K:.*]]: index, %[[MAP:.*]]: !llvm.array<16 x i64>)
    // CHECK-SAME: tile.tensor_maps = [#tile.tensor_map<tiled, arg = 3, global_arg = 0, map = #tile.tiled_map<"f16", dim = [64, 256], strides = [128], box = [64, 64], element_strides = [1, 1], swizzle = "128B", interleave = 0, l2_promotion = 2, oob = "zero", base = 0, element_bytes = 2, promoted = false>>]
    gpu.func @load(%g: memref<256x64xf16>, %mask: i16, %k: index) kernel {
      %c0 = arith.constant 0 : index
      %bar = nvgpu.mbarrier.create -> !bars
      // CHECK: %[[ARENA:.*]] = llvm.mlir.addressof @__tile_arena : !llvm.ptr<3>
      // CHECK: %[[C1024:.*]] = arith.constant 1024 : i64
      // CHECK: %[[BUF:.*]] = llvm.getelementptr %[[ARENA]][%[[C1024]]] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, i8
      %buf = tile.arena_view [1024] : !stages
      // CHECK: %[[STRIDE:.*]] = arith.constant 8192 : i64
      // CHECK: %[[OFF:.*]] = arith.muli %{{.*}}, %[[STRIDE]] : i64
      // CHECK: %[[STAGE:.*]] = llvm.getelementptr %[[BUF]][%[[OFF]]]
      %st = tile.stage %buf[%k] : !stages -> !tile
      %c64 = arith.constant 64 : index
      %row = arith.muli %k, %c64 : index
      // CHECK: %[[ROWIDX:.*]] = arith.muli %[[K]], %{{.*}} : index
      // CHECK: %[[TMAP:.*]] = builtin.unrealized_conversion_cast %[[MAP]] : !llvm.array<16 x i64> to !llvm.ptr {tile.tensor_map_address}
      // CHECK: %[[MBAR:.*]] = llvm.getelementptr %{{.*}}[%{{.*}}] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, i64
      // CHECK: %[[POLICY:.*]] = arith.constant 1508705875169116160 : i64
      // CHECK: %[[ROW:.*]] = arith.index_cast %[[ROWIDX]] : index to i32
      // CHECK: %[[DST:.*]] = llvm.addrspacecast %[[STAGE]] : !llvm.ptr<3> to !llvm.ptr<7>
      // CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %[[DST]], %[[TMAP]], %[[MBAR]], box[%{{.*}}, %[[ROW]]] multicast_mask = %[[MASK]] l2_cache_hint = %[[POLICY]] : !llvm.ptr<7>, !llvm.ptr
      tile.copy_async %st[0, 0] [64, 64], %g[%row, 0] [64, 64] barrier(%bar[%k]) multicast(%mask)
          {cache_hint = "evict_last"} : !tile, memref<256x64xf16>, !bars
      gpu.return
    }

    // Equal requests share one map; a different box gets its own.
    // CHECK-LABEL: gpu.func @store_and_reduce
    // CHECK-SAME: (%{{.*}}: memref<64x64xi32>, %[[M0:.*]]: !llvm.array<16 x i64>)
    // CHECK-NOT: !llvm.array<16 x i64>
    // CHECK-SAME: kernel
    gpu.func @store_and_reduce(%g: memref<64x64xi32>) kernel {
      %s = tile.arena_view [0] : memref<64x64xi32, #tile.layout<(64, 64)>, #gpu.address_space<workgroup>>
      // CHECK: nvvm.cp.async.bulk.tensor.global.shared.cta %{{.*}}, %{{.*}}, box[%{{.*}}, %{{.*}}] : !llvm.ptr, <3>
      tile.copy_async %g[0, 0] [64, 64], %s[0, 0] [64, 64]
          : memref<64x64xi32>, memref<64x64xi32, #tile.layout<(64, 64)>, #gpu.address_space<workgroup>>
      // CHECK: nvvm.cp.async.bulk.tensor.reduce %{{.*}}, %{{.*}}, box[%{{.*}}, %{{.*}}] {redKind = #nvvm.tma_redux_kind<add>}
      tile.copy_async %g[0, 0] [64, 64], %s[0, 0] [64, 64] {reduce = "add"}
          : memref<64x64xi32>, memref<64x64xi32, #tile.layout<(64, 64)>, #gpu.address_space<workgroup>>
      // CHECK: redKind = #nvvm.tma_redux_kind<min>
      tile.copy_async %g[0, 0] [64, 64], %s[0, 0] [64, 64] {reduce = "min"}
          : memref<64x64xi32>, memref<64x64xi32, #tile.layout<(64, 64)>, #gpu.address_space<workgroup>>
      // CHECK: redKind = #nvvm.tma_redux_kind<max>
      tile.copy_async %g[0, 0] [64, 64], %s[0, 0] [64, 64] {reduce = "max"}
          : memref<64x64xi32>, memref<64x64xi32, #tile.layout<(64, 64)>, #gpu.address_space<workgroup>>
      // CHECK: redKind = #nvvm.tma_redux_kind<and>
      tile.copy_async %g[0, 0] [64, 64], %s[0, 0] [64, 64] {reduce = "and"}
          : memref<64x64xi32>, memref<64x64xi32, #tile.layout<(64, 64)>, #gpu.address_space<workgroup>>
      // CHECK: redKind = #nvvm.tma_redux_kind<or>
      tile.copy_async %g[0, 0] [64, 64], %s[0, 0] [64, 64] {reduce = "or"}
          : memref<64x64xi32>, memref<64x64xi32, #tile.layout<(64, 64)>, #gpu.address_space<workgroup>>
      // CHECK: redKind = #nvvm.tma_redux_kind<xor>
      tile.copy_async %g[0, 0] [64, 64], %s[0, 0] [64, 64] {reduce = "xor"}
          : memref<64x64xi32>, memref<64x64xi32, #tile.layout<(64, 64)>, #gpu.address_space<workgroup>>
      // CHECK: nvvm.cp.async.bulk.commit.group
      tile.bulk_commit_group
      // CHECK: nvvm.cp.async.bulk.wait_group 0 {read}
      tile.bulk_wait_group 0 {read}
      gpu.return
    }

    // Each load signals the barrier its op names: a constant index 1 and a
    // dynamic index address their own mbarrier; each cache hint becomes its
    // exact L2 policy, on loads, stores and reduces alike.
    // CHECK-LABEL: gpu.func @barriers_and_hints
    // CHECK-SAME: (%[[G:.*]]: memref<256x64xf16>, %[[I:.*]]: index, %{{.*}}: !llvm.array<16 x i64>)
    gpu.func @barriers_and_hints(%g: memref<256x64xf16>, %i: index) kernel {
      // CHECK: %[[C1:.*]] = arith.constant 1 : index
      %c1 = arith.constant 1 : index
      // CHECK: %[[BARS:.*]] = builtin.unrealized_conversion_cast %{{.*}} : !nvgpu.mbarrier.group<{{.*}}> to !llvm.struct<
      %bar = nvgpu.mbarrier.create -> !bars
      %s = tile.arena_view [0] : !tile

      // CHECK: %[[B1:.*]] = llvm.extractvalue %[[BARS]][1]
      // CHECK-NEXT: %[[IDX1:.*]] = arith.index_cast %[[C1]] : index to i64
      // CHECK-NEXT: %[[MBAR1:.*]] = llvm.getelementptr %[[B1]][%[[IDX1]]] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, i64
      // CHECK-NEXT: %[[FIRST:.*]] = arith.constant 1364590687093260288 : i64
      // CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %{{.*}}, %[[MBAR1]], box[%{{.*}}, %{{.*}}] l2_cache_hint = %[[FIRST]] :
      tile.copy_async %s[0, 0] [64, 64], %g[0, 0] [64, 64] barrier(%bar[%c1])
          {cache_hint = "evict_first"} : !tile, memref<256x64xf16>, !bars

      // CHECK: %[[B2:.*]] = llvm.extractvalue %[[BARS]][1]
      // CHECK-NEXT: %[[IDX2:.*]] = arith.index_cast %[[I]] : index to i64
      // CHECK-NEXT: %[[MBAR2:.*]] = llvm.getelementptr %[[B2]][%[[IDX2]]] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, i64
      // CHECK-NEXT: %[[NORMAL:.*]] = arith.constant 1152921504606846976 : i64
      // CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %{{.*}}, %[[MBAR2]], box[%{{.*}}, %{{.*}}] l2_cache_hint = %[[NORMAL]] :
      tile.copy_async %s[0, 0] [64, 64], %g[64, 0] [64, 64] barrier(%bar[%i])
          {cache_hint = "evict_normal"} : !tile, memref<256x64xf16>, !bars

      // CHECK: %[[LAST:.*]] = arith.constant 1508705875169116160 : i64
      // CHECK: nvvm.cp.async.bulk.tensor.global.shared.cta %{{.*}}, %{{.*}}, box[%{{.*}}, %{{.*}}] l2_cache_hint = %[[LAST]] : !llvm.ptr, <3>
      tile.copy_async %g[0, 0] [64, 64], %s[0, 0] [64, 64] {cache_hint = "evict_last"}
          : memref<256x64xf16>, !tile

      // CHECK: %[[FIRST2:.*]] = arith.constant 1364590687093260288 : i64
      // CHECK: nvvm.cp.async.bulk.tensor.global.shared.cta %{{.*}}, %{{.*}}, box[%{{.*}}, %{{.*}}] l2_cache_hint = %[[FIRST2]] : !llvm.ptr, <3>
      tile.copy_async %g[64, 0] [64, 64], %s[0, 0] [64, 64] {cache_hint = "evict_first"}
          : memref<256x64xf16>, !tile

      // CHECK: %[[NORMAL2:.*]] = arith.constant 1152921504606846976 : i64
      // CHECK: nvvm.cp.async.bulk.tensor.reduce %{{.*}}, %{{.*}}, box[%{{.*}}, %{{.*}}] l2_cache_hint = %[[NORMAL2]] {redKind = #nvvm.tma_redux_kind<add>}
      tile.copy_async %g[0, 0] [64, 64], %s[0, 0] [64, 64] {cache_hint = "evict_normal", reduce = "add"}
          : memref<256x64xf16>, !tile

      // Without a hint no policy operand.
      // CHECK: nvvm.cp.async.bulk.tensor.global.shared.cta %{{.*}}, %{{.*}}, box[%{{.*}}, %{{.*}}] : !llvm.ptr, <3>
      tile.copy_async %g[128, 0] [64, 64], %s[0, 0] [64, 64]
          : memref<256x64xf16>, !tile
      gpu.return
    }

    // Two issues (the shared rows have a gap after row 8): the second writes
    // 2048 B past the buffer's start, at global element 256 of the u32 map.
    // CHECK-LABEL: gpu.func @two_issues
    // CHECK-SAME: (%{{.*}}: memref<16x64xf16>, %[[MAP2:.*]]: !llvm.array<16 x i64>)
    // CHECK-SAME: tile.tensor_maps = [#tile.tensor_map<tiled, arg = 1, global_arg = 0, map = #tile.tiled_map<"u32", dim = [512], strides = [], box = [256], element_strides = [1], swizzle = "none", {{.*}}, element_bytes = 4, promoted = true>>]
    gpu.func @two_issues(%g: memref<16x64xf16>) kernel {
      %c0 = arith.constant 0 : index
      %bar = nvgpu.mbarrier.create -> !bars
      // CHECK: %[[ARENA:.*]] = llvm.mlir.addressof @__tile_arena : !llvm.ptr<3>
      // CHECK: %[[C2048:.*]] = arith.constant 2048 : i64
      // CHECK: %[[BUF:.*]] = llvm.getelementptr %[[ARENA]][%[[C2048]]] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, i8
      %s = tile.arena_view [2048] : memref<16x64xf16, #tile.layout<(2, 8, 64) : (1024, 64, 1)>, #gpu.address_space<workgroup>>
      tile.copy_async %s[0, 0] [16, 64], %g[0, 0] [16, 64] barrier(%bar[%c0])
          : memref<16x64xf16, #tile.layout<(2, 8, 64) : (1024, 64, 1)>, #gpu.address_space<workgroup>>, memref<16x64xf16>, !bars
      // CHECK: %[[TMAP2:.*]] = builtin.unrealized_conversion_cast %[[MAP2]] : !llvm.array<16 x i64> to !llvm.ptr {tile.tensor_map_address}
      // CHECK: %[[MBAR0:.*]] = llvm.getelementptr %{{.*}}[%{{.*}}] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, i64
      // CHECK: %[[X0:.*]] = arith.constant 0 : i32
      // CHECK-NEXT: %[[DST0:.*]] = llvm.addrspacecast %[[BUF]] : !llvm.ptr<3> to !llvm.ptr<7>
      // CHECK-NEXT: nvvm.cp.async.bulk.tensor.shared.cluster.global %[[DST0]], %[[TMAP2]], %[[MBAR0]], box[%[[X0]]] : !llvm.ptr<7>, !llvm.ptr
      // CHECK-NEXT: %[[OFF1:.*]] = arith.constant 2048 : i64
      // CHECK-NEXT: %[[SMEM1:.*]] = llvm.getelementptr %[[BUF]][%[[OFF1]]] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, i8
      // CHECK-NEXT: %[[X1:.*]] = arith.constant 256 : i32
      // CHECK-NEXT: %[[DST1:.*]] = llvm.addrspacecast %[[SMEM1]] : !llvm.ptr<3> to !llvm.ptr<7>
      // CHECK-NEXT: nvvm.cp.async.bulk.tensor.shared.cluster.global %[[DST1]], %[[TMAP2]], %[[MBAR0]], box[%[[X1]]] : !llvm.ptr<7>, !llvm.ptr
      gpu.return
    }

    // CHECK-LABEL: gpu.func @inc_dec
    gpu.func @inc_dec(%g: memref<64x64xui32>) kernel {
      %s = tile.arena_view [0] : memref<64x64xui32, #tile.layout<(64, 64)>, #gpu.address_space<workgroup>>
      // CHECK: redKind = #nvvm.tma_redux_kind<inc>
      tile.copy_async %g[0, 0] [64, 64], %s[0, 0] [64, 64] {reduce = "inc"}
          : memref<64x64xui32>, memref<64x64xui32, #tile.layout<(64, 64)>, #gpu.address_space<workgroup>>
      // CHECK: redKind = #nvvm.tma_redux_kind<dec>
      tile.copy_async %g[0, 0] [64, 64], %s[0, 0] [64, 64] {reduce = "dec"}
          : memref<64x64xui32>, memref<64x64xui32, #tile.layout<(64, 64)>, #gpu.address_space<workgroup>>
      // CHECK: nvvm.cp.async.bulk.wait_group 1{{$}}
      tile.bulk_wait_group 1
      gpu.return
    }
  }
}
