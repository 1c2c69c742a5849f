//===- ClusterRules.cpp - Cluster barriers and multicast lifetime ---------===//

#include "ClusterRules.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "tile/Dialect/Tile/IR/RuleDiagnostic.h"
#include "tile/Dialect/Tile/IR/TileOps.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::async_protocol;

namespace {

/// Which values differ between the threads of a cluster: those computed from
/// a thread's or a CTA's position. Memoized over the values asked about, so
/// the analysis stays linear in the kernel.
class PositionDependence {
public:
  explicit PositionDependence(Region &body) {
    // A gpu.launch body's arguments are the block and thread ids (and the
    // cluster ones), followed by the sizes, which every thread shares.
    if (auto launch = dyn_cast<gpu::LaunchOp>(body.getParentOp())) {
      gpu::KernelDim3 ids[] = {launch.getBlockIds(), launch.getThreadIds()};
      for (const gpu::KernelDim3 &d : ids)
        for (Value v : {d.x, d.y, d.z})
          known[v] = true;
      if (std::optional<gpu::KernelDim3> cluster = launch.getClusterIds())
        for (Value v : {cluster->x, cluster->y, cluster->z})
          known[v] = true;
    }
  }

  /// Whether `v` may differ between the threads of a cluster.
  bool dependsOnPosition(Value v) {
    if (auto it = known.find(v); it != known.end())
      return it->second;
    // Recorded before the operands are visited: a cycle through loop-carried
    // values reads as independent rather than recursing.
    known[v] = false;
    bool depends = false;
    if (auto arg = dyn_cast<BlockArgument>(v)) {
      // A loop's induction variable follows its bounds.
      if (auto loop = dyn_cast<scf::ForOp>(arg.getOwner()->getParentOp()))
        if (arg == loop.getInductionVar())
          depends = dependsOnPosition(loop.getLowerBound()) ||
                    dependsOnPosition(loop.getUpperBound()) ||
                    dependsOnPosition(loop.getStep());
    } else if (Operation *def = v.getDefiningOp()) {
      depends = isPositionOp(def) ||
                llvm::any_of(def->getOperands(), [&](Value operand) {
                  return dependsOnPosition(operand);
                });
    }
    known[v] = depends;
    return depends;
  }

private:
  static bool isPositionOp(Operation *op) {
    return isa<gpu::ThreadIdOp, gpu::BlockIdOp, gpu::ClusterBlockIdOp,
               gpu::LaneIdOp, gpu::GlobalIdOp, NVVM::ThreadIdXOp,
               NVVM::ThreadIdYOp, NVVM::ThreadIdZOp, NVVM::BlockIdXOp,
               NVVM::BlockIdYOp, NVVM::BlockIdZOp, NVVM::LaneIdOp,
               NVVM::WarpIdOp, NVVM::ClusterId, NVVM::BlockInClusterIdXOp,
               NVVM::BlockInClusterIdYOp, NVVM::BlockInClusterIdZOp>(op);
  }

  llvm::DenseMap<Value, bool> known;
};

bool isClusterBarrier(Operation *op) {
  return isa<NVVM::ClusterArriveOp, NVVM::ClusterArriveRelaxedOp,
             NVVM::ClusterWaitOp>(op);
}

/// The innermost op between `op` and the kernel body whose control depends
/// on a thread's or a CTA's position: an scf.if on such a condition, an
/// scf.for with such a bound, or any scf.while (its trip count is data).
Operation *divergentControl(Operation *op, Region &body,
                            PositionDependence &position) {
  for (Operation *parent = op->getParentOp();
       parent && parent != body.getParentOp(); parent = parent->getParentOp()) {
    if (auto ifOp = dyn_cast<scf::IfOp>(parent)) {
      if (position.dependsOnPosition(ifOp.getCondition()))
        return parent;
    } else if (auto loop = dyn_cast<scf::ForOp>(parent)) {
      if (llvm::any_of(
              ValueRange{loop.getLowerBound(), loop.getUpperBound(),
                         loop.getStep()},
              [&](Value bound) { return position.dependsOnPosition(bound); }))
        return parent;
    } else if (isa<scf::WhileOp>(parent)) {
      return parent;
    }
  }
  return nullptr;
}

bool isMulticastLoad(Operation *op) {
  auto copy = dyn_cast<CopyAsyncOp>(op);
  return copy && copy.getMulticastMask();
}

} // namespace

bool mlir::tile::async_protocol::checkClusterRules(Region &body) {
  bool ok = true;
  PositionDependence position(body);
  Operation *lastMulticast = nullptr;
  llvm::SmallPtrSet<Operation *, 4> reported;
  body.walk([&](Operation *op) {
    if (isMulticastLoad(op))
      lastMulticast = op;
    if (!isClusterBarrier(op))
      return;
    Operation *control = divergentControl(op, body, position);
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
