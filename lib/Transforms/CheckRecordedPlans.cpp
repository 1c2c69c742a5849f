//===- CheckRecordedPlans.cpp - --tile-check-recorded-plans ---------------===//
//
// Every recorded `#tile.tma_plan` checked against its copy, as the passes
// that read the record check it: an opt-in pass, since the op verifier does
// not run the hardware model.
//
//===----------------------------------------------------------------------===//

#include "tile/Dialect/Tile/IR/CopyRequest.h"
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
    getOperation()->walk([&](CopyAsyncOp op) {
      if (failed(verifyRecordedPlan(op)))
        stale = true;
    });
    if (stale)
      signalPassFailure();
    markAllAnalysesPreserved();
  }
};
} // namespace
