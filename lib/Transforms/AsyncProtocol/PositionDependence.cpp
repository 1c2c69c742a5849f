//===- PositionDependence.cpp - Values that differ between threads --------===//

#include "PositionDependence.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "tile/Dialect/Tile/IR/TileOps.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::tile::async_protocol;

PositionDependence::PositionDependence(Region &body, Position position)
    : body(body), position(position) {
  if (position == Position::Lane) {
    // Where the kernel states no size, no warp is known to be a run of x.
    std::optional<SmallVector<int64_t, 3>> size =
        getStatedBlockSize(body.getParentOp());
    warpsFollowX = size && (((*size)[0] > 0 && (*size)[0] % 32 == 0) ||
                            ((*size)[1] == 1 && (*size)[2] == 1));
  }
  if (position == Position::Cta)
    clusterDims = getStatedClusterSize(body.getParentOp());
  // A gpu.launch body's arguments are the block and thread ids (and the
  // cluster ones), followed by the sizes, which every thread shares.
  auto launch = dyn_cast<gpu::LaunchOp>(body.getParentOp());
  if (!launch)
    return;
  launchThreadX = launch.getThreadIds().x;
  gpu::KernelDim3 blocks = launch.getBlockIds();
  launchBlockIds = {blocks.x, blocks.y, blocks.z};
  SmallVector<gpu::KernelDim3, 3> ids;
  if (position == Position::ThreadOrCta || position == Position::Cta) {
    ids.push_back(blocks);
    if (std::optional<gpu::KernelDim3> cluster = launch.getClusterIds())
      ids.push_back(*cluster);
  }
  if (position != Position::Cta)
    ids.push_back(launch.getThreadIds());
  for (const gpu::KernelDim3 &d : ids)
    for (Value v : {d.x, d.y, d.z})
      known[v] = true;
  // The same rules as for the ops a gpu.func reads them with
  // (isClusterUniform): the cluster's ids, and the block ids along a
  // dimension the cluster does not span.
  if (position != Position::Cta || !clusterDims)
    return;
  if (std::optional<gpu::KernelDim3> cluster = launch.getClusterIds())
    for (Value v : {cluster->x, cluster->y, cluster->z})
      known[v] = false;
  for (auto [d, v] : llvm::enumerate(launchBlockIds))
    if ((*clusterDims)[d] == 1)
      known[v] = false;
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
    depends = !isClusterUniform(def) &&
              (isPositionOp(def) ||
               (!isWarpSplit(def) &&
                llvm::any_of(def->getOperands(), [&](Value operand) {
                  return dependsOnPosition(operand);
                })));
  }
  known[v] = depends;
  return depends;
}

bool PositionDependence::isPositionOp(Operation *op) const {
  // The CTA's position counts for the cluster and CTA questions, not for
  // the thread and lane ones (every thread of a CTA shares it).
  bool ctaCounts =
      position == Position::ThreadOrCta || position == Position::Cta;
  if (ctaCounts &&
      isa<gpu::BlockIdOp, gpu::ClusterBlockIdOp, gpu::ClusterIdOp,
          gpu::GlobalIdOp, NVVM::BlockIdXOp, NVVM::BlockIdYOp, NVVM::BlockIdZOp,
          NVVM::ClusterId, NVVM::BlockInClusterIdXOp, NVVM::BlockInClusterIdYOp,
          NVVM::BlockInClusterIdZOp, NVVM::ClusterIdXOp, NVVM::ClusterIdYOp,
          NVVM::ClusterIdZOp>(op))
    return true;
  if (position == Position::Cta)
    return false;
  // %warpid is the same in every lane of a warp.
  if (isa<NVVM::WarpIdOp>(op))
    return position != Position::Lane;
  return isa<gpu::ThreadIdOp, gpu::LaneIdOp, gpu::GlobalIdOp, NVVM::ThreadIdXOp,
             NVVM::ThreadIdYOp, NVVM::ThreadIdZOp, NVVM::LaneIdOp>(op);
}

/// `v` through the casts between index and integers.
static Value stripIndexCasts(Value v) {
  while (Operation *def = v.getDefiningOp()) {
    if (!isa<arith::IndexCastOp, arith::IndexCastUIOp, arith::ExtUIOp>(def))
      break;
    v = def->getOperand(0);
  }
  return v;
}

std::optional<unsigned> PositionDependence::blockIdDimension(Value v) const {
  v = stripIndexCasts(v);
  for (auto [d, id] : llvm::enumerate(launchBlockIds))
    if (id && v == id)
      return static_cast<unsigned>(d);
  Operation *def = v.getDefiningOp();
  if (!def)
    return std::nullopt;
  if (auto id = dyn_cast<gpu::BlockIdOp>(def))
    return static_cast<unsigned>(id.getDimension());
  if (isa<NVVM::BlockIdXOp>(def))
    return 0;
  if (isa<NVVM::BlockIdYOp>(def))
    return 1;
  if (isa<NVVM::BlockIdZOp>(def))
    return 2;
  return std::nullopt;
}

bool PositionDependence::isClusterUniform(Operation *op) const {
  if (position != Position::Cta || !clusterDims)
    return false;
  // The cluster's own id: %clusterid, the same in each of its CTAs.
  if (isa<gpu::ClusterIdOp, NVVM::ClusterIdXOp, NVVM::ClusterIdYOp,
          NVVM::ClusterIdZOp>(op))
    return true;
  // A block id along a dimension the cluster does not span.
  if (op->getNumResults() == 1)
    if (std::optional<unsigned> d = blockIdDimension(op->getResult(0)))
      return (*clusterDims)[*d] == 1;
  // A block id divided by a multiple of the cluster's extent along it: the
  // CTAs of a cluster are consecutive there, starting at a multiple of it.
  std::optional<int64_t> divisor;
  if (isa<arith::DivUIOp>(op))
    divisor = getConstantIntValue(op->getOperand(1));
  else if (isa<arith::ShRUIOp>(op))
    if (std::optional<int64_t> shift = getConstantIntValue(op->getOperand(1));
        shift && *shift >= 0 && *shift < 63)
      divisor = int64_t(1) << *shift;
  if (!divisor || *divisor <= 0)
    return false;
  std::optional<unsigned> d = blockIdDimension(op->getOperand(0));
  return d && (*clusterDims)[*d] > 0 && *divisor % (*clusterDims)[*d] == 0;
}

bool PositionDependence::isThreadX(Value v) const {
  v = stripIndexCasts(v);
  if (v && v == launchThreadX)
    return true;
  if (auto id = v.getDefiningOp<gpu::ThreadIdOp>())
    return id.getDimension() == gpu::Dimension::x;
  return v.getDefiningOp<NVVM::ThreadIdXOp>() != nullptr;
}

/// The predicate with its operands exchanged: c < x is x > c.
static arith::CmpIPredicate swapOperands(arith::CmpIPredicate pred) {
  using P = arith::CmpIPredicate;
  switch (pred) {
  case P::ult:
    return P::ugt;
  case P::ugt:
    return P::ult;
  case P::ule:
    return P::uge;
  case P::uge:
    return P::ule;
  case P::slt:
    return P::sgt;
  case P::sgt:
    return P::slt;
  case P::sle:
    return P::sge;
  case P::sge:
    return P::sle;
  default:
    return pred;
  }
}

bool PositionDependence::isWarpSplit(Operation *op) const {
  if (position != Position::Lane || !warpsFollowX)
    return false;
  auto constant = [](Value v) { return getConstantIntValue(v); };
  // Thread x divided by a multiple of 32: the warp's index (or a coarser one).
  if (isa<arith::DivUIOp, arith::DivSIOp, arith::FloorDivSIOp>(op)) {
    std::optional<int64_t> d = constant(op->getOperand(1));
    return isThreadX(op->getOperand(0)) && d && *d > 0 && *d % 32 == 0;
  }
  if (isa<arith::ShRUIOp, arith::ShRSIOp>(op)) {
    std::optional<int64_t> shift = constant(op->getOperand(1));
    return isThreadX(op->getOperand(0)) && shift && *shift >= 5 && *shift < 63;
  }
  // Thread x against a warp boundary: x < 32k and its mirrors.
  auto cmp = dyn_cast<arith::CmpIOp>(op);
  if (!cmp)
    return false;
  arith::CmpIPredicate pred = cmp.getPredicate();
  Value x = cmp.getLhs();
  std::optional<int64_t> c = constant(cmp.getRhs());
  if (!isThreadX(x)) {
    x = cmp.getRhs();
    c = constant(cmp.getLhs());
    pred = swapOperands(pred);
  }
  if (!isThreadX(x) || !c)
    return false;
  switch (pred) {
  case arith::CmpIPredicate::ult:
  case arith::CmpIPredicate::slt:
  case arith::CmpIPredicate::uge:
  case arith::CmpIPredicate::sge:
    return *c % 32 == 0; // x < c
  case arith::CmpIPredicate::ule:
  case arith::CmpIPredicate::sle:
  case arith::CmpIPredicate::ugt:
  case arith::CmpIPredicate::sgt:
    return (*c + 1) % 32 == 0; // x <= c, that is x < c + 1
  default:
    return false;
  }
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
