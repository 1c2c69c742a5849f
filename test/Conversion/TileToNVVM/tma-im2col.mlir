// RUN: tile-opt %s | tile-opt | FileCheck %s --check-prefix=ROUNDTRIP
// RUN: tile-opt %s --tile-plan-copies --tile-tensor-map-abi --convert-tile-to-nvvm | FileCheck %s

// tile.copy_im2col becomes one cp.async.bulk.tensor ... im2col: the
// coordinates [n, h, w, c] reversed to (c, w, h, n) as i32, the offsets
// [kh, kw] reversed to (kw, kh) as i16 (the map lists corners and strides
// innermost first too), the tile's address in the cluster
// window and the barrier of the group.

!bars = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 2>
!tile = memref<64x64xf16, #tile.layout<(64, 64), swizzle = 128B>, #gpu.address_space<workgroup>>

module attributes {gpu.container_module} {
  gpu.module @kernels {
    // CHECK-LABEL: gpu.func @conv
    // CHECK-SAME: (%{{.*}}: memref<2x8x8x64xf16>, %[[N:[^:]*]]: index, %[[H:[^:]*]]: index, %[[W:[^:]*]]: index, %[[KH:[^:]*]]: index, %[[KW:[^:]*]]: index, %[[MAP:.*]]: !llvm.array<16 x i64>)
    // CHECK-SAME: tile.tensor_maps = [#tile.tensor_map<im2col, arg = 6, global_arg = 0, map = #tile.im2col_map<"f16", rank = 4, lower_corner = [-2, -1], upper_corner = [0, -1], channels_per_pixel = 64, pixels_per_column = 64, element_strides = [1, 2, 1, 1], swizzle = "128B", l2_promotion = 2, oob = "zero", element_bytes = 2>>]
    gpu.func @conv(%x: memref<2x8x8x64xf16>, %n: index, %h: index, %w: index, %kh: index, %kw: index) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %bar = nvgpu.mbarrier.create -> !bars
      %s = tile.arena_view [0] : !tile
      // CHECK: %[[PMAP:.*]] = builtin.unrealized_conversion_cast %[[MAP]] : !llvm.array<16 x i64> to !llvm.ptr {tile.tensor_map_address}
      // CHECK: %[[DST:.*]] = llvm.addrspacecast %{{.*}} : !llvm.ptr<3> to !llvm.ptr<7>
      // CHECK: %[[BAR:.*]] = llvm.getelementptr
      // CHECK: %[[C:.*]] = arith.index_cast %{{.*}} : index to i32
      // CHECK: %[[CW:.*]] = arith.index_cast %[[W]] : index to i32
      // CHECK: %[[CH:.*]] = arith.index_cast %[[H]] : index to i32
      // CHECK: %[[CN:.*]] = arith.index_cast %[[N]] : index to i32
      // CHECK: %[[OW:.*]] = arith.index_cast %[[KW]] : index to i16
      // CHECK: %[[OH:.*]] = arith.index_cast %[[KH]] : index to i16
      // CHECK: %[[POLICY:.*]] = arith.constant {{.*}} : i64
      // CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %[[DST]], %[[PMAP]], %[[BAR]], box[%[[C]], %[[CW]], %[[CH]], %[[CN]]] im2col[%[[OW]], %[[OH]]] l2_cache_hint = %[[POLICY]] {mode = #nvvm.tma_load_mode<im2col>} : !llvm.ptr<7>, !llvm.ptr
      // CHECK-NOT: tile.copy_im2col
      // ROUNDTRIP: tile.copy_im2col %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] offsets [%{{.*}}, %{{.*}}] barrier(%{{.*}}[%{{.*}}]) {cache_hint = "evict_first", lower = array<i64: -1, -2>, strides = array<i64: 1, 2>, upper = array<i64: -1, 0>} : memref<64x64xf16, #tile.layout<(64, 64), swizzle = 128B>, #gpu.address_space<workgroup>>, memref<2x8x8x64xf16>, <memorySpace = #gpu.address_space<workgroup>, num_barriers = 2>
      tile.copy_im2col %s, %x[%n, %h, %w, %c0] offsets [%kh, %kw] barrier(%bar[%c1])
          {lower = array<i64: -1, -2>, upper = array<i64: -1, 0>, strides = array<i64: 1, 2>, cache_hint = "evict_first"}
          : !tile, memref<2x8x8x64xf16>, !bars
      gpu.return
    }
  }
}
