//===- Limits.h - The TMA's limits, in one place ----------------*- C++ -*-===//
//
// Every limit the TMA's descriptors and instructions impose (TMA_FACTS.md
// sections 1 and 2, the CUDA driver's cuTensorMapEncode* documentation, and
// what the H200 showed), and the arena alignment the lowering guarantees.
// The planner's rules, the run-time guards, the box chain, gather4, im2col,
// the runtime's validation and the arena lowering read them from here; the
// hardware model (HardwareModel.cpp) keeps literals of its own, so that a
// wrong limit here is caught by the model, and a test
// (unittests/TMA/LimitsTest.cpp) checks that the two agree.
//
// Header only and free of MLIR: the runtime includes it too.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_TMA_LIMITS_H
#define TILE_TMA_LIMITS_H

#include <cstdint>

namespace tile::tma::limits {

/// Tensor-map dimensions: 1 to 5.
inline constexpr int64_t kMaxRank = 5;
/// Elements of one box dimension: 1 to 256.
inline constexpr int64_t kMaxBoxDim = 256;
/// The TMA's granule: the inner box row, global strides and the global base
/// are multiples of 16 bytes.
inline constexpr int64_t kGranuleBytes = 16;
/// Elements of one global dimension: 1 to 2^32.
inline constexpr int64_t kMaxGlobalDim = int64_t(1) << 32;
/// Global strides in bytes lie below 2^40.
inline constexpr int64_t kGlobalStrideLimitBytes = int64_t(1) << 40;
/// Element (traversal) strides: 1 to 8.
inline constexpr int64_t kMaxElementStride = 8;
/// A TMA's shared-memory destination or source is 128-byte aligned.
inline constexpr int64_t kSharedAlignmentBytes = 128;
/// Bytes of a tensor map (a CUtensorMap, tensormap.replace's .b1024
/// object). Device-map slots and shared-memory stages hold one each, on a
/// boundary of the same size.
inline constexpr int64_t kTensorMapBytes = 128;
/// The alignment of the dynamic shared-memory arena the lowering declares:
/// the base every `tile.arena_view` offset is counted from, and the shared
/// alignment assumed for a buffer the IR does not show the origin of.
inline constexpr int64_t kArenaAlignmentBytes = 1024;

/// Instructions of one plan: a plan needing more declines with
/// `issue-count` (a compile-time bound, not a hardware limit).
inline constexpr int64_t kMaxIssues = 1024;

/// im2col: channels per pixel (the box's inner extent), at most 256.
inline constexpr int64_t kMaxIm2colChannels = 256;
/// im2col: pixels per column, at most 1024.
inline constexpr int64_t kMaxIm2colPixels = 1024;

/// im2col: the corners' offsets share 16 bits in the descriptor: one 16-bit
/// offset at rank 3, two 8-bit ones at rank 4, three 5-bit ones at rank 5.
/// A corner lies in [-limit, limit - 1] ([H200] rank 4: -129 and 128 are
/// rejected, -128 accepted).
inline constexpr int64_t im2colCornerLimit(int64_t rank) {
  return rank == 3 ? 32768 : rank == 4 ? 128 : 16;
}

/// im2col: the instruction's offsets are 16 bits at rank 3, 8 at rank 4 and
/// 5 at rank 5 each; an offset lies in [0, limit - 1] ([H200] rank 4: 257
/// loads as 1; rank 5: 33 spills into the next offset).
inline constexpr int64_t im2colOffsetLimit(int64_t rank) {
  return rank == 3 ? 65536 : rank == 4 ? 256 : 32;
}

} // namespace tile::tma::limits

#endif // TILE_TMA_LIMITS_H
