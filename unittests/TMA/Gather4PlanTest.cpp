//===- Gather4PlanTest.cpp - Plans of the four-row (gather4) forms --------===//

#include "TestUtil.h"

using namespace tile;
using namespace tile::tma;
using namespace tile::tma::test;

namespace {

/// Four rows, columns [col, col + n) of a rows x cols table into a 4 x n
/// shared tile of layout `shared`; rows r0..r3 are symbols s0..s3.
CopyRequest rows4(ElementType t, int64_t rows, int64_t cols, int64_t n,
                  const std::string &shared, int64_t col = 0) {
  CopyRequest r = load(t, Layout::rowMajor({rows, cols}), {rows, cols},
                       parse(shared), {4, n});
  r.globalSizes = {4, n};
  r.globalOffsets = {SymExpr(0), SymExpr(col)};
  r.gatherRows = {SymExpr::symbol(0), SymExpr::symbol(1), SymExpr::symbol(2),
                  SymExpr::symbol(3)};
  r.symbolDivisors = {1, 1, 1, 1};
  return r;
}

std::string declined(const CopyRequest &r) {
  PlanOutcome out = planTmaCopy(r);
  EXPECT_FALSE(out.plan);
  return messageOf(out.decline);
}

TEST(Gather4Plan, SwizzledRowsOneInstruction) {
  PlanOutcome out =
      planTmaCopy(rows4(f16(), 1024, 64, 64, "(4, 64), swizzle = 128B"));
  ASSERT_TRUE(out.plan) << messageOf(out.decline);
  const TmaPlan &p = *out.plan;
  EXPECT_EQ(p.map.dataType, TensorDataType::F16);
  EXPECT_EQ(p.map.rank, 2u);
  EXPECT_EQ(p.map.globalDim, (std::vector<uint64_t>{64, 1024}));
  EXPECT_EQ(p.map.globalStridesBytes, (std::vector<uint64_t>{128}));
  EXPECT_EQ(p.map.boxDim, (std::vector<uint32_t>{64, 1}));
  EXPECT_EQ(p.map.elementStrides, (std::vector<uint32_t>{1, 1}));
  EXPECT_EQ(p.map.swizzle, Swizzle::B128);
  EXPECT_FALSE(p.map.promoted);
  ASSERT_EQ(p.issues.size(), 1u);
  EXPECT_EQ(p.issues[0].smemByteOffset, SymExpr(0));
  EXPECT_EQ(
      p.issues[0].coords,
      (std::vector<SymExpr>{SymExpr(0), SymExpr::symbol(0), SymExpr::symbol(1),
                            SymExpr::symbol(2), SymExpr::symbol(3)}));
  EXPECT_EQ(p.bytes, 512);
}

TEST(Gather4Plan, NarrowRowsPadToTheSwizzleSpan) {
  // 32 f16 = 64 B rows under a 128B swizzle sit 128 B apart, as TMA writes
  // them; a column window starting at 32 is a coordinate, not a base.
  PlanOutcome out = planTmaCopy(
      rows4(f16(), 512, 128, 32, "(4, 32) : (64, 1), swizzle = 128B", 32));
  ASSERT_TRUE(out.plan) << messageOf(out.decline);
  EXPECT_EQ(out.plan->map.boxDim, (std::vector<uint32_t>{32, 1}));
  EXPECT_EQ(out.plan->map.globalDim, (std::vector<uint64_t>{128, 512}));
  EXPECT_EQ(out.plan->issues[0].coords[0], SymExpr(32));
  EXPECT_EQ(out.plan->bytes, 256);
}

TEST(Gather4Plan, RowsNotDenseInShared) {
  EXPECT_EQ(declined(rows4(f16(), 1024, 64, 32, "(4, 32) : (64, 1)")),
            "gather4: the shared region must hold the four rows as one dense "
            "box, 32 elements apart; element 32 is at offset 64, expected 32");
}

TEST(Gather4Plan, BoxRules) {
  EXPECT_EQ(declined(rows4(f32(), 64, 512, 512, "(4, 512)")),
            "box-dim: box dimension 0 is 512, TMA allows 1 to 256");
  EXPECT_EQ(declined(rows4(f16(), 64, 64, 4, "(4, 4)")),
            "inner-box-bytes: box 4 x 2 B = 8 B is not a multiple of 16");
  EXPECT_EQ(declined(rows4(f16(), 64, 128, 128, "(4, 128), swizzle = 128B")),
            "swizzle-span: inner box 128 x 2 B = 256 B exceeds the 128 B "
            "swizzle span");
}

TEST(Gather4Plan, ColumnAlignment) {
  EXPECT_EQ(declined(rows4(f16(), 64, 128, 64, "(4, 64)", 4)),
            "inner-coord-align: inner coordinate 4 x 2 B is not a multiple of "
            "16 B");
}

TEST(Gather4Plan, TensorShape) {
  CopyRequest r = rows4(f16(), 64, 64, 64, "(4, 64)");
  r.globalLayout = Layout::rowMajor({2, 32, 64});
  r.globalShape = {2, 32, 64};
  EXPECT_EQ(declined(r), "gather4: tile::gather4 and tile::scatter4 address a "
                         "2D tensor; the global buffer has 3 dimensions");
  CopyRequest cols = rows4(f16(), 64, 64, 64, "(4, 64)");
  cols.globalLayout = Layout::strided({64, 64}, {1, 64});
  EXPECT_EQ(declined(cols), "gather4: the tensor's columns must be contiguous "
                            "and its rows one stride apart; its layout is "
                            "(64, 64) : (1, 64)");
}

TEST(Gather4Plan, ScatterRowsInsideTheTensor) {
  CopyRequest r = rows4(f16(), 64, 64, 64, "(4, 64)");
  r.direction = Direction::SharedToGlobal;
  r.gatherRows[2] = SymExpr(64);
  EXPECT_EQ(declined(r),
            "store-bounds: scatter4 row 64 leaves the tensor's 64 rows");
  r.gatherRows[2] = SymExpr(-1);
  EXPECT_EQ(declined(r), "store-negative-coord: scatter4 row -1 is negative");
  // A gather may name rows outside the tensor: TMA fills them.
  r.direction = Direction::GlobalToShared;
  PlanOutcome out = planTmaCopy(r);
  ASSERT_TRUE(out.plan) << messageOf(out.decline);
  EXPECT_EQ(out.plan->issues[0].coords[3], SymExpr(-1));
}

} // namespace
