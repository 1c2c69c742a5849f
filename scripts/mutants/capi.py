"""Mutants of the C API (lib/CAPI, include/tile-c)."""
from ._catalog import Library

LIBRARY = Library("lib/CAPI", "include/tile-c")
M = LIBRARY.mutant

MUTANTS = [
    M("capi-map-global-arg", "TensorMap.cpp",
      "out->globalArg = map.getGlobalArg();", "out->globalArg = map.getArg();",
      "a C host is told the map argument holds the buffer: it encodes the "
      "map of a tensor map",
      function="mlirTileTensorMapGetFields",
      tests=["lit:CAPI/capi.test"]),
    M("capi-guard-term-kind", "TensorMap.cpp",
      "    out->terms[i] = {static_cast<int32_t>(term.first.kind),",
      "    out->terms[i] = {static_cast<int32_t>(MlirTileRuntimeSize),",
      "a C host reads every guard term as a size: it checks strides and "
      "addresses it never reads",
      function="mlirTileTensorMapGetGuard",
      tests=["lit:CAPI/capi.test"]),
]
