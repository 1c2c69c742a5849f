//===- VersionKernels.cpp - --tile-version-kernels ------------------------===//
//
// A kernel whose TMA copies carry run-time guards gets a fallback version: a
// clone in the same gpu.module whose guarded copies take the fallback
// decision tile-plan-copies recorded beside their own (or, for a fallback
// variant that records a plan, are decided again with `tma` excluded). The host
// evaluates the guards before each launch (TensorMapABI.cpp) and launches one
// version or the other. A kernel with a guarded multicast load gets none (no
// other variant reaches a peer CTA's shared memory): its guards must hold,
// and the host refuses a launch where one fails.
//
//===----------------------------------------------------------------------===//

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
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

/// The kernel's copies whose plans have guards.
struct GuardedCopies {
  /// Their positions in walk order.
  SmallVector<unsigned> positions;
  /// A multicast among them: no other variant can run it, so the kernel gets
  /// no fallback version and its guards become the launch's preconditions
  /// (tile-tensor-map-abi refuses a launch whose guard fails).
  bool withoutFallback = false;
};

static FailureOr<GuardedCopies> findGuardedCopies(gpu::GPUFuncOp kernel) {
  GuardedCopies guarded;
  unsigned index = 0;
  WalkResult walk = kernel.walk([&](CopyAsyncOp op) -> WalkResult {
    unsigned position = index++;
    FailureOr<DispatchResult> decision = recallCopyDecision(op);
    if (failed(decision))
      return WalkResult::interrupt();
    const ::tile::tma::TmaPlan *plan =
        decision->selected && decision->match
            ? decision->match->getTensorMapRequest()
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
    guarded.withoutFallback |= static_cast<bool>(op.getMulticastMask());
    guarded.positions.push_back(position);
    return WalkResult::advance();
  });
  if (walk.wasInterrupted())
    return failure();
  return guarded;
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
    getOperation().walk([&](gpu::GPUFuncOp func) {
      if (func.isKernel() && !func->hasAttr(kFallbackAttr))
        kernels.push_back(func);
    });
    for (gpu::GPUFuncOp kernel : kernels)
      if (failed(version(kernel)))
        return signalPassFailure();
  }

  LogicalResult version(gpu::GPUFuncOp kernel) {
    FailureOr<GuardedCopies> guarded = findGuardedCopies(kernel);
    if (failed(guarded))
      return failure();
    if (guarded->positions.empty() || guarded->withoutFallback)
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
    for (unsigned position : guarded->positions) {
      // A prefetch is a hint only TMA gives: the fallback drops it.
      if (copies[position].getPrefetch()) {
        copies[position].erase();
        continue;
      }
      // tile-plan-copies recorded the fallback's decision where it could.
      if (applyRecordedFallback(copies[position]))
        continue;
      // Else the fallback excludes the variant whose plan carries the
      // guards (the one recorded on the copy) and decides again.
      llvm::StringMap<std::string> excluded;
      if (auto variant =
              copies[position]->getAttrOfType<StringAttr>(kVariantAttr))
        excluded[variant.getValue()] =
            "guard: the fallback version of @" + kernel.getName().str() +
            ", launched when a guard of this copy's TMA plan fails at run time";
      if (failed(decideAndRecordCopy(copies[position], &excluded)))
        return failure();
    }
    kernel->setAttr(kFallbackAttr,
                    FlatSymbolRefAttr::get(fallback.getNameAttr()));
    return success();
  }
};
} // namespace
