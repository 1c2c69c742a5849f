//===- CopyModes.h - Planner-internal view of a copy ------------*- C++ -*-===//
//
// The planner phases pass these values along:
//   L1 (Regions.cpp, Modes.cpp): each layout is grouped, canonicalized per
//      dimension and sliced by its region into axes; the two regions' flat
//      index is refined into modes, runs that are strided in both layouts.
//   L2 (Chain.cpp): the shared stride-1 chain of modes, split to box limits.
//   L3 (Descriptor.cpp): a chain prefix becomes the box, the other modes issue
//      axes; sub-dimensions of the global axes become the tensor map.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_LIB_TMA_COPYMODES_H
#define TILE_LIB_TMA_COPYMODES_H

#include "tile/TMA/Guards.h"
#include "tile/TMA/Plan.h"

#include <optional>
#include <string>
#include <vector>

namespace tile::tma::detail {

/// One shard of a global dimension restricted to the region. The outermost
/// axis of a dimension takes the remaining quotient of the region start, so
/// its start may lie outside [0, extent) (loads leaving the tensor).
struct GlobalAxis {
  int64_t extent = 1;
  int64_t stride = 0; // elements
  SymExpr start;
  int64_t size = 1;
  /// A symbolic global's memref dimension whose run-time size is the extent
  /// (then `extent` is kUnknownExtent) or whose run-time stride is the
  /// stride (then `stride` is 0).
  std::optional<unsigned> runtimeExtent;
  std::optional<unsigned> runtimeStride;
};

/// A boundary between two sliced global axes that fusing removed: boundary b
/// lies between axis b - 1 and axis b of the unfused list (outer to inner),
/// at digit `digit` of fused axis `axis`.
struct FusedBoundary {
  unsigned boundary = 0;
  unsigned axis = 0;
  int64_t digit = 1;
};

/// A run of the flat region index that is strided in both layouts.
struct Mode {
  int64_t extent = 1;
  unsigned axis = 0;        // global axis it walks
  int64_t step = 1;         // in the axis's digits
  int64_t sharedStride = 0; // elements
};

struct CopyModes {
  std::vector<GlobalAxis> axes; // outer to inner
  std::vector<Mode> modes;      // outer to inner (flat region index order)
  SymExpr sharedBase;           // elements, start of the shared region
  int64_t globalBase = 0;       // elements, the global layout's offset
  int64_t elementBytes = 1;
  int64_t regionElements = 1;
  /// The boundaries between sliced global axes that were fused.
  std::vector<FusedBoundary> fusedBoundaries;
};

/// L1, first half: validates the request's shapes and layouts and slices
/// both regions: the shared runs and the global axes, not yet fused.
struct SlicedRegions {
  /// The start offsets, element bytes and region size (no axes or modes).
  CopyModes modes;
  std::vector<GlobalAxis> axes; // outer to inner
  std::vector<std::pair<int64_t, int64_t>> sharedRuns;
};
std::optional<SlicedRegions> sliceRegions(const CopyRequest &request,
                                          Decline *decline);

/// L1, second half: fuses neighbouring global axes that are contiguous,
/// except at the boundaries whose bit (1 << (b - 1)) is set in
/// `keepBoundaries`, and refines both regions into modes.
std::optional<CopyModes> fuseAndRefine(const CopyRequest &request,
                                       const SlicedRegions &sliced,
                                       uint64_t keepBoundaries,
                                       Decline *decline);

/// L1 with every contiguous pair fused. On failure sets *decline.
std::optional<CopyModes> buildCopyModes(const CopyRequest &request,
                                        Decline *decline);

/// Common refinement of the two regions' axis sizes into modes, then
/// coalescing of neighbours contiguous in both layouts.
std::optional<std::vector<Mode>>
refineModes(const std::vector<GlobalAxis> &globalAxes,
            const std::vector<std::pair<int64_t, int64_t>> &sharedRuns,
            Decline *decline);

/// Merges global axes that one run of the region walks contiguously in both
/// layouts although they are not neighbours in memref order (CuTe's common
/// vector): a mode covering a whole axis A and a mode on the lowest digit of
/// an axis B with stride(B) = stride(A) * extent(A), whose shared strides
/// continue too, become one mode on one axis (A's digits under B's). An 8x8
/// column-major int8 tile in a column-major tensor is then one 64-byte run,
/// not eight 8-byte ones. Axes that are neighbours in memref order (outer
/// before inner) are left to fuseAxes, which may keep them apart. Repeats
/// until no pair merges; boundaries recorded on the axes follow them.
void coalesceAcrossAxes(CopyModes &modes);

/// Widens the element by `factor` (2, 4, 8) when every byte stays in place.
std::optional<CopyModes> promote(const CopyModes &modes, int64_t factor);

/// L2: the stride-1 chain. `modes` may get split; `chain` lists mode indices.
struct Chain {
  std::vector<Mode> modes;
  std::vector<size_t> order; // chain order, stride-1 mode first
  int64_t pitch = 1;         // elements between box rows in shared memory
};
std::optional<Chain> findChain(const CopyModes &modes, Swizzle swizzle,
                               Decline *decline);

/// L3: the tensor map and issues for the first `boxModes` chain modes.
/// *loosensBounds (if given) tells whether the map's bounds are wider than the
/// tensor's on some axis the region stays inside (an axis cut where its start
/// does not divide, or a fixed offset moved into the inner coordinate).
std::optional<TmaPlan> buildCandidate(const CopyRequest &request,
                                      const CopyModes &modes,
                                      const Chain &chain, size_t boxModes,
                                      Decline *decline,
                                      bool *loosensBounds = nullptr);

/// Checks every plan-level rule (Rules.cpp); the first violation or nullopt.
std::optional<Decline> checkPlanRules(const CopyRequest &request,
                                      const TmaPlan &plan);
/// Request-level rules checked before planning.
std::optional<Decline> checkRequestRules(const CopyRequest &request);

} // namespace tile::tma::detail

#endif // TILE_LIB_TMA_COPYMODES_H
