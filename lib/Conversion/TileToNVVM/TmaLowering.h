//===- TmaLowering.h - cp.async.bulk.tensor emission ------------*- C++ -*-===//

#ifndef TILE_CONVERSION_TILETONVVM_TMALOWERING_H
#define TILE_CONVERSION_TILETONVVM_TMALOWERING_H

#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/Transforms/DialectConversion.h"
#include "tile/Dialect/Tile/IR/TileOps.h"

namespace mlir::tile {

class TmaMatch;

/// The address of `op`'s tensor map: the kernel argument tile-tensor-map-abi
/// added (its `kTensorMapArgAttr`), cast to a generic pointer (fixed up after
/// the kernel becomes an llvm.func). Fails (a match failure) where the ABI
/// pass has not run.
FailureOr<Value> getTensorMapPtr(Operation *op,
                                 ConversionPatternRewriter &rewriter);

/// Replaces `op` with one `cp.async.bulk.tensor` per planned issue.
LogicalResult lowerTmaCopy(CopyAsyncOp op, const TmaMatch &match,
                           ConversionPatternRewriter &rewriter,
                           const LLVMTypeConverter &converter);

} // namespace mlir::tile

#endif // TILE_CONVERSION_TILETONVVM_TMALOWERING_H
