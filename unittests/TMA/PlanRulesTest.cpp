//===- PlanRulesTest.cpp - Plan-level rules at their exact limits ---------===//
//
// The planner builds plans that satisfy most descriptor limits by
// construction (boxes split at 256, element strides of 1, ...), so its own
// tests never reach these rules. They are the last line between a planner bug
// and a tensor map the driver rejects or a TMA instruction that traps: each
// rule is checked here on a hand-built plan one step inside and one step past
// its limit, with the decline's exact text.
//
//===----------------------------------------------------------------------===//

#include "CopyModes.h"
#include "TestUtil.h"

using namespace tile;
using namespace tile::tma;
using namespace tile::tma::test;
using tile::tma::detail::checkPlanRules;
using tile::tma::detail::checkRequestRules;

namespace {

/// A 64 x 256 row-major f16 tensor, all of it loaded into a dense 64 x 64
/// tile by one box at coordinates (c0, c1) = (64, 0).
CopyRequest baseRequest(Direction direction) {
  CopyRequest r = load(f16(), Layout::rowMajor({64, 256}), {64, 256},
                       parse("(64, 64)"), {64, 64});
  r.globalOffsets = {SymExpr(0), SymExpr(64)};
  r.globalSizes = {64, 64};
  r.direction = direction;
  return r;
}

TmaPlan basePlan() {
  TmaPlan p;
  p.map.dataType = TensorDataType::F16;
  p.map.rank = 2;
  p.map.globalDim = {256, 64};
  p.map.globalStridesBytes = {512};
  p.map.boxDim = {64, 64};
  p.map.elementStrides = {1, 1};
  p.map.swizzle = Swizzle::None;
  p.map.elementBytes = 2;
  p.map.baseOffsetBytes = SymExpr(0);
  p.issues = {TmaIssue{SymExpr(0), {SymExpr(64), SymExpr(0)}}};
  p.bytes = 64 * 64 * 2;
  return p;
}

std::string verdict(const CopyRequest &r, const TmaPlan &p) {
  std::optional<Decline> decline = checkPlanRules(r, p);
  return decline ? decline->message() : "ok";
}

TEST(PlanRules, BasePlansPass) {
  EXPECT_EQ(verdict(baseRequest(Direction::GlobalToShared), basePlan()), "ok");
  EXPECT_EQ(verdict(baseRequest(Direction::SharedToGlobal), basePlan()), "ok");
}

TEST(PlanRules, BoxDimAtMost256) {
  CopyRequest r = baseRequest(Direction::GlobalToShared);
  TmaPlan p = basePlan();
  p.map.boxDim[1] = 256;
  EXPECT_EQ(verdict(r, p), "ok");
  p.map.boxDim[1] = 257;
  EXPECT_EQ(verdict(r, p),
            "box-dim: box dimension 1 is 257, TMA allows 1 to 256");
  p.map.boxDim[1] = 0;
  EXPECT_EQ(verdict(r, p),
            "box-dim: box dimension 1 is 0, TMA allows 1 to 256");
}

TEST(PlanRules, ElementStrideAtMost8) {
  CopyRequest r = baseRequest(Direction::GlobalToShared);
  TmaPlan p = basePlan();
  p.map.elementStrides[1] = 8;
  EXPECT_EQ(verdict(r, p), "ok");
  p.map.elementStrides[1] = 9;
  EXPECT_EQ(
      verdict(r, p),
      "element-stride: element stride 9 of dimension 1 is outside 1 to 8");
  p.map.elementStrides[1] = 0;
  EXPECT_EQ(
      verdict(r, p),
      "element-stride: element stride 0 of dimension 1 is outside 1 to 8");
}

TEST(PlanRules, GlobalDimAtMost2To32) {
  CopyRequest r = baseRequest(Direction::GlobalToShared);
  TmaPlan p = basePlan();
  p.map.globalDim[1] = uint64_t(1) << 32;
  EXPECT_EQ(verdict(r, p), "ok");
  p.map.globalDim[1] = (uint64_t(1) << 32) + 1;
  EXPECT_EQ(verdict(r, p), "global-dim: global dimension 1 is 4294967297, TMA "
                           "allows 1 to 2^32");
  p.map.globalDim[1] = 0;
  EXPECT_EQ(verdict(r, p),
            "global-dim: global dimension 1 is 0, TMA allows 1 to 2^32");
}

TEST(PlanRules, GlobalStrideBelow2To40) {
  CopyRequest r = baseRequest(Direction::GlobalToShared);
  TmaPlan p = basePlan();
  p.map.globalStridesBytes[0] = (uint64_t(1) << 40) - 16;
  EXPECT_EQ(verdict(r, p), "ok");
  p.map.globalStridesBytes[0] = uint64_t(1) << 40;
  EXPECT_EQ(verdict(r, p), "global-stride: dimension 1 stride 1099511627776 B "
                           "is not below 2^40");
  p.map.globalStridesBytes[0] = 520;
  EXPECT_EQ(verdict(r, p),
            "global-stride: dimension 1 stride 520 B is not a multiple of 16");
}

TEST(PlanRules, InnerBoxWithinSwizzleSpan) {
  CopyRequest r = baseRequest(Direction::GlobalToShared);
  TmaPlan p = basePlan();
  p.map.swizzle = Swizzle::B128;
  p.map.boxDim[0] = 64; // 128 B
  EXPECT_EQ(verdict(r, p), "ok");
  p.map.boxDim[0] = 72; // 144 B
  EXPECT_EQ(verdict(r, p), "swizzle-span: inner box 72 x 2 B = 144 B exceeds "
                           "the 128 B swizzle span");
  p.map.swizzle = Swizzle::B32;
  p.map.boxDim[0] = 16; // 32 B
  EXPECT_EQ(verdict(r, p), "ok");
  p.map.boxDim[0] = 24; // 48 B
  EXPECT_EQ(verdict(r, p), "swizzle-span: inner box 24 x 2 B = 48 B exceeds "
                           "the 32 B swizzle span");
  // Without swizzle only the box limit applies.
  p.map.swizzle = Swizzle::None;
  p.map.boxDim[0] = 256;
  EXPECT_EQ(verdict(r, p), "ok");
}

TEST(PlanRules, CoordinatesFitInt32) {
  CopyRequest r = baseRequest(Direction::GlobalToShared);
  TmaPlan p = basePlan();
  // Loads may start outside the tensor (the rest is fill), but every
  // coordinate is an int32 operand of the instruction.
  p.issues[0].coords[1] = SymExpr((int64_t(1) << 31) - 1);
  EXPECT_EQ(verdict(r, p), "ok");
  p.issues[0].coords[1] = SymExpr(int64_t(1) << 31);
  EXPECT_EQ(verdict(r, p),
            "coord-range: coordinate 2147483648 does not fit int32");
  p.issues[0].coords[1] = SymExpr(-(int64_t(1) << 31));
  EXPECT_EQ(verdict(r, p), "ok");
  p.issues[0].coords[1] = SymExpr(-(int64_t(1) << 31) - 1);
  EXPECT_EQ(verdict(r, p),
            "coord-range: coordinate -2147483649 does not fit int32");
  // Only the second of two issues is out of range.
  p.issues[0].coords[1] = SymExpr(0);
  p.issues.push_back(
      TmaIssue{SymExpr(8192), {SymExpr(64), SymExpr(int64_t(1) << 31)}});
  EXPECT_EQ(verdict(r, p),
            "coord-range: coordinate 2147483648 does not fit int32");
}

TEST(PlanRules, StoreCoordinateNotNegative) {
  CopyRequest r = baseRequest(Direction::SharedToGlobal);
  TmaPlan p = basePlan();
  p.issues[0].coords[1] = SymExpr(-1);
  EXPECT_EQ(verdict(r, p),
            "store-negative-coord: store coordinate -1 is negative");
  // A load at -1 reads fill for the first row.
  r.direction = Direction::GlobalToShared;
  EXPECT_EQ(verdict(r, p), "ok");
}

TEST(PlanRules, StoreBoxInsideTheTensor) {
  CopyRequest r = baseRequest(Direction::SharedToGlobal);
  TmaPlan p = basePlan();
  p.map.globalDim[1] = 100;
  p.issues[0].coords[1] = SymExpr(36); // rows [36, 100)
  EXPECT_EQ(verdict(r, p), "ok");
  p.issues[0].coords[1] = SymExpr(37); // rows [37, 101)
  EXPECT_EQ(verdict(r, p), "store-bounds: store box [37, 101) leaves "
                           "tensor-map dimension 1 of extent 100");
  // A load box past the end reads fill.
  r.direction = Direction::GlobalToShared;
  EXPECT_EQ(verdict(r, p), "ok");
  // The inner dimension: columns [192, 256) fit, [200, 264) do not.
  r.direction = Direction::SharedToGlobal;
  p.issues[0].coords = {SymExpr(192), SymExpr(0)};
  EXPECT_EQ(verdict(r, p), "ok");
  p.issues[0].coords = {SymExpr(200), SymExpr(0)};
  EXPECT_EQ(verdict(r, p), "store-bounds: store box [200, 264) leaves "
                           "tensor-map dimension 0 of extent 256");
}

TEST(RequestRules, StoreRegionInsideTheTensor) {
  // 32 x 32 f32 tensor, a store of 4 x 32 rows.
  CopyRequest r = store(f32(), Layout::rowMajor({32, 32}), {32, 32},
                        parse("(4, 32)"), {4, 32});
  r.globalSizes = {4, 32};
  r.globalOffsets = {SymExpr(28), SymExpr(0)};
  EXPECT_EQ(checkRequestRules(r), std::nullopt);
  r.globalOffsets = {SymExpr(29), SymExpr(0)};
  EXPECT_EQ(messageOf(checkRequestRules(r)),
            "store-bounds: store region [29, 33) leaves [0, 32) on global "
            "dimension 0");
  // The planner declines it with the same text.
  EXPECT_EQ(declineOf(r), "store-bounds: store region [29, 33) leaves [0, 32) "
                          "on global dimension 0");
  r.globalOffsets = {SymExpr(-1), SymExpr(0)};
  EXPECT_EQ(declineOf(r), "store-negative-coord: store region starts at -1 on "
                          "global dimension 0");
  // Found by the planner fuzzer: an end past int64 (signed overflow before).
  r.globalOffsets = {SymExpr(INT64_MAX), SymExpr(0)};
  EXPECT_EQ(messageOf(checkRequestRules(r)),
            "store-bounds: store region [9223372036854775807, +4) leaves "
            "[0, 32) on global dimension 0");
  // Loads past the end are fill, not a rule violation.
  r.direction = Direction::GlobalToShared;
  r.globalOffsets = {SymExpr(29), SymExpr(0)};
  EXPECT_EQ(checkRequestRules(r), std::nullopt);
}

} // namespace
