//===- BulkGroupLowering.cpp - Bulk async-group ops -----------------------===//

#include "Patterns.h"
#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "tile/Dialect/Tile/IR/TileOps.h"

using namespace mlir;
using namespace mlir::tile;

namespace {
struct BulkCommitLowering : public ConvertOpToLLVMPattern<BulkCommitGroupOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(BulkCommitGroupOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<NVVM::CpAsyncBulkCommitGroupOp>(op);
    return success();
  }
};

struct BulkWaitLowering : public ConvertOpToLLVMPattern<BulkWaitGroupOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(BulkWaitGroupOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<NVVM::CpAsyncBulkWaitGroupOp>(
        op, op.getGroupAttr(), op.getReadAttr());
    return success();
  }
};

} // namespace

void mlir::tile::populateBulkGroupLoweringPatterns(
    const LLVMTypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<BulkCommitLowering, BulkWaitLowering>(converter);
}
