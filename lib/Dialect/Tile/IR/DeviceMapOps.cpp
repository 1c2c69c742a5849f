//===- DeviceMapOps.cpp - Tensor maps held and updated on the device ------===//
//
// The structural rules of device maps: where a map is made
// (device-map-place), what it may be pointed at (device-map-view) and which
// copies may go through it (device-map-copy). The ordering rules (fences,
// copies in flight) are tile-verify-async's.
//
//===----------------------------------------------------------------------===//

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "tile/Dialect/Tile/IR/RuleDiagnostic.h"
#include "tile/Dialect/Tile/IR/TileOps.h"
#include "tile/Dialect/Tile/IR/TileTypeUtils.h"
#include "tile/TMA/Limits.h"

using namespace mlir;
using namespace mlir::tile;
using ::tile::RuleId;
using ::tile::tma::limits::kTensorMapBytes;

LogicalResult DeviceMapOp::verify() {
  MemRefType type = getBuffer().getType();
  if (getMemorySpaceKind(type) != MemorySpaceKind::Global)
    return emitRuleError(*this, RuleId::DeviceMapPlace)
           << "the template " << type
           << " is not in global memory; a tensor map describes a global "
              "tensor";
  if (type.getRank() < 1 || type.getRank() > ::tile::tma::limits::kMaxRank)
    return emitRuleError(*this, RuleId::DeviceMapPlace)
           << "the template has rank " << type.getRank()
           << "; a tensor map has 1 to " << ::tile::tma::limits::kMaxRank
           << " dimensions";
  Operation *parent = (*this)->getParentOp();
  auto func = dyn_cast_or_null<gpu::GPUFuncOp>(parent);
  if (!isa_and_nonnull<gpu::LaunchOp>(parent) && !(func && func.isKernel()))
    return emitRuleError(*this, RuleId::DeviceMapPlace)
           << "tile.device_map sits inside '"
           << (parent ? parent->getName().getStringRef() : "nothing")
           << "'; a device map is made once per CTA, in its kernel's body";
  return success();
}

namespace {
/// A memref type's sizes, strides and offset (ShapedType::kDynamic for `?`).
struct StridedForm {
  ArrayRef<int64_t> sizes;
  SmallVector<int64_t> strides;
  int64_t offset = 0;
};
} // namespace

static FailureOr<StridedForm> getStridedForm(MemRefType type) {
  StridedForm form;
  form.sizes = type.getShape();
  if (failed(getMemRefStridesAndOffset(type, form.strides, form.offset)))
    return failure();
  return form;
}

static std::string fieldText(int64_t v) {
  return ShapedType::isDynamic(v) ? std::string("?") : std::to_string(v);
}

LogicalResult DeviceMapUpdateOp::verify() {
  MemRefType templ = getMap().getType().getTemplateType();
  MemRefType view = getView().getType();
  auto fail = [&]() { return emitRuleError(*this, RuleId::DeviceMapView); };
  if (view.getRank() != templ.getRank())
    return fail() << "the view has rank " << view.getRank()
                  << "; the template has rank " << templ.getRank();
  if (view.getElementType() != templ.getElementType())
    return fail() << "the view's element type is " << view.getElementType()
                  << "; the template's is " << templ.getElementType();
  if (getMemorySpaceKind(view) != getMemorySpaceKind(templ))
    return fail() << "the view is in " << toString(getMemorySpaceKind(view))
                  << " memory; the template in "
                  << toString(getMemorySpaceKind(templ));
  FailureOr<StridedForm> t = getStridedForm(templ);
  FailureOr<StridedForm> v = getStridedForm(view);
  if (failed(t) || failed(v))
    return fail() << "the " << (failed(v) ? "view" : "template")
                  << " has no strided layout; a tensor map takes sizes and "
                     "strides";
  // Sizes first, then strides: each field the template fixes.
  auto checkFixed = [&](StringRef field, ArrayRef<int64_t> fixed,
                        ArrayRef<int64_t> given) -> LogicalResult {
    for (auto [d, values] : llvm::enumerate(llvm::zip(fixed, given))) {
      auto [want, got] = values;
      if (!ShapedType::isDynamic(want) && got != want)
        return fail() << "the view's " << field << " " << d << " is "
                      << fieldText(got) << "; the template fixes it at " << want
                      << ", and the plan of the copies through the map was "
                         "made for that";
    }
    return success();
  };
  if (failed(checkFixed("size", t->sizes, v->sizes)) ||
      failed(checkFixed("stride", t->strides, v->strides)))
    return failure();
  return verifyStage();
}

LogicalResult DeviceMapUpdateOp::verifyStage() {
  Value stage = getStage();
  if (!stage)
    return success();
  auto type = cast<MemRefType>(stage.getType());
  auto fail = [&]() { return emitRuleError(*this, RuleId::DeviceMapStage); };
  if (getMemorySpaceKind(type) != MemorySpaceKind::Shared)
    return fail() << "the stage " << type << " is in "
                  << toString(getMemorySpaceKind(type))
                  << " memory; a map is staged in shared memory";
  std::optional<int64_t> elementBytes = getElementBytes(type);
  if (!type.hasStaticShape() || !elementBytes || !type.getLayout().isIdentity())
    return fail() << "the stage " << type
                  << " is not a static, contiguous buffer of whole-byte "
                     "elements";
  int64_t bytes = type.getNumElements() * *elementBytes;
  if (bytes != kTensorMapBytes)
    return fail() << "the stage holds " << bytes << " bytes; a tensor map is "
                  << kTensorMapBytes;
  // Where the stage's address is known here (an arena view), its boundary.
  if (auto view = stage.getDefiningOp<ArenaViewOp>())
    if (view.getOffset() % kTensorMapBytes != 0)
      return fail() << "the stage starts " << view.getOffset()
                    << " bytes into the arena, not on a " << kTensorMapBytes
                    << "-byte boundary";
  return success();
}

LogicalResult mlir::tile::verifyCopyThroughDeviceMap(CopyAsyncOp op) {
  Value map = op.getMap();
  if (!map)
    return success();
  auto fail = [&]() { return emitRuleError(op, RuleId::DeviceMapCopy); };
  auto def = map.getDefiningOp<DeviceMapOp>();
  if (!def)
    return fail() << "the map is not the result of a tile.device_map; a copy "
                     "goes through the map its kernel made";
  if (def.getBuffer() != op.getGlobal())
    return fail() << "the copy's global operand is not the template of its "
                     "device map (tile.device_map of another buffer)";
  if (op.isRowGather())
    return fail() << "a four-row copy (rows(...)) cannot go through a device "
                     "map";
  return success();
}
