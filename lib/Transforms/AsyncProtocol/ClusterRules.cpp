//===- ClusterRules.cpp - Cluster barriers and multicast lifetime ---------===//

#include "ClusterRules.h"
#include "PositionDependence.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "tile/Dialect/Tile/IR/RuleDiagnostic.h"
#include "tile/Dialect/Tile/IR/TileOps.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::async_protocol;

namespace {

bool isClusterBarrier(Operation *op) {
  return isa<NVVM::ClusterArriveOp, NVVM::ClusterArriveRelaxedOp,
             NVVM::ClusterWaitOp>(op);
}

/// A multicast load the kernel itself issues: a tile.pipeline's loads get
/// their exit barrier from tile-expand-pipelines.
bool isMulticastLoad(Operation *op) {
  auto copy = dyn_cast<CopyAsyncOp>(op);
  return copy && copy.getMulticastMask() && !isPipelineLoadOp(op);
}

} // namespace

bool mlir::tile::async_protocol::checkClusterRules(Region &body) {
  bool ok = true;
  PositionDependence position(body, Position::ThreadOrCta);
  Operation *lastMulticast = nullptr;
  llvm::SmallPtrSet<Operation *, 4> reported;
  body.walk([&](Operation *op) {
    if (isMulticastLoad(op))
      lastMulticast = op;
    if (!isClusterBarrier(op))
      return;
    Operation *control = position.divergentControl(op);
    // One report per divergent region: its first cluster barrier.
    if (!control || !reported.insert(control).second)
      return;
    InFlightDiagnostic diag =
        emitRuleError(op, ::tile::RuleId::AsyncClusterBarrier)
        << "'" << op->getName()
        << "' completes only when every thread of every CTA of the cluster "
           "arrives, but it sits under '"
        << control->getName() << "'";
    if (isa<scf::WhileOp>(control))
      diag << ", whose trip count may differ between threads";
    else
      diag << (isa<scf::IfOp>(control) ? ", whose condition depends"
                                       : ", whose bounds depend")
           << " on the thread's or the CTA's position; threads that skip it "
              "leave the others waiting";
    diag.attachNote(control->getLoc()) << "the divergent control flow";
    ok = false;
  });
  if (!lastMulticast || body.empty())
    return ok;
  // The multicast's peers may still write into this CTA until a cluster
  // barrier that every thread reaches after it: one in the kernel's
  // top-level block, after the op holding the last multicast.
  Block &top = body.front();
  Operation *holder = top.findAncestorOpInBlock(*lastMulticast);
  bool synchronized =
      holder &&
      llvm::any_of(
          llvm::make_range(std::next(holder->getIterator()), top.end()),
          [](Operation &op) { return isa<NVVM::ClusterWaitOp>(op); });
  if (!synchronized) {
    emitRuleError(lastMulticast, ::tile::RuleId::AsyncClusterExit)
        << "this multicast load writes the shared memory of the cluster's "
           "other CTAs, but the kernel has no cluster barrier "
           "(nvvm.cluster.arrive, nvvm.cluster.wait) after it in its "
           "top-level block; a CTA may exit while a peer's load still writes "
           "into its shared memory";
    ok = false;
  }
  return ok;
}
