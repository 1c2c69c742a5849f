// RUN: tile-opt %s --split-input-file --tile-plan-copies --tile-tensor-map-abi --convert-tile-to-nvvm --verify-diagnostics | FileCheck %s

// The sm_100a forms on a gpu.module whose target is sm_100a: a pair-CTA load
// (.cta_group::2), a tile::gather4 load and a tile::scatter4 store of four
// rows. The four-row map is a 2D map with box [64, 1]; the rows are the
// instruction's last four coordinates.

!bars = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
!pair = memref<8x256xf16, #tile.layout<(8, 4, 64) : (64, 512, 1), swizzle = 128B>, #gpu.address_space<workgroup>>
!rows = memref<4x64xf16, #tile.layout<(4, 64), swizzle = 128B>, #gpu.address_space<workgroup>>

module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_100a", features = "+ptx86">] {
    // CHECK-LABEL: gpu.func @cta_pair
    // CHECK-SAME: (%[[G:.*]]: memref<16x256xf16>, %[[MAP:.*]]: !llvm.array<16 x i64>)
    // CHECK-SAME: tile.tensor_maps = [#tile.tensor_map<tiled, arg = 1, global_arg = 0, map = #tile.tiled_map<"f16", dim = [64, 16, 4], strides = [512, 128], box = [64, 8, 4], element_strides = [1, 1, 1], swizzle = "128B", {{.*}}>>]
    gpu.func @cta_pair(%g: memref<16x256xf16>) kernel {
      %c0 = arith.constant 0 : index
      %bar = nvgpu.mbarrier.create -> !bars
      %s = tile.arena_view [0] : !pair
      // CHECK: %[[PMAP:.*]] = builtin.unrealized_conversion_cast %[[MAP]] : !llvm.array<16 x i64> to !llvm.ptr {tile.tensor_map_address}
      // CHECK: %[[X:.*]] = arith.constant 0 : i32
      // CHECK: %[[Y:.*]] = arith.constant 8 : i32
      // CHECK: %[[Z:.*]] = arith.constant 0 : i32
      // CHECK: %[[DST:.*]] = llvm.addrspacecast %{{.*}} : !llvm.ptr<3> to !llvm.ptr<7>
      // CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %[[DST]], %[[PMAP]], %{{.*}}, box[%[[X]], %[[Y]], %[[Z]]] {group = #nvvm.cta_group<cta_2>} : !llvm.ptr<7>, !llvm.ptr
      tile.copy_async %s[0, 0] [8, 256], %g[8, 0] [8, 256] barrier(%bar[%c0]) {cta_group = 2 : i32}
          : !pair, memref<16x256xf16>, !bars
      gpu.return
    }

    // CHECK-LABEL: gpu.func @gather_scatter
    // CHECK-SAME: (%[[T:.*]]: memref<1024x64xf16>, %[[R0:[^:]*]]: index, %[[R1:[^:]*]]: index, %[[R2:[^:]*]]: index, %[[R3:[^:]*]]: index, %[[TMAP:.*]]: !llvm.array<16 x i64>)
    // CHECK-SAME: tile.tensor_maps = [#tile.tensor_map<tiled, arg = 5, global_arg = 0, map = #tile.tiled_map<"f16", dim = [64, 1024], strides = [128], box = [64, 1], element_strides = [1, 1], swizzle = "128B", {{.*}}>>]
    gpu.func @gather_scatter(%t: memref<1024x64xf16>, %r0: index, %r1: index, %r2: index, %r3: index) kernel {
      %c0 = arith.constant 0 : index
      %bar = nvgpu.mbarrier.create -> !bars
      %s = tile.arena_view [0] : !rows
      // CHECK: %[[GMAP:.*]] = builtin.unrealized_conversion_cast %[[TMAP]] : !llvm.array<16 x i64> to !llvm.ptr {tile.tensor_map_address}
      // CHECK: %[[COL:.*]] = arith.constant 0 : i32
      // CHECK: %[[I0:.*]] = arith.index_cast %[[R0]] : index to i32
      // CHECK: %[[I1:.*]] = arith.index_cast %[[R1]] : index to i32
      // CHECK: %[[I2:.*]] = arith.index_cast %[[R2]] : index to i32
      // CHECK: %[[I3:.*]] = arith.index_cast %[[R3]] : index to i32
      // CHECK: %[[GDST:.*]] = llvm.addrspacecast %{{.*}} : !llvm.ptr<3> to !llvm.ptr<7>
      // CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %[[GDST]], %[[GMAP]], %{{.*}}, box[%[[COL]], %[[I0]], %[[I1]], %[[I2]], %[[I3]]] {mode = #nvvm.tma_load_mode<tile_gather4>} : !llvm.ptr<7>, !llvm.ptr
      tile.copy_async %s[0, 0] [4, 64], %t[0, 0] [4, 64] rows(%r0, %r1, %r2, %r3) barrier(%bar[%c0])
          : !rows, memref<1024x64xf16>, !bars
      // Rows in another order scatter back through the same map.
      // CHECK: %[[SMAP:.*]] = builtin.unrealized_conversion_cast %[[TMAP]] : !llvm.array<16 x i64> to !llvm.ptr {tile.tensor_map_address}
      // CHECK: %[[SCOL:.*]] = arith.constant 0 : i32
      // CHECK: %[[J3:.*]] = arith.index_cast %[[R3]] : index to i32
      // CHECK: %[[J2:.*]] = arith.index_cast %[[R2]] : index to i32
      // CHECK: %[[J1:.*]] = arith.index_cast %[[R1]] : index to i32
      // CHECK: %[[J0:.*]] = arith.index_cast %[[R0]] : index to i32
      // CHECK: nvvm.cp.async.bulk.tensor.global.shared.cta %[[SMAP]], %{{.*}}, box[%[[SCOL]], %[[J3]], %[[J2]], %[[J1]], %[[J0]]] {mode = #nvvm.tma_store_mode<tile_scatter4>} : !llvm.ptr, {{(!llvm.ptr)?}}<3>
      tile.copy_async %t[0, 0] [4, 64], %s[0, 0] [4, 64] rows(%r3, %r2, %r1, %r0)
          : memref<1024x64xf16>, !rows
      gpu.return
    }

    // The two forms combine: a pair-CTA row gather.
    // CHECK-LABEL: gpu.func @gather_pair
    // CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %{{.*}}, %{{.*}}, box[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] {group = #nvvm.cta_group<cta_2>, mode = #nvvm.tma_load_mode<tile_gather4>} : !llvm.ptr<7>, !llvm.ptr
    gpu.func @gather_pair(%t: memref<1024x64xf16>, %r: index) kernel {
      %c0 = arith.constant 0 : index
      %bar = nvgpu.mbarrier.create -> !bars
      %s = tile.arena_view [0] : !rows
      tile.copy_async %s[0, 0] [4, 64], %t[0, 0] [4, 64] rows(%r, %r, %r, %r) barrier(%bar[%c0]) {cta_group = 2 : i32}
          : !rows, memref<1024x64xf16>, !bars
      gpu.return
    }
  }
}

// -----

// Without a target on the gpu.module the lowering cannot know the chip: the
// form is an error at the op, not an instruction-selection abort later.

!bars = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
!pair = memref<8x256xf16, #tile.layout<(8, 4, 64) : (64, 512, 1), swizzle = 128B>, #gpu.address_space<workgroup>>
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @cta_pair_no_target(%g: memref<16x256xf16>) kernel {
      %c0 = arith.constant 0 : index
      %bar = nvgpu.mbarrier.create -> !bars
      %s = tile.arena_view [0] : !pair
      // expected-error @+2 {{sm100-form: cta_group = 2 needs chip sm_100a or sm_100f; the target chip is not set (the gpu.module has no #nvvm.target)}}
      // expected-error @+1 {{failed to legalize operation 'tile.copy_async'}}
      tile.copy_async %s[0, 0] [8, 256], %g[8, 0] [8, 256] barrier(%bar[%c0]) {cta_group = 2 : i32}
          : !pair, memref<16x256xf16>, !bars
      gpu.return
    }
  }
}
