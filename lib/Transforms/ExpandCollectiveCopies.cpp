//===- ExpandCollectiveCopies.cpp - --tile-expand-collective-copies -------===//
//
// A CTA-wide or warpgroup-wide `tile.copy` that tile-plan-copies decided for
// the tensor memory accelerator (the decision has a tensor-map plan) becomes
// one thread's `tile.copy_async` and the completion that keeps the copy
// synchronous for every thread of its scope:
//
//   load (global to shared)            store (shared to global)
//   fence.proxy.async, scope barrier   fence.proxy.async, scope barrier
//   issuer: arrive.expect_tx,          issuer: copy_async,
//           copy_async on mbarrier             commit, wait_group 0
//   every thread: wait on the          scope barrier
//   mbarrier's current phase
//
// The issuer is the scope's first thread (thread 0 of the CTA, or of each
// warpgroup); the scope barrier is the CTA's barrier or the warpgroup's named
// barrier (1 + warpgroup index, as the element-wise collective copy uses).
// The fences order the threads' earlier generic accesses of the shared buffer
// before the asynchronous proxy's; the leading barrier keeps the TMA from
// overwriting a buffer some thread of the scope still reads. Each expanded
// load has its own mbarrier per issuing group (one for a CTA-wide copy, one
// per warpgroup of the CTA for a warpgroup-wide one), initialised once at
// kernel entry; every thread tracks its phase in a private counter (all
// threads of a scope run a collective copy equally often), so a copy in a
// loop waits on the right phase without re-initialising the barrier.
// (tile-plan-copies gave a workgroup buffer of the kernel the 1024-byte
// alignment the plan assumed.)
//
//===----------------------------------------------------------------------===//

#include "ModuleWalk.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "tile/Dialect/Tile/IR/DiscardableAttrs.h"
#include "tile/Dialect/Tile/IR/ThreadIndex.h"
#include "tile/Dialect/Tile/IR/TileOps.h"
#include "tile/Dialect/Tile/IR/TileTypeUtils.h"
#include "tile/Dispatch/BuiltinVariants.h"
#include "tile/Dispatch/CopyVariant.h"
#include "tile/Transforms/Passes.h"

namespace mlir::tile {
#define GEN_PASS_DEF_TILEEXPANDCOLLECTIVECOPIES
#include "tile/Transforms/Passes.h.inc"
} // namespace mlir::tile

using namespace mlir;
using namespace mlir::tile;

namespace {
/// A copy to expand: the bytes its plan moves, its direction, whether one
/// thread per warpgroup (rather than per CTA) issues it, and, for a load,
/// its phase counter and its first mbarrier (one per issuing group).
struct Expansion {
  CopyOp copy;
  int64_t bytes;
  bool load;
  bool warpgroup;
  int64_t counter = 0, firstSlot = 0;
};

/// What a kernel's expanded copies share: their mbarriers, the threads'
/// phase counters, the thread's linear index and warpgroup, and whether it
/// issues for its CTA or its warpgroup.
struct KernelState {
  Value barriers, phases, tid, warpgroup, ctaIssuer, warpgroupIssuer;
};
} // namespace

static Value indexConstant(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIndexOp::create(b, loc, v);
}

/// Warpgroups a warpgroup-wide load keeps an mbarrier for: the kernel's
/// stated block size where it has a usable one, otherwise the most a CTA
/// holds. (tile-check-pipeline-input rejects a stated size outside CUDA's
/// limits; this pass also runs on its own, so it trusts nothing.)
static int64_t getWarpgroupSlots(gpu::GPUFuncOp func) {
  int64_t most = kMaxBlockThreads / kWarpgroupThreads;
  std::optional<int64_t> threads = getStatedBlockThreads(func);
  if (!threads || *threads < 1 || *threads > kMaxBlockThreads)
    return most;
  return llvm::divideCeil(*threads, kWarpgroupThreads);
}

/// At the kernel's entry: the thread's place, the loads' mbarriers (thread 0
/// initialises them, then the CTA synchronises) and the phase counters.
static KernelState emitKernelState(gpu::GPUFuncOp func, int64_t slots,
                                   int64_t counters, bool warpgroups) {
  OpBuilder b = OpBuilder::atBlockBegin(&func.getBody().front());
  Location loc = func.getLoc();
  MLIRContext *ctx = func.getContext();
  KernelState state;
  Value zero = indexConstant(b, loc, 0);
  state.tid = emitLinearThreadId(b, loc);
  state.ctaIssuer =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, state.tid, zero);
  if (warpgroups) {
    Value groupThreads = indexConstant(b, loc, kWarpgroupThreads);
    state.warpgroup = arith::DivUIOp::create(b, loc, state.tid, groupThreads);
    state.warpgroupIssuer = arith::CmpIOp::create(
        b, loc, arith::CmpIPredicate::eq,
        arith::RemUIOp::create(b, loc, state.tid, groupThreads), zero);
  }
  if (slots == 0)
    return state;
  auto workgroup =
      gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup);
  auto groupType = nvgpu::MBarrierGroupType::get(ctx, workgroup, slots);
  state.barriers = nvgpu::MBarrierCreateOp::create(b, loc, groupType);
  auto phaseType = MemRefType::get({counters}, b.getI32Type());
  state.phases = memref::AllocaOp::create(b, loc, phaseType);
  Value zero32 = arith::ConstantIntOp::create(b, loc, 0, 32);
  Value one = indexConstant(b, loc, 1);
  for (int64_t i = 0; i < counters; ++i)
    memref::StoreOp::create(b, loc, zero32, state.phases,
                            ValueRange{indexConstant(b, loc, i)});
  auto init = scf::IfOp::create(b, loc, state.ctaIssuer, /*withElse=*/false);
  OpBuilder inside = init.getThenBodyBuilder();
  for (int64_t i = 0; i < slots; ++i)
    nvgpu::MBarrierInitOp::create(inside, loc, state.barriers, one,
                                  indexConstant(inside, loc, i),
                                  /*predicate=*/Value());
  gpu::BarrierOp::create(b, loc);
  return state;
}

/// The barrier of the copy's scope: the CTA's, or the warpgroup's own.
static void emitScopeBarrier(OpBuilder &b, Location loc, const Expansion &e,
                             const KernelState &state) {
  if (e.warpgroup)
    emitWarpgroupBarrier(b, loc, state.tid);
  else
    gpu::BarrierOp::create(b, loc);
}

static void emitProxyFenceAndBarrier(OpBuilder &b, Location loc,
                                     const Expansion &e,
                                     const KernelState &state) {
  MLIRContext *ctx = b.getContext();
  NVVM::FenceProxyOp::create(
      b, loc, NVVM::ProxyKindAttr::get(ctx, NVVM::ProxyKind::async_shared),
      NVVM::SharedSpaceAttr::get(ctx, NVVM::SharedSpace::shared_cta));
  emitScopeBarrier(b, loc, e, state);
}

/// The copy as one thread's tile.copy_async, decided by the dispatch like a
/// hand-written one (the request is the collective copy's, so it plans the
/// same).
static FailureOr<CopyAsyncOp> emitAsyncCopy(OpBuilder &b, CopyOp copy,
                                            Value barriers, Value index) {
  auto async = CopyAsyncOp::create(
      b, copy.getLoc(), copy.getDst(), copy.getDstOffsets(),
      copy.getStaticDstOffsetsAttr(), copy.getDstSizesAttr(), copy.getSrc(),
      copy.getSrcOffsets(), copy.getStaticSrcOffsetsAttr(),
      copy.getSrcSizesAttr(), barriers, index, /*multicast_mask=*/Value(),
      /*rows=*/ValueRange(), /*map=*/Value(), /*dispatch=*/StringAttr(),
      /*cache_hint=*/StringAttr(), /*oob=*/StringAttr(),
      /*reduce=*/StringAttr(), /*prefetch=*/UnitAttr(),
      /*cta_group=*/IntegerAttr());
  if (failed(decideAndRecordCopy(async)))
    return failure();
  return async;
}

static Value getIssuer(const Expansion &e, const KernelState &state) {
  return e.warpgroup ? state.warpgroupIssuer : state.ctaIssuer;
}

static LogicalResult expandLoad(Expansion &e, const KernelState &state) {
  CopyOp copy = e.copy;
  Location loc = copy.getLoc();
  OpBuilder b(copy);
  emitProxyFenceAndBarrier(b, loc, e, state);
  Value slot = indexConstant(b, loc, e.firstSlot);
  if (e.warpgroup)
    slot = arith::AddIOp::create(b, loc, slot, state.warpgroup);
  auto issue =
      scf::IfOp::create(b, loc, getIssuer(e, state), /*withElse=*/false);
  OpBuilder inside = issue.getThenBodyBuilder();
  nvgpu::MBarrierArriveExpectTxOp::create(
      inside, loc, state.barriers, indexConstant(inside, loc, e.bytes), slot,
      /*predicate=*/Value());
  if (failed(emitAsyncCopy(inside, copy, state.barriers, slot)))
    return failure();
  Value counter = indexConstant(b, loc, e.counter);
  Value phase = memref::LoadOp::create(b, loc, state.phases, counter);
  Value parity = arith::TruncIOp::create(b, loc, b.getI1Type(), phase);
  Value ticks = indexConstant(b, loc, 10000000);
  nvgpu::MBarrierTryWaitParityOp::create(b, loc, state.barriers, parity, ticks,
                                         slot);
  Value one = arith::ConstantIntOp::create(b, loc, 1, 32);
  Value next = arith::XOrIOp::create(b, loc, phase, one);
  memref::StoreOp::create(b, loc, next, state.phases, counter);
  copy.erase();
  return success();
}

static LogicalResult expandStore(Expansion &e, const KernelState &state) {
  CopyOp copy = e.copy;
  Location loc = copy.getLoc();
  OpBuilder b(copy);
  emitProxyFenceAndBarrier(b, loc, e, state);
  auto issue =
      scf::IfOp::create(b, loc, getIssuer(e, state), /*withElse=*/false);
  OpBuilder inside = issue.getThenBodyBuilder();
  if (failed(emitAsyncCopy(inside, copy, Value(), Value())))
    return failure();
  BulkCommitGroupOp::create(inside, loc);
  // Not `read`: the global writes are complete when the copy returns.
  BulkWaitGroupOp::create(inside, loc, /*group=*/0, /*read=*/false);
  emitScopeBarrier(b, loc, e, state);
  copy.erase();
  return success();
}

namespace {
struct ExpandCollectiveCopiesPass
    : public mlir::tile::impl::TileExpandCollectiveCopiesBase<
          ExpandCollectiveCopiesPass> {
  using Base::Base;
  void getDependentDialects(DialectRegistry &registry) const override {
    Base::getDependentDialects(registry);
    registerBuiltinCopyVariants(registry);
  }

  void runOnOperation() override {
    bool failed = false;
    bool changed = false;
    forEachGpuFunc(getOperation(), [&](gpu::GPUFuncOp func) {
      SmallVector<Expansion> expansions;
      int64_t slots = 0, counters = 0;
      bool warpgroups = false;
      int64_t warpgroupSlots = getWarpgroupSlots(func);
      func.walk([&](CopyOp copy) {
        // Only decided copies: tile-plan-copies runs first.
        if (!copy->hasAttr(kVariantAttr))
          return;
        FailureOr<DispatchResult> decision = recallCopyDecision(copy);
        if (mlir::failed(decision)) {
          failed = true;
          return;
        }
        const ::tile::tma::TmaPlan *plan =
            decision->match ? decision->match->getTensorMapPlan() : nullptr;
        if (!plan)
          return;
        Expansion e{copy, plan->bytes,
                    getMemorySpaceKind(copy.getDst().getType()) ==
                        MemorySpaceKind::Shared,
                    copy.getScopeKind() == CopyScope::Warpgroup};
        warpgroups |= e.warpgroup;
        if (e.load) {
          e.counter = counters++;
          e.firstSlot = slots;
          slots += e.warpgroup ? warpgroupSlots : 1;
        }
        expansions.push_back(e);
      });
      if (failed || expansions.empty())
        return;
      KernelState state = emitKernelState(func, slots, counters, warpgroups);
      for (Expansion &e : expansions) {
        LogicalResult done =
            e.load ? expandLoad(e, state) : expandStore(e, state);
        if (mlir::failed(done)) {
          failed = true;
          return;
        }
      }
      changed = true;
    });
    if (failed)
      return signalPassFailure();
    if (!changed)
      markAllAnalysesPreserved();
  }
};
} // namespace
