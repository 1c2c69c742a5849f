//===- Passes.td - tile conversion passes ------------------*- tablegen -*-===//
//
// The lowering into NVVM and the kernel-ABI passes around it: the host side
// of tensor maps and the arena size before the conversion, the kernel side of
// tensor maps after convert-gpu-to-nvvm.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_CONVERSION_PASSES_TD
#define TILE_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def TileToNVVM : Pass<"convert-tile-to-nvvm"> {
  let summary = "Lowers tile ops to NVVM through the copy dispatch";
  let description = [{
    Lowers `tile.copy_async` through the dispatch registry (`tma`: one
    `cp.async.bulk.tensor` per planned issue; `simt`: per-thread loads and
    stores that complete the caller's mbarrier transaction count), `tile.copy`
    (collective copies across the scope's threads), `tile.arena_view` (views
    of an `external` 1024-aligned shared-memory global), `tile.stage` and the
    bulk-group ops. A copy no variant can lower is an error that lists every
    variant with its reason.
  }];
  let options = [
    Option<"prefetchTensorMaps", "prefetch-tensor-maps", "bool",
           /*default=*/"false",
           "Prefetch each tensor map once per CTA (prefetch.tensormap)">
  ];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect",
                           "::mlir::NVVM::NVVMDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::gpu::GPUDialect"];
}

def TileTensorMapABI : Pass<"tile-tensor-map-abi", "ModuleOp"> {
  let summary = "Adds tensor-map kernel arguments and hoists their encoding "
                "into the host";
  let description = [{
    For every kernel (`gpu.func`) whose `tile.copy_async` ops dispatch to the
    `tma` variant: appends one by-value 128-byte tensor-map argument per
    distinct (global buffer, plan) after the user's arguments, in first-use
    order, records each map's plan on the kernel (`tile.tensor_maps`), and
    tags each copy with the argument it uses. At every `gpu.launch_func` of
    such a kernel, encodes the maps on the host before the launch through the
    runtime library's cached encoder (`tileTensorMapGetCached`), hoisted out
    of enclosing loops when the buffer is defined outside them, one call per
    distinct map, and passes them to the launch.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::func::FuncDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::gpu::GPUDialect"];
}

def TileArenaSize : Pass<"tile-arena-size", "ModuleOp"> {
  let summary = "Records each kernel's arena size and checks its launches";
  let description = [{
    Computes the dynamic shared memory each kernel's `tile.arena_view` ops
    need (the largest `offset + span`), records it on the kernel as
    `tile.arena_bytes`, and at every `gpu.launch_func` of the kernel: sets
    `dynamic_shared_memory_size` when the launch gives none, and rejects a
    launch whose constant size is smaller than the arena.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def TileFinalizeKernelABI : Pass<"tile-finalize-kernel-abi"> {
  let summary = "Turns tensor-map kernel arguments into grid-constant byval "
                "pointers";
  let description = [{
    Runs after `convert-gpu-to-nvvm`: each tensor-map argument of an NVVM
    kernel becomes `!llvm.ptr {llvm.byval = !llvm.array<16 x i64>,
    llvm.align = 64, nvvm.grid_constant}` (a `.param .align 64 .b8 [128]` in
    PTX) and the copies use its address directly.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

#endif // TILE_CONVERSION_PASSES_TD
