//===- PopulatePatternsTest.cpp - The lowering inside a user's conversion -===//
//
// A compiler that lowers to LLVM in its own conversion adds the tile patterns
// with populateTileToNVVMConversionPatterns over its LLVMTypeConverter. The
// copies still lower through their recorded decisions, and a copy without
// one is a diagnostic at the op, not a crash or a silent fallback.
//
//===----------------------------------------------------------------------===//

#include "../TileTestContext.h"
#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/DialectConversion.h"
#include "tile/Conversion/Passes.h"
#include "tile/Conversion/TileToNVVM/TileToNVVM.h"
#include "tile/Dialect/Tile/IR/TileOps.h"
#include "tile/Transforms/Passes.h"
#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::tile;

namespace {
constexpr const char *kModule = R"mlir(
!bars = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
module attributes {gpu.container_module} {
  func.func @host(%A: memref<8x64xf16>, %B: memref<8x64xf16>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @k::@copy blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
        args(%A : memref<8x64xf16>, %B : memref<8x64xf16>)
    return
  }
  gpu.module @k {
    gpu.func @copy(%A: memref<8x64xf16>, %B: memref<8x64xf16>) kernel {
      %c0 = arith.constant 0 : index
      %s = tile.arena_view [0] : memref<8x64xf16, #gpu.address_space<workgroup>>
      %bar = nvgpu.mbarrier.create -> !bars
      tile.copy_async %s[0, 0] [8, 64], %A[0, 0] [8, 64] barrier(%bar[%c0])
          : memref<8x64xf16, #gpu.address_space<workgroup>>, memref<8x64xf16>, !bars
      tile.copy %B[0, 0] [8, 64], %s[0, 0] [8, 64] {scope = "cta", dispatch = "collective"}
          : memref<8x64xf16>, memref<8x64xf16, #gpu.address_space<workgroup>>
      tile.bulk_commit_group
      tile.bulk_wait_group 0
      gpu.return
    }
  }
}
)mlir";

class PopulatePatternsTest : public ::testing::Test {
protected:
  void SetUp() override {
    DialectRegistry registry;
    registry.insert<gpu::GPUDialect, scf::SCFDialect, memref::MemRefDialect,
                    LLVM::LLVMDialect, NVVM::NVVMDialect>();
    context.appendDialectRegistry(registry);
    test::loadTileTestDialects(context);
    module = parseSourceString<ModuleOp>(kModule, &context);
    ASSERT_TRUE(module);
  }

  /// The user's own conversion of the kernel module: only the tile patterns.
  LogicalResult convertKernels() {
    gpu::GPUModuleOp kernels;
    module->walk([&](gpu::GPUModuleOp m) { kernels = m; });
    LLVMTypeConverter converter(&context);
    RewritePatternSet patterns(&context);
    populateTileToNVVMConversionPatterns(converter, patterns);
    ConversionTarget target(context);
    target.addIllegalDialect<TileDialect>();
    target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
    return applyPartialConversion(kernels, target, std::move(patterns));
  }

  template <typename OpT>
  int count() {
    int n = 0;
    module->walk([&](OpT) { ++n; });
    return n;
  }

  MLIRContext context;
  OwningOpRef<ModuleOp> module;
};
} // namespace

TEST_F(PopulatePatternsTest, LowersThroughTheRecordedDecisions) {
  PassManager pm(&context);
  pm.addPass(createTilePlanCopies());
  pm.addPass(createTileTensorMapABI());
  ASSERT_TRUE(succeeded(pm.run(*module)));
  ASSERT_TRUE(succeeded(convertKernels()));

  int tileOps = 0;
  module->walk(
      [&](Operation *op) { tileOps += isa<TileDialect>(op->getDialect()); });
  EXPECT_EQ(tileOps, 0);
  // The load took the tma variant: one tensor copy of the 8x64 tile.
  EXPECT_EQ(count<NVVM::CpAsyncBulkTensorGlobalToSharedClusterOp>(), 1);
  // The collective store: per-thread stores, then a CTA barrier.
  EXPECT_EQ(count<gpu::BarrierOp>(), 1);
  EXPECT_GT(count<LLVM::StoreOp>(), 0);
  EXPECT_EQ(count<NVVM::CpAsyncBulkCommitGroupOp>(), 1);
  EXPECT_EQ(count<NVVM::CpAsyncBulkWaitGroupOp>(), 1);
  // The arena is the external 1024-aligned shared global.
  int arenas = 0;
  module->walk([&](LLVM::GlobalOp global) {
    arenas += global.getSymName() == "__tile_arena" &&
              global.getAddrSpace() == 3 && global.getAlignment() == 1024;
  });
  EXPECT_EQ(arenas, 1);
}

TEST_F(PopulatePatternsTest, UndecidedCopyIsADiagnostic) {
  std::string message;
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diag) {
    if (message.empty())
      message = diag.str();
    return success();
  });
  EXPECT_TRUE(failed(convertKernels()));
  EXPECT_EQ(message.rfind("plan-missing: this copy carries no recorded "
                          "decision; run --tile-plan-copies first",
                          0),
            0u)
      << message;
  EXPECT_EQ(count<CopyAsyncOp>(), 1);
}
