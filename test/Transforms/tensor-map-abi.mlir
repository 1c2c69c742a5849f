// RUN: tile-opt %s -split-input-file --tile-plan-copies --tile-tensor-map-abi | FileCheck %s

!bars = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
!ref = memref<8x256xf16, #tile.layout<(8, 4, 64) : (64, 512, 1), swizzle = 128B>, #gpu.address_space<workgroup>>

module attributes {gpu.container_module} {
  // The encode call sits before the loop (the buffers are defined outside
  // it); A's two identical copies share one map; B gets its own.
  // The encode fields live in constant arrays, one per distinct value list:
  // the reference values f16 (6), rank 3, 64,8,4 / 512,128 / 64,8,4 / 1,1,1
  // and interleave 0, swizzle 3, L2 promotion 2, oob fill 0.
  // CHECK-DAG: llvm.mlir.global private constant @__tile_tmap_i64_64_8_4(dense<[64, 8, 4]> : tensor<3xi64>)
  // CHECK-DAG: llvm.mlir.global private constant @__tile_tmap_i64_512_128(dense<[512, 128]> : tensor<2xi64>)
  // CHECK-DAG: llvm.mlir.global private constant @__tile_tmap_i32_64_8_4(dense<[64, 8, 4]> : tensor<3xi32>)
  // CHECK-DAG: llvm.mlir.global private constant @__tile_tmap_i32_1_1_1(dense<1> : tensor<3xi32>)
  // CHECK-LABEL: func.func @host
  // CHECK-SAME: (%[[A:.*]]: memref<8x256xf16>, %[[B:.*]]: memref<8x256xf16>, %[[N:.*]]: index)
  // CHECK: %[[PA:.*]] = memref.extract_aligned_pointer_as_index %[[A]]
  // CHECK: %[[IA:.*]] = arith.index_cast %[[PA]] : index to i64
  // CHECK: %[[BA:.*]] = llvm.inttoptr %[[IA]] : i64 to !llvm.ptr
  // CHECK: %[[DIMS:.*]] = llvm.mlir.addressof @__tile_tmap_i64_64_8_4 : !llvm.ptr
  // CHECK: %[[STRIDES:.*]] = llvm.mlir.addressof @__tile_tmap_i64_512_128 : !llvm.ptr
  // CHECK: %[[BOX:.*]] = llvm.mlir.addressof @__tile_tmap_i32_64_8_4 : !llvm.ptr
  // CHECK: %[[ES:.*]] = llvm.mlir.addressof @__tile_tmap_i32_1_1_1 : !llvm.ptr
  // CHECK-DAG: %[[F16:.*]] = arith.constant 6 : i32
  // CHECK-DAG: %[[RANK:.*]] = arith.constant 3 : i32
  // CHECK-DAG: %[[ZERO:.*]] = arith.constant 0 : i32
  // CHECK-DAG: %[[SWZ:.*]] = arith.constant 3 : i32
  // CHECK-DAG: %[[L2:.*]] = arith.constant 2 : i32
  // CHECK: %[[MA:.*]] = call @tileTensorMapGetCached(%[[F16]], %[[RANK]], %[[BA]], %[[DIMS]], %[[STRIDES]], %[[BOX]], %[[ES]], %[[ZERO]], %[[SWZ]], %[[L2]], %{{.*}}) {tile.tensor_map = #tile.tensor_map<tiled, arg = 2, global_arg = 0, map = #tile.tiled_map<"f16", dim = [64, 8, 4], strides = [512, 128], box = [64, 8, 4], element_strides = [1, 1, 1], swizzle = "128B", interleave = 0, l2_promotion = 2, oob = "zero", base = 0, element_bytes = 2, promoted = false>>}
  // CHECK: %[[PB:.*]] = memref.extract_aligned_pointer_as_index %[[B]]
  // CHECK: %[[MB:.*]] = call @tileTensorMapGetCached({{.*}}global_arg = 1,
  // CHECK-NOT: tileTensorMapGetCached
  // CHECK: scf.for
  // CHECK-NOT: tileTensorMapGetCached
  // CHECK: %[[OKA:.*]] = llvm.icmp "ne" %[[MA]]
  // CHECK: %[[OKB:.*]] = llvm.icmp "ne" %[[MB]]
  // CHECK: %[[OK:.*]] = arith.andi %[[OKA]], %[[OKB]]
  // CHECK: scf.if %[[OK]] {
  // CHECK: %[[VA:.*]] = llvm.load %[[MA]] : !llvm.ptr -> !llvm.array<16 x i64>
  // CHECK: %[[VB:.*]] = llvm.load %[[MB]] : !llvm.ptr -> !llvm.array<16 x i64>
  // CHECK: gpu.launch_func @k::@copy_twice {{.*}} args(%[[A]] : memref<8x256xf16>, %[[B]] : memref<8x256xf16>, %[[VA]] : !llvm.array<16 x i64>, %[[VB]] : !llvm.array<16 x i64>)
  func.func @host(%A: memref<8x256xf16>, %B: memref<8x256xf16>, %n: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c128 = arith.constant 128 : index
    %smem = arith.constant 4096 : i32
    scf.for %i = %c0 to %n step %c1 {
      gpu.launch_func @k::@copy_twice blocks in (%c1, %c1, %c1) threads in (%c128, %c1, %c1)
          dynamic_shared_memory_size %smem
          args(%A : memref<8x256xf16>, %B : memref<8x256xf16>)
    }
    return
  }

  // A buffer defined inside the loop: its encode stays in the loop, B's
  // is hoisted.
  // CHECK-LABEL: func.func @host_inner
  // CHECK: call @tileTensorMapGetCached({{.*}}global_arg = 1,
  // CHECK: scf.for
  // CHECK: memref.alloc
  // CHECK: call @tileTensorMapGetCached({{.*}}global_arg = 0,
  // CHECK: gpu.launch_func
  func.func @host_inner(%B: memref<8x256xf16>, %n: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c128 = arith.constant 128 : index
    %smem = arith.constant 4096 : i32
    scf.for %i = %c0 to %n step %c1 {
      %A = memref.alloc() : memref<8x256xf16>
      gpu.launch_func @k::@copy_twice blocks in (%c1, %c1, %c1) threads in (%c128, %c1, %c1)
          dynamic_shared_memory_size %smem
          args(%A : memref<8x256xf16>, %B : memref<8x256xf16>)
    }
    return
  }

  gpu.module @k {
    // CHECK-LABEL: gpu.func @copy_twice
    // CHECK-SAME: (%{{.*}}: memref<8x256xf16>, %{{.*}}: memref<8x256xf16>, %{{.*}}: !llvm.array<16 x i64>, %{{.*}}: !llvm.array<16 x i64>) kernel
    // CHECK-SAME: tile.tensor_maps = [#tile.tensor_map<tiled, arg = 2, global_arg = 0, map = #tile.tiled_map<{{.*}}>>, #tile.tensor_map<tiled, arg = 3, global_arg = 1, map = #tile.tiled_map<{{.*}}>>]
    gpu.func @copy_twice(%A: memref<8x256xf16>, %B: memref<8x256xf16>) kernel {
      %c0 = arith.constant 0 : index
      %s = tile.arena_view [0] : !ref
      %bar = nvgpu.mbarrier.create -> !bars
      // CHECK: tile.copy_async {{.*}}tile.tensor_map_arg = 2 : i64
      tile.copy_async %s[0, 0] [8, 256], %A[0, 0] [8, 256] barrier(%bar[%c0]) : !ref, memref<8x256xf16>, !bars
      // CHECK: tile.copy_async {{.*}}tile.tensor_map_arg = 2 : i64
      tile.copy_async %s[0, 0] [8, 256], %A[0, 0] [8, 256] barrier(%bar[%c0]) : !ref, memref<8x256xf16>, !bars
      // CHECK: tile.copy_async {{.*}}tile.tensor_map_arg = 3 : i64
      tile.copy_async %B[0, 0] [8, 256], %s[0, 0] [8, 256] : memref<8x256xf16>, !ref
      gpu.return
    }
  }
}

// -----

// An async launch stays in straight-line code (its token never flows through
// a branch): when the map fails to encode, the launch reads a zeroed map
// instead of a null pointer and gets an empty grid, which the runtime refuses
// without running the kernel.
!ref2 = memref<8x256xf16, #tile.layout<(8, 4, 64) : (64, 512, 1), swizzle = 128B>, #gpu.address_space<workgroup>>
module attributes {gpu.container_module} {
  // CHECK: llvm.mlir.global private constant @[[ZERO_MAP:__tile_tmap_i64_0(_0){15}]](dense<0> : tensor<16xi64>)
  // CHECK-LABEL: func.func @async_host
  // CHECK-SAME: (%[[A:.*]]: memref<8x256xf16>, %[[DEP:.*]]: !gpu.async.token)
  // CHECK: %[[C1:.*]] = arith.constant 1 : index
  // CHECK: %[[MAP:.*]] = call @tileTensorMapGetCached
  // CHECK: %[[NULL:.*]] = llvm.mlir.zero : !llvm.ptr
  // CHECK: %[[OK:.*]] = llvm.icmp "ne" %[[MAP]], %[[NULL]] : !llvm.ptr
  // CHECK: %[[ZERO:.*]] = llvm.mlir.addressof @[[ZERO_MAP]] : !llvm.ptr
  // CHECK: %[[PTR:.*]] = llvm.select %[[OK]], %[[MAP]], %[[ZERO]] : i1, !llvm.ptr
  // CHECK: %[[C0:.*]] = arith.constant 0 : index
  // CHECK: %[[GX:.*]] = arith.select %[[OK]], %[[C1]], %[[C0]] : index
  // CHECK: %[[V:.*]] = llvm.load %[[PTR]] : !llvm.ptr -> !llvm.array<16 x i64>
  // CHECK-NOT: scf.if
  // CHECK: %[[T:.*]] = gpu.launch_func async [%[[DEP]]] @k2::@load blocks in (%[[GX]], %[[C1]], %[[C1]]) {{.*}} args(%[[A]] : memref<8x256xf16>, %[[V]] : !llvm.array<16 x i64>)
  // CHECK: gpu.wait [%[[T]]]
  func.func @async_host(%A: memref<8x256xf16>, %dep: !gpu.async.token) {
    %c1 = arith.constant 1 : index
    %smem = arith.constant 4096 : i32
    %t = gpu.launch_func async [%dep] @k2::@load blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
        dynamic_shared_memory_size %smem args(%A : memref<8x256xf16>)
    gpu.wait [%t]
    return
  }
  gpu.module @k2 {
    gpu.func @load(%A: memref<8x256xf16>) kernel {
      %c0 = arith.constant 0 : index
      %s = tile.arena_view [0] : !ref2
      %bar = nvgpu.mbarrier.create -> !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
      tile.copy_async %s[0, 0] [8, 256], %A[0, 0] [8, 256] barrier(%bar[%c0])
          : !ref2, memref<8x256xf16>, !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
      gpu.return
    }
  }
}

// -----

// Two launches of one kernel in one block on different buffers: each launch
// gets the map encoded from its own buffer's pointer; a third launch on the
// first buffer reuses the first encode.
!ref3 = memref<8x256xf16, #tile.layout<(8, 4, 64) : (64, 512, 1), swizzle = 128B>, #gpu.address_space<workgroup>>
module attributes {gpu.container_module} {
  // CHECK-LABEL: func.func @two_buffers
  // CHECK-SAME: (%[[X:.*]]: memref<8x256xf16>, %[[Y:.*]]: memref<8x256xf16>)
  // CHECK: %[[PX:.*]] = memref.extract_aligned_pointer_as_index %[[X]] : memref<8x256xf16> -> index
  // CHECK-NEXT: %[[IX:.*]] = arith.index_cast %[[PX]] : index to i64
  // CHECK-NEXT: %[[BX:.*]] = llvm.inttoptr %[[IX]] : i64 to !llvm.ptr
  // CHECK: %[[MX:.*]] = call @tileTensorMapGetCached(%{{.*}}, %{{.*}}, %[[BX]], %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}})
  // CHECK-NOT: tileTensorMapGetCached
  // CHECK: %[[OKX:.*]] = llvm.icmp "ne" %[[MX]], %{{.*}} : !llvm.ptr
  // CHECK: scf.if %[[OKX]] {
  // CHECK-NEXT: %[[VX:.*]] = llvm.load %[[MX]] : !llvm.ptr -> !llvm.array<16 x i64>
  // CHECK-NEXT: gpu.launch_func @k3::@load {{.*}} args(%[[X]] : memref<8x256xf16>, %[[VX]] : !llvm.array<16 x i64>)
  // CHECK: %[[PY:.*]] = memref.extract_aligned_pointer_as_index %[[Y]] : memref<8x256xf16> -> index
  // CHECK-NEXT: %[[IY:.*]] = arith.index_cast %[[PY]] : index to i64
  // CHECK-NEXT: %[[BY:.*]] = llvm.inttoptr %[[IY]] : i64 to !llvm.ptr
  // CHECK: %[[MY:.*]] = call @tileTensorMapGetCached(%{{.*}}, %{{.*}}, %[[BY]], %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}})
  // CHECK-NOT: tileTensorMapGetCached
  // CHECK: %[[OKY:.*]] = llvm.icmp "ne" %[[MY]], %{{.*}} : !llvm.ptr
  // CHECK: scf.if %[[OKY]] {
  // CHECK-NEXT: %[[VY:.*]] = llvm.load %[[MY]] : !llvm.ptr -> !llvm.array<16 x i64>
  // CHECK-NEXT: gpu.launch_func @k3::@load {{.*}} args(%[[Y]] : memref<8x256xf16>, %[[VY]] : !llvm.array<16 x i64>)
  // CHECK-NOT: tileTensorMapGetCached
  // CHECK: %[[OKX2:.*]] = llvm.icmp "ne" %[[MX]], %{{.*}} : !llvm.ptr
  // CHECK: scf.if %[[OKX2]] {
  // CHECK-NEXT: %[[VX2:.*]] = llvm.load %[[MX]] : !llvm.ptr -> !llvm.array<16 x i64>
  // CHECK-NEXT: gpu.launch_func @k3::@load {{.*}} args(%[[X]] : memref<8x256xf16>, %[[VX2]] : !llvm.array<16 x i64>)
  // CHECK: return
  func.func @two_buffers(%X: memref<8x256xf16>, %Y: memref<8x256xf16>) {
    %c1 = arith.constant 1 : index
    %smem = arith.constant 4096 : i32
    gpu.launch_func @k3::@load blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
        dynamic_shared_memory_size %smem args(%X : memref<8x256xf16>)
    gpu.launch_func @k3::@load blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
        dynamic_shared_memory_size %smem args(%Y : memref<8x256xf16>)
    gpu.launch_func @k3::@load blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
        dynamic_shared_memory_size %smem args(%X : memref<8x256xf16>)
    return
  }
  gpu.module @k3 {
    gpu.func @load(%A: memref<8x256xf16>) kernel {
      %c0 = arith.constant 0 : index
      %s = tile.arena_view [0] : !ref3
      %bar = nvgpu.mbarrier.create -> !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
      tile.copy_async %s[0, 0] [8, 256], %A[0, 0] [8, 256] barrier(%bar[%c0])
          : !ref3, memref<8x256xf16>, !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
      gpu.return
    }
  }
}

// -----

// A NaN-fill load: every argument of the encode call in its position, with
// oob_fill = 1 (and interleave = 0) as constants.
!ref4 = memref<8x256xf16, #tile.layout<(8, 4, 64) : (64, 512, 1), swizzle = 128B>, #gpu.address_space<workgroup>>
module attributes {gpu.container_module} {
  // CHECK-LABEL: func.func @nan_host
  // CHECK-SAME: (%[[A:.*]]: memref<8x256xf16>)
  // CHECK: %[[P:.*]] = memref.extract_aligned_pointer_as_index %[[A]]
  // CHECK-NEXT: %[[I:.*]] = arith.index_cast %[[P]] : index to i64
  // CHECK-NEXT: %[[BASE:.*]] = llvm.inttoptr %[[I]] : i64 to !llvm.ptr
  // CHECK-NEXT: %[[DIMS:.*]] = llvm.mlir.addressof @__tile_tmap_i64_64_8_4 : !llvm.ptr
  // CHECK-NEXT: %[[STRIDES:.*]] = llvm.mlir.addressof @__tile_tmap_i64_512_128 : !llvm.ptr
  // CHECK-NEXT: %[[BOX:.*]] = llvm.mlir.addressof @__tile_tmap_i32_64_8_4 : !llvm.ptr
  // CHECK-NEXT: %[[ES:.*]] = llvm.mlir.addressof @__tile_tmap_i32_1_1_1 : !llvm.ptr
  // CHECK-NEXT: %[[DT:.*]] = arith.constant 6 : i32
  // CHECK-NEXT: %[[RANK:.*]] = arith.constant 3 : i32
  // CHECK-NEXT: %[[IL:.*]] = arith.constant 0 : i32
  // CHECK-NEXT: %[[SWZ:.*]] = arith.constant 3 : i32
  // CHECK-NEXT: %[[L2:.*]] = arith.constant 2 : i32
  // CHECK-NEXT: %[[OOB:.*]] = arith.constant 1 : i32
  // CHECK-NEXT: %[[MAP:.*]] = call @tileTensorMapGetCached(%[[DT]], %[[RANK]], %[[BASE]], %[[DIMS]], %[[STRIDES]], %[[BOX]], %[[ES]], %[[IL]], %[[SWZ]], %[[L2]], %[[OOB]]) {tile.tensor_map = #tile.tensor_map<tiled, arg = 1, global_arg = 0, map = #tile.tiled_map<"f16", {{.*}}, swizzle = "128B", interleave = 0, l2_promotion = 2, oob = "nan", {{.*}}>>} : (i32, i32, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, i32, i32, i32, i32) -> !llvm.ptr
  func.func @nan_host(%A: memref<8x256xf16>) {
    %c1 = arith.constant 1 : index
    %smem = arith.constant 4096 : i32
    gpu.launch_func @k4::@load blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
        dynamic_shared_memory_size %smem args(%A : memref<8x256xf16>)
    return
  }
  gpu.module @k4 {
    // CHECK-LABEL: gpu.func @load
    // CHECK-SAME: tile.tensor_maps = [#tile.tensor_map<tiled, arg = 1, global_arg = 0, map = #tile.tiled_map<"f16", {{.*}}, swizzle = "128B", interleave = 0, l2_promotion = 2, oob = "nan", {{.*}}>>]
    gpu.func @load(%A: memref<8x256xf16>) kernel {
      %c0 = arith.constant 0 : index
      %s = tile.arena_view [0] : !ref4
      %bar = nvgpu.mbarrier.create -> !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
      tile.copy_async %s[0, 0] [8, 256], %A[-2, 0] [8, 256] barrier(%bar[%c0]) {oob = "nan"}
          : !ref4, memref<8x256xf16>, !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
      gpu.return
    }
  }
}

// -----

// A strided view with an element offset: the map's base is the buffer's
// aligned pointer advanced by the offset in bytes (64 f16 = 128 B).
!ref3 = memref<64x64xf16, #tile.layout<(64, 64), swizzle = 128B>, #gpu.address_space<workgroup>>
module attributes {gpu.container_module} {
  // CHECK-LABEL: func.func @view_host
  // CHECK-SAME: (%[[V:.*]]: memref<128x64xf16, strided<[64, 1], offset: 64>>)
  // CHECK: %[[P:.*]] = memref.extract_aligned_pointer_as_index %[[V]]
  // CHECK: %[[I:.*]] = arith.index_cast %[[P]] : index to i64
  // CHECK: %[[BASE:.*]] = llvm.inttoptr %[[I]] : i64 to !llvm.ptr
  // CHECK: %[[OFF:.*]] = arith.constant 128 : i64
  // CHECK: %[[ADDR:.*]] = llvm.getelementptr %[[BASE]][%[[OFF]]] : (!llvm.ptr, i64) -> !llvm.ptr, i8
  // CHECK: call @tileTensorMapGetCached(%{{.*}}, %{{.*}}, %[[ADDR]], {{.*}}base = 128,
  func.func @view_host(%v: memref<128x64xf16, strided<[64, 1], offset: 64>>) {
    %c1 = arith.constant 1 : index
    %smem = arith.constant 8192 : i32
    gpu.launch_func @k3::@load blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
        dynamic_shared_memory_size %smem args(%v : memref<128x64xf16, strided<[64, 1], offset: 64>>)
    return
  }
  gpu.module @k3 {
    gpu.func @load(%v: memref<128x64xf16, strided<[64, 1], offset: 64>>) kernel {
      %c0 = arith.constant 0 : index
      %s = tile.arena_view [0] : !ref3
      %bar = nvgpu.mbarrier.create -> !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
      tile.copy_async %s[0, 0] [64, 64], %v[0, 0] [64, 64] barrier(%bar[%c0])
          : !ref3, memref<128x64xf16, strided<[64, 1], offset: 64>>, !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
      gpu.return
    }
  }
}
