//===- Variants.h - The built-in copy variants (internal) -------*- C++ -*-===//

#ifndef TILE_CONVERSION_TILETONVVM_VARIANTS_H
#define TILE_CONVERSION_TILETONVVM_VARIANTS_H

#include "tile/Conversion/TileToNVVM/TileToNVVM.h"
#include "tile/Dispatch/CopyVariant.h"
#include "tile/TMA/Plan.h"
#include "llvm/ADT/SmallVector.h"

namespace mlir::tile {

/// Priorities of the built-in variants (higher is tried first).
constexpr int kTmaPriority = 10;
constexpr int kSimtPriority = 0;
constexpr int kCollectivePriority = 0;

/// What the `tma` variant keeps between matching and rewriting an op.
class TmaMatch : public VariantMatch {
public:
  ::tile::tma::TmaPlan plan;
  /// SSA values of the plan's symbols (dynamic offsets).
  SmallVector<Value> symbols;
  /// getPlanInputFingerprint of the request and the plan made for it.
  uint64_t planInputFingerprint = 0;

  const ::tile::tma::TmaPlan *getTensorMapRequest() const override {
    return &plan;
  }
};

std::unique_ptr<CopyVariant> createTmaVariant();
std::unique_ptr<CopyVariant> createSimtVariant();
std::unique_ptr<CopyVariant> createCollectiveCopyVariant();

/// Writes a plan's "tensor_map" and "issues" members (contract of the plan
/// report: driver order, byte strides, null for non-constant values).
void writeTmaPlanJson(const ::tile::tma::TmaPlan &plan,
                      llvm::json::OStream &json);

} // namespace mlir::tile

#endif // TILE_CONVERSION_TILETONVVM_VARIANTS_H
