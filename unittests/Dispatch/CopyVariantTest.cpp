//===- CopyVariantTest.cpp - Embedders' copy variants ---------------------===//
//
// An embedder registers its own variant from C++; the dispatch tries it by
// priority, honours `dispatch = "<name>"`, and reports declines in order.
//
//===----------------------------------------------------------------------===//

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "tile/Conversion/TileToNVVM/Variants.h"
#include "tile/Dialect/Tile/IR/TileOps.h"
#include "tile/InitAllTile.h"
#include "gtest/gtest.h"

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
                        const TypeConverter &) const override {
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
    DialectRegistry registry;
    registry.insert<func::FuncDialect, arith::ArithDialect>();
    registerAllTileDialects(registry);
    context.appendDialectRegistry(registry);
    context.loadAllAvailableDialects();
    module = parseSourceString<ModuleOp>(kModule, &context);
    ASSERT_TRUE(module);
    module->walk([&](CopyAsyncOp op) { copies.push_back(op); });
    ASSERT_EQ(copies.size(), 3u);
    registerBuiltinCopyVariants();
  }

  MLIRContext context;
  OwningOpRef<ModuleOp> module;
  SmallVector<CopyAsyncOp> copies;
};
} // namespace

TEST_F(CopyVariantTest, BuiltinOrder) {
  std::vector<std::string> names = CopyVariantRegistry::global().names();
  // tma (10) before simt and collective (0, by name).
  ASSERT_GE(names.size(), 3u);
  EXPECT_EQ(names[0], "tma");
  FailureOr<DispatchResult> r = dispatchCopy(copies[0]);
  ASSERT_TRUE(succeeded(r));
  ASSERT_NE(r->selected, nullptr);
  EXPECT_EQ(r->selected->getName(), "tma");
  EXPECT_TRUE(r->declined.empty());
}

TEST_F(CopyVariantTest, EmbedderVariantByPriority) {
  CopyVariantRegistry::global().add(std::make_unique<F32Variant>(100));
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
  CopyVariantRegistry::global().add(std::make_unique<F32Variant>(-5));
  FailureOr<DispatchResult> again = dispatchCopy(copies[0]);
  ASSERT_TRUE(succeeded(again));
  EXPECT_EQ(again->selected->getName(), "tma");
  EXPECT_EQ(CopyVariantRegistry::global().lookup("f32-only")->getPriority(),
            -5);
}
