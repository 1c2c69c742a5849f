//===- SplitK.h - Split-K shares and their combination ---------*- C++ -*-===//
//
// Pure C++ (no MLIR). The model of the GEMM's split-K form
// (examples/gemm/gen_gemm.py --split-k with bf16 or FP8 output,
// docs/gemm.md): S CTAs share one output tile's k-steps, each writes its f32
// partial tile into a workspace slot, and the tile's last CTA to arrive on a
// per-tile counter adds the other partials to its own and runs the tile's
// epilogue once. The generator writes these steps as index arithmetic; the
// unit test checks that every (tile, k-step) is computed exactly once and
// every partial sum combined exactly once, for every arrival order.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_SCHEDULE_SPLITK_H
#define TILE_SCHEDULE_SPLITK_H

#include <cstdint>
#include <optional>
#include <vector>

namespace tile::schedule {

/// The k-steps [begin, end) of one share.
struct KRange {
  int64_t begin = 0;
  int64_t end = 0;
  bool operator==(const KRange &o) const {
    return begin == o.begin && end == o.end;
  }
};

/// Share `split` of `splits` over `ksteps` k-steps: [split * ksteps / splits,
/// (split + 1) * ksteps / splits). The shares are contiguous, in order, and
/// differ in length by at most one; a share is empty where there are fewer
/// k-steps than shares (its partial tile is zero). Nullopt for a split
/// outside [0, splits), splits < 1 or ksteps < 0.
std::optional<KRange> splitKRange(int64_t split, int64_t splits,
                                  int64_t ksteps);

/// The workspace slot of share `split` of output tile `tile`: slots
/// tile * splits .. tile * splits + splits - 1 hold one tile's partials.
int64_t splitKSlot(int64_t tile, int64_t split, int64_t splits);

/// A tile's counter in the workspace: zero before the tile's first share
/// arrives and again after its last (the last share resets it), so one
/// zeroing of the workspace serves every later launch on its stream.
class SplitKCounter {
public:
  /// One share's arrival (an atomic add of one, after the share's partial is
  /// written and fenced): true for the last of `splits`, which then combines
  /// the partials and resets the counter to zero.
  bool arrive(int64_t splits) {
    int64_t old = count++;
    if (old != splits - 1)
      return false;
    count = 0;
    return true;
  }
  int64_t value() const { return count; }

private:
  int64_t count = 0;
};

/// The shares whose partials the last share `last` adds to its own
/// accumulator, in the order it adds them: every other share, in increasing
/// order. With two shares the sum does not depend on which arrived last
/// (addition commutes); with more, its rounding does.
std::vector<int64_t> splitKCombineOrder(int64_t last, int64_t splits);

/// The rule `gen_gemm.py --choose --split-k` follows for a problem with
/// `tiles` output tiles of `ksteps` k-steps each on `sms` SMs: split where
/// the tiles fill at most half the SMs, into as many shares as fill the SMs
/// (at most `maxSplits`), each of at least `minKSteps` k-steps, and only where
/// the workspace holds `tiles x splits` partial tiles of `tileElems` f32
/// values and `tiles` counters. Returns the shares (1: no split).
struct SplitKRule {
  int64_t sms = 132;
  int64_t maxSplits = 4;
  int64_t minKSteps = 8;
};
int64_t chooseSplitK(int64_t tiles, int64_t ksteps, int64_t tileElems,
                     int64_t workspaceElems, int64_t workspaceCounters,
                     const SplitKRule &rule = {});

} // namespace tile::schedule

#endif // TILE_SCHEDULE_SPLITK_H
