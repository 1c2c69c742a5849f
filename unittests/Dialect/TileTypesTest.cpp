//===- TileTypesTest.cpp - Layout attributes and element sizes from C++ ---===//
//
// What an embedder building types from C++ relies on, where the textual
// syntax cannot reach: the layout attribute's verifier rejects swizzle modes
// the hardware lacks, and element sizes exist only for whole bytes.
//
//===----------------------------------------------------------------------===//

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "tile/Dialect/Tile/IR/TileOps.h"
#include "tile/Dialect/Tile/IR/TileTypeUtils.h"
#include "tile/InitAllTile.h"
#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::tile;

namespace {

class TileTypesTest : public ::testing::Test {
protected:
  void SetUp() override {
    DialectRegistry registry;
    registerAllTileDialects(registry);
    context.appendDialectRegistry(registry);
    context.loadAllAvailableDialects();
  }

  /// The attribute, or null with the verifier's message in `error`.
  LayoutAttr layout(ArrayRef<int64_t> extents, ArrayRef<int64_t> strides,
                    unsigned swizzle, std::string &error) {
    error.clear();
    ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diag) {
      error = diag.str();
      return success();
    });
    return LayoutAttr::getChecked(
        [&] { return emitError(UnknownLoc::get(&context)); }, &context, extents,
        strides, swizzle);
  }

  MLIRContext context;
};

TEST_F(TileTypesTest, SwizzleModesZeroToThree) {
  std::string error;
  for (unsigned mode = 0; mode <= 3; ++mode) {
    LayoutAttr attr = layout({8, 64}, {64, 1}, mode, error);
    ASSERT_TRUE(attr) << mode << ": " << error;
    EXPECT_EQ(attr.getSwizzleMode(), static_cast<::tile::Swizzle>(mode));
  }
  EXPECT_FALSE(layout({8, 64}, {64, 1}, 4, error));
  EXPECT_EQ(error, "unknown swizzle mode 4");
  EXPECT_FALSE(layout({8, 64}, {64, 1}, 7, error));
  EXPECT_EQ(error, "unknown swizzle mode 7");
}

// The identity-layout shortcut gives what MemRefType::getStridesAndOffset
// gives, dynamic and zero sizes included.
TEST_F(TileTypesTest, StridesAndOffsetMatchUpstream) {
  Builder b(&context);
  int64_t dyn = ShapedType::kDynamic;
  SmallVector<SmallVector<int64_t>> shapes = {
      {},         {4},         {4, 8}, {dyn, 4},       {4, dyn},
      {0, 4},     {4, 0, 3},   {1, 1}, {2, dyn, 3, 4}, {3, 5, 7, 11, 13},
      {dyn, dyn}, {4, 1, 0, 2}};
  for (ArrayRef<int64_t> shape : shapes) {
    auto type = MemRefType::get(shape, b.getF16Type());
    SmallVector<int64_t> strides, expectedStrides;
    int64_t offset = -1, expectedOffset = -2;
    ASSERT_TRUE(succeeded(getMemRefStridesAndOffset(type, strides, offset)));
    ASSERT_TRUE(
        succeeded(type.getStridesAndOffset(expectedStrides, expectedOffset)));
    EXPECT_EQ(strides, expectedStrides);
    EXPECT_EQ(offset, expectedOffset);
  }
}

TEST_F(TileTypesTest, ElementBytesOnlyForWholeBytes) {
  Builder b(&context);
  auto bytesOf = [&](Type element) {
    return getElementBytes(MemRefType::get({8}, element));
  };
  EXPECT_EQ(bytesOf(b.getI8Type()), 1);
  EXPECT_EQ(bytesOf(b.getF16Type()), 2);
  EXPECT_EQ(bytesOf(b.getIntegerType(24)), 3);
  EXPECT_EQ(bytesOf(b.getF64Type()), 8);
  EXPECT_EQ(bytesOf(b.getIntegerType(128)), 16);
  EXPECT_EQ(bytesOf(b.getI1Type()), std::nullopt);
  EXPECT_EQ(bytesOf(b.getIntegerType(4)), std::nullopt);
  EXPECT_EQ(bytesOf(b.getIntegerType(12)), std::nullopt);
  EXPECT_EQ(bytesOf(b.getIntegerType(36)), std::nullopt);
  EXPECT_EQ(bytesOf(b.getIndexType()), std::nullopt);
}

} // namespace
