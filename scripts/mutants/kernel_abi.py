"""Mutants of kernel ABI finalisation (lib/Conversion/KernelABI)."""
from ._catalog import Library

LIBRARY = Library("lib/Conversion/KernelABI")
M = LIBRARY.mutant

MUTANTS = [
    M("kabi-align", "FinalizeKernelABI.cpp",
      "b.getI64IntegerAttr(64));", "b.getI64IntegerAttr(16));",
      "tensor-map parameters only 16-byte aligned (TMA needs 64)",
      function="FinalizeKernelABIPass::runOnOperation"),
    M("kabi-param-index", "FinalizeKernelABI.cpp",
      "unsigned first = func.getNumArguments() - maps.size();",
      "unsigned first = func.getNumArguments() - maps.size() - 1;",
      "recorded parameter index of each map off by one (foreign hosts)",
      function="recordParameterIndices"),
    M("kabi-grid-constant", "FinalizeKernelABI.cpp",
      "func.setArgAttr(index, NVVM::NVVMDialect::getGridConstantAttrName(),",
      "func.setArgAttr(index, StringRef(\"tile.not_grid_constant\"),",
      "tensor-map parameter not grid_constant: TMA gets a local copy's "
      "address",
      function="FinalizeKernelABIPass::runOnOperation"),
]
