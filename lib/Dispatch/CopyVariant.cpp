//===- CopyVariant.cpp - Dispatch variants for tile copies ----------------===//

#include "tile/Dispatch/CopyVariant.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Diagnostics.h"
#include "tile/Dialect/Tile/IR/DiscardableAttrs.h"
#include "tile/Dialect/Tile/IR/RuleDiagnostic.h"
#include "tile/Dialect/Tile/IR/TileDialect.h"
#include "tile/Dialect/Tile/IR/TileOps.h"
#include "llvm/ADT/STLExtras.h"
#include <algorithm>

using namespace mlir;
using namespace mlir::tile;

VariantMatch::~VariantMatch() = default;
CopyVariantLowering::~CopyVariantLowering() = default;
CopyVariant::~CopyVariant() = default;

LogicalResult CopyVariant::rewrite(Operation *op, const VariantMatch *match,
                                   ConversionPatternRewriter &rewriter,
                                   const LLVMTypeConverter &converter) const {
  if (lowering)
    return lowering->rewrite(op, match, rewriter, converter);
  return op->emitError() << "copy variant '" << name
                         << "' has no lowering attached (link the library "
                            "that lowers it and register its lowerings)";
}

PredicateResult CopyVariant::check(Operation *op,
                                   std::unique_ptr<VariantMatch> &) const {
  for (const NamedPredicate &predicate : predicates) {
    PredicateResult result = predicate.fn(op);
    if (!result.ok)
      return result;
  }
  return PredicateResult::success();
}

FailureOr<std::unique_ptr<VariantMatch>>
CopyVariant::recall(Operation *op, std::string &reason) const {
  std::unique_ptr<VariantMatch> match;
  PredicateResult outcome = check(op, match);
  if (!outcome.ok) {
    reason = outcome.reason;
    return failure();
  }
  return match;
}

CopyVariantRegistry &CopyVariantRegistry::attach(TileDialect *dialect) {
  if (auto *existing = dialect->getRegisteredInterface<CopyVariantRegistry>())
    return *existing;
  return dialect->addInterface<CopyVariantRegistry>();
}

const CopyVariantRegistry *CopyVariantRegistry::get(MLIRContext *context) {
  return getMutable(context);
}

CopyVariantRegistry *CopyVariantRegistry::getMutable(MLIRContext *context) {
  auto *dialect = context->getLoadedDialect<TileDialect>();
  return dialect ? dialect->getRegisteredInterface<CopyVariantRegistry>()
                 : nullptr;
}

void CopyVariantRegistry::add(std::unique_ptr<CopyVariant> variant) {
  llvm::sys::SmartScopedWriter<true> lock(mutex);
  auto existing = llvm::find_if(variants, [&](const auto &v) {
    return v->getName() == variant->getName();
  });
  if (existing != variants.end()) {
    replaced.push_back(std::move(*existing));
    *existing = std::move(variant);
  } else {
    variants.push_back(std::move(variant));
  }
  // Kept in dispatch order (descending priority, ties by name): adding is
  // rare, every copy's dispatch reads the order.
  llvm::stable_sort(variants, [](const auto &a, const auto &b) {
    if (a->getPriority() != b->getPriority())
      return a->getPriority() > b->getPriority();
    return a->getName() < b->getName();
  });
}

const CopyVariant *CopyVariantRegistry::lookup(StringRef name) const {
  llvm::sys::SmartScopedReader<true> lock(mutex);
  for (const std::unique_ptr<CopyVariant> &v : variants)
    if (v->getName() == name)
      return v.get();
  return nullptr;
}

bool CopyVariantRegistry::setLowering(
    StringRef name, std::unique_ptr<CopyVariantLowering> lowering) {
  llvm::sys::SmartScopedWriter<true> lock(mutex);
  for (const std::unique_ptr<CopyVariant> &v : variants)
    if (v->getName() == name) {
      v->lowering = std::move(lowering);
      return true;
    }
  return false;
}

std::vector<const CopyVariant *> CopyVariantRegistry::byPriority() const {
  llvm::sys::SmartScopedReader<true> lock(mutex);
  std::vector<const CopyVariant *> result;
  for (const std::unique_ptr<CopyVariant> &v : variants)
    result.push_back(v.get());
  return result;
}

std::vector<std::string> CopyVariantRegistry::names() const {
  std::vector<std::string> result;
  for (const CopyVariant *v : byPriority())
    result.push_back(v->getName().str());
  return result;
}

/// The variants of `op`'s context by priority (none when no registry is
/// attached: every copy then has no variant).
static std::vector<const CopyVariant *> variantsOf(Operation *op) {
  const CopyVariantRegistry *registry =
      CopyVariantRegistry::get(op->getContext());
  return registry ? registry->byPriority() : std::vector<const CopyVariant *>();
}

static bool goesThroughDeviceMap(Operation *op) {
  auto copy = dyn_cast<CopyAsyncOp>(op);
  return copy && copy.getMap();
}

static const CopyVariant *lookupVariant(Operation *op, StringRef name) {
  const CopyVariantRegistry *registry =
      CopyVariantRegistry::get(op->getContext());
  return registry ? registry->lookup(name) : nullptr;
}

FailureOr<DispatchResult>
mlir::tile::dispatchCopy(Operation *op,
                         const llvm::StringMap<std::string> *excluded) {
  std::vector<const CopyVariant *> registered = variantsOf(op);
  std::vector<const CopyVariant *> candidates;
  if (auto requested = op->getAttrOfType<StringAttr>("dispatch")) {
    const CopyVariant *variant = lookupVariant(op, requested.getValue());
    if (!variant || !variant->handles(op)) {
      InFlightDiagnostic diag = withRule(op->emitError(), RuleId::Dispatch)
                                << "dispatch: unknown variant '"
                                << requested.getValue() << "' for "
                                << op->getName() << "; registered variants: ";
      bool first = true;
      for (const CopyVariant *v : registered) {
        if (!v->handles(op))
          continue;
        diag << (first ? "" : ", ") << v->getName();
        first = false;
      }
      return failure();
    }
    candidates.push_back(variant);
  } else {
    for (const CopyVariant *v : registered)
      if (v->handles(op))
        candidates.push_back(v);
  }

  DispatchResult result;
  for (const CopyVariant *variant : candidates) {
    if (excluded) {
      auto it = excluded->find(variant->getName());
      if (it != excluded->end()) {
        result.declined.emplace_back(variant->getName().str(), it->second);
        continue;
      }
    }
    std::unique_ptr<VariantMatch> match;
    PredicateResult outcome = variant->check(op, match);
    // A copy through a device map reads its map from the map's slot: only
    // a variant that issues through a tensor map can take it.
    if (outcome.ok && goesThroughDeviceMap(op) &&
        (!match || !match->getTensorMapPlan())) {
      outcome.ok = false;
      outcome.reason = "device-map-copy: the variant does not issue through a "
                       "tensor map, and the copy goes through a device map";
    }
    if (outcome.ok) {
      result.selected = variant;
      result.match = std::move(match);
      return result;
    }
    result.declined.emplace_back(variant->getName().str(), outcome.reason);
  }
  return result;
}

InFlightDiagnostic
mlir::tile::emitNoVariantError(Operation *op, const DispatchResult &result) {
  InFlightDiagnostic diag = op->emitError()
                            << "no dispatch variant can lower this copy: ";
  llvm::interleave(
      result.declined, diag,
      [&](const std::pair<std::string, std::string> &d) {
        diag << "[" << d.first << "] " << d.second;
      },
      "; ");
  // The first variant's rule: the forced one's, or the only one's.
  for (const auto &d : result.declined)
    if (std::optional<::tile::RuleId> rule = getReasonRule(d.second))
      return withRule(std::move(diag), *rule);
  return diag;
}

std::optional<::tile::RuleId> mlir::tile::getReasonRule(StringRef reason) {
  StringRef id = reason.split(": ").first;
  if (id.size() == reason.size())
    return std::nullopt;
  return ::tile::ruleIdFromName(id);
}

/// The declined list as the attribute the dialect records.
static ArrayAttr
getDeclinedAttr(Builder &b,
                const std::vector<std::pair<std::string, std::string>> &list) {
  SmallVector<Attribute> declined;
  for (const auto &[variant, reason] : list)
    declined.push_back(b.getStrArrayAttr({variant, reason}));
  return b.getArrayAttr(declined);
}

/// Records the fallback decision of a copy just decided (`decision`), as
/// decideAndRecordCopy's caller asked (CopyVariant.h).
static void recordFallbackDecision(Operation *op,
                                   const DispatchResult &decision) {
  auto kernel = op->getParentOfType<gpu::GPUFuncOp>();
  if (!decision.selected || !decision.match || !kernel || !kernel.isKernel() ||
      op->hasAttr("dispatch"))
    return;
  const ::tile::tma::TmaPlan *plan = decision.match->getTensorMapPlan();
  if (!plan || plan->guards.empty())
    return;
  // The same exclusion tile-version-kernels makes for the fallback clone.
  llvm::StringMap<std::string> excluded;
  excluded[decision.selected->getName()] =
      "guard: the fallback version of @" + kernel.getName().str() +
      ", launched when a guard of this copy's TMA plan fails at run time";
  // A copy no other variant takes stays as planned in the fallback version
  // (tile-version-kernels).
  ScopedDiagnosticHandler quiet(op->getContext(),
                                [](Diagnostic &) { return success(); });
  FailureOr<DispatchResult> fallback = dispatchCopy(op, &excluded);
  if (failed(fallback) || !fallback->selected ||
      fallback->selected->getProperties().recordsPlan)
    return;
  Builder b(op->getContext());
  op->setAttr(kFallbackVariantAttr,
              b.getStringAttr(fallback->selected->getName()));
  op->setAttr(kFallbackDeclinedAttr, getDeclinedAttr(b, fallback->declined));
}

LogicalResult
mlir::tile::decideAndRecordCopy(Operation *op,
                                const llvm::StringMap<std::string> *excluded,
                                bool recordFallback) {
  FailureOr<DispatchResult> result = dispatchCopy(op, excluded);
  if (failed(result))
    return failure();
  Builder b(op->getContext());
  SmallVector<Attribute> declined;
  for (const auto &[variant, reason] : result->declined)
    declined.push_back(b.getStrArrayAttr({variant, reason}));
  op->removeAttr(kDeclinedAttr);
  op->removeAttr(kVariantAttr);
  op->removeAttr(kFallbackVariantAttr);
  op->removeAttr(kFallbackDeclinedAttr);
  for (const CopyVariant *variant : variantsOf(op))
    if (variant->handles(op))
      variant->eraseRecord(op);
  if (!declined.empty())
    op->setAttr(kDeclinedAttr, b.getArrayAttr(declined));
  if (result->selected) {
    op->setAttr(kVariantAttr, b.getStringAttr(result->selected->getName()));
    result->selected->record(op, result->match.get());
  }
  if (recordFallback)
    recordFallbackDecision(op, *result);
  return success();
}

bool mlir::tile::applyRecordedFallback(Operation *op) {
  auto variant = op->getAttrOfType<StringAttr>(kFallbackVariantAttr);
  auto declined = op->getAttrOfType<ArrayAttr>(kFallbackDeclinedAttr);
  if (!variant || !declined)
    return false;
  for (const CopyVariant *v : variantsOf(op))
    if (v->handles(op))
      v->eraseRecord(op);
  op->removeAttr(kFallbackVariantAttr);
  op->removeAttr(kFallbackDeclinedAttr);
  op->setAttr(kVariantAttr, variant);
  if (declined.empty())
    op->removeAttr(kDeclinedAttr);
  else
    op->setAttr(kDeclinedAttr, declined);
  return true;
}

FailureOr<DispatchResult> mlir::tile::recallCopyDecision(Operation *op) {
  auto name = op->getAttrOfType<StringAttr>(kVariantAttr);
  auto declined = op->getAttrOfType<ArrayAttr>(kDeclinedAttr);
  if (!name && !declined)
    return withRule(op->emitError(), RuleId::PlanMissing)
           << "plan-missing: this copy carries no recorded decision; run "
              "--tile-plan-copies first (--tile-gpu-pipeline does)";
  DispatchResult result;
  if (declined)
    for (Attribute pair : declined) {
      auto strings = cast<ArrayAttr>(pair);
      result.declined.emplace_back(
          cast<StringAttr>(strings[0]).getValue().str(),
          cast<StringAttr>(strings[1]).getValue().str());
    }
  if (!name)
    return result;
  const CopyVariant *variant = lookupVariant(op, name.getValue());
  if (!variant || !variant->handles(op))
    return withRule(op->emitError(), RuleId::PlanStale)
           << "plan-stale: the recorded variant '" << name.getValue()
           << "' is not a registered variant for " << op->getName();
  std::string reason;
  FailureOr<std::unique_ptr<VariantMatch>> match = variant->recall(op, reason);
  if (failed(match) && reason.empty())
    return failure(); // the variant said why at the op
  if (failed(match))
    return withRule(op->emitError(), RuleId::PlanStale)
           << "plan-stale: the recorded variant '" << name.getValue()
           << "' no longer applies to this copy (re-run "
              "tile-plan-copies after changing copies): "
           << reason;
  result.selected = variant;
  result.match = std::move(*match);
  return result;
}
