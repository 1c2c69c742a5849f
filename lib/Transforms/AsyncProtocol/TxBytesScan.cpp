//===- TxBytesScan.cpp - Transaction bytes per barrier and phase ----------===//

#include "TxBytesScan.h"
#include "KnownValues.h"
#include "PositionDependence.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"
#include "tile/Dialect/Tile/IR/RuleDiagnostic.h"
#include "tile/Dialect/Tile/IR/TileOps.h"
#include "llvm/Support/MathExtras.h"
#include <map>

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::async_protocol;

/// The constant trip count of `loop`, if it has one. The bounds and step are
/// compared as signed integers, also on an `unsignedCmp` loop.
///
/// This is not scf::ForOp::getStaticTripCount: that one answers zero where
/// this has no answer (a step that is not positive, a span that overflows
/// int64_t), and differs on `unsignedCmp` loops (unsigned bounds), on i1
/// bounds (read as signed), on spans that overflow a narrow bound type
/// (wrapped: zero for i8 -100 to 100) and on bounds it relates through value
/// bounds (%ub = %lb + 4). The scan's diagnostics depend on these counts.
static std::optional<int64_t> tripCount(scf::ForOp loop) {
  APInt lb, ub, step;
  if (!matchPattern(loop.getLowerBound(), m_ConstantInt(&lb)) ||
      !matchPattern(loop.getUpperBound(), m_ConstantInt(&ub)) ||
      !matchPattern(loop.getStep(), m_ConstantInt(&step)))
    return std::nullopt;
  std::optional<int64_t> l = toInt64(lb), u = toInt64(ub), s = toInt64(step);
  if (!l || !u || !s)
    return std::nullopt;
  return tripOf(*l, *u, *s);
}

MulticastIssuers::MulticastIssuers() = default;
MulticastIssuers::~MulticastIssuers() = default;

std::optional<int64_t> MulticastIssuers::of(CopyAsyncOp copy) {
  APInt mask;
  std::optional<int64_t> ctas = getKernelClusterSize(copy);
  if (!ctas || *ctas > 16 ||
      !matchPattern(copy.getMulticastMask(), m_ConstantInt(&mask)) ||
      mask.getZExtValue() != (uint64_t(1) << *ctas) - 1)
    return std::nullopt;
  Operation *kernel = copy->getParentOfType<gpu::GPUFuncOp>();
  if (!kernel)
    kernel = copy->getParentOfType<gpu::LaunchOp>();
  std::unique_ptr<PositionDependence> &cta = kernels[kernel];
  if (!cta)
    cta = std::make_unique<PositionDependence>(kernel->getRegion(0),
                                               Position::Cta);
  if (cta->divergentControl(copy))
    return std::nullopt;
  return *ctas;
}

static std::optional<BarrierLoad> getBarrierLoad(Operation *op,
                                                 MulticastIssuers &issuers) {
  if (auto copy = dyn_cast<CopyAsyncOp>(op)) {
    if (!copy.getBarrier())
      return std::nullopt;
    BarrierLoad load{op, copy.getBarrier(), copy.getBarrierIndex(),
                     copy.getTransactionBytes()};
    if (copy.getMulticastMask()) {
      std::optional<int64_t> ctas = issuers.of(copy);
      load.issuers = ctas.value_or(1);
      load.multicastUndecided = !ctas;
    }
    return load;
  }
  if (auto im2col = dyn_cast<CopyIm2colOp>(op))
    return BarrierLoad{op, im2col.getBarrier(), im2col.getBarrierIndex(),
                       im2col.getTransactionBytes()};
  return std::nullopt;
}

/// True where `op` or an op nested in it takes `group` as an operand.
static bool usesGroup(Operation *op, Value group) {
  return op
      ->walk([&](Operation *nested) {
        return llvm::is_contained(nested->getOperands(), group)
                   ? WalkResult::interrupt()
                   : WalkResult::advance();
      })
      .wasInterrupted();
}

/// Loads on `group` in issue loops: scf.for ops with constant trip counts
/// whose bodies hold only loads on `group` (and such loops) as its users.
/// Fails where something else in `loop` uses the group.
static LogicalResult
collectIssueLoop(scf::ForOp loop, Value group, int64_t times,
                 MulticastIssuers &issuers,
                 SmallVectorImpl<std::pair<BarrierLoad, int64_t>> &out) {
  std::optional<int64_t> trip = tripCount(loop);
  if (!trip)
    return failure();
  int64_t total;
  if (llvm::MulOverflow(times, *trip, total))
    return failure();
  for (Operation &op : loop.getBody()->without_terminator()) {
    if (std::optional<BarrierLoad> load = getBarrierLoad(&op, issuers)) {
      if (load->group == group)
        out.push_back({*load, total});
      continue;
    }
    if (auto inner = dyn_cast<scf::ForOp>(op)) {
      if (failed(collectIssueLoop(inner, group, total, issuers, out)))
        return failure();
      continue;
    }
    if (usesGroup(&op, group))
      return failure();
  }
  return success();
}

LogicalResult mlir::tile::async_protocol::scanPhases(
    Block &block, Value group, MulticastIssuers &issuers,
    function_ref<void(const BarrierIdentity &, TxUnit &)> closeUnit) {
  // The index values of the block are the same on every path through it:
  // resolved with no bindings.
  KnownValues known;
  std::map<BarrierIdentity, TxUnit> units;
  auto close = [&](const BarrierIdentity &barrier) {
    auto it = units.find(barrier);
    if (it == units.end())
      return;
    closeUnit(barrier, it->second);
    units.erase(it);
  };
  // The bytes of two barriers that may alias without being one cannot be
  // attributed to either.
  SmallVector<BarrierIdentity> seen;
  auto identify = [&](Value index) -> std::optional<BarrierIdentity> {
    BarrierIdentity barrier = BarrierIdentity::get(group, index, known);
    if (llvm::is_contained(seen, barrier))
      return barrier;
    if (llvm::any_of(seen, [&](const BarrierIdentity &other) {
          return other.mayAlias(barrier);
        }))
      return std::nullopt;
    seen.push_back(barrier);
    return barrier;
  };
  for (Operation &op : block) {
    if (std::optional<BarrierLoad> load = getBarrierLoad(&op, issuers)) {
      if (load->group != group)
        continue;
      std::optional<BarrierIdentity> barrier = identify(load->index);
      if (!barrier)
        return failure();
      TxUnit &unit = units[*barrier];
      unit.loads.push_back({*load, 1});
      unit.multicastUndecided |= load->multicastUndecided;
      if (llvm::AddOverflow(unit.delivered, load->received(), unit.delivered))
        return failure();
      continue;
    }
    if (auto expect = dyn_cast<nvgpu::MBarrierArriveExpectTxOp>(op)) {
      if (expect.getBarriers() != group)
        continue;
      std::optional<BarrierIdentity> barrier = identify(expect.getMbarId());
      if (!barrier || expect.getPredicate())
        return failure();
      TxUnit &unit = units[*barrier];
      unit.expects.push_back(expect);
      APInt bytes;
      std::optional<int64_t> n;
      if (matchPattern(expect.getTxcount(), m_ConstantInt(&bytes)))
        n = toInt64(bytes);
      if (!n || llvm::AddOverflow(unit.announced, *n, unit.announced))
        unit.announcedKnown = false;
      continue;
    }
    if (auto expect = dyn_cast<ArriveExpectTxOp>(op)) {
      if (expect.getBarriers() != group)
        continue;
      std::optional<BarrierIdentity> barrier = identify(expect.getMbarId());
      if (!barrier)
        return failure();
      TxUnit &unit = units[*barrier];
      unit.expects.push_back(expect);
      unit.announcedKnown = false;
      continue;
    }
    if (auto wait = dyn_cast<nvgpu::MBarrierTryWaitParityOp>(op)) {
      if (wait.getBarriers() != group)
        continue;
      std::optional<BarrierIdentity> barrier = identify(wait.getMbarId());
      if (!barrier)
        return failure();
      close(*barrier);
      continue;
    }
    if (auto loop = dyn_cast<scf::ForOp>(op)) {
      if (!usesGroup(loop, group))
        continue;
      SmallVector<std::pair<BarrierLoad, int64_t>> loads;
      if (failed(collectIssueLoop(loop, group, 1, issuers, loads)))
        return failure();
      for (auto [load, times] : loads) {
        std::optional<BarrierIdentity> barrier = identify(load.index);
        // A loop-variant index is not one barrier.
        if (!barrier ||
            (!barrier->isKnown() && !loop.isDefinedOutsideOfLoop(load.index)))
          return failure();
        TxUnit &unit = units[*barrier];
        unit.loads.push_back({load, times});
        unit.multicastUndecided |= load.multicastUndecided;
        int64_t bytes;
        if (llvm::MulOverflow(load.received(), times, bytes) ||
            llvm::AddOverflow(unit.delivered, bytes, unit.delivered))
          return failure();
      }
      continue;
    }
    if (op.getNumRegions() > 0 && usesGroup(&op, group))
      return failure();
  }
  while (!units.empty())
    close(units.begin()->first);
  return success();
}

static void describeLoads(const TxUnit &unit, llvm::raw_ostream &os) {
  os << "(";
  llvm::interleave(
      unit.loads, os,
      [&](const std::pair<BarrierLoad, int64_t> &load) {
        if (load.second != 1)
          os << load.second << " x ";
        if (load.first.issuers != 1)
          os << load.first.issuers << " CTAs x ";
        os << load.first.bytes;
      },
      " + ");
  os << ")";
}

bool mlir::tile::async_protocol::checkTransactionBytes(Operation *kernel) {
  bool ok = true;
  MulticastIssuers issuers;
  kernel->walk([&](nvgpu::MBarrierCreateOp create) {
    Value group = create.getBarriers();
    Block *block = nullptr;
    bool decidable = true;
    bool anyExpect = false;
    for (Operation *user : group.getUsers()) {
      if (isa<nvgpu::MBarrierArriveExpectTxOp, ArriveExpectTxOp>(user)) {
        anyExpect = true;
        if (block && block != user->getBlock())
          decidable = false;
        block = user->getBlock();
      } else if (!isa<CopyAsyncOp, CopyIm2colOp, nvgpu::MBarrierInitOp,
                      nvgpu::MBarrierTryWaitParityOp, nvgpu::MBarrierArriveOp,
                      nvgpu::MBarrierTestWaitOp>(user)) {
        decidable = false;
      }
    }
    if (!anyExpect || !decidable)
      return;
    // Every load on the group lies in the block, or in an issue loop in it.
    for (Operation *user : group.getUsers()) {
      std::optional<BarrierLoad> load = getBarrierLoad(user, issuers);
      if (!load || load->group != group)
        continue;
      Operation *ancestor = block->findAncestorOpInBlock(*user);
      if (!ancestor || (ancestor != user && !isa<scf::ForOp>(ancestor)))
        return;
    }
    (void)scanPhases(
        *block, group, issuers,
        [&](const BarrierIdentity &barrier, TxUnit &unit) {
          if (unit.expects.empty() || !unit.announcedKnown ||
              unit.multicastUndecided || unit.announced == unit.delivered)
            return;
          InFlightDiagnostic diag = emitRuleErrorAt(
              unit.expects.back(), ::tile::RuleId::AsyncTxBytes);
          std::string text;
          llvm::raw_string_ostream os(text);
          os << "arrive.expect_tx announces " << unit.announced << " bytes on "
             << barrier << ", but the " << unit.loads.size()
             << " load(s) signalling it in this phase deliver "
             << unit.delivered << " bytes";
          if (!unit.loads.empty()) {
            os << " ";
            describeLoads(unit, os);
          }
          diag << text;
          for (auto [load, times] : unit.loads)
            diag.attachNote(load.op->getLoc())
                << "this load delivers " << load.bytes << " bytes"
                << (times != 1 ? " per iteration" : "")
                << (load.issuers != 1
                        ? " from each of the cluster's " +
                              std::to_string(load.issuers) + " CTAs"
                        : "");
          ok = false;
        });
  });
  return ok;
}
