//===- TileWidth.h - A GEMM's tile width chosen by its waves ----*- C++ -*-===//
//
// Pure C++ (no MLIR). The model of the GEMM choosers' tile-width rule
// (examples/gemm/gen_gemm.py --choose, docs/gemm.md): CTAs that each take
// whole output tiles finish when the busiest has taken ceil(tiles / ctas) of
// them, so a problem whose tiles leave the last wave mostly empty wastes that
// wave's idle SMs. 3000 x 5000 x 2000 has 480 tiles of 128 x 256 on 132 SMs:
// 3.6 waves, run as 4. Narrower tiles cut N into more, shorter tiles and
// can fill the last wave better (648 tiles of 128 x 192: 4.9 waves, run as
// 5 of three quarters the length), at the cost of a slower main loop (each
// narrower tile loads more bytes per multiply-add).
//
// The predicted time of width w is waves(w) x w / rate(w): the waves of
// tiles, each as long as its width over its main loop's measured rate.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_SCHEDULE_TILEWIDTH_H
#define TILE_SCHEDULE_TILEWIDTH_H

#include <cstddef>
#include <cstdint>
#include <vector>

namespace tile::schedule {

/// A candidate tile width and its main loop's rate, in percent of the first
/// candidate's (the widest, at 100).
struct TileWidth {
  int64_t columns = 0;
  int64_t ratePercent = 100;
};

/// The waves of `ctas` CTAs over the tiles of an m x n output cut into
/// `rows` x `columns` tiles: ceil(tiles / ctas) (0 for an empty output).
int64_t tileWaves(int64_t m, int64_t n, int64_t rows, int64_t columns,
                  int64_t ctas);

/// The index of the candidate whose tiles finish first: the least
/// waves x columns x 100 / ratePercent, compared as integers
/// (waves(a) x columns(a) x rate(b) against waves(b) x columns(b) x
/// rate(a)); a tie keeps the earlier candidate. 0 for no candidates.
std::size_t chooseTileWidth(int64_t m, int64_t n, int64_t rows, int64_t ctas,
                            const std::vector<TileWidth> &candidates);

/// A candidate tile of `rows` x `columns` and its main loop's rate, in
/// percent of the first candidate's.
struct TileShape {
  int64_t rows = 0;
  int64_t columns = 0;
  int64_t ratePercent = 100;
};

/// The same choice over tiles that differ in height as well: the least
/// waves x rows x columns x 100 / ratePercent, compared as chooseTileWidth
/// compares (a tie keeps the earlier candidate; 0 for no candidates). Where
/// every candidate has the same rows, the choice is chooseTileWidth's.
/// 3000 x 3000 has 288 tiles of 128 x 256 (2.2 waves, run as 3) but 256 of
/// 192 x 192 (1.9: two waves of 1.125 the work each).
std::size_t chooseTileShape(int64_t m, int64_t n, int64_t ctas,
                            const std::vector<TileShape> &candidates);

} // namespace tile::schedule

#endif // TILE_SCHEDULE_TILEWIDTH_H
