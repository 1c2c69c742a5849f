"""Mutants of the view lowering's gate (lib/Conversion/Views)."""
from ._catalog import Library

LIBRARY = Library("lib/Conversion/Views")
M = LIBRARY.mutant

MUTANTS = [
    M("views-never-work", "LowerViews.cpp",
      "if (!holdsWork(root)) {",
      "if (true) {",
      "kernel views reach the conversions unexpanded",
      function="TileLowerViewsPass::runOnOperation"),
    M("views-affine-not-work", "LowerViews.cpp",
      "op->getName().getDialectNamespace() == affine",
      "false",
      "a kernel whose only view arithmetic is affine keeps its affine ops",
      function="TileLowerViewsPass::holdsWork"),
]
