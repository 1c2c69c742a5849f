//===- LongestFirstTest.cpp - The causal tiles' longest-first schedule ----===//

#include "tile/Schedule/LongestFirst.h"
#include <algorithm>
#include <gtest/gtest.h>
#include <vector>

using namespace tile::schedule;

namespace {

/// Each CTA's work under `s`: its tiles' KV blocks plus `cost` each.
std::vector<int64_t> ctaWork(const CtaSchedule &s, const CausalTiles &t,
                             int64_t cost) {
  std::vector<int64_t> work(s.ctas, 0);
  for (int64_t c = 0; c < s.ctas; ++c)
    for (int32_t i = s.begin(c); i < s.end(c); ++i)
      work[c] += causalTileBlocks(t, s.tile(i) % t.queryBlocks) + cost;
  return work;
}

// Two heads of three query blocks on two CTAs: the longest-first order is
// (head 0, block 2), (head 1, block 2), (0, 1), (1, 1), (0, 0), (1, 0), and
// each tile goes to the CTA with less work (CTA 0 on a tie).
TEST(LongestFirst, SmallTableExact) {
  CausalTiles t{3, 3, 2, 2};
  std::optional<CtaSchedule> s = longestFirstSchedule(t, 2, 0);
  ASSERT_TRUE(s);
  EXPECT_EQ(s->table, (std::vector<int32_t>{0, 3, 6, 2, 1, 0, 5, 4, 3}));
  EXPECT_EQ(s->tiles(), 6);
}

// Sections of two heads, fewer KV blocks than query blocks, a cost per
// tile: the order takes heads 0-1, then 2-3, ..., then head 6 alone, and a
// tile of query block q reads min(3, q + 1) blocks.
TEST(LongestFirst, SectionsAndShortKeysExact) {
  CausalTiles t{5, 3, 7, 2};
  EXPECT_EQ(*longestFirstTile(t, 0), (CausalTile{0, 4}));
  EXPECT_EQ(*longestFirstTile(t, 1), (CausalTile{1, 4}));
  EXPECT_EQ(*longestFirstTile(t, 2), (CausalTile{0, 3}));
  EXPECT_EQ(*longestFirstTile(t, 10), (CausalTile{2, 4}));
  EXPECT_EQ(*longestFirstTile(t, 30), (CausalTile{6, 4}));
  EXPECT_EQ(*longestFirstTile(t, 34), (CausalTile{6, 0}));
  EXPECT_FALSE(longestFirstTile(t, 35));
  EXPECT_EQ(causalTileBlocks(t, 4), 3);
  EXPECT_EQ(causalTileBlocks(t, 1), 2);
  std::optional<CtaSchedule> s = longestFirstSchedule(t, 4, 2);
  ASSERT_TRUE(s);
  const std::vector<std::vector<int32_t>> expected = {
      {4, 2, 14, 12, 10, 23, 21, 34, 30},
      {9, 7, 19, 17, 15, 28, 26, 33},
      {3, 1, 0, 13, 11, 24, 22, 20, 32},
      {8, 6, 5, 18, 16, 29, 27, 25, 31}};
  for (int64_t c = 0; c < 4; ++c) {
    std::vector<int32_t> got;
    for (int32_t i = s->begin(c); i < s->end(c); ++i)
      got.push_back(s->tile(i));
    EXPECT_EQ(got, expected[c]) << "CTA " << c;
  }
  std::vector<int64_t> work = ctaWork(*s, t, 2);
  EXPECT_EQ(*std::max_element(work.begin(), work.end()), 40);
}

// 16k tokens at seq 2k (128 heads of 16 blocks, sections of 32 heads) on
// 132 CTAs, a cost of one block per tile: the busiest CTA takes 149, the
// least 145 (mean 147.4); the paired walk's busiest took 152 (eight units of
// 17 blocks and 2 costs).
TEST(LongestFirst, Seq2kBusiestCta) {
  CausalTiles t{16, 16, 128, 32};
  std::optional<CtaSchedule> s = longestFirstSchedule(t, 132, 1);
  ASSERT_TRUE(s);
  std::vector<int64_t> work = ctaWork(*s, t, 1);
  EXPECT_EQ(*std::max_element(work.begin(), work.end()), 149);
  EXPECT_EQ(*std::min_element(work.begin(), work.end()), 145);
}

// Every tile exactly once, each CTA's work within one tile of the least
// (the rule never gives a tile to a CTA above the least), over many shapes.
TEST(LongestFirst, EveryTileOnceAndBalanced) {
  for (int64_t qb = 1; qb <= 9; ++qb)
    for (int64_t kv = 1; kv <= qb + 1; kv += 2)
      for (int64_t heads = 1; heads <= 11; heads += 2)
        for (int64_t sec = 1; sec <= heads + 1; sec += 3)
          for (int64_t ctas : {1, 2, 5, 13, 64})
            for (int64_t cost : {0, 1, 3}) {
              if (ctas > qb * heads)
                continue;
              CausalTiles t{qb, kv, heads, sec};
              std::optional<CtaSchedule> s =
                  longestFirstSchedule(t, ctas, cost);
              ASSERT_TRUE(s);
              ASSERT_EQ(s->begin(0), 0);
              ASSERT_EQ(s->tiles(), qb * heads);
              std::vector<int> seen(qb * heads, 0);
              for (int64_t c = 0; c < ctas; ++c) {
                ASSERT_LE(s->begin(c), s->end(c));
                for (int32_t i = s->begin(c); i < s->end(c); ++i)
                  ++seen[s->tile(i)];
              }
              for (int v : seen)
                ASSERT_EQ(v, 1);
              std::vector<int64_t> work = ctaWork(*s, t, cost);
              int64_t most = *std::max_element(work.begin(), work.end());
              int64_t least = *std::min_element(work.begin(), work.end());
              EXPECT_LE(most - least, std::min(kv, qb) + cost)
                  << qb << " " << kv << " " << heads << " " << sec << " "
                  << ctas << " " << cost;
            }
}

TEST(LongestFirst, RejectsBadProblems) {
  EXPECT_FALSE(longestFirstSchedule({0, 1, 1, 1}, 1, 0));
  EXPECT_FALSE(longestFirstSchedule({1, 0, 1, 1}, 1, 0));
  EXPECT_FALSE(longestFirstSchedule({1, 1, 0, 1}, 1, 0));
  EXPECT_FALSE(longestFirstSchedule({1, 1, 1, 0}, 1, 0));
  EXPECT_FALSE(longestFirstSchedule({1, 1, 1, 1}, 0, 0));
  EXPECT_FALSE(longestFirstSchedule({1, 1, 1, 1}, 1, -1));
  EXPECT_FALSE(longestFirstSchedule({1 << 16, 1, 1 << 16, 1}, 1, 0));
  // More CTAs than tiles: 6 tiles, 7 CTAs (6 is the most).
  EXPECT_FALSE(longestFirstSchedule({3, 3, 2, 2}, 7, 0));
  EXPECT_TRUE(longestFirstSchedule({3, 3, 2, 2}, 6, 0));
  // A tile cost that could overflow a CTA's work.
  EXPECT_FALSE(
      longestFirstSchedule({3, 3, 2, 2}, 2, kLongestFirstMaxTileCost + 1));
  EXPECT_TRUE(longestFirstSchedule({3, 3, 2, 2}, 2, kLongestFirstMaxTileCost));
  EXPECT_FALSE(longestFirstTile({2, 2, 2, 1}, -1));
}

} // namespace
