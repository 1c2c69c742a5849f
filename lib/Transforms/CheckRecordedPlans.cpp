//===- CheckRecordedPlans.cpp - --tile-check-recorded-plans ---------------===//
//
// Every recorded `#tile.tma_plan` checked against its copy, as the passes
// that read the record check it, and every `#tile.im2col_plan` and
// `#tile.wgmma_plan` against the plan its op makes now: an opt-in pass,
// since the op verifiers do not plan.
//
//===----------------------------------------------------------------------===//

#include "tile/Dialect/Tile/IR/CopyRequest.h"
#include "tile/Dialect/Tile/IR/Im2colRequest.h"
#include "tile/Dialect/Tile/IR/TileOps.h"
#include "tile/Transforms/Passes.h"

namespace mlir::tile {
#define GEN_PASS_DEF_TILECHECKRECORDEDPLANS
#include "tile/Transforms/Passes.h.inc"
} // namespace mlir::tile

using namespace mlir;
using namespace mlir::tile;

namespace {
struct CheckRecordedPlansPass
    : public mlir::tile::impl::TileCheckRecordedPlansBase<
          CheckRecordedPlansPass> {
  void runOnOperation() override {
    bool stale = false;
    getOperation()->walk([&](Operation *op) {
      if (auto copy = dyn_cast<CopyAsyncOp>(op);
          copy && failed(verifyRecordedPlan(copy)))
        stale = true;
      if (auto im2col = dyn_cast<CopyIm2colOp>(op);
          im2col && failed(verifyRecordedIm2colPlan(im2col)))
        stale = true;
      if (auto wgmma = dyn_cast<WgmmaDescriptorOp>(op);
          wgmma && failed(wgmma.verifyRecordedPlan()))
        stale = true;
    });
    if (stale)
      signalPassFailure();
    markAllAnalysesPreserved();
  }
};
} // namespace
