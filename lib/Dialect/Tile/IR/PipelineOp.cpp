//===- PipelineOp.cpp - tile.pipeline: the construct's rules --------------===//
//
// What the user may write inside a tile.pipeline. The construct generates the
// protocol (tile-expand-pipelines), so these rules keep the user from writing
// any part of it by hand: no barrier, phase, byte count or wgmma wait, loads
// that fill only the stage they are given, consumers that only read.
//
//===----------------------------------------------------------------------===//

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "tile/Dialect/Tile/IR/RuleDiagnostic.h"
#include "tile/Dialect/Tile/IR/TileOps.h"
#include "tile/Dialect/Tile/IR/TileTypeUtils.h"
#include "tile/Support/Rules.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::tile;
using ::tile::RuleId;

/// Registers an SM holds for one block (sm_90), the setmaxnreg budget.
static constexpr int64_t kRegistersPerSm = 65536;
/// The consumer warpgroups a block holds beside the producer's.
static constexpr uint64_t kMaxConsumers =
    kMaxBlockThreads / kWarpgroupThreads - 1;

bool mlir::tile::isPipelineLoadOp(Operation *op) {
  for (Region *region = op->getParentRegion(); region;
       region = region->getParentRegion())
    if (auto pipeline = dyn_cast<PipelineOp>(region->getParentOp()))
      return region == &pipeline.getProduce() ||
             region == &pipeline.getTileLoads();
  return false;
}

int64_t PipelineOp::getStageCount() {
  if (getBuffers().empty())
    return 0;
  auto type = cast<MemRefType>(getBuffers().front().getType());
  return type.getRank() >= 1 ? type.getDimSize(0) : 0;
}

unsigned PipelineOp::getNumTileValues() {
  Region &iterations = getIterations();
  if (iterations.empty() || iterations.front().empty())
    return 0;
  auto yield = dyn_cast<YieldOp>(iterations.front().getTerminator());
  if (!yield || yield.getValues().size() < 2)
    return 0;
  return yield.getValues().size() - 2;
}

int64_t PipelineOp::getSpecializedBlockThreads() {
  return kWarpgroupThreads * (static_cast<int64_t>(getConsumers()) + 1);
}

std::optional<int64_t> PipelineOp::getStaticReleaseCount() {
  if (getConsumers() == 0)
    return std::nullopt;
  // wgmma reads complete for the whole warpgroup at its wait, so one thread
  // of each consumer warpgroup releases; generic reads, every thread. In
  // turns, one consumer reads each stage.
  int64_t readers =
      getSchedule() == ConsumerSchedule::Pingpong ? 1 : getConsumers();
  return getReads() == ConsumerReads::Wgmma ? readers
                                            : readers * kWarpgroupThreads;
}

/// Turns between consumers need tiles to take turns on and two consumers.
static LogicalResult verifySchedule(PipelineOp op) {
  if (op.getSchedule() != ConsumerSchedule::Pingpong)
    return success();
  if (!op.getTiles())
    return emitRuleError(op.getOperation(), RuleId::PipelineSchedule)
           << "schedule = pingpong takes the work tiles in turn between "
              "consumer warpgroups; it needs the persistent form (tiles)";
  if (op.getConsumers() < 2)
    return emitRuleError(op.getOperation(), RuleId::PipelineSchedule)
           << "schedule = pingpong takes the work tiles in turn between "
              "consumer warpgroups; this pipeline has consumers = "
           << op.getConsumers() << ", it needs consumers >= 2";
  return success();
}

static LogicalResult verifyPlacement(PipelineOp op) {
  Operation *parent = op->getParentOp();
  if (isa<gpu::GPUFuncOp, gpu::LaunchOp>(parent))
    return success();
  return emitRuleError(op.getOperation(), RuleId::PipelinePlacement)
         << "tile.pipeline must sit directly in a gpu.func or gpu.launch "
            "body, not in '"
         << parent->getName()
         << "'; every thread of the block initialises and uses its barriers";
}

/// The innermost gpu.func or gpu.launch at or around `op` (null outside one).
static Operation *getEnclosingKernel(Operation *op) {
  Operation *kernel = op;
  while (kernel && !isa<gpu::GPUFuncOp, gpu::LaunchOp>(kernel))
    kernel = kernel->getParentOp();
  return kernel;
}

/// A gpu.func's size hint as sizes; none without one.
static std::optional<SmallVector<int64_t, 3>>
getHintSizes(DenseI32ArrayAttr hint) {
  if (!hint)
    return std::nullopt;
  return llvm::map_to_vector<3>(hint.asArrayRef(),
                                [](int32_t d) { return int64_t(d); });
}

/// A gpu.launch's three sizes, where all are constants.
static std::optional<SmallVector<int64_t, 3>>
getConstantSizes(std::array<Value, 3> values) {
  SmallVector<int64_t, 3> size;
  for (Value v : values) {
    APInt c;
    if (!matchPattern(v, m_ConstantInt(&c)))
      return std::nullopt;
    size.push_back(c.getSExtValue());
  }
  return size;
}

std::optional<SmallVector<int64_t, 3>>
mlir::tile::getStatedBlockSize(Operation *op) {
  Operation *kernel = getEnclosingKernel(op);
  if (auto func = dyn_cast_or_null<gpu::GPUFuncOp>(kernel))
    return getHintSizes(func.getKnownBlockSizeAttr());
  if (auto launch = dyn_cast_or_null<gpu::LaunchOp>(kernel))
    return getConstantSizes({launch.getBlockSizeX(), launch.getBlockSizeY(),
                             launch.getBlockSizeZ()});
  return std::nullopt;
}

std::optional<int64_t> mlir::tile::getStatedBlockThreads(Operation *op) {
  std::optional<SmallVector<int64_t, 3>> size = getStatedBlockSize(op);
  if (!size)
    return std::nullopt;
  int64_t threads = 1;
  for (int64_t d : *size)
    if (llvm::MulOverflow(threads, d, threads))
      return std::nullopt;
  return threads;
}

static LogicalResult verifyThreads(PipelineOp op) {
  if (op.getConsumers() == 0)
    return success();
  // Bounding N first keeps every count below (registers, arrivals) small.
  if (op.getConsumers() > kMaxConsumers)
    return emitRuleError(op.getOperation(), RuleId::PipelineThreads)
           << "consumers = " << op.getConsumers() << " needs "
           << kWarpgroupThreads << " x (" << op.getConsumers()
           << " + 1) threads; a block holds at most " << kMaxBlockThreads
           << " (consumers <= " << kMaxConsumers << ")";
  std::optional<SmallVector<int64_t, 3>> size = getStatedBlockSize(op);
  if (!size)
    return success();
  std::optional<int64_t> threads = getStatedBlockThreads(op);
  int64_t want = op.getSpecializedBlockThreads();
  if (threads == want)
    return success();
  InFlightDiagnostic diag =
      emitRuleError(op.getOperation(), RuleId::PipelineThreads)
      << "the kernel's block size is ";
  llvm::interleave(*size, diag, " x ");
  if (!threads)
    diag << " (the product overflows)";
  else
    diag << " = " << *threads << " threads";
  return diag << "; consumers = " << op.getConsumers() << " needs "
              << kWarpgroupThreads << " x (" << op.getConsumers()
              << " + 1) = " << want << " (a producer warpgroup and "
              << op.getConsumers() << " consumer warpgroups)";
}

static LogicalResult verifyStageBuffers(PipelineOp op) {
  if (op.getBuffers().empty())
    return emitRuleError(op.getOperation(), RuleId::PipelineStages)
           << "a pipeline needs at least one stage buffer";
  int64_t stages = 0;
  for (auto [i, buffer] : llvm::enumerate(op.getBuffers())) {
    auto type = cast<MemRefType>(buffer.getType());
    if (getMemorySpaceKind(type) != MemorySpaceKind::Shared ||
        type.getRank() < 2)
      return emitRuleError(op.getOperation(), RuleId::PipelineStages)
             << "stage buffer " << i << " (" << type
             << ") must be a shared buffer of rank >= 2: its outermost "
                "dimension indexes the stages";
    if (i == 0)
      stages = type.getDimSize(0);
    else if (type.getDimSize(0) != stages)
      return emitRuleError(op.getOperation(), RuleId::PipelineStages)
             << "stage buffer " << i << " has " << type.getDimSize(0)
             << " stages, buffer 0 has " << stages
             << "; every buffer's outermost dimension is the stage count";
  }
  if (stages < 1)
    return emitRuleError(op.getOperation(), RuleId::PipelineStages)
           << "the stage count is " << stages << "; a pipeline needs >= 1";
  if (op.getInFlight() >= static_cast<uint64_t>(stages))
    return emitRuleError(op.getOperation(), RuleId::PipelineStages)
           << "in_flight = " << op.getInFlight() << " with " << stages
           << " stages; a consumer may keep at most S - 1 = " << stages - 1
           << " stages' reads in flight, or the producer would wait on itself";
  return success();
}

/// A cluster holds at most 16 CTAs (8 portably); a multicast mask has 16
/// bits.
static constexpr int64_t kMaxClusterSize = 16;

SmallVector<CopyAsyncOp> PipelineOp::getMulticastLoads() {
  SmallVector<CopyAsyncOp> loads;
  getProduce().walk([&](CopyAsyncOp copy) {
    if (copy.getMulticastMask())
      loads.push_back(copy);
  });
  return loads;
}

SmallVector<Value> PipelineOp::getTileLoadBuffers() {
  SmallVector<Value> buffers;
  getTileLoads().walk([&](CopyAsyncOp copy) {
    if (!copy.getPrefetch())
      buffers.push_back(copy.getDst());
  });
  return buffers;
}

bool PipelineOp::epilogueUsesTileLoadBuffers() {
  return llvm::any_of(getTileLoadBuffers(), [&](Value buffer) {
    return llvm::any_of(buffer.getUsers(), [&](Operation *user) {
      return getEpilogue().isAncestor(user->getParentRegion());
    });
  });
}

std::optional<SmallVector<int64_t, 3>>
mlir::tile::getStatedClusterSize(Operation *op) {
  Operation *kernel = getEnclosingKernel(op);
  if (auto func = dyn_cast_or_null<gpu::GPUFuncOp>(kernel))
    return getHintSizes(func.getKnownClusterSizeAttr());
  auto launch = dyn_cast_or_null<gpu::LaunchOp>(kernel);
  if (!launch)
    return std::nullopt;
  if (!launch.hasClusterSize())
    return SmallVector<int64_t, 3>{1, 1, 1};
  return getConstantSizes({launch.getClusterSizeX(), launch.getClusterSizeY(),
                           launch.getClusterSizeZ()});
}

/// Rule pipeline-cluster: the cluster the pipeline shares its multicast
/// operands across.
static LogicalResult verifyCluster(PipelineOp op) {
  int64_t c = op.getClusterSize();
  if (c < 1 || c > kMaxClusterSize)
    return emitRuleError(op.getOperation(), RuleId::PipelineCluster)
           << "cluster_size = " << c << "; a cluster holds 1 to "
           << kMaxClusterSize << " CTAs";
  SmallVector<CopyAsyncOp> multicast = op.getMulticastLoads();
  if (c > 1 && multicast.empty())
    return emitRuleError(op.getOperation(), RuleId::PipelineCluster)
           << "cluster_size = " << c
           << " but no load in produce multicasts; the CTAs of a cluster "
              "pipeline share the operands their multicast loads fill";
  for (CopyAsyncOp copy : multicast) {
    if (c == 1)
      return emitRuleError(copy, RuleId::PipelineCluster)
             << "a multicast load in a pipeline of cluster_size = 1; state "
                "the cluster the stage is shared across (cluster_size)";
    int64_t all = (int64_t(1) << c) - 1;
    APInt mask;
    if (!matchPattern(copy.getMulticastMask(), m_ConstantInt(&mask)))
      return emitRuleError(copy, RuleId::PipelineCluster)
             << "the multicast mask is not a constant; a pipeline load "
                "multicasts to every CTA of the cluster (mask "
             << all << ")";
    if (int64_t m = mask.getZExtValue(); m != all)
      return emitRuleError(copy, RuleId::PipelineCluster)
             << "multicast mask " << m << " does not name every CTA of a "
             << "cluster of " << c << " (mask " << all
             << "); each CTA issues one slice of the shared stage";
    for (auto [side, sizes] :
         {std::pair<StringRef, ArrayRef<int64_t>>{"shared", copy.getDstSizes()},
          {"global", copy.getSrcSizes()}}) {
      if (!sizes.empty() && sizes.front() % c == 0)
        continue;
      InFlightDiagnostic diag = emitRuleError(copy, RuleId::PipelineCluster)
                                << "the multicast load's " << side << " box [";
      llvm::interleaveComma(sizes, diag);
      return diag << "] has outermost size "
                  << (sizes.empty() ? 0 : sizes.front())
                  << ", not a multiple of cluster_size = " << c
                  << "; each CTA of the cluster issues one of " << c
                  << " equal slices";
    }
  }
  std::optional<SmallVector<int64_t, 3>> stated = getStatedClusterSize(op);
  if (!stated)
    return success();
  int64_t ctas = 1;
  for (int64_t d : *stated)
    if (llvm::MulOverflow(ctas, d, ctas))
      ctas = -1;
  if (ctas == c)
    return success();
  InFlightDiagnostic diag =
      emitRuleError(op.getOperation(), RuleId::PipelineCluster)
      << "the kernel's cluster is ";
  llvm::interleave(*stated, diag, " x ");
  return diag << " CTAs; the pipeline's cluster_size is " << c;
}

static LogicalResult verifyRegisters(PipelineOp op) {
  std::optional<int64_t> producer = op.getProducerRegisters();
  std::optional<int64_t> consumer = op.getConsumerRegisters();
  if (!producer && !consumer)
    return success();
  if (!producer || !consumer)
    return emitRuleError(op.getOperation(), RuleId::PipelineRegisters)
           << "producer_registers and consumer_registers come together: "
              "the consumers take what the producer gives up";
  if (op.getConsumers() == 0)
    return emitRuleError(op.getOperation(), RuleId::PipelineRegisters)
           << "register reallocation needs specialized warpgroups "
              "(consumers >= 1)";
  for (auto [name, value] :
       {std::pair<StringRef, int64_t>{"producer_registers", *producer},
        {"consumer_registers", *consumer}})
    if (value < 24 || value > 256 || value % 8 != 0)
      return emitRuleError(op.getOperation(), RuleId::PipelineRegisters)
             << name << " = " << value
             << "; setmaxnreg takes a multiple of 8 in [24, 256]";
  // setmaxnreg moves registers within the CTA's pool: what the launch gave
  // its threads (ptxas's count at entry, the SM's registers over the
  // threads, in whole units of 8), not the SM's whole file. A request past
  // the pool never returns: the consumer that asks last waits forever.
  int64_t threads = kWarpgroupThreads * (1 + op.getConsumers());
  int64_t atEntry = kRegistersPerSm / threads / 8 * 8;
  int64_t pool = atEntry * threads;
  int64_t total =
      kWarpgroupThreads * (*producer + op.getConsumers() * *consumer);
  if (total > pool)
    return emitRuleError(op.getOperation(), RuleId::PipelineRegisters)
           << kWarpgroupThreads << " x (" << *producer << " + "
           << op.getConsumers() << " x " << *consumer << ") = " << total
           << " registers exceed the CTA's " << pool << " (" << threads
           << " threads of " << atEntry << " at entry)";
  return success();
}

/// Rule pipeline-iterations: the iterations are stated once, and per-tile
/// ranges only where the ring position can be carried from tile to tile.
static LogicalResult verifyIterations(PipelineOp op) {
  bool ranges = !op.getIterations().empty();
  if (ranges == bool(op.getCount()))
    return emitRuleError(op.getOperation(), RuleId::PipelineIterations)
           << (ranges ? "both (%count) and an iterations region; "
                      : "neither (%count) nor an iterations region; ")
           << "a pipeline states its iterations once";
  if (!ranges)
    return success();
  if (!op.getTiles())
    return emitRuleError(op.getOperation(), RuleId::PipelineIterations)
           << "an iterations region gives each work tile its own iterations; "
              "it needs tiles(%tiles) (without tiles, state (%count))";
  if (op.getConsumers() == 0)
    return emitRuleError(op.getOperation(), RuleId::PipelineIterations)
           << "an iterations region needs the warp-specialized form "
              "(consumers >= 1): the software-pipelined form's loads run "
              "ahead of the ring position's tile, which per-tile ranges "
              "leave unknown";
  return success();
}

LogicalResult PipelineOp::verify() {
  if (failed(verifyPlacement(*this)) || failed(verifyIterations(*this)) ||
      failed(verifyThreads(*this)) || failed(verifyStageBuffers(*this)) ||
      failed(verifyRegisters(*this)) || failed(verifySchedule(*this)))
    return failure();
  if (getReads() == ConsumerReads::Generic && getInFlight() != 0)
    return emitRuleError(getOperation(), RuleId::PipelineReads)
           << "in_flight = " << getInFlight()
           << " needs reads = wgmma; generic reads are complete at the end of "
              "the consume body";
  return success();
}

/// The arguments `region` must take: `expected`, each named for the message.
static LogicalResult
verifyArguments(PipelineOp op, Region &region, StringRef name,
                ArrayRef<std::pair<Type, StringRef>> expected) {
  Block &block = region.front();
  if (block.getNumArguments() != expected.size()) {
    InFlightDiagnostic diag =
        emitRuleError(op.getOperation(), RuleId::PipelineRegions)
        << name << " takes " << expected.size() << " argument(s) (";
    llvm::interleaveComma(expected, diag,
                          [&](const auto &want) { diag << want.second; });
    return diag << "), has " << block.getNumArguments();
  }
  for (auto [i, want] : llvm::enumerate(expected))
    if (block.getArgument(i).getType() != want.first)
      return emitRuleError(op.getOperation(), RuleId::PipelineRegions)
             << name << " argument " << i << " has type "
             << block.getArgument(i).getType() << "; expected " << want.first
             << " (" << want.second << ")";
  return success();
}

static LogicalResult verifyYield(PipelineOp op, Region &region, StringRef name,
                                 TypeRange expected) {
  auto yield = cast<YieldOp>(region.front().getTerminator());
  if (TypeRange(yield.getValues()) != expected)
    return emitRuleError(yield.getOperation(), RuleId::PipelineRegions)
           << name << " yields " << yield.getValues().size()
           << " value(s) of types (" << TypeRange(yield.getValues())
           << "); expected (" << expected << ")";
  return success();
}

static LogicalResult verifyRegionArguments(PipelineOp op) {
  Builder b(op.getContext());
  Type index = b.getIndexType();
  Block &produce = op.getProduce().front();
  unsigned lead = op.getIterationArgCount();
  StringRef leading = !op.getTiles() ? "the iteration"
                      : op.getNumTileValues()
                          ? "the tile, its values, the iteration"
                          : "the tile, the iteration";
  if (produce.getNumArguments() != op.getBuffers().size() + lead)
    return emitRuleError(op.getOperation(), RuleId::PipelineRegions)
           << "produce takes " << leading << " and one stage view per buffer ("
           << op.getBuffers().size() + lead << " arguments), has "
           << produce.getNumArguments();
  SmallVector<std::pair<Type, StringRef>> tileArg;
  if (op.getTiles())
    tileArg.push_back({index, "the tile"});
  tileArg.append(op.getNumTileValues(), {index, "a tile value"});
  SmallVector<std::pair<Type, StringRef>> produceArgs = tileArg;
  produceArgs.push_back({index, "the iteration"});
  for (auto [buffer, view] :
       llvm::zip(op.getBuffers(), produce.getArguments().drop_front(lead))) {
    auto viewType = dyn_cast<MemRefType>(view.getType());
    if (!viewType)
      return emitRuleError(op.getOperation(), RuleId::PipelineRegions)
             << "produce argument " << view.getArgNumber() << " has type "
             << view.getType() << "; expected a stage view of "
             << buffer.getType();
    if (failed(verifyStageView(op.getOperation(),
                               cast<MemRefType>(buffer.getType()), viewType)))
      return failure();
    produceArgs.push_back({viewType, "a stage view"});
  }
  SmallVector<std::pair<Type, StringRef>> consumeArgs = produceArgs;
  consumeArgs.push_back({index, "the consumer warpgroup's index"});
  SmallVector<std::pair<Type, StringRef>> epilogueArgs = tileArg;
  epilogueArgs.push_back({index, "the consumer warpgroup's index"});
  for (Type t : op.getInits().getTypes()) {
    consumeArgs.push_back({t, "a carried value"});
    epilogueArgs.push_back({t, "a carried value"});
  }
  if (failed(verifyArguments(op, op.getProduce(), "produce", produceArgs)) ||
      failed(verifyArguments(op, op.getConsume(), "consume", consumeArgs)) ||
      failed(verifyArguments(op, op.getEpilogue(), "epilogue", epilogueArgs)))
    return failure();
  if (!op.getTileLoads().empty() &&
      (failed(verifyArguments(op, op.getTileLoads(), "tile_loads", tileArg)) ||
       failed(verifyYield(op, op.getTileLoads(), "tile_loads", {}))))
    return failure();
  if (!op.getIterations().empty() &&
      (failed(verifyArguments(op, op.getIterations(), "iterations",
                              {{index, "the tile"}})) ||
       failed(
           verifyYield(op, op.getIterations(), "iterations",
                       SmallVector<Type>(2 + op.getNumTileValues(), index)))))
    return failure();
  return success(succeeded(verifyYield(op, op.getProduce(), "produce", {})) &&
                 succeeded(verifyYield(op, op.getConsume(), "consume",
                                       op.getInits().getTypes())) &&
                 succeeded(verifyYield(op, op.getEpilogue(), "epilogue", {})));
}

/// Whether `user` writes the buffer `view`: the tile copies declare no memory
/// effects, so their destinations are read off the op.
static bool writesView(Operation *user, Value view) {
  if (auto copy = dyn_cast<CopyAsyncOp>(user))
    return copy.getDst() == view;
  if (auto copy = dyn_cast<CopyOp>(user))
    return copy.getDst() == view;
  if (auto copy = dyn_cast<CopyIm2colOp>(user))
    return copy.getDst() == view;
  return hasEffect<MemoryEffects::Write>(user, view);
}

/// Ops that are part of the protocol the construct generates. A wgmma wait
/// in `consume` or `epilogue` is the body's own: it orders the body's wgmma
/// results before it reads them (attention's S before its softmax), and
/// since it only completes groups, the release the construct generates after
/// `consume` stays sound. In `produce` it has no wgmma to wait for.
static bool isProtocolOp(PipelineOp pipeline, Operation *op) {
  if (isa<NVVM::WgmmaWaitGroupSyncOp>(op))
    return pipeline.getProduce().isAncestor(op->getParentRegion());
  return op->getName().getStringRef().starts_with("nvgpu.mbarrier.") ||
         isa<ArriveExpectTxOp, ArriveRemoteOp, NVVM::ClusterArriveOp,
             NVVM::ClusterArriveRelaxedOp, NVVM::ClusterWaitOp>(op);
}

static LogicalResult verifyNoHandWrittenProtocol(PipelineOp op) {
  WalkResult result = op->walk([&](Operation *inner) {
    if (inner == op.getOperation() || !isProtocolOp(op, inner))
      return WalkResult::advance();
    emitRuleError(inner, RuleId::PipelineProtocol)
        << "'" << inner->getName()
        << "' inside tile.pipeline; the pipeline generates its barriers, "
           "phases, byte counts and wgmma waits";
    return WalkResult::interrupt();
  });
  return failure(result.wasInterrupted());
}

static LogicalResult verifyProduceCopies(PipelineOp op) {
  Block &produce = op.getProduce().front();
  auto isStageView = [&](Value v) {
    auto arg = dyn_cast<BlockArgument>(v);
    return arg && arg.getOwner() == &produce &&
           arg.getArgNumber() >= op.getIterationArgCount();
  };
  int64_t loads = 0;
  WalkResult result = op.getProduce().walk([&](Operation *inner) {
    if (isa<CopyIm2colOp>(inner)) {
      emitRuleError(inner, RuleId::PipelineCopy)
          << "tile.copy_im2col in produce is not supported: a pipeline's "
             "loads are tile.copy_async loads";
      return WalkResult::interrupt();
    }
    auto copy = dyn_cast<CopyAsyncOp>(inner);
    if (!copy) {
      // Anything else that writes a stage would need a proxy fence before
      // the TMA's next write, and races with the consumers' reads.
      for (Value v :
           produce.getArguments().drop_front(op.getIterationArgCount()))
        if (writesView(inner, v)) {
          emitRuleError(inner, RuleId::PipelineCopy)
              << "'" << inner->getName() << "' writes stage view "
              << cast<BlockArgument>(v).getArgNumber() -
                     op.getIterationArgCount()
              << " in produce; only tile.copy_async loads fill a stage";
          return WalkResult::interrupt();
        }
      return WalkResult::advance();
    }
    auto dst = cast<MemRefType>(copy.getDst().getType());
    auto src = cast<MemRefType>(copy.getSrc().getType());
    bool load = getMemorySpaceKind(dst) == MemorySpaceKind::Shared &&
                getMemorySpaceKind(src) == MemorySpaceKind::Global;
    auto fail = [&](StringRef why) {
      emitRuleError(inner, RuleId::PipelineCopy) << why;
      return WalkResult::interrupt();
    };
    if (!load)
      return fail("produce issues only loads (global to shared); a store "
                  "belongs in consume or epilogue");
    if (copy.getPrefetch())
      return fail("a prefetch fills no stage; issue it before the pipeline "
                  "or, for a tile's buffers, in tile_loads");
    if (!isStageView(copy.getDst()))
      return fail("produce copies into a buffer that is not one of its stage "
                  "views; a pipeline load fills the stage it is given");
    if (copy.getBarrier())
      return fail("a pipeline load names no barrier; the construct completes "
                  "it on the stage's full barrier");
    ++loads;
    return WalkResult::advance();
  });
  if (result.wasInterrupted())
    return failure();
  if (loads == 0)
    return emitRuleError(op.getOperation(), RuleId::PipelineCopy)
           << "produce issues no tile.copy_async load; a stage's full barrier "
              "would never complete";
  return success();
}

static LogicalResult verifyConsumeReadsOnly(PipelineOp op) {
  Block &consume = op.getConsume().front();
  unsigned views = op.getBuffers().size();
  for (unsigned i = 0; i < views; ++i) {
    Value view = consume.getArgument(op.getIterationArgCount() + i);
    for (Operation *user : view.getUsers()) {
      if (writesView(user, view))
        return emitRuleError(user, RuleId::PipelineStageWrite)
               << "consume writes stage view " << i << " ('" << user->getName()
               << "'); the next round's load overwrites it concurrently";
    }
  }
  return success();
}

/// Whether `op` (with what it contains) at most reads memory.
static bool onlyReads(Operation *op) {
  std::optional<SmallVector<MemoryEffects::EffectInstance>> effects =
      getEffectsRecursively(op);
  return effects && llvm::all_of(*effects, [](const auto &effect) {
           return isa<MemoryEffects::Read>(effect.getEffect());
         });
}

/// The iterations region runs in the producer and in every consumer: ops
/// that at most read memory give all of them the same ranges and values.
static LogicalResult verifyIterationsReadOnly(PipelineOp op) {
  if (op.getIterations().empty())
    return success();
  for (Operation &inner : op.getIterations().front().without_terminator())
    if (!onlyReads(&inner))
      return emitRuleError(&inner, RuleId::PipelineIterations)
             << "'" << inner.getName()
             << "' in the iterations region; the producer and every "
                "consumer evaluate it, so it computes the range and the "
                "tile's values with no memory effect but reads";
  return success();
}

/// The stage buffer `v` is, or views (tile.stage), if any.
static std::optional<unsigned> stageBufferOf(PipelineOp op, Value v) {
  if (auto stage = v.getDefiningOp<StageOp>())
    v = stage.getSource();
  for (auto [i, buffer] : llvm::enumerate(op.getBuffers()))
    if (buffer == v)
      return i;
  return std::nullopt;
}

/// tile_loads: a persistent, warp-specialized, cooperative pipeline's loads
/// of the buffers its consumers read for a whole tile, and nothing else
/// that writes memory.
static LogicalResult verifyTileLoads(PipelineOp op) {
  Region &region = op.getTileLoads();
  if (region.empty())
    return success();
  auto fail = [&](Operation *at) {
    return emitRuleError(at, RuleId::PipelineTileLoads);
  };
  if (!op.getTiles() || op.getConsumers() == 0 ||
      op.getSchedule() != ConsumerSchedule::Cooperative)
    return fail(op.getOperation())
           << "tile_loads loads a tile's buffers once for every consumer: it "
              "needs the persistent (tiles), warp-specialized (consumers >= "
              "1) form with every consumer on every tile (schedule = "
              "cooperative)";
  int64_t loads = 0;
  for (Operation &inner : region.front().without_terminator()) {
    auto copy = dyn_cast<CopyAsyncOp>(inner);
    if (!copy) {
      if (!onlyReads(&inner))
        return fail(&inner) << "'" << inner.getName()
                            << "' writes memory in tile_loads; only its "
                               "tile.copy_async loads fill the tile's buffers";
      continue;
    }
    auto dst = cast<MemRefType>(copy.getDst().getType());
    auto src = cast<MemRefType>(copy.getSrc().getType());
    if (getMemorySpaceKind(dst) != MemorySpaceKind::Shared ||
        getMemorySpaceKind(src) != MemorySpaceKind::Global)
      return fail(&inner) << "tile_loads issues only loads (global to shared)";
    // A prefetch warms L2 for a later tile (the next tile's rows): it fills
    // no buffer and completes on no barrier.
    if (copy.getPrefetch())
      continue;
    if (std::optional<unsigned> stage = stageBufferOf(op, copy.getDst()))
      return fail(&inner) << "tile_loads loads into stage buffer " << *stage
                          << "; a tile's buffers are loaded once per tile, a "
                             "stage's in produce";
    if (copy.getBarrier())
      return fail(&inner) << "a tile load names no barrier; the construct "
                             "completes it on the tile's full barrier";
    if (copy.getMulticastMask())
      return fail(&inner) << "a tile load multicasts nothing; each CTA loads "
                             "its own tile's buffers";
    ++loads;
  }
  if (loads == 0)
    return fail(op.getOperation())
           << "tile_loads issues no tile.copy_async load; the tile's full "
              "barrier would never complete";
  return success();
}

/// Rule pipeline-read-lags: a lag per stage buffer, in the one-tile
/// warp-specialized form, each holding fewer stages than the ring has.
static LogicalResult verifyReadLags(PipelineOp op) {
  std::optional<ArrayRef<int64_t>> lags = op.getReadLags();
  if (!lags)
    return success();
  auto fail = [](Operation *at) {
    return emitRuleError(at, RuleId::PipelineReadLags);
  };
  if (lags->size() != op.getBuffers().size())
    return fail(op) << "read_lags has " << lags->size() << " entries for "
                    << op.getBuffers().size()
                    << " stage buffers; it gives each stage buffer its lag";
  if (op.getConsumers() == 0)
    return fail(op) << "read_lags needs the warp-specialized form (consumers "
                       ">= 1); the software-pipelined form refills a stage "
                       "as a whole";
  if (op.getSchedule() == ConsumerSchedule::Pingpong)
    return fail(op) << "read_lags is not supported with schedule = pingpong: "
                       "a consumer passes the turn on before its epilogue, "
                       "which waits for the lagging buffers' last stages";
  int64_t stages = op.getStageCount();
  int64_t inFlight = op.getInFlight();
  for (auto [i, lag] : llvm::enumerate(*lags)) {
    if (lag < 0)
      return fail(op) << "read_lags[" << i << "] = " << lag
                      << " is negative; consume(k) reads iterations at or "
                         "before k";
    if (lag + inFlight >= stages)
      return fail(op) << "read_lags[" << i << "] = " << lag
                      << " with in_flight = " << inFlight << " holds "
                      << lag + inFlight << " + 1 stages of buffer " << i
                      << ", but there are " << stages
                      << "; lag + in_flight must be below the stage count, or "
                         "the producer would wait for a stage no consumer "
                         "releases";
  }
  return success();
}

/// Rule pipeline-held-stage with read_lags: each buffer holds its own
/// iterations (lag l and in_flight F: k - l - F to k - l in consume, the
/// tile's last l + F in the epilogue), so the stage is held only as a view
/// of buffers that hold it.
static LogicalResult verifyLaggedHeldStage(HeldStageOp held,
                                           PipelineOp pipeline,
                                           ArrayRef<int64_t> lags,
                                           bool inConsume) {
  uint64_t back = held.getBack(), inFlight = pipeline.getInFlight();
  for (Operation *user : held->getUsers()) {
    auto view = dyn_cast<StageOp>(user);
    OperandRange buffers = pipeline.getBuffers();
    auto at = view ? llvm::find(buffers, view.getSource()) : buffers.end();
    if (at == buffers.end())
      return emitRuleError(held.getOperation(), RuleId::PipelineHeldStage)
             << "with read_lags each stage buffer holds its own iterations, "
                "so a held stage is used only as a tile.stage view of a "
                "stage buffer; '"
             << user->getName() << "' uses it";
    unsigned buffer = at - buffers.begin();
    // A lag per buffer is the pipeline's rule (pipeline-read-lags), checked
    // after its regions' ops.
    if (buffer >= lags.size())
      continue;
    uint64_t lag = lags[buffer];
    uint64_t first = inConsume ? lag : 1, last = lag + inFlight;
    if (back >= first && back <= last)
      continue;
    InFlightDiagnostic diag =
        emitRuleError(held.getOperation(), RuleId::PipelineHeldStage)
        << "tile.held_stage " << back << " views stage buffer " << buffer;
    if (inConsume)
      return diag << " at iteration k - " << back << ", but with read lag "
                  << lag << " and in_flight = " << inFlight
                  << " the consumer holds only its iterations k - " << last
                  << " to k - " << lag;
    return diag << " at the tile's iteration count - " << back
                << ", but with read lag " << lag
                << " and in_flight = " << inFlight
                << " the epilogue holds only its last " << last;
  }
  return success();
}

/// Rule pipeline-held-stage: a stage the consumer still holds, in consume
/// (the current iteration's and the in_flight before it) or in epilogue
/// (the tile's last in_flight iterations').
LogicalResult HeldStageOp::verify() {
  auto pipeline = (*this)->getParentOfType<PipelineOp>();
  Region *region = (*this)->getParentRegion();
  bool inConsume = pipeline && pipeline.getConsume().isAncestor(region);
  bool inEpilogue = pipeline && pipeline.getEpilogue().isAncestor(region);
  if (!inConsume && !inEpilogue)
    return emitRuleError(getOperation(), RuleId::PipelineHeldStage)
           << "tile.held_stage is used outside a pipeline's consume and "
              "epilogue regions; only there does the consumer hold stages";
  if (std::optional<ArrayRef<int64_t>> lags = pipeline.getReadLags())
    return verifyLaggedHeldStage(*this, pipeline, *lags, inConsume);
  uint64_t back = getBack(), inFlight = pipeline.getInFlight();
  if (inConsume && back > inFlight)
    return emitRuleError(getOperation(), RuleId::PipelineHeldStage)
           << "tile.held_stage " << back << " in consume names iteration k - "
           << back << ", but with in_flight = " << inFlight
           << " the consumer holds only iterations k - " << inFlight << " to k";
  if (inEpilogue && (back == 0 || back > inFlight))
    return emitRuleError(getOperation(), RuleId::PipelineHeldStage)
           << "tile.held_stage " << back
           << " in the epilogue names the tile's iteration count - " << back
           << ", but with in_flight = " << inFlight
           << " the epilogue holds only the last " << inFlight;
  return success();
}

/// Rule pipeline-tile-loads: the release of the tile_loads buffers, once,
/// directly in consume of a pipeline that has them and whose epilogue does
/// not use them.
LogicalResult ReleaseTileLoadsOp::verify() {
  auto fail = [&]() {
    return emitRuleError(getOperation(), RuleId::PipelineTileLoads);
  };
  auto pipeline = dyn_cast_or_null<PipelineOp>((*this)->getParentOp());
  if (!pipeline || (*this)->getParentRegion() != &pipeline.getConsume())
    return fail() << "tile.release_tile_loads marks where consume's reads of "
                     "the tile_loads buffers end: it belongs directly in a "
                     "pipeline's consume region (not nested), which runs it "
                     "once per iteration";
  if (pipeline.getTileLoads().empty())
    return fail() << "tile.release_tile_loads in a pipeline without "
                     "tile_loads: there are no tile buffers to release";
  auto releases = pipeline.getConsume().front().getOps<ReleaseTileLoadsOp>();
  if (std::next(releases.begin()) != releases.end())
    return fail() << "tile.release_tile_loads appears more than once in "
                     "consume; the buffers are released once per tile";
  if (pipeline.epilogueUsesTileLoadBuffers())
    return fail() << "tile.release_tile_loads releases the tile_loads "
                     "buffers in the tile's last iteration, but the epilogue "
                     "uses them";
  return success();
}

LogicalResult PipelineOp::verifyRegions() {
  if (failed(verifyRegionArguments(*this)) || failed(verifyTileLoads(*this)) ||
      failed(verifyIterationsReadOnly(*this)) ||
      failed(verifyNoHandWrittenProtocol(*this)) ||
      failed(verifyProduceCopies(*this)) || failed(verifyCluster(*this)) ||
      failed(verifyConsumeReadsOnly(*this)) || failed(verifyReadLags(*this)))
    return failure();
  return success();
}
