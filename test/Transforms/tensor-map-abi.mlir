// RUN: tile-opt %s -split-input-file --tile-tensor-map-abi | FileCheck %s

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
  // CHECK: %[[MA:.*]] = call @tileTensorMapGetCached(%[[F16]], %[[RANK]], %[[BA]], %[[DIMS]], %[[STRIDES]], %[[BOX]], %[[ES]], %[[ZERO]], %[[SWZ]], %[[L2]], %{{.*}}) {tile.tensor_map = {base_offset_bytes = 0 : i64, box_dim = array<i64: 64, 8, 4>, data_type = "f16", data_type_enum = 6 : i64, element_strides = array<i64: 1, 1, 1>, global_arg = 0 : i64, global_dim = array<i64: 64, 8, 4>, global_strides = array<i64: 512, 128>, interleave = 0 : i64, l2_promotion = 2 : i64, oob_fill = 0 : i64, rank = 3 : i64, swizzle = 3 : i64}}
  // CHECK: %[[PB:.*]] = memref.extract_aligned_pointer_as_index %[[B]]
  // CHECK: %[[MB:.*]] = call @tileTensorMapGetCached({{.*}}global_arg = 1 : i64
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
  // CHECK: call @tileTensorMapGetCached({{.*}}global_arg = 1 : i64
  // CHECK: scf.for
  // CHECK: memref.alloc
  // CHECK: call @tileTensorMapGetCached({{.*}}global_arg = 0 : i64
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
    // CHECK-SAME: tile.tensor_maps = [{arg = 2 : i64, {{.*}}global_arg = 0 : i64{{.*}}}, {arg = 3 : i64, {{.*}}global_arg = 1 : i64{{.*}}}]
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
