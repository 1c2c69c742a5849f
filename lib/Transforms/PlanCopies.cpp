//===- PlanCopies.cpp - --tile-plan-copies --------------------------------===//
//
// The one place copies are dispatched and planned: every later pass reads the
// decision this pass records on the op (see RecordedDecisionVerifier.cpp for its
// verifier), and the plans it records on each im2col load and wgmma
// descriptor.
//
//===----------------------------------------------------------------------===//

#include "tile/Dialect/Tile/IR/Im2colRequest.h"
#include "tile/Dialect/Tile/IR/TileOps.h"
#include "tile/Dispatch/BuiltinVariants.h"
#include "tile/Dispatch/CopyVariant.h"
#include "tile/Transforms/Passes.h"

namespace mlir::tile {
#define GEN_PASS_DEF_TILEPLANCOPIES
#include "tile/Transforms/Passes.h.inc"
} // namespace mlir::tile

using namespace mlir;
using namespace mlir::tile;

namespace {
struct PlanCopiesPass
    : public mlir::tile::impl::TilePlanCopiesBase<PlanCopiesPass> {
  void getDependentDialects(DialectRegistry &registry) const override {
    Base::getDependentDialects(registry);
    registerBuiltinCopyVariants(registry);
  }
  void runOnOperation() override {
    bool failedAny = false;
    getOperation()->walk([&](Operation *op) {
      if (isa<CopyAsyncOp, CopyOp>(op) &&
          failed(decideAndRecordCopy(op, /*excluded=*/nullptr,
                                     /*recordFallback=*/true)))
        failedAny = true;
      if (auto im2col = dyn_cast<CopyIm2colOp>(op);
          im2col && failed(recordIm2colPlan(im2col)))
        failedAny = true;
      if (auto wgmma = dyn_cast<WgmmaDescriptorOp>(op);
          wgmma && failed(wgmma.recordPlan()))
        failedAny = true;
    });
    if (failedAny)
      signalPassFailure();
  }
};
} // namespace
