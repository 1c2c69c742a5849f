//===- CopyVariantTest.cpp - Embedders' copy variants ---------------------===//
//
// An embedder registers its own variant from C++; the dispatch tries it by
// priority, honours `dispatch = "<name>"`, and reports declines in order. A
// variant that needs a tensor map gets one from the host passes without any
// pass naming it.
//
//===----------------------------------------------------------------------===//

#include "tile/Dispatch/CopyVariant.h"
#include "../TileTestContext.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "tile/Conversion/Passes.h"
#include "tile/Conversion/TileToNVVM/TileToNVVM.h"
#include "tile/Dialect/Tile/IR/TileOps.h"
#include "tile/Dispatch/BuiltinVariants.h"
#include "tile/InitAllTile.h"
#include "tile/Transforms/Passes.h"
#include "gtest/gtest.h"

#include <algorithm>
#include <atomic>
#include <thread>

using namespace mlir;
using namespace mlir::tile;

namespace {
/// Takes f32 copies only; never rewrites in these tests.
class F32Variant : public CopyVariant {
public:
  explicit F32Variant(int priority) : CopyVariant("f32-only", priority) {
    addPredicate("element-type", [](Operation *op) {
      auto copy = cast<CopyAsyncOp>(op);
      if (!copy.getSrc().getType().getElementType().isF32())
        return PredicateResult::failure("element-type: f32 only");
      return PredicateResult::success();
    });
  }
  bool handles(Operation *op) const override { return isa<CopyAsyncOp>(op); }
  LogicalResult rewrite(Operation *, const VariantMatch *,
                        ConversionPatternRewriter &,
                        const LLVMTypeConverter &) const override {
    return failure();
  }
};

constexpr const char *kModule = R"mlir(
!bars = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
func.func @f(%g32: memref<8x64xf32>, %s32: memref<8x64xf32, #gpu.address_space<workgroup>>,
             %g16: memref<8x64xf16>, %s16: memref<8x64xf16, #gpu.address_space<workgroup>>,
             %bar: !bars, %c0: index) {
  tile.copy_async %s32[0, 0] [8, 64], %g32[0, 0] [8, 64] barrier(%bar[%c0])
      : memref<8x64xf32, #gpu.address_space<workgroup>>, memref<8x64xf32>, !bars
  tile.copy_async %s16[0, 0] [8, 64], %g16[0, 0] [8, 64] barrier(%bar[%c0])
      : memref<8x64xf16, #gpu.address_space<workgroup>>, memref<8x64xf16>, !bars
  tile.copy_async %s16[0, 0] [8, 64], %g16[0, 0] [8, 64] barrier(%bar[%c0]) {dispatch = "f32-only"}
      : memref<8x64xf16, #gpu.address_space<workgroup>>, memref<8x64xf16>, !bars
  return
}
)mlir";

class CopyVariantTest : public ::testing::Test {
protected:
  void SetUp() override {
    test::loadTileTestDialects(context);
    module = parseSourceString<ModuleOp>(kModule, &context);
    ASSERT_TRUE(module);
    module->walk([&](CopyAsyncOp op) { copies.push_back(op); });
    ASSERT_EQ(copies.size(), 3u);
  }

  /// This context's variants (the built-in ones, from
  /// registerAllTileDialects).
  CopyVariantRegistry &variants() {
    CopyVariantRegistry *registry = CopyVariantRegistry::getMutable(&context);
    EXPECT_NE(registry, nullptr);
    return *registry;
  }

  MLIRContext context;
  OwningOpRef<ModuleOp> module;
  SmallVector<CopyAsyncOp> copies;
};
} // namespace

TEST_F(CopyVariantTest, BuiltinOrder) {
  std::vector<std::string> names = variants().names();
  // tma (10) before collective_tma (5), simt and collective (0, by name).
  ASSERT_GE(names.size(), 3u);
  EXPECT_EQ(names[0], "tma");
  FailureOr<DispatchResult> r = dispatchCopy(copies[0]);
  ASSERT_TRUE(succeeded(r));
  ASSERT_NE(r->selected, nullptr);
  EXPECT_EQ(r->selected->getName(), "tma");
  EXPECT_TRUE(r->declined.empty());
}

TEST_F(CopyVariantTest, EmbedderVariantByPriority) {
  variants().add(std::make_unique<F32Variant>(100));
  FailureOr<DispatchResult> f32 = dispatchCopy(copies[0]);
  ASSERT_TRUE(succeeded(f32));
  EXPECT_EQ(f32->selected->getName(), "f32-only");

  // An f16 copy: the embedder's variant declines first, tma takes it.
  FailureOr<DispatchResult> f16 = dispatchCopy(copies[1]);
  ASSERT_TRUE(succeeded(f16));
  EXPECT_EQ(f16->selected->getName(), "tma");
  ASSERT_EQ(f16->declined.size(), 1u);
  EXPECT_EQ(f16->declined[0].first, "f32-only");
  EXPECT_EQ(f16->declined[0].second, "element-type: f32 only");

  // dispatch = "f32-only" restricts the search: nothing else is tried.
  FailureOr<DispatchResult> forced = dispatchCopy(copies[2]);
  ASSERT_TRUE(succeeded(forced));
  EXPECT_EQ(forced->selected, nullptr);
  ASSERT_EQ(forced->declined.size(), 1u);
  EXPECT_EQ(forced->declined[0].first, "f32-only");

  // Re-registering under the same name replaces the variant.
  variants().add(std::make_unique<F32Variant>(-5));
  FailureOr<DispatchResult> again = dispatchCopy(copies[0]);
  ASSERT_TRUE(succeeded(again));
  EXPECT_EQ(again->selected->getName(), "tma");
  EXPECT_EQ(variants().lookup("f32-only")->getPriority(), -5);
}

namespace {
/// An embedder's variant that needs a tensor map from the host: it plans
/// like the built-in `tma` variant and states the map through its match,
/// without any pass knowing its name. Its lowering counts and erases the op.
class MapRequestMatch : public VariantMatch {
public:
  explicit MapRequestMatch(std::unique_ptr<VariantMatch> inner)
      : inner(std::move(inner)) {}
  const ::tile::tma::TmaPlan *getTensorMapPlan() const override {
    return inner->getTensorMapPlan();
  }
  std::unique_ptr<VariantMatch> inner;
};

class MapRequestVariant : public CopyVariant {
public:
  MapRequestVariant() : CopyVariant("map-request", 1000) {}
  bool handles(Operation *op) const override {
    auto dispatch = op->getAttrOfType<StringAttr>("dispatch");
    return isa<CopyAsyncOp>(op) && dispatch &&
           dispatch.getValue() == "map-request";
  }
  PredicateResult check(Operation *op,
                        std::unique_ptr<VariantMatch> &match) const override {
    std::unique_ptr<VariantMatch> inner;
    PredicateResult r = CopyVariantRegistry::get(op->getContext())
                            ->lookup("tma")
                            ->check(op, inner);
    if (r.ok)
      match = std::make_unique<MapRequestMatch>(std::move(inner));
    return r;
  }
  LogicalResult rewrite(Operation *op, const VariantMatch *match,
                        ConversionPatternRewriter &rewriter,
                        const LLVMTypeConverter &) const override {
    EXPECT_NE(match->getTensorMapPlan(), nullptr);
    EXPECT_TRUE(op->hasAttr("tile.tensor_map_arg"));
    ++rewrites;
    rewriter.eraseOp(op);
    return success();
  }
  static inline int rewrites = 0;
};

constexpr const char *kKernelModule = R"mlir(
!bars = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
module attributes {gpu.container_module} {
  func.func @host(%A: memref<8x64xf16>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @k::@load blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
        args(%A : memref<8x64xf16>)
    return
  }
  gpu.module @k {
    gpu.func @load(%A: memref<8x64xf16>) kernel {
      %c0 = arith.constant 0 : index
      %s = tile.arena_view [0] : memref<8x64xf16, #gpu.address_space<workgroup>>
      %bar = nvgpu.mbarrier.create -> !bars
      tile.copy_async %s[0, 0] [8, 64], %A[0, 0] [8, 64] barrier(%bar[%c0]) {dispatch = "map-request"}
          : memref<8x64xf16, #gpu.address_space<workgroup>>, memref<8x64xf16>, !bars
      gpu.return
    }
  }
}
)mlir";
} // namespace

// The embedder's whole integration is the extension below: no pass, header
// or table outside this file names the variant.
TEST(EmbedderVariantTest, RequestsATensorMapAndLowersEndToEnd) {
  DialectRegistry registry;
  registry.insert<func::FuncDialect, arith::ArithDialect, gpu::GPUDialect,
                  scf::SCFDialect, memref::MemRefDialect, LLVM::LLVMDialect,
                  NVVM::NVVMDialect>();
  registerAllTileDialects(registry);
  registry.addExtension(+[](MLIRContext *, TileDialect *dialect) {
    CopyVariantRegistry::attach(dialect).add(
        std::make_unique<MapRequestVariant>());
  });
  MLIRContext context(registry);
  context.loadAllAvailableDialects();
  OwningOpRef<ModuleOp> kernels =
      parseSourceString<ModuleOp>(kKernelModule, &context);
  ASSERT_TRUE(kernels);
  PassManager pm(&context);
  pm.addPass(createTilePlanCopies());
  pm.addPass(createTileTensorMapABI());
  pm.nest<gpu::GPUModuleOp>().addPass(createTileToNVVM());
  ASSERT_TRUE(succeeded(pm.run(*kernels)));

  // The host side served the variant: one map argument after the user's
  // buffer, its plan recorded on the kernel, an encode call before the
  // launch; the lowering was the variant's own.
  gpu::GPUFuncOp kernel;
  kernels->walk([&](gpu::GPUFuncOp f) { kernel = f; });
  ASSERT_TRUE(kernel);
  EXPECT_EQ(kernel.getNumArguments(), 2u);
  auto maps = kernel->getAttrOfType<ArrayAttr>("tile.tensor_maps");
  ASSERT_TRUE(maps);
  ASSERT_EQ(maps.size(), 1u);
  auto map = cast<TensorMapAttr>(maps[0]);
  EXPECT_EQ(map.getMode(), TensorMapMode::Tiled);
  EXPECT_EQ(map.getArg(), 1);
  EXPECT_EQ(map.getGlobalArg(), 0);
  ASSERT_TRUE(map.getTiledMap());
  // The reference plan of a contiguous 8x64 f16 tile: 256 promoted u32s.
  const ::tile::tma::TensorMapDesc &desc = map.getTiledMap().getDesc();
  EXPECT_EQ(desc.rank, 1u);
  EXPECT_EQ(desc.dataType, ::tile::tma::TensorDataType::U32);
  EXPECT_EQ(desc.boxDim, std::vector<uint32_t>({256}));
  EXPECT_TRUE(desc.promoted);
  int encodes = 0;
  kernels->walk([&](func::CallOp call) {
    encodes += call.getCallee() == "tileTensorMapGetCached";
  });
  EXPECT_EQ(encodes, 1);
  EXPECT_EQ(MapRequestVariant::rewrites, 1);
  int copiesLeft = 0;
  kernels->walk([&](CopyAsyncOp) { ++copiesLeft; });
  EXPECT_EQ(copiesLeft, 0);
}

namespace {
/// Declines every copy with "<name>: declines".
class DecliningVariant : public CopyVariant {
public:
  DecliningVariant(std::string name, int priority)
      : CopyVariant(name, priority) {
    addPredicate("always", [name](Operation *) {
      return PredicateResult::failure(name + ": declines");
    });
  }
  bool handles(Operation *op) const override { return isa<CopyAsyncOp>(op); }
  LogicalResult rewrite(Operation *, const VariantMatch *,
                        ConversionPatternRewriter &,
                        const LLVMTypeConverter &) const override {
    return failure();
  }
};
} // namespace

// Variants of equal priority are tried in name order, whatever the order of
// registration, so the chosen variant and the decline list do not depend on
// which library registered first.
TEST_F(CopyVariantTest, EqualPriorityTriedInNameOrder) {
  variants().add(std::make_unique<DecliningVariant>("zz-embedder", 50));
  variants().add(std::make_unique<DecliningVariant>("aa-embedder", 50));
  FailureOr<DispatchResult> r = dispatchCopy(copies[1]);
  ASSERT_TRUE(succeeded(r));
  ASSERT_NE(r->selected, nullptr);
  EXPECT_EQ(r->selected->getName(), "tma");
  ASSERT_EQ(r->declined.size(), 2u);
  EXPECT_EQ(r->declined[0].first, "aa-embedder");
  EXPECT_EQ(r->declined[0].second, "aa-embedder: declines");
  EXPECT_EQ(r->declined[1].first, "zz-embedder");
  EXPECT_EQ(r->declined[1].second, "zz-embedder: declines");
  // The built-in fallbacks of equal priority: collective before simt.
  std::vector<std::string> names = variants().names();
  auto pos = [&](const std::string &name) {
    return std::find(names.begin(), names.end(), name) - names.begin();
  };
  EXPECT_LT(pos("aa-embedder"), pos("zz-embedder"));
  EXPECT_LT(pos("zz-embedder"), pos("tma"));
  EXPECT_LT(pos("collective"), pos("simt"));
  EXPECT_LT(pos("simt"), static_cast<long>(names.size()));
}

// Variants belong to a context: one context's additions are invisible to
// another, which still has the built-in ones.
TEST_F(CopyVariantTest, VariantsAreOwnedByTheirContext) {
  variants().add(std::make_unique<F32Variant>(100));
  MLIRContext other;
  test::loadTileTestDialects(other);
  const CopyVariantRegistry *otherVariants = CopyVariantRegistry::get(&other);
  ASSERT_NE(otherVariants, nullptr);
  EXPECT_EQ(otherVariants->lookup("f32-only"), nullptr);
  EXPECT_EQ(otherVariants->names(),
            (std::vector<std::string>{"tma", "collective_tma", "collective",
                                      "simt"}));
  EXPECT_NE(variants().lookup("f32-only"), nullptr);
}

// A context whose tile dialect has no variants attached dispatches nothing,
// and says so for a recorded decision.
TEST(CopyVariantRegistryTest, NoVariantsWithoutTheBuiltinExtension) {
  MLIRContext context;
  DialectRegistry registry;
  registry.insert<func::FuncDialect, arith::ArithDialect, TileDialect>();
  context.appendDialectRegistry(registry);
  context.loadAllAvailableDialects();
  EXPECT_EQ(CopyVariantRegistry::get(&context), nullptr);
}

// The decisions and the lowerings register apart: the planning passes'
// registration gives the built-in variants without lowerings, the
// conversion's attaches one to each, and only to variants that exist.
TEST(CopyVariantRegistryTest, LoweringsAttachApartFromDecisions) {
  auto variantsOf = [](void (*registerWith)(DialectRegistry &),
                       MLIRContext &context) {
    DialectRegistry registry;
    registry.insert<func::FuncDialect, arith::ArithDialect, TileDialect>();
    registerWith(registry);
    context.appendDialectRegistry(registry);
    context.loadAllAvailableDialects();
    return CopyVariantRegistry::get(&context);
  };
  MLIRContext decideOnly;
  const CopyVariantRegistry *decisions =
      variantsOf(registerBuiltinCopyVariants, decideOnly);
  ASSERT_NE(decisions, nullptr);
  EXPECT_EQ(decisions->names(),
            (std::vector<std::string>{"tma", "collective_tma", "collective",
                                      "simt"}));
  for (const CopyVariant *variant : decisions->byPriority())
    EXPECT_EQ(variant->getLowering(), nullptr) << variant->getName().str();

  MLIRContext lowering;
  const CopyVariantRegistry *lowered =
      variantsOf(registerBuiltinCopyLowerings, lowering);
  ASSERT_NE(lowered, nullptr);
  for (const CopyVariant *variant : lowered->byPriority())
    EXPECT_NE(variant->getLowering(), nullptr) << variant->getName().str();
  EXPECT_FALSE(CopyVariantRegistry::getMutable(&lowering)->setLowering(
      "no-such-variant", nullptr));
}

// Adding and looking up from several threads at once (a pass manager runs
// nested passes in parallel while an embedder may still add variants).
TEST_F(CopyVariantTest, ConcurrentAddAndLookup) {
  std::vector<std::thread> threads;
  std::atomic<int> tmaSeen{0};
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&, t] {
      for (int i = 0; i < 200; ++i) {
        variants().add(std::make_unique<DecliningVariant>(
            "embedder-" + std::to_string(t) + "-" + std::to_string(i % 8),
            i % 20));
        if (variants().lookup("tma"))
          ++tmaSeen;
        (void)variants().byPriority();
      }
    });
  for (std::thread &thread : threads)
    thread.join();
  EXPECT_EQ(tmaSeen.load(), 800);
  // 4 threads x 8 names, plus the four built-in variants.
  EXPECT_EQ(variants().names().size(), 36u);
}
