//===- CollectiveTmaVariant.cpp - tile.copy through the TMA ---------------===//
//
// A CTA-wide or warpgroup-wide `tile.copy` between a global and a shared
// buffer can be carried out by the tensor memory accelerator: one thread of
// the scope issues the planned copy and the scope waits for it, so the copy
// keeps its synchronous meaning for every thread. This variant decides that
// (the planner's plan, recorded like the `tma` variant's);
// `tile-expand-collective-copies` then rewrites each such copy into a
// `tile.copy_async` issued by one thread with its completion protocol (an
// mbarrier for loads, a bulk group for stores), which the rest of the
// pipeline checks and lowers like any other. Where it declines (a warp or a
// thread scope, a shared buffer whose alignment the IR does not show, a plan
// with run-time guards) the `collective` variant copies element-wise.
//
//===----------------------------------------------------------------------===//

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "tile/Dialect/Tile/IR/CopyRequest.h"
#include "tile/Dialect/Tile/IR/DiscardableAttrs.h"
#include "tile/Dialect/Tile/IR/RuleDiagnostic.h"
#include "tile/Dialect/Tile/IR/TileDialect.h"
#include "tile/Dialect/Tile/IR/TileOps.h"
#include "tile/Dispatch/BuiltinVariants.h"
#include "tile/TMA/Planner.h"

using namespace mlir;
using namespace mlir::tile;

Value mlir::tile::getCollectiveTmaSharedRoot(Value shared) {
  while (auto stage = shared.getDefiningOp<StageOp>())
    shared = stage.getSource();
  return shared;
}

/// Whether the start of `shared` is as aligned as the request assumes: a
/// `tile.arena_view` (its offset shows it), or a buffer declared with an
/// alignment that tile-plan-copies raises to the arena's 1024 bytes (a
/// workgroup buffer of the enclosing `gpu.func`, a `memref.global`).
static bool hasKnownAlignment(Operation *op, Value shared) {
  Value root = getCollectiveTmaSharedRoot(shared);
  if (root.getDefiningOp<ArenaViewOp>() ||
      root.getDefiningOp<memref::GetGlobalOp>())
    return true;
  auto arg = dyn_cast<BlockArgument>(root);
  auto func = op->getParentOfType<gpu::GPUFuncOp>();
  return arg && func &&
         llvm::is_contained(func.getWorkgroupAttributions(), arg);
}

/// Whether `global` is an argument of the kernel `op` is in, which the host
/// encodes a tensor map for (a view made inside the kernel is not).
static bool isKernelArgument(Operation *op, Value global) {
  auto arg = dyn_cast<BlockArgument>(global);
  auto func = op->getParentOfType<gpu::GPUFuncOp>();
  return arg && func && arg.getOwner() == &func.getBody().front() &&
         arg.getArgNumber() < func.getNumArguments();
}

namespace {
class CollectiveTmaVariant : public CopyVariant {
public:
  CollectiveTmaVariant()
      : CopyVariant(kCollectiveTmaVariantName.str(), kCollectiveTmaPriority) {}

  bool handles(Operation *op) const override { return isa<CopyOp>(op); }

  // The copy stays synchronous for every thread of its scope (the expansion
  // owns the proxy fences and the completion), so the asynchronous protocol
  // sees a plain collective copy.
  CopyVariantProperties getProperties() const override { return {}; }

  PredicateResult check(Operation *op,
                        std::unique_ptr<VariantMatch> &match) const override {
    auto copy = cast<CopyOp>(op);
    std::optional<CopyScope> scope = copy.getScopeKind();
    if (scope != CopyScope::Cta && scope != CopyScope::Warpgroup)
      return PredicateResult::failure(::tile::Decline{
          ::tile::RuleId::Scope,
          "only a CTA-wide or warpgroup-wide tile.copy goes through the "
          "tensor memory accelerator (one thread of the scope issues it, the "
          "scope waits)"});
    ::tile::Decline reason{};
    DivisorAnalysis divisors;
    FailureOr<CopyRequestInfo> info = buildCopyRequest(copy, reason, &divisors);
    if (failed(info))
      return PredicateResult::failure(reason);
    bool load =
        info->request.direction == ::tile::tma::Direction::GlobalToShared;
    Value shared = load ? copy.getDst() : copy.getSrc();
    if (!isKernelArgument(op, load ? copy.getSrc() : copy.getDst()))
      return PredicateResult::failure(::tile::Decline{
          ::tile::RuleId::Tma,
          "the global buffer is not an argument of the kernel (a view made "
          "inside it), so the host cannot encode its tensor map"});
    if (!hasKnownAlignment(op, shared))
      return PredicateResult::failure(::tile::Decline{
          ::tile::RuleId::SmemAlign,
          "the shared buffer is neither a tile.arena_view nor a buffer "
          "declared with an alignment (a workgroup buffer of the kernel, a "
          "memref.global), so its start alignment is unknown"});
    ::tile::tma::PlanOutcome outcome = ::tile::tma::planTmaCopy(info->request);
    if (!outcome.plan)
      return PredicateResult::failure(*outcome.decline);
    if (info->request.symbolicGlobal)
      return PredicateResult::failure(::tile::Decline{
          ::tile::RuleId::Guard,
          "the global buffer has run-time sizes, strides or offset; a "
          "collective copy has no fallback version, so it stays "
          "element-wise"});
    match = makeTmaMatch(std::move(*outcome.plan), *info);
    return PredicateResult::success();
  }

  void record(Operation *op, const VariantMatch *match) const override {
    recordTmaMatch(op, *static_cast<const TmaMatch *>(match));
  }

  void eraseRecord(Operation *op) const override { eraseTmaMatchRecord(op); }

  /// The recorded plan, when the copy still builds the request it was made
  /// for; otherwise `plan-stale` at the op.
  FailureOr<std::unique_ptr<VariantMatch>>
  recall(Operation *op, std::string &reason) const override {
    FailureOr<TmaRecord> record = recallTmaRecord(op, reason);
    if (failed(record))
      return failure();
    // Only tile-plan-copies writes these records: a copy changed since no
    // longer builds the request its plan was made for.
    auto input = op->getAttrOfType<IntegerAttr>(kPlanInputAttr);
    if (!input || static_cast<uint64_t>(input.getInt()) !=
                      getPlanInputFingerprint(record->info.request,
                                              record->plan.getPlan())) {
      emitRuleError(op, ::tile::RuleId::PlanStale)
          << "the recorded TMA plan no longer describes this copy (re-run "
             "tile-plan-copies after changing copies)";
      reason.clear();
      return failure();
    }
    std::unique_ptr<TmaMatch> tmaMatch = makeRecalledTmaMatch(*record);
    return std::unique_ptr<VariantMatch>(std::move(tmaMatch));
  }

  void describe(Operation *op, const VariantMatch *match,
                llvm::json::OStream &json) const override {
    writeTmaPlanJson(static_cast<const TmaMatch *>(match)->plan, json);
  }
};
} // namespace

std::unique_ptr<CopyVariant> mlir::tile::createCollectiveTmaVariant() {
  return std::make_unique<CollectiveTmaVariant>();
}
