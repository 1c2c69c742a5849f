//===- CopyLowering.cpp - Copy ops through their recorded decision --------===//
//
// A copy is lowered by the variant tile-plan-copies recorded on it; the
// conversion never decides again.
//
//===----------------------------------------------------------------------===//

#include "LoweringUtils.h"
#include "Patterns.h"
#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "tile/Conversion/TileToNVVM/TileToNVVM.h"
#include "tile/Dialect/Tile/IR/DiscardableAttrs.h"
#include "tile/Dialect/Tile/IR/RuleDiagnostic.h"
#include "tile/Dialect/Tile/IR/TileOps.h"

using namespace mlir;
using namespace mlir::tile;

LogicalResult mlir::tile::emitUnexpandedCollectiveTmaError(Operation *op) {
  return withRule(op->emitError(), RuleId::Tma)
         << "tma: a tile.copy decided for the tensor memory accelerator is "
            "lowered through one thread's tile.copy_async; run "
            "--tile-expand-collective-copies after --tile-plan-copies "
            "(--tile-gpu-pipeline does)";
}

/// Recalls `op`'s recorded decision and checks that it can be lowered here;
/// a diagnostic at the op otherwise.
FailureOr<DispatchResult> mlir::tile::recallLowerableDecision(Operation *op) {
  FailureOr<DispatchResult> result = recallCopyDecision(op);
  if (failed(result))
    return failure();
  if (!result->selected) {
    emitNoVariantError(op, *result);
    return failure();
  }
  // A collective copy with a tensor-map plan is carried out by one thread's
  // asynchronous copy, which an earlier pass writes.
  if (result->match && result->match->getTensorMapPlan() && isa<CopyOp>(op))
    return emitUnexpandedCollectiveTmaError(op);
  if (result->match && result->match->getTensorMapPlan() &&
      !op->hasAttr(kTensorMapArgAttr))
    return withRule(op->emitError(), RuleId::Tma)
           << "tma: this copy has no tensor-map kernel argument; run "
              "--tile-tensor-map-abi first (--tile-gpu-pipeline does), "
              "with the copy inside a gpu.func kernel whose launch is "
              "visible, or request dispatch = \"simt\"";
  return result;
}

namespace {
/// Lowers a copy op through the variant its recorded decision names. The
/// pass recalls every decision up front (one diagnostic per copy, nothing
/// rewritten on failure); patterns an embedder populates recall their own.
template <typename CopyOpTy>
struct DispatchedCopyLowering : public ConvertOpToLLVMPattern<CopyOpTy> {
  DispatchedCopyLowering(const LLVMTypeConverter &converter,
                         const RecalledDecisions *recalled)
      : ConvertOpToLLVMPattern<CopyOpTy>(converter), recalled(recalled) {}
  LogicalResult
  matchAndRewrite(CopyOpTy op, typename CopyOpTy::Adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    std::optional<DispatchResult> own;
    const DispatchResult *decision = nullptr;
    if (recalled) {
      auto it = recalled->find(op);
      if (it != recalled->end())
        decision = &it->second;
    } else {
      FailureOr<DispatchResult> result = recallLowerableDecision(op);
      if (succeeded(result))
        decision = &own.emplace(std::move(*result));
    }
    if (!decision || !decision->selected)
      return rewriter.notifyMatchFailure(op, "no lowerable decision");
    return decision->selected->rewrite(op, decision->match.get(), rewriter,
                                       *this->getTypeConverter());
  }
  const RecalledDecisions *recalled;
};
} // namespace

void mlir::tile::populateCopyLoweringPatterns(
    const LLVMTypeConverter &converter, RewritePatternSet &patterns,
    const RecalledDecisions *recalled) {
  patterns
      .add<DispatchedCopyLowering<CopyAsyncOp>, DispatchedCopyLowering<CopyOp>>(
          converter, recalled);
}

void mlir::tile::populateTileToNVVMPatterns(LLVMTypeConverter &converter,
                                            RewritePatternSet &patterns,
                                            const RecalledDecisions *recalled) {
  populateTileTypeConversions(converter);
  populateArenaLoweringPatterns(converter, patterns);
  populateLayoutAccessLoweringPatterns(converter, patterns);
  populateGroupedTileLoweringPatterns(patterns);
  populateBulkGroupLoweringPatterns(converter, patterns);
  populateArriveRemoteLoweringPatterns(converter, patterns);
  populateIm2colLoweringPatterns(converter, patterns);
  populateWgmmaDescriptorLoweringPatterns(converter, patterns);
  populateWgmmaFragmentLoweringPatterns(converter, patterns);
  populateDeviceMapLoweringPatterns(converter, patterns);
  populateCopyLoweringPatterns(converter, patterns, recalled);
}

void mlir::tile::populateTileToNVVMConversionPatterns(
    LLVMTypeConverter &converter, RewritePatternSet &patterns) {
  populateTileToNVVMPatterns(converter, patterns, /*recalled=*/nullptr);
}
