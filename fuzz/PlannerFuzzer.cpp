//===- PlannerFuzzer.cpp - The TMA planner on decoded requests ------------===//
//
// The input decodes to a copy request: the first 16 bytes pick a realistic
// case of the property-test generator (unittests/TMA/PlanFuzz, tile-shaped
// copies with swizzles, stages, reshapes, loads leaving the tensor), the rest
// a list of edits that overwrite single fields (shape, region offsets and
// sizes, strides, shard extents, element type, swizzle, alignment, direction,
// reduction, out-of-bounds fill, symbol divisors) with boundary values.
// Invariants:
//   - the planner never crashes or hits undefined behaviour;
//   - a request without a plan has a decline (its rule typed);
//   - an accepted plan's map passes the runtime's validation (what every
//     encode runs before the driver);
//   - an accepted plan has at most limits::kMaxIssues issues and the hardware
//   model
//     (verifyPlan, which executes every issue with simulateIssue) finds it
//     moves exactly the region, for every symbol assignment of the case.
//
//===----------------------------------------------------------------------===//

#include "PlanFuzz.h"

#include "tile/Support/Rules.h"
#include "tile/TMA/HardwareModel.h"
#include "tile/TMA/Limits.h"
#include "tile/TMA/Planner.h"

#include <fuzzer/FuzzedDataProvider.h>

#if TILE_FUZZ_RUNTIME
#include "ValidatePlannedMap.h"
#endif

#include <cstdio>
#include <cstdlib>

using namespace tile;
using namespace tile::tma;

namespace {

[[noreturn]] void finding(const std::string &what, const CopyRequest &r) {
  fprintf(stderr, "==== tile-fuzz-planner finding: %s\n  %s\n", what.c_str(),
          fuzz::describeRequest(r).c_str());
  abort();
}

int64_t boundary(FuzzedDataProvider &in, int64_t old) {
  static const int64_t kValues[] = {0,
                                    1,
                                    -1,
                                    2,
                                    3,
                                    8,
                                    16,
                                    255,
                                    256,
                                    257,
                                    1024,
                                    65536,
                                    INT32_MAX,
                                    int64_t(1) << 31,
                                    int64_t(1) << 32,
                                    (int64_t(1) << 55) + 1,
                                    int64_t(1) << 62,
                                    INT64_MAX - 7,
                                    INT64_MAX,
                                    INT64_MIN};
  switch (in.ConsumeIntegralInRange<int>(0, 3)) {
  case 0:
    return in.PickValueInArray(kValues);
  case 1:
    return static_cast<int64_t>(
        static_cast<uint64_t>(old) +
        static_cast<uint64_t>(in.ConsumeIntegralInRange<int64_t>(-16, 16)));
  case 2:
    return in.ConsumeIntegralInRange<int64_t>(-4, 1024);
  default:
    return in.ConsumeIntegral<int64_t>();
  }
}

template <typename T>
T *pick(FuzzedDataProvider &in, std::vector<T> &v) {
  if (v.empty())
    return nullptr;
  return &v[in.ConsumeIntegralInRange<size_t>(0, v.size() - 1)];
}

/// Applies one edit; returns false when the input is used up.
bool edit(FuzzedDataProvider &in, CopyRequest &r) {
  if (in.remaining_bytes() == 0)
    return false;
  auto editLayout = [&](Layout &l, bool stride) {
    std::vector<Shard> shards = l.shards();
    if (Shard *s = pick(in, shards)) {
      int64_t &field = stride ? s->stride : s->extent;
      field = boundary(in, field);
    }
    l = Layout(shards, l.swizzle(), l.elementOffset());
  };
  switch (in.ConsumeIntegralInRange<int>(0, 16)) {
  case 0:
    if (int64_t *v = pick(in, r.globalShape))
      *v = boundary(in, *v);
    break;
  case 1:
    if (int64_t *v = pick(in, r.globalSizes))
      *v = boundary(in, *v);
    break;
  case 2:
    if (SymExpr *v = pick(in, r.globalOffsets))
      v->constant = boundary(in, v->constant);
    break;
  case 3:
    if (int64_t *v = pick(in, r.sharedShape))
      *v = boundary(in, *v);
    break;
  case 4:
    if (int64_t *v = pick(in, r.sharedSizes))
      *v = boundary(in, *v);
    break;
  case 5:
    if (SymExpr *v = pick(in, r.sharedOffsets))
      v->constant = boundary(in, v->constant);
    break;
  case 6:
    editLayout(r.globalLayout, /*stride=*/true);
    break;
  case 7:
    editLayout(r.globalLayout, /*stride=*/false);
    break;
  case 8:
    editLayout(r.sharedLayout, /*stride=*/true);
    break;
  case 9:
    editLayout(r.sharedLayout, /*stride=*/false);
    break;
  case 10:
    r.globalLayout = Layout(r.globalLayout.shards(), r.globalLayout.swizzle(),
                            boundary(in, r.globalLayout.elementOffset()));
    break;
  case 11:
    r.sharedLayout =
        Layout(r.sharedLayout.shards(),
               static_cast<Swizzle>(in.ConsumeIntegralInRange<int>(0, 3)),
               r.sharedLayout.elementOffset());
    break;
  case 12: {
    static const ScalarKind kKinds[] = {
        ScalarKind::SignlessInt, ScalarKind::SignedInt, ScalarKind::UnsignedInt,
        ScalarKind::Float,       ScalarKind::BFloat,    ScalarKind::Float8};
    r.elementType.kind = in.PickValueInArray(kKinds);
    static const int64_t kBytes[] = {1, 2, 3, 4, 6, 8, 16, 0, -1};
    r.elementType.bytes = in.PickValueInArray(kBytes);
    break;
  }
  case 13:
    r.sharedBaseAlignment = boundary(in, r.sharedBaseAlignment);
    break;
  case 14:
    r.direction = r.direction == Direction::GlobalToShared
                      ? Direction::SharedToGlobal
                      : Direction::GlobalToShared;
    break;
  case 15:
    r.reduce = static_cast<ReduceKind>(in.ConsumeIntegralInRange<int>(0, 8));
    r.oobFill = in.ConsumeBool() ? OobFill::NaN : OobFill::Zero;
    break;
  default:
    if (int64_t *v = pick(in, r.symbolDivisors))
      *v = boundary(in, *v);
    break;
  }
  return true;
}

#if TILE_FUZZ_RUNTIME
/// What the runtime's validation (every encode runs it before the driver)
/// says of a static plan's map with the buffer at a 1024-byte aligned
/// address, for symbol values that make the copy defined; nullopt where it
/// accepts or there is nothing to ask.
std::optional<std::string> runtimeRefuses(const CopyRequest &r,
                                          const TmaPlan &plan,
                                          const std::vector<int64_t> &values) {
  if (r.symbolicGlobal || whyUndefined(r, values))
    return std::nullopt;
  int64_t base = plan.map.baseOffsetBytes.evaluate(values);
  // An edited layout offset can put the buffer's start anywhere; only a
  // start inside a plausible allocation names an address.
  if (base < 0 || base >= (int64_t(1) << 40))
    return std::nullopt;
  return runtime::test::validatePlannedMap(
      plan.map, runtime::test::kPlannedBufferAddress + base);
}
#endif

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  FuzzedDataProvider in(data, size);
  uint64_t seed = in.ConsumeIntegral<uint64_t>();
  uint64_t index = in.ConsumeIntegral<uint64_t>();
  fuzz::FuzzCase c = fuzz::generateCase(seed, index);
  bool edited = false;
  for (int i = 0; i < 8 && edit(in, c.request); ++i)
    edited = true;
  // Edited cases are checked with the symbols at zero: other assignments the
  // generator chose may no longer stay inside the edited shapes.
  if (edited)
    c.symbolValues = {{0, 0, 0}};

  PlanOutcome outcome = planTmaCopy(c.request);
  if (!outcome.plan) {
    if (!outcome.decline)
      finding("neither a plan nor a decline", c.request);
    return 0;
  }
  const TmaPlan &plan = *outcome.plan;
  if (static_cast<int64_t>(plan.issues.size()) > limits::kMaxIssues)
    finding("plan with " + std::to_string(plan.issues.size()) + " issues",
            c.request);
#if TILE_FUZZ_RUNTIME
  for (const std::vector<int64_t> &values : c.symbolValues)
    if (std::optional<std::string> refused =
            runtimeRefuses(c.request, plan, values))
      finding("the runtime refuses the planned map: " + *refused, c.request);
#endif
  ModelOptions options;
  options.maxImageCells = int64_t(1) << 20; // keeps one execution fast
  if (whyTooLargeToModel(c.request, options))
    return 0;
  for (const std::vector<int64_t> &values : c.symbolValues) {
    // Edits can move a dynamic offset's region out of its buffer at these
    // values: the copy is undefined there, whatever the plan.
    if (whyUndefined(c.request, values))
      continue;
    std::optional<std::string> error =
        verifyPlan(c.request, plan, values, options);
    if (error)
      finding("the hardware model rejects the plan: " + *error, c.request);
  }
  return 0;
}
