//===- SliceTest.cpp - Region slicing and stride-1 chains
//------------------===//

#include "tile/Layout/Slice.h"

#include <gtest/gtest.h>

#include <random>

using namespace tile;

namespace {

TEST(Slice, DemoColumnsOfSwizzledTile) {
  // 256 columns as (4, 64) : (512, 1); columns [64, 192).
  std::vector<Shard> cols = {{4, 512}, {64, 1}};
  std::optional<std::vector<SliceAxis>> axes = sliceGroup(cols, 64, 128);
  ASSERT_TRUE(axes);
  EXPECT_EQ(*axes, (std::vector<SliceAxis>{{4, 512, 1, 2}, {64, 1, 0, 64}}));
  std::optional<DimCover> cover = coverOf(cols, 128);
  ASSERT_TRUE(cover);
  EXPECT_EQ(cover->fullShards, 1u);
  EXPECT_EQ(cover->innerProduct, 64);
  EXPECT_EQ(cover->partialCount, 2);
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
  EXPECT_FALSE(coverOf(cols, 96, &error));
  EXPECT_EQ(error,
            "region size 96 is not a multiple of the shard extents it spans");
  EXPECT_FALSE(sliceGroup(cols, 0, 0, &error));
  EXPECT_EQ(error, "region size 0 is not positive");
  GroupedLayout g = *groupOnto(Layout::rowMajor({8, 256}), {8, 256});
  EXPECT_FALSE(sliceRegion(g, Region{{4, 0}, {8, 256}}, &error));
  EXPECT_EQ(error, "region [4, 12) of dimension 0 leaves [0, 8)");
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

TEST(Slice, CoverTakesTheOutermostShardAsACount) {
  // The outermost shard is never a full shard: the region's start quotient
  // lands on it, so its part of the cover is a count.
  std::optional<DimCover> cover = coverOf({{2, 8}, {4, 1}}, 8);
  ASSERT_TRUE(cover);
  EXPECT_EQ(cover->fullShards, 1u);
  EXPECT_EQ(cover->innerProduct, 4);
  EXPECT_EQ(cover->partialCount, 2);
  cover = coverOf({{64, 1}}, 64);
  ASSERT_TRUE(cover);
  EXPECT_EQ(cover->fullShards, 0u);
  EXPECT_EQ(cover->innerProduct, 1);
  EXPECT_EQ(cover->partialCount, 64);
  // Three shards, the region covering all of them.
  cover = coverOf({{2, 1000}, {4, 100}, {8, 1}}, 64);
  ASSERT_TRUE(cover);
  EXPECT_EQ(cover->fullShards, 2u);
  EXPECT_EQ(cover->innerProduct, 32);
  EXPECT_EQ(cover->partialCount, 2);
}

TEST(Slice, RegionEndsAtTheDimensionEnd) {
  GroupedLayout g = *groupOnto(Layout({{8, 64}, {4, 512}, {64, 1}}), {8, 256});
  std::string error;
  std::optional<Layout> s = sliceRegion(g, Region{{4, 200}, {4, 56}}, &error);
  ASSERT_TRUE(s) << error;
  EXPECT_EQ(s->str(), Layout({{4, 64}, {1, 0}, {56, 1}}, Swizzle::None,
                             4 * 64 + 3 * 512 + 8)
                          .str());
  EXPECT_FALSE(sliceRegion(g, Region{{4, 201}, {4, 56}}, &error));
  EXPECT_EQ(error, "region [201, 257) of dimension 1 leaves [0, 256)");
  EXPECT_FALSE(sliceRegion(g, Region{{5, 0}, {4, 256}}, &error));
  EXPECT_EQ(error, "region [5, 9) of dimension 0 leaves [0, 8)");
  s = sliceRegion(g, Region{{0, 184}, {8, 8}}, &error);
  ASSERT_TRUE(s) << error;
  EXPECT_EQ(s->offsetOf(0), 2 * 512 + 56);
  EXPECT_EQ(s->offsetOf(63), 7 * 64 + 2 * 512 + 63);
  EXPECT_FALSE(sliceRegion(g, Region{{0, 185}, {8, 8}}, &error));
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
    std::optional<Layout> s = sliceRegion(g, r);
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

TEST(Chain, StrideOne) {
  Layout demo({{8, 64}, {4, 512}, {64, 1}});
  EXPECT_EQ(strideOneChain(demo), (std::vector<size_t>{2, 0, 1}));
  EXPECT_EQ(strideOneChain(Layout({{8, 1}, {8, 16}})),
            (std::vector<size_t>{0}));
  EXPECT_TRUE(strideOneChain(Layout({{8, 2}})).empty());
}

} // namespace
