//===- WgmmaDescriptorLowering.cpp - tile.wgmma_descriptor ----------------===//
//
// The descriptor is the operand block's shared address (the buffer's address
// plus the block's unswizzled byte offset) >> 4 in bits 0-13, or'ed with the
// constant fields the planner derived from the layout.
//
//===----------------------------------------------------------------------===//

#include "GroupedOffset.h"
#include "LoweringUtils.h"
#include "Patterns.h"
#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "tile/Dialect/Tile/IR/DiscardableAttrs.h"
#include "tile/Dialect/Tile/IR/TileOps.h"
#include "tile/Dialect/Tile/IR/TileTypeUtils.h"

using namespace mlir;
using namespace mlir::tile;

namespace {
struct WgmmaDescriptorLowering
    : public ConvertOpToLLVMPattern<WgmmaDescriptorOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(WgmmaDescriptorOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    // The pass recalled every plan before converting (TileToNVVM.cpp).
    auto plan = op->getAttrOfType<WgmmaPlanAttr>(kWgmmaPlanAttr);
    if (!plan)
      return rewriter.notifyMatchFailure(op, "plan-missing: no wgmma plan");
    MemRefType type = op.getSource().getType();
    std::optional<::tile::GroupedLayout> grouped = getGroupedLayout(type);
    std::optional<int64_t> elementBytes = getElementBytes(type);
    if (!grouped || !elementBytes)
      return rewriter.notifyMatchFailure(op, "smem-layout: no grouped layout");

    Location loc = op.getLoc();
    Type i64 = rewriter.getI64Type();
    auto constant = [&](int64_t v) -> Value {
      return arith::ConstantIntOp::create(rewriter, loc, i64, v);
    };
    // The block's shared address, unswizzled (the hardware applies the
    // descriptor's swizzle mode itself): the buffer's address plus the
    // block's byte offset.
    ::tile::GroupedLayout unswizzled = *grouped;
    unswizzled.swizzle = ::tile::Swizzle::None;
    OpFoldResult offset =
        emitGroupedByteOffset(rewriter, loc, unswizzled, *elementBytes,
                              ValueRange{op.getRow(), op.getCol()});
    Value base = getBufferBasePtr(rewriter, loc, adaptor.getSource(), type,
                                  *getTypeConverter());
    Value address = LLVM::PtrToIntOp::create(rewriter, loc, i64, base);
    if (!isZeroInteger(offset))
      address = arith::AddIOp::create(
          rewriter, loc, address,
          getValueOrCreateConstantIntOp(rewriter, loc, offset));
    // Bits 0-13: the address >> 4.
    Value start = arith::AndIOp::create(
        rewriter, loc,
        arith::ShRUIOp::create(rewriter, loc, address, constant(4)),
        constant(0x3FFF));
    // LBO, SBO, base offset and swizzle mode are constants of the layout.
    ::tile::mma::WgmmaDescriptorFields fields;
    fields.leadingByteOffset = plan.getLbo();
    fields.strideByteOffset = plan.getSbo();
    fields.baseOffset = plan.getBaseOffset();
    fields.swizzleMode =
        static_cast<::tile::mma::WgmmaSwizzleMode>(plan.getSwizzle());
    int64_t high = static_cast<int64_t>(
        ::tile::mma::encodeWgmmaDescriptor(fields, /*bufferByteAddress=*/0));
    rewriter.replaceOp(
        op, arith::OrIOp::create(rewriter, loc, start, constant(high)));
    return success();
  }
};
} // namespace

void mlir::tile::populateWgmmaDescriptorLoweringPatterns(
    const LLVMTypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<WgmmaDescriptorLowering>(converter);
}
