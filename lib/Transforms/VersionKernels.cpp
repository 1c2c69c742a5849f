//===- VersionKernels.cpp - --tile-version-kernels ------------------------===//
//
// A kernel whose TMA copies carry run-time guards gets a fallback version: a
// clone in the same gpu.module whose guarded copies take the fallback
// decision tile-plan-copies recorded beside their own (or, for a fallback
// variant that records a plan, are decided again with `tma` excluded). The host
// evaluates the guards before each launch (TensorMapABI.cpp) and launches one
// version or the other. A guarded copy no other variant takes (a
// floating-point max-reduce store: per-element atomics have no max) stays as
// planned in both versions, and a kernel with nothing but such copies gets
// none: their guards must hold, and the host refuses a launch where one
// fails.
//
//===----------------------------------------------------------------------===//

#include "ModuleWalk.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/SymbolTable.h"
#include "tile/Dialect/Tile/IR/DiscardableAttrs.h"
#include "tile/Dialect/Tile/IR/RuleDiagnostic.h"
#include "tile/Dialect/Tile/IR/TileOps.h"
#include "tile/Dispatch/BuiltinVariants.h"
#include "tile/Dispatch/CopyVariant.h"
#include "tile/Transforms/Passes.h"

namespace mlir::tile {
#define GEN_PASS_DEF_TILEVERSIONKERNELS
#include "tile/Transforms/Passes.h.inc"
} // namespace mlir::tile

using namespace mlir;
using namespace mlir::tile;

/// Positions (in walk order) of the kernel's copies whose plans have guards.
static FailureOr<SmallVector<unsigned>>
findGuardedCopies(gpu::GPUFuncOp kernel) {
  SmallVector<unsigned> guarded;
  unsigned index = 0;
  WalkResult walk = kernel.walk([&](CopyAsyncOp op) -> WalkResult {
    unsigned position = index++;
    FailureOr<DispatchResult> decision = recallCopyDecision(op);
    if (failed(decision))
      return WalkResult::interrupt();
    const ::tile::tma::TmaPlan *plan = decision->selected && decision->match
                                           ? decision->match->getTensorMapPlan()
                                           : nullptr;
    if (!plan || plan->guards.empty())
      return WalkResult::advance();
    if (auto forced = op->getAttrOfType<StringAttr>("dispatch")) {
      withRule(op.emitError(), RuleId::Guard)
          << "guard: this copy forces dispatch = \"" << forced.getValue()
          << "\", but its plan relies on run-time guards (the "
             "first: "
          << ::tile::ruleIdName(plan->guards.front().rule) << ": "
          << plan->guards.front().str()
          << "); the kernel's fallback version needs another "
             "variant: drop the dispatch attribute or give the "
             "buffer a static type";
      return WalkResult::interrupt();
    }
    guarded.push_back(position);
    return WalkResult::advance();
  });
  if (walk.wasInterrupted())
    return failure();
  return guarded;
}

/// Whether a variant outside `excluded` takes `op` (asked quietly: a copy no
/// other variant takes is not an error here).
static bool hasOtherVariant(Operation *op,
                            const llvm::StringMap<std::string> &excluded) {
  ScopedDiagnosticHandler quiet(op->getContext(),
                                [](Diagnostic &) { return success(); });
  FailureOr<DispatchResult> other = dispatchCopy(op, &excluded);
  return succeeded(other) && other->selected;
}

namespace {
struct VersionKernelsPass
    : public mlir::tile::impl::TileVersionKernelsBase<VersionKernelsPass> {
  void getDependentDialects(DialectRegistry &registry) const override {
    Base::getDependentDialects(registry);
    registerBuiltinCopyVariants(registry);
  }

  void runOnOperation() override {
    SmallVector<gpu::GPUFuncOp> kernels;
    forEachGpuFunc(getOperation(), [&](gpu::GPUFuncOp func) {
      if (func.isKernel() && !func->hasAttr(kFallbackAttr))
        kernels.push_back(func);
    });
    for (gpu::GPUFuncOp kernel : kernels)
      if (failed(version(kernel)))
        return signalPassFailure();
    // No kernel versioned: unchanged IR needs no verifier run after this pass.
    if (llvm::none_of(kernels, [](gpu::GPUFuncOp kernel) {
          return kernel->hasAttr(kFallbackAttr);
        }))
      markAllAnalysesPreserved();
  }

  LogicalResult version(gpu::GPUFuncOp kernel) {
    FailureOr<SmallVector<unsigned>> guarded = findGuardedCopies(kernel);
    if (failed(guarded))
      return failure();
    if (guarded->empty())
      return success();
    auto module = kernel->getParentOfType<gpu::GPUModuleOp>();
    if (!module)
      return success();
    auto fallback = cast<gpu::GPUFuncOp>(kernel->clone());
    fallback.setName((kernel.getName() + "_fallback").str());
    SymbolTable symbols(module);
    symbols.insert(fallback, std::next(Block::iterator(kernel)));

    SmallVector<CopyAsyncOp> copies;
    fallback.walk([&](CopyAsyncOp op) { copies.push_back(op); });
    unsigned replaced = 0;
    for (unsigned position : *guarded) {
      // A prefetch is a hint only TMA gives: the fallback drops it.
      if (copies[position].getPrefetch()) {
        copies[position].erase();
        ++replaced;
        continue;
      }
      // tile-plan-copies recorded the fallback's decision where it could.
      if (applyRecordedFallback(copies[position])) {
        ++replaced;
        continue;
      }
      // Else the fallback excludes the variant whose plan carries the
      // guards (the one recorded on the copy) and decides again.
      llvm::StringMap<std::string> excluded;
      if (auto variant =
              copies[position]->getAttrOfType<StringAttr>(kVariantAttr))
        excluded[variant.getValue()] =
            "guard: the fallback version of @" + kernel.getName().str() +
            ", launched when a guard of this copy's TMA plan fails at run time";
      // A copy no other variant takes (a floating-point max-reduce store:
      // per-element atomics have no max) stays as planned, and its
      // guards gate this version's launch as well (tile-tensor-map-abi
      // refuses a launch whose guard fails).
      if (!hasOtherVariant(copies[position], excluded))
        continue;
      if (failed(decideAndRecordCopy(copies[position], &excluded)))
        return failure();
      ++replaced;
    }
    // Nothing another variant could take: the clone would be the kernel.
    if (replaced == 0) {
      symbols.erase(fallback);
      return success();
    }
    kernel->setAttr(kFallbackAttr,
                    FlatSymbolRefAttr::get(fallback.getNameAttr()));
    return success();
  }
};
} // namespace
