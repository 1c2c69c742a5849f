//===- CopyVariant.h - Dispatch variants for tile copies --------*- C++ -*-===//
//
// A variant is one way to lower a copy op (`tile.copy_async` or `tile.copy`).
// Variants are registered by name with a priority and a list of predicates;
// the dispatcher tries them by descending priority and takes the first whose
// predicates all hold. Each predicate returns (ok, reason) so that, when no
// variant applies, one diagnostic lists every variant with its reason.
//
// Variants belong to a context: its tile dialect carries a registry (a dialect
// interface) that a DialectRegistry extension fills when the dialect loads.
// Embedders add theirs the same way as the built-in ones:
//
//   class MyVariant : public tile::CopyVariant { ... };
//   registry.addExtension(+[](MLIRContext *, tile::TileDialect *dialect) {
//     tile::CopyVariantRegistry::attach(dialect).add(
//         std::make_unique<MyVariant>());
//   });
//
//===----------------------------------------------------------------------===//

#ifndef TILE_DISPATCH_COPYVARIANT_H
#define TILE_DISPATCH_COPYVARIANT_H

#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/IR/DialectInterface.h"
#include "mlir/IR/Operation.h"
#include "mlir/Transforms/DialectConversion.h"
#include "tile/Support/Rules.h"
#include "tile/TMA/Plan.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/RWMutex.h"
#include <functional>
#include <memory>
#include <string>

namespace mlir::tile {

class TileDialect;

/// The outcome of a predicate: holds, or does not with a reason of the form
/// "<rule-id>: <values>".
struct PredicateResult {
  bool ok = true;
  std::string reason;
  static PredicateResult success() { return {}; }
  static PredicateResult failure(std::string reason) {
    return {false, std::move(reason)};
  }
  static PredicateResult failure(const ::tile::Decline &decline) {
    return {false, decline.message()};
  }
};

/// Per-op state a variant may compute while matching (e.g. a TMA plan) and
/// reuse when describing or rewriting the same op. It also states what the
/// lowering needs from the host, so that host-side passes serve any variant
/// without knowing its name.
class VariantMatch {
public:
  virtual ~VariantMatch();
  /// The plan of the tensor map the host must encode and pass to the kernel
  /// for this copy, or null when the lowering needs none.
  virtual const ::tile::tma::TmaPlan *getTensorMapPlan() const {
    return nullptr;
  }
};

/// What passes must know about a variant's lowering, declared by the
/// variant itself: no pass, the C API or Python asks for a variant by name.
struct CopyVariantProperties {
  /// Its copies read or write shared memory through the asynchronous proxy
  /// (the tensor memory accelerator): `tile-verify-async` applies the proxy
  /// fence rules to them (`async-proxy-fence`).
  bool usesAsyncProxy = false;
  /// Its `record` writes the decision's own attributes (a plan). A copy's
  /// fallback decision (tile-version-kernels) is recorded beside the copy's
  /// by tile-plan-copies only when the fallback variant needs no record;
  /// otherwise the fallback clone decides its copy again.
  bool recordsPlan = true;
};

/// How a variant's copies become NVVM: attached to a variant by the
/// conversion library (registerBuiltinCopyLowerings for the built-in ones),
/// so that deciding a copy needs no lowering code.
class CopyVariantLowering {
public:
  virtual ~CopyVariantLowering();
  /// Replaces `op` with its lowering; `match` is the variant's.
  virtual LogicalResult rewrite(Operation *op, const VariantMatch *match,
                                ConversionPatternRewriter &rewriter,
                                const LLVMTypeConverter &converter) const = 0;
};

/// A named lowering of copy ops.
class CopyVariant {
public:
  using Predicate = std::function<PredicateResult(Operation *)>;

  CopyVariant(std::string name, int priority)
      : name(std::move(name)), priority(priority) {}
  virtual ~CopyVariant();

  StringRef getName() const { return name; }
  int getPriority() const { return priority; }

  /// True when this variant lowers ops of this kind at all (a `tile.copy`
  /// variant is not asked about `tile.copy_async` ops).
  virtual bool handles(Operation *op) const = 0;

  /// What its lowering does that passes check (default: nothing special).
  virtual CopyVariantProperties getProperties() const { return {}; }

  /// Runs the predicates in order; the first failure is the variant's
  /// reason. On success `match` may hold state for describe/rewrite.
  virtual PredicateResult check(Operation *op,
                                std::unique_ptr<VariantMatch> &match) const;

  /// Adds this variant's fields to the op's plan report (the TMA variant adds
  /// "tensor_map" and "issues").
  virtual void describe(Operation *op, const VariantMatch *match,
                        llvm::json::OStream &json) const {}

  /// Writes what this variant decided for `op` beyond its name (the TMA
  /// variant writes `tile.tma_plan`), so that later passes can `recall` it.
  virtual void record(Operation *op, const VariantMatch *match) const {}

  /// Removes what `record` wrote (before a copy is decided again).
  virtual void eraseRecord(Operation *op) const {}

  /// Rebuilds the match of a copy `record` wrote, without deciding again,
  /// after checking that the record still describes the copy. The default
  /// re-runs `check` (for variants whose match holds no plan); a failure is
  /// a "<rule-id>: <values>" reason, or an empty reason where the variant
  /// emitted its own diagnostic at the op.
  virtual FailureOr<std::unique_ptr<VariantMatch>>
  recall(Operation *op, std::string &reason) const;

  /// Replaces `op` with its lowering. Called only after `check` succeeded.
  /// The default runs the attached CopyVariantLowering and fails (with a
  /// diagnostic at the op) when none is attached; a variant may override it
  /// instead.
  virtual LogicalResult rewrite(Operation *op, const VariantMatch *match,
                                ConversionPatternRewriter &rewriter,
                                const LLVMTypeConverter &converter) const;

  /// The lowering attached to this variant, or null.
  const CopyVariantLowering *getLowering() const { return lowering.get(); }

protected:
  void addPredicate(std::string predicateName, Predicate predicate) {
    predicates.push_back({std::move(predicateName), std::move(predicate)});
  }
  struct NamedPredicate {
    std::string name;
    Predicate fn;
  };
  std::vector<NamedPredicate> predicates;

private:
  friend class CopyVariantRegistry;
  std::string name;
  int priority;
  std::unique_ptr<CopyVariantLowering> lowering;
};

/// The copy variants of one context, held by its tile dialect as a dialect
/// interface. Adding and looking up are thread-safe; a variant replaced by
/// another of the same name stays alive with the context, so a pointer from
/// `lookup` or `byPriority` never dangles.
class CopyVariantRegistry : public DialectInterface::Base<CopyVariantRegistry> {
public:
  explicit CopyVariantRegistry(Dialect *dialect) : Base(dialect) {}

  /// The registry of `dialect`, attached when absent. Call it where dialects
  /// are set up (a DialectRegistry extension), not from a running pass:
  /// attaching changes the dialect's interface table.
  static CopyVariantRegistry &attach(TileDialect *dialect);
  /// The registry of `context`, or null when its tile dialect is not loaded
  /// or has no variants attached.
  static const CopyVariantRegistry *get(MLIRContext *context);
  static CopyVariantRegistry *getMutable(MLIRContext *context);

  /// Adds a variant; a variant with the same name replaces the old one.
  void add(std::unique_ptr<CopyVariant> variant);
  const CopyVariant *lookup(StringRef name) const;
  /// Attaches `lowering` to the variant `name`; false when there is none.
  bool setLowering(StringRef name,
                   std::unique_ptr<CopyVariantLowering> lowering);
  /// Variants by descending priority (ties by name).
  std::vector<const CopyVariant *> byPriority() const;
  std::vector<std::string> names() const;

private:
  mutable llvm::sys::SmartRWMutex<true> mutex;
  /// In dispatch order: descending priority, ties by name.
  std::vector<std::unique_ptr<CopyVariant>> variants;
  std::vector<std::unique_ptr<CopyVariant>> replaced;
};

/// The result of dispatching one op.
struct DispatchResult {
  const CopyVariant *selected = nullptr;
  std::unique_ptr<VariantMatch> match;
  /// Variants tried before the selected one (all of them when none applies).
  std::vector<std::pair<std::string, std::string>> declined;
};

/// Dispatches `op` over the variants of its context (the built-in ones come
/// from registerBuiltinCopyVariants(DialectRegistry &), BuiltinVariants.h,
/// which every pass that reads decisions declares): honours
/// its `dispatch` attribute, tries the variants by priority. Fails (with a
/// diagnostic at the op) only for an unknown `dispatch` name; an op no variant
/// can lower yields `selected == nullptr`.
/// Variants named in `excluded` are declined with the mapped reason without
/// being asked (a kernel's fallback version excludes `tma`).
FailureOr<DispatchResult>
dispatchCopy(Operation *op,
             const llvm::StringMap<std::string> *excluded = nullptr);

/// Dispatches `op` and records the decision on it (`tile.variant`,
/// `tile.declined`, and what the selected variant's `record` adds).
/// tile-plan-copies calls it, and tile-version-kernels for the copies of a
/// fallback clone (excluding the variant whose guards failed); every other
/// pass reads the record. Fails with a
/// diagnostic only where dispatchCopy does.
LogicalResult
decideAndRecordCopy(Operation *op,
                    const llvm::StringMap<std::string> *excluded = nullptr,
                    bool recordFallback = false);

/// With `recordFallback` (tile-plan-copies), a copy whose selected plan
/// carries run-time guards is decided a second time without that variant,
/// as the kernel's fallback version will be (`guard: ...` for the excluded
/// one), and the outcome is recorded beside the decision
/// (`tile.fallback_variant`, `tile.fallback_declined`) when that variant
/// needs no record of its own (CopyVariantProperties::recordsPlan), so
/// tile-version-kernels reads it instead of dispatching again. Copies
/// outside a kernel or with a `dispatch` attribute get nothing, and nothing
/// is emitted where the fallback cannot be decided (tile-version-kernels
/// reports it).

/// Applies the fallback decision recorded on `op` (a copy of a fallback
/// clone): its variant and declined list become the copy's decision and the
/// primary variant's record goes. False when `op` has none.
bool applyRecordedFallback(Operation *op);

/// The decision recorded on `op`: the selected variant (null when none
/// applies), its match rebuilt from the record, and the declined variants.
/// Fails with a diagnostic when the op carries no record (`plan-missing`),
/// or names a variant that is not registered or no longer applies
/// (`plan-stale`).
FailureOr<DispatchResult> recallCopyDecision(Operation *op);

/// The rule a variant's reason names ("<rule-id>: <values>"), or nullopt for
/// a reason outside the rule table. Reasons are text because the decision
/// records them as text (`tile.declined`); this is the one place that reads
/// the id back, against the rule table.
std::optional<::tile::RuleId> getReasonRule(StringRef reason);

/// Emits the "no variant can lower this copy" diagnostic with every reason,
/// with the rule of the forced (or only) variant's reason attached.
InFlightDiagnostic emitNoVariantError(Operation *op,
                                      const DispatchResult &result);

} // namespace mlir::tile

#endif // TILE_DISPATCH_COPYVARIANT_H
