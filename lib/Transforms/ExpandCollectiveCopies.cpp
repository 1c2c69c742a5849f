//===- ExpandCollectiveCopies.cpp - --tile-expand-collective-copies -------===//
//
// A CTA-wide `tile.copy` that tile-plan-copies decided for the tensor memory
// accelerator (the decision has a tensor-map plan) becomes one thread's
// `tile.copy_async` and the completion that keeps the copy synchronous for
// every thread of the CTA:
//
//   load (global to shared)            store (shared to global)
//   fence.proxy.async, gpu.barrier     fence.proxy.async, gpu.barrier
//   thread 0: arrive.expect_tx,        thread 0: copy_async,
//             copy_async on mbarrier             commit, wait_group 0
//   every thread: wait on the          gpu.barrier
//   mbarrier's current phase
//
// The fences order the threads' earlier generic accesses of the shared buffer
// before the asynchronous proxy's; the leading barrier keeps the TMA from
// overwriting a buffer some thread still reads. Each expanded load has its
// own mbarrier, initialised once at kernel entry; every thread tracks its
// phase in a private counter (all threads of the CTA run a collective copy
// equally often), so a copy in a loop waits on the right phase without
// re-initialising the barrier. (tile-plan-copies gave a workgroup buffer of
// the kernel the 1024-byte alignment the plan assumed.)
//
//===----------------------------------------------------------------------===//

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "tile/Dialect/Tile/IR/DiscardableAttrs.h"
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
/// A copy to expand and the bytes its plan moves.
struct Expansion {
  CopyOp copy;
  int64_t bytes;
  bool load;
};

/// What a kernel's expanded loads share: their mbarriers, the threads'
/// phase counters and whether this thread is the issuing one.
struct KernelState {
  Value barriers, phases, isIssuer;
};
} // namespace

static Value indexConstant(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIndexOp::create(b, loc, v);
}

/// At the kernel's entry: one mbarrier per expanded load (thread 0
/// initialises them, then the CTA synchronises) and the phase counters.
static KernelState emitKernelState(gpu::GPUFuncOp func, int64_t loads) {
  OpBuilder b = OpBuilder::atBlockBegin(&func.getBody().front());
  Location loc = func.getLoc();
  MLIRContext *ctx = func.getContext();
  KernelState state;
  Value zero = indexConstant(b, loc, 0);
  Value isIssuer;
  for (gpu::Dimension dim :
       {gpu::Dimension::x, gpu::Dimension::y, gpu::Dimension::z}) {
    Value id = gpu::ThreadIdOp::create(b, loc, dim);
    Value first =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, id, zero);
    isIssuer =
        isIssuer ? arith::AndIOp::create(b, loc, isIssuer, first) : first;
  }
  state.isIssuer = isIssuer;
  if (loads == 0)
    return state;
  auto workgroup =
      gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup);
  auto groupType = nvgpu::MBarrierGroupType::get(ctx, workgroup, loads);
  state.barriers = nvgpu::MBarrierCreateOp::create(b, loc, groupType);
  auto phaseType = MemRefType::get({loads}, b.getI32Type());
  state.phases = memref::AllocaOp::create(b, loc, phaseType);
  Value zero32 = arith::ConstantIntOp::create(b, loc, 0, 32);
  Value one = indexConstant(b, loc, 1);
  for (int64_t i = 0; i < loads; ++i)
    memref::StoreOp::create(b, loc, zero32, state.phases,
                            ValueRange{indexConstant(b, loc, i)});
  auto init = scf::IfOp::create(b, loc, isIssuer, /*withElse=*/false);
  OpBuilder inside = init.getThenBodyBuilder();
  for (int64_t i = 0; i < loads; ++i)
    nvgpu::MBarrierInitOp::create(inside, loc, state.barriers, one,
                                  indexConstant(inside, loc, i),
                                  /*predicate=*/Value());
  gpu::BarrierOp::create(b, loc);
  return state;
}

static void emitProxyFenceAndBarrier(OpBuilder &b, Location loc) {
  MLIRContext *ctx = b.getContext();
  NVVM::FenceProxyOp::create(
      b, loc, NVVM::ProxyKindAttr::get(ctx, NVVM::ProxyKind::async_shared),
      NVVM::SharedSpaceAttr::get(ctx, NVVM::SharedSpace::shared_cta));
  gpu::BarrierOp::create(b, loc);
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

static LogicalResult expandLoad(Expansion &e, const KernelState &state,
                                int64_t index) {
  CopyOp copy = e.copy;
  Location loc = copy.getLoc();
  OpBuilder b(copy);
  emitProxyFenceAndBarrier(b, loc);
  Value slot = indexConstant(b, loc, index);
  auto issue = scf::IfOp::create(b, loc, state.isIssuer, /*withElse=*/false);
  OpBuilder inside = issue.getThenBodyBuilder();
  nvgpu::MBarrierArriveExpectTxOp::create(
      inside, loc, state.barriers, indexConstant(inside, loc, e.bytes), slot,
      /*predicate=*/Value());
  if (failed(emitAsyncCopy(inside, copy, state.barriers, slot)))
    return failure();
  Value phase = memref::LoadOp::create(b, loc, state.phases, slot);
  Value parity = arith::TruncIOp::create(b, loc, b.getI1Type(), phase);
  Value ticks = indexConstant(b, loc, 10000000);
  nvgpu::MBarrierTryWaitParityOp::create(b, loc, state.barriers, parity, ticks,
                                         slot);
  Value one = arith::ConstantIntOp::create(b, loc, 1, 32);
  Value next = arith::XOrIOp::create(b, loc, phase, one);
  memref::StoreOp::create(b, loc, next, state.phases, slot);
  copy.erase();
  return success();
}

static LogicalResult expandStore(Expansion &e, const KernelState &state) {
  CopyOp copy = e.copy;
  Location loc = copy.getLoc();
  OpBuilder b(copy);
  emitProxyFenceAndBarrier(b, loc);
  auto issue = scf::IfOp::create(b, loc, state.isIssuer, /*withElse=*/false);
  OpBuilder inside = issue.getThenBodyBuilder();
  if (failed(emitAsyncCopy(inside, copy, Value(), Value())))
    return failure();
  BulkCommitGroupOp::create(inside, loc);
  // Not `read`: the global writes are complete when the copy returns.
  BulkWaitGroupOp::create(inside, loc, /*group=*/0, /*read=*/false);
  gpu::BarrierOp::create(b, loc);
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
    getOperation()->walk([&](gpu::GPUFuncOp func) {
      SmallVector<Expansion> expansions;
      int64_t loads = 0;
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
        bool load = getMemorySpaceKind(copy.getDst().getType()) ==
                    MemorySpaceKind::Shared;
        expansions.push_back({copy, plan->bytes, load});
        loads += load ? 1 : 0;
      });
      if (failed || expansions.empty())
        return;
      KernelState state = emitKernelState(func, loads);
      int64_t index = 0;
      for (Expansion &e : expansions) {
        LogicalResult done =
            e.load ? expandLoad(e, state, index++) : expandStore(e, state);
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
