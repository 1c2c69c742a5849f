"""Mutants of the host lowering (lib/Conversion/HostToLLVM)."""
from ._catalog import Library

LIBRARY = Library("lib/Conversion/HostToLLVM")
M = LIBRARY.mutant

MUTANTS = [
    M("host-enters-kernels", "HostToLLVM.cpp",
      "target.markOpRecursivelyLegal<gpu::GPUModuleOp, gpu::BinaryOp>();",
      "",
      "the host conversion walks and converts the kernels' ops again",
      function="TileHostToLLVMPass::runOnOperation"),
]
