//===- Im2colLowering.cpp - tile.copy_im2col to cp.async.bulk.tensor ------===//
//
// One `cp.async.bulk.tensor.Nd...im2col` load: the coordinates and the
// offsets reversed into the driver's order (innermost first), the
// coordinates as i32 and the offsets as the instruction's 16-bit values.
//
//===----------------------------------------------------------------------===//

#include "LoweringUtils.h"
#include "Patterns.h"
#include "TmaLowering.h"
#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "tile/Dialect/Tile/IR/TileOps.h"

using namespace mlir;
using namespace mlir::tile;

namespace {
struct CopyIm2colLowering : public ConvertOpToLLVMPattern<CopyIm2colOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(CopyIm2colOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    FailureOr<Value> tmap = getTensorMapPtr(op, rewriter);
    if (failed(tmap))
      return failure();

    Value base = getBufferBasePtr(rewriter, loc, adaptor.getDst(),
                                  op.getDst().getType(), *getTypeConverter());
    Value dst = LLVM::AddrSpaceCastOp::create(
        rewriter, loc,
        LLVM::LLVMPointerType::get(op.getContext(), kSharedClusterAddressSpace),
        base);
    Value mbar = getMBarrierPtr(rewriter, loc, adaptor.getBarrier(),
                                op.getBarrierIndex());
    auto convert = [&](ValueRange values, Type type) {
      SmallVector<Value> out;
      for (Value v : llvm::reverse(values))
        out.push_back(arith::IndexCastOp::create(rewriter, loc, type, v));
      return out;
    };
    SmallVector<Value> coords = convert(op.getCoords(), rewriter.getI32Type());
    SmallVector<Value> offsets =
        convert(op.getOffsets(), rewriter.getI16Type());
    Value policy;
    if (std::optional<StringRef> hint = op.getCacheHint())
      if (std::optional<CacheHint> kind = symbolizeCacheHint(*hint))
        policy = arith::ConstantIntOp::create(
            rewriter, loc, rewriter.getI64Type(), getCachePolicy(*kind));
    NVVM::CpAsyncBulkTensorGlobalToSharedClusterOp::create(
        rewriter, loc, dst, *tmap, coords, mbar, offsets,
        /*multicastMask=*/Value(), policy, NVVM::TMALoadMode::IM2COL,
        /*isCTAOnly=*/false, /*group=*/nullptr, /*predicate=*/Value());
    rewriter.eraseOp(op);
    return success();
  }
};
} // namespace

void mlir::tile::populateIm2colLoweringPatterns(
    const LLVMTypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<CopyIm2colLowering>(converter);
}
