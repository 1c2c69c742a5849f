"""Mutants of the pipeline (lib/Pipelines, include/tile/Pipelines)."""
from ._catalog import Library

LIBRARY = Library("lib/Pipelines", "include/tile/Pipelines")
M = LIBRARY.mutant

MUTANTS = [
    M("pipe-ptx-version", "Pipelines.cpp",
      ": \"+ptx83\")", ": \"+ptx70\")",
      "PTX 7.0 requested for sm_90a",
      function="addKernelPasses"),
    M("pipe-no-arena-size", "Pipelines.cpp",
      "  pm.addPass(createTileArenaSize());\n", "",
      "the pipeline does not size the arena: launches lack shared memory",
      function="addKernelPasses"),
]
