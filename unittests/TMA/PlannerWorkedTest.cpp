//===- PlannerWorkedTest.cpp - Exact plans for worked cases ---------------===//

#include "WorkedCases.h"

using namespace tile;
using namespace tile::tma;
using namespace tile::tma::test;

namespace {

TEST(PlannerWorked, ReferenceDemoDescriptor) {
  CopyRequest r = referenceDemo();
  EXPECT_EQ(describe(planOk(r)),
            "f16 rank 3 dim [64, 8, 4] strides [512, 128] box [64, 8, 4] estr "
            "[1, 1, 1] swz 3 oob 0 base 0 | "
            "smem 0 @ [0, 0, 0] | "
            "bytes 4096");
}

TEST(PlannerWorked, Swizzle32B) {
  CopyRequest r =
      load(f16(), Layout::rowMajor({16, 64}), {16, 64},
           parse("(16, 4, 16) : (16, 256, 1), swizzle = 32B"), {16, 64});
  EXPECT_EQ(describe(planOk(r)),
            "f16 rank 3 dim [16, 16, 4] strides [128, 32] box [16, 16, 4] estr "
            "[1, 1, 1] swz 1 oob 0 base 0 | "
            "smem 0 @ [0, 0, 0] | "
            "bytes 2048");
}

TEST(PlannerWorked, Swizzle64B) {
  CopyRequest r =
      load(f16(), Layout::rowMajor({16, 64}), {16, 64},
           parse("(16, 2, 32) : (32, 512, 1), swizzle = 64B"), {16, 64});
  EXPECT_EQ(describe(planOk(r)),
            "f16 rank 3 dim [32, 16, 2] strides [128, 64] box [32, 16, 2] estr "
            "[1, 1, 1] swz 2 oob 0 base 0 | "
            "smem 0 @ [0, 0, 0] | "
            "bytes 2048");
}

TEST(PlannerWorked, NoSwizzleContiguousTilePromotes) {
  CopyRequest r = load(f16(), Layout::rowMajor({16, 64}), {16, 64},
                       parse("(16, 64)"), {16, 64});
  EXPECT_EQ(
      describe(planOk(r)),
      "u64 rank 1 dim [256] strides [] box [256] estr [1] swz 0 oob 0 base 0 | "
      "smem 0 @ [0] | "
      "bytes 2048");
}

TEST(PlannerWorked, BFloat16) {
  CopyRequest r = load(bf16(), Layout::rowMajor({64, 64}), {64, 64},
                       parse("(64, 64), swizzle = 128B"), {64, 64});
  EXPECT_EQ(describe(planOk(r)), "bf16 rank 2 dim [64, 64] strides [128] box "
                                 "[64, 64] estr [1, 1] swz 3 oob 0 base 0 | "
                                 "smem 0 @ [0, 0] | "
                                 "bytes 8192");
}

TEST(PlannerWorked, Float8TravelsAsU8) {
  CopyRequest r = load(fp8(), Layout::rowMajor({64, 128}), {64, 128},
                       parse("(64, 128), swizzle = 128B"), {64, 128});
  EXPECT_EQ(describe(planOk(r)), "u8 rank 2 dim [128, 64] strides [128] box "
                                 "[128, 64] estr [1, 1] swz 3 oob 0 base 0 | "
                                 "smem 0 @ [0, 0] | "
                                 "bytes 8192");
}

TEST(PlannerWorked, Unsigned32) {
  CopyRequest r = load(ui32(), Layout::rowMajor({32, 32}), {32, 32},
                       parse("(32, 32), swizzle = 128B"), {32, 32});
  EXPECT_EQ(describe(planOk(r)), "u32 rank 2 dim [32, 32] strides [128] box "
                                 "[32, 32] estr [1, 1] swz 3 oob 0 base 0 | "
                                 "smem 0 @ [0, 0] | "
                                 "bytes 4096");
}

TEST(PlannerWorked, Float64) {
  CopyRequest r = load(f64(), Layout::rowMajor({16, 16}), {16, 16},
                       parse("(16, 16), swizzle = 128B"), {16, 16});
  EXPECT_EQ(describe(planOk(r)), "f64 rank 2 dim [16, 16] strides [128] box "
                                 "[16, 16] estr [1, 1] swz 3 oob 0 base 0 | "
                                 "smem 0 @ [0, 0] | "
                                 "bytes 2048");
}

TEST(PlannerWorked, Rank1PartialRegionPromoted) {
  CopyRequest r =
      load(f32(), Layout::rowMajor({1024}), {1024}, parse("(512)"), {512});
  r.globalOffsets = {SymExpr(256)};
  r.globalSizes = {512};
  EXPECT_EQ(
      describe(planOk(r)),
      "u64 rank 1 dim [512] strides [] box [256] estr [1] swz 0 oob 0 base 0 | "
      "smem 0 @ [128] | "
      "bytes 2048");
}

TEST(PlannerWorked, Rank3FusesContiguousDims) {
  CopyRequest r =
      load(f16(), Layout::rowMajor({4, 16, 64}), {4, 16, 64},
           parse("(4, 16, 64) : (1024, 64, 1), swizzle = 128B"), {4, 16, 64});
  EXPECT_EQ(describe(planOk(r)), "f16 rank 2 dim [64, 64] strides [128] box "
                                 "[64, 64] estr [1, 1] swz 3 oob 0 base 0 | "
                                 "smem 0 @ [0, 0] | "
                                 "bytes 8192");
}

TEST(PlannerWorked, Rank5PaddedTensorSwizzleAtomsBecomeIssues) {
  CopyRequest r = rank5MultiIssue();
  EXPECT_EQ(describe(planOk(r)),
            "f16 rank 5 dim [128, 8, 4, 3, 2] strides [272, 2304, 9344, 28160] "
            "box [32, 8, 4, 3, 2] estr [1, 1, 1, 1, 1] swz 2 oob 0 base 0 | "
            "smem 0 @ [0, 0, 0, 0, 0] | "
            "smem 12288 @ [32, 0, 0, 0, 0] | "
            "smem 24576 @ [64, 0, 0, 0, 0] | "
            "smem 36864 @ [96, 0, 0, 0, 0] | "
            "bytes 49152");
}

TEST(PlannerWorked, PartialRegionAtOffset) {
  CopyRequest r = load(f16(), Layout::rowMajor({64, 128}), {64, 128},
                       parse("(16, 64), swizzle = 128B"), {16, 64});
  r.globalOffsets = {SymExpr(16), SymExpr(64)};
  r.globalSizes = {16, 64};
  EXPECT_EQ(describe(planOk(r)), "f16 rank 2 dim [128, 64] strides [256] box "
                                 "[64, 16] estr [1, 1] swz 3 oob 0 base 0 | "
                                 "smem 0 @ [64, 16] | "
                                 "bytes 2048");
}

TEST(PlannerWorked, PipelineStageDynamicOffsets) {
  // Stage s0 of a 4-stage buffer; global tile s1 of 64 rows.
  CopyRequest r =
      load(f16(), Layout::rowMajor({256, 64}), {256, 64},
           parse("(4, 64, 64) : (4096, 64, 1), swizzle = 128B"), {4, 64, 64});
  r.globalOffsets = {SymExpr::symbol(1, 64), SymExpr(0)};
  r.globalSizes = {64, 64};
  r.sharedOffsets = {SymExpr::symbol(0), SymExpr(0), SymExpr(0)};
  r.sharedSizes = {1, 64, 64};
  EXPECT_EQ(describe(planOk(r, {{0, 0}, {3, 2}, {1, 3}})),
            "f16 rank 2 dim [64, 256] strides [128] box [64, 64] estr [1, 1] "
            "swz 3 oob 0 base 0 | "
            "smem 8192*s0 @ [0, 64*s1] | "
            "bytes 8192");
}

TEST(PlannerWorked, BatchAndUnitDims) {
  CopyRequest r = load(
      f16(), Layout::rowMajor({4, 1, 128, 64}), {4, 1, 128, 64},
      parse("(1, 32, 1, 64) : (0, 64, 0, 1), swizzle = 128B"), {1, 32, 1, 64});
  r.globalOffsets = {SymExpr(2), SymExpr(0), SymExpr(16), SymExpr(0)};
  r.globalSizes = {1, 1, 32, 64};
  EXPECT_EQ(describe(planOk(r)),
            "f16 rank 3 dim [64, 128, 4] strides [128, 16384] box [64, 32, 1] "
            "estr [1, 1, 1] swz 3 oob 0 base 0 | "
            "smem 0 @ [0, 16, 2] | "
            "bytes 4096");
}

TEST(PlannerWorked, RegionIsReshapeOfTheOther) {
  // Global [1, 32, 4, 128] into shared [1, 128, 128].
  CopyRequest r =
      load(f16(), Layout::rowMajor({1, 32, 4, 128}), {1, 32, 4, 128},
           parse("(1, 128, 2, 64) : (0, 64, 8192, 1), swizzle = 128B"),
           {1, 128, 128});
  EXPECT_EQ(describe(planOk(r)),
            "f16 rank 3 dim [64, 128, 2] strides [256, 128] box [64, 128, 2] "
            "estr [1, 1, 1] swz 3 oob 0 base 0 | "
            "smem 0 @ [0, 0, 0] | "
            "bytes 32768");
}

TEST(PlannerWorked, GapInSharedStridesTwoIssues) {
  CopyRequest r = load(f16(), Layout::rowMajor({16, 64}), {16, 64},
                       parse("(2, 8, 64) : (1024, 64, 1)"), {16, 64});
  EXPECT_EQ(
      describe(planOk(r)),
      "u32 rank 1 dim [512] strides [] box [256] estr [1] swz 0 oob 0 base 0 | "
      "smem 0 @ [0] | "
      "smem 2048 @ [256] | "
      "bytes 2048");
}

TEST(PlannerWorked, LoadLeavesTensorZeroFill) {
  CopyRequest r = load(f16(), Layout::rowMajor({100, 64}), {100, 64},
                       parse("(16, 64), swizzle = 128B"), {16, 64});
  r.globalOffsets = {SymExpr(96), SymExpr(0)};
  r.globalSizes = {16, 64};
  EXPECT_EQ(describe(planOk(r)), "f16 rank 2 dim [64, 100] strides [128] box "
                                 "[64, 16] estr [1, 1] swz 3 oob 0 base 0 | "
                                 "smem 0 @ [0, 96] | "
                                 "bytes 2048");
}

TEST(PlannerWorked, LoadLeavesTensorNaNFill) {
  CopyRequest r = load(f16(), Layout::rowMajor({100, 64}), {100, 64},
                       parse("(16, 64), swizzle = 128B"), {16, 64});
  r.globalOffsets = {SymExpr(96), SymExpr(0)};
  r.globalSizes = {16, 64};
  r.oobFill = OobFill::NaN;
  EXPECT_EQ(describe(planOk(r)), "f16 rank 2 dim [64, 100] strides [128] box "
                                 "[64, 16] estr [1, 1] swz 3 oob 1 base 0 | "
                                 "smem 0 @ [0, 96] | "
                                 "bytes 2048");
}

TEST(PlannerWorked, LoadNegativeStartNaNFill) {
  CopyRequest r = load(f16(), Layout::rowMajor({100, 64}), {100, 64},
                       parse("(16, 64), swizzle = 128B"), {16, 64});
  r.globalOffsets = {SymExpr(96), SymExpr(0)};
  r.globalSizes = {16, 64};
  r.oobFill = OobFill::NaN;
  r.globalOffsets = {SymExpr(-8), SymExpr(-32)};
  EXPECT_EQ(describe(planOk(r)), "f16 rank 2 dim [64, 100] strides [128] box "
                                 "[64, 16] estr [1, 1] swz 3 oob 1 base 0 | "
                                 "smem 0 @ [-32, -8] | "
                                 "bytes 2048");
}

TEST(PlannerWorked, Store) {
  CopyRequest r = referenceDemo();
  r.direction = Direction::SharedToGlobal;
  EXPECT_EQ(describe(planOk(r)),
            "f16 rank 3 dim [64, 8, 4] strides [512, 128] box [64, 8, 4] estr "
            "[1, 1, 1] swz 3 oob 0 base 0 | "
            "smem 0 @ [0, 0, 0] | "
            "bytes 4096");
}

TEST(PlannerWorked, StoreReduceAdd) {
  CopyRequest r = referenceDemo();
  r.direction = Direction::SharedToGlobal;
  r.reduce = ReduceKind::Add;
  EXPECT_EQ(describe(planOk(r)),
            "f16 rank 3 dim [64, 8, 4] strides [512, 128] box [64, 8, 4] estr "
            "[1, 1, 1] swz 3 oob 0 base 0 | "
            "smem 0 @ [0, 0, 0] | "
            "bytes 4096");
}

TEST(PlannerWorked, PromoteU8ToU16) {
  CopyRequest r = load(i8(), Layout::strided({8, 512}, {1024, 1}), {8, 512},
                       parse("(8, 512)"), {8, 512});
  EXPECT_EQ(describe(planOk(r)), "u16 rank 2 dim [256, 8] strides [1024] box "
                                 "[256, 8] estr [1, 1] swz 0 oob 0 base 0 | "
                                 "smem 0 @ [0, 0] | "
                                 "bytes 4096");
}

TEST(PlannerWorked, PromoteF16ToU32) {
  CopyRequest r = load(f16(), Layout::strided({8, 512}, {1024, 1}), {8, 512},
                       parse("(8, 512)"), {8, 512});
  EXPECT_EQ(describe(planOk(r)), "u32 rank 2 dim [256, 8] strides [2048] box "
                                 "[256, 8] estr [1, 1] swz 0 oob 0 base 0 | "
                                 "smem 0 @ [0, 0] | "
                                 "bytes 8192");
}

TEST(PlannerWorked, NoPromotionWithNaNFill) {
  CopyRequest r = load(f16(), Layout::strided({8, 512}, {1024, 1}), {8, 512},
                       parse("(8, 512)"), {8, 512});
  r.oobFill = OobFill::NaN;
  EXPECT_EQ(describe(planOk(r)),
            "f16 rank 3 dim [256, 2, 8] strides [512, 2048] box [256, 2, 8] "
            "estr [1, 1, 1] swz 0 oob 1 base 0 | "
            "smem 0 @ [0, 0, 0] | "
            "bytes 8192");
}

TEST(PlannerWorked, NoPromotionWithReduce) {
  CopyRequest r = store(f16(), Layout::strided({8, 512}, {1024, 1}), {8, 512},
                        parse("(8, 512)"), {8, 512});
  r.reduce = ReduceKind::Add;
  EXPECT_EQ(describe(planOk(r)),
            "f16 rank 3 dim [256, 2, 8] strides [512, 2048] box [256, 2, 8] "
            "estr [1, 1, 1] swz 0 oob 0 base 0 | "
            "smem 0 @ [0, 0, 0] | "
            "bytes 8192");
}

TEST(PlannerWorked, DynamicInnerOffsetProvablyAligned) {
  CopyRequest r = load(f16(), Layout::rowMajor({64, 256}), {64, 256},
                       parse("(64, 64), swizzle = 128B"), {64, 64});
  r.globalOffsets = {SymExpr(0), SymExpr::symbol(0)};
  r.globalSizes = {64, 64};
  r.symbolDivisors = {8};
  EXPECT_EQ(describe(planOk(r, {{0}, {16}, {192}})),
            "f16 rank 2 dim [256, 64] strides [512] box [64, 64] estr [1, 1] "
            "swz 3 oob 0 base 0 | "
            "smem 0 @ [s0, 0] | "
            "bytes 8192");
}

TEST(PlannerWorked, ReferenceDemoFields) {
  TmaPlan p = planOk(referenceDemo());
  EXPECT_EQ(p.map.interleave, 0);
  EXPECT_EQ(p.map.l2Promotion, 2);
  EXPECT_EQ(p.map.elementBytes, 2);
  EXPECT_FALSE(p.map.promoted);
  EXPECT_EQ(p.map.dataType, TensorDataType::F16);
}

// Six tensor-map dimensions, one of them a fixed row of a 3-row dimension:
// past rank 5 the fixed coordinate folds into the base address, but only
// when its byte offset keeps the base 16-byte aligned (row 2: 2 x 68 x 2 B =
// 272 B folds; row 1: 136 B does not, and six dimensions are too many).
TEST(PlannerWorked, FixedCoordinateFoldsIntoAnAlignedBase) {
  CopyRequest r = load(
      f16(),
      Layout::strided({2, 2, 2, 2, 3, 64}, {16384, 4096, 1024, 256, 68, 1}),
      {2, 2, 2, 2, 3, 64}, parse("(2, 2, 2, 2, 1, 64)"), {2, 2, 2, 2, 1, 64});
  r.globalSizes = {2, 2, 2, 2, 1, 64};
  r.globalOffsets = {SymExpr(0), SymExpr(0), SymExpr(0),
                     SymExpr(0), SymExpr(2), SymExpr(0)};
  EXPECT_EQ(describe(planOk(r)),
            "f16 rank 5 dim [64, 2, 2, 2, 2] strides [512, 2048, 8192, 32768] "
            "box [64, 2, 2, 2, 2] estr [1, 1, 1, 1, 1] swz 0 oob 0 base 272 | "
            "smem 0 @ [0, 0, 0, 0, 0] | "
            "bytes 2048");
  r.globalOffsets[4] = SymExpr(1);
  EXPECT_EQ(declineOf(r),
            "rank: the copy needs 6 tensor-map dimensions, TMA allows 1 to 5");
}

// A contiguous run longer than a box splits into rows whose bytes are a
// multiple of 16: 264 f16 as 3 rows of 88 (176 B), not 2 of 132 (264 B).
// NaN fill keeps the element type (no promotion to a wider integer).
TEST(PlannerWorked, LongRunSplitsIntoSixteenByteRows) {
  CopyRequest r =
      load(f16(), Layout::rowMajor({264}), {264}, parse("(264)"), {264});
  r.oobFill = OobFill::NaN;
  EXPECT_EQ(describe(planOk(r)),
            "f16 rank 2 dim [88, 3] strides [176] box [88, 3] estr [1, 1] swz "
            "0 oob 1 base 0 | "
            "smem 0 @ [0, 0] | "
            "bytes 528");
  // With zero fill the run is promoted to 132 u32 in one row.
  r.oobFill = OobFill::Zero;
  EXPECT_EQ(describe(planOk(r)),
            "u32 rank 1 dim [132] strides [] box [132] estr [1] swz 0 oob 0 "
            "base 0 | "
            "smem 0 @ [0] | "
            "bytes 528");
}

// The shared tile interleaves row groups: row 4a + b lies at shared row
// 2b + a, so the row axis becomes two tensor-map dimensions (b, base 1, and
// a, base 4). The outer one spans the whole tensor, its partial last group
// included: 10 rows are 3 groups of 4, not 2.
TEST(PlannerWorked, SplitRowAxisSpansTheWholeTensor) {
  CopyRequest r = load(f16(), Layout::rowMajor({10, 64}), {10, 64},
                       parse("(2, 4, 64) : (64, 128, 1)"), {8, 64});
  r.globalSizes = {8, 64};
  EXPECT_EQ(describe(planOk(r)),
            "f16 rank 3 dim [64, 3, 4] strides [512, 128] box [64, 2, 4] estr "
            "[1, 1, 1] swz 0 oob 0 base 0 | "
            "smem 0 @ [0, 0, 0] | "
            "bytes 1024");
  r = load(f16(), Layout::rowMajor({12, 64}), {12, 64},
           parse("(2, 4, 64) : (64, 128, 1)"), {8, 64});
  r.globalSizes = {8, 64};
  r.globalOffsets = {SymExpr(4), SymExpr(0)};
  EXPECT_EQ(describe(planOk(r)),
            "f16 rank 3 dim [64, 3, 4] strides [512, 128] box [64, 2, 4] estr "
            "[1, 1, 1] swz 0 oob 0 base 0 | "
            "smem 0 @ [0, 1, 0] | "
            "bytes 1024");
}

// 512 bytes from byte 16 of a 1024-byte row: as bytes the run needs two
// boxes of 256 (a box of 256 x 2 would split the row at byte 256, which the
// start 16 is not aligned to); as 16-bit elements it is one box of 256. The
// planner keeps the plan with fewer instructions.
TEST(PlannerWorked, PromotionSavesAnIssue) {
  CopyRequest r =
      load(i8(), Layout::rowMajor({1024}), {1024}, parse("(512)"), {512});
  r.globalSizes = {512};
  r.globalOffsets = {SymExpr(16)};
  EXPECT_EQ(describe(planOk(r)),
            "u16 rank 1 dim [512] strides [] box [256] estr [1] swz 0 oob 0 "
            "base 0 | "
            "smem 0 @ [8] | "
            "bytes 512");
}

} // namespace

namespace {
// An outer run over 256 rows is factored so that every box dimension stays
// within TMA's 256: 384 rows of a 384 x 128 tensor (half of each row).
TEST(PlannerWorkedLimits, OuterRunPast256RowsSplits) {
  CopyRequest r = load(f16(), Layout::rowMajor({384, 128}), {384, 128},
                       parse("(384, 64)"), {384, 64});
  r.globalSizes = {384, 64};
  // 384 = 192 x 2: one issue whose box spans two rank-3 slices.
  EXPECT_EQ(describe(planOk(r)),
            "f16 rank 3 dim [128, 192, 2] strides [256, 49152] box [64, 192, "
            "2] estr [1, 1, 1] swz 0 oob 0 base 0 | smem 0 @ [0, 0, 0] | "
            "bytes 49152");
}
} // namespace

namespace {
// Fewest instructions: 64 rows of 96 bytes from row 33 of a 4x4x128x96 u8
// tensor. Fusing the two inner dims into one 12288-byte run would cut it into
// 256-byte rows, which row 33 does not start on (three u64 boxes); keeping
// them apart gives the tensor's own box, one instruction.
CopyRequest rowsFrom(int64_t row) {
  CopyRequest r =
      load({ScalarKind::UnsignedInt, 1}, Layout::rowMajor({4, 4, 128, 96}),
           {4, 4, 128, 96}, parse("(64, 96) : (96, 1)"), {64, 96});
  r.globalOffsets = {SymExpr(2), SymExpr(1), SymExpr(row), SymExpr(0)};
  r.globalSizes = {1, 1, 64, 96};
  return r;
}

TEST(PlannerFewestInstructions, InnerDimsStayApart) {
  EXPECT_EQ(describe(planOk(rowsFrom(33))),
            "u8 rank 4 dim [96, 128, 4, 4] strides [96, 12288, 49152] box "
            "[96, 64, 1, 1] estr [1, 1, 1, 1] swz 0 oob 0 base 0 | "
            "smem 0 @ [0, 33, 1, 2] | bytes 6144");
}

// From row 32 the fused run starts on a 256-byte row: the fused plan has one
// instruction too and a fused plan comes first.
TEST(PlannerFewestInstructions, AlignedRowsStayFused) {
  EXPECT_EQ(describe(planOk(rowsFrom(32))),
            "u8 rank 4 dim [256, 48, 4, 4] strides [256, 12288, 49152] box "
            "[256, 24, 1, 1] estr [1, 1, 1, 1] swz 0 oob 0 base 0 | "
            "smem 0 @ [0, 12, 1, 2] | bytes 6144");
}

// A region inside a fused axis whose start (180) does not divide by the cut
// (216): the inner map dimension spans the whole axis from the start, the
// outer one steps over the region only.
TEST(PlannerFewestInstructions, CutAtAStartThatDoesNotDivide) {
  CopyRequest r = load(f32(), Layout::rowMajor({50, 64, 6, 3}), {50, 64, 6, 3},
                       parse("(576, 3)"), {576, 3});
  r.globalOffsets = {SymExpr(10), SymExpr(10), SymExpr(0), SymExpr(0)};
  r.globalSizes = {2, 48, 6, 3};
  EXPECT_EQ(describe(planOk(r)),
            "f32 rank 3 dim [1152, 4, 50] strides [864, 4608] box [216, 4, 2] "
            "estr [1, 1, 1] swz 0 oob 0 base 0 | smem 0 @ [180, 0, 10] | "
            "bytes 6912");
}

// Fixed coordinates on dims whose strides (364 and 52 bytes) a descriptor
// cannot hold: together they offset the base by 416 bytes.
TEST(PlannerFewestInstructions, IllegalStridesFoldIntoTheBase) {
  CopyRequest r =
      load({ScalarKind::UnsignedInt, 1}, Layout::rowMajor({2, 7, 52}),
           {2, 7, 52}, parse("(1, 48)"), {1, 48});
  r.globalOffsets = {SymExpr(1), SymExpr(1), SymExpr(0)};
  r.globalSizes = {1, 1, 48};
  EXPECT_EQ(describe(planOk(r)), "u8 rank 1 dim [52] strides [] box [48] estr "
                                 "[1] swz 0 oob 0 base 416 | smem 0 @ [0] | "
                                 "bytes 48");
}

// A fixed offset of 2 x 259 f32 (2072 bytes, not 16-byte aligned) cannot go
// into the base; with the inner start (2) it gives an aligned inner
// coordinate, 520, whose bounds grow by the same 518 elements.
TEST(PlannerFewestInstructions, IllegalStrideFoldsIntoTheInnerCoordinate) {
  CopyRequest r = load(f32(), Layout::strided({10, 4, 259}, {1056, 259, 1}),
                       {10, 4, 259}, parse("(2, 256)"), {2, 256});
  r.globalOffsets = {SymExpr(1), SymExpr(2), SymExpr(2)};
  r.globalSizes = {2, 1, 256};
  EXPECT_EQ(describe(planOk(r)),
            "f32 rank 2 dim [777, 10] strides [4224] box [256, 2] estr [1, 1] "
            "swz 0 oob 0 base 0 | smem 0 @ [520, 1] | bytes 2048");
}
} // namespace
