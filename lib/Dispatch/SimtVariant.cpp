//===- SimtVariant.cpp - The `simt` copy variant's decision ---------------===//
//
// Any valid `tile.copy_async` can be copied element by element by the issuing
// thread, except what only the TMA does (prefetch, the sm_100a forms) and
// reductions without a per-element atomic. A multicast load's elements are
// stored into each named CTA's shared memory through the cluster's window.
// The lowering (TileToNVVM's BuiltinLowerings.cpp) keeps the TMA completion
// contract.
//
//===----------------------------------------------------------------------===//

#include "tile/Dialect/Tile/IR/TileOps.h"
#include "tile/Dialect/Tile/IR/TileTypeUtils.h"
#include "tile/Dispatch/BuiltinVariants.h"
#include "tile/Dispatch/ElementwiseReduce.h"

using namespace mlir;
using namespace mlir::tile;

namespace {
class SimtVariant : public CopyVariant {
public:
  CopyVariantProperties getProperties() const override {
    CopyVariantProperties properties;
    properties.recordsPlan = false;
    return properties;
  }

  SimtVariant() : CopyVariant(kSimtVariantName.str(), kSimtPriority) {
    addPredicate("prefetch", [](Operation *op) {
      if (cast<CopyAsyncOp>(op).getPrefetch())
        return PredicateResult::failure(::tile::Decline{
            ::tile::RuleId::Prefetch,
            "only the tma variant prefetches "
            "(cp.async.bulk.prefetch.tensor); per-thread loads would write "
            "shared memory"});
      return PredicateResult::success();
    });
    addPredicate("sm100-form", [](Operation *op) {
      auto copy = cast<CopyAsyncOp>(op);
      if (copy.getSm100Form() != Sm100Form::None)
        return PredicateResult::failure(::tile::Decline{
            ::tile::RuleId::Sm100Form,
            "only the tma variant issues " + copy.describeSm100Form() +
                " (cp.async.bulk.tensor on sm_100a)"});
      return PredicateResult::success();
    });
    addPredicate("reduce-type", [](Operation *op) {
      auto copy = cast<CopyAsyncOp>(op);
      std::optional<ReduceMode> reduce = copy.getReduceKind();
      if (!reduce)
        return PredicateResult::success();
      if (std::optional<::tile::Decline> reason =
              checkElementwiseReduce(toTmaReduceKind(*reduce),
                                     copy.getDst().getType().getElementType()))
        return PredicateResult::failure(*reason);
      return PredicateResult::success();
    });
  }

  bool handles(Operation *op) const override { return isa<CopyAsyncOp>(op); }
};
} // namespace

std::unique_ptr<CopyVariant> mlir::tile::createSimtVariant() {
  return std::make_unique<SimtVariant>();
}
