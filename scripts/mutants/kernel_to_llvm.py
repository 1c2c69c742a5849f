"""Mutants of the fused kernel lowering (lib/Conversion/KernelToLLVM)."""
from ._catalog import Library

LIBRARY = Library("lib/Conversion/KernelToLLVM")
M = LIBRARY.mutant

MUTANTS = [
    M("k2l-ignores-index-width", "KernelToLLVM.cpp",
      "if (options.getIndexBitwidth() != step->converter->getIndexTypeBitwidth())",
      "if (false)",
      "a module with 32-bit indices lowered with the shared 64-bit conversion",
      function="TileKernelToLLVMPass::lowerGpuToNVVM"),
    M("k2l-no-kernel-abi", "KernelToLLVM.cpp",
      "if (failed(tile::finalizeKernelABI(module)))",
      "if (false)",
      "tensor-map arguments stay by-value arrays behind casts",
      function="TileKernelToLLVMPass::runOnOperation"),
    M("k2l-no-in-dialect", "KernelToLLVM.cpp",
      "if (holdsRootOf(module, step->inDialect) &&",
      "if (false &&",
      "64-bit shuffles and the other in-dialect rewrites never run",
      function="TileKernelToLLVMPass::lowerGpuToNVVM"),
    M("k2l-no-nvgpu", "KernelToLLVM.cpp",
      "if (failed(apply(module, lowering->nvgpuToNVVM->step)) ||",
      "if (",
      "mbarrier ops reach the GPU conversion unlowered",
      function="TileKernelToLLVMPass::runOnOperation"),
    M("k2l-cleanup-no-canonicalize", "KernelToLLVM.cpp",
      "(void)applyPatternsGreedily(root, patterns, config);",
      "",
      "the pipeline's kernels keep the conversions' dead and foldable ops",
      function="canonicalizeAndEliminate"),
    M("k2l-no-lower-tile", "KernelToLLVM.cpp",
      "if (lowerTile && failed(tile::lowerTileOps(module, prefetchTensorMaps)))",
      "if (false)",
      "the pipeline's kernels reach the GPU conversion with tile ops",
      function="TileKernelToLLVMPass::runOnOperation"),
]
