//===- PlannerOptimalTest.cpp - The planner needs no more instructions ----===//
//
// On random small static loads (BruteForcePlan.h), the planner's instruction
// count equals the brute-force minimum, the planner declines exactly when no
// descriptor copies the region, and both plans pass the hardware model.
//
//===----------------------------------------------------------------------===//

#include "BruteForcePlan.h"
#include "PlanFuzz.h"
#include "TestUtil.h"

#include <random>

using namespace tile;
using namespace tile::tma;
using namespace tile::tma::test;

namespace {

struct Rng {
  std::mt19937_64 gen;
  int64_t below(int64_t n) {
    return static_cast<int64_t>(gen() % static_cast<uint64_t>(n));
  }
  bool chance(int percent) { return below(100) < percent; }
  template <typename T>
  T pick(const std::vector<T> &v) {
    return v[static_cast<size_t>(below(static_cast<int64_t>(v.size())))];
  }
};

// Row-major strides of `shape`, each outer stride padded now and then by a
// multiple of `pad` elements or up to a multiple of `line` elements.
std::vector<int64_t> paddedStrides(Rng &rng, const std::vector<int64_t> &shape,
                                   int64_t pad, int64_t line) {
  std::vector<int64_t> strides(shape.size(), 1);
  for (size_t d = shape.size() - 1; d-- > 0;) {
    int64_t dense = strides[d + 1] * shape[d + 1];
    strides[d] = dense;
    if (rng.chance(20))
      strides[d] += pad * (1 + rng.below(3));
    else if (rng.chance(20))
      strides[d] = (dense + line - 1) / line * line + line * rng.below(2);
  }
  return strides;
}

// A static load inside the tensor: global rank 1..4 with padded strides now
// and then, a region (mostly on 16-byte inner offsets), and a shared buffer
// holding the region as it is, without unit dims, or as [rows, inner row],
// rows padded now and then.
CopyRequest randomLoad(Rng &rng) {
  static const std::vector<ElementType> types = {
      {ScalarKind::UnsignedInt, 1}, f16(), f32(), f64()};
  static const std::vector<int64_t> sizes = {
      1, 1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128, 256, 384, 512};
  ElementType t = rng.pick(types);
  int64_t eb = t.bytes, unit = 16 / eb;
  size_t rank = static_cast<size_t>(1 + rng.below(4));
  std::vector<int64_t> region(rank), shape(rank);
  std::vector<SymExpr> offsets(rank);
  int64_t bytes;
  do {
    bytes = eb;
    for (size_t d = 0; d < rank; ++d) {
      region[d] = rng.pick(sizes);
      bytes *= region[d];
    }
  } while (bytes > 8192);
  int64_t tensorBytes = eb;
  for (size_t d = 0; d < rank; ++d) {
    shape[d] =
        region[d] +
        (rng.chance(50) || tensorBytes > (1 << 16) ? 0 : rng.pick(sizes));
    tensorBytes *= shape[d];
    int64_t room = shape[d] - region[d];
    int64_t o = room ? rng.below(room + 1) : 0;
    if (d + 1 == rank && rng.chance(80))
      o = o / unit * unit;
    offsets[d] = SymExpr(o);
  }
  CopyRequest r;
  r.direction = Direction::GlobalToShared;
  r.elementType = t;
  r.globalShape = shape;
  r.globalLayout =
      Layout::strided(shape, paddedStrides(rng, shape, unit, 128 / eb));
  r.globalOffsets = offsets;
  r.globalSizes = region;

  std::vector<int64_t> sShape;
  switch (rng.below(3)) {
  case 0:
    sShape = region;
    break;
  case 1:
    for (int64_t n : region)
      if (n > 1)
        sShape.push_back(n);
    if (sShape.empty())
      sShape.push_back(1);
    break;
  default: {
    int64_t count = bytes / eb;
    sShape = {count / region.back(), region.back()};
    break;
  }
  }
  r.sharedShape = sShape;
  r.sharedLayout =
      Layout::strided(sShape, paddedStrides(rng, sShape, unit, 128 / eb));
  r.sharedOffsets = zeros(sShape.size());
  r.sharedSizes = sShape;
  return r;
}

// Case `index` of `seed`: a random load whose global buffer the model can
// hold (1 MiB).
CopyRequest randomSmallLoad(uint64_t seed, uint64_t index) {
  Rng rng{std::mt19937_64(seed * 1000003 + index)};
  while (true) {
    CopyRequest r = randomLoad(rng);
    if (r.globalLayout.cosize() * r.elementType.bytes <= (1 << 20))
      return r;
  }
}

TEST(PlannerOptimal, MatchesBruteForceMinimum) {
  int64_t compared = 0, planned = 0, multiIssue = 0, fewer = 0;
  std::map<std::string, int64_t> declines;
  int failures = 0;
  for (uint64_t i = 0; i < 5000; ++i) {
    CopyRequest r = randomSmallLoad(/*seed=*/16, i);
    std::string why;
    ASSERT_TRUE(brute::inScope(r, 8192, &why))
        << why << "\n  " << fuzz::describeRequest(r);
    ++compared;
    PlanOutcome o = planTmaCopy(r);
    brute::BruteForceResult b = brute::bruteForcePlan(r);
    if (b.plan) {
      std::optional<std::string> e = verifyPlan(r, *b.plan, {});
      EXPECT_FALSE(e) << "brute-force plan: " << *e << "\n  "
                      << describe(*b.plan) << "\n  "
                      << fuzz::describeRequest(r);
    }
    if (o.plan) {
      ++planned;
      multiIssue += o.plan->issues.size() > 1;
      std::optional<std::string> e = verifyPlan(r, *o.plan, {});
      EXPECT_FALSE(e) << "planner plan: " << *e;
    } else {
      ++declines[std::string(ruleIdName(o.decline->rule))];
    }
    size_t want = b.plan ? b.plan->issues.size() : 0;
    size_t got = o.plan ? o.plan->issues.size() : 0;
    if (got != want && ++failures <= 10)
      ADD_FAILURE() << "case " << i << ": planner " << got << " instructions ("
                    << (o.plan ? describe(*o.plan) : messageOf(o.decline))
                    << "), minimum " << want << " ("
                    << (b.plan ? describe(*b.plan) : std::string("none"))
                    << ")\n  " << fuzz::describeRequest(r);
    fewer += got > want;
  }
  std::printf("compared %lld, planned %lld (%lld with several instructions), "
              "more than the minimum %lld\n",
              static_cast<long long>(compared), static_cast<long long>(planned),
              static_cast<long long>(multiIssue),
              static_cast<long long>(fewer));
  EXPECT_EQ(failures, 0);
}

} // namespace
