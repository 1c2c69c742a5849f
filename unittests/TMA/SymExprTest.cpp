//===- SymExprTest.cpp - Affine values and alignment proofs ---------------===//

#include "tile/TMA/SymExpr.h"

#include <gtest/gtest.h>

using namespace tile::tma;

namespace {

TEST(SymExpr, Arithmetic) {
  SymExpr a = SymExpr::symbol(1, 64) + SymExpr(3);
  SymExpr b = SymExpr::symbol(0, 2) + SymExpr::symbol(1, -64);
  EXPECT_EQ((a + b).str(), "3 + 2*s0");
  EXPECT_EQ((a * 2).str(), "6 + 128*s1");
  EXPECT_EQ((a - a).str(), "0");
  EXPECT_EQ(SymExpr::symbol(2, -1).str(), "-s2");
  EXPECT_EQ((SymExpr(4) - SymExpr::symbol(0, 3)).str(), "4 - 3*s0");
  EXPECT_TRUE(SymExpr(5).isConstant());
  EXPECT_EQ(SymExpr(5).constantValue(), 5);
  EXPECT_FALSE(a.constantValue());
  EXPECT_EQ(a.evaluate({0, 2}), 131);
  EXPECT_EQ(a.evaluate({}), 3);
}

TEST(SymExpr, Divisibility) {
  SymExpr e = SymExpr::symbol(0, 64) + SymExpr(128);
  ASSERT_TRUE(e.divExact(64));
  EXPECT_EQ(e.divExact(64)->str(), "2 + s0");
  EXPECT_FALSE(e.divExact(128));
  EXPECT_FALSE(e.provablyMultipleOf(128, {}));
  EXPECT_TRUE(e.provablyMultipleOf(128, {2}));
  EXPECT_TRUE(e.provablyMultipleOf(64, {}));
  SymExpr s = SymExpr::symbol(1, 6);
  EXPECT_TRUE(s.provablyMultipleOf(16, {1, 8}));
  EXPECT_FALSE(s.provablyMultipleOf(16, {1, 4}));
  EXPECT_TRUE(s.provablyMultipleOf(12, {1, 4}));
  EXPECT_FALSE(SymExpr(8).provablyMultipleOf(0, {}));
}

} // namespace
