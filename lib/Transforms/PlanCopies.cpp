//===- PlanCopies.cpp - --tile-plan-copies --------------------------------===//
//
// The one place copies are dispatched and planned: every later pass reads the
// decision this pass records on the op (see RecordedDecisionVerifier.cpp for
// its verifier), and the plans it records on each im2col load and wgmma
// descriptor.
//
//===----------------------------------------------------------------------===//

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/SymbolTable.h"
#include "tile/Dialect/Tile/IR/DiscardableAttrs.h"
#include "tile/Dialect/Tile/IR/Im2colRequest.h"
#include "tile/Dialect/Tile/IR/TileOps.h"
#include "tile/Dialect/Tile/IR/TileTypeUtils.h"
#include "tile/Dispatch/BuiltinVariants.h"
#include "tile/Dispatch/CopyVariant.h"
#include "tile/TMA/Limits.h"
#include "tile/Transforms/Passes.h"

namespace mlir::tile {
#define GEN_PASS_DEF_TILEPLANCOPIES
#include "tile/Transforms/Passes.h.inc"
} // namespace mlir::tile

using namespace mlir;
using namespace mlir::tile;

namespace {
/// A TMA plan assumes a shared buffer whose alignment the IR does not show
/// starts on the arena's 1024-byte boundary (CopyRequest.cpp's
/// getSharedBaseAlignment); make that true of the buffers the lowering
/// allocates from their declarations: a kernel's workgroup buffer
/// (`llvm.align`) and a workgroup `memref.global` (`alignment`).
static void alignSharedBase(Operation *copy) {
  if (!copy->hasAttr(kTmaPlanAttr))
    return;
  Value shared;
  if (auto async = dyn_cast<CopyAsyncOp>(copy))
    shared = async.getShared();
  else if (auto collective = dyn_cast<CopyOp>(copy))
    shared = getMemorySpaceKind(collective.getDst().getType()) ==
                     MemorySpaceKind::Shared
                 ? collective.getDst()
                 : collective.getSrc();
  if (!shared)
    return;
  shared = getCollectiveTmaSharedRoot(shared);
  const int64_t alignment = ::tile::tma::limits::kArenaAlignmentBytes;
  auto i64 = IntegerType::get(copy->getContext(), 64);
  if (auto arg = dyn_cast<BlockArgument>(shared)) {
    auto func = copy->getParentOfType<gpu::GPUFuncOp>();
    if (!func)
      return;
    ArrayRef<BlockArgument> buffers = func.getWorkgroupAttributions();
    auto it = llvm::find(buffers, arg);
    if (it == buffers.end())
      return;
    unsigned index = it - buffers.begin();
    auto current = dyn_cast_or_null<IntegerAttr>(
        func.getWorkgroupAttributionAttr(index, "llvm.align"));
    if (!current || current.getInt() < alignment)
      func.setWorkgroupAttributionAttr(index, "llvm.align",
                                       IntegerAttr::get(i64, alignment));
    return;
  }
  auto get = shared.getDefiningOp<memref::GetGlobalOp>();
  if (!get)
    return;
  auto global = SymbolTable::lookupNearestSymbolFrom<memref::GlobalOp>(
      get, get.getNameAttr());
  if (global && global.getAlignment().value_or(0) < alignment)
    global.setAlignmentAttr(IntegerAttr::get(i64, alignment));
}

struct PlanCopiesPass
    : public mlir::tile::impl::TilePlanCopiesBase<PlanCopiesPass> {
  void getDependentDialects(DialectRegistry &registry) const override {
    Base::getDependentDialects(registry);
    registerBuiltinCopyVariants(registry);
  }
  void runOnOperation() override {
    bool failedAny = false;
    getOperation()->walk([&](Operation *op) {
      if (isa<CopyAsyncOp, CopyOp>(op)) {
        if (failed(decideAndRecordCopy(op, /*excluded=*/nullptr,
                                       /*recordFallback=*/true)))
          failedAny = true;
        else
          alignSharedBase(op);
      }
      if (auto im2col = dyn_cast<CopyIm2colOp>(op);
          im2col && failed(recordIm2colPlan(im2col)))
        failedAny = true;
      if (auto wgmma = dyn_cast<WgmmaDescriptorOp>(op);
          wgmma && failed(wgmma.recordPlan()))
        failedAny = true;
    });
    if (failedAny)
      signalPassFailure();
  }
};
} // namespace
