//===- Draw.h - SVG pictures of layouts and TMA copy plans ------*- C++ -*-===//
//
// Pictures of where elements land. A shared buffer is drawn as a grid of its
// physical bytes: 128-byte rows of eight 16-byte chunks, every element a cell
// at the bytes it occupies (swizzle applied), coloured by its logical index
// along the innermost dimension and each chunk labelled with the logical
// index of its first element, so the swizzle's chunk permutation shows as a
// permutation of colours. A copy's picture adds each TMA instruction's box
// outlined in its own colour with its coordinates, out-of-bounds elements
// hatched, the global region within the tensor beside it, and the decline
// reasons of copies the TMA does not take.
//
// Where elements land and which box covers what comes from the hardware
// model (tile/TMA/HardwareModel.h) and the layout library; nothing is
// re-derived here. Pure C++ (no MLIR).
//
// Every element cell carries machine-readable attributes for tests and
// tools: data-element (its index in the shared buffer), data-chunk (byte
// offset from the buffer's start / 16), and in a copy data-global (its
// tensor index), data-box (the instruction that moves it) and data-oob
// (filled or clipped). Each box outline carries data-box, data-coords,
// data-smem and data-chunks (the chunks it covers).
//
//===----------------------------------------------------------------------===//

#ifndef TILE_DRAW_DRAW_H
#define TILE_DRAW_DRAW_H

#include "tile/TMA/Plan.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace tile::draw {

/// Largest buffer (bytes) whose grid is drawn in full; larger ones show their
/// first kMaxDrawnBytes and say so.
constexpr int64_t kMaxDrawnBytes = 32 * 1024;

/// The picture of a buffer of `shape` (the shard extents when empty) laid
/// out by `layout` (grouped onto the shape as a memref type does), elements
/// of `elementBytes` bytes, at absolute byte address `baseAddress` (the
/// swizzle applies to absolute addresses). On failure returns nullopt and
/// sets *error (a shape the layout does not fit, an element size the
/// swizzle cannot take).
std::optional<std::string> drawLayout(const Layout &layout,
                                      const std::vector<int64_t> &shape,
                                      int64_t elementBytes,
                                      int64_t baseAddress = 0,
                                      std::string *error = nullptr);

/// What a copy's picture shows.
struct CopyPicture {
  /// First line (the copy's location).
  std::string title;
  /// "g2s"/"s2g" and the selected variant ("" when none applies).
  std::string direction;
  std::string selected;
  /// Variants declined before the selected one, with their reasons.
  std::vector<std::pair<std::string, std::string>> declined;
  /// The planner request, when the copy could be described as one.
  std::optional<tma::CopyRequest> request;
  /// Why there is no request ("<rule-id>: <values>").
  std::string requestError;
  /// The TMA plan, when the tma variant was selected.
  std::optional<tma::TmaPlan> plan;
  /// Values of the request's symbols (dynamic offsets); missing ones are 0.
  std::vector<int64_t> symbolValues;
};

/// The picture of one copy. Never fails: what cannot be drawn (a buffer too
/// large, a plan the model rejects) is said in the picture.
std::string drawCopy(const CopyPicture &picture);

/// Escapes `&<>"'` for XML text and attribute values.
std::string escapeXml(const std::string &text);

} // namespace tile::draw

#endif // TILE_DRAW_DRAW_H
