//===- BruteForcePlan.h - The fewest TMA instructions, by enumeration -*- C++
//-*-===//
//
// A reference for the planner's search on small static loads that stay
// inside the tensor and land unswizzled: it enumerates every descriptor the
// copy could use (element width, box dims) and the one issue decomposition
// each allows, independently of the planner, and builds the plan of the
// fewest instructions, which the hardware model then checks.
//
// Why the enumeration is complete for these copies: every issue of a plan
// moves the same box, so each writes the same number B of bytes; the bytes
// add up to the region's, so the boxes are disjoint and cover the region.
// Unswizzled, a box is written densely, so the region's shared bytes, sorted,
// split into consecutive B-byte chunks, one per issue, each starting 128-byte
// aligned. Within a chunk the global address is affine in the box digits
// (dim 0 contiguous in units of the element width w, the other dims strides
// that are multiples of 16, the same in every chunk, forced by the data).
// A chunk start that is 16-byte aligned is reachable from a base at the
// buffer's start with an inner coordinate alone (dim 0 spans the buffer, the
// other dims only their box), so any (B, w, box) that passes these checks is
// a legal plan, and the largest such B gives the fewest instructions.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_UNITTESTS_TMA_BRUTEFORCEPLAN_H
#define TILE_UNITTESTS_TMA_BRUTEFORCEPLAN_H

#include "tile/TMA/Plan.h"

#include <cstdint>
#include <optional>
#include <string>

namespace tile::tma::brute {

struct BruteForceResult {
  /// Set when some descriptor copies the region: the plan with the fewest
  /// instructions (the widest element, then the fewest box dims, among
  /// those).
  std::optional<TmaPlan> plan;
  /// (element width, box) combinations checked against the data.
  int64_t boxesTried = 0;
};

/// Whether the brute force covers `request`: a static zero-filled load,
/// unswizzled, without reduce, whose global region lies inside the tensor and
/// whose region has at most `maxBytes` bytes. *why says why not.
bool inScope(const CopyRequest &request, int64_t maxBytes, std::string *why);

/// The fewest-instruction plan of an in-scope request (see inScope).
BruteForceResult bruteForcePlan(const CopyRequest &request);

} // namespace tile::tma::brute

#endif // TILE_UNITTESTS_TMA_BRUTEFORCEPLAN_H
