//===- Draw.cpp - C API: SVG pictures of layouts and plans ----------------===//

#include "tile-c/Draw.h"
#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Support.h"
#include "mlir/CAPI/Utils.h"
#include "tile/Dialect/Tile/IR/TileOps.h"
#include "tile/Draw/Draw.h"
#include "tile/Transforms/PlanReport.h"

#include <string>
#include <vector>

using namespace mlir;

MlirLogicalResult
mlirTileLayoutDrawSvg(MlirTileLayout layout, intptr_t rank,
                      const int64_t *shape, int64_t elementBytes,
                      int64_t baseByteAddress, MlirStringCallback callback,
                      MlirStringCallback error, void *userData) {
  const auto *l = static_cast<const ::tile::Layout *>(layout.ptr);
  std::string why;
  if (!l)
    why = "null layout";
  std::optional<std::string> svg;
  if (l) {
    std::vector<int64_t> dims;
    if (rank > 0 && shape)
      dims.assign(shape, shape + rank);
    svg =
        ::tile::draw::drawLayout(*l, dims, elementBytes, baseByteAddress, &why);
  }
  if (!svg) {
    if (error)
      error(MlirStringRef{why.data(), why.size()}, userData);
    return wrap(failure());
  }
  if (callback)
    callback(MlirStringRef{svg->data(), svg->size()}, userData);
  return wrap(success());
}

MlirLogicalResult mlirTileDrawCopyPlan(MlirOperation copyOp,
                                       MlirStringCallback callback,
                                       void *userData) {
  Operation *op = unwrap(copyOp);
  auto copy = dyn_cast<mlir::tile::CopyAsyncOp>(op);
  if (!copy) {
    op->emitError() << "plan picture: expected a tile.copy_async, got '"
                    << op->getName() << "'";
    return wrap(failure());
  }
  detail::CallbackOstream stream(callback, userData);
  return wrap(mlir::tile::drawCopyPlan(copy, stream));
}
