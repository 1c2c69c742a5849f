//===- TileOrder.cpp - The grouped order of output tiles ------------------===//
//
// tile.grouped_tile's lowering (lib/Conversion/TileToNVVM) emits these same
// steps as index arithmetic.
//
//===----------------------------------------------------------------------===//

#include "tile/Schedule/TileOrder.h"
#include <algorithm>

using namespace tile::schedule;

std::optional<TileCoord> tile::schedule::groupedTile(int64_t index,
                                                     int64_t rows, int64_t cols,
                                                     int64_t groupRows) {
  if (rows <= 0 || cols <= 0 || groupRows <= 0 || index < 0 ||
      index / cols >= rows)
    return std::nullopt;
  // A group is `height` rows of every column; the last may be shorter, and
  // starts at a multiple of the full group's positions all the same.
  int64_t height = std::min(groupRows, rows);
  int64_t inGroup = height * cols;
  int64_t firstRow = index / inGroup * height;
  int64_t groupHeight = std::min(rows - firstRow, height);
  int64_t within = index % inGroup;
  return TileCoord{firstRow + within % groupHeight, within / groupHeight};
}
