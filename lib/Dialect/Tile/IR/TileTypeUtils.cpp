//===- TileTypeUtils.cpp - Memref queries shared by the dialect -----------===//

#include "tile/Dialect/Tile/IR/TileTypeUtils.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "tile/Dialect/Tile/IR/TileDialect.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::tile;

MemorySpaceKind mlir::tile::getMemorySpaceKind(MemRefType type) {
  return getMemorySpaceKind(type.getMemorySpace());
}

MemorySpaceKind mlir::tile::getMemorySpaceKind(Attribute space) {
  if (!space)
    return MemorySpaceKind::Global;
  if (auto gpuSpace = dyn_cast<gpu::AddressSpaceAttr>(space)) {
    switch (gpuSpace.getValue()) {
    case gpu::AddressSpace::Global:
      return MemorySpaceKind::Global;
    case gpu::AddressSpace::Workgroup:
      return MemorySpaceKind::Shared;
    default:
      return MemorySpaceKind::Other;
    }
  }
  if (auto intSpace = dyn_cast<IntegerAttr>(space)) {
    if (intSpace.getInt() == 0 || intSpace.getInt() == 1)
      return MemorySpaceKind::Global;
    if (intSpace.getInt() == 3)
      return MemorySpaceKind::Shared;
  }
  return MemorySpaceKind::Other;
}

const char *mlir::tile::toString(MemorySpaceKind kind) {
  switch (kind) {
  case MemorySpaceKind::Global:
    return "global";
  case MemorySpaceKind::Shared:
    return "shared";
  case MemorySpaceKind::Other:
    return "other";
  }
  return "other";
}

std::optional<int64_t> mlir::tile::getElementBytes(MemRefType type) {
  Type element = type.getElementType();
  if (!element.isIntOrIndexOrFloat() || element.isIndex())
    return std::nullopt;
  unsigned bits = element.getIntOrFloatBitWidth();
  if (bits % 8 != 0)
    return std::nullopt;
  return bits / 8;
}

LogicalResult mlir::tile::getMemRefStridesAndOffset(
    MemRefType type, SmallVectorImpl<int64_t> &strides, int64_t &offset) {
  if (!isa<AffineMapAttr>(type.getLayout()) || !type.getLayout().isIdentity())
    return type.getStridesAndOffset(strides, offset);
  // As makeCanonicalStridedLayoutExpr: a dynamic or zero size makes every
  // outer stride dynamic.
  ArrayRef<int64_t> shape = type.getShape();
  SmallVector<int64_t> result(shape.size());
  int64_t running = 1;
  bool dynamic = false;
  for (size_t d = shape.size(); d-- > 0;) {
    result[d] = dynamic ? ShapedType::kDynamic : running;
    if (shape[d] <= 0)
      dynamic = true;
    else if (llvm::MulOverflow(running, shape[d], running))
      return type.getStridesAndOffset(strides, offset);
  }
  strides.assign(result.begin(), result.end());
  offset = 0;
  return success();
}

std::optional<::tile::Layout> mlir::tile::getShardLayout(MemRefType type,
                                                         std::string *error) {
  auto fail = [&](const std::string &message) -> std::optional<::tile::Layout> {
    if (error)
      *error = message;
    return std::nullopt;
  };
  if (auto layout = dyn_cast<LayoutAttr>(type.getLayout())) {
    if (!type.hasStaticShape())
      return fail("#tile.layout requires a static shape");
    return layout.getLayout();
  }
  SmallVector<int64_t> strides;
  int64_t offset = 0;
  if (failed(getMemRefStridesAndOffset(type, strides, offset)))
    return fail("layout is neither #tile.layout nor strided");
  if (llvm::any_of(strides, ShapedType::isDynamic) ||
      ShapedType::isDynamic(offset))
    return fail("strided layout has dynamic strides or offset");
  if (!type.hasStaticShape())
    return fail("buffer has a dynamic shape");
  return ::tile::Layout::strided(
      std::vector<int64_t>(type.getShape().begin(), type.getShape().end()),
      std::vector<int64_t>(strides.begin(), strides.end()), offset);
}

std::optional<::tile::tma::SymbolicGlobal>
mlir::tile::getSymbolicGlobal(MemRefType type, std::string *error) {
  if (isa<LayoutAttr>(type.getLayout())) {
    if (error)
      *error = "#tile.layout requires a static shape";
    return std::nullopt;
  }
  SmallVector<int64_t> strides;
  int64_t offset = 0;
  if (failed(getMemRefStridesAndOffset(type, strides, offset))) {
    if (error)
      *error = "layout is neither #tile.layout nor strided";
    return std::nullopt;
  }
  bool dynamic = !type.hasStaticShape() ||
                 llvm::any_of(strides, ShapedType::isDynamic) ||
                 ShapedType::isDynamic(offset);
  if (!dynamic)
    return std::nullopt;
  auto known = [](int64_t v) -> std::optional<int64_t> {
    if (ShapedType::isDynamic(v))
      return std::nullopt;
    return v;
  };
  ::tile::tma::SymbolicGlobal global;
  for (int64_t size : type.getShape())
    global.sizes.push_back(known(size));
  for (int64_t stride : strides)
    global.strides.push_back(known(stride));
  global.offset = known(offset);
  return global;
}

std::optional<::tile::GroupedLayout>
mlir::tile::getGroupedLayout(MemRefType type, std::string *error) {
  std::optional<::tile::Layout> layout = getShardLayout(type, error);
  if (!layout)
    return std::nullopt;
  return ::tile::groupOnto(
      *layout,
      std::vector<int64_t>(type.getShape().begin(), type.getShape().end()),
      error);
}

std::optional<::tile::tma::ElementType>
mlir::tile::getTmaElementType(Type type) {
  using ::tile::tma::ScalarKind;
  if (auto intType = dyn_cast<IntegerType>(type)) {
    unsigned bits = intType.getWidth();
    if (bits != 8 && bits != 16 && bits != 32 && bits != 64)
      return std::nullopt;
    ScalarKind kind = intType.isSigned()     ? ScalarKind::SignedInt
                      : intType.isUnsigned() ? ScalarKind::UnsignedInt
                                             : ScalarKind::SignlessInt;
    return ::tile::tma::ElementType{kind, bits / 8};
  }
  if (type.isBF16())
    return ::tile::tma::ElementType{ScalarKind::BFloat, 2};
  if (type.isF16() || type.isF32() || type.isF64())
    return ::tile::tma::ElementType{ScalarKind::Float,
                                    type.getIntOrFloatBitWidth() / 8};
  if (auto floatType = dyn_cast<FloatType>(type))
    if (floatType.getWidth() == 8)
      return ::tile::tma::ElementType{ScalarKind::Float8, 1};
  return std::nullopt;
}
