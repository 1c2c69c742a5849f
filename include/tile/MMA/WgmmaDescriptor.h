//===- WgmmaDescriptor.h - sm_90 wgmma shared-memory descriptors -*- C++
//-*-===//
//
// The 64-bit matrix descriptor that `wgmma.mma_async` reads for an operand in
// shared memory (PTX ISA, "Matrix Descriptor Format"):
//
//   bits  0-13  start address >> 4
//   bits 16-29  leading dimension byte offset (LBO) >> 4
//   bits 32-45  stride dimension byte offset (SBO) >> 4
//   bits 49-51  matrix base offset
//   bits 62-63  swizzle mode: 0 interleave (none), 1 128B, 2 64B, 3 32B
//
// The operand is a `rows x k` block of a 2-D shared buffer whose dimension 0
// is M (matrix A) or N (matrix B) and dimension 1 is K, K-major (K
// contiguous), one wgmma k-step wide (k x element bytes = 32 B). In a
// swizzled K-major layout of span S (32, 64 or 128 B) the block is made of
// atoms of 8 rows x S bytes: row m of the block is S bytes after row m - 1
// inside an atom, atoms follow each other SBO bytes apart along M/N, and a
// k-step inside an S-byte row moves the start address by 32 B. The hardware
// then applies the swizzle to the absolute shared address, as TMA does.
//
// An MN-major operand (wgmma's transposed A or B, 16-bit elements only) is a
// block of a K x (M or N) buffer with M/N contiguous: its atoms are 8 K-rows
// of one swizzle span along M/N, a span's worth of M/N elements after
// another LBO bytes apart, and 8-row groups along K SBO bytes apart.
//
// planWgmmaDescriptor derives the fields from a `#tile.layout` and checks
// that the descriptor reaches exactly the layout's addresses; only the
// swizzled modes are planned. wgmmaOperandByteAddress is the model
// of the PTX definition, written independently of the planner, that the
// property test checks plans against.
//
// Pure C++ on top of the layout library (no MLIR).
//
//===----------------------------------------------------------------------===//

#ifndef TILE_MMA_WGMMADESCRIPTOR_H
#define TILE_MMA_WGMMADESCRIPTOR_H

#include "tile/Layout/Layout.h"
#include "tile/Support/Decline.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tile::mma {

/// The descriptor's swizzle field (values as encoded in bits 62-63).
enum class WgmmaSwizzleMode : uint8_t {
  Interleave = 0,
  B128 = 1,
  B64 = 2,
  B32 = 3
};

/// The descriptor mode of a layout swizzle (None -> Interleave).
WgmmaSwizzleMode toWgmmaSwizzleMode(Swizzle swizzle);

/// Which dimension of the operand is contiguous: K (the default, any wgmma
/// type) or M/N (the transposed operand; f16 and bf16 only).
enum class WgmmaMajor : uint8_t { K = 0, MN = 1 };

/// One wgmma k-step is 32 bytes of K.
constexpr int64_t kWgmmaKStepBytes = 32;
/// Rows of one core matrix / swizzle atom.
constexpr int64_t kWgmmaAtomRows = 8;
/// Largest LBO, SBO and start address the 14-bit fields hold (2^18 B).
constexpr int64_t kWgmmaFieldLimit = int64_t(1) << 18;

/// The descriptor's fields in bytes. For a plan, `startByte` is relative to
/// the buffer's first byte; for a decoded descriptor it is the absolute
/// shared address.
struct WgmmaDescriptorFields {
  int64_t startByte = 0;
  int64_t leadingByteOffset = 0;
  int64_t strideByteOffset = 0;
  int64_t baseOffset = 0;
  WgmmaSwizzleMode swizzleMode = WgmmaSwizzleMode::Interleave;

  bool operator==(const WgmmaDescriptorFields &o) const {
    return startByte == o.startByte &&
           leadingByteOffset == o.leadingByteOffset &&
           strideByteOffset == o.strideByteOffset &&
           baseOffset == o.baseOffset && swizzleMode == o.swizzleMode;
  }
};

/// The 64-bit descriptor of `fields` for a buffer starting at shared byte
/// `bufferByteAddress`: each byte field shifted right by 4 and masked to 14
/// bits.
uint64_t encodeWgmmaDescriptor(const WgmmaDescriptorFields &fields,
                               int64_t bufferByteAddress);
/// The fields of a 64-bit descriptor (startByte absolute).
WgmmaDescriptorFields decodeWgmmaDescriptor(uint64_t descriptor);

/// A planner answer: the fields, or why not.
struct WgmmaDescriptorPlan {
  std::optional<WgmmaDescriptorFields> fields;
  std::optional<Decline> decline;
  bool accepted() const { return fields.has_value(); }
};

/// Plans the descriptor of the `rows x k` block starting at element
/// [row, col] of a 2-D shared buffer of `shape` with `layout` (grouped onto
/// the shape) and `elementBytes`-byte elements, whose first byte is a
/// multiple of `baseAlignment`. K-major: dimension 0 is M/N (`rows` of it)
/// and dimension 1 is K (`k` of it); MN-major: dimension 0 is K (`k` of it)
/// and dimension 1 is M/N (`rows` of it). Declines (rule ids of
/// RuleIds.def):
///   wgmma-shape   rank, element size, rows, k
///   smem-bounds   the block leaves the buffer
///   layout        the layout does not group onto the shape
///   wgmma-layout  not a canonical layout of a supported swizzle and major
///   wgmma-align   base below the swizzle repeat; start not in the first
///                 row of an atom, not on a k-step (K-major) or not on a
///                 swizzle span (MN-major)
WgmmaDescriptorPlan planWgmmaDescriptor(const Layout &layout,
                                        const std::vector<int64_t> &shape,
                                        int64_t elementBytes, int64_t row,
                                        int64_t col, int64_t rows, int64_t k,
                                        int64_t baseAlignment,
                                        WgmmaMajor major = WgmmaMajor::K);

/// A start index: a constant, or a run-time value known to be a multiple of
/// `divisor` (and, being an index into the buffer, non-negative).
struct WgmmaStartIndex {
  std::optional<int64_t> constant;
  int64_t divisor = 1;
  static WgmmaStartIndex known(int64_t value) { return {value, 1}; }
  static WgmmaStartIndex multipleOf(int64_t divisor) {
    return {std::nullopt, divisor};
  }
};

/// Plans every block the starts may name: K-major, a dynamic row must be a
/// multiple of 8 and a dynamic column a multiple of one k-step; MN-major, a
/// dynamic row (along K) a multiple of 8 and a dynamic column a multiple of
/// one swizzle span of elements; then every candidate
/// start inside the buffer must plan, with one LBO, SBO and swizzle mode
/// (returned, with the start of the first candidate). The first decline
/// otherwise.
WgmmaDescriptorPlan planWgmmaDescriptorStarts(const Layout &layout,
                                              const std::vector<int64_t> &shape,
                                              int64_t elementBytes,
                                              WgmmaStartIndex row,
                                              WgmmaStartIndex col, int64_t rows,
                                              int64_t k, int64_t baseAlignment,
                                              WgmmaMajor major = WgmmaMajor::K);

/// Where the hardware reads element (m, kk) of an operand.
struct WgmmaOperandAddress {
  /// Shared byte address before the swizzle.
  int64_t linear = 0;
  /// After the swizzle of the descriptor's mode (what is read).
  int64_t swizzled = 0;
};

/// The model of the PTX definition: the byte address of element (m, kk)
/// (m along M/N, kk along K) of the operand that `fields` describe, with
/// `fields.startByte` an absolute shared address. K-major, swizzled: atoms
/// of 8 rows of the swizzle span, SBO apart; interleave: 8x16 B core
/// matrices, LBO apart along K and SBO apart along M/N. MN-major, swizzled:
/// K-rows of the span 8 to an atom, 8-row groups SBO apart along K, spans
/// LBO apart along M/N; interleave: 16 B of M/N per K-row, K-rows 16 B
/// apart, 8-row groups LBO apart along K and 16 B groups SBO apart along
/// M/N. nullopt for a non-zero base offset, which the model does not cover.
std::optional<WgmmaOperandAddress>
wgmmaOperandByteAddress(const WgmmaDescriptorFields &fields, int64_t m,
                        int64_t kk, int64_t elementBytes,
                        WgmmaMajor major = WgmmaMajor::K);

} // namespace tile::mma

#endif // TILE_MMA_WGMMADESCRIPTOR_H
