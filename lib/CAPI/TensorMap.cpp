//===- TensorMap.cpp - C API: a kernel's tensor-map records ---------------===//

#include "tile-c/TensorMap.h"
#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Support.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "tile/Dialect/Tile/IR/DiscardableAttrs.h"
#include "tile/Dialect/Tile/IR/TileDialect.h"
#include "tile/Support/Rules.h"

#include <cstring>

using namespace mlir;
using namespace mlir::tile;

// The C enums are the pure core's values.
static_assert(MlirTileRuntimeSize ==
                  static_cast<int>(::tile::tma::RuntimeValue::Kind::Size) &&
              MlirTileRuntimeStride ==
                  static_cast<int>(::tile::tma::RuntimeValue::Kind::Stride) &&
              MlirTileRuntimeOffset ==
                  static_cast<int>(::tile::tma::RuntimeValue::Kind::Offset) &&
              MlirTileRuntimeAddress ==
                  static_cast<int>(::tile::tma::RuntimeValue::Kind::Address));
static_assert(MlirTileTensorMapTiled ==
                  static_cast<int>(TensorMapMode::Tiled) &&
              MlirTileTensorMapIm2col ==
                  static_cast<int>(TensorMapMode::Im2col));

static ArrayAttr getMaps(MlirOperation kernel) {
  return unwrap(kernel)->getAttrOfType<ArrayAttr>(kTensorMapsAttr);
}

intptr_t mlirTileKernelGetNumTensorMaps(MlirOperation kernel) {
  ArrayAttr maps = getMaps(kernel);
  return maps ? static_cast<intptr_t>(maps.size()) : 0;
}

intptr_t mlirTileKernelGetDeviceMapSlots(MlirOperation kernel,
                                         int64_t *arrayArg,
                                         int64_t *arrayParam) {
  Operation *op = unwrap(kernel);
  auto slots = op->getAttrOfType<IntegerAttr>(kDeviceMapSlotsAttr);
  auto arg = op->getAttrOfType<IntegerAttr>(kDeviceMapArrayArgAttr);
  if (!slots || !arg)
    return 0;
  if (arrayArg)
    *arrayArg = arg.getInt();
  if (arrayParam) {
    // After memref expansion (an llvm.func) the array is the last parameter.
    auto func = dyn_cast<LLVM::LLVMFuncOp>(op);
    *arrayParam = func ? static_cast<int64_t>(func.getNumArguments()) - 1 : -1;
  }
  return static_cast<intptr_t>(slots.getInt());
}

MlirAttribute mlirTileKernelGetTensorMap(MlirOperation kernel, intptr_t pos) {
  ArrayAttr maps = getMaps(kernel);
  if (!maps || pos < 0 || pos >= static_cast<intptr_t>(maps.size()))
    return wrap(Attribute());
  return wrap(maps[pos]);
}

bool mlirAttributeIsATileTensorMap(MlirAttribute attr) {
  return isa_and_present<TensorMapAttr>(unwrap(attr));
}

static MlirTileRuntimeField
toField(const std::optional<::tile::tma::RuntimeField> &f) {
  if (!f)
    return {MlirTileRuntimeStatic, 0, 1, 1};
  return {static_cast<int32_t>(f->value.kind),
          static_cast<int32_t>(f->value.dim), f->scale, f->divisor};
}

/// Copies at most `n` values of `from` into `to`.
template <typename To, typename From>
static void copyList(To *to, size_t n, const std::vector<From> &from) {
  for (size_t i = 0; i < n && i < from.size(); ++i)
    to[i] = static_cast<To>(from[i]);
}

/// The fields both encodes take alike (a tiled or an im2col map).
template <typename Desc>
static void copyEncodeEnums(MlirTileTensorMap *out, const Desc &m) {
  out->dataType = static_cast<int32_t>(m.dataType);
  out->rank = static_cast<int32_t>(m.rank);
  out->swizzle = static_cast<int32_t>(m.swizzle);
  out->l2Promotion = m.l2Promotion;
  out->oobFill = m.oobFill;
  out->elementBytes = m.elementBytes;
}

MlirLogicalResult mlirTileTensorMapGetFields(MlirAttribute attr,
                                             MlirTileTensorMap *out) {
  auto map = dyn_cast_if_present<TensorMapAttr>(unwrap(attr));
  if (!map || !out)
    return wrap(failure());
  std::memset(out, 0, sizeof(*out));
  out->mode = static_cast<int32_t>(map.getMode());
  out->arg = map.getArg();
  out->param = map.getParam().value_or(-1);
  out->globalArg = map.getGlobalArg();
  out->numGuards = static_cast<intptr_t>(llvm::size(map.getGuardList()));
  for (MlirTileRuntimeField &f : out->runtimeGlobalDim)
    f = toField(std::nullopt);
  for (MlirTileRuntimeField &f : out->runtimeGlobalStrides)
    f = toField(std::nullopt);
  if (TiledMapAttr tiled = map.getTiledMap()) {
    const ::tile::tma::TensorMapDesc &m = tiled.getDesc();
    copyEncodeEnums(out, m);
    out->interleave = m.interleave;
    copyList(out->globalDim, 5, m.globalDim);
    copyList(out->globalStrides, 4, m.globalStridesBytes);
    copyList(out->boxDim, 5, m.boxDim);
    copyList(out->elementStrides, 5, m.elementStrides);
    for (size_t i = 0; i < 5 && i < m.runtimeGlobalDim.size(); ++i)
      out->runtimeGlobalDim[i] = toField(m.runtimeGlobalDim[i]);
    for (size_t i = 0; i < 4 && i < m.runtimeGlobalStrides.size(); ++i)
      out->runtimeGlobalStrides[i] = toField(m.runtimeGlobalStrides[i]);
    // The record's verifier makes the base a constant.
    out->baseOffsetBytes = m.baseOffsetBytes.constantValue().value_or(0);
    out->offsetScale = m.runtimeOffsetScale;
    return wrap(success());
  }
  const ::tile::tma::Im2colMapDesc &m = map.getIm2colMap().getDesc();
  copyEncodeEnums(out, m);
  copyList(out->elementStrides, 5, m.elementStrides);
  copyList(out->lowerCorner, 3, m.lowerCorner);
  copyList(out->upperCorner, 3, m.upperCorner);
  out->channelsPerPixel = m.channelsPerPixel;
  out->pixelsPerColumn = m.pixelsPerColumn;
  return wrap(success());
}

MlirLogicalResult mlirTileTensorMapGetGuard(MlirAttribute attr, intptr_t pos,
                                            MlirTileGuard *out) {
  auto map = dyn_cast_if_present<TensorMapAttr>(unwrap(attr));
  if (!map || !out || !map.getGuards() || pos < 0 ||
      pos >= static_cast<intptr_t>(map.getGuards().size()))
    return wrap(failure());
  const ::tile::tma::Guard &g =
      cast<GuardAttr>(map.getGuards()[pos]).getGuard();
  constexpr size_t kMaxTerms = sizeof(out->terms) / sizeof(out->terms[0]);
  if (g.terms.size() > kMaxTerms)
    return wrap(failure());
  std::memset(out, 0, sizeof(*out));
  out->kind = g.kind == ::tile::tma::Guard::Kind::MultipleOf
                  ? MlirTileGuardMultipleOf
                  : MlirTileGuardInRange;
  std::string_view rule = ::tile::ruleIdName(g.rule);
  out->rule = mlirStringRefCreate(rule.data(), rule.size());
  out->constant = g.constant;
  out->modulus = g.modulus;
  out->lo = g.lo;
  out->hi = g.hi;
  out->numTerms = static_cast<intptr_t>(g.terms.size());
  for (auto [i, term] : llvm::enumerate(g.terms))
    out->terms[i] = {static_cast<int32_t>(term.first.kind),
                     static_cast<int32_t>(term.first.dim), term.second};
  return wrap(success());
}
