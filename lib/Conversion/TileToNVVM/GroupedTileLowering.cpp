//===- GroupedTileLowering.cpp - tile.grouped_tile as index arithmetic ----===//
//
// The steps of tile::schedule::groupedTile (include/tile/Schedule), on index
// values: a group is `height = min(group_rows, rows)` rows of every column.
//
//===----------------------------------------------------------------------===//

#include "Patterns.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Transforms/DialectConversion.h"
#include "tile/Dialect/Tile/IR/TileOps.h"

using namespace mlir;
using namespace mlir::tile;

namespace {
struct GroupedTileLowering : public OpConversionPattern<GroupedTileOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(GroupedTileOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    OpBuilder &b = rewriter;
    Value group = arith::ConstantIndexOp::create(b, loc, op.getGroupRows());
    Value height = arith::MinUIOp::create(b, loc, group, op.getRows());
    Value inGroup = arith::MulIOp::create(b, loc, height, op.getCols());
    Value groupIndex = arith::DivUIOp::create(b, loc, op.getIndex(), inGroup);
    Value firstRow = arith::MulIOp::create(b, loc, groupIndex, height);
    Value left = arith::SubIOp::create(b, loc, op.getRows(), firstRow);
    Value groupHeight = arith::MinUIOp::create(b, loc, left, height);
    Value within = arith::RemUIOp::create(b, loc, op.getIndex(), inGroup);
    Value rowInGroup = arith::RemUIOp::create(b, loc, within, groupHeight);
    Value row = arith::AddIOp::create(b, loc, firstRow, rowInGroup);
    Value col = arith::DivUIOp::create(b, loc, within, groupHeight);
    rewriter.replaceOp(op, {row, col});
    return success();
  }
};
} // namespace

void mlir::tile::populateGroupedTileLoweringPatterns(
    RewritePatternSet &patterns) {
  patterns.add<GroupedTileLowering>(patterns.getContext());
}
