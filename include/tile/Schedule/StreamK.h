//===- StreamK.h - A persistent GEMM's stream-K schedule -------*- C++ -*-===//
//
// Pure C++ (no MLIR). The model of the persistent GEMM's stream-K form
// (examples/gemm/gen_gemm.py --stream-k, docs/gemm.md): `ctas` CTAs walk
// `tiles` output tiles of `ksteps` k-steps each. Where the tiles do not
// fill a whole number of waves, the last `streamTiles` of them are not
// taken whole: their k-steps, laid end to end, are cut into `ctas` equal
// shares (within one k-step), one per CTA, so every CTA finishes at nearly
// the same moment instead of the last wave leaving SMs idle. A share that
// covers part of an output tile writes its f32 partial to a workspace slot
// and arrives on the tile's counter; the tile's last arrival adds the
// others and runs the epilogue (tile::schedule::SplitKCounter).
//
// CTA c's work tiles, in order: the whole tiles c, c + ctas, c + 2 ctas, ...
// of the first tiles - streamTiles, then the pieces of its share, one per
// output tile the share touches. The generator writes these steps as index
// arithmetic; the unit test checks that every (tile, k-step) is computed
// exactly once and every tile combined exactly once.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_SCHEDULE_STREAMK_H
#define TILE_SCHEDULE_STREAMK_H

#include "tile/Schedule/SplitK.h"
#include <cstdint>

namespace tile::schedule {

/// The kernel divides the schedule's values in 32 bits (a 64-bit division is
/// a long routine on the GPU): a count is taken only where every dividend,
/// at most (shared x ksteps + ksteps) x ctas, is below this.
constexpr int64_t kStreamKNarrowLimit = int64_t(1) << 31;

/// The output tiles the stream-K schedule shares over the CTAs: none where
/// the tiles fill whole waves (tiles a multiple of ctas, or at most ctas);
/// otherwise the last partial wave, and one whole wave more where the
/// partial wave is less than half the CTAs (so no share is much shorter
/// than half a tile). None too where fewer k-steps than CTAs would be
/// shared, or where the workspace lacks the ctas + streamTiles partial
/// tiles (`workspaceTiles`) or the streamTiles counters, nor where the
/// schedule's dividends reach kStreamKNarrowLimit.
int64_t chooseStreamKTiles(int64_t tiles, int64_t ksteps, int64_t ctas,
                           int64_t workspaceTiles, int64_t workspaceCounters);

/// One work tile of a CTA: output tile `tile` (in the order the tiles are
/// numbered, before any rasterization), its k-steps `k`, and the tile's
/// index among the shared tiles (-1 for a whole, data-parallel tile).
struct WorkTile {
  int64_t tile = 0;
  KRange k;
  int64_t streamTile = -1;
};

class StreamKSchedule {
public:
  StreamKSchedule(int64_t tiles, int64_t ksteps, int64_t ctas,
                  int64_t streamTiles)
      : tiles(tiles), ksteps(ksteps), ctas(ctas), streamTiles(streamTiles) {}

  /// CTA c's whole tiles: c, c + ctas, ... below tiles - streamTiles (a
  /// multiple of ctas where streamTiles > 0, so every CTA has as many).
  int64_t wholeTiles(int64_t cta) const {
    int64_t whole = tiles - streamTiles;
    return cta < whole ? (whole - cta + ctas - 1) / ctas : 0;
  }
  /// The shared k-steps: streamTiles x ksteps.
  int64_t units() const { return streamTiles * ksteps; }
  /// CTA c's share of the shared k-steps: [c units / ctas,
  /// (c + 1) units / ctas).
  KRange share(int64_t cta) const {
    return {cta * units() / ctas, (cta + 1) * units() / ctas};
  }
  /// The pieces of CTA c's share: one per shared tile it touches.
  int64_t pieces(int64_t cta) const;
  /// CTA c's work tiles: its whole tiles, then its pieces.
  int64_t workTiles(int64_t cta) const { return wholeTiles(cta) + pieces(cta); }
  /// CTA c's t-th work tile (t < workTiles(c)).
  WorkTile workTile(int64_t cta, int64_t t) const;
  /// The CTA whose share holds shared k-step u (0 <= u < units()).
  int64_t ctaOf(int64_t unit) const {
    return ((unit + 1) * ctas - 1) / units();
  }
  /// The CTAs whose shares touch shared tile j: firstCta(j)..lastCta(j),
  /// every one of them with one piece of it.
  int64_t firstCta(int64_t j) const { return ctaOf(j * ksteps); }
  int64_t lastCta(int64_t j) const { return ctaOf((j + 1) * ksteps - 1); }
  /// The workspace slot of CTA c's piece of shared tile j: c + j, distinct
  /// for every piece (pieces are ordered alike by CTA and by tile), fewer
  /// than ctas + streamTiles.
  static int64_t slot(int64_t cta, int64_t j) { return cta + j; }

  const int64_t tiles, ksteps, ctas, streamTiles;
};

} // namespace tile::schedule

#endif // TILE_SCHEDULE_STREAMK_H
