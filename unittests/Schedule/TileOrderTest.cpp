//===- TileOrderTest.cpp - The grouped tile order -------------------------===//

#include "tile/Schedule/TileOrder.h"
#include <gtest/gtest.h>
#include <set>
#include <utility>

using tile::schedule::groupedTile;
using tile::schedule::TileCoord;

namespace {

// The order of a 5 x 3 grid in groups of 2 rows: two rows down each column,
// then the next column; the last group is row 4 alone.
TEST(GroupedTile, SmallGridInOrder) {
  const TileCoord expected[] = {{0, 0}, {1, 0}, {0, 1}, {1, 1}, {0, 2},
                                {1, 2}, {2, 0}, {3, 0}, {2, 1}, {3, 1},
                                {2, 2}, {3, 2}, {4, 0}, {4, 1}, {4, 2}};
  for (int64_t i = 0; i < 15; ++i) {
    std::optional<TileCoord> t = groupedTile(i, 5, 3, 2);
    ASSERT_TRUE(t) << i;
    EXPECT_EQ(*t, expected[i]) << i;
  }
}

// Every tile exactly once, for every grid up to 13 x 13 and group up to 15
// (groups taller than the grid included), each position in range.
TEST(GroupedTile, EveryTileExactlyOnce) {
  for (int64_t rows = 1; rows <= 13; ++rows)
    for (int64_t cols = 1; cols <= 13; ++cols)
      for (int64_t group = 1; group <= 15; ++group) {
        std::set<std::pair<int64_t, int64_t>> seen;
        for (int64_t i = 0; i < rows * cols; ++i) {
          std::optional<TileCoord> t = groupedTile(i, rows, cols, group);
          ASSERT_TRUE(t);
          ASSERT_GE(t->row, 0);
          ASSERT_LT(t->row, rows);
          ASSERT_GE(t->col, 0);
          ASSERT_LT(t->col, cols);
          EXPECT_TRUE(seen.insert({t->row, t->col}).second)
              << rows << "x" << cols << " group " << group << " index " << i;
        }
        EXPECT_EQ(seen.size(), static_cast<size_t>(rows * cols));
      }
}

// Group 1 is the row-major order; a group as tall as the grid, the
// column-major one.
TEST(GroupedTile, ExtremeGroups) {
  for (int64_t i = 0; i < 6 * 4; ++i) {
    EXPECT_EQ(*groupedTile(i, 6, 4, 1), (TileCoord{i / 4, i % 4}));
    EXPECT_EQ(*groupedTile(i, 6, 4, 6), (TileCoord{i % 6, i / 6}));
    EXPECT_EQ(*groupedTile(i, 6, 4, 100), (TileCoord{i % 6, i / 6}));
  }
}

// A persistent kernel's walk (CTA c takes positions c, c + CTAs, ...)
// covers every tile once: the grid-strided positions partition [0, tiles).
TEST(GroupedTile, PersistentWalkCoversTheGrid) {
  const int64_t rows = 33, cols = 57, group = 8, ctas = 132;
  std::set<std::pair<int64_t, int64_t>> seen;
  for (int64_t cta = 0; cta < ctas; ++cta) {
    int64_t mine =
        cta < rows * cols ? (rows * cols - cta + ctas - 1) / ctas : 0;
    for (int64_t t = 0; t < mine; ++t) {
      std::optional<TileCoord> tile =
          groupedTile(cta + t * ctas, rows, cols, group);
      ASSERT_TRUE(tile);
      EXPECT_TRUE(seen.insert({tile->row, tile->col}).second);
    }
  }
  EXPECT_EQ(seen.size(), static_cast<size_t>(rows * cols));
}

TEST(GroupedTile, RejectsOutOfRange) {
  EXPECT_FALSE(groupedTile(15, 5, 3, 2));
  EXPECT_FALSE(groupedTile(-1, 5, 3, 2));
  EXPECT_FALSE(groupedTile(0, 0, 3, 2));
  EXPECT_FALSE(groupedTile(0, 5, 0, 2));
  EXPECT_FALSE(groupedTile(0, 5, 3, 0));
}

} // namespace
