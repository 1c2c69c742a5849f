//===- ElementwiseCopy.cpp - Per-element copy loops -----------------------===//

#include "ElementwiseCopy.h"
#include "LoweringUtils.h"
#include "mlir/Conversion/LLVMCommon/MemRefBuilder.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "tile/Dialect/Tile/IR/CopyRequest.h"
#include "tile/Dialect/Tile/IR/TileDialect.h"
#include "tile/Dialect/Tile/IR/TileTypeUtils.h"
#include "tile/Dispatch/ElementwiseReduce.h"

using namespace mlir;
using namespace mlir::tile;
using ::tile::tma::ReduceKind;

namespace {
/// i64 arithmetic helpers.
struct I64Builder {
  OpBuilder &b;
  Location loc;
  Value c(int64_t v) {
    return arith::ConstantIntOp::create(b, loc, b.getI64Type(), v);
  }
  Value add(Value x, Value y) { return arith::AddIOp::create(b, loc, x, y); }
  Value mul(Value x, int64_t k) {
    return k == 1 ? x : arith::MulIOp::create(b, loc, x, c(k)).getResult();
  }
  Value mul(Value x, Value y) { return arith::MulIOp::create(b, loc, x, y); }
  Value div(Value x, int64_t k) {
    return k == 1 ? x : arith::DivSIOp::create(b, loc, x, c(k)).getResult();
  }
  Value rem(Value x, int64_t k) {
    return arith::RemSIOp::create(b, loc, x, c(k));
  }
  Value fromOfr(OpFoldResult ofr) {
    if (auto attr = dyn_cast<Attribute>(ofr))
      return c(cast<IntegerAttr>(attr).getInt());
    return arith::IndexCastOp::create(b, loc, b.getI64Type(), cast<Value>(ofr));
  }
};
} // namespace

/// Absolute indices of element `e` (i64) of a region, row-major.
static SmallVector<Value> delinearize(I64Builder &ib, Value e,
                                      const ElementwiseSide &side) {
  SmallVector<Value> idx(side.sizes.size());
  int64_t inner = 1;
  for (int d = static_cast<int>(side.sizes.size()) - 1; d >= 0; --d) {
    Value digit = ib.div(e, inner);
    if (d != 0)
      digit = ib.rem(digit, side.sizes[d]);
    idx[d] = ib.add(digit, ib.fromOfr(side.offsets[d]));
    inner *= side.sizes[d];
  }
  return idx;
}

/// Address of the element at absolute indices `idx`.
static Value elementAddress(I64Builder &ib, const ElementwiseSide &side,
                            ArrayRef<Value> idx,
                            const LLVMTypeConverter &converter) {
  OpBuilder &b = ib.b;
  Location loc = ib.loc;
  int64_t eb = *getElementBytes(side.type);
  if (isa<LayoutAttr>(side.type.getLayout()))
    return emitLayoutElementAddress(b, loc, side.converted, side.type, idx);
  MemRefDescriptor desc(side.converted);
  Value offset = desc.offset(b, loc);
  for (auto [d, i] : llvm::enumerate(idx))
    offset = ib.add(offset, ib.mul(i, desc.stride(b, loc, d)));
  Value base = desc.alignedPtr(b, loc);
  return emitBytePtrAdd(b, loc, base, ib.mul(offset, eb));
}

/// `0 <= idx_d < size_d` for every dimension.
static Value inBounds(I64Builder &ib, const ElementwiseSide &side,
                      ArrayRef<Value> idx) {
  OpBuilder &b = ib.b;
  Location loc = ib.loc;
  Value ok;
  for (auto [d, i] : llvm::enumerate(idx)) {
    Value size;
    if (isa<LayoutAttr>(side.type.getLayout()) ||
        !ShapedType::isDynamic(side.type.getDimSize(d)))
      size = ib.c(side.type.getDimSize(d));
    else
      size = MemRefDescriptor(side.converted).size(b, loc, d);
    Value lo =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, i, ib.c(0));
    Value hi =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, i, size);
    Value both = arith::AndIOp::create(b, loc, lo, hi);
    ok = ok ? arith::AndIOp::create(b, loc, ok, both).getResult() : both;
  }
  // A rank-0 buffer holds its one element: always in bounds.
  if (!ok)
    ok = arith::ConstantOp::create(b, loc, b.getBoolAttr(true));
  return ok;
}

int64_t mlir::tile::getTileBufferAlignment(Value buffer) {
  auto type = cast<MemRefType>(buffer.getType());
  if (!isa<LayoutAttr>(type.getLayout()) ||
      getMemorySpaceKind(type) != MemorySpaceKind::Shared)
    return 0;
  return getSharedBaseAlignment(buffer);
}

/// Whether `v` elements starting at a region element whose innermost index
/// is a multiple of `v` are contiguous and `v * eb`-aligned in `side`
/// (alignment of a strided buffer's pointer excepted: checked at run time).
static bool sideVectorizes(const ElementwiseSide &side, int64_t v, int64_t eb) {
  if (side.sizes.empty() || side.sizes.back() % v != 0)
    return false;
  OpFoldResult inner = side.offsets.back();
  if (auto attr = dyn_cast<Attribute>(inner)) {
    if (cast<IntegerAttr>(attr).getInt() % v != 0)
      return false;
  } else if (getKnownDivisor(cast<Value>(inner)) % v != 0) {
    return false;
  }
  // The widest vector of the side's layout (a #tile.layout, or the
  // memref's static strides), and alignment of the address it starts at.
  std::optional<::tile::GroupedLayout> grouped;
  if (isa<LayoutAttr>(side.type.getLayout())) {
    if (side.baseAlignment % (v * eb) != 0)
      return false;
    grouped = getGroupedLayout(side.type);
  } else {
    SmallVector<int64_t> strides;
    int64_t offset;
    if (failed(getMemRefStridesAndOffset(side.type, strides, offset)) ||
        ShapedType::isDynamic(offset) ||
        llvm::any_of(strides, ShapedType::isDynamic))
      return false;
    // A run-time size stands in as `v`: only the strides and the offset
    // decide (the region's sizes and the clipping are checked apart).
    std::vector<int64_t> shape;
    for (int64_t size : side.type.getShape())
      shape.push_back(ShapedType::isDynamic(size) ? v : size);
    grouped = ::tile::groupOnto(
        ::tile::Layout::strided(
            shape, std::vector<int64_t>(strides.begin(), strides.end()),
            offset),
        shape);
  }
  return grouped && ::tile::vectorWidth(*grouped, v) >= v;
}

/// A store into a global buffer of run-time size may reach past its edge (an
/// edge tile of a tiled copy): the elements outside the tensor are not
/// written, as the TMA clips them.
static bool storesClip(const ElementwiseSide &dst) {
  return getMemorySpaceKind(dst.type) != MemorySpaceKind::Shared &&
         !dst.type.hasStaticShape();
}

/// Elements per vector (1: element by element).
static int64_t chooseVectorWidth(const ElementwiseSide &dst,
                                 const ElementwiseSide &src,
                                 const ElementwiseOptions &options,
                                 int64_t eb) {
  if (options.reduce != ReduceKind::None)
    return 1;
  for (int64_t bytes : {16, 8, 4}) {
    int64_t v = bytes / eb;
    if (v < 2 || bytes % eb != 0)
      continue;
    if (!sideVectorizes(dst, v, eb) || !sideVectorizes(src, v, eb))
      continue;
    // Out-of-bounds fill: a vector is wholly inside or outside the tensor.
    if (options.fillOutOfBounds &&
        (ShapedType::isDynamic(src.type.getShape().back()) ||
         src.type.getShape().back() % v != 0))
      continue;
    // Clipped stores: likewise for the destination.
    if (storesClip(dst) && (ShapedType::isDynamic(dst.type.getShape().back()) ||
                            dst.type.getShape().back() % v != 0))
      continue;
    return v;
  }
  return 1;
}

/// The fill of an out-of-bounds load: NaN or zero, one element or a vector.
static Value emitFillValue(OpBuilder &b, Location loc, Type elementType,
                           Type valueType, bool nanFill, int64_t width) {
  if (!nanFill)
    return LLVM::ZeroOp::create(b, loc, valueType);
  auto nan = APFloat::getQNaN(cast<FloatType>(elementType).getFloatSemantics());
  Attribute attr =
      width == 1 ? Attribute(FloatAttr::get(elementType, nan))
                 : Attribute(DenseElementsAttr::get(cast<ShapedType>(valueType),
                                                    ArrayRef<APFloat>(nan)));
  return arith::ConstantOp::create(b, loc, cast<TypedAttr>(attr));
}

/// Loads element(s) `srcIdx` of `src` where in bounds, the fill value
/// otherwise.
static Value emitLoadOrFill(I64Builder &ib, const LLVMTypeConverter &converter,
                            const ElementwiseSide &src, ArrayRef<Value> srcIdx,
                            Type valueType, unsigned alignment, bool nanFill,
                            int64_t width) {
  OpBuilder &b = ib.b;
  Location loc = ib.loc;
  Value ok = inBounds(ib, src, srcIdx);
  auto ifOp = scf::IfOp::create(b, loc, TypeRange{valueType}, ok,
                                /*withElseRegion=*/true);
  OpBuilder::InsertionGuard g(b);
  b.setInsertionPointToStart(ifOp.thenBlock());
  Value srcPtr = elementAddress(ib, src, srcIdx, converter);
  scf::YieldOp::create(
      b, loc,
      LLVM::LoadOp::create(b, loc, valueType, srcPtr, alignment).getResult());
  b.setInsertionPointToStart(ifOp.elseBlock());
  scf::YieldOp::create(b, loc,
                       emitFillValue(b, loc, src.type.getElementType(),
                                     valueType, nanFill, width));
  return ifOp.getResult(0);
}

/// The copy loop over vectors of `width` elements (1 = scalars).
static void emitCopyLoop(OpBuilder &b, Location loc,
                         const LLVMTypeConverter &converter,
                         const ElementwiseSide &dst, const ElementwiseSide &src,
                         Value first, Value step,
                         const ElementwiseOptions &options, int64_t width) {
  int64_t count = 1;
  for (int64_t s : src.sizes)
    count *= s;
  Type elementType = src.type.getElementType();
  Type llvmElement = converter.convertType(elementType);
  Type valueType =
      width == 1 ? llvmElement : Type(VectorType::get({width}, llvmElement));
  unsigned alignment =
      width == 1 ? 0
                 : static_cast<unsigned>(width * *getElementBytes(src.type));
  Value upper = arith::ConstantIndexOp::create(b, loc, count / width);
  auto loop = scf::ForOp::create(b, loc, first, upper, step);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(loop.getBody());
  I64Builder ib{b, loc};
  Value e = ib.mul(arith::IndexCastOp::create(b, loc, b.getI64Type(),
                                              loop.getInductionVar()),
                   width);
  SmallVector<Value> srcIdx = delinearize(ib, e, src);
  SmallVector<Value> dstIdx = delinearize(ib, e, dst);
  Value dstPtr = elementAddress(ib, dst, dstIdx, converter);
  if (options.dstCta)
    dstPtr = mapToClusterCta(b, loc, dstPtr, options.dstCta);

  Value value = options.fillOutOfBounds
                    ? emitLoadOrFill(ib, converter, src, srcIdx, valueType,
                                     alignment, options.nanFill, width)
                    : LLVM::LoadOp::create(
                          b, loc, valueType,
                          elementAddress(ib, src, srcIdx, converter), alignment)
                          .getResult();

  if (storesClip(dst)) {
    auto inside = scf::IfOp::create(b, loc, inBounds(ib, dst, dstIdx),
                                    /*withElseRegion=*/false);
    b.setInsertionPoint(inside.thenBlock()->getTerminator());
  }
  if (options.reduce != ReduceKind::None) {
    LLVM::AtomicRMWOp::create(
        b, loc, *getElementwiseAtomicOp(options.reduce, elementType), dstPtr,
        value, LLVM::AtomicOrdering::monotonic);
  } else {
    LLVM::StoreOp::create(b, loc, value, dstPtr, alignment);
  }
}

/// `ptr % bytes == 0` for the aligned pointer of every strided side.
static Value emitAlignmentCheck(OpBuilder &b, Location loc,
                                ArrayRef<const ElementwiseSide *> sides,
                                int64_t bytes) {
  Value ok;
  I64Builder ib{b, loc};
  for (const ElementwiseSide *side : sides) {
    if (isa<LayoutAttr>(side->type.getLayout()))
      continue;
    Value ptr = MemRefDescriptor(side->converted).alignedPtr(b, loc);
    Value asInt = LLVM::PtrToIntOp::create(b, loc, b.getI64Type(), ptr);
    Value low = arith::AndIOp::create(b, loc, asInt, ib.c(bytes - 1));
    Value zero =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, low, ib.c(0));
    ok = ok ? arith::AndIOp::create(b, loc, ok, zero).getResult() : zero;
  }
  return ok;
}

void mlir::tile::emitElementwiseCopy(OpBuilder &b, Location loc,
                                     const LLVMTypeConverter &converter,
                                     const ElementwiseSide &dst,
                                     const ElementwiseSide &src, Value first,
                                     Value step,
                                     const ElementwiseOptions &options) {
  int64_t eb = *getElementBytes(src.type);
  int64_t width = chooseVectorWidth(dst, src, options, eb);
  if (width == 1) {
    emitCopyLoop(b, loc, converter, dst, src, first, step, options, 1);
    return;
  }
  Value aligned = emitAlignmentCheck(b, loc, {&dst, &src}, width * eb);
  if (!aligned) {
    emitCopyLoop(b, loc, converter, dst, src, first, step, options, width);
    return;
  }
  auto ifOp = scf::IfOp::create(b, loc, aligned, /*withElseRegion=*/true);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(ifOp.thenBlock()->getTerminator());
  emitCopyLoop(b, loc, converter, dst, src, first, step, options, width);
  b.setInsertionPoint(ifOp.elseBlock()->getTerminator());
  emitCopyLoop(b, loc, converter, dst, src, first, step, options, 1);
}
