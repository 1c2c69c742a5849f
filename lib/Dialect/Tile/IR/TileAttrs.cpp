//===- TileAttrs.cpp - #tile.layout ---------------------------------------===//

#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "tile/Dialect/Tile/IR/TileDialect.h"
#include "llvm/ADT/TypeSwitch.h"
#include <limits>

using namespace mlir;
using namespace mlir::tile;

#define GET_ATTRDEF_CLASSES
#include "tile/Dialect/Tile/IR/TileAttrs.cpp.inc"

void TileDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "tile/Dialect/Tile/IR/TileAttrs.cpp.inc"
      >();
}

static std::vector<int64_t> rowMajorStrides(ArrayRef<int64_t> extents) {
  std::vector<int64_t> strides(extents.size(), 1);
  // Saturates instead of overflowing: the layout's verifier then rejects
  // the oversized layout with its values.
  for (int i = static_cast<int>(extents.size()) - 2; i >= 0; --i)
    if (__builtin_mul_overflow(strides[i + 1], extents[i + 1], &strides[i]))
      strides[i] = std::numeric_limits<int64_t>::max();
  return strides;
}

::tile::Layout LayoutAttr::getLayout() const {
  std::vector<::tile::Shard> shards;
  for (auto [extent, stride] : llvm::zip(getExtents(), getStrides()))
    shards.push_back({extent, stride});
  return ::tile::Layout(std::move(shards), getSwizzleMode());
}

LayoutAttr LayoutAttr::get(MLIRContext *ctx, const ::tile::Layout &layout) {
  SmallVector<int64_t> extents, strides;
  for (const ::tile::Shard &s : layout.shards()) {
    extents.push_back(s.extent);
    strides.push_back(s.stride);
  }
  return get(ctx, extents, strides, static_cast<unsigned>(layout.swizzle()));
}

//===----------------------------------------------------------------------===//
// Syntax: (E0, ..., En-1) [: (S0, ..., Sn-1)] [, swizzle = 32B|64B|128B]
//===----------------------------------------------------------------------===//

Attribute LayoutAttr::parse(AsmParser &parser, Type) {
  SmallVector<int64_t> extents, strides;
  auto parseList = [&](SmallVectorImpl<int64_t> &out) {
    return parser.parseCommaSeparatedList(AsmParser::Delimiter::Paren, [&]() {
      return parser.parseInteger(out.emplace_back());
    });
  };
  if (parser.parseLess() || parseList(extents))
    return {};
  bool explicitStrides = succeeded(parser.parseOptionalColon());
  if (explicitStrides && parseList(strides))
    return {};
  if (!explicitStrides) {
    std::vector<int64_t> rm = rowMajorStrides(extents);
    strides.assign(rm.begin(), rm.end());
  }
  unsigned swizzle = 0;
  if (succeeded(parser.parseOptionalComma())) {
    if (parser.parseKeyword("swizzle") || parser.parseEqual())
      return {};
    SMLoc loc = parser.getCurrentLocation();
    int64_t bytes = 0;
    StringRef unit;
    if (parser.parseInteger(bytes) || parser.parseKeyword(&unit))
      return {};
    std::optional<::tile::Swizzle> mode =
        ::tile::parseSwizzle((std::to_string(bytes) + unit).str());
    if (!mode || *mode == ::tile::Swizzle::None) {
      parser.emitError(loc) << "unknown swizzle '" << bytes << unit
                            << "': expected 32B, 64B or 128B";
      return {};
    }
    swizzle = static_cast<unsigned>(*mode);
  }
  if (parser.parseGreater())
    return {};
  if (extents.size() != strides.size()) {
    parser.emitError(parser.getNameLoc())
        << "layout has " << extents.size() << " extents but " << strides.size()
        << " strides";
    return {};
  }
  return getChecked([&] { return parser.emitError(parser.getNameLoc()); },
                    parser.getContext(), extents, strides, swizzle);
}

void LayoutAttr::print(AsmPrinter &printer) const {
  printer << "<(";
  llvm::interleaveComma(getExtents(), printer);
  printer << ")";
  std::vector<int64_t> rm = rowMajorStrides(getExtents());
  if (!llvm::equal(rm, getStrides())) {
    printer << " : (";
    llvm::interleaveComma(getStrides(), printer);
    printer << ")";
  }
  if (getSwizzle() != 0)
    printer << ", swizzle = " << ::tile::toString(getSwizzleMode());
  printer << ">";
}

LogicalResult LayoutAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                 ArrayRef<int64_t> extents,
                                 ArrayRef<int64_t> strides, unsigned swizzle) {
  if (extents.size() != strides.size())
    return emitError() << "layout has " << extents.size() << " extents but "
                       << strides.size() << " strides";
  if (swizzle > 3)
    return emitError() << "unknown swizzle mode " << swizzle;
  std::vector<::tile::Shard> shards;
  for (auto [extent, stride] : llvm::zip(extents, strides))
    shards.push_back({extent, stride});
  ::tile::Layout layout(std::move(shards),
                        static_cast<::tile::Swizzle>(swizzle));
  if (std::optional<std::string> error = layout.verify())
    return emitError() << "invalid layout: " << *error;
  return success();
}

//===----------------------------------------------------------------------===//
// MemRefLayoutAttrInterface
//===----------------------------------------------------------------------===//

AffineMap LayoutAttr::getAffineMap() const {
  // One dimension per shard: the offset map over the shard index space.
  MLIRContext *ctx = getContext();
  AffineExpr expr = getAffineConstantExpr(0, ctx);
  for (auto [i, stride] : llvm::enumerate(getStrides()))
    expr = expr + getAffineDimExpr(i, ctx) * stride;
  return AffineMap::get(getExtents().size(), 0, expr);
}

bool LayoutAttr::isIdentity() const { return false; }

LogicalResult
LayoutAttr::verifyLayout(ArrayRef<int64_t> shape,
                         function_ref<InFlightDiagnostic()> emitError) const {
  if (llvm::any_of(shape, ShapedType::isDynamic))
    return emitError() << "#tile.layout requires a static shape";
  std::string error;
  if (!::tile::groupOnto(getLayout(),
                         std::vector<int64_t>(shape.begin(), shape.end()),
                         &error))
    return emitError() << "layout " << *this
                       << " does not fit the buffer shape: " << error;
  return success();
}

LogicalResult LayoutAttr::getStridesAndOffset(ArrayRef<int64_t> shape,
                                              SmallVectorImpl<int64_t> &strides,
                                              int64_t &offset) const {
  if (getSwizzle() != 0)
    return failure();
  std::optional<::tile::GroupedLayout> grouped = ::tile::groupOnto(
      getLayout(), std::vector<int64_t>(shape.begin(), shape.end()));
  if (!grouped)
    return failure();
  strides.clear();
  for (const std::vector<::tile::Shard> &group : grouped->groups) {
    // Extent-1 shards do not move the address; a dimension must have at
    // most one moving shard to be strided.
    std::optional<int64_t> stride;
    for (const ::tile::Shard &s : group) {
      if (s.extent == 1)
        continue;
      if (stride)
        return failure();
      stride = s.stride;
    }
    strides.push_back(stride.value_or(1));
  }
  offset = 0;
  return success();
}
