//===- TileEnums.td - Enums of the tile ops' attributes ----*- tablegen -*-===//
//
// The values the string attributes of tile.copy_async and tile.copy may take.
// The attributes stay StringAttrs (`{oob = "nan"}`): these enums give C++ the
// typed values and the symbolize/stringify functions, not new syntax. The
// last one is a parameter of `#tile.tensor_map` (a bare keyword there).
//
//===----------------------------------------------------------------------===//

#ifndef TILE_ENUMS_TD
#define TILE_ENUMS_TD

include "mlir/IR/EnumAttr.td"

class Tile_I32Enum<string name, string summary, list<EnumCase> cases>
    : I32Enum<name, summary, cases> {
  let cppNamespace = "::mlir::tile";
}

def Tile_OobMode : Tile_I32Enum<"OobMode",
    "out-of-bounds fill of a tile.copy_async load (`oob`)", [
  I32EnumCase<"Zero", 0, "zero">,
  I32EnumCase<"NaN", 1, "nan">
]>;

def Tile_ReduceMode : Tile_I32Enum<"ReduceMode",
    "reduction of a tile.copy_async store (`reduce`)", [
  I32EnumCase<"Add", 0, "add">,
  I32EnumCase<"Min", 1, "min">,
  I32EnumCase<"Max", 2, "max">,
  I32EnumCase<"Inc", 3, "inc">,
  I32EnumCase<"Dec", 4, "dec">,
  I32EnumCase<"And", 5, "and">,
  I32EnumCase<"Or", 6, "or">,
  I32EnumCase<"Xor", 7, "xor">
]>;

def Tile_CacheHint : Tile_I32Enum<"CacheHint",
    "L2 cache policy of a tile.copy_async (`cache_hint`)", [
  I32EnumCase<"EvictFirst", 0, "evict_first">,
  I32EnumCase<"EvictLast", 1, "evict_last">,
  I32EnumCase<"EvictNormal", 2, "evict_normal">
]>;

def Tile_CopyScope : Tile_I32Enum<"CopyScope",
    "threads taking part in a tile.copy (`scope`)", [
  I32EnumCase<"Thread", 0, "thread">,
  I32EnumCase<"Warp", 1, "warp">,
  I32EnumCase<"Warpgroup", 2, "warpgroup">,
  I32EnumCase<"Cta", 3, "cta">
]>;

def Tile_TensorMapMode : Tile_I32Enum<"TensorMapMode",
    "how a `#tile.tensor_map` is encoded: cuTensorMapEncodeTiled or "
    "cuTensorMapEncodeIm2col", [
  I32EnumCase<"Tiled", 0, "tiled">,
  I32EnumCase<"Im2col", 1, "im2col">
]>;

def Tile_WgmmaSwizzle : Tile_I32Enum<"WgmmaSwizzle",
    "the swizzle mode field of a wgmma shared-memory descriptor (its "
    "hardware value)", [
  I32EnumCase<"Interleave", 0, "interleave">,
  I32EnumCase<"B128", 1, "128B">,
  I32EnumCase<"B64", 2, "64B">,
  I32EnumCase<"B32", 3, "32B">
]>;

def Tile_WgmmaMajor : Tile_I32Enum<"WgmmaMajor",
    "which dimension of a wgmma operand in shared memory is contiguous: K, "
    "or M/N (the transposed operand, f16 and bf16 only)", [
  I32EnumCase<"K", 0, "k">,
  I32EnumCase<"MN", 1, "mn">
]>;

def Tile_ConsumerReads : Tile_I32Enum<"ConsumerReads",
    "how a tile.pipeline's consumers read a stage (`reads`): with ordinary "
    "loads, complete when the consume body ends, or through wgmma, complete "
    "when the warpgroup's wgmma group has", [
  I32EnumCase<"Generic", 0, "generic">,
  I32EnumCase<"Wgmma", 1, "wgmma">
]>;

def Tile_ConsumerSchedule : Tile_I32Enum<"ConsumerSchedule",
    "how a persistent tile.pipeline's consumer warpgroups share its work "
    "tiles (`schedule`): every consumer takes part in every tile "
    "(cooperative), or they take the tiles in turn, one consumer per tile "
    "(pingpong)", [
  I32EnumCase<"Cooperative", 0, "cooperative">,
  I32EnumCase<"Pingpong", 1, "pingpong">
]>;

#endif // TILE_ENUMS_TD
