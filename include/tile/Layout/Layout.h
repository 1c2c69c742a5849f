//===- Layout.h - Shard layouts with hardware swizzle -----------*- C++ -*-===//
//
// A layout maps a logical index space onto element offsets in memory. It is a
// list of shards (extent:stride, outer to inner), an element offset, and an
// optional hardware swizzle that XORs byte-address bits [4,4+B) with bits
// [7,7+B) of the *absolute* byte address.
//
// This library is pure C++ (no MLIR, no LLVM): the dialect's `#tile.layout`
// attribute, the TMA planner and the hardware model are all built on it.
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

/// A rectangular region of a grouped buffer: per-dimension start and size.
struct Region {
  std::vector<int64_t> offsets;
  std::vector<int64_t> sizes;
  int64_t numElements() const;
};

} // namespace tile

#endif // TILE_LAYOUT_LAYOUT_H
