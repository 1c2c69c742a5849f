//===- TileOps.h - tile dialect operations ----------------------*- C++ -*-===//

#ifndef TILE_DIALECT_TILE_IR_TILEOPS_H
#define TILE_DIALECT_TILE_IR_TILEOPS_H

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "tile/Dialect/Tile/IR/TileDialect.h"
#include "tile/MMA/WgmmaDescriptor.h"

namespace mlir::tile {
/// Dynamic shared memory a kernel may use on sm_90 and sm_100 (227 KiB, the
/// driver's opt-in maximum per block): arena views must end below it.
constexpr int64_t kMaxDynamicSharedBytes = 232448;

/// The TMA core's name for a copy's reduction.
::tile::tma::ReduceKind toTmaReduceKind(ReduceMode mode);
} // namespace mlir::tile

#define GET_OP_CLASSES
#include "tile/Dialect/Tile/IR/TileOps.h.inc"

#endif // TILE_DIALECT_TILE_IR_TILEOPS_H
