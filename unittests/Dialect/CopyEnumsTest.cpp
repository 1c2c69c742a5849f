//===- CopyEnumsTest.cpp - Typed accessors of the copy ops' attributes ----===//
//
// `oob`, `reduce`, `cache_hint` and `scope` are string attributes in the IR
// and enums (TileEnums.td) in C++. Every enum value reads back through the
// ops' typed accessors and prints as the string it was parsed from; absent
// attributes read as their defaults, and names outside an enum (which only an
// unverified op can carry) as nullopt.
//
//===----------------------------------------------------------------------===//

#include "../TileTestContext.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/Parser/Parser.h"
#include "tile/Dialect/Tile/IR/TileOps.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::tile;

namespace {

// %gf/%sf: an f32 load pair (NaN fill needs floats); %g/%s: an i32 store
// pair (every reduction accepts signless i32).
constexpr const char *kPrologue = R"mlir(
!sf = memref<8x64xf32, #tile.layout<(8, 64)>, #gpu.address_space<workgroup>>
!s = memref<8x64xi32, #tile.layout<(8, 64)>, #gpu.address_space<workgroup>>
!bars = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
func.func @f(%gf: memref<8x64xf32>, %g: memref<8x64xi32>, %bar: !bars) {
  %c0 = arith.constant 0 : index
  %sf = tile.arena_view [0] : !sf
  %s = tile.arena_view [4096] : !s
)mlir";

class CopyEnumsTest : public ::testing::Test {
protected:
  void SetUp() override { test::loadTileTestDialects(context); }

  /// The single OpT of a function whose body is `copy`; null when the module
  /// fails to parse or, with `verify`, to verify.
  template <typename OpT>
  OpT parse(const std::string &copy, bool verify = true) {
    std::string source =
        std::string(kPrologue) + "  " + copy + "\n  return\n}\n";
    module = parseSourceString<ModuleOp>(
        source, ParserConfig(&context, /*verifyAfterParse=*/verify));
    if (!module)
      return nullptr;
    OpT found;
    module->walk([&](OpT op) { found = op; });
    return found;
  }

  /// A load with the attributes `attrs` (`{...}` contents).
  CopyAsyncOp load(const std::string &attrs, bool verify = true) {
    return parse<CopyAsyncOp>(
        "tile.copy_async %sf[0, 0] [8, 64], %gf[0, 0] [8, 64] "
        "barrier(%bar[%c0]) {" +
            attrs + "} : !sf, memref<8x64xf32>, !bars",
        verify);
  }
  CopyAsyncOp store(const std::string &attrs, bool verify = true) {
    return parse<CopyAsyncOp>("tile.copy_async %g[0, 0] [8, 64], %s[0, 0] "
                              "[8, 64] {" +
                                  attrs + "} : memref<8x64xi32>, !s",
                              verify);
  }
  CopyOp copy(const std::string &attrs, bool verify = true) {
    return parse<CopyOp>("tile.copy %g[0, 0] [8, 64], %s[0, 0] [8, 64] {" +
                             attrs + "} : memref<8x64xi32>, !s",
                         verify);
  }

  static std::string print(Operation *op) {
    std::string text;
    llvm::raw_string_ostream os(text);
    op->print(os);
    return text;
  }

  MLIRContext context;
  OwningOpRef<ModuleOp> module;
};

/// `key = "name"` for an enum value.
template <typename E>
std::string attr(StringRef key, E value) {
  return (key + " = \"" + stringifyEnum(value) + "\"").str();
}

TEST_F(CopyEnumsTest, EveryOobModeRoundTrips) {
  for (uint32_t i = 0; i <= getMaxEnumValForOobMode(); ++i) {
    OobMode mode = *symbolizeOobMode(i);
    std::string text = attr("oob", mode);
    CopyAsyncOp op = load(text);
    ASSERT_TRUE(op) << text;
    EXPECT_EQ(op.getOobKind(), mode) << text;
    EXPECT_NE(print(op).find("{" + text + "}"), std::string::npos) << text;
  }
}

TEST_F(CopyEnumsTest, EveryReduceModeRoundTrips) {
  for (uint32_t i = 0; i <= getMaxEnumValForReduceMode(); ++i) {
    ReduceMode mode = *symbolizeReduceMode(i);
    std::string text = attr("reduce", mode);
    CopyAsyncOp op = store(text);
    ASSERT_TRUE(op) << text;
    EXPECT_EQ(op.getReduceKind(), mode) << text;
    EXPECT_NE(print(op).find("{" + text + "}"), std::string::npos) << text;
    // The TMA core spells the reduction the same way.
    EXPECT_EQ(::tile::tma::toString(toTmaReduceKind(mode)),
              stringifyReduceMode(mode));
  }
}

TEST_F(CopyEnumsTest, EveryCacheHintRoundTrips) {
  for (uint32_t i = 0; i <= getMaxEnumValForCacheHint(); ++i) {
    CacheHint hint = *symbolizeCacheHint(i);
    std::string text = attr("cache_hint", hint);
    CopyAsyncOp op = load(text);
    ASSERT_TRUE(op) << text;
    EXPECT_EQ(op.getCacheHintKind(), hint) << text;
    EXPECT_NE(print(op).find("{" + text + "}"), std::string::npos) << text;
  }
}

TEST_F(CopyEnumsTest, EveryCopyScopeRoundTrips) {
  for (uint32_t i = 0; i <= getMaxEnumValForCopyScope(); ++i) {
    CopyScope scope = *symbolizeCopyScope(i);
    std::string text = attr("scope", scope);
    CopyOp op = copy(text);
    ASSERT_TRUE(op) << text;
    EXPECT_EQ(op.getScopeKind(), scope) << text;
    EXPECT_NE(print(op).find("{" + text + "}"), std::string::npos) << text;
  }
}

TEST_F(CopyEnumsTest, AbsentAttributesReadAsDefaults) {
  CopyAsyncOp loadOp = load("");
  ASSERT_TRUE(loadOp);
  EXPECT_EQ(loadOp.getOobKind(), OobMode::Zero);
  EXPECT_EQ(loadOp.getReduceKind(), std::nullopt);
  EXPECT_EQ(loadOp.getCacheHintKind(), std::nullopt);
  CopyOp copyOp = copy("");
  ASSERT_TRUE(copyOp);
  EXPECT_EQ(copyOp.getScopeKind(), CopyScope::Cta);
}

TEST_F(CopyEnumsTest, NamesOutsideTheEnumsReadAsNullopt) {
  // The names are case-sensitive: the C++ symbol `NaN` is not the IR's "nan".
  CopyAsyncOp loadOp = load("oob = \"NaN\", cache_hint = \"evict_all\"",
                            /*verify=*/false);
  ASSERT_TRUE(loadOp);
  EXPECT_EQ(loadOp.getOobKind(), std::nullopt);
  EXPECT_EQ(loadOp.getCacheHintKind(), std::nullopt);
  CopyAsyncOp storeOp = store("reduce = \"sum\"", /*verify=*/false);
  ASSERT_TRUE(storeOp);
  EXPECT_EQ(storeOp.getReduceKind(), std::nullopt);
  CopyOp copyOp = copy("scope = \"block\"", /*verify=*/false);
  ASSERT_TRUE(copyOp);
  EXPECT_EQ(copyOp.getScopeKind(), std::nullopt);
  // The verifier rejects each of them (the lit tests pin its messages).
  ScopedDiagnosticHandler silence(&context,
                                  [](Diagnostic &) { return success(); });
  EXPECT_FALSE(load("oob = \"NaN\""));
  EXPECT_FALSE(load("cache_hint = \"evict_all\""));
  EXPECT_FALSE(store("reduce = \"sum\""));
  EXPECT_FALSE(copy("scope = \"block\""));
}

} // namespace
