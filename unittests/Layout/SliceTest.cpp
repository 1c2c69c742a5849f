//===- SliceTest.cpp - Region slicing -------------------------------------===//

#include "tile/Layout/Slice.h"

#include <gtest/gtest.h>

#include <random>

using namespace tile;

namespace {

// The layout of an in-bounds region over its own (row-major) index space,
// composed from sliceGroup per dimension; the element offset includes the
// region start.
std::optional<Layout> sliceLayout(const GroupedLayout &layout,
                                  const Region &region,
                                  std::string *error = nullptr) {
  std::vector<Shard> shards;
  int64_t offset = layout.elementOffset;
  for (size_t d = 0; d < layout.rank(); ++d) {
    std::optional<std::vector<SliceAxis>> axes =
        sliceGroup(layout.groups[d], region.offsets[d], region.sizes[d], error);
    if (!axes)
      return std::nullopt;
    for (const SliceAxis &a : *axes) {
      shards.push_back({a.size, a.size == 1 ? 0 : a.stride});
      offset += a.start * a.stride;
    }
  }
  return Layout(std::move(shards), layout.swizzle, offset);
}

TEST(Slice, DemoColumnsOfSwizzledTile) {
  // 256 columns as (4, 64) : (512, 1); columns [64, 192).
  std::vector<Shard> cols = {{4, 512}, {64, 1}};
  std::optional<std::vector<SliceAxis>> axes = sliceGroup(cols, 64, 128);
  ASSERT_TRUE(axes);
  EXPECT_EQ(*axes, (std::vector<SliceAxis>{{4, 512, 1, 2}, {64, 1, 0, 64}}));
  // Inner partial run inside one shard digit.
  axes = sliceGroup(cols, 130, 16);
  ASSERT_TRUE(axes);
  EXPECT_EQ(*axes, (std::vector<SliceAxis>{{4, 512, 2, 1}, {64, 1, 2, 16}}));
}

TEST(Slice, Errors) {
  std::vector<Shard> cols = {{4, 512}, {64, 1}};
  std::string error;
  EXPECT_FALSE(sliceGroup(cols, 32, 64, &error));
  EXPECT_EQ(error, "region start 32 does not align to shard 1 of extent 64");
  EXPECT_FALSE(sliceGroup(cols, 60, 8, &error));
  EXPECT_EQ(error,
            "region [60, 68) crosses a boundary of shard 1 of extent 64");
  EXPECT_FALSE(sliceGroup(cols, 0, 96, &error));
  EXPECT_EQ(error, "region [0, 96) crosses a boundary of shard 1 of extent 64");
  EXPECT_FALSE(sliceGroup(cols, 0, 0, &error));
  EXPECT_EQ(error, "region size 0 is not positive");
  // The size check comes before any shard's.
  EXPECT_FALSE(sliceGroup(cols, 32, -64, &error));
  EXPECT_EQ(error, "region size -64 is not positive");
}

TEST(Slice, ShardBoundaryExact) {
  // 256 columns as (4, 64) : (512, 1): a region may end exactly on the
  // boundary of a 64-column shard, one element past it crosses.
  std::vector<Shard> cols = {{4, 512}, {64, 1}};
  std::string error;
  std::optional<std::vector<SliceAxis>> axes = sliceGroup(cols, 48, 16);
  ASSERT_TRUE(axes);
  EXPECT_EQ(*axes, (std::vector<SliceAxis>{{4, 512, 0, 1}, {64, 1, 48, 16}}));
  EXPECT_FALSE(sliceGroup(cols, 49, 16, &error));
  EXPECT_EQ(error,
            "region [49, 65) crosses a boundary of shard 1 of extent 64");
  axes = sliceGroup(cols, 113, 15);
  ASSERT_TRUE(axes);
  EXPECT_EQ(*axes, (std::vector<SliceAxis>{{4, 512, 1, 1}, {64, 1, 49, 15}}));
  EXPECT_FALSE(sliceGroup(cols, 113, 16, &error));
  EXPECT_EQ(error,
            "region [113, 129) crosses a boundary of shard 1 of extent 64");
  // A region of a single full shard at its boundary, and one shifted by one.
  axes = sliceGroup(cols, 192, 64);
  ASSERT_TRUE(axes);
  EXPECT_EQ(*axes, (std::vector<SliceAxis>{{4, 512, 3, 1}, {64, 1, 0, 64}}));
  EXPECT_FALSE(sliceGroup(cols, 191, 64, &error));
  EXPECT_EQ(error, "region start 191 does not align to shard 1 of extent 64");
  // Three shards: (2, 4, 8) columns; [4, 8) of the innermost is the edge.
  std::vector<Shard> three = {{2, 1000}, {4, 100}, {8, 1}};
  axes = sliceGroup(three, 28, 4);
  ASSERT_TRUE(axes);
  EXPECT_EQ(*axes, (std::vector<SliceAxis>{
                       {2, 1000, 0, 1}, {4, 100, 3, 1}, {8, 1, 4, 4}}));
  EXPECT_FALSE(sliceGroup(three, 29, 4, &error));
  EXPECT_EQ(error, "region [29, 33) crosses a boundary of shard 2 of extent 8");
  axes = sliceGroup(three, 8, 24);
  ASSERT_TRUE(axes);
  EXPECT_EQ(*axes, (std::vector<SliceAxis>{
                       {2, 1000, 0, 1}, {4, 100, 1, 3}, {8, 1, 0, 8}}));
  EXPECT_FALSE(sliceGroup(three, 16, 24, &error));
  EXPECT_EQ(error, "region [16, 40) crosses a boundary of shard 1 of extent 4");
}

TEST(Slice, OutermostShardTakesACount) {
  // The outermost shard is never covered as a full shard: the region's start
  // quotient lands on it, so it takes the remaining count.
  std::optional<std::vector<SliceAxis>> axes =
      sliceGroup({{2, 8}, {4, 1}}, 0, 8);
  ASSERT_TRUE(axes);
  EXPECT_EQ(*axes, (std::vector<SliceAxis>{{2, 8, 0, 2}, {4, 1, 0, 4}}));
  axes = sliceGroup({{64, 1}}, 0, 64);
  ASSERT_TRUE(axes);
  EXPECT_EQ(*axes, (std::vector<SliceAxis>{{64, 1, 0, 64}}));
  // Three shards, the region covering all of them.
  axes = sliceGroup({{2, 1000}, {4, 100}, {8, 1}}, 0, 64);
  ASSERT_TRUE(axes);
  EXPECT_EQ(*axes, (std::vector<SliceAxis>{
                       {2, 1000, 0, 2}, {4, 100, 0, 4}, {8, 1, 0, 8}}));
}

TEST(Slice, RegionEndsAtTheDimensionEnd) {
  GroupedLayout g = *groupOnto(Layout({{8, 64}, {4, 512}, {64, 1}}), {8, 256});
  std::string error;
  std::optional<Layout> s = sliceLayout(g, Region{{4, 200}, {4, 56}}, &error);
  ASSERT_TRUE(s) << error;
  EXPECT_EQ(s->str(), Layout({{4, 64}, {1, 0}, {56, 1}}, Swizzle::None,
                             4 * 64 + 3 * 512 + 8)
                          .str());
  s = sliceLayout(g, Region{{0, 184}, {8, 8}}, &error);
  ASSERT_TRUE(s) << error;
  EXPECT_EQ(s->offsetOf(0), 2 * 512 + 56);
  EXPECT_EQ(s->offsetOf(63), 7 * 64 + 2 * 512 + 63);
  EXPECT_FALSE(sliceLayout(g, Region{{0, 185}, {8, 8}}, &error));
  EXPECT_EQ(error,
            "region [185, 193) crosses a boundary of shard 1 of extent 64");
}

TEST(Slice, OutermostTakesQuotient) {
  // Out-of-bounds starts stay on the outermost axis (loads may leave).
  std::optional<std::vector<SliceAxis>> axes =
      sliceGroup({{4, 512}, {64, 1}}, -64, 128);
  ASSERT_TRUE(axes);
  EXPECT_EQ(*axes, (std::vector<SliceAxis>{{4, 512, -1, 2}, {64, 1, 0, 64}}));
  axes = sliceGroup({}, -3, 1);
  ASSERT_TRUE(axes);
  EXPECT_EQ(*axes, (std::vector<SliceAxis>{{1, 0, -3, 1}}));
}

// A start known only modulo a period (period * k + residue for an unknown k;
// period 0 is an exact value): its digit on a shard is known when the
// shard's extent divides the period, as for the planner's symbolic starts.
struct Periodic {
  int64_t residue = 0, period = 0;
  Periodic(int64_t value = 0) : residue(value) {}
  Periodic(int64_t residue, int64_t period)
      : residue(residue), period(period) {}
  bool operator==(const Periodic &o) const {
    return residue == o.residue && period == o.period;
  }
};
struct PeriodicStart {
  using Offset = Periodic;
  static std::optional<int64_t> digit(const Periodic &o, int64_t e) {
    if (o.period % e != 0)
      return std::nullopt;
    return IntegerStart::digit(o.residue, e);
  }
  static Periodic quotient(const Periodic &o, int64_t digit, int64_t e) {
    return {(o.residue - digit) / e, o.period / e};
  }
};

TEST(Slice, PartlyKnownStart) {
  std::vector<Shard> cols = {{4, 512}, {64, 1}};
  SliceFailure failure;
  // 128 k + 67: digit 3 on the 64-column shard, quotient 2 k + 1 outside.
  std::optional<std::vector<SliceAxisOf<Periodic>>> axes =
      sliceGroupWith<PeriodicStart>(cols, Periodic(67, 128), 16, &failure);
  ASSERT_TRUE(axes);
  EXPECT_EQ(*axes, (std::vector<SliceAxisOf<Periodic>>{
                       {4, 512, Periodic(1, 2), 1}, {64, 1, Periodic(3), 16}}));
  // 32 k: the digit on the 64-column shard is unknown; that is reported
  // first, even for a single element and for a region that would cross.
  for (int64_t size : {1, 64, 80}) {
    failure = {};
    EXPECT_FALSE(
        sliceGroupWith<PeriodicStart>(cols, Periodic(0, 32), size, &failure));
    EXPECT_EQ(failure.kind, SliceFailure::UnknownDigit);
    EXPECT_EQ(failure.shard, 1u);
    EXPECT_EQ(failure.extent, 64);
  }
  // The outermost shard takes the quotient, known or not.
  axes = sliceGroupWith<PeriodicStart>(cols, Periodic(0, 64), 128, &failure);
  ASSERT_TRUE(axes);
  EXPECT_EQ(*axes, (std::vector<SliceAxisOf<Periodic>>{
                       {4, 512, Periodic(0, 1), 2}, {64, 1, Periodic(0), 64}}));
  // Known digits fail as for integers.
  EXPECT_FALSE(
      sliceGroupWith<PeriodicStart>(cols, Periodic(32, 64), 64, &failure));
  EXPECT_EQ(failure.kind, SliceFailure::Misaligned);
  EXPECT_FALSE(
      sliceGroupWith<PeriodicStart>(cols, Periodic(60, 64), 8, &failure));
  EXPECT_EQ(failure.kind, SliceFailure::Crosses);
}

TEST(Slice, RandomRegionsKeepAddresses) {
  std::mt19937_64 rng(77);
  auto pick = [&](int64_t lo, int64_t hi) {
    return std::uniform_int_distribution<int64_t>(lo, hi)(rng);
  };
  int sliced = 0;
  for (int iter = 0; iter < 3000; ++iter) {
    // Shape (a, b) with b split into shards; random strides.
    int64_t a = pick(1, 5), b1 = pick(1, 4), b2 = pick(1, 8);
    Layout l({{a, pick(1, 200)}, {b1, pick(1, 50)}, {b2, pick(1, 9)}},
             static_cast<Swizzle>(pick(0, 3)), pick(0, 20));
    GroupedLayout g = *groupOnto(l, {a, b1 * b2});
    Region r;
    r.sizes = {pick(1, a), pick(1, b1 * b2)};
    r.offsets = {pick(0, a - r.sizes[0]), pick(0, b1 * b2 - r.sizes[1])};
    std::optional<Layout> s = sliceLayout(g, r);
    if (!s)
      continue;
    ++sliced;
    ASSERT_EQ(s->size(), r.numElements());
    for (int64_t i = 0; i < r.numElements(); ++i) {
      std::vector<int64_t> idx = {r.offsets[0] + i / r.sizes[1],
                                  r.offsets[1] + i % r.sizes[1]};
      ASSERT_EQ(s->offsetOf(i), g.offsetOf(idx)) << l.str();
      ASSERT_EQ(s->byteAddressOf(i, 4, 2048), g.byteAddressOf(idx, 4, 2048));
    }
  }
  EXPECT_GT(sliced, 1000);
}

} // namespace
