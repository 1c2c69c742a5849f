//===- ElementwiseCopy.h - Per-element copy loops ---------------*- C++ -*-===//
//
// The code both non-TMA lowerings share: a loop over the elements of two
// regions (in row-major correspondence) in which each thread moves its share
// of elements with ordinary loads and stores, addressing `#tile.layout`
// buffers through their shards and swizzle.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_CONVERSION_TILETONVVM_ELEMENTWISECOPY_H
#define TILE_CONVERSION_TILETONVVM_ELEMENTWISECOPY_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/Transforms/DialectConversion.h"
#include "tile/TMA/ElementType.h"
#include <optional>

namespace mlir::tile {

class TileTypeConverter;

/// One side of a copy: a converted buffer (bare pointer or memref
/// descriptor) and a region of it.
struct ElementwiseSide {
  Value converted;
  MemRefType type;
  SmallVector<OpFoldResult> offsets;
  SmallVector<int64_t> sizes;
};

/// The destination and source sides of a `tile.copy_async` or `tile.copy`
/// being converted (buffers remapped to their converted values).
template <typename CopyOpT>
std::pair<ElementwiseSide, ElementwiseSide>
getElementwiseSides(CopyOpT copy, ConversionPatternRewriter &rewriter) {
  ElementwiseSide dst{rewriter.getRemappedValue(copy.getDst()),
                      copy.getDst().getType(), copy.getMixedDstOffsets(),
                      SmallVector<int64_t>(copy.getDstSizes())};
  ElementwiseSide src{rewriter.getRemappedValue(copy.getSrc()),
                      copy.getSrc().getType(), copy.getMixedSrcOffsets(),
                      SmallVector<int64_t>(copy.getSrcSizes())};
  return {std::move(dst), std::move(src)};
}

struct ElementwiseOptions {
  /// Loads from global memory: out-of-bounds elements get the fill value.
  bool fillOutOfBounds = false;
  bool nanFill = false;
  /// Stores that combine with the destination (atomics).
  ::tile::tma::ReduceKind reduce = ::tile::tma::ReduceKind::None;
};

/// Emits `for e = first; e < count; e += step` copying element e of `src`
/// to element e of `dst`.
void emitElementwiseCopy(OpBuilder &b, Location loc,
                         const TileTypeConverter &converter,
                         const ElementwiseSide &dst, const ElementwiseSide &src,
                         Value first, Value step,
                         const ElementwiseOptions &options);

/// Whether the element-wise path can apply `reduce` to `elementType`
/// (integer atomics, float adds); the reason otherwise.
std::optional<std::string>
checkElementwiseReduce(::tile::tma::ReduceKind reduce, Type elementType);

} // namespace mlir::tile

#endif // TILE_CONVERSION_TILETONVVM_ELEMENTWISECOPY_H
