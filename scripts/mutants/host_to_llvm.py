"""Mutants of the host lowering (lib/Conversion/HostToLLVM)."""
from ._catalog import Library

LIBRARY = Library("lib/Conversion/HostToLLVM")
M = LIBRARY.mutant

MUTANTS = [
    M("host-enters-kernels", "HostToLLVM.cpp",
      "if (!isa<gpu::GPUModuleOp, gpu::BinaryOp>(op))",
      "if (!isa<gpu::BinaryOp>(op))",
      "the host conversion walks and converts the kernels' ops again",
      function="TileHostToLLVMPass::runOnOperation"),
]
