// The reference demo through the whole pipeline to PTX.
// RUN: tile-opt %tile_src_root/examples/copy_async_tma.mlir --tile-gpu-pipeline=format=isa -o %t.mlir
// RUN: FileCheck %s --check-prefix=HOST < %t.mlir
// RUN: python3 %tile_src_root/scripts/extract-ptx.py %t.mlir -o %t.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// RUN: tile-opt %tile_src_root/examples/copy_async_tma.mlir --tile-gpu-pipeline=format=none | FileCheck %s --check-prefix=KERNEL

// The kernel keeps its maps' plans for foreign hosts: `arg` is the gpu.func
// argument, `param` the parameter index after memref expansion.
// KERNEL: llvm.func @copy_async_kernel({{.*}}, %{{.*}}: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<16 x i64>, nvvm.grid_constant})
// KERNEL-SAME: tile.tensor_maps = [#tile.tensor_map<tiled, arg = 2, param = 14, global_arg = 0, map = #tile.tiled_map<"f16", dim = [64, 8, 4], strides = [512, 128], box = [64, 8, 4], element_strides = [1, 1, 1], swizzle = "128B", interleave = 0, l2_promotion = 2, oob = "zero", base = 0, element_bytes = 2, promoted = false>>]

// The host encodes the map once, before the launch, with the reference
// values (f16, rank 3, 64,8,4 / 512,128 / 64,8,4 / 1,1,1 / 0,3,2,0), and
// passes it by value after the user's arguments.
// HOST-LABEL: llvm.func @copy_async(
// HOST: %[[MAP:.*]] = llvm.call @tileTensorMapGetCached({{.*}}) {tile.tensor_map = #tile.tensor_map<tiled, arg = 2, global_arg = 0, map = #tile.tiled_map<"f16", dim = [64, 8, 4], strides = [512, 128], box = [64, 8, 4], element_strides = [1, 1, 1], swizzle = "128B", interleave = 0, l2_promotion = 2, oob = "zero", base = 0, element_bytes = 2, promoted = false>>}
// HOST-NOT: tileTensorMapGetCached
// HOST: %[[VAL:.*]] = llvm.load %[[MAP]] : !llvm.ptr -> !llvm.array<16 x i64>
// HOST: gpu.launch_func @copy_async_kernel::@copy_async_kernel {{.*}}, %[[VAL]] : !llvm.array<16 x i64>)
// HOST: gpu.binary @copy_async_kernel

// The map is a 64-byte aligned 128-byte grid-constant parameter whose
// address feeds the TMA load; the arena is an external 1024-aligned shared
// array, and the CTA's copy-back still reads it (no miscompile to `ret`).
// PTX: .target sm_90a
// PTX: .extern .shared .align 1024 .b8 __tile_arena[];
// PTX: .visible .entry copy_async_kernel(
// PTX: .param .align 64 .b8 copy_async_kernel_param_14[128]
// PTX: mov.b64 %[[P:rd[0-9]+]], copy_async_kernel_param_14;
// PTX: cvta.param.u64 %[[MAPADDR:rd[0-9]+]], %[[P]];
// PTX: cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%{{rd[0-9]+}}], [%[[MAPADDR]], {%{{r[0-9]+}}, %{{r[0-9]+}}, %{{r[0-9]+}}}], [__mbarrier];
// PTX: mbarrier.arrive.expect_tx.shared.b64
// PTX: mbarrier.try_wait.parity
// PTX: ld.shared.b16
// PTX: st.global.b16

// sm_100a: PTX 8.6, same instruction (no .cta_group: the default applies).
// RUN: tile-opt %tile_src_root/examples/copy_async_tma.mlir '--tile-gpu-pipeline=chip=sm_100a' -o %t.100.mlir
// RUN: python3 %tile_src_root/scripts/extract-ptx.py %t.100.mlir | FileCheck %s --check-prefix=SM100
// SM100: .version 8.6
// SM100: .target sm_100a
// SM100: cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
