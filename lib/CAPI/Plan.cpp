//===- Plan.cpp - C API: the plan of one copy -----------------------------===//

#include "tile-c/Plan.h"
#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Support.h"
#include "mlir/CAPI/Utils.h"
#include "tile/Dialect/Tile/IR/TileOps.h"
#include "tile/Transforms/PlanReport.h"

using namespace mlir;

MlirLogicalResult mlirTileQueryCopyPlan(MlirOperation copyOp,
                                        MlirStringCallback callback,
                                        void *userData) {
  Operation *op = unwrap(copyOp);
  auto copy = dyn_cast<mlir::tile::CopyAsyncOp>(op);
  if (!copy) {
    op->emitError() << "plan query: expected a tile.copy_async, got '"
                    << op->getName() << "'";
    return wrap(failure());
  }
  detail::CallbackOstream stream(callback, userData);
  return wrap(mlir::tile::reportCopyPlan(copy, stream));
}
