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

def TileHostToLLVM : Pass<"convert-tile-host-to-llvm", "ModuleOp"> {
  let summary = "Lowers the host code (functions, memref descriptors, control "
                "flow, launches) to LLVM in one conversion that never enters "
                "a gpu.module";
  let description = [{
    One partial conversion with the patterns of `finalize-memref-to-llvm`,
    `convert-cf-to-llvm`, `convert-func-to-llvm`, `convert-arith-to-llvm`,
    `convert-index-to-llvm` and `gpu-to-llvm` (a `gpu.launch_func` keeps its
    form with LLVM operands; translation emits the runtime calls).
    `gpu.module` and `gpu.binary` ops are legal with everything they hold:
    the device code has its own nested pipeline. Run as five module passes,
    the upstream conversions each walk (and check the legality of) every op
    of every kernel, which cost most of the host lowering's time in modules
    with many kernels.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

#endif // TILE_CONVERSION_PASSES_TD
