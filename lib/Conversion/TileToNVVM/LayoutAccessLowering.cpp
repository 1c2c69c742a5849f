//===- LayoutAccessLowering.cpp - Loads and stores of #tile.layout buffers ===//
//
// memref.load/store and vector.load/store on a buffer typed with a
// `#tile.layout` (a bare shared pointer after conversion): an element's
// address is the layout's, its shards and its swizzle. A vector access is one
// wide access where its elements are provably contiguous and aligned (the
// innermost index a known multiple of the width, the layout's vector width,
// the buffer start's alignment, at most 16 bytes, which a swizzle keeps
// whole), element by element otherwise.
//
//===----------------------------------------------------------------------===//

#include "LoweringUtils.h"
#include "Patterns.h"
#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "tile/Dialect/Tile/IR/CopyRequest.h"
#include "tile/Dialect/Tile/IR/DivisorAnalysis.h"
#include "tile/Dialect/Tile/IR/TileTypeUtils.h"
#include "tile/Layout/Layout.h"

using namespace mlir;
using namespace mlir::tile;

bool mlir::tile::hasTileLayout(Type type) {
  auto memref = dyn_cast<MemRefType>(type);
  return memref && isa<LayoutAttr>(memref.getLayout());
}

/// The elements `vector` accesses at once at `indices` of `buffer`: all of
/// them where they are contiguous and aligned, else 1.
static int64_t accessWidth(Value buffer, ValueRange indices,
                           VectorType vector) {
  auto type = cast<MemRefType>(buffer.getType());
  int64_t n = vector.getNumElements();
  std::optional<int64_t> eb = getElementBytes(type);
  if (!eb || indices.empty())
    return 1;
  int64_t bytes = n * *eb;
  if (bytes > 16 || 16 % bytes != 0)
    return 1;
  if (getKnownDivisor(indices.back()) % n != 0)
    return 1;
  std::optional<::tile::GroupedLayout> grouped = getGroupedLayout(type);
  if (!grouped || ::tile::vectorWidth(*grouped, n) < n)
    return 1;
  if (getSharedBaseAlignment(buffer) % bytes != 0)
    return 1;
  return n;
}

/// `indices` with the innermost moved by `step` (converted i64 values).
static SmallVector<Value> stepInner(OpBuilder &b, Location loc,
                                    ValueRange indices, int64_t step) {
  SmallVector<Value> moved(indices);
  if (step != 0)
    moved.back() = arith::AddIOp::create(
        b, loc, moved.back(),
        arith::ConstantIntOp::create(b, loc, b.getI64Type(), step));
  return moved;
}

/// The addresses a 1-D vector access of a `#tile.layout` buffer goes
/// through: one where the access is wide, one per element otherwise.
static SmallVector<Value> vectorAddresses(OpBuilder &b, Location loc,
                                          Value buffer, ValueRange indices,
                                          Value converted,
                                          ValueRange convertedIndices,
                                          VectorType vector) {
  auto type = cast<MemRefType>(buffer.getType());
  int64_t n = vector.getNumElements();
  if (accessWidth(buffer, indices, vector) == n)
    return {
        emitLayoutElementAddress(b, loc, converted, type, convertedIndices)};
  SmallVector<Value> addresses;
  for (int64_t i = 0; i < n; ++i)
    addresses.push_back(emitLayoutElementAddress(
        b, loc, converted, type, stepInner(b, loc, convertedIndices, i)));
  return addresses;
}

namespace {
struct LayoutLoadLowering : public ConvertOpToLLVMPattern<memref::LoadOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(memref::LoadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    MemRefType type = op.getMemRefType();
    if (!hasTileLayout(type))
      return failure();
    Type elem = getTypeConverter()->convertType(type.getElementType());
    Value addr = emitLayoutElementAddress(
        rewriter, op.getLoc(), adaptor.getMemref(), type, adaptor.getIndices());
    rewriter.replaceOpWithNewOp<LLVM::LoadOp>(op, elem, addr,
                                              *getElementBytes(type));
    return success();
  }
};

struct LayoutStoreLowering : public ConvertOpToLLVMPattern<memref::StoreOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(memref::StoreOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    MemRefType type = op.getMemRefType();
    if (!hasTileLayout(type))
      return failure();
    Value addr = emitLayoutElementAddress(
        rewriter, op.getLoc(), adaptor.getMemref(), type, adaptor.getIndices());
    rewriter.replaceOpWithNewOp<LLVM::StoreOp>(op, adaptor.getValue(), addr,
                                               *getElementBytes(type));
    return success();
  }
};

struct LayoutVectorLoadLowering
    : public ConvertOpToLLVMPattern<vector::LoadOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(vector::LoadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    MemRefType type = op.getMemRefType();
    VectorType vector = op.getVectorType();
    if (!hasTileLayout(type) || vector.getRank() != 1)
      return failure();
    Location loc = op.getLoc();
    Type converted = getTypeConverter()->convertType(vector);
    int64_t eb = *getElementBytes(type);
    SmallVector<Value> addresses =
        vectorAddresses(rewriter, loc, op.getBase(), op.getIndices(),
                        adaptor.getBase(), adaptor.getIndices(), vector);
    if (addresses.size() == 1) {
      rewriter.replaceOpWithNewOp<LLVM::LoadOp>(
          op, converted, addresses.front(), vector.getNumElements() * eb);
      return success();
    }
    Type elem = getTypeConverter()->convertType(vector.getElementType());
    Value result = LLVM::PoisonOp::create(rewriter, loc, converted);
    for (auto [i, addr] : llvm::enumerate(addresses)) {
      Value value = LLVM::LoadOp::create(rewriter, loc, elem, addr, eb);
      Value at = LLVM::ConstantOp::create(rewriter, loc, rewriter.getI64Type(),
                                          static_cast<int64_t>(i));
      result = LLVM::InsertElementOp::create(rewriter, loc, result, value, at);
    }
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct LayoutVectorStoreLowering
    : public ConvertOpToLLVMPattern<vector::StoreOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(vector::StoreOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    MemRefType type = op.getMemRefType();
    VectorType vector = op.getVectorType();
    if (!hasTileLayout(type) || vector.getRank() != 1)
      return failure();
    Location loc = op.getLoc();
    int64_t eb = *getElementBytes(type);
    SmallVector<Value> addresses =
        vectorAddresses(rewriter, loc, op.getBase(), op.getIndices(),
                        adaptor.getBase(), adaptor.getIndices(), vector);
    if (addresses.size() == 1) {
      rewriter.replaceOpWithNewOp<LLVM::StoreOp>(op, adaptor.getValueToStore(),
                                                 addresses.front(),
                                                 vector.getNumElements() * eb);
      return success();
    }
    for (auto [i, addr] : llvm::enumerate(addresses)) {
      Value at = LLVM::ConstantOp::create(rewriter, loc, rewriter.getI64Type(),
                                          static_cast<int64_t>(i));
      Value value = LLVM::ExtractElementOp::create(
          rewriter, loc, adaptor.getValueToStore(), at);
      LLVM::StoreOp::create(rewriter, loc, value, addr, eb);
    }
    rewriter.eraseOp(op);
    return success();
  }
};
} // namespace

void mlir::tile::populateLayoutAccessLoweringPatterns(
    const LLVMTypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<LayoutLoadLowering, LayoutStoreLowering,
               LayoutVectorLoadLowering, LayoutVectorStoreLowering>(converter);
}
