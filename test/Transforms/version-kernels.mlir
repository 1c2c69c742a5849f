// RUN: tile-opt %tile_src_root/examples/dynamic_tiled_copy.mlir --gpu-kernel-outlining --tile-arena-size --tile-plan-copies --tile-version-kernels | FileCheck %s
// RUN: tile-opt %tile_src_root/examples/dynamic_tiled_copy.mlir --gpu-kernel-outlining --tile-arena-size --tile-plan-copies --tile-version-kernels --tile-tensor-map-abi | FileCheck %s --check-prefix=HOST
// RUN: tile-opt %tile_src_root/examples/copy_async_tma.mlir --gpu-kernel-outlining --tile-plan-copies --tile-version-kernels | FileCheck %s --check-prefix=STATIC

// The kernel keeps its guarded TMA plans and names its fallback version, a
// copy of it whose guarded copies are decided again without `tma`.
// CHECK-LABEL: gpu.module @tiled_copy_kernel
// CHECK: gpu.func @tiled_copy_kernel(%{{.*}}: memref<?x?xf16>, %{{.*}}: memref<?x?xf16>) kernel attributes {{{.*}}tile.fallback = @tiled_copy_kernel_fallback}
// CHECK: tile.copy_async {{.*}}tile.tma_plan = #tile.tma_plan<"f16", dim = [size(1), size(0)], strides = [stride(0)*2], box = [64, 64]{{.*}}tile.variant = "tma"
// CHECK: tile.copy_async {{.*}}tile.tma_plan = #tile.tma_plan<"f16", dim = [size(1), size(0)], strides = [stride(0)*2], box = [64, 64]{{.*}}tile.variant = "tma"
// CHECK: gpu.func @tiled_copy_kernel_fallback(%{{.*}}: memref<?x?xf16>, %{{.*}}: memref<?x?xf16>) kernel attributes {known_block_size = array<i32: 128, 1, 1>, tile.arena_bytes = 8192 : i64} {
// CHECK: tile.copy_async {{.*}}{tile.declined = {{\[\["tma", "guard: the fallback version of @tiled_copy_kernel, launched when a guard of this copy's TMA plan fails at run time"\]\]}}, tile.variant = "simt"}
// CHECK: tile.copy_async {{.*}}{tile.declined = {{\[\["tma", "guard: the fallback version of @tiled_copy_kernel, launched when a guard of this copy's TMA plan fails at run time"\]\]}}, tile.variant = "simt"}

// Host: the guards are read from the descriptors at the launch, the maps
// encoded only when they hold, and the launch picks the version.
// HOST-DAG: llvm.mlir.global private constant @[[SITESTR:__tile_str_[0-9a-f]+]]("@tiled_copy: launch of @tiled_copy_kernel::@tiled_copy_kernel\00")
// HOST-DAG: llvm.mlir.global private constant @__tile_str_{{.*}}("global-stride: stride[0]*2 % 16 == 0\00")
// HOST-DAG: llvm.mlir.global private constant @__tile_str_{{.*}}("store-bounds: size[1]*2 % 16 == 0\00")
// HOST-LABEL: func.func @tiled_copy(
// HOST: %[[DIMS:.*]] = llvm.alloca %{{.*}} x i64
// HOST: %{{.*}}, %{{.*}}, %[[SIZES:.*]]:2, %[[STRIDES:.*]]:2 = memref.extract_strided_metadata %arg0
// HOST: %[[S1:.*]] = arith.index_cast %[[SIZES]]#1 : index to i64
// HOST: arith.cmpi sge
// HOST: arith.cmpi sle
// HOST: %[[ST:.*]] = arith.index_cast %[[STRIDES]]#0 : index to i64
// HOST: arith.muli %[[ST]], %c2_i64
// HOST: arith.remui
// HOST: memref.extract_aligned_pointer_as_index %arg0
// HOST: %[[OKA:.*]] = arith.andi
// HOST: %[[MAPA:.*]] = scf.if %[[OKA]] -> (!llvm.ptr) {
// HOST: llvm.store
// HOST: func.call @tileTensorMapGetCached
// HOST: } else {
// HOST: llvm.mlir.zero
// HOST: %[[MAPB:.*]] = scf.if %[[OKB:.*]] -> (!llvm.ptr) {
// HOST: %[[OK:.*]] = arith.andi %[[OKA]], %[[OKB]] : i1
// HOST: %[[SITE:.*]] = llvm.mlir.addressof @[[SITESTR]] : !llvm.ptr
// HOST-NEXT: scf.if %[[OK]] {
// HOST: func.call @tileRuntimeNoteLaunchVersion(%[[SITE]], %c0_i32, %{{.*}})
// HOST: gpu.launch_func  @tiled_copy_kernel::@tiled_copy_kernel {{.*}}args(%arg0 : memref<?x?xf16>, %arg1 : memref<?x?xf16>, %{{.*}} : !llvm.array<16 x i64>, %{{.*}} : !llvm.array<16 x i64>)
// HOST: } else {
// HOST: func.call @tileRuntimeNoteLaunchVersion(%[[SITE]], %c1_i32, %{{.*}})
// HOST: gpu.launch_func  @tiled_copy_kernel::@tiled_copy_kernel_fallback {{.*}}args(%arg0 : memref<?x?xf16>, %arg1 : memref<?x?xf16>)
// HOST: } {tile.version_choice}

// The kernel's records carry the guards the host checks, typed: A's map reads
// its sizes and stride from the buffer; B's (the store) adds store-bounds.
// HOST-LABEL: gpu.func @tiled_copy_kernel(
// HOST-SAME: tile.tensor_maps = [#tile.tensor_map<tiled, arg = 2, global_arg = 0, map = #tile.tiled_map<"f16", dim = [size(1), size(0)], strides = [stride(0)*2], box = [64, 64], element_strides = [1, 1], swizzle = "128B", interleave = 0, l2_promotion = 2, oob = "zero", base = 0, element_bytes = 2, promoted = false>, guards = [#tile.guard<in_range, rule = "global-dim", constant = 0, terms = [size(1)], lo = 1, hi = 4294967296>, #tile.guard<in_range, rule = "global-dim", constant = 0, terms = [size(0)], lo = 1, hi = 4294967296>, #tile.guard<multiple_of, rule = "global-stride", constant = 0, terms = [stride(0)*2], modulus = 16>, #tile.guard<in_range, rule = "global-stride", constant = 0, terms = [stride(0)], lo = 0, hi = 549755813887>, #tile.guard<multiple_of, rule = "global-align", constant = 0, terms = [address], modulus = 16>]>,
// HOST-SAME: #tile.tensor_map<tiled, arg = 3, global_arg = 1, map = #tile.tiled_map<{{.*}}>, guards = [{{.*}}, #tile.guard<multiple_of, rule = "store-bounds", constant = 0, terms = [size(1)*2], modulus = 16>]>]}

// Static buffers have no guards: no fallback version.
// STATIC: gpu.func @copy_async_kernel
// STATIC-NOT: fallback
