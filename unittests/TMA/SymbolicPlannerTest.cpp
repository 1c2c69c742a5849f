//===- SymbolicPlannerTest.cpp - Plans over run-time sizes and strides ----===//
//
// Exact plans for global buffers whose type leaves sizes, strides or the
// offset to run time: which tensor-map fields the host computes, and the
// guards with their rule ids.
//
//===----------------------------------------------------------------------===//

#include "tile/TMA/Guards.h"
#include "tile/TMA/Planner.h"

#include <gtest/gtest.h>

using namespace tile;
using namespace tile::tma;

namespace {

std::vector<std::string> guardTexts(const TmaPlan &plan) {
  std::vector<std::string> texts;
  for (const Guard &g : plan.guards)
    texts.push_back(std::string(ruleIdName(g.rule)) + ": " + g.str());
  return texts;
}

/// A 64x64 f16 load into a row-major shared tile from `global`.
CopyRequest load64(SymbolicGlobal global, std::vector<int64_t> shape,
                   std::vector<SymExpr> offsets, std::vector<int64_t> sizes) {
  CopyRequest r;
  r.elementType = {ScalarKind::Float, 2};
  r.globalShape = std::move(shape);
  r.globalOffsets = std::move(offsets);
  r.globalSizes = std::move(sizes);
  r.symbolicGlobal = std::move(global);
  r.sharedLayout = Layout::strided({64, 64}, {64, 1}, 0);
  r.sharedShape = {64, 64};
  r.sharedOffsets = {SymExpr(0), SymExpr(0)};
  r.sharedSizes = {64, 64};
  return r;
}

TEST(SymbolicPlanner, RunTimeSizesAndStrideBecomeHostFields) {
  SymbolicGlobal g{{std::nullopt, std::nullopt}, {std::nullopt, 1}, 0};
  PlanOutcome o = planTmaCopy(load64(g, {kUnknownExtent, kUnknownExtent},
                                     {SymExpr(0), SymExpr(64)}, {64, 64}));
  ASSERT_TRUE(o.plan) << messageOf(o.decline);
  const TensorMapDesc &m = o.plan->map;
  ASSERT_EQ(m.rank, 2u);
  ASSERT_EQ(m.runtimeGlobalDim.size(), 2u);
  EXPECT_EQ(m.runtimeGlobalDim[0]->str(), "size[1]");
  EXPECT_EQ(m.runtimeGlobalDim[1]->str(), "size[0]");
  ASSERT_EQ(m.runtimeGlobalStrides.size(), 1u);
  EXPECT_EQ(m.runtimeGlobalStrides[0]->str(), "stride[0]*2");
  EXPECT_EQ(m.runtimeOffsetScale, 0);
  EXPECT_EQ(o.plan->issues[0].coords, (std::vector<SymExpr>{64, 0}));
  EXPECT_EQ(
      guardTexts(*o.plan),
      (std::vector<std::string>{"global-dim: 1 <= size[1] <= 4294967296",
                                "global-dim: 1 <= size[0] <= 4294967296",
                                "global-stride: stride[0]*2 % 16 == 0",
                                "global-stride: 0 <= stride[0] <= 549755813887",
                                "global-align: address % 16 == 0"}));
}

TEST(SymbolicPlanner, RunTimeOffsetJoinsTheBaseGuard) {
  SymbolicGlobal g{{64, std::nullopt}, {std::nullopt, 1}, std::nullopt};
  PlanOutcome o = planTmaCopy(
      load64(g, {64, kUnknownExtent}, {SymExpr(0), SymExpr(0)}, {64, 64}));
  ASSERT_TRUE(o.plan) << messageOf(o.decline);
  EXPECT_EQ(o.plan->map.runtimeOffsetScale, 2);
  EXPECT_FALSE(o.plan->map.runtimeGlobalDim[1].has_value());
  EXPECT_EQ(o.plan->map.globalDim[1], 64u);
  EXPECT_EQ(guardTexts(*o.plan).back(),
            "global-align: (address + offset*2) % 16 == 0");
  // The host's values: a 2-byte offset needs an address 2 bytes before a
  // 16-byte boundary.
  RuntimeValues v{{64, 100}, {104, 1}, 1, 14};
  EXPECT_EQ(firstFailedGuard(*o.plan, v), nullptr);
  v.address = 16;
  ASSERT_NE(firstFailedGuard(*o.plan, v), nullptr);
  EXPECT_EQ(firstFailedGuard(*o.plan, v)->rule, RuleId::GlobalAlign);
}

// A dimension with a run-time stride never fuses with its neighbour, even
// when placeholder values would make them look contiguous (a static stride
// of 0 under it).
TEST(SymbolicPlanner, RunTimeAxesNeverFuse) {
  // Static sizes; only the outer stride is a run-time value.
  SymbolicGlobal g{{2, 4, 64}, {std::nullopt, 0, 1}, 0};
  CopyRequest r;
  r.elementType = {ScalarKind::Float, 2};
  r.globalShape = {2, 4, 64};
  r.globalOffsets = {SymExpr(0), SymExpr(0), SymExpr(0)};
  r.globalSizes = {2, 4, 64};
  r.symbolicGlobal = g;
  r.sharedLayout = Layout::strided({8, 64}, {64, 1}, 0);
  r.sharedShape = {8, 64};
  r.sharedOffsets = {SymExpr(0), SymExpr(0)};
  r.sharedSizes = {8, 64};
  PlanOutcome o = planTmaCopy(r);
  ASSERT_TRUE(o.plan) << messageOf(o.decline);
  const TensorMapDesc &m = o.plan->map;
  ASSERT_EQ(m.rank, 3u);
  EXPECT_EQ(m.globalDim[1], 4u);
  EXPECT_EQ(m.globalStridesBytes[0], 0u);
  EXPECT_EQ(m.globalDim[2], 2u);
  ASSERT_EQ(m.runtimeGlobalStrides.size(), 2u);
  ASSERT_TRUE(m.runtimeGlobalStrides[1].has_value());
  EXPECT_EQ(m.runtimeGlobalStrides[1]->str(), "stride[0]*2");
}

TEST(SymbolicPlanner, RunTimeInnerStrideDeclines) {
  SymbolicGlobal g{
      {std::nullopt, std::nullopt}, {std::nullopt, std::nullopt}, 0};
  PlanOutcome o = planTmaCopy(load64(g, {kUnknownExtent, kUnknownExtent},
                                     {SymExpr(0), SymExpr(0)}, {64, 64}));
  EXPECT_FALSE(o.plan);
  EXPECT_EQ(std::string(ruleIdName(o.decline->rule)), "elementwise");
}

TEST(SymbolicPlanner, InstantiatedPlanHasTheHostValues) {
  SymbolicGlobal g{{std::nullopt, std::nullopt}, {std::nullopt, 1}, 0};
  PlanOutcome o = planTmaCopy(load64(g, {kUnknownExtent, kUnknownExtent},
                                     {SymExpr(0), SymExpr(0)}, {64, 64}));
  ASSERT_TRUE(o.plan);
  RuntimeValues v{{1000, 1000}, {1000, 1}, 0, 0};
  TmaPlan p = instantiatePlan(*o.plan, v);
  EXPECT_EQ(p.map.globalDim, (std::vector<uint64_t>{1000, 1000}));
  EXPECT_EQ(p.map.globalStridesBytes, (std::vector<uint64_t>{2000}));
  EXPECT_FALSE(p.map.hasRuntimeFields());
  EXPECT_TRUE(p.guards.empty());
}

} // namespace
