//===- StreamKTest.cpp - A persistent GEMM's stream-K schedule ------------===//

#include "tile/Schedule/StreamK.h"
#include <algorithm>
#include <gtest/gtest.h>
#include <map>
#include <random>
#include <set>
#include <vector>

using namespace tile::schedule;

namespace {

constexpr int64_t kRoomy = 1 << 20; // a workspace that always fits

// The shapes the benchmark's suite runs into with 128 x 256 tiles on the
// H200's 132 SMs, and the edges of the rule.
TEST(StreamK, ChoosesTheLastPartialWave) {
  // 4000^3: 32 x 16 = 512 tiles of 63 k-steps; 3 whole waves, 116 shared.
  EXPECT_EQ(chooseStreamKTiles(512, 63, 132, kRoomy, kRoomy), 116);
  // 3000 x 5000 x 2000: 24 x 20 = 480 tiles of 32 k-steps.
  EXPECT_EQ(chooseStreamKTiles(480, 32, 132, kRoomy, kRoomy), 84);
  // 500 tiles: 104 left over.
  EXPECT_EQ(chooseStreamKTiles(500, 64, 132, kRoomy, kRoomy), 104);
  // A partial wave under half the CTAs takes a whole wave with it.
  EXPECT_EQ(chooseStreamKTiles(133, 64, 132, kRoomy, kRoomy), 133);
  EXPECT_EQ(chooseStreamKTiles(300, 64, 132, kRoomy, kRoomy), 168);
  // Whole waves, or no more tiles than CTAs: nothing to share.
  EXPECT_EQ(chooseStreamKTiles(264, 64, 132, kRoomy, kRoomy), 0);
  EXPECT_EQ(chooseStreamKTiles(132, 64, 132, kRoomy, kRoomy), 0);
  EXPECT_EQ(chooseStreamKTiles(100, 64, 100, kRoomy, kRoomy), 0);
  // Fewer shared k-steps than CTAs.
  EXPECT_EQ(chooseStreamKTiles(200, 1, 132, kRoomy, kRoomy), 0);
  // The workspace: ctas + shared partial tiles, shared counters.
  EXPECT_EQ(chooseStreamKTiles(512, 63, 132, 248, 116), 116);
  EXPECT_EQ(chooseStreamKTiles(512, 63, 132, 247, 116), 0);
  EXPECT_EQ(chooseStreamKTiles(512, 63, 132, 248, 115), 0);
  EXPECT_EQ(chooseStreamKTiles(512, 0, 132, kRoomy, kRoomy), 0);
  EXPECT_EQ(chooseStreamKTiles(512, 63, 0, kRoomy, kRoomy), 0);
  // The 32-bit divisions: (133 + 1) x ksteps x 132 below 2^31, so at most
  // 121,409 k-steps (K = 7,770,176 at 64 a step).
  EXPECT_EQ(chooseStreamKTiles(133, 121409, 132, kRoomy, kRoomy), 133);
  EXPECT_EQ(chooseStreamKTiles(133, 121410, 132, kRoomy, kRoomy), 0);
  EXPECT_EQ(chooseStreamKTiles(133, kStreamKNarrowLimit, 132, kRoomy, kRoomy),
            0);
}

TEST(StreamK, WorkTilesOf4000Cubed) {
  StreamKSchedule s(512, 63, 132, 116);
  EXPECT_EQ(s.wholeTiles(0), 3);
  EXPECT_EQ(s.wholeTiles(131), 3);
  EXPECT_EQ(s.units(), 116 * 63);
  // CTA 0: tiles 0, 132, 264 whole, then k-steps 0..54 of tile 396.
  EXPECT_EQ(s.workTiles(0), 4);
  WorkTile w = s.workTile(0, 1);
  EXPECT_EQ(w.tile, 132);
  EXPECT_EQ(w.k, (KRange{0, 63}));
  EXPECT_EQ(w.streamTile, -1);
  w = s.workTile(0, 3);
  EXPECT_EQ(w.tile, 396);
  EXPECT_EQ(w.k, (KRange{0, 55}));
  EXPECT_EQ(w.streamTile, 0);
  // CTA 1's share [55, 110) ends in tile 397: two pieces.
  EXPECT_EQ(s.workTiles(1), 5);
  EXPECT_EQ(s.workTile(1, 3).k, (KRange{55, 63}));
  EXPECT_EQ(s.workTile(1, 4).tile, 397);
  EXPECT_EQ(s.workTile(1, 4).k, (KRange{0, 47}));
  EXPECT_EQ(s.firstCta(0), 0);
  EXPECT_EQ(s.lastCta(0), 1);
  EXPECT_EQ(s.firstCta(1), 1);
  EXPECT_EQ(s.lastCta(1), 2);
}

// Every (tile, k-step) once, every work tile non-empty, the CTAs' k-steps
// within one of each other, the pieces of a shared tile exactly those of
// firstCta..lastCta, every slot distinct and inside the workspace.
void checkSchedule(int64_t tiles, int64_t ksteps, int64_t ctas) {
  int64_t shared = chooseStreamKTiles(tiles, ksteps, ctas, kRoomy, kRoomy);
  SCOPED_TRACE(testing::Message()
               << tiles << " tiles, " << ksteps << " k-steps, " << ctas
               << " CTAs, " << shared << " shared");
  StreamKSchedule s(tiles, ksteps, ctas, shared);
  if (shared > 0)
    ASSERT_EQ((tiles - shared) % ctas, 0);
  std::vector<int> seen(tiles * ksteps, 0);
  std::map<int64_t, std::vector<int64_t>> piecesOf; // shared tile -> CTAs
  std::set<int64_t> slots;
  int64_t fewest = INT64_MAX, most = 0;
  for (int64_t c = 0; c < ctas; ++c) {
    int64_t work = 0;
    for (int64_t t = 0; t < s.workTiles(c); ++t) {
      WorkTile w = s.workTile(c, t);
      ASSERT_GE(w.tile, 0);
      ASSERT_LT(w.tile, tiles);
      ASSERT_LT(w.k.begin, w.k.end);
      ASSERT_GE(w.k.begin, 0);
      ASSERT_LE(w.k.end, ksteps);
      for (int64_t k = w.k.begin; k < w.k.end; ++k)
        ++seen[w.tile * ksteps + k];
      work += w.k.end - w.k.begin;
      if (w.streamTile < 0) {
        EXPECT_EQ(w.k, (KRange{0, ksteps}));
        EXPECT_LT(w.tile, tiles - shared);
        continue;
      }
      EXPECT_EQ(w.tile, tiles - shared + w.streamTile);
      piecesOf[w.streamTile].push_back(c);
      EXPECT_TRUE(slots.insert(StreamKSchedule::slot(c, w.streamTile)).second);
      EXPECT_LT(StreamKSchedule::slot(c, w.streamTile), ctas + shared);
    }
    fewest = std::min(fewest, work);
    most = std::max(most, work);
  }
  // Shared k-steps balance the CTAs; without them the last wave is partial.
  if (shared > 0)
    EXPECT_LE(most - fewest, 1);
  for (int64_t i = 0; i < tiles * ksteps; ++i)
    ASSERT_EQ(seen[i], 1) << "tile " << i / ksteps << " k " << i % ksteps;
  EXPECT_EQ(static_cast<int64_t>(piecesOf.size()), shared);
  for (auto &[j, ctasOfTile] : piecesOf) {
    ASSERT_EQ(ctasOfTile.front(), s.firstCta(j)) << "tile " << j;
    ASSERT_EQ(ctasOfTile.back(), s.lastCta(j)) << "tile " << j;
    EXPECT_EQ(static_cast<int64_t>(ctasOfTile.size()),
              s.lastCta(j) - s.firstCta(j) + 1);
  }
}

TEST(StreamK, EveryKStepOnceAndBalanced) {
  for (int64_t ctas : {1, 2, 3, 7, 16, 132})
    for (int64_t tiles = 1; tiles <= 3 * ctas + 5; ++tiles)
      for (int64_t ksteps : {1, 2, 3, 5, 32, 63})
        checkSchedule(tiles, ksteps, ctas);
}

TEST(StreamK, RandomProblems) {
  std::mt19937_64 rng(7);
  for (int i = 0; i < 300; ++i) {
    int64_t ctas = 1 + rng() % 140;
    int64_t tiles = 1 + rng() % (8 * ctas);
    int64_t ksteps = 1 + rng() % 300;
    checkSchedule(tiles, ksteps, ctas);
  }
}

// One launch, the pieces of every shared tile arriving in a random order on
// the tile's counter: the last one (and only it) combines, after every other
// piece's slot is written; every counter is zero again afterwards.
TEST(StreamK, EachSharedTileCombinedOnce) {
  std::mt19937_64 rng(11);
  for (auto [tiles, ksteps, ctas] :
       {std::tuple<int64_t, int64_t, int64_t>{512, 63, 132},
        {480, 32, 132},
        {133, 64, 132},
        {37, 5, 8}}) {
    int64_t shared = chooseStreamKTiles(tiles, ksteps, ctas, kRoomy, kRoomy);
    StreamKSchedule s(tiles, ksteps, ctas, shared);
    std::vector<std::pair<int64_t, int64_t>> pieces; // (cta, shared tile)
    for (int64_t c = 0; c < ctas; ++c)
      for (int64_t t = s.wholeTiles(c); t < s.workTiles(c); ++t)
        pieces.push_back({c, s.workTile(c, t).streamTile});
    std::shuffle(pieces.begin(), pieces.end(), rng);
    std::vector<SplitKCounter> counters(shared);
    std::set<int64_t> written;
    std::vector<int> combined(shared, 0);
    for (auto [c, j] : pieces) {
      int64_t arrivals = s.lastCta(j) - s.firstCta(j) + 1;
      written.insert(StreamKSchedule::slot(c, j));
      if (!counters[j].arrive(arrivals))
        continue;
      ++combined[j];
      for (int64_t other = s.firstCta(j); other <= s.lastCta(j); ++other)
        EXPECT_TRUE(written.count(StreamKSchedule::slot(other, j)))
            << "tile " << j << " reads CTA " << other << "'s slot unwritten";
    }
    for (int64_t j = 0; j < shared; ++j) {
      EXPECT_EQ(combined[j], 1) << "tile " << j;
      EXPECT_EQ(counters[j].value(), 0);
    }
  }
}

} // namespace
