//===- Layout.h - Shard layouts with hardware swizzle -----------*- C++ -*-===//
//
// A layout maps a logical index space onto element offsets in memory. This
// library is pure C++ (no MLIR, no LLVM): the dialect's `#tile.layout`
// attribute, the TMA planner, the wgmma descriptor planner and the hardware
// model are all built on it.
//
// The algebra
// -----------
// A Layout is a list of shards (extent:stride), outer to inner, an element
// offset and a swizzle. A flat index i splits mixed-radix over the extents,
// innermost shard last (digit_k in [0, extent_k)), and
//
//     offset(i) = elementOffset + sum_k digit_k * stride_k        (elements)
//     address(i) = swizzle(base + offset(i) * elementBytes)        (bytes)
//
// where swizzle XORs byte-address bits [4, 4+B) with bits [7, 7+B) of the
// *absolute* address (B = 1, 2, 3 for 32B, 64B, 128B): the pattern repeats
// every swizzleRepeatBytes, which is why a swizzled buffer's base must be
// aligned to it. The operations:
//   - groupOnto(layout, shape): the shards, left to right, split into one
//     group per buffer dimension whose extents multiply to the dimension
//     (extent-1 shards go anywhere; shards are never split). A buffer index
//     (d_0, ..., d_n) then addresses group d with digit d_k. This is how a
//     `#tile.layout` describes a memref: the memref's shape is the logical
//     shape, the shards how it is laid out.
//   - canonicalize(): drops extent-1 shards and fuses neighbours whose
//     strides continue (outer.stride == inner.extent * inner.stride); every
//     address is kept, and the planner compares layouts in this form.
//   - Region: a box [offsets, offsets + sizes) of a grouped buffer. The TMA
//     planner (lib/TMA, Regions.cpp and Modes.cpp) slices both sides'
//     layouts by their regions and refines the two into common modes, runs
//     strided in both; the longest run that is stride 1 in both is what one
//     TMA box row can move (CuTe's coalesce of a composition).
//
// A worked example
// ----------------
// The demo's shared tile, an 8 x 256 f16 buffer in 64-element (128 B) chunks
// with the 128B swizzle: "(8, 4, 64) : (64, 512, 1), swizzle = 128B".
// groupOnto(l, {8, 256}) gives dimension 0 the shard 8:64 and dimension 1
// the shards 4:512, 64:1 (4 * 64 = 256). Then, at base address 0:
//     index   offset  bytes  swizzled address
//     (1, 0)      64    128  128 ^ (1 << 4) = 144   row 1 of an atom
//     (0, 64)    512   1024  1024                   the second chunk
//     (1, 65)    577   1154  1154 ^ (1 << 4) = 1170
//     (7, 255)  2047   4094  3982
// size() = cosize() = 2048: the layout is a bijection onto 4 KiB, and its
// canonical form is itself (no neighbours continue: 64 * 1 != 512).
//
// Invariants
// ----------
//   - verify(): extents > 0; strides >= 0, zero only on extent-1 shards.
//     Every other function assumes a verified layout.
//   - offsetOf's terms are each below cosize(): callers bound extents and
//     strides before building a layout from user values.
//   - canonicalize() and groupOnto() preserve offset(i) for every i.
//   - hasOverlap() is exact (two indices, one offset), not a heuristic; a
//     copy into an overlapping shared layout is rejected (`overlap`).
//   - The model (lib/TMA/HardwareModel.cpp) reads addresses through
//     GroupedLayout::byteAddressOf; the lowering emits the same formula as
//     IR in one place (emitGroupedByteOffset, lib/Conversion/TileToNVVM/
//     GroupedOffset.h, with SwizzleXor below), unit-tested against
//     byteAddressOf, so the two cannot drift apart silently; the GPU suite
//     compares them with the H200 as well.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_LAYOUT_LAYOUT_H
#define TILE_LAYOUT_LAYOUT_H

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tile {

/// The hardware XOR swizzle patterns (values match CUtensorMapSwizzle).
enum class Swizzle : uint8_t { None = 0, B32 = 1, B64 = 2, B128 = 3 };

/// Number of XORed bits: 0, 1, 2, 3.
int swizzleBits(Swizzle s);
/// Span of one swizzled row in bytes: 0 (none), 32, 64, 128.
int64_t swizzleSpanBytes(Swizzle s);
/// Bytes after which the XOR pattern repeats (= required base alignment):
/// 1 (none), 256, 512, 1024.
int64_t swizzleRepeatBytes(Swizzle s);
/// "32B" / "64B" / "128B" (and "none" for None).
const char *toString(Swizzle s);
/// Parses "32B", "64B", "128B" (and "none").
std::optional<Swizzle> parseSwizzle(std::string_view text);
/// The hardware's swizzle as a formula, for code that evaluates it in another
/// domain (the lowering emits it as IR): an absolute byte address `a` becomes
/// `a ^ (((a >> rowShift) & rowMask) << chunkShift)`, XORing the 16-byte
/// chunk index with the 128-byte row index.
struct SwizzleXor {
  int64_t rowShift;
  int64_t rowMask;
  int64_t chunkShift;
};
/// The formula of `s`, or nullopt for Swizzle::None.
std::optional<SwizzleXor> getSwizzleXor(Swizzle s);
/// Applies the swizzle to an absolute byte address.
int64_t applySwizzle(Swizzle s, int64_t byteAddress);

struct Shard {
  int64_t extent = 1;
  int64_t stride = 0;
  bool operator==(const Shard &o) const {
    return extent == o.extent && stride == o.stride;
  }
  bool operator!=(const Shard &o) const { return !(*this == o); }
};

/// A layout: shards listed outer to inner, an element offset, a swizzle.
/// Logical (flat) index i over the shards is split mixed-radix, innermost
/// shard last; offset(i) = elementOffset + sum(digit_k * stride_k).
class Layout {
public:
  Layout() = default;
  explicit Layout(std::vector<Shard> shards, Swizzle swizzle = Swizzle::None,
                  int64_t elementOffset = 0)
      : shardList(std::move(shards)), swz(swizzle), offset(elementOffset) {}

  /// Row-major layout of `shape` (one shard per dimension).
  static Layout rowMajor(const std::vector<int64_t> &shape,
                         Swizzle swizzle = Swizzle::None);
  /// One shard per dimension with the given strides (memref `strided<>`).
  static Layout strided(const std::vector<int64_t> &shape,
                        const std::vector<int64_t> &strides,
                        int64_t elementOffset = 0);

  const std::vector<Shard> &shards() const { return shardList; }
  Swizzle swizzle() const { return swz; }
  int64_t elementOffset() const { return offset; }
  size_t rank() const { return shardList.size(); }

  /// Product of extents (number of logical elements).
  int64_t size() const;
  /// 1 + largest element offset reached (relative to elementOffset), 0 when
  /// empty.
  int64_t cosize() const;

  /// Checks extents > 0 and strides >= 0 with zero only on extent-1 shards.
  /// Returns an error message naming the shard and values, or nullopt.
  std::optional<std::string> verify() const;
  /// True when two distinct logical indices map to the same element offset.
  bool hasOverlap() const;
  /// Checks that the swizzle can apply to elements of `elementBytes` bytes
  /// (the element size must divide 16). Error message or nullopt.
  std::optional<std::string> verifySwizzle(int64_t elementBytes) const;

  /// Element offset (unswizzled, including elementOffset) of flat index.
  int64_t offsetOf(int64_t flatIndex) const;
  /// Absolute byte address of flat index for a buffer at `baseByteAddress`,
  /// with the swizzle applied to the absolute address.
  int64_t byteAddressOf(int64_t flatIndex, int64_t elementBytes,
                        int64_t baseByteAddress = 0) const;

  /// Drops extent-1 shards and fuses neighbours (outer.stride ==
  /// inner.extent * inner.stride). Preserves all addresses.
  Layout canonicalize() const;

  bool operator==(const Layout &o) const {
    return shardList == o.shardList && swz == o.swz && offset == o.offset;
  }

  /// Contract syntax without the `#tile.layout<...>` wrapper:
  /// "(8, 4, 64) : (64, 512, 1), swizzle = 128B"; row-major layouts print
  /// in the short form "(8, 256)".
  std::string str() const;
  /// Parses the syntax `str()` prints (either form, optional swizzle).
  /// On failure returns nullopt and sets *error.
  static std::optional<Layout> parse(std::string_view text,
                                     std::string *error = nullptr);

private:
  std::vector<Shard> shardList;
  Swizzle swz = Swizzle::None;
  int64_t offset = 0;
};

/// A layout grouped onto a buffer shape: group d holds the shards of
/// dimension d (outer to inner; may be empty for size-1 dimensions).
struct GroupedLayout {
  std::vector<int64_t> shape;
  std::vector<std::vector<Shard>> groups;
  Swizzle swizzle = Swizzle::None;
  int64_t elementOffset = 0;

  size_t rank() const { return shape.size(); }
  /// Element offset of a multi-dimensional logical index (unswizzled).
  int64_t offsetOf(const std::vector<int64_t> &index) const;
  /// Absolute swizzled byte address of a multi-dimensional index.
  int64_t byteAddressOf(const std::vector<int64_t> &index, int64_t elementBytes,
                        int64_t baseByteAddress = 0) const;
  /// Flattened back to a Layout (groups concatenated).
  Layout flatten() const;
};

/// Groups the shards left to right onto `shape` so each group's extents
/// multiply to the dimension (extent-1 shards may go anywhere; size-1
/// dimensions may have empty groups). Shards are never split. On failure
/// returns nullopt and sets *error naming the shard extents and the shape.
std::optional<GroupedLayout> groupOnto(const Layout &layout,
                                       const std::vector<int64_t> &shape,
                                       std::string *error = nullptr);

/// The widest vector of a grouped buffer: the largest power of two v <=
/// maxElements such that every v elements along the last dimension that
/// start at a last index divisible by v lie at v consecutive element offsets
/// starting at a multiple of v (unswizzled offsets; a swizzle permutes
/// 16-byte chunks, so vectors of at most 16 aligned bytes stay whole). 1
/// when no two such elements are adjacent. This is CuTe's max_common_vector
/// of the layout against the row-major order of its shape.
int64_t vectorWidth(const GroupedLayout &layout, int64_t maxElements);

/// The widest vector both buffers take for the same indices: the smaller of
/// their vectorWidth (both are powers of two). A per-element copy between
/// them moves that many elements per access.
int64_t maxCommonVector(const GroupedLayout &a, const GroupedLayout &b,
                        int64_t maxElements);

/// A rectangular region of a grouped buffer: per-dimension start and size.
struct Region {
  std::vector<int64_t> offsets;
  std::vector<int64_t> sizes;
  int64_t numElements() const;
};

} // namespace tile

#endif // TILE_LAYOUT_LAYOUT_H
