//===- ExpandPipelines.cpp - --tile-expand-pipelines ----------------------===//
//
// Writes out the protocol of every tile.pipeline: a full and an empty mbarrier
// per stage, their initialisation, the producer (elected thread, waits for a
// released stage, loads, announces the bytes), the consumers (wait for a full
// stage, consume, release it once its reads completed) and the epilogue. The
// byte count is left to tile.arrive_expect_tx, which tile-materialize-expect-tx
// computes from the loads' plans, so count and descriptor cannot disagree.
// With read_lags each lag's buffers have their own full and empty mbarriers,
// waited for, announced and released on their own.
//
//===----------------------------------------------------------------------===//

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "tile/Dialect/Tile/IR/DivisorAnalysis.h"
#include "tile/Dialect/Tile/IR/ThreadIndex.h"
#include "tile/Dialect/Tile/IR/TileOps.h"
#include "tile/Transforms/Passes.h"

namespace mlir::tile {
#define GEN_PASS_DEF_TILEEXPANDPIPELINES
#include "tile/Transforms/Passes.h.inc"
} // namespace mlir::tile

using namespace mlir;
using namespace mlir::tile;

namespace {

/// Polling budget of one mbarrier try_wait (the lowering retries until the
/// phase completes).
constexpr int64_t kWaitTicks = 10000000;

/// The highest of a CTA's 16 named barriers.
constexpr int64_t kLastNamedBarrier = 15;

/// One pipeline's expansion: the values its parts share.
class Expansion {
public:
  Expansion(PipelineOp op, OpBuilder &b)
      : op(op), loc(op.getLoc()), stages(op.getStageCount()),
        clusterSize(op.getClusterSize()),
        epilogueReadsStages(usedIn(op.getEpilogue(), op.getBuffers())),
        epilogueUsesTileBuffers(op.epilogueUsesTileLoadBuffers()),
        consumeReleasesTileBuffers(
            !op.getConsume().front().getOps<ReleaseTileLoadsOp>().empty()) {
    MLIRContext *ctx = op.getContext();
    // 32 bits hold 2S for any stage count shared memory can hold.
    ringType = IntegerType::get(ctx, 2 * stages <= INT32_MAX ? 32 : 64);
    carriesRing = op.getTiles() && op.getConsumers() > 0;
    auto space = gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup);
    // One full and one empty barrier per stage for each lag (read_lags;
    // without it, one lag of 0 for every buffer).
    std::optional<ArrayRef<int64_t>> stated = op.getReadLags();
    lagged = stated.has_value();
    SmallVector<int64_t> lags(op.getBuffers().size(), 0);
    if (lagged)
      lags.assign(stated->begin(), stated->end());
    for (int64_t lag : lags) {
      auto *at = llvm::find(groupLags, lag);
      bufferGroups.push_back(at - groupLags.begin());
      if (at != groupLags.end())
        continue;
      groupLags.push_back(lag);
      auto group = nvgpu::MBarrierGroupType::get(ctx, space, stages);
      fulls.push_back(nvgpu::MBarrierCreateOp::create(b, loc, group));
      empties.push_back(nvgpu::MBarrierCreateOp::create(b, loc, group));
    }
    full = fulls.front();
    empty = empties.front();
    if (!op.getTileLoads().empty()) {
      auto one = nvgpu::MBarrierGroupType::get(ctx, space, 1);
      tileFull = nvgpu::MBarrierCreateOp::create(b, loc, one);
      tileEmpty = nvgpu::MBarrierCreateOp::create(b, loc, one);
    }
    tid = emitLinearThreadId(b, loc);
    if (clusterSize > 1) {
      Value r = NVVM::ClusterId::create(b, loc, b.getI32Type());
      rank = arith::IndexCastOp::create(b, loc, b.getIndexType(), r);
    }
  }

  void expand(OpBuilder &b);

private:
  /// An index constant, made once at the start of the kernel's body.
  Value index(OpBuilder &, int64_t v) {
    Value &c = constants[v];
    if (!c) {
      OpBuilder top = OpBuilder::atBlockBegin(op->getBlock());
      c = arith::ConstantIndexOp::create(top, loc, v);
    }
    return c;
  }

  Value cmp(OpBuilder &b, arith::CmpIPredicate p, Value l, Value r) {
    return arith::CmpIOp::create(b, loc, p, l, r);
  }

  /// `v` (an i32) as lane 0 of the warp holds it: a value ptxas knows is
  /// warp-uniform.
  Value fromLane0(OpBuilder &b, Value v) {
    Value lane0 = arith::ConstantIntOp::create(b, loc, 0, 32);
    Value width = arith::ConstantIntOp::create(b, loc, 32, 32);
    return gpu::ShuffleOp::create(b, loc, v, lane0, width,
                                  gpu::ShuffleMode::IDX)
        .getShuffleResult();
  }

  /// The warpgroup index, made warp-uniform by a shuffle from lane 0 so that
  /// ptxas sees branches on it as uniform (wgmma must not diverge).
  Value uniformWarpgroup(OpBuilder &b) {
    Value wg = arith::DivUIOp::create(b, loc, tid, index(b, kWarpgroupThreads));
    Value wg32 = arith::IndexCastOp::create(b, loc, b.getI32Type(), wg);
    return arith::IndexCastOp::create(b, loc, b.getIndexType(),
                                      fromLane0(b, wg32));
  }

  /// An index that is the same in every thread, made warp-uniform for ptxas
  /// by shuffling its two 32-bit halves from lane 0. The consumers' tile
  /// loop needs it: its body diverges (the epilogue's elected store), after
  /// which ptxas no longer proves the tile uniform and computes the wgmma
  /// descriptors in vector registers, moving each to a uniform one before
  /// its wgmma (a fifth slower main loop on the H200).
  Value uniformIndex(OpBuilder &b, Value v) {
    Type i32 = b.getI32Type(), i64 = b.getI64Type();
    Value wide = arith::IndexCastUIOp::create(b, loc, i64, v);
    Value lo = arith::TruncIOp::create(b, loc, i32, wide);
    Value hi = arith::TruncIOp::create(
        b, loc, i32,
        arith::ShRUIOp::create(b, loc, wide,
                               arith::ConstantIntOp::create(b, loc, 32, 64)));
    Value lo64 = arith::ExtUIOp::create(b, loc, i64, fromLane0(b, lo));
    Value hi64 = arith::ShLIOp::create(
        b, loc, arith::ExtUIOp::create(b, loc, i64, fromLane0(b, hi)),
        arith::ConstantIntOp::create(b, loc, 32, 64));
    Value joined = arith::OrIOp::create(b, loc, hi64, lo64);
    return arith::IndexCastUIOp::create(b, loc, b.getIndexType(), joined);
  }

  /// `v` made warp-uniform, still a visible multiple of the divisor the
  /// IR proves for it (the shuffle hides it): v / d is shuffled, then
  /// multiplied by d, so a coordinate among a tile's values keeps the
  /// alignment the planner needs to prove.
  Value uniformKeepingDivisor(OpBuilder &b, Value v) {
    int64_t divisor = getKnownDivisor(v);
    if (divisor <= 1)
      return uniformIndex(b, v);
    Value quotient = arith::DivUIOp::create(b, loc, v, index(b, divisor));
    return arith::MulIOp::create(b, loc, uniformIndex(b, quotient),
                                 index(b, divisor));
  }

  Value stageOf(OpBuilder &b, Value k) {
    return arith::RemUIOp::create(b, loc, k, index(b, stages));
  }

  /// Waits for the completion of phase `(k / S - back) % 2` of `group[k % S]`.
  void waitPhase(OpBuilder &b, Value group, Value k, int64_t back) {
    Value round = arith::DivUIOp::create(b, loc, k, index(b, stages));
    Value parity = parityOf(b, round, back);
    nvgpu::MBarrierTryWaitParityOp::create(b, loc, group, parity,
                                           index(b, kWaitTicks), stageOf(b, k));
  }

  /// Waits for the completion of phase `(tile - back) % 2` of a tile
  /// barrier: each tile completes one phase.
  void waitTilePhase(OpBuilder &b, Value group, Value tile, int64_t back) {
    nvgpu::MBarrierTryWaitParityOp::create(b, loc, group,
                                           parityOf(b, tile, back),
                                           index(b, kWaitTicks), index(b, 0));
  }

  /// The parity of round `round - back`.
  Value parityOf(OpBuilder &b, Value round, int64_t back) {
    if (back)
      round = arith::SubIOp::create(b, loc, round, index(b, back));
    Value bit = arith::RemUIOp::create(b, loc, round, index(b, 2));
    return cmp(b, arith::CmpIPredicate::ne, bit, index(b, 0));
  }

  // The consumers' and the warp-specialized producer's loops carry their
  // ring position g as r = g mod 2S, a narrow integer in [0, 2S): stage
  // g % S is r mod S and round g / S has the parity of r >= S. g itself grows
  // with every iteration a persistent CTA runs, so it needs 64 bits, and
  // its stage and round a 64-bit division each (several registers that
  // live through the whole loop); r is exact for any number of iterations.

  /// A constant of the carried positions' type, made once at the start of
  /// the kernel's body.
  Value ringConstant(OpBuilder &, int64_t v) {
    Value &c = ringConstants[v];
    if (!c) {
      OpBuilder top = OpBuilder::atBlockBegin(op->getBlock());
      c = arith::ConstantIntOp::create(top, loc, ringType, v);
    }
    return c;
  }

  /// The stage of carried position r.
  Value ringStage(OpBuilder &b, Value r) {
    Value size = ringConstant(b, stages);
    Value second = cmp(b, arith::CmpIPredicate::uge, r, size);
    Value lower = arith::SubIOp::create(b, loc, r, size);
    Value stage = arith::SelectOp::create(b, loc, second, lower, r);
    return arith::IndexCastUIOp::create(b, loc, b.getIndexType(), stage);
  }

  /// The parity of round `g / S - back` for carried position r.
  Value ringParity(OpBuilder &b, Value r, int64_t back) {
    Value odd = cmp(b, arith::CmpIPredicate::uge, r, ringConstant(b, stages));
    if (back % 2 == 0)
      return odd;
    Value flip = arith::ConstantIntOp::create(b, loc, 1, 1);
    return arith::XOrIOp::create(b, loc, odd, flip);
  }

  /// Carried position r advanced by `n` positions, 0 <= n < 2S.
  Value ringAdvance(OpBuilder &b, Value r, Value n) {
    Value period = ringConstant(b, 2 * stages);
    Value sum = arith::AddIOp::create(b, loc, r, n);
    Value over = cmp(b, arith::CmpIPredicate::uge, sum, period);
    Value wrapped = arith::SubIOp::create(b, loc, sum, period);
    return arith::SelectOp::create(b, loc, over, wrapped, sum);
  }

  /// Carried position r advanced by `count` positions (an index, once per
  /// tile).
  Value ringAdvanceBy(OpBuilder &b, Value r, Value count) {
    Value rest = arith::RemUIOp::create(b, loc, count, index(b, 2 * stages));
    return ringAdvance(b, r,
                       arith::IndexCastUIOp::create(b, loc, ringType, rest));
  }

  /// Carried position r moved back by `n` positions, 0 < n <= 2S.
  Value ringBack(OpBuilder &b, Value r, int64_t n) {
    Value enough = cmp(b, arith::CmpIPredicate::uge, r, ringConstant(b, n));
    Value lower = arith::SubIOp::create(b, loc, r, ringConstant(b, n));
    Value raised =
        arith::AddIOp::create(b, loc, r, ringConstant(b, 2 * stages - n));
    return arith::SelectOp::create(b, loc, enough, lower, raised);
  }

  /// Carried position r of ring position g (an index).
  Value ringOf(OpBuilder &b, Value g) {
    Value rest = arith::RemUIOp::create(b, loc, g, index(b, 2 * stages));
    return arith::IndexCastUIOp::create(b, loc, ringType, rest);
  }

  /// Waits for the completion of phase `(g / S - back) % 2` of
  /// `group[g % S]`, g carried as r.
  void waitRing(OpBuilder &b, Value group, Value r, int64_t back) {
    nvgpu::MBarrierTryWaitParityOp::create(
        b, loc, group, ringParity(b, r, back), index(b, kWaitTicks),
        ringStage(b, r));
  }

  SmallVector<Value> stageViews(OpBuilder &b, Value slot) {
    return stageViews(b, SmallVector<Value>(op.getBuffers().size(), slot));
  }

  /// One view per stage buffer, of the stage `slots` gives for it.
  SmallVector<Value> stageViews(OpBuilder &b, ArrayRef<Value> slots) {
    SmallVector<Value> views;
    Block &produce = op.getProduce().front();
    for (auto [buffer, arg, slot] : llvm::zip_equal(
             op.getBuffers(),
             produce.getArguments().drop_front(op.getIterationArgCount()),
             slots))
      views.push_back(
          StageOp::create(b, loc, arg.getType(), buffer, slot).getResult());
    return views;
  }

  /// Clones `region`'s body with its arguments bound to `args`; returns the
  /// values its yield names.
  SmallVector<Value> inlineBody(OpBuilder &b, Region &region, ValueRange args,
                                function_ref<void(Operation *)> onClone = {},
                                const IRMapping *hoisted = nullptr) {
    Block &block = region.front();
    IRMapping map;
    if (hoisted)
      map = *hoisted;
    map.map(block.getArguments(), args);
    for (Operation &inner : block.without_terminator()) {
      if (hoisted && hoisted->contains(&inner))
        continue;
      Operation *clone = b.clone(inner, map);
      if (onClone)
        onClone(clone);
    }
    auto yield = cast<YieldOp>(block.getTerminator());
    return llvm::map_to_vector(yield.getValues(),
                               [&](Value v) { return map.lookupOrDefault(v); });
  }

  /// `offsets` with the outermost one moved by this CTA's slice of `size`.
  SmallVector<OpFoldResult>
  shiftOuter(OpBuilder &b, SmallVector<OpFoldResult> offsets, int64_t size) {
    Value shift =
        arith::MulIOp::create(b, loc, rank, index(b, size / clusterSize));
    OpFoldResult &outer = offsets.front();
    if (auto v = dyn_cast<Value>(outer))
      outer = arith::AddIOp::create(b, loc, v, shift).getResult();
    else if (int64_t c = cast<IntegerAttr>(cast<Attribute>(outer)).getInt())
      outer = arith::AddIOp::create(b, loc, shift, index(b, c)).getResult();
    else
      outer = shift;
    return offsets;
  }

  /// A multicast load becomes this CTA's slice of it: slice `rank` of the
  /// cluster's C equal slices along each side's outermost dimension (the
  /// verifier checked they divide), multicast to every CTA, so that each
  /// CTA's stage receives the whole box from the C slices.
  void sliceForRank(OpBuilder &b, CopyAsyncOp copy) {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(copy);
    auto slice = [&](ArrayRef<int64_t> statics, ValueRange dynamics,
                     ArrayRef<int64_t> sizes, MutableOperandRange operands,
                     auto setStatics, auto setSizes) {
      SmallVector<OpFoldResult> offsets =
          shiftOuter(b, getMixedValues(statics, dynamics, b), sizes.front());
      SmallVector<Value> newDynamics;
      SmallVector<int64_t> newStatics;
      dispatchIndexOpFoldResults(offsets, newDynamics, newStatics);
      SmallVector<int64_t> newSizes(sizes);
      newSizes.front() /= clusterSize;
      operands.assign(newDynamics);
      setStatics(newStatics);
      setSizes(newSizes);
    };
    slice(
        copy.getStaticDstOffsets(), copy.getDstOffsets(), copy.getDstSizes(),
        copy.getDstOffsetsMutable(),
        [&](ArrayRef<int64_t> v) { copy.setStaticDstOffsets(v); },
        [&](ArrayRef<int64_t> v) { copy.setDstSizes(v); });
    slice(
        copy.getStaticSrcOffsets(), copy.getSrcOffsets(), copy.getSrcSizes(),
        copy.getSrcOffsetsMutable(),
        [&](ArrayRef<int64_t> v) { copy.setStaticSrcOffsets(v); },
        [&](ArrayRef<int64_t> v) { copy.setSrcSizes(v); });
  }

  /// One work tile as the producer or a consumer walks it: the tile (null
  /// without tiles), the ring position of its first iteration (null: 0;
  /// with a count per tile, where the software-pipelined form refills by
  /// it), its iteration count, the iteration the regions see first (null:
  /// 0; an iterations region's `first`), the tile's values (the iterations
  /// region's after its range), the first iteration's carried position
  /// (ringStage), and the producer's stages no earlier iteration used,
  /// which it fills without waiting (null where no producer needs them).
  struct TileSpan {
    Value tile, base, count, first;
    SmallVector<Value> values;
    Value ring, fresh;
  };

  /// The regions' leading arguments: the tile and its values (persistent
  /// form), then `k` where given (the epilogue takes none).
  SmallVector<Value> leadingArgs(const TileSpan &span, Value k = Value()) {
    SmallVector<Value> args;
    if (span.tile)
      args.push_back(span.tile);
    llvm::append_range(args, span.values);
    if (k)
      args.push_back(k);
    return args;
  }

  /// The position in the one ring of stages all tiles share of the span's
  /// i-th iteration.
  Value ringIndex(OpBuilder &b, const TileSpan &span, Value i) {
    if (!span.base)
      return i;
    return arith::AddIOp::create(b, loc, span.base, i);
  }

  /// A loop's ring position: carried as r (carriesRing) or g itself.
  struct Position {
    Value value;
    bool carried;
  };

  /// The position of the span's i-th iteration: `carried` where the loop
  /// carries it, else g.
  Position positionOf(OpBuilder &b, const TileSpan &span, Value i,
                      Value carried) {
    if (carriesRing)
      return {carried, true};
    return {ringIndex(b, span, i), false};
  }

  Value stageAt(OpBuilder &b, Position p) {
    return p.carried ? ringStage(b, p.value) : stageOf(b, p.value);
  }

  void waitAt(OpBuilder &b, Value group, Position p, int64_t back) {
    if (p.carried)
      waitRing(b, group, p.value, back);
    else
      waitPhase(b, group, p.value, back);
  }

  /// Position p moved back by `n` positions, 0 < n <= 2S (g: g >= n).
  Position backBy(OpBuilder &b, Position p, int64_t n) {
    if (p.carried)
      return {ringBack(b, p.value, n), true};
    return {arith::SubIOp::create(b, loc, p.value, index(b, n)), false};
  }

  /// The iteration the regions see for the span's i-th one.
  Value iterationOf(OpBuilder &b, const TileSpan &span, Value i) {
    if (!span.first)
      return i;
    return arith::AddIOp::create(b, loc, span.first, i);
  }

  /// Tile t of a pipeline with a count per tile: its iterations start at
  /// ring position t x count.
  TileSpan fixedSpan(OpBuilder &b, Value tile) {
    if (!tile)
      return {Value(), Value(), op.getCount(), Value(), {}, Value(), Value()};
    Value base = arith::MulIOp::create(b, loc, tile, op.getCount());
    TileSpan span = {tile, base, op.getCount(), Value(), {}, Value(), Value()};
    if (carriesRing) {
      span.ring = ringOf(b, base);
      span.fresh = freshAfter(b, index(b, stages), base);
    }
    return span;
  }

  /// The stages of `fresh` that `count` more iterations leave unused.
  Value freshAfter(OpBuilder &b, Value fresh, Value count) {
    Value left = cmp(b, arith::CmpIPredicate::ugt, fresh, count);
    Value rest = arith::SubIOp::create(b, loc, fresh, count);
    return arith::SelectOp::create(b, loc, left, rest, index(b, 0));
  }

  /// Tile t of a pipeline with an iterations region, its first iteration at
  /// carried position `ring` with `fresh` stages unused: the region's
  /// [first, end), empty where end <= first, and its values (made
  /// warp-uniform where `uniform`).
  TileSpan rangedSpan(OpBuilder &b, Value tile, Value ring, Value fresh,
                      bool uniform) {
    SmallVector<Value> range = inlineBody(b, op.getIterations(), tile);
    Value some = cmp(b, arith::CmpIPredicate::ugt, range[1], range[0]);
    Value length = arith::SubIOp::create(b, loc, range[1], range[0]);
    Value count = arith::SelectOp::create(b, loc, some, length, index(b, 0));
    SmallVector<Value> values(llvm::drop_begin(range, 2));
    if (uniform)
      for (Value &v : values)
        v = uniformKeepingDivisor(b, v);
    return {tile, Value(), count, range[0], std::move(values), ring, fresh};
  }

  /// Walks the pipeline's tiles in order, calling `body` with each tile's
  /// span; with an iterations region the ring position of each tile's
  /// first iteration is carried from tile to tile (and, for the producer,
  /// the stages still unused). `uniform` makes the walk's indices
  /// warp-uniform (the consumers'). With `turn` (a consumer of a pingpong
  /// schedule), `body` runs for that consumer's tiles only: turn, turn + N,
  /// ... of N consumers; the tiles between still carry the ring position.
  void forEachTile(OpBuilder &b, bool uniform, Value turn, bool producer,
                   function_ref<void(OpBuilder &, const TileSpan &)> body) {
    bool ranged = !op.getIterations().empty();
    SmallVector<Value> inits;
    if (ranged) {
      inits.push_back(ringConstant(b, 0));
      if (producer)
        inits.push_back(index(b, stages));
    }
    // A fixed count places every tile in the ring by itself: the consumer's
    // loop steps over the others' tiles.
    Value start = index(b, 0), step = index(b, 1);
    if (turn && !ranged) {
      start = turn;
      step = index(b, op.getConsumers());
    }
    auto mineOnly = [&](OpBuilder &tb, Value tile, const TileSpan &span) {
      if (!turn || !ranged)
        return body(tb, span);
      Value slot =
          arith::RemUIOp::create(tb, loc, tile, index(tb, op.getConsumers()));
      Value mine = cmp(tb, arith::CmpIPredicate::eq, slot, turn);
      auto ifOp = scf::IfOp::create(tb, loc, mine, /*withElse=*/false);
      OpBuilder ib = OpBuilder::atBlockBegin(ifOp.thenBlock());
      body(ib, span);
    };
    scf::ForOp::create(
        b, loc, start, op.getTiles(), step, inits,
        [&](OpBuilder &tb, Location, Value tile, ValueRange carried) {
          if (uniform) {
            // The previous tile's epilogue may have diverged (an elected
            // store); the warp reconverges here.
            NVVM::SyncWarpOp::create(
                tb, loc, arith::ConstantIntOp::create(tb, loc, -1, 32));
            tile = uniformIndex(tb, tile);
          }
          if (!ranged) {
            mineOnly(tb, tile, fixedSpan(tb, tile));
            scf::YieldOp::create(tb, loc);
            return;
          }
          Value ring = uniform ? uniformRing(tb, carried[0]) : carried[0];
          Value fresh = producer ? carried[1] : Value();
          TileSpan span = rangedSpan(tb, tile, ring, fresh, uniform);
          mineOnly(tb, tile, span);
          SmallVector<Value> next = {ringAdvanceBy(tb, ring, span.count)};
          if (producer)
            next.push_back(freshAfter(tb, fresh, span.count));
          scf::YieldOp::create(tb, loc, next);
        });
  }

  /// A carried ring position made warp-uniform.
  Value uniformRing(OpBuilder &b, Value r) {
    if (ringType.getWidth() == 32)
      return fromLane0(b, r);
    Value wide = arith::IndexCastUIOp::create(b, loc, b.getIndexType(), r);
    return arith::IndexCastUIOp::create(b, loc, ringType,
                                        uniformIndex(b, wide));
  }

  /// Iteration k of tile t loads into stage `slot` (its ring position's),
  /// each lag group's loads completing on the group's full barrier, and
  /// announces each group's bytes right after its last load. With
  /// `awaitRelease` (read_lags), each group's stage is first waited for
  /// right before its first load, so that a group its consumers release
  /// early (attention's K) is not held back by one they release later (V);
  /// otherwise the caller waited for the whole stage.
  void
  emitProduce(OpBuilder &b, Value slot, const TileSpan &span, Value k,
              const IRMapping *hoisted = nullptr,
              function_ref<void(OpBuilder &, unsigned)> awaitRelease = {}) {
    SmallVector<Value> views = stageViews(b, slot);
    SmallVector<Value> args = leadingArgs(span, k);
    llvm::append_range(args, views);
    // Each group's first and last op of the inlined body that loads into it.
    SmallVector<Operation *> first(groupLags.size()), last(groupLags.size());
    inlineBody(
        b, op.getProduce(), args,
        [&](Operation *clone) {
          clone->walk([&](CopyAsyncOp copy) {
            // The verifier made every load's destination a stage view.
            unsigned group =
                bufferGroups[llvm::find(views, copy.getDst()) - views.begin()];
            copy.getBarrierMutable().assign(fulls[group]);
            copy.getBarrierIndexMutable().assign(slot);
            if (copy.getMulticastMask())
              sliceForRank(b, copy);
            if (!first[group])
              first[group] = clone;
            last[group] = clone;
          });
        },
        hoisted);
    for (unsigned group = 0; group < groupLags.size(); ++group) {
      // A group no load fills is announced at the end, where
      // tile-materialize-expect-tx reports that it covers no load.
      OpBuilder wb = b, ab = b;
      if (first[group]) {
        wb.setInsertionPoint(first[group]);
        ab.setInsertionPointAfter(last[group]);
      }
      if (awaitRelease)
        awaitRelease(wb, group);
      ArriveExpectTxOp::create(ab, loc, fulls[group], slot);
    }
  }

  /// The producer's tile loads of tile t: `tile_loads` with its loads
  /// completing on the tile's full barrier, the first of them once the
  /// previous tile's consumers released the buffers, then the arrival
  /// announcing their bytes. A prefetch before the first load does not wait:
  /// it warms L2 while the consumers still read the previous tile's rows.
  void emitTileLoads(OpBuilder &b, const TileSpan &span) {
    Value slot = index(b, 0);
    CopyAsyncOp firstLoad;
    inlineBody(b, op.getTileLoads(), leadingArgs(span), [&](Operation *clone) {
      clone->walk([&](CopyAsyncOp copy) {
        if (copy.getPrefetch())
          return;
        if (!firstLoad)
          firstLoad = copy;
        copy.getBarrierMutable().assign(tileFull);
        copy.getBarrierIndexMutable().assign(slot);
      });
    });
    // The verifier made tile_loads issue at least one load.
    OpBuilder ib(firstLoad);
    Value later = cmp(ib, arith::CmpIPredicate::ugt, span.tile, index(ib, 0));
    auto ifOp = scf::IfOp::create(ib, loc, later, /*withElse=*/false);
    OpBuilder wb = OpBuilder::atBlockBegin(ifOp.thenBlock());
    waitTilePhase(wb, tileEmpty, span.tile, /*back=*/1);
    ArriveExpectTxOp::create(b, loc, tileFull, slot);
  }

  /// Clones the ops of `produce` that depend on nothing but the tile
  /// (free of memory effects, their operands the tile or its values, values
  /// from outside the pipeline or other such ops) at `b`, where the tile's loop
  /// over its iterations is about to run at least once; `hoisted` maps them
  /// (and their results) for the inlined bodies, which then skip them. Per-tile
  /// work such as a tile scheduler's divisions then runs once per tile, not
  /// once per iteration on the producer's critical path. Only what the
  /// first iteration would compute anyway is computed, so nothing runs that
  /// the user's program would not.
  SmallVector<Operation *> tileInvariants() {
    Block &block = op.getProduce().front();
    llvm::SmallPtrSet<Operation *, 16> found;
    // The tile and its values lead produce's arguments; the iteration
    // follows them.
    unsigned perTile = op.getTiles() ? op.getIterationArgCount() - 1 : 0;
    auto invariant = [&](Value v) {
      if (auto arg = dyn_cast<BlockArgument>(v))
        return arg.getOwner() != &block || arg.getArgNumber() < perTile;
      Operation *def = v.getDefiningOp();
      return found.contains(def) || !op->isAncestor(def);
    };
    SmallVector<Operation *> ops;
    for (Operation &inner : block.without_terminator()) {
      // Constants are left where they are (canonicalization hoists them).
      if (inner.getNumRegions() || inner.getNumOperands() == 0 ||
          !isMemoryEffectFree(&inner) ||
          !llvm::all_of(inner.getOperands(), invariant))
        continue;
      found.insert(&inner);
      ops.push_back(&inner);
    }
    return ops;
  }

  void hoistTileInvariants(OpBuilder &b, const TileSpan &span,
                           ArrayRef<Operation *> invariants,
                           IRMapping &hoisted) {
    SmallVector<Value> perTile = leadingArgs(span);
    hoisted.map(
        op.getProduce().front().getArguments().take_front(perTile.size()),
        perTile);
    for (Operation *inner : invariants)
      hoisted.map(inner, b.clone(*inner, hoisted));
  }

  /// The producer of ring position g after the first round: the stage's
  /// previous round must have been released.
  void emitProduceAfterRelease(OpBuilder &b, Value g) {
    waitPhase(b, empty, g, /*back=*/1);
    emitProduceAt(b, g);
  }

  /// The producer of ring position g in the software-pipelined form (no
  /// iterations region, so no tile values): its tile and iteration are g's.
  void emitProduceAt(OpBuilder &b, Value g) {
    auto [tile, k] = tileAndIteration(b, g);
    TileSpan span;
    span.tile = tile;
    emitProduce(b, stageOf(b, g), span, k);
  }

  /// The tile and iteration of ring position g (g itself without tiles).
  std::pair<Value, Value> tileAndIteration(OpBuilder &b, Value g) {
    if (!op.getTiles())
      return {Value(), g};
    return {arith::DivUIOp::create(b, loc, g, op.getCount()),
            arith::RemUIOp::create(b, loc, g, op.getCount())};
  }

  /// The span's i-th iteration (at `pos`) of a consumer: wait for each lag
  /// group's stage, consume, and release each group's stage whose reads are
  /// now complete; the tile's last ones are released at its end
  /// (releaseTileTail). A group of lag l reads the span's iteration
  /// max(i - l, 0), whose full barrier it waits for where no earlier
  /// iteration did (the span's first at i = 0, i - l from i = l + 1: a
  /// thread waits once for each phase), and releases iteration
  /// i - l - in_flight. Without read_lags that is one group of lag 0: wait
  /// for iteration i, release i - in_flight. Returns the consume body's
  /// values, then, where the loop carries its position, the next
  /// iteration's.
  SmallVector<Value>
  emitConsume(OpBuilder &b, const TileSpan &span, Value i, Position pos,
              Value consumer, ValueRange carried, Value releases,
              function_ref<void(OpBuilder &, Value, Value)> refill) {
    SmallVector<Position> reads;
    for (auto [group, lag] : llvm::enumerate(groupLags)) {
      if (lag == 0) {
        waitAt(b, fulls[group], pos, /*back=*/0);
        reads.push_back(pos);
        continue;
      }
      // The span's iteration max(i - lag, 0): i - n for the largest n <= lag
      // with n <= i (a chain of selects from `pos`, so nothing but the
      // position lives through the loop).
      Position read = pos;
      for (int64_t n = 1; n <= lag; ++n) {
        Value reach = cmp(b, arith::CmpIPredicate::uge, i, index(b, n));
        read.value = arith::SelectOp::create(
            b, loc, reach, backBy(b, pos, n).value, read.value);
      }
      Value first = cmp(b, arith::CmpIPredicate::eq, i, index(b, 0));
      Value later = cmp(b, arith::CmpIPredicate::ugt, i, index(b, lag));
      auto ifOp =
          scf::IfOp::create(b, loc, arith::OrIOp::create(b, loc, first, later),
                            /*withElse=*/false);
      OpBuilder wb = OpBuilder::atBlockBegin(ifOp.thenBlock());
      waitAt(wb, fulls[group], read, /*back=*/0);
      reads.push_back(read);
    }
    SmallVector<Value> args = leadingArgs(span, iterationOf(b, span, i));
    SmallVector<Value> slots = llvm::map_to_vector(
        reads, [&](Position read) { return stageAt(b, read); });
    llvm::append_range(
        args, stageViews(b, llvm::map_to_vector(bufferGroups, [&](int64_t g) {
                           return slots[g];
                         })));
    args.push_back(consumer);
    llvm::append_range(args, carried);
    SmallVector<Value> next =
        inlineWithHeldStages(b, op.getConsume(), args, pos);
    if (consumeReleasesTileBuffers)
      releaseTileBuffersInLast(b.getInsertionBlock(), span, i);
    if (op.getReads() == ConsumerReads::Wgmma && !consumeEndsWaited())
      NVVM::WgmmaWaitGroupSyncOp::create(b, loc, op.getInFlight());
    for (unsigned group = 0; group < groupLags.size(); ++group) {
      // The position whose reads are complete now, from the span's
      // iteration `held` on (`started`).
      int64_t held = heldBy(group);
      Position done = pos;
      Value started;
      if (held > 0) {
        started = cmp(b, arith::CmpIPredicate::uge, i, index(b, held));
        done = backBy(b, pos, held);
      }
      Value ready = releases;
      if (started)
        ready = ready
                    ? arith::AndIOp::create(b, loc, ready, started).getResult()
                    : started;
      OpBuilder rb = b;
      if (ready) {
        auto ifOp = scf::IfOp::create(b, loc, ready, /*withElse=*/false);
        rb.setInsertionPointToStart(ifOp.thenBlock());
      }
      release(rb, stageAt(rb, done), group);
      // The software-pipelined form (never lagged) refills by g: it carries
      // no position.
      if (refill)
        refill(b, done.value, started);
    }
    if (pos.carried)
      next.push_back(ringAdvance(b, pos.value, ringConstant(b, 1)));
    return next;
  }

  /// The iterations a lag group holds after consuming one: its lag and
  /// in_flight.
  int64_t heldBy(unsigned group) { return groupLags[group] + op.getInFlight(); }

  /// Before the epilogue: each lag group's last l iterations of the tile
  /// that no consume waited for (its first was waited for at once; none
  /// without read_lags); `after` is the position after the tile's last.
  void waitLaggedTail(OpBuilder &b, Position after, Value count) {
    for (auto [group, lag] : llvm::enumerate(groupLags))
      for (int64_t back = 1; back <= lag; ++back) {
        Value exists = cmp(b, arith::CmpIPredicate::ugt, count, index(b, back));
        auto ifOp = scf::IfOp::create(b, loc, exists, /*withElse=*/false);
        OpBuilder ib = OpBuilder::atBlockBegin(ifOp.thenBlock());
        waitAt(ib, fulls[group], backBy(ib, after, back), /*back=*/0);
      }
  }

  /// Whether `consume` ends having waited until at most in_flight wgmma
  /// groups are pending (a wgmma wait with nothing after it that issues,
  /// commits or may hold wgmma work: a wgmma op, inline assembly, a call or
  /// a region). The wait the expansion would add is
  /// then redundant, and ptxas, which reads the last wait before the loop's
  /// back edge as the state there, would take it for groups still pending
  /// and inject a wait before their accumulators' next use (C7517).
  bool consumeEndsWaited() {
    Block &body = op.getConsume().front();
    for (Operation &inner : llvm::reverse(body.without_terminator())) {
      if (auto wait = dyn_cast<NVVM::WgmmaWaitGroupSyncOp>(inner))
        return wait.getGroup() <= op.getInFlight();
      if (inner.getNumRegions() ||
          isa<CallOpInterface, LLVM::InlineAsmOp, NVVM::WgmmaMmaAsyncOp,
              NVVM::WgmmaGroupSyncAlignedOp, NVVM::WgmmaFenceAlignedOp>(inner))
        return false;
    }
    return false;
  }

  /// Releases stage `slot`: in a cluster, to every CTA whose multicast
  /// writes into this CTA's stage (all of them).
  void release(OpBuilder &b, Value slot, unsigned group = 0) {
    if (clusterSize == 1) {
      nvgpu::MBarrierArriveOp::create(
          b, loc, nvgpu::MBarrierTokenType::get(op.getContext()),
          empties[group], slot);
      return;
    }
    for (int64_t cta = 0; cta < clusterSize; ++cta)
      ArriveRemoteOp::create(b, loc, empties[group], slot, index(b, cta));
  }

  /// A cluster barrier: every thread of every CTA of the cluster.
  void clusterBarrier(OpBuilder &b) {
    NVVM::ClusterArriveOp::create(b, loc, /*aligned=*/UnitAttr());
    NVVM::ClusterWaitOp::create(b, loc, /*aligned=*/UnitAttr());
  }

  /// A persistent pipeline's tile ends with the stages of its last
  /// in_flight iterations still held (their reads completed at the wait
  /// before the epilogue; with read_lags, each lag group's last
  /// lag + in_flight): iteration count - H + i, where it exists, is
  /// released now, so the producer refills them during the epilogue (after
  /// it, where the epilogue reads a stage). `after` is the position after
  /// the tile's last iteration.
  void releaseTileTail(OpBuilder &b, Position after, Value count,
                       Value releases,
                       function_ref<void(OpBuilder &, Value, Value)> refill) {
    for (unsigned group = 0; group < groupLags.size(); ++group) {
      int64_t held = heldBy(group);
      for (int64_t i = 0; i < held; ++i) {
        Value shifted = arith::AddIOp::create(b, loc, count, index(b, i));
        Value exists =
            cmp(b, arith::CmpIPredicate::uge, shifted, index(b, held));
        Position p = backBy(b, after, held - i);
        Value ready =
            releases
                ? arith::AndIOp::create(b, loc, releases, exists).getResult()
                : exists;
        auto ifOp = scf::IfOp::create(b, loc, ready, /*withElse=*/false);
        OpBuilder rb = OpBuilder::atBlockBegin(ifOp.thenBlock());
        release(rb, stageAt(rb, p), group);
        // The software-pipelined form refills by g (it carries no position).
        if (refill)
          refill(b, p.value, exists);
      }
    }
  }

  /// The position after the tile's last iteration: the one the consumer's
  /// loop carried out (`end`), or g = tile x count + count.
  Position afterTile(OpBuilder &b, const TileSpan &span, Value end) {
    if (carriesRing)
      return {end, true};
    return {ringIndex(b, span, span.count), false};
  }

  /// Clones `region`'s body (inlineBody) with each tile.held_stage in it
  /// replaced by the stage of the position `back` before `at` (once the
  /// whole body is cloned: later clones map to its result).
  SmallVector<Value> inlineWithHeldStages(OpBuilder &b, Region &region,
                                          ValueRange args, Position at) {
    SmallVector<HeldStageOp> held;
    SmallVector<Value> results =
        inlineBody(b, region, args, [&](Operation *clone) {
          clone->walk([&](HeldStageOp h) { held.push_back(h); });
        });
    for (HeldStageOp h : held) {
      OpBuilder hb(h);
      int64_t back = h.getBack();
      Value stage = stageAt(hb, back ? backBy(hb, at, back) : at);
      // A region may also yield it.
      llvm::replace(results, Value(h.getResult()), stage);
      h.replaceAllUsesWith(stage);
      h.erase();
    }
    return results;
  }

  /// Whether `region` uses one of `values` (the epilogue a stage buffer,
  /// to read the stages its tile still holds, as attention's last
  /// O += P V reads the last block's V).
  static bool usedIn(Region &region, ValueRange values) {
    return llvm::any_of(values, [&](Value v) {
      return llvm::any_of(v.getUsers(), [&](Operation *user) {
        return region.isAncestor(user->getParentRegion());
      });
    });
  }

  /// The epilogue of a tile, after its consumer's wgmma groups completed.
  /// What the tile holds (its last in_flight stages, its tile_loads
  /// buffers) goes back before the epilogue, so the producer refills it
  /// meanwhile, or, where the epilogue uses it, after: once the epilogue's
  /// wgmma groups and its bulk stores (of output staged there) have read it.
  void emitEpilogue(OpBuilder &b, const TileSpan &span, Value consumer,
                    ValueRange carried, Value end, Value releases,
                    function_ref<void(OpBuilder &, Value, Value)> refill) {
    bool wgmma = op.getReads() == ConsumerReads::Wgmma;
    if (wgmma && op.getInFlight() > 0)
      NVVM::WgmmaWaitGroupSyncOp::create(b, loc, 0);
    bool holds = llvm::any_of(llvm::seq<unsigned>(groupLags.size()),
                              [&](unsigned g) { return heldBy(g) > 0; });
    bool tailAfter = span.tile && holds && epilogueReadsStages;
    bool buffersAfter = tileFull && epilogueUsesTileBuffers;
    // Where the tile's held stages are: each group's last lag + in_flight
    // iterations.
    Position after = afterTile(b, span, end);
    waitLaggedTail(b, after, span.count);
    if (span.tile && !tailAfter)
      releaseTileTail(b, after, span.count, releases, refill);
    if (tileFull && !buffersAfter) {
      if (consumeReleasesTileBuffers) {
        // Consume released them in the tile's last iteration, where it has
        // one.
        Value none = cmp(b, arith::CmpIPredicate::eq, span.count, index(b, 0));
        auto ifOp = scf::IfOp::create(b, loc, none, /*withElse=*/false);
        OpBuilder ib = OpBuilder::atBlockBegin(ifOp.thenBlock());
        releaseTileBuffers(ib);
      } else {
        releaseTileBuffers(b);
      }
    }
    SmallVector<Value> args = leadingArgs(span);
    args.push_back(consumer);
    llvm::append_range(args, carried);
    inlineWithHeldStages(b, op.getEpilogue(), args, after);
    if (!tailAfter && !buffersAfter)
      return;
    if (wgmma)
      NVVM::WgmmaWaitGroupSyncOp::create(b, loc, 0);
    BulkWaitGroupOp::create(b, loc, /*group=*/0, /*read=*/true);
    if (tailAfter)
      releaseTileTail(b, after, span.count, releases, refill);
    if (buffersAfter)
      releaseTileBuffers(b);
  }

  /// One tile's loop over its iterations, then its epilogue. In a pingpong
  /// schedule the tile starts when its turn comes and passes the turn on
  /// when its iterations are done, before its epilogue.
  void emitTile(OpBuilder &b, const TileSpan &span, Value consumer,
                Value releases,
                function_ref<void(OpBuilder &, Value, Value)> refill) {
    bool turns = op.getSchedule() == ConsumerSchedule::Pingpong;
    if (turns)
      awaitTurn(b, span.tile, consumer);
    if (tileFull)
      waitTilePhase(b, tileFull, span.tile, /*back=*/0);
    SmallVector<Value> inits(op.getInits());
    if (carriesRing)
      inits.push_back(span.ring);
    auto loop = scf::ForOp::create(
        b, loc, index(b, 0), span.count, index(b, 1), inits,
        [&](OpBuilder &lb, Location, Value i, ValueRange carried) {
          Position pos =
              positionOf(lb, span, i, carriesRing ? carried.back() : Value());
          SmallVector<Value> next = emitConsume(
              lb, span, i, pos, consumer,
              carriesRing ? carried.drop_back() : carried, releases, refill);
          scf::YieldOp::create(lb, loc, next);
        });
    if (turns)
      passTurn(b, span.tile, consumer);
    ValueRange results = loop.getResults();
    emitEpilogue(b, span, consumer, carriesRing ? results.drop_back() : results,
                 carriesRing ? results.back() : Value(), releases, refill);
  }

  /// The inlined consume's tile.release_tile_loads (in `block`) releases
  /// the tile's buffers in its last iteration, i = count - 1.
  void releaseTileBuffersInLast(Block *block, const TileSpan &span, Value i) {
    for (ReleaseTileLoadsOp marker :
         llvm::make_early_inc_range(block->getOps<ReleaseTileLoadsOp>())) {
      OpBuilder mb(marker);
      Value next = arith::AddIOp::create(mb, loc, i, index(mb, 1));
      Value last = cmp(mb, arith::CmpIPredicate::eq, next, span.count);
      auto ifOp = scf::IfOp::create(mb, loc, last, /*withElse=*/false);
      OpBuilder ib = OpBuilder::atBlockBegin(ifOp.thenBlock());
      releaseTileBuffers(ib);
      marker.erase();
    }
  }

  /// Every consumer thread releases the tile's buffers.
  void releaseTileBuffers(OpBuilder &b) {
    nvgpu::MBarrierArriveOp::create(
        b, loc, nvgpu::MBarrierTokenType::get(op.getContext()), tileEmpty,
        index(b, 0));
  }

  /// The named barrier that hands consumer c its turn in a pingpong
  /// schedule: 15 - c (0 is the block barrier; the warpgroup barriers of
  /// collective copies take 1..8, and there are at most 7 consumers).
  Value turnBarrier(OpBuilder &b, Value consumer) {
    Value id =
        arith::SubIOp::create(b, loc, index(b, kLastNamedBarrier), consumer);
    return arith::IndexCastOp::create(b, loc, b.getI32Type(), id);
  }

  /// The two warpgroups a turn passes between.
  Value turnThreads(OpBuilder &b) {
    return arith::ConstantIntOp::create(b, loc, 2 * kWarpgroupThreads, 32);
  }

  /// Tile t > 0 waits until tile t - 1's consumer has waited for every
  /// stage of that tile. Only then are the stages' full barriers at most
  /// one round behind the ring positions of tile t, so that waiting on a
  /// phase's parity cannot be satisfied by a phase two rounds earlier: a
  /// consumer that skipped the other consumers' tiles would otherwise be
  /// many rounds ahead of the producer.
  void awaitTurn(OpBuilder &b, Value tile, Value consumer) {
    Value later = cmp(b, arith::CmpIPredicate::ugt, tile, index(b, 0));
    auto ifOp = scf::IfOp::create(b, loc, later, /*withElse=*/false);
    OpBuilder ib = OpBuilder::atBlockBegin(ifOp.thenBlock());
    NVVM::BarrierOp::create(ib, loc, Type(), turnBarrier(ib, consumer),
                            turnThreads(ib), NVVM::BarrierReductionAttr(),
                            Value());
  }

  /// Hands the turn to tile t + 1's consumer, where that tile exists.
  void passTurn(OpBuilder &b, Value tile, Value consumer) {
    Value next = arith::AddIOp::create(b, loc, tile, index(b, 1));
    Value exists = cmp(b, arith::CmpIPredicate::ult, next, op.getTiles());
    auto ifOp = scf::IfOp::create(b, loc, exists, /*withElse=*/false);
    OpBuilder ib = OpBuilder::atBlockBegin(ifOp.thenBlock());
    Value successor = arith::RemUIOp::create(
        ib, loc, arith::AddIOp::create(ib, loc, consumer, index(ib, 1)),
        index(ib, op.getConsumers()));
    NVVM::BarrierArriveOp::create(ib, loc, turnBarrier(ib, successor),
                                  turnThreads(ib));
  }

  /// The consumers: every tile's iterations and epilogue, in order; in a
  /// pingpong schedule, the consumer's own tiles.
  void emitConsumers(OpBuilder &b, Value consumer, Value releases,
                     function_ref<void(OpBuilder &, Value, Value)> refill) {
    if (!op.getTiles()) {
      emitTile(b, fixedSpan(b, Value()), consumer, releases, refill);
      return;
    }
    Value turn =
        op.getSchedule() == ConsumerSchedule::Pingpong ? consumer : Value();
    forEachTile(b, /*uniform=*/true, turn, /*producer=*/false,
                [&](OpBuilder &tb, const TileSpan &span) {
                  emitTile(tb, span, consumer, releases, refill);
                });
  }

  /// The ring positions of the whole pipeline: count, times the tiles.
  Value ringSize(OpBuilder &b) {
    if (!op.getTiles())
      return op.getCount();
    return arith::MulIOp::create(b, loc, op.getCount(), op.getTiles());
  }

  void emitInit(OpBuilder &b);
  void emitSpecialized(OpBuilder &b);
  void emitSoftwarePipelined(OpBuilder &b);

  PipelineOp op;
  Location loc;
  int64_t stages;
  /// The CTAs of the cluster, and this CTA's rank in it (cluster_size > 1).
  int64_t clusterSize;
  /// Whether the epilogue reads a stage buffer (decided before the
  /// expansion adds users of its own).
  bool epilogueReadsStages;
  /// Whether the epilogue uses a buffer tile_loads fills (to stage its
  /// output there): the buffers are then released after it, else before.
  bool epilogueUsesTileBuffers;
  /// Whether consume says where its reads of them end
  /// (tile.release_tile_loads): they are released there in the tile's last
  /// iteration instead of before the epilogue.
  bool consumeReleasesTileBuffers;
  Value full, empty, tid, rank;
  /// Each stage buffer's lag group, each group's lag, and the groups'
  /// barriers (group 0's are `full` and `empty`). Without read_lags
  /// (`lagged` false), one group of lag 0, whose producer waits for the
  /// whole stage before the iteration's work.
  bool lagged;
  SmallVector<int64_t> bufferGroups, groupLags;
  SmallVector<Value> fulls, empties;
  /// The tile_loads buffers' barriers (one each), where there are some.
  Value tileFull, tileEmpty;
  /// The type of carried ring positions (ringStage), and whether the loops
  /// carry them: in the persistent warp-specialized form, whose g grows
  /// from tile to tile. Elsewhere g is the iteration (one tile) or
  /// tile x count + iteration, and the software-pipelined form refills by it.
  IntegerType ringType;
  bool carriesRing;
  llvm::SmallDenseMap<int64_t, Value> constants, ringConstants;
};

void Expansion::emitInit(OpBuilder &b) {
  std::optional<int64_t> releaseCount = op.getStaticReleaseCount();
  Value releases =
      releaseCount ? index(b, *releaseCount) : emitCtaThreadCount(b, loc);
  // Every CTA of the cluster releases a stage its multicasts fill.
  if (clusterSize > 1)
    releases = arith::MulIOp::create(b, loc, releases, index(b, clusterSize));
  Value first = cmp(b, arith::CmpIPredicate::eq, tid, index(b, 0));
  auto ifOp = scf::IfOp::create(b, loc, first, /*withElse=*/false);
  {
    OpBuilder ib = OpBuilder::atBlockBegin(ifOp.thenBlock());
    scf::ForOp::create(
        ib, loc, index(ib, 0), index(ib, stages), index(ib, 1), ValueRange{},
        [&](OpBuilder &lb, Location, Value s, ValueRange) {
          for (auto [f, e] : llvm::zip_equal(fulls, empties)) {
            nvgpu::MBarrierInitOp::create(lb, loc, f, index(lb, 1), s, Value());
            nvgpu::MBarrierInitOp::create(lb, loc, e, releases, s, Value());
          }
          scf::YieldOp::create(lb, loc);
        });
    if (tileFull) {
      // Every consumer thread releases the tile's buffers.
      nvgpu::MBarrierInitOp::create(ib, loc, tileFull, index(ib, 1),
                                    index(ib, 0), Value());
      nvgpu::MBarrierInitOp::create(
          ib, loc, tileEmpty, index(ib, kWarpgroupThreads * op.getConsumers()),
          index(ib, 0), Value());
    }
    // The peers' multicasts and remote arrivals see the initialised
    // barriers after the cluster barrier below.
    if (clusterSize > 1)
      NVVM::FenceMbarrierInitOp::create(ib, loc);
  }
  // Every thread sees the initialised barriers before using them.
  gpu::BarrierOp::create(b, loc);
  if (clusterSize > 1)
    clusterBarrier(b);
}

void Expansion::emitSpecialized(OpBuilder &b) {
  Value wg = uniformWarpgroup(b);
  Value isProducer = cmp(b, arith::CmpIPredicate::eq, wg, index(b, 0));
  auto roles = scf::IfOp::create(b, loc, isProducer, /*withElse=*/true);
  {
    OpBuilder pb = OpBuilder::atBlockBegin(roles.thenBlock());
    if (std::optional<int64_t> regs = op.getProducerRegisters())
      NVVM::SetMaxRegisterOp::create(pb, loc, *regs,
                                     NVVM::SetMaxRegisterAction::decrease);
    Value elected = cmp(pb, arith::CmpIPredicate::eq, tid, index(pb, 0));
    auto ifOp = scf::IfOp::create(pb, loc, elected, /*withElse=*/false);
    OpBuilder eb = OpBuilder::atBlockBegin(ifOp.thenBlock());
    auto produceTile = [&](OpBuilder &tb, const TileSpan &span) {
      // The tile's invariants first, where the tile has iterations.
      SmallVector<Operation *> invariants = tileInvariants();
      IRMapping hoisted;
      OpBuilder gb = tb;
      if (!invariants.empty()) {
        Value some =
            cmp(tb, arith::CmpIPredicate::ugt, span.count, index(tb, 0));
        auto guard = scf::IfOp::create(tb, loc, some, /*withElse=*/false);
        gb.setInsertionPointToStart(guard.thenBlock());
        hoistTileInvariants(gb, span, invariants, hoisted);
      }
      SmallVector<Value> inits;
      if (carriesRing)
        inits.push_back(span.ring);
      scf::ForOp::create(
          gb, loc, index(gb, 0), span.count, index(gb, 1), inits,
          [&](OpBuilder &lb, Location, Value i, ValueRange carried) {
            Position pos =
                positionOf(lb, span, i, carriesRing ? carried[0] : Value());
            // The first round's stages are free; later rounds wait for them.
            Value reuse =
                pos.carried ? cmp(lb, arith::CmpIPredicate::uge, i, span.fresh)
                            : cmp(lb, arith::CmpIPredicate::uge, pos.value,
                                  index(lb, stages));
            const IRMapping *tileHoisted =
                invariants.empty() ? nullptr : &hoisted;
            // With read_lags, each lag group's release right before its
            // loads; else the stage's, before the iteration's work.
            auto awaitRelease = [&](OpBuilder &at, unsigned group) {
              auto wait = scf::IfOp::create(at, loc, reuse, /*withElse=*/false);
              OpBuilder wb = OpBuilder::atBlockBegin(wait.thenBlock());
              waitAt(wb, empties[group], pos, /*back=*/1);
            };
            function_ref<void(OpBuilder &, unsigned)> perGroup;
            if (lagged)
              perGroup = awaitRelease;
            else
              awaitRelease(lb, 0);
            Value k = iterationOf(lb, span, i);
            emitProduce(lb, stageAt(lb, pos), span, k, tileHoisted, perGroup);
            // The tile's own buffers after its first stage: that load was
            // issued while the previous tile's consumers still held them.
            if (tileFull) {
              Value firstIteration =
                  cmp(lb, arith::CmpIPredicate::eq, i, index(lb, 0));
              auto ifOp = scf::IfOp::create(lb, loc, firstIteration,
                                            /*withElse=*/false);
              OpBuilder ib = OpBuilder::atBlockBegin(ifOp.thenBlock());
              emitTileLoads(ib, span);
            }
            SmallVector<Value> next;
            if (pos.carried)
              next.push_back(ringAdvance(lb, pos.value, ringConstant(lb, 1)));
            scf::YieldOp::create(lb, loc, next);
          });
      if (tileFull) {
        Value none =
            cmp(tb, arith::CmpIPredicate::eq, span.count, index(tb, 0));
        auto ifOp = scf::IfOp::create(tb, loc, none, /*withElse=*/false);
        OpBuilder ib = OpBuilder::atBlockBegin(ifOp.thenBlock());
        emitTileLoads(ib, span);
      }
    };
    if (!op.getTiles())
      produceTile(eb, fixedSpan(eb, Value()));
    else
      forEachTile(eb, /*uniform=*/false, /*turn=*/Value(), /*producer=*/true,
                  produceTile);
  }
  {
    OpBuilder cb = OpBuilder::atBlockBegin(roles.elseBlock());
    if (std::optional<int64_t> regs = op.getConsumerRegisters())
      NVVM::SetMaxRegisterOp::create(cb, loc, *regs,
                                     NVVM::SetMaxRegisterAction::increase);
    Value consumer = arith::SubIOp::create(cb, loc, wg, index(cb, 1));
    Value releases;
    if (op.getReads() == ConsumerReads::Wgmma) {
      Value local =
          arith::RemUIOp::create(cb, loc, tid, index(cb, kWarpgroupThreads));
      releases = cmp(cb, arith::CmpIPredicate::eq, local, index(cb, 0));
    }
    emitConsumers(cb, consumer, releases, /*refill=*/{});
  }
}

void Expansion::emitSoftwarePipelined(OpBuilder &b) {
  Value producer = cmp(b, arith::CmpIPredicate::eq, tid, index(b, 0));
  Value total = ringSize(b);
  // Prologue: the loads of iterations 0..S-1 that exist. A loop of constant
  // trip count S, so tile-verify-async follows it stage by stage.
  scf::ForOp::create(
      b, loc, index(b, 0), index(b, stages), index(b, 1), ValueRange{},
      [&](OpBuilder &lb, Location, Value j, ValueRange) {
        Value exists = cmp(lb, arith::CmpIPredicate::ult, j, total);
        Value mine = arith::AndIOp::create(lb, loc, producer, exists);
        auto ifOp = scf::IfOp::create(lb, loc, mine, /*withElse=*/false);
        OpBuilder ib = OpBuilder::atBlockBegin(ifOp.thenBlock());
        emitProduceAt(ib, j);
        scf::YieldOp::create(lb, loc);
      });
  Value wg = uniformWarpgroup(b);
  // After releasing iteration `done`'s stage, thread 0 refills it with
  // iteration done + S, once every thread has released it.
  auto refill = [&](OpBuilder &rb, Value done, Value started) {
    Value j = arith::AddIOp::create(rb, loc, done, index(rb, stages));
    Value more = cmp(rb, arith::CmpIPredicate::ult, j, total);
    Value mine = arith::AndIOp::create(rb, loc, producer, more);
    if (started)
      mine = arith::AndIOp::create(rb, loc, mine, started);
    auto ifOp = scf::IfOp::create(rb, loc, mine, /*withElse=*/false);
    OpBuilder ib = OpBuilder::atBlockBegin(ifOp.thenBlock());
    emitProduceAfterRelease(ib, j);
  };
  emitConsumers(b, wg, /*releases=*/Value(), refill);
}

void Expansion::expand(OpBuilder &b) {
  // The specialized form's block size is fixed; saying so lets ptxas budget
  // registers for it (.maxntid), which setmaxnreg needs.
  auto func = dyn_cast<gpu::GPUFuncOp>(op->getParentOp());
  if (func && op.getConsumers() > 0 && !func.getKnownBlockSizeAttr())
    func.setKnownBlockSizeAttr(b.getDenseI32ArrayAttr(
        {static_cast<int32_t>(op.getSpecializedBlockThreads()), 1, 1}));
  // ptxas honours setmaxnreg only when it knows the registers at entry: the
  // block size and one block per SM (.minnctapersm 1) give them.
  if (func && op.getProducerRegisters())
    func->setAttr("nvvm.minctasm", b.getI32IntegerAttr(1));
  if (func && clusterSize > 1 && !func.getKnownClusterSizeAttr())
    func.setKnownClusterSizeAttr(
        b.getDenseI32ArrayAttr({static_cast<int32_t>(clusterSize), 1, 1}));
  emitInit(b);
  if (op.getConsumers() > 0)
    emitSpecialized(b);
  else
    emitSoftwarePipelined(b);
  // No CTA exits while a peer's multicast may still write into it or a
  // peer's release may still arrive on its barriers.
  if (clusterSize > 1)
    clusterBarrier(b);
}

struct ExpandPipelinesPass
    : public mlir::tile::impl::TileExpandPipelinesBase<ExpandPipelinesPass> {
  void runOnOperation() override {
    SmallVector<PipelineOp> pipelines;
    getOperation()->walk([&](PipelineOp op) { pipelines.push_back(op); });
    // Unchanged IR needs no verifier run after this pass.
    if (pipelines.empty())
      return markAllAnalysesPreserved();
    for (PipelineOp op : pipelines) {
      OpBuilder b(op);
      Expansion(op, b).expand(b);
      op.erase();
    }
  }
};

} // namespace
