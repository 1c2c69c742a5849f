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
// The start may be an integer or a symbolic value (the TMA planner's SymExpr);
// sliceGroupWith is the one slicing algorithm for both, parameterised by a
// small traits struct over the start's type.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_LAYOUT_SLICE_H
#define TILE_LAYOUT_SLICE_H

#include "tile/Layout/Layout.h"

namespace tile {

/// One shard of a dimension restricted to the digits [start, start+size).
/// The outermost axis of a dimension takes the whole remaining quotient, so
/// its start may lie outside [0, extent) (an out-of-bounds region).
template <typename Offset>
struct SliceAxisOf {
  int64_t extent = 1;
  int64_t stride = 0;
  Offset start = 0;
  int64_t size = 1;
  bool operator==(const SliceAxisOf &o) const {
    return extent == o.extent && stride == o.stride && start == o.start &&
           size == o.size;
  }
};
using SliceAxis = SliceAxisOf<int64_t>;

/// Why a region does not slice: the first shard (index into the group, outer
/// to inner) it fails on, and that shard's extent. Callers word the message.
struct SliceFailure {
  enum Kind {
    UnknownDigit, ///< The start's digit on the shard is not known.
    Misaligned,   ///< The region spans whole shards but starts mid-shard.
    Crosses,      ///< The region crosses a shard boundary (a carry).
  };
  Kind kind = Crosses;
  size_t shard = 0;
  int64_t extent = 1;
};

/// Traits of an integer start: every digit is known.
struct IntegerStart {
  using Offset = int64_t;
  static int64_t floorDiv(int64_t a, int64_t b) {
    int64_t q = a / b;
    return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q;
  }
  /// The start's digit on a shard of extent e, in [0, e), when known.
  static std::optional<int64_t> digit(int64_t o, int64_t e) {
    return o - floorDiv(o, e) * e;
  }
  /// (o - digit) / e, exact; called only once the digit is known.
  static int64_t quotient(int64_t o, int64_t digit, int64_t e) {
    return floorDiv(o, e);
  }
};

/// Slices one dimension's group (outer to inner) by [start, start+size),
/// size > 0. `Start` provides `Offset` (the start's type, constructible from
/// int64_t), `digit(o, e)` and `quotient(o, digit, e)` as IntegerStart does.
/// Returns the axes outer to inner (one per shard; an empty group yields one
/// axis of extent 1), or fails with *failure set.
template <typename Start>
std::optional<std::vector<SliceAxisOf<typename Start::Offset>>>
sliceGroupWith(const std::vector<Shard> &group,
               const typename Start::Offset &start, int64_t size,
               SliceFailure *failure) {
  using Offset = typename Start::Offset;
  static const std::vector<Shard> unit = {Shard{1, 0}};
  const std::vector<Shard> &g = group.empty() ? unit : group;
  std::vector<SliceAxisOf<Offset>> axes(g.size());
  Offset o = start;
  int64_t n = size;
  for (size_t k = g.size(); k-- > 0;) {
    int64_t e = g[k].extent, s = g[k].stride;
    if (k == 0) {
      axes[k] = {e, s, o, n}; // The outermost shard takes the quotient.
      break;
    }
    auto fail = [&](SliceFailure::Kind kind) {
      *failure = {kind, k, e};
      return std::nullopt;
    };
    std::optional<int64_t> digit = Start::digit(o, e);
    if (!digit)
      return fail(SliceFailure::UnknownDigit);
    if (n == 1) {
      axes[k] = {e, s, Offset(*digit), 1};
    } else if (n % e == 0) {
      if (*digit != 0)
        return fail(SliceFailure::Misaligned);
      axes[k] = {e, s, Offset(0), e};
      n /= e;
    } else if (n < e && *digit + n <= e) {
      axes[k] = {e, s, Offset(*digit), n};
      n = 1;
    } else {
      return fail(SliceFailure::Crosses);
    }
    o = Start::quotient(o, *digit, e);
  }
  return axes;
}

/// sliceGroupWith for an integer start, with the failure as a message.
std::optional<std::vector<SliceAxis>>
sliceGroup(const std::vector<Shard> &group, int64_t start, int64_t size,
           std::string *error = nullptr);

} // namespace tile

#endif // TILE_LAYOUT_SLICE_H
