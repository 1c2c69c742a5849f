//===- WgmmaDescriptorLowering.cpp - tile.wgmma_descriptor ----------------===//
//
// The descriptor is the operand block's shared address (the buffer's address
// plus the block's unswizzled byte offset) >> 4 in bits 0-13, or'ed with the
// constant fields the planner derived from the layout.
//
//===----------------------------------------------------------------------===//

#include "LoweringUtils.h"
#include "Patterns.h"
#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "tile/Dialect/Tile/IR/DiscardableAttrs.h"
#include "tile/Dialect/Tile/IR/TileOps.h"
#include "tile/Dialect/Tile/IR/TileTypeUtils.h"

using namespace mlir;
using namespace mlir::tile;

/// An i64 byte offset: the sum of run-time terms (null when none) and a
/// constant.
struct ByteOffset {
  Value dynamic;
  int64_t constant = 0;
};

/// Adds the byte offset of `index` along a dimension whose shards are
/// `group` (outer to inner): mixed radix, the outermost shard taking the
/// quotient; `elementBytes` scales the strides. Constant indices fold.
static void addGroupOffset(OpBuilder &b, Location loc,
                           ArrayRef<::tile::Shard> group, Value index,
                           int64_t elementBytes, ByteOffset &sum) {
  Type i64 = b.getI64Type();
  auto constant = [&](int64_t v) -> Value {
    return arith::ConstantIntOp::create(b, loc, i64, v);
  };
  if (std::optional<int64_t> known = getConstantIntValue(index)) {
    int64_t rest = *known;
    for (size_t k = group.size(); k-- > 0;) {
      int64_t digit = k == 0 ? rest : rest % group[k].extent;
      sum.constant += digit * group[k].stride * elementBytes;
      rest /= group[k].extent;
    }
    return;
  }
  Value rest = arith::IndexCastUIOp::create(b, loc, i64, index);
  for (size_t k = group.size(); k-- > 0;) {
    const ::tile::Shard &shard = group[k];
    if (shard.extent == 1)
      continue;
    Value digit = rest;
    if (k != 0) {
      Value extent = constant(shard.extent);
      digit = arith::RemUIOp::create(b, loc, rest, extent);
      rest = arith::DivUIOp::create(b, loc, rest, extent);
    }
    int64_t strideBytes = shard.stride * elementBytes;
    Value term =
        strideBytes == 1
            ? digit
            : arith::MulIOp::create(b, loc, digit, constant(strideBytes));
    sum.dynamic =
        sum.dynamic ? arith::AddIOp::create(b, loc, sum.dynamic, term) : term;
  }
}

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
    // The block's shared address (unswizzled): the buffer's address plus
    // the block's byte offset.
    ByteOffset offset;
    offset.constant = grouped->elementOffset * *elementBytes;
    addGroupOffset(rewriter, loc, grouped->groups[0], op.getRow(),
                   *elementBytes, offset);
    addGroupOffset(rewriter, loc, grouped->groups[1], op.getCol(),
                   *elementBytes, offset);
    Value base = getBufferBasePtr(rewriter, loc, adaptor.getSource(), type,
                                  *getTypeConverter());
    Value address = LLVM::PtrToIntOp::create(rewriter, loc, i64, base);
    if (offset.dynamic)
      address = arith::AddIOp::create(rewriter, loc, address, offset.dynamic);
    if (offset.constant != 0)
      address = arith::AddIOp::create(rewriter, loc, address,
                                      constant(offset.constant));
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
