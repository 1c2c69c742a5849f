"""Mutants of kernel ABI finalisation (lib/Conversion/KernelABI)."""
from ._catalog import Library

LIBRARY = Library("lib/Conversion/KernelABI")
M = LIBRARY.mutant

MUTANTS = [
    M("kabi-align", "FinalizeKernelABI.cpp",
      "b.getI64IntegerAttr(64));", "b.getI64IntegerAttr(16));",
      "tensor-map parameters only 16-byte aligned (TMA needs 64)",
      function="mlir::tile::finalizeKernelABI"),
    M("kabi-param-index", "FinalizeKernelABI.cpp",
      "unsigned first = func.getNumArguments() - maps.size() - after;",
      "unsigned first = func.getNumArguments() - maps.size() - after - 1;",
      "recorded parameter index of each map off by one (foreign hosts)",
      function="recordParameterIndices"),
    M("kabi-param-index-device-maps", "FinalizeKernelABI.cpp",
      "unsigned after = func->hasAttr(kDeviceMapArrayArgAttr) ? 1 : 0;",
      "unsigned after = 0;",
      "the maps' parameter indices of a kernel with device maps count the "
      "slot array as a map: a foreign host passes the maps one slot late",
      function="recordParameterIndices"),
    M("kabi-grid-constant", "FinalizeKernelABI.cpp",
      "func.setArgAttr(index, NVVM::NVVMDialect::getGridConstantAttrName(),",
      "func.setArgAttr(index, StringRef(\"tile.not_grid_constant\"),",
      "tensor-map parameter not grid_constant: TMA gets a local copy's "
      "address",
      function="mlir::tile::finalizeKernelABI"),
]
