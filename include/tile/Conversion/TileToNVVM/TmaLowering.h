//===- TmaLowering.h - cp.async.bulk.tensor emission ------------*- C++ -*-===//

#ifndef TILE_CONVERSION_TILETONVVM_TMALOWERING_H
#define TILE_CONVERSION_TILETONVVM_TMALOWERING_H

#include "mlir/Transforms/DialectConversion.h"
#include "tile/Dialect/Tile/IR/TileOps.h"

namespace mlir::tile {

class TmaMatch;

/// Name of the discardable attribute the tensor-map ABI pass puts on each
/// TMA copy: the index of the kernel argument that holds its tensor map.
constexpr StringLiteral kTensorMapArgAttr = "tile.tensor_map_arg";
/// Marks the cast that takes a tensor-map argument's address; the kernel ABI
/// finalization turns the argument into a grid-constant byval pointer.
constexpr StringLiteral kTensorMapAddressAttr = "tile.tensor_map_address";

/// Replaces `op` with one `cp.async.bulk.tensor` per planned issue.
LogicalResult lowerTmaCopy(CopyAsyncOp op, const TmaMatch &match,
                           ConversionPatternRewriter &rewriter,
                           const TypeConverter &typeConverter);

} // namespace mlir::tile

#endif // TILE_CONVERSION_TILETONVVM_TMALOWERING_H
