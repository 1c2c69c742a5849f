//===- Im2col.h - TMA im2col loads: plan, rules and model -------*- C++ -*-===//
//
// A convolution loads its input patches through the TMA's im2col mode: the
// global tensor is channels-last ([N, W, C], [N, H, W, C] or
// [N, D, H, W, C]); one instruction loads `pixelsPerColumn` pixels of
// `channelsPerPixel` channels each into a dense [pixels, channels] tile of
// shared memory. The pixels are the base positions of the convolution
// window, walked W fastest with the traversal (convolution) strides inside
// the bounding box [lower, size - 1 + upper] of each spatial dimension,
// continuing into the next row, plane and image; the instruction's offsets
// (the filter tap) are added to every base position. Elements outside the
// tensor are filled.
//
// Lists in requests are in memref order (outermost first); the map lists the
// driver's order (innermost first), as cuTensorMapEncodeIm2col takes them.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_TMA_IM2COL_H
#define TILE_TMA_IM2COL_H

#include "tile/Layout/Layout.h"
#include "tile/Support/Rules.h"
#include "tile/TMA/ElementType.h"
#include "tile/TMA/Limits.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tile::tma {

struct Im2colRequest {
  ElementType elementType;
  /// The global tensor, memref order [N, spatial..., C]: sizes (nullopt when
  /// known only at run time) and strides in elements (nullopt likewise).
  std::vector<std::optional<int64_t>> globalSizes;
  std::vector<std::optional<int64_t>> globalStrides;
  /// Per spatial dimension (memref order): the bounding box corners and the
  /// traversal strides.
  std::vector<int64_t> lowerCorner;
  std::vector<int64_t> upperCorner;
  std::vector<int64_t> traversalStrides;
  /// The shared tile: its shape ([pixels, channels]) and layout.
  std::vector<int64_t> sharedShape;
  Layout sharedLayout;
  /// Bytes; the alignment of the shared buffer's start.
  int64_t sharedBaseAlignment = limits::kArenaAlignmentBytes;
  OobFill oobFill = OobFill::Zero;
  /// The start coordinates (memref order, rank values) and the offsets
  /// (memref order, one per spatial dimension) where they are constants.
  std::vector<std::optional<int64_t>> start;
  std::vector<std::optional<int64_t>> offsets;
};

/// cuTensorMapEncodeIm2col's arguments, lists innermost first. Run-time
/// sizes and strides are 0 (the host reads them from the buffer).
struct Im2colMapDesc {
  TensorDataType dataType = TensorDataType::U8;
  unsigned rank = 0;
  std::vector<uint64_t> globalDim;
  std::vector<uint64_t> globalStridesBytes; // rank - 1 values (dims 1..)
  std::vector<int32_t> lowerCorner;         // rank - 2 values (dims 1..)
  std::vector<int32_t> upperCorner;
  uint32_t channelsPerPixel = 0;
  uint32_t pixelsPerColumn = 0;
  std::vector<uint32_t> elementStrides; // rank values
  Swizzle swizzle = Swizzle::None;
  int l2Promotion = 2;
  int oobFill = 0;
  int64_t elementBytes = 1;
  bool operator==(const Im2colMapDesc &o) const {
    return dataType == o.dataType && rank == o.rank &&
           globalDim == o.globalDim &&
           globalStridesBytes == o.globalStridesBytes &&
           lowerCorner == o.lowerCorner && upperCorner == o.upperCorner &&
           channelsPerPixel == o.channelsPerPixel &&
           pixelsPerColumn == o.pixelsPerColumn &&
           elementStrides == o.elementStrides && swizzle == o.swizzle &&
           l2Promotion == o.l2Promotion && oobFill == o.oobFill &&
           elementBytes == o.elementBytes;
  }
};

struct Im2colPlan {
  Im2colMapDesc map;
  /// Transaction bytes of one instruction (pixels x channels x bytes).
  int64_t bytes = 0;
};

/// A rule an im2col request breaks.
struct Im2colError {
  RuleId rule = RuleId::Im2colRank;
  /// "<rule-id>: <values>".
  std::string message;
};

/// Corners of a rank-`rank` map lie in [-limit, limit - 1].
int64_t im2colCornerLimit(unsigned rank);
/// Offsets of a rank-`rank` map lie in [0, limit - 1] (the instruction keeps
/// only that many bits of each).
int64_t im2colOffsetLimit(unsigned rank);

/// Checks every rule and returns the plan, or the first rule broken.
std::optional<Im2colPlan> planIm2col(const Im2colRequest &request,
                                     Im2colError *error);

/// One element of a loaded tile: its global coordinates (memref order) or
/// fill.
struct Im2colSource {
  bool fill = false;
  std::vector<int64_t> coords;
  bool operator==(const Im2colSource &o) const {
    return fill == o.fill && (fill || coords == o.coords);
  }
};

/// The hardware model of one instruction: which global element lands in
/// each (pixel, channel) of the tile, pixel-major. `start` and `offsets` are
/// in memref order; runtime sizes of the map must be filled in. Returns
/// nullopt and sets *trap when the instruction traps (a start outside the
/// bounding box).
std::optional<std::vector<Im2colSource>>
modelIm2col(const Im2colMapDesc &map, const std::vector<int64_t> &start,
            const std::vector<int64_t> &offsets, std::string *trap);

/// Shared byte offset (from the tile's start, swizzle applied) where the
/// instruction puts (pixel, channel).
int64_t im2colSharedByte(const Im2colMapDesc &map, int64_t pixel,
                         int64_t channel);

} // namespace tile::tma

#endif // TILE_TMA_IM2COL_H
