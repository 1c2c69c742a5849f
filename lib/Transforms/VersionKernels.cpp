//===- VersionKernels.cpp - --tile-version-kernels ------------------------===//
//
// A kernel whose TMA copies carry run-time guards gets a fallback version: a
// clone in the same gpu.module whose guarded copies take the fallback
// decision tile-plan-copies recorded beside their own (or, for a fallback
// variant that records a plan, are decided again with `tma` excluded). The host
// evaluates the guards before each launch (TensorMapABI.cpp) and launches one
// version or the other. A guarded multicast load stays TMA in both versions
// (no other variant reaches a peer CTA's shared memory): its guards must
// hold, and the host refuses a launch where one fails.
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

/// Positions (in walk order) of the kernel's copies whose plans have guards
/// and that another variant can run. A guarded multicast load has none (no
/// other variant reaches a peer CTA's shared memory): it stays a TMA copy in
/// the fallback version too, so its guards are the preconditions of both
/// versions, which tile-tensor-map-abi checks before launching either.
static FailureOr<SmallVector<unsigned>>
findGuardedCopies(gpu::GPUFuncOp kernel) {
  SmallVector<unsigned> guarded;
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
    if (!op.getMulticastMask())
      guarded.push_back(position);
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
    for (unsigned position : *guarded) {
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
