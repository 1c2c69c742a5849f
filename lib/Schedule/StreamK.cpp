//===- StreamK.cpp - A persistent GEMM's stream-K schedule ----------------===//
//
// examples/gemm/gen_gemm.py --stream-k writes the same steps as index
// arithmetic (the host entry's choice, the kernel's work tiles and slots).
//
//===----------------------------------------------------------------------===//

#include "tile/Schedule/StreamK.h"
#include <algorithm>

using namespace tile::schedule;

int64_t tile::schedule::chooseStreamKTiles(int64_t tiles, int64_t ksteps,
                                           int64_t ctas, int64_t workspaceTiles,
                                           int64_t workspaceCounters) {
  if (ctas < 1 || ksteps < 1 || tiles <= ctas || tiles % ctas == 0)
    return 0;
  int64_t shared = tiles % ctas;
  if (2 * shared < ctas)
    shared += ctas;
  if (shared * ksteps < ctas || ctas + shared > workspaceTiles ||
      shared > workspaceCounters)
    return 0;
  // shared < 2 ctas: with both factors below 2^31 / 2^16 the product below
  // cannot overflow.
  if (ksteps >= kStreamKNarrowLimit || ctas >= (int64_t(1) << 15) ||
      (shared + 1) * ksteps * ctas >= kStreamKNarrowLimit)
    return 0;
  return shared;
}

int64_t StreamKSchedule::pieces(int64_t cta) const {
  KRange r = share(cta);
  if (r.end <= r.begin)
    return 0;
  return (r.end - 1) / ksteps - r.begin / ksteps + 1;
}

WorkTile StreamKSchedule::workTile(int64_t cta, int64_t t) const {
  int64_t whole = wholeTiles(cta);
  if (t < whole)
    return {cta + t * ctas, {0, ksteps}, -1};
  KRange r = share(cta);
  int64_t j = r.begin / ksteps + (t - whole);
  int64_t start = j * ksteps;
  KRange k{std::max(r.begin, start) - start,
           std::min(r.end, start + ksteps) - start};
  return {tiles - streamTiles + j, k, j};
}
