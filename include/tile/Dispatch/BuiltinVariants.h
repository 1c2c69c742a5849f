//===- BuiltinVariants.h - The built-in copy variants -----------*- C++ -*-===//
//
// The decisions of the built-in variants (`tma`, `simt`, `collective`,
// `collective_tma`): what
// they accept, record and recall, and what they add to the plan report. Their
// lowerings live in the TileToNVVM library, which attaches them to the
// variants (registerBuiltinCopyLowerings); passes that only decide or read
// decisions link this library alone.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_DISPATCH_BUILTINVARIANTS_H
#define TILE_DISPATCH_BUILTINVARIANTS_H

#include "tile/Dialect/Tile/IR/CopyRequest.h"
#include "tile/Dispatch/CopyVariant.h"
#include "tile/TMA/Plan.h"
#include "llvm/ADT/SmallVector.h"

namespace mlir {
class DialectRegistry;
namespace tile {

/// The built-in variants' names, as `dispatch` attributes and records spell
/// them; their lowerings are attached under these names.
inline constexpr StringLiteral kTmaVariantName = "tma";
inline constexpr StringLiteral kSimtVariantName = "simt";
inline constexpr StringLiteral kCollectiveVariantName = "collective";
inline constexpr StringLiteral kCollectiveTmaVariantName = "collective_tma";

/// Priorities of the built-in variants (higher is tried first).
constexpr int kTmaPriority = 10;
constexpr int kSimtPriority = 0;
constexpr int kCollectivePriority = 0;
// Above the element-wise `collective`; below `tma`, which it never competes
// with (one takes tile.copy_async, the other tile.copy).
constexpr int kCollectiveTmaPriority = 5;

/// What the `tma` variant keeps between matching and rewriting an op.
class TmaMatch : public VariantMatch {
public:
  ::tile::tma::TmaPlan plan;
  /// SSA values of the plan's symbols (dynamic offsets).
  SmallVector<Value> symbols;
  /// getPlanInputFingerprint of the request and the plan made for it.
  uint64_t planInputFingerprint = 0;

  const ::tile::tma::TmaPlan *getTensorMapPlan() const override {
    return &plan;
  }
};

std::unique_ptr<CopyVariant> createTmaVariant();
std::unique_ptr<CopyVariant> createSimtVariant();
std::unique_ptr<CopyVariant> createCollectiveCopyVariant();
/// `tile.copy` (CTA scope) through the TMA; tile-expand-collective-copies
/// turns its copies into one thread's tile.copy_async and their completion.
std::unique_ptr<CopyVariant> createCollectiveTmaVariant();

/// The buffer a shared operand's start alignment comes from: `shared` past
/// any `tile.stage` views (an arena view, a kernel's workgroup buffer, a
/// memref.get_global, ...).
Value getCollectiveTmaSharedRoot(Value shared);

/// The match of `plan`, made by the planner for the request of `info` (whose
/// symbols it takes).
std::unique_ptr<TmaMatch> makeTmaMatch(::tile::tma::TmaPlan plan,
                                       CopyRequestInfo &info);

/// What a recall of a TMA-planned copy (`tile.copy_async` or `tile.copy`)
/// starts from: its recorded plan and the request the copy builds now.
struct TmaRecord {
  TmaPlanAttr plan;
  CopyRequestInfo info;
};
/// The record of `op`, or why there is none in `reason` (no recorded plan,
/// no request).
FailureOr<TmaRecord> recallTmaRecord(Operation *op, std::string &reason);
/// The match a recall returns: the recorded plan (without guards) and the
/// symbols' SSA values of the current request (moved out of `record`).
std::unique_ptr<TmaMatch> makeRecalledTmaMatch(TmaRecord &record);

/// Records `match` on `op` for a later recall: its plan (`tile.tma_plan`,
/// without the guards, which recall derives again) and the fingerprint of
/// the request it was made for (`tile.plan_input`); the `tma` and
/// `collective_tma` variants' record.
void recordTmaMatch(Operation *op, const TmaMatch &match);
/// Removes what recordTmaMatch wrote.
void eraseTmaMatchRecord(Operation *op);

/// Writes a plan's "tensor_map" and "issues" members (contract of the plan
/// report: driver order, byte strides, null for non-constant values).
void writeTmaPlanJson(const ::tile::tma::TmaPlan &plan,
                      llvm::json::OStream &json);

/// Adds the built-in copy variants (`tma`, `simt`, `collective`,
/// `collective_tma`) to the
/// variant registry of every context `registry` is appended to, when its tile
/// dialect loads. Passes that decide or read copy decisions declare it among
/// their dependent dialects, so they always see the built-in variants.
void registerBuiltinCopyVariants(DialectRegistry &registry);

} // namespace tile
} // namespace mlir

#endif // TILE_DISPATCH_BUILTINVARIANTS_H
