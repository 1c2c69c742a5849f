//===- ArenaSize.cpp - --tile-arena-size ----------------------------------===//
//
// The arena (dynamic shared memory) must be at least as large as the views
// carved out of it; a launch with too little would let TMA and the copies
// write past the end of the CTA's shared memory.
//
//===----------------------------------------------------------------------===//

#include "ModuleWalk.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/Matchers.h"
#include "tile/Dialect/Tile/IR/DiscardableAttrs.h"
#include "tile/Dialect/Tile/IR/RuleDiagnostic.h"
#include "tile/Dialect/Tile/IR/TileOps.h"
#include "tile/Transforms/Passes.h"

namespace mlir::tile {
#define GEN_PASS_DEF_TILEARENASIZE
#include "tile/Transforms/Passes.h.inc"
} // namespace mlir::tile

using namespace mlir;
using namespace mlir::tile;

namespace {
struct ArenaSizePass
    : public mlir::tile::impl::TileArenaSizeBase<ArenaSizePass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    forEachGpuFunc(module, [&](gpu::GPUFuncOp func) {
      int64_t bytes = 0;
      func.walk([&](ArenaViewOp view) {
        bytes =
            std::max<int64_t>(bytes, view.getOffset() + view.getSpanBytes());
      });
      if (bytes > 0)
        func->setAttr(
            kArenaBytesAttr,
            IntegerAttr::get(IntegerType::get(&getContext(), 64), bytes));
    });
    // Cached tables: a lookup by name per launch would scan the module.
    SymbolTableCollection symbols;
    WalkResult result = walkHostLaunches(module, [&](gpu::LaunchFuncOp launch) {
      auto kernel = symbols.lookupNearestSymbolFrom<gpu::GPUFuncOp>(
          launch, launch.getKernel());
      if (!kernel)
        return WalkResult::advance();
      auto required = kernel->getAttrOfType<IntegerAttr>(kArenaBytesAttr);
      if (!required)
        return WalkResult::advance();
      Value given = launch.getDynamicSharedMemorySize();
      if (!given) {
        OpBuilder b(launch);
        Value size = arith::ConstantIntOp::create(
            b, launch.getLoc(), b.getI32Type(), required.getInt());
        launch.getDynamicSharedMemorySizeMutable().assign(size);
        return WalkResult::advance();
      }
      APInt value;
      if (matchPattern(given, m_ConstantInt(&value)) &&
          value.getSExtValue() < required.getInt()) {
        withRule(launch.emitError(), RuleId::Arena)
            << "arena: kernel " << kernel.getName() << " carves "
            << required.getInt()
            << " bytes of dynamic shared memory out of its "
               "arena (tile.arena_view), but the launch "
               "provides "
            << value.getSExtValue();
        return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
    if (result.wasInterrupted())
      signalPassFailure();
  }
};
} // namespace
