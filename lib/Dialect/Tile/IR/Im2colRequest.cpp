//===- Im2colRequest.cpp - tile.copy_im2col to planner requests -----------===//

#include "tile/Dialect/Tile/IR/Im2colRequest.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "tile/Dialect/Tile/IR/CopyRequest.h"
#include "tile/Dialect/Tile/IR/DiscardableAttrs.h"
#include "tile/Dialect/Tile/IR/RuleDiagnostic.h"
#include "tile/Dialect/Tile/IR/TileTypeUtils.h"

using namespace mlir;
using namespace mlir::tile;

FailureOr<::tile::tma::Im2colRequest>
mlir::tile::buildIm2colRequest(CopyIm2colOp op, ::tile::Decline &reason) {
  MemRefType global = op.getSrc().getType(), shared = op.getDst().getType();
  ::tile::tma::Im2colRequest r;
  std::optional<::tile::tma::ElementType> element =
      getTmaElementType(global.getElementType());
  if (!element) {
    reason = {RuleId::DataType, "element type has no TMA data type"};
    return failure();
  }
  r.elementType = *element;
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(getMemRefStridesAndOffset(global, strides, offset))) {
    reason = {RuleId::Layout, "the global tensor needs a strided layout"};
    return failure();
  }
  for (auto [size, stride] : llvm::zip(global.getShape(), strides)) {
    r.globalSizes.push_back(ShapedType::isDynamic(size)
                                ? std::nullopt
                                : std::optional<int64_t>(size));
    r.globalStrides.push_back(ShapedType::isDynamic(stride)
                                  ? std::nullopt
                                  : std::optional<int64_t>(stride));
  }
  r.lowerCorner.assign(op.getLower().begin(), op.getLower().end());
  r.upperCorner.assign(op.getUpper().begin(), op.getUpper().end());
  SmallVector<int64_t> traversal = op.getTraversalStrides();
  r.traversalStrides.assign(traversal.begin(), traversal.end());
  r.sharedShape.assign(shared.getShape().begin(), shared.getShape().end());
  std::string error;
  std::optional<::tile::Layout> layout = getShardLayout(shared, &error);
  if (!layout) {
    reason = {RuleId::SmemLayout, error};
    return failure();
  }
  r.sharedLayout = *layout;
  r.sharedBaseAlignment = getSharedBaseAlignment(op.getDst());
  r.oobFill = op.getOob() && *op.getOob() == "nan" ? ::tile::tma::OobFill::NaN
                                                   : ::tile::tma::OobFill::Zero;
  for (Value c : op.getCoords())
    r.start.push_back(getConstantIntValue(c));
  for (Value o : op.getOffsets())
    r.offsets.push_back(getConstantIntValue(o));
  return r;
}

FailureOr<::tile::tma::Im2colPlan> mlir::tile::planIm2colOp(CopyIm2colOp op) {
  ::tile::Decline reason{};
  FailureOr<::tile::tma::Im2colRequest> request =
      buildIm2colRequest(op, reason);
  if (failed(request))
    return emitDeclineError(op.getOperation(), reason);
  ::tile::tma::Im2colError error;
  std::optional<::tile::tma::Im2colPlan> plan =
      ::tile::tma::planIm2col(*request, &error);
  if (!plan)
    return op.emitOpError() << error.message;
  return *plan;
}

LogicalResult mlir::tile::recordIm2colPlan(CopyIm2colOp op) {
  FailureOr<::tile::tma::Im2colPlan> plan = planIm2colOp(op);
  if (failed(plan))
    return failure();
  MLIRContext *ctx = op.getContext();
  op->setAttr(kIm2colPlanAttr,
              Im2colPlanAttr::get(ctx, Im2colMapAttr::get(ctx, plan->map),
                                  plan->bytes));
  return success();
}

FailureOr<::tile::tma::Im2colPlan>
mlir::tile::recallIm2colPlan(CopyIm2colOp op) {
  auto record = op->getAttrOfType<Im2colPlanAttr>(kIm2colPlanAttr);
  if (!record)
    return emitRuleError(op.getOperation(), RuleId::PlanMissing)
           << "this im2col load carries no recorded plan; run "
              "--tile-plan-copies first (--tile-gpu-pipeline does)";
  return record.getPlan();
}

LogicalResult mlir::tile::verifyRecordedIm2colPlan(CopyIm2colOp op) {
  auto record = op->getAttrOfType<Im2colPlanAttr>(kIm2colPlanAttr);
  if (!record)
    return success();
  FailureOr<::tile::tma::Im2colPlan> plan = planIm2colOp(op);
  if (failed(plan))
    return failure();
  if (!(plan->map == record.getMap().getDesc()) ||
      plan->bytes != record.getBytes())
    return emitRuleError(op.getOperation(), RuleId::PlanStale)
           << "the recorded im2col plan no longer describes this "
              "load (re-run tile-plan-copies after changing it); now: "
           << Im2colPlanAttr::get(
                  op.getContext(),
                  Im2colMapAttr::get(op.getContext(), plan->map), plan->bytes);
  return success();
}
