//===- Slice.h - Slicing grouped layouts by regions -------------*- C++ -*-===//
//
// A region [start, start+size) of one buffer dimension, seen through the
// dimension's shards (outer to inner, the logical index split mixed-radix,
// innermost last), is a list of axes: the innermost shards the region covers
// completely, at most one shard it covers partially, and outer shards on which
// it touches a single digit. Slicing never splits a shard's digit range across
// a carry, so every axis is a plain strided run and the region's flat
// (row-major) index splits mixed-radix over the axes' sizes.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_LAYOUT_SLICE_H
#define TILE_LAYOUT_SLICE_H

#include "tile/Layout/Layout.h"

namespace tile {

/// One shard of a dimension restricted to the digits [start, start+size).
/// The outermost axis of a dimension takes the whole remaining quotient, so
/// its start may lie outside [0, extent) (an out-of-bounds region).
struct SliceAxis {
  int64_t extent = 1;
  int64_t stride = 0;
  int64_t start = 0;
  int64_t size = 1;
  bool operator==(const SliceAxis &o) const {
    return extent == o.extent && stride == o.stride && start == o.start &&
           size == o.size;
  }
};

/// How a region of `size` elements falls onto a group (independent of the
/// start): the number of innermost shards fully covered, their extent product
/// (the start must be a multiple of it), and the count taken from the next
/// shard (1 when the region ends exactly on a shard boundary).
struct DimCover {
  size_t fullShards = 0;
  int64_t innerProduct = 1;
  int64_t partialCount = 1;
};

/// Computes the cover of `size` elements over `group` (outer to inner). An
/// empty group behaves as one shard (1:0). Fails when the size is not a
/// product of whole inner shards times a count of the next shard.
std::optional<DimCover> coverOf(const std::vector<Shard> &group, int64_t size,
                                std::string *error = nullptr);

/// Slices one dimension's group (outer to inner) by [start, start+size).
/// Returns the axes outer to inner (one per shard; an empty group yields one
/// axis of extent 1). Fails when the region would carry across a shard.
std::optional<std::vector<SliceAxis>>
sliceGroup(const std::vector<Shard> &group, int64_t start, int64_t size,
           std::string *error = nullptr);

/// Slices a grouped layout by an in-bounds region: the result is a layout over
/// the region's own index space (its flat index row-major over the region
/// sizes) whose element offset includes the region start. Swizzle is kept.
std::optional<Layout> sliceRegion(const GroupedLayout &layout,
                                  const Region &region,
                                  std::string *error = nullptr);

/// Shard indices of the contiguous stride-1 chain: the shard of stride 1,
/// then the shard whose stride is the product of the chain so far, and so on.
/// Extent-1 shards are ignored. Empty when no shard has stride 1.
std::vector<size_t> strideOneChain(const Layout &layout);

} // namespace tile

#endif // TILE_LAYOUT_SLICE_H
