//===- CopyDecisionAttrs.h - Names of the recorded copy decision -*- C++
//-*-===//
//
// The discardable attributes `tile-plan-copies` writes on each copy and every
// later pass reads (the dialect verifies them, see CopyDecision.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef TILE_DIALECT_TILE_IR_COPYDECISIONATTRS_H
#define TILE_DIALECT_TILE_IR_COPYDECISIONATTRS_H

#include "llvm/ADT/StringRef.h"

namespace mlir::tile {
/// The selected variant's name (absent when no variant applies).
constexpr llvm::StringLiteral kVariantAttr = "tile.variant";
/// [[variant, reason], ...] of the variants declined before the selection.
constexpr llvm::StringLiteral kDeclinedAttr = "tile.declined";
/// The `#tile.tma_plan` of a copy whose variant needs a tensor map.
constexpr llvm::StringLiteral kTmaPlanAttr = "tile.tma_plan";
/// Fingerprint (i64) of the planner request the recorded plan was made for:
/// while the copy still builds the same request, the verifier needs no model.
constexpr llvm::StringLiteral kPlanInputAttr = "tile.plan_input";
} // namespace mlir::tile

#endif // TILE_DIALECT_TILE_IR_COPYDECISIONATTRS_H
