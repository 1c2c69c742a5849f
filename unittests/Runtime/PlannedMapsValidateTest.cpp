//===- PlannedMapsValidateTest.cpp - The runtime accepts the planner's maps
//===//
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

#include "tile/Runtime/TileRuntime.h"
#include "tile/TMA/Planner.h"

#include "gtest/gtest.h"

#include <optional>
#include <string>
#include <vector>

using namespace tile;
using namespace tile::tma;

namespace {

// The global buffer's address: 1024-byte aligned, as an allocation is.
constexpr int64_t kBufferAddress = int64_t(1) << 24;

/// tileTensorMapValidateTiled's answer for the map with the global base at
/// `base`: nullopt where it accepts, else its message.
std::optional<std::string> validate(const TensorMapDesc &m, int64_t base) {
  int32_t rc = tileTensorMapValidateTiled(
      static_cast<int32_t>(m.dataType), static_cast<int32_t>(m.rank),
      reinterpret_cast<const void *>(static_cast<uintptr_t>(base)),
      m.globalDim.data(), m.globalStridesBytes.data(), m.boxDim.data(),
      m.elementStrides.data(), m.interleave, static_cast<int32_t>(m.swizzle),
      m.l2Promotion, m.oobFill);
  if (rc == TILE_SUCCESS)
    return std::nullopt;
  return std::string(tileRuntimeLastError());
}

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
      std::optional<std::string> refused =
          validate(m, kBufferAddress + m.baseOffsetBytes.evaluate(symbols));
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
  // runtime refuses a null address, so they move to kBufferAddress.
  fuzz::SymbolicStats stats = fuzz::runSymbolicCases(
      /*seed=*/13, /*count=*/6000, [](const TensorMapDesc &m, int64_t base) {
        return validate(m, kBufferAddress + base);
      });
  std::printf("%s\n", fuzz::summary(stats).c_str());
  for (const std::string &report : stats.failureReports)
    ADD_FAILURE() << report;
  EXPECT_EQ(stats.failures, 0u);
  EXPECT_GT(stats.guardsHeld, 2000u);
  EXPECT_GT(stats.encodeChecks, stats.guardsHeld);
}

} // namespace
