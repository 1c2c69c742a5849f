//===- VerifyAsync.cpp - --tile-verify-async ------------------------------===//
//
// The asynchronous protocol around the copies (docs/async-protocol.md), per
// kernel: the transaction bytes of each mbarrier phase
// (AsyncProtocol/TxBytesScan.h), the cluster rules
// (AsyncProtocol/ClusterRules.h), the device-map rules
// (AsyncProtocol/DeviceMapRules.h), then the walk that follows the kernel as
// one thread would for the other rules (AsyncProtocol/AsyncWalker.h); with
// insert-fences, the fences that walk finds missing are inserted.
//
//===----------------------------------------------------------------------===//

#include "AsyncProtocol/AsyncWalker.h"
#include "AsyncProtocol/ClusterRules.h"
#include "AsyncProtocol/DeviceMapRules.h"
#include "AsyncProtocol/TxBytesScan.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/Builders.h"
#include "tile/Dialect/Tile/IR/TileOps.h"
#include "tile/Dispatch/BuiltinVariants.h"
#include "tile/Transforms/Passes.h"

namespace mlir::tile {
#define GEN_PASS_DEF_TILEVERIFYASYNC
#include "tile/Transforms/Passes.h.inc"
} // namespace mlir::tile

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::async_protocol;

/// Inserts a proxy fence after `write`: before the next barrier of its
/// block, or at the block's end.
static void insertFenceAfter(Operation *write) {
  Operation *at = write->getNextNode();
  while (at && !at->hasTrait<OpTrait::IsTerminator>() &&
         !isa<gpu::BarrierOp, NVVM::BarrierOp, NVVM::FenceProxyOp>(at) &&
         at->getNumRegions() == 0 && !isa<CopyAsyncOp>(at))
    at = at->getNextNode();
  if (auto fence = dyn_cast_or_null<NVVM::FenceProxyOp>(at))
    if (fence.getKind() == NVVM::ProxyKind::async_shared)
      return;
  OpBuilder b(write->getContext());
  if (at)
    b.setInsertionPoint(at);
  else
    b.setInsertionPointToEnd(write->getBlock());
  NVVM::FenceProxyOp::create(
      b, write->getLoc(), NVVM::ProxyKind::async_shared,
      NVVM::SharedSpaceAttr::get(b.getContext(),
                                 NVVM::SharedSpace::shared_cta));
}

namespace {
struct VerifyAsyncPass
    : public mlir::tile::impl::TileVerifyAsyncBase<VerifyAsyncPass> {
  using Base::Base;

  /// The variants, whose declared properties say which copies use the
  /// asynchronous proxy.
  void getDependentDialects(DialectRegistry &registry) const override {
    Base::getDependentDialects(registry);
    registerBuiltinCopyVariants(registry);
  }

  void runOnOperation() override {
    bool ok = true;
    bool changed = false;
    SmallVector<Region *> kernels;
    getOperation()->walk([&](Operation *op) {
      if (auto func = dyn_cast<gpu::GPUFuncOp>(op)) {
        if (func.isKernel())
          kernels.push_back(&func.getBody());
      } else if (auto launch = dyn_cast<gpu::LaunchOp>(op)) {
        kernels.push_back(&launch.getBody());
      }
    });
    for (Region *body : kernels) {
      ok &= checkTransactionBytes(body->getParentOp());
      ok &= checkClusterRules(*body);
      ok &= checkDeviceMapRules(*body);
      AsyncWalkResult walk = walkKernel(*body, insertFences);
      ok &= !walk.reportedError;
      changed |= !walk.fenceSites.empty();
      for (Operation *write : walk.fenceSites)
        insertFenceAfter(write);
    }
    if (!ok)
      signalPassFailure();
    // Without fences to insert this is a check: no verifier run after it.
    if (!changed)
      markAllAnalysesPreserved();
  }
};

} // namespace
