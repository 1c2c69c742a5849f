//===- SplitK.cpp - Split-K shares and their combination ------------------===//
//
// examples/gemm/gen_gemm.py writes the same steps as index arithmetic (the
// kernel's share and slot, the host entry's rule).
//
//===----------------------------------------------------------------------===//

#include "tile/Schedule/SplitK.h"
#include <algorithm>

using namespace tile::schedule;

std::optional<KRange> tile::schedule::splitKRange(int64_t split, int64_t splits,
                                                  int64_t ksteps) {
  if (splits < 1 || split < 0 || split >= splits || ksteps < 0)
    return std::nullopt;
  return KRange{split * ksteps / splits, (split + 1) * ksteps / splits};
}

int64_t tile::schedule::splitKSlot(int64_t tile, int64_t split,
                                   int64_t splits) {
  return tile * splits + split;
}

std::vector<int64_t> tile::schedule::splitKCombineOrder(int64_t last,
                                                        int64_t splits) {
  std::vector<int64_t> order;
  for (int64_t split = 0; split < splits; ++split)
    if (split != last)
      order.push_back(split);
  return order;
}

int64_t tile::schedule::chooseSplitK(int64_t tiles, int64_t ksteps,
                                     int64_t tileElems, int64_t workspaceElems,
                                     int64_t workspaceCounters,
                                     const SplitKRule &rule) {
  if (tiles < 1 || 2 * tiles > rule.sms || rule.minKSteps < 1)
    return 1;
  int64_t splits =
      std::min({rule.maxSplits, rule.sms / tiles, ksteps / rule.minKSteps});
  if (splits < 2 || tiles * splits * tileElems > workspaceElems ||
      tiles > workspaceCounters)
    return 1;
  return splits;
}
