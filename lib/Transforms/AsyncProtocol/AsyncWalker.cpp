//===- AsyncWalker.cpp - The path walk of the async protocol --------------===//

#include "AsyncWalker.h"
#include "BarrierIdentity.h"
#include "KnownValues.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "tile/Dialect/Tile/IR/DiscardableAttrs.h"
#include "tile/Dialect/Tile/IR/RuleDiagnostic.h"
#include "tile/Dialect/Tile/IR/TileOps.h"
#include "tile/Dialect/Tile/IR/TileTypeUtils.h"
#include "tile/Dispatch/CopyVariant.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/MathExtras.h"
#include <map>
#include <set>
#include <string>

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::async_protocol;

namespace {

//===----------------------------------------------------------------------===//
// Shared byte ranges and barriers
//===----------------------------------------------------------------------===//

/// Bytes [lo, hi) of the kernel's arena (dynamic shared memory) that a view
/// spans, and where known the box of the view's elements an access touches
/// (an empty box: the whole view).
struct Range {
  int64_t lo = 0, hi = 0;
  Type view;
  SmallVector<int64_t> boxLo, boxSize;

  bool overlaps(const Range &o) const {
    if (!(lo < o.hi && o.lo < hi))
      return false;
    // Two boxes of one view overlap only where they intersect.
    if (boxLo.empty() || o.boxLo.empty() || view != o.view || lo != o.lo ||
        boxLo.size() != o.boxLo.size())
      return true;
    for (size_t d = 0; d < boxLo.size(); ++d)
      if (boxLo[d] + boxSize[d] <= o.boxLo[d] ||
          o.boxLo[d] + o.boxSize[d] <= boxLo[d])
        return false;
    return true;
  }
  bool operator==(const Range &o) const {
    return lo == o.lo && hi == o.hi && view == o.view && boxLo == o.boxLo &&
           boxSize == o.boxSize;
  }
};

llvm::raw_ostream &operator<<(llvm::raw_ostream &os, const Range &r) {
  return os << "[" << r.lo << ", " << r.hi << ")";
}

static int64_t spanBytes(MemRefType type) {
  std::optional<::tile::Layout> layout = getShardLayout(type);
  std::optional<int64_t> bytes = getElementBytes(type);
  if (!layout || !bytes)
    return 0;
  return layout->cosize() * *bytes;
}

/// The arena bytes `buffer` spans, where it is a tile.arena_view or a
/// tile.stage of one with a known index.
static std::optional<Range> resolveRange(Value buffer,
                                         const KnownValues &known) {
  // Stages of stages are followed in a loop down to their arena view, each
  // adding its index times its stride.
  int64_t stageOffset = 0;
  std::optional<int64_t> outerSpan;
  Value source = buffer;
  while (auto stage = source.getDefiningOp<StageOp>()) {
    std::optional<int64_t> index = known.get(stage.getIndex());
    int64_t stride = stage.getStageStrideBytes();
    int64_t span = spanBytes(stage.getResult().getType());
    int64_t step;
    if (!index || *index < 0 || stride < 0 || span <= 0 ||
        llvm::MulOverflow(*index, stride, step) ||
        llvm::AddOverflow(stageOffset, step, stageOffset))
      return std::nullopt;
    if (!outerSpan)
      outerSpan = span;
    source = stage.getSource();
  }
  auto view = source.getDefiningOp<ArenaViewOp>();
  if (!view || view.getSpanBytes() <= 0)
    return std::nullopt;
  int64_t lo = static_cast<int64_t>(view.getOffset()) + stageOffset;
  return Range{lo,
               lo + outerSpan.value_or(view.getSpanBytes()),
               buffer.getType(),
               {},
               {}};
}

/// The range of `buffer` narrowed to the box `offsets` x `sizes` where the
/// offsets are known.
static std::optional<Range> resolveRegion(Value buffer,
                                          ArrayRef<OpFoldResult> offsets,
                                          ArrayRef<int64_t> sizes,
                                          const KnownValues &known) {
  std::optional<Range> range = resolveRange(buffer, known);
  if (!range || offsets.size() != sizes.size())
    return range;
  SmallVector<int64_t> lo;
  for (OpFoldResult ofr : offsets) {
    std::optional<int64_t> x;
    if (auto attr = dyn_cast<Attribute>(ofr))
      x = cast<IntegerAttr>(attr).getInt();
    else
      x = known.get(cast<Value>(ofr));
    if (!x)
      return range;
    lo.push_back(*x);
  }
  range->boxLo = lo;
  range->boxSize.assign(sizes.begin(), sizes.end());
  return range;
}

static bool isShared(Value v) {
  auto type = dyn_cast<MemRefType>(v.getType());
  return type && getMemorySpaceKind(type) == MemorySpaceKind::Shared;
}

static StringRef opLabel(Operation *op) {
  if (isa<CopyOp>(op))
    return "tile.copy";
  if (auto copy = dyn_cast<CopyAsyncOp>(op))
    return copy.isLoad() ? "TMA load" : "bulk store";
  if (isa<CopyIm2colOp>(op))
    return "TMA load";
  return op->getName().getStringRef();
}

/// True where the copy runs on the async proxy, as its variant declares:
/// the recorded one, else the one its `dispatch` names; with neither (or a
/// variant not registered) true, the safe answer before planning.
static bool isAsyncProxyCopy(CopyAsyncOp op) {
  std::optional<StringRef> name;
  if (auto variant = op->getAttrOfType<StringAttr>(kVariantAttr))
    name = variant.getValue();
  else
    name = op.getDispatch();
  const CopyVariantRegistry *registry =
      CopyVariantRegistry::get(op->getContext());
  const CopyVariant *variant =
      name && registry ? registry->lookup(*name) : nullptr;
  return !variant || variant->getProperties().usesAsyncProxy;
}

//===----------------------------------------------------------------------===//
// The walk
//===----------------------------------------------------------------------===//

struct Access {
  Operation *op;
  Range range;
  bool operator==(const Access &o) const {
    return op == o.op && range == o.range;
  }
};

struct PendingLoad {
  Access access;
  BarrierIdentity barrier;
  bool operator==(const PendingLoad &o) const {
    return access == o.access && barrier == o.barrier;
  }
};

template <typename T>
static void unionInto(SmallVectorImpl<T> &into, ArrayRef<T> from) {
  for (const T &x : from)
    if (!llvm::is_contained(into, x))
      into.push_back(x);
}

struct State {
  bool reachable = true;
  /// Generic writes not yet fenced.
  SmallVector<Access> unfenced;
  /// TMA loads not yet waited for.
  SmallVector<PendingLoad> loads;
  /// Bulk stores not yet committed.
  SmallVector<Access> uncommitted;
  /// Committed bulk groups, oldest first.
  SmallVector<SmallVector<Access>> groups;
  /// Waits so far per barrier of known index; a barrier absent here has
  /// seen none, unless it is in `unknownWaits`, its group in
  /// `unknownGroups` (a wait or init on a symbolic index may have been on
  /// it), or `allWaitsUnknown` holds.
  std::map<BarrierIdentity, int64_t> waits;
  std::set<BarrierIdentity> unknownWaits;
  llvm::SmallDenseSet<Value> unknownGroups;
  bool allWaitsUnknown = false;

  std::optional<int64_t> waitCount(const BarrierIdentity &barrier) const {
    if (allWaitsUnknown || unknownGroups.contains(barrier.getGroup()) ||
        unknownWaits.count(barrier))
      return std::nullopt;
    auto it = waits.find(barrier);
    return it == waits.end() ? 0 : it->second;
  }

  /// Drops every fact: what follows cannot be reported from them.
  void havoc() {
    unfenced.clear();
    loads.clear();
    uncommitted.clear();
    groups.clear();
    allWaitsUnknown = true;
  }

  void join(const State &o) {
    if (!o.reachable)
      return;
    if (!reachable) {
      *this = o;
      return;
    }
    unionInto<Access>(unfenced, o.unfenced);
    unionInto<PendingLoad>(loads, o.loads);
    unionInto<Access>(uncommitted, o.uncommitted);
    // Committed groups line up from the newest: a bulk_wait_group N leaves
    // the newest N pending on every path.
    if (groups.size() < o.groups.size())
      groups.insert(groups.begin(), o.groups.size() - groups.size(), {});
    size_t skip = groups.size() - o.groups.size();
    for (size_t i = 0; i < o.groups.size(); ++i)
      unionInto<Access>(groups[skip + i], o.groups[i]);
    allWaitsUnknown |= o.allWaitsUnknown;
    for (Value g : o.unknownGroups)
      unknownGroups.insert(g);
    unknownWaits.insert(o.unknownWaits.begin(), o.unknownWaits.end());
    std::set<BarrierIdentity> keys;
    for (auto &[k, v] : waits)
      keys.insert(k);
    for (auto &[k, v] : o.waits)
      keys.insert(k);
    for (const BarrierIdentity &k : keys) {
      auto a = waits.find(k);
      auto b = o.waits.find(k);
      int64_t x = a == waits.end() ? 0 : a->second;
      int64_t y = b == o.waits.end() ? 0 : b->second;
      if (x != y)
        unknownWaits.insert(k);
    }
  }
};

/// Loop iterations the walk follows; loops with more (or an unknown number)
/// are followed this far, and the facts after them dropped.
constexpr int64_t kMaxIterations = 64;
constexpr int64_t kUnknownTripIterations = 16;

class Walker {
public:
  Walker(bool insertFences) : insertFences(insertFences) {}

  void walkKernel(Region &body) {
    State state;
    walkRegion(body, state);
  }

  bool hadError() const { return failed; }
  /// Generic writes after which a fence is missing (insert-fences).
  const llvm::SetVector<Operation *> &fenceSites() const { return sites; }

private:
  void walkRegion(Region &region, State &state) {
    if (region.empty())
      return;
    if (!region.hasOneBlock()) {
      state.havoc();
      return;
    }
    walkBlock(region.front(), state);
  }

  void walkBlock(Block &block, State &state) {
    for (Operation &op : block)
      walkOp(&op, state);
  }

  /// Reports `text` ("<rule-id>: ...") at `op`, once per op and rule.
  /// Reports `rule` at `op` once; `text` follows the "<rule-id>: ".
  void report(Operation *op, ::tile::RuleId rule, const Twine &text,
              Operation *noteOp, const Twine &note) {
    if (!reported.insert({op, rule}).second)
      return;
    InFlightDiagnostic diag = emitRuleErrorAt(op, rule) << text;
    if (noteOp)
      diag.attachNote(noteOp->getLoc()) << note;
    failed = true;
  }

  std::string rangeText(const Range &r) {
    std::string s;
    llvm::raw_string_ostream os(s);
    os << r;
    return s;
  }

  void checkPendingLoads(Operation *op, const Range &range, State &state,
                         StringRef what) {
    for (const PendingLoad &load : state.loads) {
      if (!load.access.range.overlaps(range))
        continue;
      std::string barrier;
      llvm::raw_string_ostream(barrier) << load.barrier;
      report(op, ::tile::RuleId::AsyncLoadWait,
             "this " + what + " of shared bytes " + rangeText(range) +
                 " comes before any wait on " + barrier +
                 ", which completes the TMA load writing bytes " +
                 rangeText(load.access.range),
             load.access.op, "the TMA load");
      return;
    }
  }

  void checkPendingStores(Operation *op, const Range &range, State &state) {
    auto check = [&](const Access &store, StringRef where) {
      if (!store.range.overlaps(range))
        return false;
      report(op, ::tile::RuleId::AsyncStoreReuse,
             "this write of shared bytes " + rangeText(range) +
                 " comes before a tile.bulk_wait_group covers the bulk store "
                 "reading bytes " +
                 rangeText(store.range) + " (" + where + ")",
             store.op, "the bulk store");
      return true;
    };
    for (const Access &store : state.uncommitted)
      if (check(store, "the store is in no committed group"))
        return;
    for (auto [i, group] : llvm::enumerate(state.groups))
      for (const Access &store : group)
        if (check(store, "its group is " +
                             std::to_string(state.groups.size() - i) + " of " +
                             std::to_string(state.groups.size()) +
                             " pending, counted from the newest"))
          return;
  }

  void genericWrite(Operation *op, const Range &range, State &state) {
    checkPendingLoads(op, range, state, "write");
    checkPendingStores(op, range, state);
    Access access{op, range};
    if (!llvm::is_contained(state.unfenced, access))
      state.unfenced.push_back(access);
  }

  void genericRead(Operation *op, const Range &range, State &state) {
    checkPendingLoads(op, range, state, "read");
  }

  void bulkStore(CopyAsyncOp op, const Range &range, State &state) {
    for (const Access &write : state.unfenced) {
      if (!write.range.overlaps(range))
        continue;
      if (insertFences) {
        sites.insert(write.op);
        continue;
      }
      report(op, ::tile::RuleId::AsyncProxyFence,
             "this TMA store reads shared bytes " + rangeText(range) +
                 " that a generic write (" + opLabel(write.op) +
                 ") stored at bytes " + rangeText(write.range) +
                 " with no fence.proxy.async on the path between them",
             write.op, "the generic write");
      break;
    }
    checkPendingLoads(op, range, state, "bulk store's read");
    state.uncommitted.push_back({op, range});
  }

  void tmaLoad(Operation *op, Value group, Value index, const Range &range,
               State &state) {
    checkPendingLoads(op, range, state, "TMA load's write");
    checkPendingStores(op, range, state);
    if (!group || !index)
      return;
    state.loads.push_back(
        {{op, range}, BarrierIdentity::get(group, index, known)});
  }

  void wait(Value group, Value indexValue, std::optional<Value> parityValue,
            Operation *op, State &state) {
    BarrierIdentity barrier = BarrierIdentity::get(group, indexValue, known);
    // A wait on a barrier completes the loads on every barrier it may be; a
    // wait on another group's barrier may order them through the threads
    // that waited (a consumer's release of a stage), so it ends them too.
    llvm::erase_if(state.loads, [&](const PendingLoad &load) {
      return load.barrier.getGroup() != group || load.barrier.mayAlias(barrier);
    });
    if (!parityValue)
      return;
    if (!barrier.isKnown()) {
      state.unknownGroups.insert(group);
      return;
    }
    std::optional<int64_t> count = state.waitCount(barrier);
    std::optional<int64_t> parity = known.get(*parityValue);
    if (count && parity && *parity != *count % 2) {
      std::string text;
      llvm::raw_string_ostream os(text);
      os << "waits for parity " << *parity << " of " << barrier
         << ", but this thread has waited for " << *count
         << " completion(s) of it, so the phase to wait for has parity "
         << *count % 2;
      report(op, ::tile::RuleId::AsyncPhase, text, nullptr, "");
    }
    if (count)
      state.waits[barrier] = *count + 1;
  }

  void walkFor(scf::ForOp loop, State &state) {
    std::optional<int64_t> lb = known.get(loop.getLowerBound());
    std::optional<int64_t> ub = known.get(loop.getUpperBound());
    std::optional<int64_t> step = known.get(loop.getStep());
    for (Value r : loop.getResults())
      known.set(r, std::nullopt);
    std::optional<int64_t> trip;
    if (lb && ub && step)
      trip = tripOf(*lb, *ub, *step);
    bool complete = trip && *trip <= kMaxIterations;
    int64_t iterations =
        trip ? std::min(*trip, kMaxIterations) : kUnknownTripIterations;
    if (!lb || !step || *step <= 0)
      iterations = 1;
    // Nested loops multiply; past the budget, each loop is walked once and
    // forgotten.
    if (budget <= 0) {
      iterations = std::min<int64_t>(iterations, 1);
      complete = false;
    }
    State exit;
    exit.reachable = false;
    if (!trip || *trip == 0)
      exit.join(state);
    // The loop-carried values the walk knows, iteration by iteration (a
    // pipeline's ring position carried from one iteration to the next).
    SmallVector<std::optional<int64_t>> carried = llvm::map_to_vector(
        loop.getInitArgs(), [&](Value v) { return known.resolve(v); });
    for (int64_t i = 0; i < iterations && state.reachable; ++i) {
      std::optional<int64_t> iv;
      int64_t offset, value;
      if (lb && step && !llvm::MulOverflow(i, *step, offset) &&
          !llvm::AddOverflow(*lb, offset, value))
        iv = value;
      known.set(loop.getInductionVar(), iv);
      for (auto [arg, v] : llvm::zip(loop.getRegionIterArgs(), carried))
        known.set(arg, v);
      walkBlock(*loop.getBody(), state);
      for (auto [v, next] : llvm::zip(carried, loop.getYieldedValues()))
        v = known.resolve(next);
      // With an unknown trip count, the loop may end after any iteration.
      if (!trip)
        exit.join(state);
    }
    if (complete) {
      exit = state;
      for (auto [r, v] : llvm::zip(loop.getResults(), carried))
        known.set(r, v);
    } else {
      exit.join(state);
      exit.havoc();
    }
    state = exit;
  }

  void walkIf(scf::IfOp ifOp, State &state) {
    for (Value r : ifOp.getResults())
      known.set(r, std::nullopt);
    std::optional<int64_t> cond = known.get(ifOp.getCondition());
    if (cond) {
      if (*cond)
        walkRegion(ifOp.getThenRegion(), state);
      else
        walkRegion(ifOp.getElseRegion(), state);
      return;
    }
    State other = state;
    walkRegion(ifOp.getThenRegion(), state);
    walkRegion(ifOp.getElseRegion(), other);
    state.join(other);
  }

  void walkEffects(Operation *op, State &state) {
    // Generic-proxy accesses only: upstream nvgpu ops (TMA, cp.async) write
    // and read shared memory through other proxies the walk does not model.
    auto effects = dyn_cast<MemoryEffectOpInterface>(op);
    if (!effects || isa<nvgpu::NVGPUDialect>(op->getDialect()))
      return;
    SmallVector<MemoryEffects::EffectInstance> list;
    effects.getEffects(list);
    for (const MemoryEffects::EffectInstance &effect : list) {
      Value v = effect.getValue();
      if (!v || !isShared(v))
        continue;
      std::optional<Range> range = resolveRange(v, known);
      if (!range)
        continue;
      if (isa<MemoryEffects::Write>(effect.getEffect()))
        genericWrite(op, *range, state);
      else if (isa<MemoryEffects::Read>(effect.getEffect()))
        genericRead(op, *range, state);
    }
  }

  void walkOp(Operation *op, State &state) {
    if (!state.reachable)
      return;
    --budget;
    if (auto loop = dyn_cast<scf::ForOp>(op))
      return walkFor(loop, state);
    if (auto ifOp = dyn_cast<scf::IfOp>(op))
      return walkIf(ifOp, state);
    if (isa<scf::YieldOp>(op))
      return;
    if (auto copy = dyn_cast<CopyAsyncOp>(op)) {
      // A prefetch reads global memory into L2 only: no shared access.
      if (copy.getPrefetch())
        return;
      std::optional<Range> range =
          copy.isLoad()
              ? resolveRegion(copy.getDst(), copy.getMixedDstOffsets(),
                              copy.getDstSizes(), known)
              : resolveRegion(copy.getSrc(), copy.getMixedSrcOffsets(),
                              copy.getSrcSizes(), known);
      if (!range)
        return;
      if (copy.isLoad())
        return tmaLoad(op, copy.getBarrier(), copy.getBarrierIndex(), *range,
                       state);
      if (isAsyncProxyCopy(copy))
        return bulkStore(copy, *range, state);
      return genericRead(op, *range, state);
    }
    if (auto im2col = dyn_cast<CopyIm2colOp>(op)) {
      MemRefType tile = im2col.getDst().getType();
      SmallVector<OpFoldResult> zeros(
          tile.getRank(), Builder(op->getContext()).getIndexAttr(0));
      if (std::optional<Range> range =
              resolveRegion(im2col.getDst(), zeros, tile.getShape(), known))
        tmaLoad(op, im2col.getBarrier(), im2col.getBarrierIndex(), *range,
                state);
      return;
    }
    if (auto copy = dyn_cast<CopyOp>(op)) {
      if (isShared(copy.getSrc()))
        if (std::optional<Range> range =
                resolveRegion(copy.getSrc(), copy.getMixedSrcOffsets(),
                              copy.getSrcSizes(), known))
          genericRead(op, *range, state);
      if (isShared(copy.getDst()))
        if (std::optional<Range> range =
                resolveRegion(copy.getDst(), copy.getMixedDstOffsets(),
                              copy.getDstSizes(), known))
          genericWrite(op, *range, state);
      return;
    }
    if (isa<BulkCommitGroupOp>(op)) {
      state.groups.push_back(state.uncommitted);
      state.uncommitted.clear();
      return;
    }
    if (auto waitGroup = dyn_cast<BulkWaitGroupOp>(op)) {
      size_t keep = waitGroup.getGroup();
      if (state.groups.size() > keep)
        state.groups.erase(state.groups.begin(), state.groups.end() - keep);
      return;
    }
    if (auto fence = dyn_cast<NVVM::FenceProxyOp>(op)) {
      NVVM::ProxyKind kind = fence.getKind();
      if (kind == NVVM::ProxyKind::async ||
          kind == NVVM::ProxyKind::async_shared)
        state.unfenced.clear();
      return;
    }
    if (auto tryWait = dyn_cast<nvgpu::MBarrierTryWaitParityOp>(op))
      return wait(tryWait.getBarriers(), tryWait.getMbarId(),
                  tryWait.getPhaseParity(), op, state);
    if (auto test = dyn_cast<nvgpu::MBarrierTestWaitOp>(op)) {
      wait(test.getBarriers(), test.getMbarId(), std::nullopt, op, state);
      state.unknownGroups.insert(test.getBarriers());
      return;
    }
    if (auto init = dyn_cast<nvgpu::MBarrierInitOp>(op)) {
      BarrierIdentity barrier =
          BarrierIdentity::get(init.getBarriers(), init.getMbarId(), known);
      if (barrier.isKnown()) {
        state.waits.erase(barrier);
        state.unknownWaits.erase(barrier);
      } else {
        state.unknownGroups.insert(init.getBarriers());
      }
      return;
    }
    if (isa<nvgpu::MBarrierArriveExpectTxOp, nvgpu::MBarrierArriveOp,
            nvgpu::MBarrierCreateOp, ArriveExpectTxOp, ArriveRemoteOp,
            ArenaViewOp, StageOp, gpu::BarrierOp, NVVM::BarrierOp>(op)) {
      known.evaluate(op);
      return;
    }
    if (isa<CallOpInterface>(op) || op->getNumRegions() > 0) {
      for (Value r : op->getResults())
        known.set(r, std::nullopt);
      state.havoc();
      return;
    }
    walkEffects(op, state);
    known.evaluate(op);
  }

  bool insertFences;
  bool failed = false;
  /// Ops the walk may visit before it stops unrolling loops.
  int64_t budget = 1 << 20;
  KnownValues known;
  std::set<std::pair<Operation *, ::tile::RuleId>> reported;
  llvm::SetVector<Operation *> sites;
};

} // namespace

AsyncWalkResult mlir::tile::async_protocol::walkKernel(Region &body,
                                                       bool insertFences) {
  Walker walker(insertFences);
  walker.walkKernel(body);
  return {walker.hadError(), walker.fenceSites()};
}
