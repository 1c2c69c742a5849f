//===- TileDialect.h - The tile dialect -------------------------*- C++ -*-===//

#ifndef TILE_DIALECT_TILE_IR_TILEDIALECT_H
#define TILE_DIALECT_TILE_IR_TILEDIALECT_H

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Dialect.h"
#include "tile/Layout/Layout.h"
#include "tile/TMA/Plan.h"
#include "llvm/ADT/Hashing.h"

namespace tile::tma {
/// Hash of a plan, for the storage of `#tile.tma_plan`.
llvm::hash_code hash_value(const TmaPlan &plan);
} // namespace tile::tma

// OobMode, ReduceMode, CacheHint, CopyScope (TileEnums.td).
#include "tile/Dialect/Tile/IR/TileEnums.h.inc"

#include "tile/Dialect/Tile/IR/TileOpsDialect.h.inc"

#define GET_ATTRDEF_CLASSES
#include "tile/Dialect/Tile/IR/TileAttrs.h.inc"

#endif // TILE_DIALECT_TILE_IR_TILEDIALECT_H
