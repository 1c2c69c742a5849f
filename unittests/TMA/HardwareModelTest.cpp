//===- HardwareModelTest.cpp - The TMA model and its sensitivity ----------===//

#include "PlanFuzz.h"
#include "WorkedCases.h"

using namespace tile;
using namespace tile::tma;
using namespace tile::tma::test;

namespace {

TensorMapDesc map1d(uint64_t dim, uint32_t box, int64_t eb) {
  TensorMapDesc m;
  m.rank = 1;
  m.globalDim = {dim};
  m.boxDim = {box};
  m.elementStrides = {1};
  m.elementBytes = eb;
  return m;
}

TEST(HardwareModel, LoadFillsOutOfBounds) {
  TensorMapDesc m = map1d(12, 16, 1);
  MemoryImage global{0, std::vector<uint32_t>(12)};
  for (uint32_t i = 0; i < 12; ++i)
    global.cells[i] = 100 + i;
  MemoryImage shared{1024, std::vector<uint32_t>(32, 7)};
  int64_t tx = 0;
  TmaIssue issue{SymExpr(0), {SymExpr(-16 + 16)}};
  ASSERT_FALSE(simulateIssue(m, issue, Direction::GlobalToShared, {}, global,
                             shared, FillCells{{0}, {0xFF}}, &tx));
  EXPECT_EQ(tx, 16);
  EXPECT_EQ(shared.cells[0], 100u);
  EXPECT_EQ(shared.cells[11], 111u);
  EXPECT_EQ(shared.cells[12], 0u); // filled
  EXPECT_EQ(shared.cells[16], 7u); // untouched
}

TEST(HardwareModel, SwizzledRowsArePaddedToTheSpan) {
  // Rows of 32 B under 128B swizzle occupy 128 B each.
  TensorMapDesc m;
  m.rank = 2;
  m.globalDim = {16, 2};
  m.globalStridesBytes = {32};
  m.boxDim = {16, 2};
  m.elementStrides = {1, 1};
  m.elementBytes = 2;
  m.swizzle = Swizzle::B128;
  std::vector<int64_t> addrs;
  ASSERT_FALSE(
      walkBox(m, TmaIssue{SymExpr(0), {SymExpr(0), SymExpr(0)}},
              Direction::GlobalToShared, {}, 1024,
              [&](const BoxElement &e) { addrs.push_back(e.sharedAddress); }));
  ASSERT_EQ(addrs.size(), 32u);
  EXPECT_EQ(addrs[0], 1024);
  EXPECT_EQ(addrs[15], 1024 + 30);
  // Row 1 starts at 1024 + 128, whose bits [7,10) = 1 flip bit 4.
  EXPECT_EQ(addrs[16], 1024 + 128 + 16);
}

TEST(HardwareModel, Traps) {
  TensorMapDesc m = map1d(64, 16, 2);
  auto run = [&](TmaIssue issue, Direction d, int64_t sharedAddr = 1024) {
    return walkBox(m, issue, d, {}, sharedAddr, [](const BoxElement &) {})
        .value_or("ok");
  };
  EXPECT_EQ(run({SymExpr(0), {SymExpr(4)}}, Direction::GlobalToShared),
            "trap: inner coordinate 4 is not 16-byte aligned");
  EXPECT_EQ(run({SymExpr(0), {SymExpr(-8)}}, Direction::SharedToGlobal),
            "trap: negative store coordinate -8");
  EXPECT_EQ(run({SymExpr(0), {SymExpr(-8)}}, Direction::GlobalToShared), "ok");
  EXPECT_EQ(run({SymExpr(64), {SymExpr(0)}}, Direction::GlobalToShared),
            "misaligned address: shared address 1088 is not 128-byte aligned");
  m.boxDim = {300};
  EXPECT_EQ(run({SymExpr(0), {SymExpr(0)}}, Direction::GlobalToShared),
            "illegal descriptor: boxDim[0] out of range");
}

// A recorded plan read from the IR may carry any int64 coordinate: the model
// names it instead of overflowing on the alignment check.
TEST(HardwareModel, HugeCoordinatesAreRejectedWithoutOverflow) {
  TensorMapDesc m = map1d(64, 16, 2);
  auto run = [&](int64_t c) {
    return walkBox(m, {SymExpr(0), {SymExpr(c)}}, Direction::GlobalToShared, {},
                   1024, [](const BoxElement &) {})
        .value_or("ok");
  };
  EXPECT_EQ(run(9223372036854775800), "coordinate 9223372036854775800 does "
                                      "not fit int32");
  EXPECT_EQ(run(INT64_MIN), "coordinate -9223372036854775808 does not fit "
                            "int32");
  EXPECT_EQ(run(9223372036854775807),
            "trap: inner coordinate 9223372036854775807 is not 16-byte "
            "aligned");
}

TEST(HardwareModel, TrapsAtTheirExactLimits) {
  // A 64 x 4 f16 tensor, boxes of 16 x 2.
  TensorMapDesc m = map1d(64, 16, 2);
  m.rank = 2;
  m.globalDim = {64, 4};
  m.globalStridesBytes = {128};
  m.boxDim = {16, 2};
  m.elementStrides = {1, 1};
  auto run = [&](TmaIssue issue, Direction d) {
    return walkBox(m, issue, d, {}, 1024, [](const BoxElement &) {})
        .value_or("ok");
  };
  TmaIssue rowMinusOne{SymExpr(0), {SymExpr(0), SymExpr(-1)}};
  EXPECT_EQ(run(rowMinusOne, Direction::SharedToGlobal),
            "trap: negative store coordinate -1");
  EXPECT_EQ(run(rowMinusOne, Direction::GlobalToShared), "ok");
  TmaIssue origin{SymExpr(0), {SymExpr(0), SymExpr(0)}};
  m.baseOffsetBytes = SymExpr(16);
  EXPECT_EQ(run(origin, Direction::GlobalToShared), "ok");
  m.baseOffsetBytes = SymExpr(8);
  EXPECT_EQ(run(origin, Direction::GlobalToShared),
            "illegal descriptor: global address offset 8 B is not 16-byte "
            "aligned");
}

TEST(HardwareModel, StoresClipAtSixteenBytes) {
  // A 9-element f16 row: a 16-element box writes 7 elements past the end.
  TensorMapDesc m = map1d(9, 16, 2);
  int written = 0;
  ASSERT_FALSE(
      walkBox(m, TmaIssue{SymExpr(0), {SymExpr(0)}}, Direction::SharedToGlobal,
              {}, 0, [&](const BoxElement &e) { written += e.touchesGlobal; }));
  EXPECT_EQ(written, 16);
}

TEST(HardwareModel, WorkedPlansVerify) {
  for (const CopyRequest &r : {referenceDemo(), rank5MultiIssue()}) {
    PlanOutcome o = planTmaCopy(r);
    ASSERT_TRUE(o.plan) << messageOf(o.decline);
    EXPECT_FALSE(verifyPlan(r, *o.plan, {}));
  }
}

// A shared alignment is only a promise about the address: the model places
// the buffer by the alignment's residue modulo 1024, so an alignment near
// INT64_MAX (a multiple of 1024) verifies like 1024 and overflows nothing.
TEST(HardwareModel, HugeSharedAlignmentVerifiesLikeItsResidue) {
  CopyRequest r = referenceDemo();
  PlanOutcome base = planTmaCopy(r);
  ASSERT_TRUE(base.plan) << messageOf(base.decline);
  r.sharedBaseAlignment = INT64_MAX - 1023;
  PlanOutcome huge = planTmaCopy(r);
  ASSERT_TRUE(huge.plan) << messageOf(huge.decline);
  EXPECT_EQ(huge.plan->issues.size(), base.plan->issues.size());
  EXPECT_FALSE(verifyPlan(r, *huge.plan, {}));
}

bool leavesTensor(const CopyRequest &r) {
  for (size_t d = 0; d < r.globalShape.size(); ++d) {
    int64_t o = r.globalOffsets[d].constant;
    if (o < 0 || o + r.globalSizes[d] > r.globalShape[d])
      return true;
  }
  return false;
}

// expect_tx must equal the bytes the issues move, which must equal the
// region: a plan whose byte count is off by one element either waits forever
// or completes the barrier early.
TEST(HardwareModel, DynamicOffsetsOutsideTheirBufferAreUndefined) {
  // Rows [s0, s0 + 4) of a 64-row shared tile: defined for s0 in [0, 60].
  CopyRequest r = load(f16(), Layout::rowMajor({64, 64}), {64, 64},
                       parse("(64, 64)"), {64, 64});
  r.globalSizes = {4, 64};
  r.sharedSizes = {4, 64};
  r.sharedOffsets = {SymExpr::symbol(0), SymExpr(0)};
  EXPECT_FALSE(whyUndefined(r, {0}));
  EXPECT_FALSE(whyUndefined(r, {60}));
  EXPECT_EQ(whyUndefined(r, {61}).value_or("defined"),
            "shared region [61, +4) leaves dimension 0 of size 64");
  EXPECT_EQ(whyUndefined(r, {-1}).value_or("defined"),
            "shared region [-1, +4) leaves dimension 0 of size 64");
  TmaPlan plan = planOk(r);
  EXPECT_FALSE(verifyPlan(r, plan, {60}));
  EXPECT_EQ(verifyPlan(r, plan, {61}).value_or("correct"),
            "model: undefined: shared region [61, +4) leaves dimension 0 of "
            "size 64");
  // A load's global region may leave the tensor (the rest is fill); a
  // store's may not.
  r.sharedOffsets = {SymExpr(0), SymExpr(0)};
  r.globalOffsets = {SymExpr::symbol(0), SymExpr(0)};
  EXPECT_FALSE(whyUndefined(r, {62}));
  r.direction = Direction::SharedToGlobal;
  EXPECT_FALSE(whyUndefined(r, {60}));
  EXPECT_EQ(whyUndefined(r, {62}).value_or("defined"),
            "store's global region [62, +4) leaves dimension 0 of size 64");
}

TEST(HardwareModel, PlanBytesMustMatchTheRegion) {
  CopyRequest r = load(f16(), Layout::rowMajor({64, 256}), {64, 256},
                       parse("(64, 64)"), {64, 64});
  r.globalSizes = {64, 64};
  TmaPlan p = planOk(r);
  ASSERT_EQ(p.bytes, 8192);
  EXPECT_EQ(verifyPlan(r, p, {}), std::nullopt);
  p.bytes = 8190;
  EXPECT_EQ(verifyPlan(r, p, {}).value_or("ok"),
            "transaction bytes: issues move 8192 B, plan says 8190 B, region "
            "has 8192 B");
  p.bytes = 8194;
  EXPECT_EQ(verifyPlan(r, p, {}).value_or("ok"),
            "transaction bytes: issues move 8192 B, plan says 8194 B, region "
            "has 8192 B");
}

// One box can hold 256^5 elements: a plan whose boxes add up to more than
// the model simulates is wrong before any is walked, and a box that faults
// stops at its first bad element. Either way the check returns at once.
TEST(HardwareModel, HugeBoxesAreRejectedWithoutWalkingThem) {
  CopyRequest r = load(f16(), Layout::rowMajor({64, 256}), {64, 256},
                       parse("(64, 64)"), {64, 64});
  r.globalSizes = {64, 64};
  TmaPlan p = planOk(r);
  p.map.rank = 5;
  p.map.globalDim = {256, 256, 256, 256, 256};
  p.map.globalStridesBytes = {512, 512 * 256, 512 * 65536,
                              uint64_t(512) * 16777216};
  p.map.boxDim = {64, 256, 256, 256, 256};
  p.map.elementStrides = {1, 1, 1, 1, 1};
  p.map.swizzle = Swizzle::B128;
  p.issues = {
      TmaIssue{SymExpr(0),
               {SymExpr(0), SymExpr(0), SymExpr(0), SymExpr(0), SymExpr(0)}}};
  EXPECT_EQ(verifyPlan(r, p, {}).value_or("ok"),
            "transaction bytes: issues move 549755813888 B, plan says 8192 "
            "B, region has 8192 B");

  MemoryImage global{0, std::vector<uint32_t>(4096)};
  MemoryImage shared{1024, std::vector<uint32_t>(2048)};
  EXPECT_EQ(simulateIssue(p.map, p.issues[0], Direction::GlobalToShared, {},
                          global, shared)
                .value_or("ok"),
            "global access at byte offset 4096 outside the global buffer");
}

TEST(HardwareModel, SaysWhatIsTooLargeToSimulate) {
  CopyRequest r = load(f16(), Layout::rowMajor({64, 256}), {64, 256},
                       parse("(64, 64)"), {64, 64});
  r.globalSizes = {64, 64};
  ModelOptions options;
  EXPECT_FALSE(whyTooLargeToModel(r, options));
  options.maxImageCells = 16384;
  EXPECT_EQ(whyTooLargeToModel(r, options).value_or("simulated"),
            "buffers of 32768 B (global) and 8448 B (shared) exceed the "
            "16384 B it simulates");
  EXPECT_EQ(verifyPlan(r, planOk(r), {}, options).value_or("ok"),
            "model: buffers of 32768 B (global) and 8448 B (shared) exceed "
            "the 16384 B it simulates");
  // A broadcast shared layout keeps the images small and the region not.
  CopyRequest wide = r;
  wide.sharedLayout = parse("(64, 64) : (0, 1)");
  wide.globalSizes = {1 << 20, 1 << 20};
  options.maxImageCells = int64_t(1) << 24;
  EXPECT_EQ(whyTooLargeToModel(wide, options).value_or("simulated"),
            "a region of 2199023255552 B exceeds the 16777216 B it "
            "simulates");
  wide.globalSizes = {int64_t(1) << 40, int64_t(1) << 40};
  EXPECT_EQ(whyTooLargeToModel(wide, options).value_or("simulated"),
            "a region of over 2^63 B exceeds the 16777216 B it simulates");
}

// The model must notice any change to an accepted plan that matters (a
// coordinate shift inside a filled region, or a stride of a dimension only
// ever at coordinate 0, moves nothing).
TEST(HardwareModel, RejectsMutatedPlans) {
  int tried = 0, caught = 0;
  for (uint64_t i = 0; i < 4000 && tried < 2000; ++i) {
    fuzz::FuzzCase c = fuzz::generateCase(7, i);
    PlanOutcome o = planTmaCopy(c.request);
    if (!o.plan)
      continue;
    for (int kind = 0; kind < 4; ++kind) {
      TmaPlan p = *o.plan;
      TmaIssue &issue = p.issues[i % p.issues.size()];
      unsigned d = static_cast<unsigned>(i % p.map.rank);
      switch (kind) {
      case 0:
        issue.smemByteOffset += SymExpr(128);
        break;
      case 1:
        if (leavesTensor(c.request))
          continue;
        issue.coords[d] += SymExpr(d == 0 ? 16 / p.map.elementBytes : 1);
        break;
      case 2:
        if (p.map.boxDim[d] == 1)
          continue;
        p.map.boxDim[d] -= d == 0 ? 16 / p.map.elementBytes : 1;
        if (p.map.boxDim[0] == 0)
          continue;
        break;
      case 3:
        if (p.map.rank < 2 || p.map.boxDim[1] == 1 || leavesTensor(c.request))
          continue;
        p.map.globalStridesBytes[0] += 16;
        break;
      }
      ++tried;
      if (verifyPlan(c.request, p, c.symbolValues[0]))
        ++caught;
    }
  }
  std::printf("caught %d of %d mutations\n", caught, tried);
  EXPECT_GT(tried, 1000);
  EXPECT_EQ(caught, tried);
}

} // namespace

namespace {
// Element strides: a box of 4 rows with stride 2 visits rows 0 and 2 only,
// packed into consecutive shared rows (ceil(boxDim / stride) per dimension).
TEST(HardwareModelStrides, ElementStridesSkipRows) {
  TensorMapDesc m;
  m.rank = 2;
  m.globalDim = {8, 8};
  m.globalStridesBytes = {16};
  m.boxDim = {8, 4};
  m.elementStrides = {1, 2};
  m.elementBytes = 2;
  std::vector<int64_t> globalOffsets, sharedAddrs;
  ASSERT_FALSE(walkBox(m, TmaIssue{SymExpr(0), {SymExpr(0), SymExpr(0)}},
                       Direction::GlobalToShared, {}, 1024,
                       [&](const BoxElement &e) {
                         globalOffsets.push_back(e.globalByteOffset);
                         sharedAddrs.push_back(e.sharedAddress);
                       }));
  ASSERT_EQ(globalOffsets.size(), 16u);
  EXPECT_EQ(globalOffsets[8], 2 * 16);  // the second row read is row 2
  EXPECT_EQ(sharedAddrs[8], 1024 + 16); // packed right after row 0
  m.boxDim = {8, 5};                    // ceil(5 / 2) = 3 rows
  int count = 0;
  ASSERT_FALSE(walkBox(m, TmaIssue{SymExpr(0), {SymExpr(0), SymExpr(0)}},
                       Direction::GlobalToShared, {}, 1024,
                       [&](const BoxElement &) { ++count; }));
  EXPECT_EQ(count, 24);

  // What a plan of three such issues completes on its barrier: 3 x 8 x 3 x
  // 2 B; nothing for a map that breaks the descriptor rules.
  TmaPlan plan;
  plan.map = m;
  plan.issues.assign(3, TmaIssue{SymExpr(0), {SymExpr(0), SymExpr(0)}});
  EXPECT_EQ(planTransferBytes(plan), 144);
  plan.map.boxDim = {8, 300};
  EXPECT_EQ(planTransferBytes(plan), std::nullopt);
}
} // namespace

namespace {
// Without interleave the driver ignores elementStrides[0]: a box row is read
// contiguously whatever the first element stride says (so every n-th element
// of the innermost dimension has no tiled TMA plan).
TEST(HardwareModelStrides, InnerElementStrideIsIgnored) {
  TensorMapDesc m;
  m.rank = 2;
  m.globalDim = {16, 2};
  m.globalStridesBytes = {32};
  m.boxDim = {8, 2};
  m.elementStrides = {2, 1};
  m.elementBytes = 2;
  std::vector<int64_t> globalOffsets;
  ASSERT_FALSE(walkBox(m, TmaIssue{SymExpr(0), {SymExpr(0), SymExpr(0)}},
                       Direction::GlobalToShared, {}, 1024,
                       [&](const BoxElement &e) {
                         globalOffsets.push_back(e.globalByteOffset);
                       }));
  ASSERT_EQ(globalOffsets.size(), 16u);
  EXPECT_EQ(globalOffsets[1], 2);  // element 1, not element 2
  EXPECT_EQ(globalOffsets[7], 14); // the row's 8 elements are contiguous
  EXPECT_EQ(globalOffsets[8], 32); // then the next row
}
} // namespace
