//===- VerifyAsync.cpp - --tile-verify-async, --tile-materialize-expect-tx ===//
//
// The asynchronous protocol around the copies (docs/async-protocol.md).
//
// Transaction bytes are checked per mbarrier group on the block that holds
// all of the group's arrive.expect_tx ops and loads (loads may sit in issue
// loops with constant trip counts nested in it): per barrier and phase, the
// announced bytes must equal the delivered ones.
//
// The other rules follow the kernel as one thread of the CTA would, through
// scf.if (both branches, unless the condition is known, then joined) and
// scf.for (iteration by iteration with the induction variable known, up to a
// bound), evaluating index and i1 arithmetic on known values so that stage
// indices and parities of pipelines are known. The state holds "may" facts:
// shared byte ranges written by the generic proxy and not fenced, TMA loads
// not waited for, bulk stores not covered by a bulk_wait_group; and per
// barrier the number of waits so far. A fact the walk cannot follow (calls,
// unknown region ops, loops it stops following) is dropped, so every report
// names a path the kernel has.
//
//===----------------------------------------------------------------------===//

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "tile/Conversion/TileToNVVM/TileToNVVM.h"
#include "tile/Dialect/Tile/IR/DiscardableAttrs.h"
#include "tile/Dialect/Tile/IR/TileOps.h"
#include "tile/Dialect/Tile/IR/TileTypeUtils.h"
#include "tile/Dispatch/CopyVariant.h"
#include "tile/Transforms/Passes.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/MapVector.h"
#include <map>

namespace mlir::tile {
#define GEN_PASS_DEF_TILEVERIFYASYNC
#define GEN_PASS_DEF_TILEMATERIALIZEEXPECTTX
#include "tile/Transforms/Passes.h.inc"
} // namespace mlir::tile

using namespace mlir;
using namespace mlir::tile;

namespace {

//===----------------------------------------------------------------------===//
// Known values
//===----------------------------------------------------------------------===//

/// `c` as an int64_t (i1 as 0 or 1), if it fits.
static std::optional<int64_t> toInt64(const APInt &c) {
  if (c.getBitWidth() == 1)
    return static_cast<int64_t>(c.getBoolValue());
  if (c.getSignificantBits() > 64)
    return std::nullopt;
  return c.getSExtValue();
}

/// Iterations of a loop from `l` to `u` by `s`.
static std::optional<int64_t> tripOf(int64_t l, int64_t u, int64_t s) {
  if (s <= 0)
    return std::nullopt;
  if (u <= l)
    return 0;
  int64_t span;
  if (llvm::SubOverflow(u, l, span))
    return std::nullopt;
  return span / s + (span % s != 0);
}

/// Known integer values (index, integers, i1) of the walk: constants and
/// arithmetic on known values; an induction variable while the walk follows
/// its loop. Values are re-evaluated each time their op is walked.
class KnownValues {
public:
  std::optional<int64_t> get(Value v) const {
    auto it = values.find(v);
    if (it != values.end())
      return it->second;
    APInt c;
    if (matchPattern(v, m_ConstantInt(&c)))
      return toInt64(c);
    return std::nullopt;
  }
  void set(Value v, std::optional<int64_t> x) {
    if (x)
      values[v] = *x;
    else
      values.erase(v);
  }
  /// Evaluates `op`'s results from its operands where it is arithmetic the
  /// walk knows; forgets them otherwise.
  void evaluate(Operation *op);

private:
  DenseMap<Value, int64_t> values;
};

void KnownValues::evaluate(Operation *op) {
  if (op->getNumResults() != 1) {
    for (Value r : op->getResults())
      set(r, std::nullopt);
    return;
  }
  Value r = op->getResult(0);
  auto bin = [&](auto fn) -> std::optional<int64_t> {
    if (op->getNumOperands() != 2)
      return std::nullopt;
    std::optional<int64_t> a = get(op->getOperand(0)),
                           b = get(op->getOperand(1));
    if (!a || !b)
      return std::nullopt;
    return fn(*a, *b);
  };
  using Checked = bool (*)(int64_t, int64_t, int64_t &);
  // Overflow-checked arithmetic; unsigned division, remainder and bounds
  // only on non-negative operands, where they agree with the signed ones.
  auto checked = [&](Checked fn) {
    return bin([fn](int64_t a, int64_t b) -> std::optional<int64_t> {
      int64_t v;
      if (fn(a, b, v))
        return std::nullopt;
      return v;
    });
  };
  auto nonNegative = [&](int64_t (*fn)(int64_t, int64_t), bool positiveRhs) {
    return bin([=](int64_t a, int64_t b) -> std::optional<int64_t> {
      if (a < 0 || b < 0 || (positiveRhs && b == 0))
        return std::nullopt;
      return fn(a, b);
    });
  };
  std::optional<int64_t> x;
  if (isa<arith::AddIOp>(op))
    x = checked([](int64_t a, int64_t b, int64_t &r) {
      return llvm::AddOverflow(a, b, r) != 0;
    });
  else if (isa<arith::SubIOp>(op))
    x = checked([](int64_t a, int64_t b, int64_t &r) {
      return llvm::SubOverflow(a, b, r) != 0;
    });
  else if (isa<arith::MulIOp>(op))
    x = checked([](int64_t a, int64_t b, int64_t &r) {
      return llvm::MulOverflow(a, b, r) != 0;
    });
  else if (isa<arith::DivUIOp, arith::DivSIOp>(op))
    x = nonNegative([](int64_t a, int64_t b) { return a / b; }, true);
  else if (isa<arith::RemUIOp, arith::RemSIOp>(op))
    x = nonNegative([](int64_t a, int64_t b) { return a % b; }, true);
  else if (isa<arith::MinUIOp, arith::MinSIOp>(op))
    x = nonNegative([](int64_t a, int64_t b) { return std::min(a, b); }, false);
  else if (isa<arith::MaxUIOp, arith::MaxSIOp>(op))
    x = nonNegative([](int64_t a, int64_t b) { return std::max(a, b); }, false);
  else if (isa<arith::AndIOp>(op))
    x = bin(
        [](int64_t a, int64_t b) -> std::optional<int64_t> { return a & b; });
  else if (isa<arith::OrIOp>(op))
    x = bin(
        [](int64_t a, int64_t b) -> std::optional<int64_t> { return a | b; });
  else if (isa<arith::XOrIOp>(op))
    x = bin(
        [](int64_t a, int64_t b) -> std::optional<int64_t> { return a ^ b; });
  else if (auto cmp = dyn_cast<arith::CmpIOp>(op))
    x = bin([&](int64_t a, int64_t b) -> std::optional<int64_t> {
      return arith::applyCmpPredicate(cmp.getPredicate(), APInt(64, a, true),
                                      APInt(64, b, true));
    });
  else if (auto sel = dyn_cast<arith::SelectOp>(op)) {
    if (std::optional<int64_t> c = get(sel.getCondition()))
      x = get(*c ? sel.getTrueValue() : sel.getFalseValue());
  } else if (isa<arith::IndexCastOp, arith::IndexCastUIOp, arith::ExtUIOp,
                 arith::ExtSIOp>(op)) {
    x = get(op->getOperand(0));
  } else if (auto c = dyn_cast<arith::ConstantOp>(op)) {
    if (auto i = dyn_cast<IntegerAttr>(c.getValue()))
      x = toInt64(i.getValue());
  }
  // Results of narrower integer types wrap; a value they cannot hold is not
  // known.
  if (x) {
    if (auto type = dyn_cast<IntegerType>(r.getType())) {
      unsigned width = type.getWidth();
      if (width == 1 ? (*x != 0 && *x != 1)
                     : width > 64 || (width < 64 && !llvm::isIntN(width, *x)))
        x = std::nullopt;
    } else if (!r.getType().isIndex()) {
      x = std::nullopt;
    }
  }
  set(r, x);
}

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

/// A barrier: its group and its index within the group.
using BarrierKey = std::pair<Value, int64_t>;
struct BarrierKeyLess {
  bool operator()(const BarrierKey &a, const BarrierKey &b) const {
    if (a.first != b.first)
      return a.first.getAsOpaquePointer() < b.first.getAsOpaquePointer();
    return a.second < b.second;
  }
};

static void printBarrier(llvm::raw_ostream &os, Value group, int64_t index) {
  os << "barrier " << index << " of ";
  group.printAsOperand(os, OpPrintingFlags());
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
// Transaction bytes
//===----------------------------------------------------------------------===//

/// The constant trip count of `loop`, if it has one.
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

/// The key of a barrier index within one block's scan: a constant, or the
/// SSA value itself.
struct IndexKey {
  Value value;
  std::optional<int64_t> constant;
  bool operator<(const IndexKey &o) const {
    if (constant.has_value() != o.constant.has_value())
      return constant.has_value();
    if (constant)
      return *constant < *o.constant;
    return value.getAsOpaquePointer() < o.value.getAsOpaquePointer();
  }
};

static IndexKey indexKey(Value index) {
  APInt c;
  if (matchPattern(index, m_ConstantInt(&c)))
    if (std::optional<int64_t> x = toInt64(c))
      return {Value(), *x};
  return {index, std::nullopt};
}

/// A load that completes on an mbarrier: a tile.copy_async load or a
/// tile.copy_im2col.
struct BarrierLoad {
  Operation *op = nullptr;
  Value group, index;
  int64_t bytes = 0;
  bool multicast = false;
};

static std::optional<BarrierLoad> getBarrierLoad(Operation *op) {
  if (auto copy = dyn_cast<CopyAsyncOp>(op)) {
    if (!copy.getBarrier())
      return std::nullopt;
    return BarrierLoad{op, copy.getBarrier(), copy.getBarrierIndex(),
                       copy.getTransactionBytes(),
                       static_cast<bool>(copy.getMulticastMask())};
  }
  if (auto im2col = dyn_cast<CopyIm2colOp>(op))
    return BarrierLoad{op, im2col.getBarrier(), im2col.getBarrierIndex(),
                       im2col.getTransactionBytes(), false};
  return std::nullopt;
}

/// The loads and announcements of one barrier in one phase of one block.
struct TxUnit {
  SmallVector<std::pair<BarrierLoad, int64_t>> loads; // load, times issued
  SmallVector<Operation *> expects; // nvgpu and tile arrive.expect_tx
  int64_t delivered = 0;
  int64_t announced = 0;
  bool announcedKnown = true;
  bool multicast = false;
};

/// Loads on `group` in issue loops: scf.for ops with constant trip counts
/// whose bodies hold only loads on `group` (and such loops) as its users.
/// Fails where something else in `loop` uses the group.
static LogicalResult
collectIssueLoop(scf::ForOp loop, Value group, int64_t times,
                 SmallVectorImpl<std::pair<BarrierLoad, int64_t>> &out) {
  std::optional<int64_t> trip = tripCount(loop);
  if (!trip)
    return failure();
  int64_t total;
  if (llvm::MulOverflow(times, *trip, total))
    return failure();
  for (Operation &op : loop.getBody()->without_terminator()) {
    if (std::optional<BarrierLoad> load = getBarrierLoad(&op)) {
      if (load->group == group)
        out.push_back({*load, total});
      continue;
    }
    if (auto inner = dyn_cast<scf::ForOp>(op)) {
      if (failed(collectIssueLoop(inner, group, total, out)))
        return failure();
      continue;
    }
    bool uses = false;
    op.walk([&](Operation *nested) {
      if (llvm::is_contained(nested->getOperands(), group))
        uses = true;
    });
    if (uses)
      return failure();
  }
  return success();
}

/// Scans `block` for the phases of the barriers of `group`, calling
/// `closeUnit(key, unit)` at the end of each phase (a wait on the barrier,
/// or the block's end). Fails where the block uses the group in a way the
/// scan cannot attribute (nested regions other than issue loops, unknown
/// barrier indices next to others).
static LogicalResult
scanPhases(Block &block, Value group,
           function_ref<void(const IndexKey &, TxUnit &)> closeUnit) {
  std::map<IndexKey, TxUnit> units;
  auto close = [&](const IndexKey &key) {
    auto it = units.find(key);
    if (it == units.end())
      return;
    closeUnit(key, it->second);
    units.erase(it);
  };
  // Keys that are not constants must be the only key of the block.
  SmallVector<IndexKey> keys;
  auto noteKey = [&](Value index) -> std::optional<IndexKey> {
    IndexKey key = indexKey(index);
    for (const IndexKey &k : keys)
      if (!(k < key) && !(key < k))
        return key;
    keys.push_back(key);
    if (keys.size() > 1 &&
        llvm::any_of(keys, [](const IndexKey &k) { return !k.constant; }))
      return std::nullopt;
    return key;
  };
  for (Operation &op : block) {
    if (std::optional<BarrierLoad> load = getBarrierLoad(&op)) {
      if (load->group != group)
        continue;
      std::optional<IndexKey> key = noteKey(load->index);
      if (!key)
        return failure();
      TxUnit &unit = units[*key];
      unit.loads.push_back({*load, 1});
      unit.multicast |= load->multicast;
      unit.delivered += load->bytes;
      continue;
    }
    if (auto expect = dyn_cast<nvgpu::MBarrierArriveExpectTxOp>(op)) {
      if (expect.getBarriers() != group)
        continue;
      std::optional<IndexKey> key = noteKey(expect.getMbarId());
      if (!key || expect.getPredicate())
        return failure();
      TxUnit &unit = units[*key];
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
      std::optional<IndexKey> key = noteKey(expect.getMbarId());
      if (!key)
        return failure();
      TxUnit &unit = units[*key];
      unit.expects.push_back(expect);
      unit.announcedKnown = false;
      continue;
    }
    if (auto wait = dyn_cast<nvgpu::MBarrierTryWaitParityOp>(op)) {
      if (wait.getBarriers() != group)
        continue;
      std::optional<IndexKey> key = noteKey(wait.getMbarId());
      if (!key)
        return failure();
      close(*key);
      continue;
    }
    if (auto loop = dyn_cast<scf::ForOp>(op)) {
      SmallVector<std::pair<BarrierLoad, int64_t>> loads;
      bool uses = false;
      loop.walk([&](Operation *nested) {
        if (llvm::is_contained(nested->getOperands(), group))
          uses = true;
      });
      if (!uses)
        continue;
      if (failed(collectIssueLoop(loop, group, 1, loads)))
        return failure();
      for (auto [load, times] : loads) {
        // A loop-variant index is not one barrier.
        if (!indexKey(load.index).constant &&
            !loop.isDefinedOutsideOfLoop(load.index))
          return failure();
        std::optional<IndexKey> key = noteKey(load.index);
        if (!key)
          return failure();
        TxUnit &unit = units[*key];
        unit.loads.push_back({load, times});
        unit.multicast |= load.multicast;
        int64_t bytes;
        if (llvm::MulOverflow(load.bytes, times, bytes) ||
            llvm::AddOverflow(unit.delivered, bytes, unit.delivered))
          return failure();
      }
      continue;
    }
    bool uses = false;
    op.walk([&](Operation *nested) {
      if (llvm::is_contained(nested->getOperands(), group))
        uses = true;
    });
    if (uses && op.getNumRegions() > 0)
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
        os << load.first.bytes;
      },
      " + ");
  os << ")";
}

static void printKey(llvm::raw_ostream &os, Value group, const IndexKey &key) {
  os << "barrier ";
  if (key.constant)
    os << *key.constant;
  else
    key.value.printAsOperand(os, OpPrintingFlags());
  os << " of ";
  group.printAsOperand(os, OpPrintingFlags());
}

/// Reports `async-tx-bytes` for the groups whose loads and announcements
/// all sit in one block.
static bool checkTransactionBytes(Operation *kernel) {
  bool ok = true;
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
      std::optional<BarrierLoad> load = getBarrierLoad(user);
      if (!load || load->group != group)
        continue;
      Operation *ancestor = block->findAncestorOpInBlock(*user);
      if (!ancestor || (ancestor != user && !isa<scf::ForOp>(ancestor)))
        return;
    }
    (void)scanPhases(*block, group, [&](const IndexKey &key, TxUnit &unit) {
      if (unit.expects.empty() || !unit.announcedKnown || unit.multicast ||
          unit.announced == unit.delivered)
        return;
      InFlightDiagnostic diag = unit.expects.back()->emitError();
      std::string text;
      llvm::raw_string_ostream os(text);
      os << "async-tx-bytes: arrive.expect_tx announces " << unit.announced
         << " bytes on ";
      printKey(os, group, key);
      os << ", but the " << unit.loads.size()
         << " load(s) signalling it in this phase deliver " << unit.delivered
         << " bytes";
      if (!unit.loads.empty()) {
        os << " ";
        describeLoads(unit, os);
      }
      diag << text;
      for (auto [load, times] : unit.loads)
        diag.attachNote(load.op->getLoc())
            << "this load delivers " << load.bytes << " bytes"
            << (times != 1 ? " per iteration" : "");
      ok = false;
    });
  });
  return ok;
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
  Value group;
  std::optional<int64_t> index;
  bool operator==(const PendingLoad &o) const {
    return access == o.access && group == o.group && index == o.index;
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
  /// Waits so far per barrier; a barrier absent here has seen none, unless
  /// it is in `unknownWaits`, its group in `unknownGroups`, or
  /// `allWaitsUnknown` holds.
  std::map<BarrierKey, int64_t, BarrierKeyLess> waits;
  std::set<BarrierKey, BarrierKeyLess> unknownWaits;
  llvm::SmallDenseSet<Value> unknownGroups;
  bool allWaitsUnknown = false;

  std::optional<int64_t> waitCount(Value group, int64_t index) const {
    BarrierKey key{group, index};
    if (allWaitsUnknown || unknownGroups.contains(group) ||
        unknownWaits.count(key))
      return std::nullopt;
    auto it = waits.find(key);
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
    std::set<BarrierKey, BarrierKeyLess> keys;
    for (auto &[k, v] : waits)
      keys.insert(k);
    for (auto &[k, v] : o.waits)
      keys.insert(k);
    for (const BarrierKey &k : keys) {
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
  void report(Operation *op, const Twine &text, Operation *noteOp,
              const Twine &note) {
    std::string message = text.str();
    std::string rule = message.substr(0, message.find(':'));
    if (!reported.insert({op, rule}).second)
      return;
    InFlightDiagnostic diag = op->emitError(message);
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
      llvm::raw_string_ostream os(barrier);
      if (load.index)
        printBarrier(os, load.group, *load.index);
      else {
        os << "its barrier in ";
        load.group.printAsOperand(os, OpPrintingFlags());
      }
      report(op,
             "async-load-wait: this " + what + " of shared bytes " +
                 rangeText(range) + " comes before any wait on " + barrier +
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
      report(op,
             "async-store-reuse: this write of shared bytes " +
                 rangeText(range) +
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
      report(op,
             "async-proxy-fence: this TMA store reads shared bytes " +
                 rangeText(range) + " that a generic write (" +
                 opLabel(write.op) + ") stored at bytes " +
                 rangeText(write.range) +
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
    state.loads.push_back({{op, range}, group, known.get(index)});
  }

  void wait(Value group, Value indexValue, std::optional<Value> parityValue,
            Operation *op, State &state) {
    std::optional<int64_t> index = known.get(indexValue);
    // A wait on this barrier completes its loads; a wait on another group's
    // barrier may order them through the threads that waited (a consumer's
    // release of a stage), so it ends them too.
    llvm::erase_if(state.loads, [&](const PendingLoad &load) {
      return load.group != group || !index || !load.index ||
             *load.index == *index;
    });
    if (!parityValue)
      return;
    if (!index) {
      state.unknownGroups.insert(group);
      return;
    }
    std::optional<int64_t> count = state.waitCount(group, *index);
    std::optional<int64_t> parity = known.get(*parityValue);
    BarrierKey key{group, *index};
    if (count && parity && *parity != *count % 2) {
      std::string text;
      llvm::raw_string_ostream os(text);
      os << "async-phase: waits for parity " << *parity << " of ";
      printBarrier(os, group, *index);
      os << ", but this thread has waited for " << *count
         << " completion(s) of it, so the phase to wait for has parity "
         << *count % 2;
      report(op, text, nullptr, "");
    }
    if (count)
      state.waits[key] = *count + 1;
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
    for (int64_t i = 0; i < iterations && state.reachable; ++i) {
      std::optional<int64_t> iv;
      int64_t offset, value;
      if (lb && step && !llvm::MulOverflow(i, *step, offset) &&
          !llvm::AddOverflow(*lb, offset, value))
        iv = value;
      known.set(loop.getInductionVar(), iv);
      for (BlockArgument arg : loop.getRegionIterArgs())
        known.set(arg, std::nullopt);
      walkBlock(*loop.getBody(), state);
      // With an unknown trip count, the loop may end after any iteration.
      if (!trip)
        exit.join(state);
    }
    if (complete) {
      exit = state;
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
      if (std::optional<int64_t> index = known.get(init.getMbarId())) {
        BarrierKey key{init.getBarriers(), *index};
        state.waits.erase(key);
        state.unknownWaits.erase(key);
      } else {
        state.unknownGroups.insert(init.getBarriers());
      }
      return;
    }
    if (isa<nvgpu::MBarrierArriveExpectTxOp, nvgpu::MBarrierArriveOp,
            nvgpu::MBarrierCreateOp, ArriveExpectTxOp, ArenaViewOp, StageOp,
            gpu::BarrierOp, NVVM::BarrierOp>(op)) {
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
  std::set<std::pair<Operation *, std::string>> reported;
  llvm::SetVector<Operation *> sites;
};

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
      Walker walker(insertFences);
      walker.walkKernel(*body);
      ok &= !walker.hadError();
      for (Operation *write : walker.fenceSites())
        insertFenceAfter(write);
    }
    if (!ok)
      signalPassFailure();
  }
};

//===----------------------------------------------------------------------===//
// tile-materialize-expect-tx
//===----------------------------------------------------------------------===//

struct MaterializeExpectTxPass
    : public mlir::tile::impl::TileMaterializeExpectTxBase<
          MaterializeExpectTxPass> {
  void runOnOperation() override {
    // The blocks and groups that hold tile.arrive_expect_tx ops.
    llvm::MapVector<std::pair<Block *, Value>, bool> scans;
    getOperation()->walk([&](ArriveExpectTxOp op) {
      scans.insert({{op->getBlock(), op.getBarriers()}, true});
    });
    bool ok = true;
    for (auto &entry : scans) {
      Block *block = entry.first.first;
      Value group = entry.first.second;
      SmallVector<std::pair<ArriveExpectTxOp, int64_t>> rewrites;
      LogicalResult scanned =
          scanPhases(*block, group, [&](const IndexKey &key, TxUnit &unit) {
            for (Operation *op : unit.expects) {
              auto implicit = dyn_cast<ArriveExpectTxOp>(op);
              if (!implicit)
                continue;
              StringRef reason;
              if (unit.loads.empty())
                reason = "it covers no tile.copy_async or tile.copy_im2col "
                         "load";
              else if (unit.multicast)
                reason = "a load it covers multicasts, so the bytes each CTA "
                         "receives depend on the other CTAs' loads";
              else if (unit.expects.size() != 1)
                reason = "another arrive.expect_tx announces bytes in the "
                         "same phase";
              if (!reason.empty()) {
                std::string text;
                llvm::raw_string_ostream os(text);
                os << "async-tx-bytes: cannot derive the bytes to expect on ";
                printKey(os, group, key);
                os << ": " << reason;
                implicit.emitError(text);
                ok = false;
                continue;
              }
              rewrites.push_back({implicit, unit.delivered});
            }
          });
      if (failed(scanned)) {
        for (Operation &op : *block)
          if (auto implicit = dyn_cast<ArriveExpectTxOp>(op))
            if (implicit.getBarriers() == group) {
              implicit.emitError(
                  "async-tx-bytes: cannot derive the bytes to expect: the "
                  "loads on this barrier group are not all in this block (or "
                  "in issue loops with constant trip counts in it), or their "
                  "barrier indices cannot be told apart");
              ok = false;
            }
        continue;
      }
      for (auto [op, bytes] : rewrites) {
        OpBuilder b(op);
        Value count =
            arith::ConstantIndexOp::create(b, op.getLoc(), bytes).getResult();
        nvgpu::MBarrierArriveExpectTxOp::create(
            b, op.getLoc(), op.getBarriers(), count, op.getMbarId(), Value());
        op.erase();
      }
    }
    if (!ok)
      signalPassFailure();
  }
};

} // namespace
