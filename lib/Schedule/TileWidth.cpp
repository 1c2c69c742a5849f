//===- TileWidth.cpp - A GEMM's tile width chosen by its waves ------------===//

#include "tile/Schedule/TileWidth.h"

namespace tile::schedule {

static int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

int64_t tileWaves(int64_t m, int64_t n, int64_t rows, int64_t columns,
                  int64_t ctas) {
  return ceilDiv(ceilDiv(m, rows) * ceilDiv(n, columns), ctas);
}

std::size_t chooseTileWidth(int64_t m, int64_t n, int64_t rows, int64_t ctas,
                            const std::vector<TileWidth> &candidates) {
  // Tiles of one height: the shapes' choice, every time scaled by `rows`.
  std::vector<TileShape> shapes;
  shapes.reserve(candidates.size());
  for (const TileWidth &width : candidates)
    shapes.push_back({rows, width.columns, width.ratePercent});
  return chooseTileShape(m, n, ctas, shapes);
}

std::size_t chooseTileShape(int64_t m, int64_t n, int64_t ctas,
                            const std::vector<TileShape> &candidates) {
  std::size_t best = 0;
  for (std::size_t i = 1; i < candidates.size(); ++i) {
    const TileShape &a = candidates[i], &b = candidates[best];
    int64_t timeA =
        tileWaves(m, n, a.rows, a.columns, ctas) * a.rows * a.columns;
    int64_t timeB =
        tileWaves(m, n, b.rows, b.columns, ctas) * b.rows * b.columns;
    if (timeA * b.ratePercent < timeB * a.ratePercent)
      best = i;
  }
  return best;
}

} // namespace tile::schedule
