//===- RecordedDecisionVerifier.cpp - Checks of the recorded decision -----===//
//
// `tile-plan-copies` records on each copy the variant it selected
// (`tile.variant`), the variants it declined first (`tile.declined`) and, for
// a variant that needs a tensor map, the plan (`tile.tma_plan`). Later passes
// read only the record, so the record must stay true to the copy. Here:
// the dialect's structural checks of the record attributes (run by the
// verifier, cheap and local), and `verifyRecordedPlan`, which rebuilds the
// planner's view of the op and compares it with the plan's fingerprint (the
// hardware model runs only when the copy changed). The op verifier does not
// call it: the passes that read a record (the `tma` variant's recall) and
// `tile-check-recorded-plans` do. A pass that changes a copy after planning
// (its offsets, sizes, buffers or types) gets a `plan-stale` error there
// instead of a host map that no longer matches the device's instructions.
//
//===----------------------------------------------------------------------===//

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "tile/Dialect/Tile/IR/CopyRequest.h"
#include "tile/Dialect/Tile/IR/DiscardableAttrs.h"
#include "tile/Dialect/Tile/IR/RuleDiagnostic.h"
#include "tile/Dialect/Tile/IR/TileDialect.h"
#include "tile/Dialect/Tile/IR/TileOps.h"
#include "tile/TMA/Guards.h"
#include "tile/TMA/HardwareModel.h"
#include "tile/TMA/Planner.h"

using namespace mlir;
using namespace mlir::tile;

/// Copies whose buffers or region exceed this many bytes are checked without
/// running the model (its memory images would cost more than a verifier
/// should).
static constexpr int64_t kMaxModelCells = int64_t(1) << 22;

static LogicalResult verifyDeclined(Operation *op, Attribute value,
                                    StringRef name = kDeclinedAttr) {
  auto list = dyn_cast<ArrayAttr>(value);
  auto isPair = [](Attribute a) {
    auto pair = dyn_cast<ArrayAttr>(a);
    return pair && pair.size() == 2 && isa<StringAttr>(pair[0]) &&
           isa<StringAttr>(pair[1]);
  };
  if (!list || !llvm::all_of(list, isPair))
    return emitRuleError(op, RuleId::PlanStale)
           << "'" << name << "' must be a list of [variant, reason] pairs";
  return success();
}

/// Checks that need no model: the record's shape against the copy.
static LogicalResult verifyPlanShape(CopyAsyncOp op,
                                     const ::tile::tma::TmaPlan &plan,
                                     const CopyRequestInfo &info) {
  auto stale = [&]() {
    return emitRuleError(op.getOperation(), RuleId::PlanStale)
           << "the recorded TMA plan no longer describes this "
              "copy (re-run tile-plan-copies after changing copies): ";
  };
  const ::tile::tma::TensorMapDesc &m = plan.map;
  if (m.rank < 1 || m.rank > 5 || m.globalDim.size() != m.rank ||
      m.boxDim.size() != m.rank || m.elementStrides.size() != m.rank ||
      m.globalStridesBytes.size() + 1 != m.rank)
    return stale() << "its tensor map has rank " << m.rank << " but "
                   << m.globalDim.size() << " dims, " << m.boxDim.size()
                   << " box dims, " << m.elementStrides.size()
                   << " element strides and " << m.globalStridesBytes.size()
                   << " strides";
  // A four-row issue names the column and the four rows of its 2D map.
  size_t coords = op.isRowGather() ? 5 : m.rank;
  for (const ::tile::tma::TmaIssue &issue : plan.issues) {
    if (issue.coords.size() != coords)
      return stale() << "an issue has " << issue.coords.size()
                     << " coordinates for a rank-" << m.rank << " map";
    SmallVector<const ::tile::tma::SymExpr *> exprs = {&issue.smemByteOffset};
    for (const ::tile::tma::SymExpr &c : issue.coords)
      exprs.push_back(&c);
    for (const ::tile::tma::SymExpr *e : exprs)
      for (const auto &[id, coeff] : e->terms)
        if (id >= info.symbols.size())
          return stale() << "it uses symbol s" << id << " but the copy has "
                         << info.symbols.size() << " dynamic offset(s)";
  }
  // Run-time fields read the buffer's descriptor: only a type with '?'
  // has them, and they name its dimensions.
  bool dynamicType = info.request.symbolicGlobal.has_value();
  if (m.hasRuntimeFields() && !dynamicType)
    return stale() << "it reads sizes or strides at run time, but the global "
                      "buffer's type is static";
  if ((!m.runtimeGlobalDim.empty() && m.runtimeGlobalDim.size() != m.rank) ||
      (!m.runtimeGlobalStrides.empty() &&
       m.runtimeGlobalStrides.size() + 1 != m.rank))
    return stale() << "its run-time fields do not match its rank " << m.rank;
  size_t globalRank = info.request.globalShape.size();
  for (const auto *fields : {&m.runtimeGlobalDim, &m.runtimeGlobalStrides})
    for (const std::optional<::tile::tma::RuntimeField> &f : *fields)
      if (f && f->value.dim >= globalRank)
        return stale() << "a run-time field reads " << f->value.str()
                       << " of a rank-" << globalRank << " buffer";
  // Each issue completes one box's bytes (a plan written by hand can name a
  // box of 256^5 elements for a small copy).
  std::optional<int64_t> moved = ::tile::tma::planTransferBytes(plan);
  if (!op.isRowGather() && moved && *moved != plan.bytes)
    return stale() << "its " << plan.issues.size() << " issue(s) move "
                   << *moved << " bytes, it says " << plan.bytes;
  if (plan.bytes != op.getTransactionBytes())
    return stale() << "it moves " << plan.bytes << " bytes, the copy "
                   << op.getTransactionBytes();
  return success();
}

LogicalResult mlir::tile::verifyRecordedPlan(CopyAsyncOp copy) {
  if (!copy->getAttrOfType<TmaPlanAttr>(kTmaPlanAttr))
    return success();
  ::tile::Decline reason{};
  FailureOr<CopyRequestInfo> info = buildCopyRequest(copy, reason);
  if (failed(info))
    return emitRuleError(copy.getOperation(), RuleId::PlanStale)
           << "the recorded TMA plan no longer describes this copy: "
           << reason.message();
  return verifyRecordedPlan(copy, *info);
}

LogicalResult mlir::tile::verifyRecordedPlan(CopyAsyncOp copy,
                                             const CopyRequestInfo &info) {
  auto attr = copy->getAttrOfType<TmaPlanAttr>(kTmaPlanAttr);
  if (!attr)
    return success();
  const ::tile::tma::TmaPlan &plan = attr.getPlan();
  if (failed(verifyPlanShape(copy, plan, info)))
    return failure();
  // The copy still builds the request this plan was made for: nothing to
  // run.
  auto input = copy->getAttrOfType<IntegerAttr>(kPlanInputAttr);
  if (input && static_cast<uint64_t>(input.getInt()) ==
                   getPlanInputFingerprint(info.request, plan))
    return success();
  // The model simulates tiled boxes only: a four-row plan must be the one
  // the planner makes.
  if (copy.isRowGather()) {
    // Planned again as tile-plan-copies plans, with the offsets' divisors
    // (the request of a recall carries none).
    ::tile::Decline reason{};
    DivisorAnalysis divisors;
    FailureOr<CopyRequestInfo> planned =
        buildCopyRequest(copy, reason, &divisors);
    ::tile::tma::PlanOutcome fresh =
        succeeded(planned) ? ::tile::tma::planTmaCopy(planned->request)
                           : ::tile::tma::PlanOutcome{};
    if (fresh.plan && *fresh.plan == plan)
      return success();
    return emitRuleError(copy.getOperation(), RuleId::PlanStale)
           << "the recorded TMA plan no longer describes this "
              "copy (re-run tile-plan-copies after changing copies): it is "
              "not the four-row plan of the copy"
           << (fresh.plan ? std::string()
                          : " (" +
                                (fresh.decline ? fresh.decline->message()
                                               : reason.message()) +
                                ")");
  }
  // Otherwise (changed since, or written by hand) the model decides, with
  // every dynamic offset at zero where that is a defined copy; constant
  // coordinates and offsets are checked exactly.
  // A buffer with run-time sizes or strides is checked at small values that
  // satisfy the plan's guards.
  ::tile::tma::CopyRequest request = info.request;
  ::tile::tma::TmaPlan instance = plan;
  if (request.symbolicGlobal) {
    instance.guards = ::tile::tma::deriveGuards(request, plan);
    std::optional<::tile::tma::RuntimeValues> values =
        ::tile::tma::exampleValues(request, instance);
    if (!values)
      return success();
    instance = ::tile::tma::instantiatePlan(instance, *values);
    request = ::tile::tma::instantiateRequest(request, *values);
  }
  std::vector<int64_t> zeros(info.symbols.size(), 0);
  if (::tile::tma::whyUndefined(request, zeros))
    return success();
  ::tile::tma::ModelOptions options;
  options.maxImageCells = kMaxModelCells;
  if (::tile::tma::whyTooLargeToModel(request, options))
    return success();
  std::optional<std::string> error =
      ::tile::tma::verifyPlan(request, instance, zeros, options);
  if (!error)
    return success();
  return emitRuleError(copy.getOperation(), RuleId::PlanStale)
         << "the recorded TMA plan no longer describes this copy "
            "(re-run tile-plan-copies after changing copies): the hardware "
            "model finds "
         << *error;
}

/// A recorded plan has the record's type and sits on the op that plans it.
template <typename RecordT, typename... OpTs>
static LogicalResult verifyPlanRecord(Operation *op, NamedAttribute attr,
                                      StringRef what) {
  if (isa<RecordT>(attr.getValue()) && isa<OpTs...>(op))
    return success();
  return emitRuleError(op, RuleId::PlanStale)
         << "'" << attr.getName().getValue() << "' must be " << what;
}

LogicalResult TileDialect::verifyOperationAttribute(Operation *op,
                                                    NamedAttribute attr) {
  StringRef name = attr.getName().getValue();
  if (name == kVariantAttr) {
    if (!isa<StringAttr>(attr.getValue()) || !isa<CopyAsyncOp, CopyOp>(op))
      return emitRuleError(op, RuleId::PlanStale)
             << "'" << kVariantAttr << "' must be a string on a tile copy";
    return success();
  }
  if (name == kDeclinedAttr)
    return verifyDeclined(op, attr.getValue());
  if (name == kFallbackVariantAttr) {
    if (!isa<StringAttr>(attr.getValue()) || !isa<CopyAsyncOp>(op))
      return emitRuleError(op, RuleId::PlanStale)
             << "'" << kFallbackVariantAttr
             << "' must be a string on a tile.copy_async";
    return success();
  }
  if (name == kFallbackDeclinedAttr)
    return verifyDeclined(op, attr.getValue(), kFallbackDeclinedAttr);
  // The plans themselves are checked where they are read (the `tma`
  // variant's recall) and by tile-check-recorded-plans.
  if (name == kTmaPlanAttr)
    return verifyPlanRecord<TmaPlanAttr, CopyAsyncOp, CopyOp>(
        op, attr, "a #tile.tma_plan on a tile copy");
  if (name == kIm2colPlanAttr)
    return verifyPlanRecord<Im2colPlanAttr, CopyIm2colOp>(
        op, attr, "a #tile.im2col_plan on a tile.copy_im2col");
  if (name == kWgmmaPlanAttr)
    return verifyPlanRecord<WgmmaPlanAttr, WgmmaDescriptorOp>(
        op, attr, "a #tile.wgmma_plan on a tile.wgmma_descriptor");
  if (name == kTensorMapsAttr)
    return verifyTensorMapsAttr(op, attr.getValue());
  if (name == kFallbackAttr) {
    if (!isa<FlatSymbolRefAttr>(attr.getValue()) ||
        !isa<gpu::GPUFuncOp, LLVM::LLVMFuncOp>(op))
      return emitRuleError(op, RuleId::Guard)
             << "'" << kFallbackAttr
             << "' must name a kernel's fallback version";
    return success();
  }
  if (name == kPlanInputAttr) {
    auto value = dyn_cast<IntegerAttr>(attr.getValue());
    if (!value || !value.getType().isInteger(64) ||
        !isa<CopyAsyncOp, CopyOp>(op))
      return emitRuleError(op, RuleId::PlanStale)
             << "'" << kPlanInputAttr << "' must be an i64 on a tile copy";
    return success();
  }
  return success();
}
