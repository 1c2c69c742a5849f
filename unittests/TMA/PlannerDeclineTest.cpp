//===- PlannerDeclineTest.cpp - Declines carry their rule id and values ---===//

#include "WorkedCases.h"

using namespace tile;
using namespace tile::tma;
using namespace tile::tma::test;

namespace {

TEST(PlannerDecline, TransposedSharedLayoutIsElementwise) {
  EXPECT_EQ(declineOf(load(f16(), Layout::rowMajor({64, 64}), {64, 64},
                           parse("(64, 64) : (1, 64)"), {64, 64})),
            "elementwise: the shared stride-1 run of 64 elements has global "
            "stride 64; the TMA reads the innermost dimension contiguously");
}

TEST(PlannerDecline, RunsWithoutCommonFactor) {
  EXPECT_EQ(declineOf(load(f16(), Layout::strided({4, 6}, {8, 1}), {4, 6},
                           parse("(3, 8) : (16, 1)"), {3, 8})),
            "elementwise: global region runs (4, 6) and shared region runs "
            "(3, 8) do not factor into common strided runs");
}

TEST(PlannerDecline, NaNFillOnInteger) {
  CopyRequest r = load(i32(), Layout::rowMajor({32, 32}), {32, 32},
                       parse("(32, 32)"), {32, 32});
  r.oobFill = OobFill::NaN;
  EXPECT_EQ(declineOf(r),
            "nan-fill-type: NaN fill needs f16, bf16, f32 or f64, not i32");
  r.elementType = fp8();
  EXPECT_EQ(declineOf(r),
            "nan-fill-type: NaN fill needs f16, bf16, f32 or f64, not f8");
}

TEST(PlannerDecline, MisalignedGlobalStride) {
  CopyRequest r = load(f16(), Layout::rowMajor({8, 100}), {8, 100},
                       parse("(8, 64)"), {8, 64});
  r.globalSizes = {8, 64};
  EXPECT_EQ(declineOf(r),
            "global-stride: dimension 1 stride 200 B is not a multiple of 16");
}

TEST(PlannerDecline, SwizzleSpanExceededByInnerRun) {
  EXPECT_EQ(declineOf(load(f16(), Layout::strided({8, 48}, {64, 1}), {8, 48},
                           parse("(8, 48) : (64, 1), swizzle = 64B"), {8, 48})),
            "swizzle-span: inner run of 48 x 2 B = 96 B does not split into "
            "64 B swizzle rows");
}

TEST(PlannerDecline, SwizzlePitchMismatch) {
  // 32 B rows packed densely, but TMA pads them to the 128 B span.
  EXPECT_EQ(declineOf(load(f16(), Layout::strided({8, 16}, {64, 1}), {8, 16},
                           parse("(8, 16), swizzle = 128B"), {8, 16})),
            "swizzle-mismatch: TMA pads each 32 B row to the 128 B swizzle "
            "span, but the shared layout places rows 32 B apart");
}

TEST(PlannerDecline, DynamicInnerOffsetNotProvablyAligned) {
  CopyRequest r = load(f16(), Layout::rowMajor({64, 256}), {64, 256},
                       parse("(64, 64), swizzle = 128B"), {64, 64});
  r.globalOffsets = {SymExpr(0), SymExpr::symbol(0)};
  r.globalSizes = {64, 64};
  EXPECT_EQ(declineOf(r), "inner-coord-align: inner coordinate s0 x 2 B is "
                          "not provably a multiple of 16 B");
  r.symbolDivisors = {4};
  EXPECT_EQ(declineOf(r), "inner-coord-align: inner coordinate s0 x 2 B is "
                          "not provably a multiple of 16 B");
  r.globalOffsets = {SymExpr(0), SymExpr(4)};
  EXPECT_EQ(declineOf(r), "inner-coord-align: inner coordinate 4 x 2 B is "
                          "not a multiple of 16 B");
}

TEST(PlannerDecline, InnerBoxBytes) {
  CopyRequest r = load(f16(), Layout::strided({8, 6}, {8, 1}), {8, 6},
                       parse("(8, 6) : (8, 1)"), {8, 6});
  EXPECT_EQ(declineOf(r),
            "inner-box-bytes: box 6 x 2 B = 12 B is not a multiple of 16");
}

TEST(PlannerDecline, GlobalBaseMisaligned) {
  CopyRequest r = referenceDemo();
  r.globalLayout = Layout::strided({8, 256}, {256, 1}, 3);
  EXPECT_EQ(declineOf(r),
            "global-align: global base offset 6 B is not a multiple of 16");
}

TEST(PlannerDecline, SharedAlignment) {
  CopyRequest r = referenceDemo();
  r.sharedBaseAlignment = 64;
  EXPECT_EQ(declineOf(r), "smem-align: shared buffer alignment 64 B is not a "
                          "multiple of 128");
  // Rows of 64 B at a 96 B pitch: every instruction after the first is off.
  CopyRequest gap = load(f16(), Layout::rowMajor({4, 32}), {4, 32},
                         parse("(4, 32) : (48, 1)"), {4, 32});
  EXPECT_EQ(declineOf(gap), "smem-align: shared offset 96 B of an instruction "
                            "is not a multiple of 128");
}

TEST(PlannerDecline, Stores) {
  CopyRequest r = store(f16(), Layout::rowMajor({16, 64}), {16, 64},
                        parse("(8, 64)"), {8, 64});
  r.globalOffsets = {SymExpr(-2), SymExpr(0)};
  r.globalSizes = {8, 64};
  EXPECT_EQ(declineOf(r), "store-negative-coord: store region starts at -2 on "
                          "global dimension 0");
  r.globalOffsets = {SymExpr(12), SymExpr(0)};
  EXPECT_EQ(declineOf(r), "store-bounds: store region [12, 20) leaves [0, 16) "
                          "on global dimension 0");
  r.globalOffsets = {SymExpr(0), SymExpr(0)};
  r.oobFill = OobFill::NaN;
  EXPECT_EQ(declineOf(r), "oob-mode: NaN fill applies to loads, not stores");
}

TEST(PlannerDecline, StoreClipWithDynamicInnerCoordinate) {
  // Rows of 76 x 2 B = 152 B (pitch 160 B): a box crossing a row end would
  // write up to 15 bytes past it.
  CopyRequest r = store(f16(), Layout::strided({4, 76}, {80, 1}), {4, 76},
                        parse("(4, 8)"), {4, 8});
  r.globalOffsets = {SymExpr(0), SymExpr::symbol(0, 8)};
  r.globalSizes = {4, 8};
  EXPECT_EQ(declineOf(r),
            "store-bounds: innermost extent 76 x 2 B = 152 B is not a multiple "
            "of 16 and the dynamic coordinate 8*s0 cannot be proven to keep "
            "the box from clipping past a row");
  // A static coordinate proves the box stays inside: accepted.
  r.globalOffsets = {SymExpr(0), SymExpr(64)};
  planOk(r);
}

TEST(PlannerDecline, ReduceTypes) {
  CopyRequest r = referenceDemo();
  r.reduce = ReduceKind::Add;
  EXPECT_EQ(declineOf(r), "reduce-type: reduce add on a load; TMA reduces "
                          "only into global memory");
  r.direction = Direction::SharedToGlobal;
  r.reduce = ReduceKind::Inc;
  EXPECT_EQ(declineOf(r), "reduce-type: reduce inc does not support f16");
}

TEST(PlannerDecline, CountMismatchAndLayouts) {
  CopyRequest r = referenceDemo();
  r.sharedSizes = {8, 128};
  EXPECT_EQ(declineOf(r), "count-mismatch: global region (8, 256) has 2048 "
                          "elements, shared region (8, 128) has 1024");
  r = referenceDemo();
  r.sharedShape = {8, 100};
  r.sharedSizes = {8, 100};
  r.globalSizes = {8, 100};
  EXPECT_EQ(declineOf(r), "layout: shared layout: cannot group shard extents "
                          "(8, 4, 64) onto shape (8, 100)");
  r = referenceDemo();
  r.sharedOffsets = {SymExpr(4), SymExpr(0)};
  EXPECT_EQ(declineOf(r), "shared-bounds: shared region [4, 12) of dimension "
                          "0 leaves [0, 8)");
  r = referenceDemo();
  r.elementType = {ScalarKind::Float, 3};
  EXPECT_EQ(declineOf(r), "data-type: element type f24 has no TMA data type");
}

// Found by tile-plan-fuzz (seed 1795986795397070694, case 123223): a store
// into a global layout whose region aliases (dims (4:1) and (2:2) overlap)
// has no defined result.
TEST(PlannerDecline, StoreIntoOverlappingGlobal) {
  CopyRequest r =
      store(i32(), Layout::strided({8, 2, 4, 2}, {16, 8, 1, 2}), {8, 2, 4, 2},
            parse("(8, 2, 4, 2, 1) : (16, 128, 1, 4, 0), "
                  "swizzle = 32B"),
            {8, 8, 2, 1});
  r.elementType = {ScalarKind::SignlessInt, 8};
  EXPECT_EQ(declineOf(r), "layout: store region of global layout (8, 2, 4, 2) "
                          ": (16, 8, 1, 2) writes overlapping addresses");
  // The same layouts as a load are a well-defined broadcast.
  r.direction = Direction::GlobalToShared;
  planOk(r);
}

// Found by the planner fuzzer: a load into a shared layout whose modes
// (2:512) and (32:32) overlap. Which element lands at a shared address
// shared by two would depend on the order TMA writes them in.
TEST(PlannerDecline, LoadIntoOverlappingShared) {
  CopyRequest r = load(
      {ScalarKind::UnsignedInt, 1},
      parse("(1, 16, 8, 1, 64) : (8192, 1, 64, 64, 512)"), {1, 16, 8, 1, 64},
      parse("(16, 8, 1, 2, 32) : (1, 1024, 0, 512, 32), swizzle = 32B"),
      {16, 8, 64});
  EXPECT_EQ(declineOf(r),
            "overlap: shared layout (16, 8, 1, 2, 32) : (1, 1024, 0, 512, "
            "32), swizzle = 32B maps several elements to the same address");
  // Modes (2:1024) and (32:32) are disjoint: the copy plans.
  r.sharedLayout =
      parse("(16, 8, 1, 2, 32) : (1, 2048, 0, 1024, 32), swizzle = 32B");
  planOk(r);
}

TEST(PlannerDecline, SharedRegionEndsAtTheBufferEnd) {
  // Rows [60, 64) of a 64-row shared tile are its last four; [61, 65) leaves
  // the buffer by one row.
  CopyRequest r = load(f16(), Layout::rowMajor({64, 64}), {64, 64},
                       parse("(64, 64)"), {64, 64});
  r.globalSizes = {4, 64};
  r.sharedSizes = {4, 64};
  r.sharedOffsets = {SymExpr(60), SymExpr(0)};
  TmaPlan p = planOk(r);
  ASSERT_EQ(p.issues.size(), 1u);
  EXPECT_EQ(p.issues[0].smemByteOffset.str(), "7680");
  r.sharedOffsets = {SymExpr(61), SymExpr(0)};
  EXPECT_EQ(declineOf(r), "shared-bounds: shared region [61, 65) of dimension "
                          "0 leaves [0, 64)");
  r.sharedOffsets = {SymExpr(-1), SymExpr(0)};
  EXPECT_EQ(declineOf(r), "shared-bounds: shared region [-1, 3) of dimension "
                          "0 leaves [0, 64)");
}

TEST(PlannerDecline, RegionSplit) {
  // Columns [32, 96) of the 128B-swizzled layout straddle two atoms.
  CopyRequest r = referenceDemo();
  r.sharedOffsets = {SymExpr(0), SymExpr(32)};
  r.sharedSizes = {8, 64};
  r.globalSizes = {8, 64};
  EXPECT_EQ(declineOf(r), "region-split: shared dimension 1 region [32, +64) "
                          "does not start on a multiple of the shard extent "
                          "64");
}

TEST(PlannerDecline, RegionSplitAtGlobalShardBoundary) {
  // Global columns as (4, 64) : (512, 1): 16 columns ending exactly on a
  // shard boundary are one box, one column later they cross it.
  CopyRequest r = load(f16(), parse("(8, 4, 64) : (64, 512, 1)"), {8, 256},
                       parse("(8, 16)"), {8, 16});
  r.globalSizes = {8, 16};
  r.globalOffsets = {SymExpr(0), SymExpr(48)};
  TmaPlan p = planOk(r);
  ASSERT_EQ(p.issues.size(), 1u);
  r.globalOffsets = {SymExpr(0), SymExpr(56)};
  EXPECT_EQ(declineOf(r), "region-split: global dimension 1 region [56, +16) "
                          "crosses a boundary of a shard of extent 64");
  r.globalOffsets = {SymExpr(0), SymExpr(49)};
  EXPECT_EQ(declineOf(r), "region-split: global dimension 1 region [49, +16) "
                          "crosses a boundary of a shard of extent 64");
  // A symbolic start whose digit is known: 64 s0 + 48 ends on the boundary,
  // 64 s0 + 49 crosses it.
  r.globalOffsets = {SymExpr(0), SymExpr::symbol(0) * 64 + SymExpr(48)};
  r.symbolDivisors = {1};
  planOk(r, {{0}, {1}, {3}});
  r.globalOffsets = {SymExpr(0), SymExpr::symbol(0) * 64 + SymExpr(49)};
  EXPECT_EQ(declineOf(r),
            "region-split: global dimension 1 region [49 + 64*s0, +16) "
            "crosses a boundary of a shard of extent 64");
  // 16 s0 + 48: the digit on the 64-column shard depends on s0; that is
  // reported before the region's own fit.
  r.globalOffsets = {SymExpr(0), SymExpr::symbol(0) * 16 + SymExpr(48)};
  EXPECT_EQ(declineOf(r),
            "region-split: global dimension 1 region [48 + 16*s0, +16) has a "
            "start whose digit on a shard of extent 64 is not known");
  r.globalOffsets = {SymExpr(0), SymExpr::symbol(0) * 16 + SymExpr(56)};
  EXPECT_EQ(declineOf(r),
            "region-split: global dimension 1 region [56 + 16*s0, +16) has a "
            "start whose digit on a shard of extent 64 is not known");
}

TEST(PlannerDecline, IssueCount) {
  // 16 B runs scattered at a 128 B pitch in shared, 4096 of them.
  CopyRequest r = load(f16(), Layout::strided({4096, 8}, {16, 1}), {4096, 8},
                       parse("(4096, 8) : (64, 1)"), {4096, 8});
  EXPECT_EQ(declineOf(r),
            "issue-count: the plan needs more than 1024 instructions");
}

TEST(PlannerDecline, EveryRuleIdIsListedOnce) {
  std::set<std::string_view> ids(allRuleIds().begin(), allRuleIds().end());
  EXPECT_EQ(ids.size(), allRuleIds().size());
  for (const char *id : {"direction",
                         "scope",
                         "count-mismatch",
                         "rank",
                         "box-dim",
                         "inner-box-bytes",
                         "global-stride",
                         "global-dim",
                         "element-stride",
                         "swizzle-span",
                         "swizzle-mismatch",
                         "smem-align",
                         "global-align",
                         "inner-coord-align",
                         "store-negative-coord",
                         "store-bounds",
                         "nan-fill-type",
                         "oob-mode",
                         "reduce-type",
                         "elementwise"})
    EXPECT_TRUE(isKnownRuleId(id)) << id;
  EXPECT_FALSE(isKnownRuleId("bogus"));
  EXPECT_EQ(ruleIdFromName("rank"), RuleId::Rank);
  EXPECT_FALSE(ruleIdFromName("bogus"));
  EXPECT_EQ((Decline{RuleId::Rank, "x"}).message(), "rank: x");
}

} // namespace

namespace {
// Offsets and strides whose products would overflow int64 are declined
// before any arithmetic on them (found by the planner fuzzer).
TEST(PlannerDeclineRanges, OffsetBeyondInt32) {
  CopyRequest r = load(f16(), Layout::rowMajor({8, 256}), {8, 256},
                       parse("(8, 64)"), {8, 64});
  r.globalOffsets = {SymExpr(INT64_MIN + 7), SymExpr(0)};
  EXPECT_EQ(declineOf(r), "coord-range: global offset -9223372036854775801 in "
                          "dimension 0 does not fit int32");
  r.globalOffsets = {SymExpr(0), SymExpr::symbol(0, int64_t(1) << 40)};
  EXPECT_EQ(declineOf(r), "coord-range: global offset 1099511627776*s0 in "
                          "dimension 1 does not fit int32");
  // The largest accepted offset still plans (every element out of bounds).
  r.globalOffsets = {SymExpr(int64_t(1) << 31), SymExpr(0)};
  EXPECT_NE(declineOf(r).rfind("coord-range: global offset", 0), 0u);
}

TEST(PlannerDeclineRanges, StrideBeyondInt32) {
  CopyRequest r = load(f16(), Layout::strided({2, 64}, {int64_t(1) << 33, 1}),
                       {2, 64}, parse("(2, 64)"), {2, 64});
  EXPECT_EQ(declineOf(r), "global-stride: global layout (2, 64) : (8589934592, "
                          "1) has a stride of 8589934592 elements, above the "
                          "2^31 the planner handles");
}
} // namespace

namespace {
TEST(PlannerDeclineLayouts, SwizzledGlobalLayout) {
  CopyRequest r = load(f16(), parse("(8, 64), swizzle = 128B"), {8, 64},
                       parse("(8, 64), swizzle = 128B"), {8, 64});
  EXPECT_EQ(declineOf(r), "layout: global layout (8, 64), swizzle = 128B is "
                          "swizzled; TMA reads global memory unswizzled");
}

// A dynamic start on a dimension the global layout splits into shards
// (64 = 8 x 8, the inner 8 contiguous) has a digit on the inner shard only
// when its symbol terms divide by 8.
TEST(PlannerDeclineLayouts, DynamicStartWithUnknownShardDigit) {
  CopyRequest r = load(f16(), parse("(16, 8, 8) : (8, 1024, 1)"), {16, 64},
                       parse("(16, 8)"), {16, 8});
  r.globalSizes = {16, 8};
  r.globalOffsets = {SymExpr(0), SymExpr::symbol(0)};
  EXPECT_EQ(declineOf(r), "region-split: global dimension 1 region [s0, +8) "
                          "has a start whose digit on a shard of extent 8 is "
                          "not known");
  r.globalOffsets = {SymExpr(0), SymExpr::symbol(0, 8)};
  // The rows (stride 8) continue the inner shard (8 x 1): one 128-element
  // run per s0, the shard of extent 8 and stride 1024 the second dimension.
  EXPECT_EQ(describe(planOk(r, {{0}, {3}})),
            "f16 rank 2 dim [128, 8] strides [2048] box [128, 1] estr [1, 1] "
            "swz 0 oob 0 base 0 | smem 0 @ [0, s0] | bytes 256");
}

// Promoting u8 to u64 units divides every stride by 8; a 532 B row pitch is
// not a multiple of 8 B (nor of TMA's 16 B), so neither form may plan it.
TEST(PlannerDeclineLayouts, PromotionKeepsAMisalignedPitch) {
  CopyRequest r =
      load({ScalarKind::UnsignedInt, 1}, Layout::strided({4, 512}, {532, 1}),
           {4, 512}, parse("(4, 512)"), {4, 512});
  EXPECT_EQ(declineOf(r),
            "global-stride: dimension 2 stride 532 B is not a multiple of 16");
}

// Rank folding (past five dimensions) moves only in-bounds coordinates into
// the base address: a load whose region starts at the end of dimension 0 is
// fill, and folding its coordinate would read data past the tensor's end.
TEST(PlannerDeclineLayouts, RankFoldingKeepsOutOfBoundsCoordinates) {
  std::vector<int64_t> shape = {2, 2, 2, 2, 2, 2, 64};
  CopyRequest r =
      load(f16(), Layout::rowMajor(shape), shape, parse("(64)"), {64});
  r.globalSizes = {1, 1, 1, 1, 1, 1, 64};
  r.globalOffsets = {SymExpr(2), SymExpr(1), SymExpr(1), SymExpr(1),
                     SymExpr(1), SymExpr(1), SymExpr(0)};
  // Dimensions 1..4 fold into the base (2048 B); dimension 0 keeps its
  // coordinate 2, and the hardware fills the whole box.
  EXPECT_EQ(describe(planOk(r)),
            "f16 rank 5 dim [128, 2, 2, 2, 2] strides [256, 512, 1024, 4096] "
            "box [64, 1, 1, 1, 1] estr [1, 1, 1, 1, 1] swz 0 oob 0 base 2048 "
            "| smem 0 @ [64, 1, 1, 1, 2] | bytes 128");
}
} // namespace
