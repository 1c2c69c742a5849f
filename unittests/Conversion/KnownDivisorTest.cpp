//===- KnownDivisorTest.cpp - Facts proven before planning ----------------===//
//
// The divisors `getKnownDivisor` (DivisorAnalysis) proves for dynamic offsets
// and the shared base alignments `getSharedBaseAlignment` proves for buffers:
// both feed the planner's alignment rules, so an overstated value lets a
// misaligned TMA through. Every expected value is exact.
//
//===----------------------------------------------------------------------===//

#include "../TileTestContext.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "tile/Dialect/Tile/IR/CopyRequest.h"
#include "tile/Dialect/Tile/IR/DivisorAnalysis.h"
#include "tile/Dialect/Tile/IR/TileOps.h"
#include "tile/InitAllTile.h"
#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::tile;

namespace {

class FactsTest : public ::testing::Test {
protected:
  void SetUp() override { test::loadTileTestDialects(context); }

  /// Parses `body` as a function and returns its return operands.
  SmallVector<Value> parseResults(StringRef source) {
    module = parseSourceString<ModuleOp>(source, &context);
    EXPECT_TRUE(module);
    SmallVector<Value> results;
    if (!module)
      return results;
    module->walk([&](func::ReturnOp ret) {
      results.append(ret.operand_begin(), ret.operand_end());
    });
    return results;
  }

  /// Parses a function of one index argument `%k` and points `b` at the
  /// start of its body; returns `%k` (null when the parse failed).
  Value startBuilding(OpBuilder &b) {
    SmallVector<Value> v = parseResults(R"mlir(
func.func @f(%k: index) -> index {
  return %k : index
}
)mlir");
    if (v.size() != 1)
      return Value();
    auto func = *module->getOps<func::FuncOp>().begin();
    b.setInsertionPointToStart(&func.getBody().front());
    return v[0];
  }

  MLIRContext context;
  OwningOpRef<ModuleOp> module;
};

TEST_F(FactsTest, KnownDivisorConstantsAndBlockArguments) {
  SmallVector<Value> v = parseResults(R"mlir(
func.func @f(%a: index, %b: i32) -> (index, index, index, index, i32, index, index, i64, i64) {
  %c12 = arith.constant 12 : index
  %cm12 = arith.constant -12 : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %big = arith.constant 3221225472 : i64
  %odd = arith.constant 4649045868 : i64
  return %c12, %cm12, %c0, %a, %b, %c1, %c12, %big, %odd : index, index, index, index, i32, index, index, i64, i64
}
)mlir");
  ASSERT_EQ(v.size(), 9u);
  EXPECT_EQ(getKnownDivisor(v[0]), 12);
  EXPECT_EQ(getKnownDivisor(v[1]), 12);
  EXPECT_EQ(getKnownDivisor(v[2]), int64_t(1) << 30);
  EXPECT_EQ(getKnownDivisor(v[3]), 1);
  EXPECT_EQ(getKnownDivisor(v[4]), 1);
  EXPECT_EQ(getKnownDivisor(v[5]), 1);
  EXPECT_EQ(getKnownDivisor(v[6]), 12);
  // 3 * 2^30 and 4 * 3^19 exceed 2^30: the reported divisor is their
  // power-of-two factor, which divides them.
  EXPECT_EQ(getKnownDivisor(v[7]), int64_t(1) << 30);
  EXPECT_EQ(getKnownDivisor(v[8]), 4);
}

TEST_F(FactsTest, KnownDivisorArithmetic) {
  SmallVector<Value> v = parseResults(R"mlir(
func.func @f(%a: index, %b: index) -> (index, index, index, index, index, index, index, index, index, index) {
  %c4 = arith.constant 4 : index
  %c6 = arith.constant 6 : index
  %c8 = arith.constant 8 : index
  %c12 = arith.constant 12 : index
  %c18 = arith.constant 18 : index
  %c24 = arith.constant 24 : index
  %a8 = arith.muli %a, %c8 : index
  %b12 = arith.muli %c12, %b : index
  %sum = arith.addi %c12, %c18 : index
  %sum2 = arith.addi %a8, %c12 : index
  %sum3 = arith.addi %a8, %b12 : index
  %diff = arith.subi %a8, %c24 : index
  %diff2 = arith.subi %b12, %c18 : index
  %prod = arith.muli %a8, %c6 : index
  %prod2 = arith.muli %a8, %b12 : index
  %plain = arith.addi %a, %c4 : index
  return %sum, %sum2, %sum3, %diff, %diff2, %prod, %prod2, %plain, %a8, %b12 : index, index, index, index, index, index, index, index, index, index
}
)mlir");
  ASSERT_EQ(v.size(), 10u);
  EXPECT_EQ(getKnownDivisor(v[0]), 6);  // 12 + 18: gcd, not max
  EXPECT_EQ(getKnownDivisor(v[1]), 4);  // 8a + 12
  EXPECT_EQ(getKnownDivisor(v[2]), 4);  // 8a + 12b
  EXPECT_EQ(getKnownDivisor(v[3]), 8);  // 8a - 24
  EXPECT_EQ(getKnownDivisor(v[4]), 6);  // 12b - 18
  EXPECT_EQ(getKnownDivisor(v[5]), 48); // 8a * 6
  EXPECT_EQ(getKnownDivisor(v[6]), 96); // 8a * 12b
  EXPECT_EQ(getKnownDivisor(v[7]), 1);  // a + 4
  EXPECT_EQ(getKnownDivisor(v[8]), 8);
  EXPECT_EQ(getKnownDivisor(v[9]), 12);
}

TEST_F(FactsTest, KnownDivisorShiftsAndCasts) {
  SmallVector<Value> v = parseResults(R"mlir(
func.func @f(%a: index, %n: index, %x: i32) -> (index, index, index, index, i32, i64, i64, i64, index, index) {
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c30 = arith.constant 30 : index
  %cm1 = arith.constant -1 : index
  %a3 = arith.muli %a, %c3 : index
  %s1 = arith.shli %a3, %c2 : index
  %s2 = arith.shli %a, %n : index
  %s3 = arith.shli %a, %c30 : index
  %s4 = arith.shli %a, %cm1 : index
  %c16 = arith.constant 16 : i32
  %x16 = arith.muli %x, %c16 : i32
  %e1 = arith.extsi %x16 : i32 to i64
  %e2 = arith.extui %x16 : i32 to i64
  %i1 = arith.index_cast %s1 : index to i64
  %i2 = arith.index_castui %x16 : i32 to index
  %q = arith.divui %s1, %c4 : index
  return %s1, %s2, %s3, %s4, %x16, %e1, %e2, %i1, %i2, %q : index, index, index, index, i32, i64, i64, i64, index, index
}
)mlir");
  ASSERT_EQ(v.size(), 10u);
  EXPECT_EQ(getKnownDivisor(v[0]), 12); // (3a) << 2
  EXPECT_EQ(getKnownDivisor(v[1]), 1);  // a << n
  EXPECT_EQ(getKnownDivisor(v[2]), 1);  // a << 30: not analysed
  EXPECT_EQ(getKnownDivisor(v[3]), 1);  // a << -1
  EXPECT_EQ(getKnownDivisor(v[4]), 16);
  EXPECT_EQ(getKnownDivisor(v[5]), 16);
  EXPECT_EQ(getKnownDivisor(v[6]), 16);
  EXPECT_EQ(getKnownDivisor(v[7]), 12);
  EXPECT_EQ(getKnownDivisor(v[8]), 16);
  EXPECT_EQ(getKnownDivisor(v[9]), 1); // divui: unknown
}

TEST_F(FactsTest, KnownDivisorOfNarrowArithmetic) {
  // i32 and i8 arithmetic wraps: only power-of-two divisors survive (3x in
  // i32 is not a multiple of 3 after a wrap), up to 2^width; constants are
  // exact.
  SmallVector<Value> v = parseResults(R"mlir(
func.func @f(%x: i32, %y: i8, %a: index) -> (i32, i32, index, i32, i8, i8, i32, index) {
  %c3 = arith.constant 3 : i32
  %c12 = arith.constant 12 : i32
  %c64 = arith.constant 64 : i8
  %c48 = arith.constant 48 : index
  %x3 = arith.muli %x, %c3 : i32
  %x12 = arith.muli %x, %c12 : i32
  %i12 = arith.index_cast %x12 : i32 to index
  %y64 = arith.muli %y, %c64 : i8
  %y4096 = arith.muli %y64, %c64 : i8
  %a48 = arith.muli %a, %c48 : index
  %t48 = arith.index_cast %a48 : index to i32
  return %x3, %x12, %i12, %c12, %y64, %y4096, %t48, %a48 : i32, i32, index, i32, i8, i8, i32, index
}
)mlir");
  ASSERT_EQ(v.size(), 8u);
  EXPECT_EQ(getKnownDivisor(v[0]), 1);
  EXPECT_EQ(getKnownDivisor(v[1]), 4);
  EXPECT_EQ(getKnownDivisor(v[2]), 4);
  EXPECT_EQ(getKnownDivisor(v[3]), 12);
  EXPECT_EQ(getKnownDivisor(v[4]), 64);
  EXPECT_EQ(getKnownDivisor(v[5]), 256); // 4096 y wraps to 0 in i8
  EXPECT_EQ(getKnownDivisor(v[6]), 16);  // 48 a truncated to i32
  EXPECT_EQ(getKnownDivisor(v[7]), 48);
}

TEST_F(FactsTest, KnownDivisorStaysATrueDivisorPastTheCap) {
  // Products and shifts past 2^30 keep a divisor of the value: its power-of-
  // two factor (capped at 2^30), never 2^30 itself when 2^30 does not divide.
  SmallVector<Value> v = parseResults(R"mlir(
func.func @f(%a: index, %b: index) -> (index, index, index, index, index) {
  %p = arith.constant 387420489 : index
  %c4 = arith.constant 4 : index
  %c2p20 = arith.constant 1048576 : index
  %c3 = arith.constant 3 : index
  %c29 = arith.constant 29 : index
  %a3 = arith.muli %a, %p : index
  %m1 = arith.muli %a3, %c4 : index
  %a20 = arith.muli %a, %c2p20 : index
  %b20 = arith.muli %b, %c2p20 : index
  %m2 = arith.muli %a20, %b20 : index
  %m3 = arith.muli %m2, %c3 : index
  %t = arith.muli %a, %c3 : index
  %s = arith.shli %t, %c29 : index
  return %a3, %m1, %m2, %m3, %s : index, index, index, index, index
}
)mlir");
  ASSERT_EQ(v.size(), 5u);
  EXPECT_EQ(getKnownDivisor(v[0]), 387420489);        // 3^18
  EXPECT_EQ(getKnownDivisor(v[1]), 4);                // 4 * 3^18 > 2^30
  EXPECT_EQ(getKnownDivisor(v[2]), int64_t(1) << 30); // 2^40
  EXPECT_EQ(getKnownDivisor(v[3]), int64_t(1) << 30); // 3 * 2^40
  EXPECT_EQ(getKnownDivisor(v[4]), int64_t(1) << 29); // 3 * 2^29
}

TEST_F(FactsTest, SharedBaseAlignment) {
  SmallVector<Value> v = parseResults(R"mlir(
func.func @f(%k: index, %arg: memref<8x64xf16, #tile.layout<(8, 64)>, #gpu.address_space<workgroup>>)
    -> (memref<8x64xf16, #tile.layout<(8, 64)>, #gpu.address_space<workgroup>>,
        memref<8x64xf16, #tile.layout<(8, 64)>, #gpu.address_space<workgroup>>,
        memref<8x64xf16, #tile.layout<(8, 64)>, #gpu.address_space<workgroup>>,
        memref<8x64xf16, #tile.layout<(8, 64)>, #gpu.address_space<workgroup>>,
        memref<8x64xf16, #tile.layout<(8, 64)>, #gpu.address_space<workgroup>>,
        memref<1x96xf16, #tile.layout<(1, 96)>, #gpu.address_space<workgroup>>,
        memref<1x96xf16, #tile.layout<(1, 96)>, #gpu.address_space<workgroup>>,
        memref<8x64xf16, #tile.layout<(8, 64)>, #gpu.address_space<workgroup>>,
        memref<8x64xf16, #tile.layout<(8, 64)>, #gpu.address_space<workgroup>>) {
  %a0 = tile.arena_view [0] : memref<8x64xf16, #tile.layout<(8, 64)>, #gpu.address_space<workgroup>>
  %a256 = tile.arena_view [256] : memref<8x64xf16, #tile.layout<(8, 64)>, #gpu.address_space<workgroup>>
  %a384 = tile.arena_view [384] : memref<8x64xf16, #tile.layout<(8, 64)>, #gpu.address_space<workgroup>>
  %a1088 = tile.arena_view [1088] : memref<8x64xf16, #tile.layout<(8, 64)>, #gpu.address_space<workgroup>>
  %a4096 = tile.arena_view [4096] : memref<8x64xf16, #tile.layout<(8, 64)>, #gpu.address_space<workgroup>>
  %st = tile.arena_view [0] : memref<3x1x96xf16, #tile.layout<(3, 1, 96)>, #gpu.address_space<workgroup>>
  %s1 = tile.stage %st[%k] : memref<3x1x96xf16, #tile.layout<(3, 1, 96)>, #gpu.address_space<workgroup>> -> memref<1x96xf16, #tile.layout<(1, 96)>, #gpu.address_space<workgroup>>
  %st2 = tile.arena_view [2048] : memref<2x1x96xf16, #tile.layout<(2, 1, 96) : (128, 96, 1)>, #gpu.address_space<workgroup>>
  %s2 = tile.stage %st2[%k] : memref<2x1x96xf16, #tile.layout<(2, 1, 96) : (128, 96, 1)>, #gpu.address_space<workgroup>> -> memref<1x96xf16, #tile.layout<(1, 96)>, #gpu.address_space<workgroup>>
  %st3 = tile.arena_view [128] : memref<3x8x64xf16, #tile.layout<(3, 8, 64)>, #gpu.address_space<workgroup>>
  %s3 = tile.stage %st3[%k] : memref<3x8x64xf16, #tile.layout<(3, 8, 64)>, #gpu.address_space<workgroup>> -> memref<8x64xf16, #tile.layout<(8, 64)>, #gpu.address_space<workgroup>>
  return %a0, %a256, %a384, %a1088, %a4096, %s1, %s2, %s3, %arg : memref<8x64xf16, #tile.layout<(8, 64)>, #gpu.address_space<workgroup>>,
      memref<8x64xf16, #tile.layout<(8, 64)>, #gpu.address_space<workgroup>>,
      memref<8x64xf16, #tile.layout<(8, 64)>, #gpu.address_space<workgroup>>,
      memref<8x64xf16, #tile.layout<(8, 64)>, #gpu.address_space<workgroup>>,
      memref<8x64xf16, #tile.layout<(8, 64)>, #gpu.address_space<workgroup>>,
      memref<1x96xf16, #tile.layout<(1, 96)>, #gpu.address_space<workgroup>>,
      memref<1x96xf16, #tile.layout<(1, 96)>, #gpu.address_space<workgroup>>,
      memref<8x64xf16, #tile.layout<(8, 64)>, #gpu.address_space<workgroup>>,
      memref<8x64xf16, #tile.layout<(8, 64)>, #gpu.address_space<workgroup>>
}
)mlir");
  ASSERT_EQ(v.size(), 9u);
  EXPECT_EQ(getSharedBaseAlignment(v[0]), 1024);
  EXPECT_EQ(getSharedBaseAlignment(v[1]), 256);
  EXPECT_EQ(getSharedBaseAlignment(v[2]), 128);
  EXPECT_EQ(getSharedBaseAlignment(v[3]), 64); // 1088 = 17 * 64
  EXPECT_EQ(getSharedBaseAlignment(v[4]), 1024);
  // Stages 192 B apart: 64-byte aligned whatever the arena offset.
  EXPECT_EQ(getSharedBaseAlignment(v[5]), 64);
  // Stages 256 B apart in an arena view at 2048.
  EXPECT_EQ(getSharedBaseAlignment(v[6]), 256);
  // Stages 1024 B apart from offset 128: the offset limits.
  EXPECT_EQ(getSharedBaseAlignment(v[7]), 128);
  // A function argument: the contract's 1024.
  EXPECT_EQ(getSharedBaseAlignment(v[8]), 1024);
}

/// `count` additions of 16 to 8 * %k, built op by op; returns the last.
static Value buildLinearChain(OpBuilder &b, Location loc, Value k,
                              unsigned count) {
  Value c8 = arith::ConstantIndexOp::create(b, loc, 8);
  Value c16 = arith::ConstantIndexOp::create(b, loc, 16);
  Value v = arith::MulIOp::create(b, loc, k, c8);
  for (unsigned i = 0; i < count; ++i)
    v = arith::AddIOp::create(b, loc, v, c16);
  return v;
}

TEST_F(FactsTest, KnownDivisorLooksAtMostMaxDepthProducersDeep) {
  OpBuilder b(&context);
  Value k = startBuilding(b);
  ASSERT_TRUE(k);
  Location loc = b.getUnknownLoc();
  // 8k + 16n: a multiple of 8 when the walk reaches 8k.
  unsigned within = DivisorAnalysis::kMaxDepth - 2;
  EXPECT_EQ(getKnownDivisor(buildLinearChain(b, loc, k, within)), 8);
  // One producer more than the bound: unknown, never a crash (100,000 ops
  // deep would overflow a recursive walk's stack).
  EXPECT_EQ(
      getKnownDivisor(buildLinearChain(b, loc, k, DivisorAnalysis::kMaxDepth)),
      1);
  EXPECT_EQ(getKnownDivisor(buildLinearChain(b, loc, k, 100000)), 1);
  // One analysis asked twice answers the second time from its record, and
  // the same as the first.
  DivisorAnalysis analysis;
  Value shallow = buildLinearChain(b, loc, k, 4);
  EXPECT_EQ(analysis.getKnownDivisor(shallow), 8);
  EXPECT_EQ(analysis.getKnownDivisor(shallow), 8);
}

TEST_F(FactsTest, KnownDivisorWalksSharedSubexpressionsOnce) {
  OpBuilder b(&context);
  Value k = startBuilding(b);
  ASSERT_TRUE(k);
  Location loc = b.getUnknownLoc();
  // 60 levels of %a(i+1) = %a(i) + %a(i) over 8k: 2^60 paths to the root,
  // 61 distinct values, each walked once. A sum is a multiple of the gcd of
  // its operands' divisors: 8 at every level.
  Value a = arith::MulIOp::create(b, loc, k,
                                  arith::ConstantIndexOp::create(b, loc, 8));
  for (int i = 0; i < 60; ++i)
    a = arith::AddIOp::create(b, loc, a, a);
  EXPECT_EQ(getKnownDivisor(a), 8);
}

TEST_F(FactsTest, KnownDivisorStopsAtUseDefCycles) {
  // Graph regions allow a value to use itself through other ops; the walk
  // must stop there (a cycle proves nothing) instead of looping.
  SmallVector<Value> v = parseResults(R"mlir(
func.func @f(%k: index) -> (index, index) {
  %c8 = arith.constant 8 : index
  %a = arith.muli %k, %c8 : index
  %b = arith.addi %a, %c8 : index
  %c = arith.addi %b, %c8 : index
  return %b, %c : index, index
}
)mlir");
  ASSERT_EQ(v.size(), 2u);
  Operation *first = v[0].getDefiningOp();
  Operation *second = v[1].getDefiningOp();
  // %b = %c + 8 and %c = %b + 8: each is computed from the other, so
  // neither is provably a multiple of anything.
  first->setOperand(0, v[1]);
  EXPECT_EQ(getKnownDivisor(v[0]), 1);
  EXPECT_EQ(getKnownDivisor(v[1]), 1);
  // %c = %b + %c: a value that uses itself.
  second->setOperand(1, v[1]);
  EXPECT_EQ(getKnownDivisor(v[1]), 1);
}

} // namespace
