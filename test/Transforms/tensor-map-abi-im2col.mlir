// RUN: tile-opt %s --tile-plan-copies --tile-tensor-map-abi | FileCheck %s
// RUN: tile-opt %s --tile-plan-copies | FileCheck %s --check-prefix=RECORD
// RUN: tile-opt %s --tile-plan-copies --tile-check-recorded-plans -o /dev/null

// tile-plan-copies plans the load once and records the plan: the map with
// the buffer's sizes and byte strides innermost first, and the bytes.
// RECORD: tile.copy_im2col {{.*}}tile.im2col_plan = #tile.im2col_plan<map = #tile.im2col_map<"f16", dim = [64, 8, 8, 2], strides = [128, 1024, 8192], rank = 4, lower_corner = [-1, -1], upper_corner = [-1, -1], channels_per_pixel = 64, pixels_per_column = 64, element_strides = [1, 1, 1, 1], swizzle = "128B", l2_promotion = 2, oob = "zero", element_bytes = 2>, bytes = 8192>

// The host side of an im2col load: before the launch the host reads the
// buffer's sizes and strides (innermost first, strides in bytes), adds its
// element offset to the aligned address, and asks the runtime's im2col
// encoder for the map with the planned corners, tile shape and enums; the
// launch runs only when a map came back, and passes it by value.

// CHECK-DAG: llvm.mlir.global private constant @__tile_tmap_i32_1_1_1_1(dense<1> : tensor<4xi32>)
// CHECK-DAG: llvm.mlir.global private constant @"__tile_tmap_i32_-1_-1"(dense<-1> : tensor<2xi32>)
// CHECK-DAG: func.func private @tileTensorMapIm2colGetCached(i32, i32, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, i32, i32, !llvm.ptr, i32, i32, i32, i32) -> !llvm.ptr
// CHECK-LABEL: func.func @host(
// CHECK: %[[STRIDES:.*]] = llvm.alloca %{{.*}} x i64
// CHECK: %[[DIMS:.*]] = llvm.alloca %{{.*}} x i64
// CHECK: %{{.*}}, %[[OFF:.*]], %[[SZ:.*]]:4, %[[ST:.*]]:4 = memref.extract_strided_metadata
// CHECK: %[[D0:.*]] = arith.index_cast %[[SZ]]#3 : index to i64
// CHECK: %[[D1:.*]] = arith.index_cast %[[SZ]]#2 : index to i64
// CHECK: %[[S1E:.*]] = arith.index_cast %[[ST]]#2 : index to i64
// CHECK: %[[EB1:.*]] = arith.constant 2 : i64
// CHECK: %[[S1:.*]] = arith.muli %[[S1E]], %[[EB1]] : i64
// CHECK: %[[D2:.*]] = arith.index_cast %[[SZ]]#1 : index to i64
// CHECK: %[[S2E:.*]] = arith.index_cast %[[ST]]#1 : index to i64
// CHECK: %[[S2:.*]] = arith.muli %[[S2E]], %{{.*}} : i64
// CHECK: %[[D3:.*]] = arith.index_cast %[[SZ]]#0 : index to i64
// CHECK: %[[S3E:.*]] = arith.index_cast %[[ST]]#0 : index to i64
// CHECK: %[[S3:.*]] = arith.muli %[[S3E]], %{{.*}} : i64
// CHECK: %[[PTR:.*]] = llvm.inttoptr
// CHECK: %[[OFF64:.*]] = arith.index_cast %[[OFF]] : index to i64
// CHECK: %[[OFFB:.*]] = arith.muli %[[OFF64]], %{{.*}} : i64
// CHECK: %[[BASE:.*]] = llvm.getelementptr %[[PTR]][%[[OFFB]]] : (!llvm.ptr, i64) -> !llvm.ptr, i8
// CHECK: %[[F16:.*]] = arith.constant 6 : i32
// CHECK: %[[RANK:.*]] = arith.constant 4 : i32
// CHECK: llvm.store %[[D0]]
// CHECK: llvm.store %[[D1]]
// CHECK: llvm.store %[[D2]]
// CHECK: llvm.store %[[D3]]
// CHECK: llvm.store %[[S1]]
// CHECK: llvm.store %[[S2]]
// CHECK: llvm.store %[[S3]]
// CHECK: %[[LO:.*]] = llvm.mlir.addressof @"__tile_tmap_i32_-1_-1"
// CHECK: %[[HI:.*]] = llvm.mlir.addressof @"__tile_tmap_i32_-1_-1"
// CHECK: %[[CPP:.*]] = arith.constant 64 : i32
// CHECK: %[[PPC:.*]] = arith.constant 64 : i32
// CHECK: %[[ES:.*]] = llvm.mlir.addressof @__tile_tmap_i32_1_1_1_1
// CHECK: %[[IL:.*]] = arith.constant 0 : i32
// CHECK: %[[SW:.*]] = arith.constant 3 : i32
// CHECK: %[[L2:.*]] = arith.constant 2 : i32
// CHECK: %[[OOB:.*]] = arith.constant 0 : i32
// CHECK: %[[MAP:.*]] = call @tileTensorMapIm2colGetCached(%[[F16]], %[[RANK]], %[[BASE]], %[[DIMS]], %[[STRIDES]], %[[LO]], %[[HI]], %[[CPP]], %[[PPC]], %[[ES]], %[[IL]], %[[SW]], %[[L2]], %[[OOB]])
// CHECK: %[[OK:.*]] = llvm.icmp "ne" %[[MAP]]
// CHECK: scf.if %[[OK]] {
// CHECK: %[[VAL:.*]] = llvm.load %[[MAP]] : !llvm.ptr -> !llvm.array<16 x i64>
// CHECK: gpu.launch_func @kernels::@conv {{.*}} args(%{{.*}} : memref<2x8x8x64xf16>, {{.*}}, %[[VAL]] : !llvm.array<16 x i64>)

!bars = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
!tile = memref<64x64xf16, #tile.layout<(64, 64), swizzle = 128B>, #gpu.address_space<workgroup>>
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @conv(%x: memref<2x8x8x64xf16>, %n: index, %h: index, %w: index, %kh: index, %kw: index) kernel {
      %c0 = arith.constant 0 : index
      %bar = nvgpu.mbarrier.create -> !bars
      %s = tile.arena_view [0] : !tile
      tile.copy_im2col %s, %x[%n, %h, %w, %c0] offsets [%kh, %kw] barrier(%bar[%c0])
          {lower = array<i64: -1, -1>, upper = array<i64: -1, -1>} : !tile, memref<2x8x8x64xf16>, !bars
      gpu.return
    }
  }
  func.func @host(%x: memref<2x8x8x64xf16>) {
    %c1 = arith.constant 1 : index
    %c0 = arith.constant 0 : index
    %z = arith.constant 8192 : i32
    gpu.launch_func @kernels::@conv blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) dynamic_shared_memory_size %z args(%x : memref<2x8x8x64xf16>, %c0 : index, %c0 : index, %c0 : index, %c0 : index, %c0 : index)
    return
  }
}
