//===- GroupedTileOp.cpp - tile.grouped_tile folds with the order's model -===//

#include "mlir/IR/Matchers.h"
#include "tile/Dialect/Tile/IR/TileOps.h"
#include "tile/Schedule/TileOrder.h"

using namespace mlir;
using namespace mlir::tile;

LogicalResult GroupedTileOp::fold(FoldAdaptor adaptor,
                                  SmallVectorImpl<OpFoldResult> &results) {
  auto constant = [](Attribute a) -> std::optional<int64_t> {
    if (auto i = dyn_cast_or_null<IntegerAttr>(a))
      return i.getValue().getSExtValue();
    return std::nullopt;
  };
  std::optional<int64_t> index = constant(adaptor.getIndex());
  std::optional<int64_t> rows = constant(adaptor.getRows());
  std::optional<int64_t> cols = constant(adaptor.getCols());
  if (!index || !rows || !cols)
    return failure();
  // Outside the grid the result is undefined: left to the lowering.
  std::optional<::tile::schedule::TileCoord> tile =
      ::tile::schedule::groupedTile(*index, *rows, *cols, getGroupRows());
  if (!tile)
    return failure();
  Builder b(getContext());
  results.push_back(b.getIndexAttr(tile->row));
  results.push_back(b.getIndexAttr(tile->col));
  return success();
}
