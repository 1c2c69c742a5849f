//===- LongestFirst.cpp - A balanced static schedule of causal tiles ------===//
//
// Also compiled into the host runtime (lib/Runtime), which builds the
// kernels' tables with it: it needs no more than the C++ standard library,
// and its only throw would be std::vector's on exhausting host memory (the
// runtime is built without exceptions, so that ends the process, as any
// allocation failure of the standard library would): the arguments bound
// every vector by the problem's tiles.
//
//===----------------------------------------------------------------------===//

#include "tile/Schedule/LongestFirst.h"
#include <algorithm>
#include <utility>

using namespace tile::schedule;

static bool isValid(const CausalTiles &t) {
  return t.queryBlocks > 0 && t.kvBlocks > 0 && t.heads > 0 &&
         t.sectionHeads > 0;
}

std::optional<CausalTile>
tile::schedule::longestFirstTile(const CausalTiles &tiles, int64_t position) {
  if (!isValid(tiles) || position < 0 ||
      position / tiles.queryBlocks >= tiles.heads)
    return std::nullopt;
  int64_t section = std::min(tiles.sectionHeads, tiles.heads);
  int64_t sectionTiles = section * tiles.queryBlocks;
  int64_t firstHead = position / sectionTiles * section;
  int64_t width = std::min(section, tiles.heads - firstHead);
  int64_t within = position % sectionTiles;
  int64_t rank = within / width;
  return CausalTile{firstHead + within % width, tiles.queryBlocks - 1 - rank};
}

int64_t tile::schedule::causalTileBlocks(const CausalTiles &tiles,
                                         int64_t queryBlock) {
  return std::min(tiles.kvBlocks, queryBlock + 1);
}

std::optional<CtaSchedule>
tile::schedule::longestFirstSchedule(const CausalTiles &tiles, int64_t ctas,
                                     int64_t tileCost) {
  if (!isValid(tiles) || ctas <= 0 || tileCost < 0 ||
      tileCost > kLongestFirstMaxTileCost ||
      tiles.heads > kLongestFirstMaxTiles / tiles.queryBlocks)
    return std::nullopt;
  int64_t count = tiles.heads * tiles.queryBlocks;
  if (ctas > count || count + ctas + 1 > kLongestFirstMaxTiles)
    return std::nullopt;

  // A min-heap of (work so far, CTA): the least work first, the lowest CTA
  // on a tie.
  using Load = std::pair<int64_t, int64_t>;
  auto later = [](const Load &a, const Load &b) { return a > b; };
  std::vector<Load> heap;
  heap.reserve(ctas);
  for (int64_t c = 0; c < ctas; ++c)
    heap.push_back({0, c});
  std::vector<int32_t> owner(count);
  std::vector<int64_t> perCta(ctas, 0);
  for (int64_t p = 0; p < count; ++p) {
    std::pop_heap(heap.begin(), heap.end(), later);
    Load &least = heap.back();
    CausalTile t = *longestFirstTile(tiles, p);
    least.first += causalTileBlocks(tiles, t.queryBlock) + tileCost;
    owner[p] = static_cast<int32_t>(least.second);
    ++perCta[least.second];
    std::push_heap(heap.begin(), heap.end(), later);
  }

  CtaSchedule schedule;
  schedule.ctas = ctas;
  schedule.table.assign(ctas + 1 + count, 0);
  for (int64_t c = 0; c < ctas; ++c)
    schedule.table[c + 1] = static_cast<int32_t>(schedule.table[c] + perCta[c]);
  // Each CTA's tiles in the order it was given them.
  std::vector<int64_t> next(schedule.table.begin(),
                            schedule.table.begin() + ctas);
  for (int64_t p = 0; p < count; ++p) {
    CausalTile t = *longestFirstTile(tiles, p);
    schedule.table[ctas + 1 + next[owner[p]]++] =
        static_cast<int32_t>(t.head * tiles.queryBlocks + t.queryBlock);
  }
  return schedule;
}
