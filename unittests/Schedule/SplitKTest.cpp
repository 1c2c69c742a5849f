//===- SplitKTest.cpp - Split-K shares and their combination --------------===//

#include "tile/Schedule/SplitK.h"
#include "tile/Schedule/TileOrder.h"
#include <algorithm>
#include <gtest/gtest.h>
#include <map>
#include <numeric>
#include <random>
#include <vector>

using namespace tile::schedule;

namespace {

// The shares partition [0, ksteps): contiguous, in order, each k-step in
// exactly one share, lengths within one of each other.
TEST(SplitK, SharesPartitionTheKSteps) {
  for (int64_t splits = 1; splits <= 9; ++splits)
    for (int64_t ksteps = 0; ksteps <= 70; ++ksteps) {
      std::vector<int> seen(ksteps, 0);
      int64_t next = 0, shortest = ksteps, longest = 0;
      for (int64_t split = 0; split < splits; ++split) {
        std::optional<KRange> r = splitKRange(split, splits, ksteps);
        ASSERT_TRUE(r);
        EXPECT_EQ(r->begin, next) << splits << " " << ksteps << " " << split;
        ASSERT_LE(r->begin, r->end);
        for (int64_t k = r->begin; k < r->end; ++k)
          ++seen[k];
        next = r->end;
        shortest = std::min(shortest, r->end - r->begin);
        longest = std::max(longest, r->end - r->begin);
      }
      EXPECT_EQ(next, ksteps);
      EXPECT_LE(longest - shortest, 1);
      for (int64_t k = 0; k < ksteps; ++k)
        EXPECT_EQ(seen[k], 1) << splits << " " << ksteps << " " << k;
    }
}

TEST(SplitK, RejectsOutOfRange) {
  EXPECT_FALSE(splitKRange(2, 2, 10));
  EXPECT_FALSE(splitKRange(-1, 2, 10));
  EXPECT_FALSE(splitKRange(0, 0, 10));
  EXPECT_FALSE(splitKRange(0, 2, -1));
  // Fewer k-steps than shares: the first shares are empty.
  EXPECT_EQ(*splitKRange(0, 4, 2), (KRange{0, 0}));
  EXPECT_EQ(*splitKRange(3, 4, 2), (KRange{1, 2}));
}

// One launch of the split-K kernel over a grid of tiles, the CTAs (tile,
// share) arriving in `order`: each writes its partial (the sum of its
// k-steps' contributions) to its slot, then arrives on the tile's counter;
// the last adds the other partials in splitKCombineOrder and writes the tile.
// Checks that the combining share reads only slots already written, each
// exactly once, and that every tile is written exactly once.
struct Launch {
  int64_t tiles, splits, ksteps;
  std::vector<SplitKCounter> counters;
  Launch(int64_t tiles, int64_t splits, int64_t ksteps)
      : tiles(tiles), splits(splits), ksteps(ksteps), counters(tiles) {}

  // The contribution of k-step k to tile t: distinct powers' mix so that a
  // missing or doubled k-step changes the sum.
  static double contribution(int64_t t, int64_t k) {
    return static_cast<double>((t * 131 + k * 7) % 97 + 1);
  }

  std::vector<double> run(const std::vector<int64_t> &order,
                          std::vector<int> *kstepCount = nullptr) {
    std::vector<std::optional<double>> slots(tiles * splits);
    std::vector<int> slotReads(tiles * splits, 0);
    std::vector<int> written(tiles, 0);
    std::vector<double> out(tiles, -1);
    for (int64_t cta : order) {
      int64_t tile = cta / splits, split = cta % splits;
      KRange r = *splitKRange(split, splits, ksteps);
      double partial = 0;
      for (int64_t k = r.begin; k < r.end; ++k) {
        partial += contribution(tile, k);
        if (kstepCount)
          ++(*kstepCount)[tile * ksteps + k];
      }
      int64_t slot = splitKSlot(tile, split, splits);
      EXPECT_FALSE(slots[slot]) << "slot written twice";
      slots[slot] = partial;
      if (!counters[tile].arrive(splits))
        continue;
      double sum = partial;
      for (int64_t other : splitKCombineOrder(split, splits)) {
        int64_t s = splitKSlot(tile, other, splits);
        EXPECT_TRUE(slots[s]) << "combined before it was written";
        ++slotReads[s];
        sum += *slots[s];
      }
      ++written[tile];
      out[tile] = sum;
    }
    for (int64_t tile = 0; tile < tiles; ++tile) {
      EXPECT_EQ(written[tile], 1) << "tile " << tile;
      EXPECT_EQ(counters[tile].value(), 0) << "counter left non-zero";
      int reads = 0;
      for (int64_t split = 0; split < splits; ++split)
        reads += slotReads[splitKSlot(tile, split, splits)];
      EXPECT_EQ(reads, splits - 1) << "tile " << tile;
    }
    return out;
  }

  double expected(int64_t tile) const {
    double sum = 0;
    for (int64_t k = 0; k < ksteps; ++k)
      sum += contribution(tile, k);
    return sum;
  }
};

// Every arrival order of two tiles' CTAs (up to 4 shares each: all 8!
// orders), k-steps from fewer than the shares to several per share: every
// (tile, k-step) once, every partial combined once, the right sums, and the
// counters back at zero for the next launch.
TEST(SplitK, EveryArrivalOrderCombinesOnce) {
  for (int64_t splits = 1; splits <= 4; ++splits)
    for (int64_t ksteps : {0, 1, 3, 8, 13}) {
      Launch launch(2, splits, ksteps);
      std::vector<int64_t> order(2 * splits);
      std::iota(order.begin(), order.end(), 0);
      do {
        std::vector<int> count(2 * ksteps, 0);
        std::vector<double> out = launch.run(order, &count);
        for (int c : count)
          ASSERT_EQ(c, 1);
        for (int64_t tile = 0; tile < 2; ++tile)
          ASSERT_EQ(out[tile], launch.expected(tile));
      } while (std::next_permutation(order.begin(), order.end()));
    }
}

// The GEMM's grids: the tiles of the grouped order times the shares, in
// random arrival orders, the same launch's counters reused launch after
// launch.
TEST(SplitK, GroupedGridRandomOrders) {
  std::mt19937 rng(26);
  const int64_t rows = 2, cols = 32, splits = 2, ksteps = 128;
  Launch launch(rows * cols, splits, ksteps);
  std::map<std::pair<int64_t, int64_t>, int> tilesSeen;
  for (int64_t pid = 0; pid < rows * cols; ++pid) {
    std::optional<TileCoord> t = groupedTile(pid, rows, cols, 8);
    ASSERT_TRUE(t);
    ++tilesSeen[{t->row, t->col}];
  }
  EXPECT_EQ(tilesSeen.size(), static_cast<size_t>(rows * cols));
  std::vector<int64_t> order(rows * cols * splits);
  std::iota(order.begin(), order.end(), 0);
  for (int round = 0; round < 50; ++round) {
    std::shuffle(order.begin(), order.end(), rng);
    std::vector<double> out = launch.run(order);
    for (int64_t tile = 0; tile < rows * cols; ++tile)
      ASSERT_EQ(out[tile], launch.expected(tile));
  }
}

// With two shares the combined sum does not depend on which CTA arrived
// last: f32 addition commutes. (With more shares the order of the additions
// depends on the last arrival: the combine order starts from the last.)
TEST(SplitK, TwoSharesAreDeterministic) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> value(-1, 1);
  for (int i = 0; i < 1000; ++i) {
    float p[2] = {value(rng), value(rng)};
    float lastIs0 = p[0], lastIs1 = p[1];
    for (int64_t s : splitKCombineOrder(0, 2))
      lastIs0 += p[s];
    for (int64_t s : splitKCombineOrder(1, 2))
      lastIs1 += p[s];
    EXPECT_EQ(lastIs0, lastIs1);
  }
  EXPECT_EQ(splitKCombineOrder(2, 4), (std::vector<int64_t>{0, 1, 3}));
  EXPECT_TRUE(splitKCombineOrder(0, 1).empty());
}

// The rule: a split only where the tiles fill at most half the SMs; never
// more CTAs than SMs, never a share under the minimum k-steps, never past
// the workspace.
TEST(SplitK, ChooseRule) {
  const int64_t elems = 128 * 256, big = int64_t(1) << 40;
  // 256 x 8192 x 8192 in 128 x 256 tiles, k-steps of 64: 64 tiles, 128
  // k-steps: two shares. 128 x 8192 x 8192: 32 tiles, four.
  EXPECT_EQ(chooseSplitK(64, 128, elems, big, big), 2);
  EXPECT_EQ(chooseSplitK(32, 128, elems, big, big), 4);
  // Enough tiles: no split.
  EXPECT_EQ(chooseSplitK(67, 128, elems, big, big), 1);
  EXPECT_EQ(chooseSplitK(1024, 128, elems, big, big), 1);
  // Short K: shares of at least 8 k-steps.
  EXPECT_EQ(chooseSplitK(16, 15, elems, big, big), 1);
  EXPECT_EQ(chooseSplitK(16, 24, elems, big, big), 3);
  // The workspace too small for the partials or the counters: no split.
  EXPECT_EQ(chooseSplitK(64, 128, elems, 64 * 2 * elems - 1, big), 1);
  EXPECT_EQ(chooseSplitK(64, 128, elems, 64 * 2 * elems, 63), 1);
  EXPECT_EQ(chooseSplitK(64, 128, elems, 64 * 2 * elems, 64), 2);
  SplitKRule rule;
  for (int64_t tiles = 0; tiles <= 200; ++tiles)
    for (int64_t ksteps = 0; ksteps <= 300; ksteps += 7) {
      int64_t s = chooseSplitK(tiles, ksteps, elems, big, big, rule);
      ASSERT_GE(s, 1);
      ASSERT_LE(s, rule.maxSplits);
      if (s > 1) {
        EXPECT_LE(tiles * s, rule.sms);
        EXPECT_LE(2 * tiles, rule.sms);
        EXPECT_GE(ksteps / s, rule.minKSteps);
      }
    }
}

} // namespace
