//===- TmaVariant.cpp - The `tma` copy variant's decision -----------------===//
//
// A thread-scope `tile.copy_async` between global and shared memory goes
// through the tensor memory accelerator when the planner finds a plan: one
// `cp.async.bulk.tensor` per planned issue, driven by a tensor map the host
// encodes (TensorMapABI.cpp). The lowering is TileToNVVM's TmaLowering.cpp.
//
//===----------------------------------------------------------------------===//

#include "tile/Dialect/Tile/IR/CopyRequest.h"
#include "tile/Dialect/Tile/IR/DiscardableAttrs.h"
#include "tile/Dialect/Tile/IR/TileDialect.h"
#include "tile/Dialect/Tile/IR/TileOps.h"
#include "tile/Dispatch/BuiltinVariants.h"
#include "tile/TMA/Guards.h"
#include "tile/TMA/Planner.h"

using namespace mlir;
using namespace mlir::tile;

namespace {
class TmaVariant : public CopyVariant {
public:
  // Only tile.copy_async reaches this variant, and its verifier already
  // guarantees the global <-> shared direction and thread scope; what is
  // left to decide is the plan.
  TmaVariant() : CopyVariant(kTmaVariantName.str(), kTmaPriority) {}

  bool handles(Operation *op) const override { return isa<CopyAsyncOp>(op); }

  CopyVariantProperties getProperties() const override {
    CopyVariantProperties properties;
    properties.usesAsyncProxy = true;
    return properties;
  }

  PredicateResult check(Operation *op,
                        std::unique_ptr<VariantMatch> &match) const override {
    ::tile::Decline reason{};
    // The one place a copy's offsets are analysed: planning.
    DivisorAnalysis divisors;
    FailureOr<CopyRequestInfo> info =
        buildCopyRequest(cast<CopyAsyncOp>(op), reason, &divisors);
    if (failed(info))
      return PredicateResult::failure(reason);
    ::tile::tma::PlanOutcome outcome = ::tile::tma::planTmaCopy(info->request);
    if (!outcome.plan)
      return PredicateResult::failure(*outcome.decline);
    match = makeTmaMatch(std::move(*outcome.plan), *info);
    return PredicateResult::success();
  }

  void record(Operation *op, const VariantMatch *match) const override {
    recordTmaMatch(op, *static_cast<const TmaMatch *>(match));
  }

  void eraseRecord(Operation *op) const override { eraseTmaMatchRecord(op); }

  /// The plan comes from the record (its verifier keeps it true to the op);
  /// only the SSA values of its symbols are looked up again.
  FailureOr<std::unique_ptr<VariantMatch>>
  recall(Operation *op, std::string &reason) const override {
    FailureOr<TmaRecord> record = recallTmaRecord(op, reason);
    if (failed(record))
      return failure();
    // A pass may have changed the copy since it was planned: the record must
    // still describe it (the error is emitted at the op).
    if (failed(verifyRecordedPlan(cast<CopyAsyncOp>(op), record->info))) {
      reason.clear();
      return failure();
    }
    std::unique_ptr<TmaMatch> tmaMatch = makeRecalledTmaMatch(*record);
    if (record->info.request.symbolicGlobal)
      tmaMatch->plan.guards =
          ::tile::tma::deriveGuards(record->info.request, tmaMatch->plan);
    return std::unique_ptr<VariantMatch>(std::move(tmaMatch));
  }

  void describe(Operation *op, const VariantMatch *match,
                llvm::json::OStream &json) const override {
    writeTmaPlanJson(static_cast<const TmaMatch *>(match)->plan, json);
  }
};
} // namespace

std::unique_ptr<CopyVariant> mlir::tile::createTmaVariant() {
  return std::make_unique<TmaVariant>();
}

std::unique_ptr<TmaMatch> mlir::tile::makeTmaMatch(::tile::tma::TmaPlan plan,
                                                   CopyRequestInfo &info) {
  auto match = std::make_unique<TmaMatch>();
  match->planInputFingerprint = getPlanInputFingerprint(info.request, plan);
  match->plan = std::move(plan);
  match->symbols = std::move(info.symbols);
  return match;
}

FailureOr<TmaRecord> mlir::tile::recallTmaRecord(Operation *op,
                                                 std::string &reason) {
  auto plan = op->getAttrOfType<TmaPlanAttr>(kTmaPlanAttr);
  if (!plan) {
    reason = "the copy has no recorded '" + kTmaPlanAttr.str() + "'";
    return failure();
  }
  ::tile::Decline declined{};
  FailureOr<CopyRequestInfo> info =
      isa<CopyAsyncOp>(op) ? buildCopyRequest(cast<CopyAsyncOp>(op), declined)
                           : buildCopyRequest(cast<CopyOp>(op), declined);
  if (failed(info)) {
    reason = declined.message();
    return failure();
  }
  return TmaRecord{plan, std::move(*info)};
}

std::unique_ptr<TmaMatch> mlir::tile::makeRecalledTmaMatch(TmaRecord &record) {
  auto match = std::make_unique<TmaMatch>();
  match->plan = record.plan.getPlan();
  match->symbols = std::move(record.info.symbols);
  return match;
}

void mlir::tile::recordTmaMatch(Operation *op, const TmaMatch &match) {
  // Guards are not recorded: recall derives them from the plan again.
  ::tile::tma::TmaPlan plan = match.plan;
  plan.guards.clear();
  op->setAttr(kTmaPlanAttr, TmaPlanAttr::get(op->getContext(), plan));
  op->setAttr(
      kPlanInputAttr,
      IntegerAttr::get(IntegerType::get(op->getContext(), 64),
                       static_cast<int64_t>(match.planInputFingerprint)));
}

void mlir::tile::eraseTmaMatchRecord(Operation *op) {
  op->removeAttr(kTmaPlanAttr);
  op->removeAttr(kPlanInputAttr);
}

//===----------------------------------------------------------------------===//
// Plan report fields
//===----------------------------------------------------------------------===//

static void writeSym(llvm::json::OStream &json, const ::tile::tma::SymExpr &e) {
  if (std::optional<int64_t> v = e.constantValue())
    json.value(*v);
  else
    json.value(nullptr);
}

/// A list of tensor-map fields: `null` where the host computes the value at
/// run time.
template <typename T>
static void writeArray(
    llvm::json::OStream &json, llvm::StringRef key,
    const std::vector<T> &values,
    const std::vector<std::optional<::tile::tma::RuntimeField>> &rt = {}) {
  json.attributeArray(key, [&] {
    for (size_t i = 0; i < values.size(); ++i) {
      if (i < rt.size() && rt[i])
        json.value(nullptr);
      else
        json.value(static_cast<int64_t>(values[i]));
    }
  });
}

void mlir::tile::writeTmaPlanJson(const ::tile::tma::TmaPlan &plan,
                                  llvm::json::OStream &json) {
  const ::tile::tma::TensorMapDesc &map = plan.map;
  json.attributeObject("tensor_map", [&] {
    json.attribute("data_type", ::tile::tma::toString(map.dataType));
    json.attribute("rank", static_cast<int64_t>(map.rank));
    writeArray(json, "global_dim", map.globalDim, map.runtimeGlobalDim);
    writeArray(json, "global_strides", map.globalStridesBytes,
               map.runtimeGlobalStrides);
    writeArray(json, "box_dim", map.boxDim);
    writeArray(json, "element_strides", map.elementStrides);
    json.attribute("interleave", map.interleave);
    json.attribute("swizzle", static_cast<int64_t>(map.swizzle));
    json.attribute("l2_promotion", map.l2Promotion);
    json.attribute("oob_fill", map.oobFill);
    json.attributeBegin("base_offset_bytes");
    if (map.runtimeOffsetScale != 0)
      json.value(nullptr);
    else
      writeSym(json, map.baseOffsetBytes);
    json.attributeEnd();
  });
  json.attributeArray("issues", [&] {
    for (const ::tile::tma::TmaIssue &issue : plan.issues) {
      json.object([&] {
        json.attributeBegin("smem_byte_offset");
        writeSym(json, issue.smemByteOffset);
        json.attributeEnd();
        json.attributeArray("coords", [&] {
          for (const ::tile::tma::SymExpr &c : issue.coords)
            writeSym(json, c);
        });
      });
    }
  });
  json.attributeArray("guards", [&] {
    for (const ::tile::tma::Guard &guard : plan.guards)
      json.object([&] {
        json.attribute("rule", std::string(::tile::ruleIdName(guard.rule)));
        json.attribute("expr", guard.str());
      });
  });
}
