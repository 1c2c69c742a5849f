//===- Passes.td - tile conversion passes ------------------*- tablegen -*-===//
//
// The lowering into NVVM, and the kernel side of the tensor-map ABI after
// convert-gpu-to-nvvm.
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
