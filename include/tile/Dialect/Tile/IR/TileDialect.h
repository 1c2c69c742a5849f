//===- TileDialect.h - The tile dialect -------------------------*- C++ -*-===//

#ifndef TILE_DIALECT_TILE_IR_TILEDIALECT_H
#define TILE_DIALECT_TILE_IR_TILEDIALECT_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Dialect.h"
#include "tile/Layout/Layout.h"
#include "tile/TMA/Im2col.h"
#include "tile/TMA/Plan.h"
#include "llvm/ADT/Hashing.h"

namespace tile::tma {
/// Hashes of the pure core's records, by field, for the storages of
/// `#tile.tma_plan`, `#tile.tiled_map`, `#tile.im2col_map` and `#tile.guard`
/// (PlanHashing.cpp).
llvm::hash_code hash_value(const SymExpr &expr);
llvm::hash_code hash_value(const TensorMapDesc &map);
llvm::hash_code hash_value(const TmaPlan &plan);
llvm::hash_code hash_value(const Im2colMapDesc &map);
llvm::hash_code hash_value(const Guard &guard);
} // namespace tile::tma

// OobMode, ReduceMode, CacheHint, CopyScope (TileEnums.td).
#include "tile/Dialect/Tile/IR/TileEnums.h.inc"

#include "tile/Dialect/Tile/IR/TileOpsDialect.h.inc"

#define GET_ATTRDEF_CLASSES
#include "tile/Dialect/Tile/IR/TileAttrs.h.inc"

#define GET_TYPEDEF_CLASSES
#include "tile/Dialect/Tile/IR/TileOpsTypes.h.inc"

namespace mlir::tile {
/// Parses the `map` of a `#tile.im2col_plan`: a `#tile.im2col_map`.
FailureOr<Im2colMapAttr> parseIm2colMapField(AsmParser &parser);
} // namespace mlir::tile

#endif // TILE_DIALECT_TILE_IR_TILEDIALECT_H
