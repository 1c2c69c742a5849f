//===- GroupedOffset.h - Grouped-layout byte offsets as IR ------*- C++ -*-===//
//
// The one place the lowering turns a `#tile.layout` index into a byte offset:
// the per-element accesses (ElementwiseCopy.cpp, LayoutAccessLowering.cpp,
// through emitLayoutElementAddress) and the wgmma descriptors
// (WgmmaDescriptorLowering.cpp) all call it, and TileConversionTests
// GroupedOffsetTest checks it against ::tile::GroupedLayout::byteAddressOf.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_CONVERSION_TILETONVVM_GROUPEDOFFSET_H
#define TILE_CONVERSION_TILETONVVM_GROUPEDOFFSET_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpDefinition.h"
#include "tile/Layout/Layout.h"

namespace mlir::tile {

/// The byte offset of the element at `indices` of a buffer laid out by
/// `layout`, from the buffer's start: `layout.byteAddressOf(indices,
/// elementBytes, 0)`. Each index splits mixed-radix over its dimension's
/// shards (innermost last, the outermost taking the quotient), the digits
/// times the strides are summed with the element offset and scaled to bytes,
/// and the layout's swizzle, if any, XORs the result.
///
/// Preconditions:
///   - `indices` holds one i64 or index value per dimension of `layout`;
///   - every index lies in [0, shape[d]) (the arithmetic is unsigned, and an
///     index outside its dimension gives an unspecified offset);
///   - with a swizzle, the buffer starts on the swizzle's repeat
///     (::tile::swizzleRepeatBytes), so that swizzling the offset is
///     swizzling the absolute address. A caller that wants the unswizzled
///     offset passes the layout with Swizzle::None.
///
/// Constant indices fold: their terms are the layout library's own offsets
/// (GroupedLayout::offsetOf), and when every index is a constant nothing is
/// emitted and the result is the offset as an i64 IntegerAttr. Otherwise it
/// is an i64 value: the run-time terms, then the constant bytes, then the
/// swizzle.
OpFoldResult emitGroupedByteOffset(OpBuilder &b, Location loc,
                                   const ::tile::GroupedLayout &layout,
                                   int64_t elementBytes, ValueRange indices);

} // namespace mlir::tile

#endif // TILE_CONVERSION_TILETONVVM_GROUPEDOFFSET_H
