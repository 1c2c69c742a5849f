//===- TileWidthTest.cpp - The GEMM choosers' tile-width rule -------------===//

#include "tile/Schedule/TileWidth.h"
#include <gtest/gtest.h>

#include <utility>

using namespace tile::schedule;

namespace {

constexpr int64_t kSMs = 132;

// The choosers' candidates: 128 x 256, and 128 x 192 at 97% of its rate.
const std::vector<TileWidth> kChooser = {{256, 100}, {192, 97}};

TEST(TileWidth, Waves) {
  // 3000 x 5000: 24 x 20 tiles of 128 x 256 (480: 3.6 waves), 24 x 27 of
  // 128 x 192 (648: 4.9 waves).
  EXPECT_EQ(tileWaves(3000, 5000, 128, 256, kSMs), 4);
  EXPECT_EQ(tileWaves(3000, 5000, 128, 192, kSMs), 5);
  // Exactly one and just over one wave.
  EXPECT_EQ(tileWaves(128 * 132, 256, 128, 256, kSMs), 1);
  EXPECT_EQ(tileWaves(128 * 132 + 1, 256, 128, 256, kSMs), 2);
  EXPECT_EQ(tileWaves(0, 4096, 128, 256, kSMs), 0);
}

TEST(TileWidth, NarrowerWhereTheLastWaveIsMostlyEmpty) {
  // 4 waves of 256 columns (time 1024) against 5 of 192 (960 / 0.97 = 990).
  EXPECT_EQ(chooseTileWidth(3000, 5000, 128, kSMs, kChooser), 1u);
  // 7 waves of 256 (6.06: the 7th nearly empty) against 9 of 192.
  EXPECT_EQ(chooseTileWidth(5000, 5000, 128, kSMs, kChooser), 1u);
}

TEST(TileWidth, WideWhereItsWavesAreFull) {
  // 4096^3: 512 tiles (3.9 waves) against 704 (5.3, run as 6).
  EXPECT_EQ(chooseTileWidth(4096, 4096, 128, kSMs, kChooser), 0u);
  EXPECT_EQ(chooseTileWidth(4000, 4000, 128, kSMs, kChooser), 0u);
  // 8192^3: 16 waves x 256 = 4096 against 21 x 192 = 4032, which the
  // narrower tile's rate (97%) turns into 4157.
  EXPECT_EQ(chooseTileWidth(8192, 8192, 128, kSMs, kChooser), 0u);
  EXPECT_EQ(chooseTileWidth(4096, 14336, 128, kSMs, kChooser), 0u);
  EXPECT_EQ(chooseTileWidth(14336, 4096, 128, kSMs, kChooser), 0u);
  EXPECT_EQ(chooseTileWidth(2048, 2048, 128, kSMs, kChooser), 0u);
  EXPECT_EQ(chooseTileWidth(16384, 1024, 128, kSMs, kChooser), 0u);
}

TEST(TileWidth, AFasterWideKernelKeepsItsWaves) {
  // The clustered bf16 chooser's 128 x 256 kernel (4 stages, a ring of C
  // chunk buffers) weighs 128 x 192 at 90%: 7 waves x 256 = 1792 against 9
  // x 192 / 0.9 = 1920, and 4 x 256 = 1024 against 5 x 192 / 0.9 = 1067.
  const std::vector<TileWidth> ring = {{256, 100}, {192, 90}};
  EXPECT_EQ(chooseTileWidth(5000, 5000, 128, kSMs, ring), 0u);
  EXPECT_EQ(chooseTileWidth(3000, 5000, 128, kSMs, ring), 0u);
  // 300 x 14336: 2 waves either way (168 and 225 tiles): the narrower.
  EXPECT_EQ(chooseTileWidth(300, 14336, 128, kSMs, ring), 1u);
}

// Problems whose 128 x 256 tiles fill their waves (or nearly: 3.88 of 4),
// where the clustered chooser keeps them.
const std::pair<int64_t, int64_t> kFullWaves[] = {
    {4096, 4096}, {4000, 4000},  {8192, 8192}, {4096, 14336}, {14336, 4096},
    {2048, 2048}, {16384, 1024}, {6144, 6144}, {0, 4096}};

TEST(TileWidth, ClusteredChooserWidths) {
  // The clustered bf16 chooser's widths (gen_gemm.py RING_WIDTHS): 256,
  // then 232 and 224 at 95 %, 192 at 90 %.
  const std::vector<TileWidth> widths = {
      {256, 100}, {232, 95}, {224, 95}, {192, 90}};
  // 3000 x 5000: 528 tiles of 232 fill 4 whole waves (928 / 0.95 = 977)
  // where 480 of 256 run 4 with the last a third idle (1024).
  EXPECT_EQ(chooseTileWidth(3000, 5000, 128, kSMs, widths), 1u);
  EXPECT_EQ(tileWaves(3000, 5000, 128, 232, kSMs), 4);
  // 5000^3: 920 tiles of 224 (6.97 waves, 1568 / 0.95 = 1651) against 800
  // of 256 (6.06, run as 7: 1792) and 880 of 232 (1709).
  EXPECT_EQ(chooseTileWidth(5000, 5000, 128, kSMs, widths), 2u);
  EXPECT_EQ(tileWaves(5000, 5000, 128, 224, kSMs), 7);
  EXPECT_EQ(chooseTileWidth(5000, 3000, 128, kSMs, widths), 1u);
  EXPECT_EQ(chooseTileWidth(2500, 10000, 128, kSMs, widths), 2u);
  // 300 x 14336: 2 waves of every width; the narrowest's, 384 / 0.9 = 427,
  // against 512.
  EXPECT_EQ(chooseTileWidth(300, 14336, 128, kSMs, widths), 3u);
  // Where 256's waves are full, it stays.
  for (auto [m, n] : kFullWaves)
    EXPECT_EQ(chooseTileWidth(m, n, 128, kSMs, widths), 0u) << m << "x" << n;
}

TEST(TileWidth, ClusteredChooserShapes) {
  // The clustered bf16 chooser's tiles (gen_gemm.py RING_SHAPES): 128 x 256,
  // then 128 x 232 and 128 x 224 at 95 %, 192 x 192 at 97 %, 128 x 192 at
  // 90 %.
  const std::vector<TileShape> shapes = {{128, 256, 100},
                                         {128, 232, 95},
                                         {128, 224, 95},
                                         {192, 192, 97},
                                         {128, 192, 90}};
  // 3000^3: 256 tiles of 192 x 192 in 2 waves (73728 / 0.97) against 288 of
  // 128 x 256 in 3 (98304) and 384 of 128 x 192 in 3 (73728 / 0.9).
  EXPECT_EQ(chooseTileShape(3000, 3000, kSMs, shapes), 3u);
  EXPECT_EQ(tileWaves(3000, 3000, 192, 192, kSMs), 2);
  // The widths of ClusteredChooserWidths stay where 192 rows gain nothing:
  // 3000 x 5000 (192 x 192: 16 x 27 = 432 tiles, 4 waves of 1.125 the
  // work), 5000^3 (27 x 27 = 729, 6 waves: 6.75 against 224's 6.125).
  EXPECT_EQ(chooseTileShape(3000, 5000, kSMs, shapes), 1u);
  EXPECT_EQ(chooseTileShape(5000, 5000, kSMs, shapes), 2u);
  EXPECT_EQ(chooseTileShape(300, 14336, kSMs, shapes), 4u);
  for (auto [m, n] : kFullWaves)
    EXPECT_EQ(chooseTileShape(m, n, kSMs, shapes), 0u) << m << "x" << n;
  // With one height the choice is chooseTileWidth's.
  const std::vector<TileWidth> widths = {
      {256, 100}, {232, 95}, {224, 95}, {192, 90}};
  const std::vector<TileShape> sameRows = {
      {128, 256, 100}, {128, 232, 95}, {128, 224, 95}, {128, 192, 90}};
  for (auto [m, n] : {std::pair<int64_t, int64_t>{3000, 5000},
                      {5000, 5000},
                      {3000, 3000},
                      {300, 14336},
                      {8192, 8192}})
    EXPECT_EQ(chooseTileShape(m, n, kSMs, sameRows),
              chooseTileWidth(m, n, 128, kSMs, widths))
        << m << "x" << n;
  EXPECT_EQ(chooseTileShape(4096, 4096, kSMs, {}), 0u);
}

TEST(TileWidth, TiesKeepTheEarlierCandidate) {
  // 6144^3: 9 waves x 256 = 12 x 192 = 2304; at equal rates, a tie.
  EXPECT_EQ(chooseTileWidth(6144, 6144, 128, kSMs, {{256, 100}, {192, 100}}),
            0u);
  EXPECT_EQ(chooseTileWidth(6144, 6144, 128, kSMs, {{192, 100}, {256, 100}}),
            0u);
  // An empty output: no waves for any width.
  EXPECT_EQ(chooseTileWidth(0, 4096, 128, kSMs, kChooser), 0u);
  EXPECT_EQ(chooseTileWidth(4096, 4096, 128, kSMs, {}), 0u);
}

TEST(TileWidth, ThreeCandidates) {
  // 4000 x 4000: 128 x 128 tiles run 8 waves (1024), as long as 128 x 256's
  // 4; 128 x 192's 6 waves (1152) are longer. At equal rates the first
  // listed of the two fastest wins.
  std::vector<TileWidth> widths = {{256, 100}, {192, 100}, {128, 100}};
  EXPECT_EQ(chooseTileWidth(4000, 4000, 128, kSMs, widths), 0u);
  // 3000 x 3000: 256 runs 24 x 12 = 288 tiles (3 waves, 768); 192 runs
  // 24 x 16 = 384 (3 waves, 576); 128 runs 24 x 24 = 576 (5 waves, 640).
  EXPECT_EQ(chooseTileWidth(3000, 3000, 128, kSMs, widths), 1u);
}

} // namespace
