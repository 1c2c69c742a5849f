//===- PlannedMapsValidateTest.cpp - Runtime vs planner maps --------------===//
//
// The planner (lib/TMA) and the runtime's validation (lib/Runtime/TensorMap,
// what every encode runs before the driver) state the driver's rules in two
// independent places. A map the planner makes that the runtime refuses is a
// copy that compiles and then fails at its first launch; this property test
// plans the property-test generator's copies and hands every accepted plan's
// map, as the host encodes it, to tileTensorMapValidateTiled. Plans of
// run-time-sized buffers are instantiated at true and perturbed run-time
// values (the symbolic property test's): the runtime must accept where the
// plan's guards hold and refuse where a guard on a descriptor rule fails.
// Each rule's boundary in the runtime alone is TensorMapValidateTest.
//
//===----------------------------------------------------------------------===//

#include "PlanFuzz.h"
#include "ValidatePlannedMap.h"

#include "tile/Runtime/TileRuntime.h"
#include "tile/TMA/Im2col.h"
#include "tile/TMA/Planner.h"

#include "gtest/gtest.h"

#include <cstdint>
#include <cstdio>
#include <optional>
#include <random>
#include <string>
#include <vector>

using namespace tile;
using namespace tile::tma;

namespace {

using tile::runtime::test::kPlannedBufferAddress;
using tile::runtime::test::validatePlannedMap;

TEST(PlannedMapsValidate, TheRuntimeAcceptsEveryStaticPlan) {
  int plans = 0;
  for (uint64_t i = 0; i < 20000; ++i) {
    fuzz::FuzzCase c = fuzz::generateCase(/*seed=*/11, i);
    PlanOutcome outcome = planTmaCopy(c.request);
    if (!outcome.plan)
      continue;
    ++plans;
    const TensorMapDesc &m = outcome.plan->map;
    for (const std::vector<int64_t> &symbols : c.symbolValues) {
      std::optional<std::string> refused = validatePlannedMap(
          m, kPlannedBufferAddress + m.baseOffsetBytes.evaluate(symbols));
      ASSERT_FALSE(refused)
          << "case (11, " << i
          << "): the runtime refuses the planner's map: " << *refused << "\n  "
          << fuzz::describeRequest(c.request);
    }
  }
  std::printf("the runtime accepted the maps of %d plans\n", plans);
  EXPECT_GT(plans, 10000); // the generator's mix: most cases plan
}

// Run-time-sized buffers: the host encodes where the plan's guards hold, so
// the runtime must accept there, and refuse where a guard on a descriptor
// rule fails (the kernel's fallback version runs instead).
TEST(PlannedMapsValidate, TheRuntimeAgreesWithTheGuards) {
  // The generator's buffers start at address 0 (plus a perturbation); the
  // runtime refuses a null address, so they move to kPlannedBufferAddress.
  fuzz::SymbolicStats stats = fuzz::runSymbolicCases(
      /*seed=*/13, /*count=*/6000, [](const TensorMapDesc &m, int64_t base) {
        return validatePlannedMap(m, kPlannedBufferAddress + base);
      });
  std::printf("%s\n", fuzz::summary(stats).c_str());
  for (const std::string &report : stats.failureReports)
    ADD_FAILURE() << report;
  EXPECT_EQ(stats.failures, 0u);
  EXPECT_GT(stats.guardsHeld, 2000u);
  EXPECT_GT(stats.encodeRefusals, 2000u);
}

// im2col maps: random channels-last convolutions (rank 3..5, element types
// of 1 to 8 bytes, padding, traversal strides, channel and pixel counts up to
// the limits, swizzled tiles), every map the planner makes handed to
// tileTensorMapValidateIm2col.
TEST(PlannedMapsValidate, TheRuntimeAcceptsEveryIm2colPlan) {
  std::mt19937_64 rng(20261206);
  auto pick = [&](int64_t lo, int64_t hi) {
    return std::uniform_int_distribution<int64_t>(lo, hi)(rng);
  };
  const ElementType kTypes[] = {{ScalarKind::UnsignedInt, 1},
                                {ScalarKind::Float, 2},
                                {ScalarKind::BFloat, 2},
                                {ScalarKind::Float, 4},
                                {ScalarKind::SignedInt, 8}};
  int planned = 0;
  for (int iter = 0; iter < 4000; ++iter) {
    size_t rank = pick(3, 5), spatial = rank - 2;
    Im2colRequest r;
    r.elementType = kTypes[pick(0, 4)];
    int64_t eb = r.elementType.bytes;
    Swizzle swizzle = static_cast<Swizzle>(pick(0, 3));
    int64_t span = swizzle == Swizzle::None ? 256 : swizzleSpanBytes(swizzle);
    int64_t channels = 16 / eb * pick(1, span / 16);
    std::vector<int64_t> sizes(rank);
    sizes[0] = pick(1, 4);
    sizes[rank - 1] = channels * pick(1, 3);
    int64_t limit = im2colCornerLimit(rank);
    for (size_t j = 0; j < spatial; ++j) {
      sizes[j + 1] = pick(1, 300);
      int64_t filter = pick(1, 7), pad = pick(0, 3);
      r.lowerCorner.push_back(std::max(-pad, -limit));
      r.upperCorner.push_back(std::min(pad - (filter - 1), limit - 1));
      r.traversalStrides.push_back(pick(1, 8));
    }
    std::vector<std::optional<int64_t>> strides(rank);
    int64_t stride = 1;
    for (size_t d = rank; d-- > 0;) {
      strides[d] = stride;
      stride *= sizes[d];
    }
    r.globalSizes = {sizes.begin(), sizes.end()};
    r.globalStrides = strides;
    int64_t pixels = pick(1, 1024);
    r.sharedShape = {pixels, channels};
    r.sharedLayout =
        Layout(Layout::rowMajor({pixels, channels}).shards(), swizzle, 0);
    r.oobFill = pick(0, 1) ? OobFill::NaN : OobFill::Zero;
    Im2colError error;
    std::optional<Im2colPlan> plan = planIm2col(r, &error);
    if (!plan)
      continue;
    ++planned;
    const Im2colMapDesc &m = plan->map;
    int32_t rc = tileTensorMapValidateIm2col(
        static_cast<int32_t>(m.dataType), static_cast<int32_t>(m.rank),
        reinterpret_cast<const void *>(
            static_cast<uintptr_t>(kPlannedBufferAddress)),
        m.globalDim.data(), m.globalStridesBytes.data(), m.lowerCorner.data(),
        m.upperCorner.data(), m.channelsPerPixel, m.pixelsPerColumn,
        m.elementStrides.data(), /*interleave=*/0,
        static_cast<int32_t>(m.swizzle), m.l2Promotion, m.oobFill);
    ASSERT_EQ(rc, TILE_SUCCESS)
        << "case " << iter << ": the runtime refuses the planner's im2col map: "
        << tileRuntimeLastError();
  }
  std::printf("the runtime accepted the maps of %d im2col plans\n", planned);
  EXPECT_GT(planned, 1000);
}

} // namespace
