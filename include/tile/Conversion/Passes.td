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
    with many kernels. Upstream's TMA descriptors made on the host
    (`nvgpu.tma.create.descriptor`) become calls of the runtime's
    `mgpuTensorMapEncodeTiledMemref`, and GPU memory spaces take the numbers
    the kernels' lowering gives them.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def TileKernelToLLVM : Pass<"convert-tile-kernel-to-llvm",
                             "::mlir::gpu::GPUModuleOp"> {
  let summary = "The kernel lowering after convert-tile-to-nvvm, in one pass "
                "with its patterns built once";
  let description = [{
    Applies, in order, what the upstream passes `convert-nvgpu-to-nvvm`,
    `convert-scf-to-cf`, `convert-gpu-to-nvvm` (default options),
    `tile-finalize-kernel-abi`, `convert-nvvm-to-llvm` and
    `reconcile-unrealized-casts` do to a `gpu.module`, with every type
    converter, target and pattern set built and frozen once when the pass
    manager starts and shared by all modules and threads. With `lower-tile`,
    it first does what `convert-tile-to-nvvm` does (with its
    `prefetch-tensor-maps`). With `cleanup`, it eliminates common
    subexpressions before the conversions (the tile lowering repeats
    constants and addresses per copy) and canonicalizes and eliminates them
    again after them, as `cse` and `canonicalize,cse` around it would. The
    pipeline sets both: each kernel module is lowered by one pass and
    verified once, where the ten passes it stands for would verify it ten
    times.

    Upstream's `convert-gpu-to-nvvm` builds its converter and the to-LLVM
    patterns of every loaded dialect for each `gpu.module`, and the pass
    manager verifies each module after each pass; with one module per kernel
    that was most of the device lowering's time. Differences from the
    separate passes: an nvgpu type without a conversion (a wgmma accumulator
    of other than f32, i32 or f16) leaves its op unconverted, a diagnostic,
    where upstream's pass stops the process; the in-dialect GPU rewrites
    (and the unrolling of n-D `vector.from_elements`) run only on modules
    that hold an op they rewrite (a `gpu.all_reduce`, not the `gpu.func`
    its rewrite is rooted on); elsewhere, of the folding their driver does
    on every op, only the producers of the operands of NVVM ops lowered to
    inline PTX are folded (an operand whose producer is a constant becomes
    an immediate; the PTX is that of the separate passes), and the rest is
    left to the canonicalization; the conversions fold nothing on
    their own (the canonicalization does); and a module whose data layout
    gives `index` a width other than 64 bits gets a conversion built for it.
    Kernel arguments of upstream's TMA descriptor type
    (`!nvgpu.tensormap.descriptor`, from a program using `nvgpu.tma.*`
    directly) become pointers, as the host passes them.
  }];
  let options = [
    Option<"lowerTile", "lower-tile", "bool", /*default=*/"false",
           "Lower the tile ops first, as convert-tile-to-nvvm does">,
    Option<"prefetchTensorMaps", "prefetch-tensor-maps", "bool",
           /*default=*/"false",
           "With lower-tile: prefetch each tensor map once per CTA">,
    Option<"cleanup", "cleanup", "bool", /*default=*/"false",
           "Eliminate common subexpressions before the conversion, then "
           "canonicalize and eliminate them again after it">
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::cf::ControlFlowDialect",
                           "::mlir::gpu::GPUDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::LLVM::LLVMDialect",
                           "::mlir::NVVM::NVVMDialect"];
}

def TileLowerViews : Pass<"tile-lower-views"> {
  let summary = "Runs expand-strided-metadata and lower-affine on an op that "
                "holds a view or an affine op";
  let description = [{
    Runs upstream's `expand-strided-metadata` and then `lower-affine`, as a
    nested pipeline verified like any other, on an op that holds an op one of
    them rewrites: an op the strided-metadata patterns are rooted on
    (`memref.subview`, `memref.reinterpret_cast`, `memref.expand_shape`,
    `memref.collapse_shape`, `memref.extract_strided_metadata`, ...) or an op
    of the affine dialect. On any other op it changes nothing and preserves
    every analysis, so the pass manager does not verify the op again.

    The pipeline runs it on every outlined kernel and host function; most of
    them hold no view, and two verifications of each kernel were a tenth of
    the pipeline's time for a program of a thousand kernels.
  }];
}

#endif // TILE_CONVERSION_PASSES_TD
