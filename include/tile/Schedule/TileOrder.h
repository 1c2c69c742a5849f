//===- TileOrder.h - The order in which kernels walk output tiles -*- C++
//-*-===//
//
// Pure C++ (no MLIR). The grouped order of a grid of output tiles: the model
// `tile.grouped_tile` folds with and its lowering computes.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_SCHEDULE_TILEORDER_H
#define TILE_SCHEDULE_TILEORDER_H

#include <cstdint>
#include <optional>

namespace tile::schedule {

/// An output tile of a grid: its tile row and tile column.
struct TileCoord {
  int64_t row = 0;
  int64_t col = 0;
  bool operator==(const TileCoord &o) const {
    return row == o.row && col == o.col;
  }
};

/// Position `index` of the grouped order over a `rows` x `cols` grid of
/// tiles: the order walks `groupRows` tile rows down one column, then the
/// next column, and the next group of rows after the last column; the last
/// group holds the rows that remain. Neighbouring positions then share their
/// operand rows and columns, which keeps them in L2 for CTAs that run at the
/// same time. Nullopt for an index outside [0, rows x cols) or a grid or
/// group that is not positive.
std::optional<TileCoord> groupedTile(int64_t index, int64_t rows, int64_t cols,
                                     int64_t groupRows);

} // namespace tile::schedule

#endif // TILE_SCHEDULE_TILEORDER_H
