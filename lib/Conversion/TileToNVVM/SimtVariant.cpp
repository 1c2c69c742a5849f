//===- SimtVariant.cpp - The `simt` copy variant --------------------------===//
//
// Lowers any valid `tile.copy_async` with per-element loads and stores by the
// issuing thread. It keeps the TMA completion contract: a load completes the
// caller's mbarrier transaction count (element count x element bytes), after
// fencing so that both the waiting threads and async-proxy readers (TMA
// stores, wgmma) see the data; so the caller's arrive.expect_tx / try_wait
// code works unchanged whichever variant ran.
//
//===----------------------------------------------------------------------===//

#include "ElementwiseCopy.h"
#include "LoweringUtils.h"
#include "Variants.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "tile/Dialect/Tile/IR/TileOps.h"
#include "tile/Dialect/Tile/IR/TileTypeUtils.h"

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

  SimtVariant() : CopyVariant("simt", kSimtPriority) {
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
      std::string form = cast<CopyAsyncOp>(op).getSm100FormName();
      if (!form.empty())
        return PredicateResult::failure(
            ::tile::Decline{::tile::RuleId::Sm100Form,
                            "only the tma variant issues " + form +
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
    addPredicate("multicast", [](Operation *op) {
      if (cast<CopyAsyncOp>(op).getMulticastMask())
        return PredicateResult::failure(
            ::tile::Decline{::tile::RuleId::Multicast,
                            "per-thread stores cannot reach other CTAs' shared "
                            "memory"});
      return PredicateResult::success();
    });
  }

  bool handles(Operation *op) const override { return isa<CopyAsyncOp>(op); }

  LogicalResult rewrite(Operation *op, const VariantMatch *,
                        ConversionPatternRewriter &rewriter,
                        const LLVMTypeConverter &converter) const override {
    auto copy = cast<CopyAsyncOp>(op);
    Location loc = copy.getLoc();
    auto [dst, src] = getElementwiseSides(copy, rewriter);
    ElementwiseOptions options;
    bool load = copy.isLoad();
    options.fillOutOfBounds = load;
    options.nanFill = copy.getOobKind() == OobMode::NaN;
    if (std::optional<ReduceMode> reduce = copy.getReduceKind())
      options.reduce = toTmaReduceKind(*reduce);
    Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
    Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
    emitElementwiseCopy(rewriter, loc, converter, dst, src, zero, one, options);

    if (load) {
      // Make the generic-proxy writes visible to async-proxy readers and
      // order them before the (relaxed) transaction completion.
      NVVM::FenceProxyOp::create(
          rewriter, loc,
          NVVM::ProxyKindAttr::get(op->getContext(),
                                   NVVM::ProxyKind::async_shared),
          NVVM::SharedSpaceAttr::get(op->getContext(),
                                     NVVM::SharedSpace::shared_cta));
      NVVM::MembarOp::create(rewriter, loc, NVVM::MemScopeKind::CTA);
      Value mbar = getMBarrierPtr(rewriter, loc,
                                  rewriter.getRemappedValue(copy.getBarrier()),
                                  copy.getBarrierIndex());
      Value bytes = arith::ConstantIntOp::create(
          rewriter, loc, rewriter.getI32Type(), copy.getTransactionBytes());
      NVVM::MBarrierCompleteTxOp::create(rewriter, loc, mbar, bytes);
    }
    rewriter.eraseOp(op);
    return success();
  }
};
} // namespace

std::unique_ptr<CopyVariant> mlir::tile::createSimtVariant() {
  return std::make_unique<SimtVariant>();
}
