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

#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/Transforms/DialectConversion.h"
#include "tile/TMA/ElementType.h"
#include <optional>

namespace mlir::tile {

/// One side of a copy: a converted buffer (bare pointer or memref
/// descriptor) and a region of it.
struct ElementwiseSide {
  Value converted;
  MemRefType type;
  SmallVector<OpFoldResult> offsets;
  SmallVector<int64_t> sizes;
  /// Proven alignment in bytes of a `#tile.layout` buffer's start (0 when
  /// unknown, e.g. a global buffer); strided buffers are checked at run time.
  int64_t baseAlignment = 0;
};

/// The destination and source sides of a `tile.copy_async` or `tile.copy`
/// being converted (buffers remapped to their converted values).
/// Alignment of a `#tile.layout` shared buffer's start (0 otherwise).
int64_t getTileBufferAlignment(Value buffer);

template <typename CopyOpT>
std::pair<ElementwiseSide, ElementwiseSide>
getElementwiseSides(CopyOpT copy, ConversionPatternRewriter &rewriter) {
  ElementwiseSide dst{rewriter.getRemappedValue(copy.getDst()),
                      copy.getDst().getType(), copy.getMixedDstOffsets(),
                      SmallVector<int64_t>(copy.getDstSizes()),
                      getTileBufferAlignment(copy.getDst())};
  ElementwiseSide src{rewriter.getRemappedValue(copy.getSrc()),
                      copy.getSrc().getType(), copy.getMixedSrcOffsets(),
                      SmallVector<int64_t>(copy.getSrcSizes()),
                      getTileBufferAlignment(copy.getSrc())};
  return {std::move(dst), std::move(src)};
}

struct ElementwiseOptions {
  /// Loads from global memory: out-of-bounds elements get the fill value.
  bool fillOutOfBounds = false;
  bool nanFill = false;
  /// Stores that combine with the destination (atomics).
  ::tile::tma::ReduceKind reduce = ::tile::tma::ReduceKind::None;
  /// An i32 CTA rank in the cluster: the (shared) destination's element
  /// addresses are mapped into that CTA's shared memory (`mapa`), so the
  /// stores land in the peer's buffer at the same offsets (null: this CTA).
  Value dstCta;
};

/// Emits `for e = first; e < count; e += step` copying element e of `src`
/// to element e of `dst`. Where both sides hold runs of 16 (else 8, else 4)
/// contiguous, aligned bytes, the loop moves such vectors instead of single
/// elements (`first`/`step` then count vectors); strided buffers whose
/// pointer alignment is only known at run time get both loops behind a check.
void emitElementwiseCopy(OpBuilder &b, Location loc,
                         const LLVMTypeConverter &converter,
                         const ElementwiseSide &dst, const ElementwiseSide &src,
                         Value first, Value step,
                         const ElementwiseOptions &options);

} // namespace mlir::tile

#endif // TILE_CONVERSION_TILETONVVM_ELEMENTWISECOPY_H
