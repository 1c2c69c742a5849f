//===- LongestFirst.h - A balanced static schedule of causal tiles -*- C++
//-*-===//
//
// Pure C++ (no MLIR). A causal attention kernel's work tile is 128 query
// rows of one (batch, head); query block q reads min(kvBlocks, q + 1) KV
// blocks, so the tiles of one head take 1, 2, ..., queryBlocks blocks. A
// persistent kernel that deals whole tiles (or pairs of them) to its CTAs by
// index arithmetic alone leaves the busiest CTA up to one unit of work
// above the mean; at 16k tokens and seq 2k, 136 KV blocks against a mean
// of 132 (3 %).
//
// This is the longest-processing-time rule instead, computed on the host:
// the tiles in longest-first order (below), each given to the CTA whose
// work so far is least (the lowest index on a tie), a tile's work being its
// KV blocks plus a fixed cost per tile. A CTA walks its tiles in the order
// it was given them, so the CTAs at work together read the same section's
// heads. The runtime builds the table once per problem
// (tileRuntimeLongestFirstTable) and the kernel reads its share from it.
//
// The longest-first order: the heads (batch x heads of the problem) in
// sections of `sectionHeads` (the last may hold fewer), in each section the
// query blocks from the last down, the section's heads fastest.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_SCHEDULE_LONGESTFIRST_H
#define TILE_SCHEDULE_LONGESTFIRST_H

#include <cstdint>
#include <optional>
#include <vector>

namespace tile::schedule {

/// The tiles of a causal problem.
struct CausalTiles {
  int64_t queryBlocks = 0;  // 128-row query blocks of one head
  int64_t kvBlocks = 0;     // KV blocks of one head
  int64_t heads = 0;        // batch x heads
  int64_t sectionHeads = 1; // heads of a section of the order
};

/// One tile: its head (0..heads-1) and query block.
struct CausalTile {
  int64_t head = 0;
  int64_t queryBlock = 0;
  bool operator==(const CausalTile &o) const {
    return head == o.head && queryBlock == o.queryBlock;
  }
};

/// The tile at `position` of the longest-first order; nullopt for a
/// position outside [0, queryBlocks x heads) or a problem whose counts are
/// not positive.
std::optional<CausalTile> longestFirstTile(const CausalTiles &tiles,
                                           int64_t position);

/// The KV blocks query block `queryBlock` reads: min(kvBlocks, queryBlock +
/// 1).
int64_t causalTileBlocks(const CausalTiles &tiles, int64_t queryBlock);

/// The table the kernel reads, as int32 values: `ctas + 1` offsets, then
/// every tile once as head x queryBlocks + queryBlock. CTA c walks the
/// tiles at [offsets[c], offsets[c + 1]) of the tiles that follow the
/// offsets, in that order.
struct CtaSchedule {
  std::vector<int32_t> table;
  int64_t ctas = 0;
  int64_t tiles() const { return table[ctas] - table[0]; }
  int32_t begin(int64_t cta) const { return table[cta]; }
  int32_t end(int64_t cta) const { return table[cta + 1]; }
  int32_t tile(int64_t i) const { return table[ctas + 1 + i]; }
};

/// The longest table the schedule builds: every value, and the table's
/// length, below 2^31.
constexpr int64_t kLongestFirstMaxTiles = (int64_t(1) << 31) - 1 - 4096;

/// The largest fixed cost of a tile: with at most 2^31 tiles of fewer than
/// 2^31 KV blocks each, no CTA's work reaches 2^63.
constexpr int64_t kLongestFirstMaxTileCost = int64_t(1) << 30;

/// The longest-processing-time schedule of the problem's tiles over `ctas`
/// CTAs, each tile costing its KV blocks plus `tileCost`. Nullopt where a
/// count is not positive, sectionHeads < 1, there are more CTAs than tiles
/// (a CTA without a tile is a launch's waste; the entries launch at most one
/// per tile), tileCost is outside [0, kLongestFirstMaxTileCost], or the
/// table (ctas + 1 + tiles values) would be longer than
/// kLongestFirstMaxTiles. Takes time linear in the tiles times log(ctas).
std::optional<CtaSchedule> longestFirstSchedule(const CausalTiles &tiles,
                                                int64_t ctas, int64_t tileCost);

} // namespace tile::schedule

#endif // TILE_SCHEDULE_LONGESTFIRST_H
