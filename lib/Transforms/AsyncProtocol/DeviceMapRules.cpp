//===- DeviceMapRules.cpp - Fences and copies in flight of device maps ----===//

#include "DeviceMapRules.h"
#include "BarrierIdentity.h"
#include "KnownValues.h"
#include "PositionDependence.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "tile/Dialect/Tile/IR/RuleDiagnostic.h"
#include "tile/Dialect/Tile/IR/TileOps.h"
#include "llvm/ADT/DenseMap.h"
#include <set>
#include <string>

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::async_protocol;

namespace {

/// The state of a map's slot, best first: the join of two paths is the
/// later one. `Unknown` (a region op the walk does not follow touched the
/// map) is above all, so that nothing is reported from it.
enum class Slot : uint8_t { Acquired, Released, Updated, Unset, Unknown };

/// A store through a map, pending until a bulk_wait_group retires its group:
/// `newer` is the number of groups committed after its own on the path with
/// the fewest (-1: not committed yet), saturating at kMaxNewer.
struct PendingStore {
  Operation *op;
  unsigned map;
  int newer;
  bool operator==(const PendingStore &o) const {
    return op == o.op && map == o.map && newer == o.newer;
  }
};

/// A load through a map, pending until a wait on its barrier.
struct PendingLoad {
  Operation *op;
  unsigned map;
  BarrierIdentity barrier;
  bool operator==(const PendingLoad &o) const {
    return op == o.op && map == o.map && barrier == o.barrier;
  }
};

constexpr int kMaxNewer = 16;
/// Fixpoint rounds per loop; the lattice is far lower (4 slot states, a
/// bounded count per store), so this only guards against surprises.
constexpr int kMaxRounds = 64;

template <typename T>
static bool sameSet(ArrayRef<T> a, ArrayRef<T> b) {
  if (a.size() != b.size())
    return false;
  for (const T &x : a)
    if (!llvm::is_contained(b, x))
      return false;
  return true;
}

struct State {
  bool reachable = true;
  SmallVector<Slot> slots;
  /// One entry per store op.
  SmallVector<PendingStore> stores;
  SmallVector<PendingLoad> loads;

  void join(const State &o) {
    if (!o.reachable)
      return;
    if (!reachable) {
      *this = o;
      return;
    }
    for (auto [a, b] : llvm::zip_equal(slots, o.slots))
      a = std::max(a, b);
    for (const PendingStore &s : o.stores) {
      auto it = llvm::find_if(
          stores, [&](const PendingStore &x) { return x.op == s.op; });
      if (it == stores.end())
        stores.push_back(s);
      else
        it->newer = std::min(it->newer, s.newer);
    }
    for (const PendingLoad &l : o.loads)
      if (!llvm::is_contained(loads, l))
        loads.push_back(l);
  }

  bool operator==(const State &o) const {
    if (reachable != o.reachable)
      return false;
    if (!reachable)
      return true;
    return slots == o.slots && sameSet<PendingStore>(stores, o.stores) &&
           sameSet<PendingLoad>(loads, o.loads);
  }
  bool operator!=(const State &o) const { return !(*this == o); }
};

class DeviceMapWalker {
public:
  explicit DeviceMapWalker(Region &body) : body(body) {
    body.walk([&](DeviceMapOp op) {
      unsigned index = maps.size();
      maps.try_emplace(op.getMap(), index);
    });
  }

  bool run() {
    if (maps.empty())
      return true;
    State state;
    state.slots.assign(maps.size(), Slot::Unset);
    walkRegion(body, state);
    checkStagedUpdates();
    return !failed;
  }

private:
  std::optional<unsigned> mapOf(Value map) const {
    auto it = maps.find(map);
    if (it == maps.end())
      return std::nullopt;
    return it->second;
  }

  /// Reports `rule` at `op` once, outside the rounds of a loop's fixpoint;
  /// `text` follows the "<rule-id>: ".
  void report(Operation *op, ::tile::RuleId rule, const Twine &text,
              Operation *noteOp, const Twine &note) {
    if (quiet > 0 || stopped || !reported.insert({op, rule}).second)
      return;
    InFlightDiagnostic diag = emitRuleErrorAt(op, rule) << text;
    if (noteOp)
      diag.attachNote(noteOp->getLoc()) << note;
    failed = true;
  }

  //===--------------------------------------------------------------------===//
  // Control flow
  //===--------------------------------------------------------------------===//

  void walkRegion(Region &region, State &state) {
    if (region.empty())
      return;
    if (!region.hasOneBlock()) {
      forget(region, state);
      return;
    }
    for (Operation &op : region.front())
      walkOp(&op, state);
  }

  void forgetResults(Operation *op) {
    for (Value r : op->getResults())
      known.set(r, std::nullopt);
  }

  /// What `region` (walked as code the walk does not follow) may have done:
  /// the maps it updates, releases or acquires are unknown; the pending
  /// copies it may complete, or whose groups it may commit, are dropped.
  void forget(Region &region, State &state) {
    bool dropStores = false, dropLoads = false;
    region.walk([&](Operation *op) {
      Value map;
      if (auto update = dyn_cast<DeviceMapUpdateOp>(op))
        map = update.getMap();
      else if (auto release = dyn_cast<DeviceMapReleaseOp>(op))
        map = release.getMap();
      else if (auto acquire = dyn_cast<DeviceMapAcquireOp>(op))
        map = acquire.getMap();
      if (map)
        if (std::optional<unsigned> k = mapOf(map))
          state.slots[*k] = Slot::Unknown;
      if (isa<BulkCommitGroupOp, BulkWaitGroupOp, CallOpInterface>(op))
        dropStores = true;
      if (isa<nvgpu::MBarrierTryWaitParityOp, nvgpu::MBarrierTestWaitOp,
              CallOpInterface>(op))
        dropLoads = true;
    });
    if (dropStores)
      state.stores.clear();
    if (dropLoads)
      state.loads.clear();
  }

  void forget(Operation *op, State &state) {
    forgetResults(op);
    for (Region &region : op->getRegions())
      forget(region, state);
  }

  void walkIf(scf::IfOp ifOp, State &state) {
    forgetResults(ifOp);
    if (std::optional<int64_t> cond = known.get(ifOp.getCondition())) {
      walkRegion(*cond ? ifOp.getThenRegion() : ifOp.getElseRegion(), state);
      return;
    }
    State other = state;
    walkRegion(ifOp.getThenRegion(), state);
    walkRegion(ifOp.getElseRegion(), other);
    state.join(other);
  }

  /// Iterates `round` (head state in, back-edge state out) from `entry` to
  /// the fixpoint of the loop head, quietly; returns the head state.
  template <typename Round>
  State fixpoint(const State &entry, Round round) {
    State head = entry;
    ++quiet;
    for (int i = 0; i < kMaxRounds; ++i) {
      State next = entry;
      next.join(round(head));
      if (next == head)
        break;
      head = std::move(next);
    }
    --quiet;
    return head;
  }

  void walkFor(scf::ForOp loop, State &state) {
    forgetResults(loop);
    std::optional<int64_t> lb = known.get(loop.getLowerBound());
    std::optional<int64_t> ub = known.get(loop.getUpperBound());
    std::optional<int64_t> step = known.get(loop.getStep());
    std::optional<int64_t> trip;
    if (lb && ub && step)
      trip = tripOf(*lb, *ub, *step);
    if (trip && *trip == 0)
      return;
    auto round = [&](const State &head) {
      known.set(loop.getInductionVar(), std::nullopt);
      for (BlockArgument arg : loop.getRegionIterArgs())
        known.set(arg, std::nullopt);
      State out = head;
      walkRegion(loop.getRegion(), out);
      return out;
    };
    State head = fixpoint(state, round);
    State out = round(head);
    // A loop known to run leaves after a body; any other may not run.
    state = trip ? out : head;
  }

  void walkWhile(scf::WhileOp loop, State &state) {
    forgetResults(loop);
    auto forgetArgs = [&](Region &region) {
      for (BlockArgument arg : region.getArguments())
        known.set(arg, std::nullopt);
    };
    // The before region runs at the head, the after region is the back
    // edge; the loop leaves after a before region.
    State exit;
    auto round = [&](const State &head) {
      forgetArgs(loop.getBefore());
      exit = head;
      walkRegion(loop.getBefore(), exit);
      forgetArgs(loop.getAfter());
      State out = exit;
      walkRegion(loop.getAfter(), out);
      return out;
    };
    State head = fixpoint(state, round);
    round(head);
    state = exit;
  }

  /// device-map-stage: every lane of a whole warp reaches a staged update
  /// (tensormap.cp_fenceproxy is .sync.aligned).
  void checkStagedUpdates() {
    std::optional<PositionDependence> lanes;
    body.walk([&](DeviceMapUpdateOp op) {
      if (!op.isStaged())
        return;
      if (!lanes)
        lanes.emplace(body, Position::Lane);
      // The block's last warp is partial where its threads are not a
      // multiple of 32.
      std::optional<int64_t> threads = getStatedBlockThreads(op);
      if (threads && *threads % 32 != 0)
        report(op, ::tile::RuleId::DeviceMapStage,
               "the staged update runs in a block of " + Twine(*threads) +
                   " threads, not a multiple of 32: its last warp is partial, "
                   "and tensormap.cp_fenceproxy needs a whole warp",
               nullptr, "");
      if (Operation *control = lanes->divergentControl(op))
        report(op, ::tile::RuleId::DeviceMapStage,
               "the staged update sits under '" +
                   control->getName().getStringRef() +
                   "' whose control differs between the lanes of a warp; "
                   "every lane of the warp executes tensormap.cp_fenceproxy",
               control, "the control that splits the warp");
    });
  }

  //===--------------------------------------------------------------------===//
  // The ops
  //===--------------------------------------------------------------------===//

  void update(DeviceMapUpdateOp op, unsigned k, State &state) {
    std::string map = "device map #" + std::to_string(k);
    for (const PendingStore &store : state.stores) {
      if (store.map != k)
        continue;
      report(op, ::tile::RuleId::DeviceMapInFlight,
             map + " is updated while a store through it may be pending; "
                   "wait for it with tile.bulk_wait_group 0 before the update",
             store.op, "the store through the map");
      break;
    }
    for (const PendingLoad &load : state.loads) {
      if (load.map != k)
        continue;
      std::string barrier;
      llvm::raw_string_ostream(barrier) << load.barrier;
      report(op, ::tile::RuleId::DeviceMapInFlight,
             map +
                 " is updated while a load through it may be pending; "
                 "wait on " +
                 barrier + ", which completes the load, before the update",
             load.op, "the load through the map");
      break;
    }
    // A staged update's tensormap.cp_fenceproxy releases the map too.
    state.slots[k] = op.isStaged() ? Slot::Released : Slot::Updated;
  }

  void copyThrough(CopyAsyncOp copy, unsigned k, State &state) {
    std::string map = "device map #" + std::to_string(k);
    switch (state.slots[k]) {
    case Slot::Acquired:
    case Slot::Unknown:
      break;
    case Slot::Released:
      report(copy, ::tile::RuleId::DeviceMapFence,
             "the copy reads " + map +
                 " released but not acquired; its issuing thread needs "
                 "tile.device_map_acquire after the release",
             nullptr, "");
      break;
    case Slot::Updated:
      report(copy, ::tile::RuleId::DeviceMapFence,
             "the copy reads " + map +
                 " updated but not released; its issuing thread needs "
                 "tile.device_map_release, then tile.device_map_acquire, "
                 "after the update (tile-fence-device-maps inserts them)",
             nullptr, "");
      break;
    case Slot::Unset:
      report(copy, ::tile::RuleId::DeviceMapFence,
             "the copy reads " + map +
                 " never updated; its slot holds a tensor map only after "
                 "tile.device_map_update, tile.device_map_release and "
                 "tile.device_map_acquire",
             nullptr, "");
      break;
    }
    if (copy.getPrefetch())
      return;
    if (!copy.isLoad()) {
      auto it = llvm::find_if(state.stores, [&](const PendingStore &s) {
        return s.op == copy.getOperation();
      });
      if (it == state.stores.end())
        state.stores.push_back({copy, k, -1});
      else
        it->newer = -1;
      return;
    }
    if (!copy.getBarrier() || !copy.getBarrierIndex())
      return;
    PendingLoad load{
        copy, k,
        BarrierIdentity::get(copy.getBarrier(), copy.getBarrierIndex(), known)};
    if (!llvm::is_contained(state.loads, load))
      state.loads.push_back(load);
  }

  /// A wait on barrier `index` of `group` ends the pending loads as the
  /// walk's waits do (AsyncWalker.cpp): those on a barrier it may be, and
  /// those of other groups, which it may order through the threads that
  /// waited.
  void wait(Value group, Value index, State &state) {
    BarrierIdentity barrier = BarrierIdentity::get(group, index, known);
    llvm::erase_if(state.loads, [&](const PendingLoad &load) {
      return load.barrier.getGroup() != group || load.barrier.mayAlias(barrier);
    });
  }

  void walkOp(Operation *op, State &state) {
    if (!state.reachable)
      return;
    // Past the budget the walk stops following the kernel and says nothing
    // more.
    if (stopped || --budget < 0) {
      stopped = true;
      return;
    }
    if (auto loop = dyn_cast<scf::ForOp>(op))
      return walkFor(loop, state);
    if (auto loop = dyn_cast<scf::WhileOp>(op))
      return walkWhile(loop, state);
    if (auto ifOp = dyn_cast<scf::IfOp>(op))
      return walkIf(ifOp, state);
    if (isa<scf::YieldOp, scf::ConditionOp>(op))
      return;
    if (auto update = dyn_cast<DeviceMapUpdateOp>(op)) {
      if (std::optional<unsigned> k = mapOf(update.getMap()))
        this->update(update, *k, state);
      return;
    }
    if (auto release = dyn_cast<DeviceMapReleaseOp>(op)) {
      if (std::optional<unsigned> k = mapOf(release.getMap()))
        if (state.slots[*k] == Slot::Updated)
          state.slots[*k] = Slot::Released;
      return;
    }
    if (auto acquire = dyn_cast<DeviceMapAcquireOp>(op)) {
      if (std::optional<unsigned> k = mapOf(acquire.getMap()))
        if (state.slots[*k] == Slot::Released)
          state.slots[*k] = Slot::Acquired;
      return;
    }
    if (auto copy = dyn_cast<CopyAsyncOp>(op)) {
      if (Value map = copy.getMap())
        if (std::optional<unsigned> k = mapOf(map))
          copyThrough(copy, *k, state);
      return;
    }
    if (isa<BulkCommitGroupOp>(op)) {
      for (PendingStore &store : state.stores)
        store.newer = std::min(store.newer + 1, kMaxNewer);
      return;
    }
    if (auto waitGroup = dyn_cast<BulkWaitGroupOp>(op)) {
      // With `read`, the stores have read shared memory, not necessarily
      // their maps; their global writes (and map reads) may go on.
      if (waitGroup.getRead())
        return;
      int64_t keep = waitGroup.getGroup();
      llvm::erase_if(state.stores, [&](const PendingStore &store) {
        return store.newer >= keep;
      });
      return;
    }
    if (auto tryWait = dyn_cast<nvgpu::MBarrierTryWaitParityOp>(op))
      return wait(tryWait.getBarriers(), tryWait.getMbarId(), state);
    if (auto test = dyn_cast<nvgpu::MBarrierTestWaitOp>(op))
      return wait(test.getBarriers(), test.getMbarId(), state);
    if (isa<CallOpInterface>(op) || op->getNumRegions() > 0)
      return forget(op, state);
    known.evaluate(op);
  }

  Region &body;
  /// Each tile.device_map result and its slot number.
  llvm::SmallDenseMap<Value, unsigned> maps;
  KnownValues known;
  /// Greater than 0 while the walk iterates a loop to its fixpoint.
  int quiet = 0;
  bool failed = false;
  bool stopped = false;
  /// Ops the walk may visit (loop bodies once per round).
  int64_t budget = 1 << 20;
  std::set<std::pair<Operation *, ::tile::RuleId>> reported;
};

} // namespace

bool mlir::tile::async_protocol::checkDeviceMapRules(Region &body) {
  return DeviceMapWalker(body).run();
}
