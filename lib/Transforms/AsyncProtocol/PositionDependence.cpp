//===- PositionDependence.cpp - Values that differ between threads --------===//

#include "PositionDependence.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "tile/Dialect/Tile/IR/TileOps.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::tile::async_protocol;

PositionDependence::PositionDependence(Region &body, Position position)
    : body(body), position(position) {
  // A gpu.launch body's arguments are the block and thread ids (and the
  // cluster ones), followed by the sizes, which every thread shares.
  auto launch = dyn_cast<gpu::LaunchOp>(body.getParentOp());
  if (!launch)
    return;
  SmallVector<gpu::KernelDim3, 3> ids;
  if (position != Position::Thread) {
    ids.push_back(launch.getBlockIds());
    if (std::optional<gpu::KernelDim3> cluster = launch.getClusterIds())
      ids.push_back(*cluster);
  }
  if (position != Position::Cta)
    ids.push_back(launch.getThreadIds());
  for (const gpu::KernelDim3 &d : ids)
    for (Value v : {d.x, d.y, d.z})
      known[v] = true;
}

bool PositionDependence::dependsOnPosition(Value v) {
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

bool PositionDependence::isPositionOp(Operation *op) const {
  if (position != Position::Thread &&
      isa<gpu::BlockIdOp, gpu::ClusterBlockIdOp, gpu::ClusterIdOp,
          gpu::GlobalIdOp, NVVM::BlockIdXOp, NVVM::BlockIdYOp, NVVM::BlockIdZOp,
          NVVM::ClusterId, NVVM::BlockInClusterIdXOp, NVVM::BlockInClusterIdYOp,
          NVVM::BlockInClusterIdZOp, NVVM::ClusterIdXOp, NVVM::ClusterIdYOp,
          NVVM::ClusterIdZOp>(op))
    return true;
  return position != Position::Cta &&
         isa<gpu::ThreadIdOp, gpu::LaneIdOp, gpu::GlobalIdOp, NVVM::ThreadIdXOp,
             NVVM::ThreadIdYOp, NVVM::ThreadIdZOp, NVVM::LaneIdOp,
             NVVM::WarpIdOp>(op);
}

Operation *PositionDependence::divergentControl(Operation *op) {
  for (Operation *parent = op->getParentOp();
       parent && parent != body.getParentOp(); parent = parent->getParentOp()) {
    if (auto ifOp = dyn_cast<scf::IfOp>(parent)) {
      if (dependsOnPosition(ifOp.getCondition()))
        return parent;
    } else if (auto loop = dyn_cast<scf::ForOp>(parent)) {
      if (llvm::any_of(ValueRange{loop.getLowerBound(), loop.getUpperBound(),
                                  loop.getStep()},
                       [&](Value bound) { return dependsOnPosition(bound); }))
        return parent;
    } else if (isa<scf::WhileOp>(parent)) {
      return parent;
    }
  }
  return nullptr;
}

std::optional<int64_t>
mlir::tile::async_protocol::getKernelClusterSize(Operation *op) {
  std::optional<SmallVector<int64_t, 3>> dims = getStatedClusterSize(op);
  if (!dims)
    return std::nullopt;
  int64_t n = 1;
  for (int64_t d : *dims)
    if (d < 1 || llvm::MulOverflow(n, d, n))
      return std::nullopt;
  return n;
}
