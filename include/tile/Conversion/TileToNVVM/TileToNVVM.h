//===- TileToNVVM.h - Lowering tile ops to NVVM -----------------*- C++ -*-===//
//
// The entry points for compilers that lower the tile dialect inside their
// own conversion to LLVM: the patterns, and the lowerings of the built-in
// copy variants they dispatch to.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_CONVERSION_TILETONVVM_TILETONVVM_H
#define TILE_CONVERSION_TILETONVVM_TILETONVVM_H

#include "mlir/Support/LLVM.h"

namespace mlir {
class DialectRegistry;
class LLVMTypeConverter;
class Operation;
class RewritePatternSet;
namespace tile {

/// What convert-tile-to-nvvm does to `root`: recalls every copy's and wgmma
/// descriptor's recorded decision (each that cannot be lowered gets its
/// diagnostic, and then nothing is rewritten), lowers the tile ops, and with
/// `prefetchTensorMaps` prefetches each tensor map once per CTA. The fused
/// kernel lowering calls it too.
LogicalResult lowerTileOps(Operation *root, bool prefetchTensorMaps);

/// Adds the type conversions of the tile lowering to `converter` (a memref
/// with a `#tile.layout` becomes a bare `!llvm.ptr` in its NVVM address
/// space, an mbarrier group the descriptor upstream's nvgpu lowering gives
/// it) and the patterns that lower every tile op: the copies through the
/// variant their recorded decision names (run tile-plan-copies and, for
/// tensor maps, tile-tensor-map-abi first), the arena views, stages and bulk
/// groups. `#gpu.address_space` memory spaces map to NVVM's.
void populateTileToNVVMConversionPatterns(LLVMTypeConverter &converter,
                                          RewritePatternSet &patterns);

/// Adds the built-in copy variants (registerBuiltinCopyVariants,
/// tile/Dispatch/BuiltinVariants.h) and attaches their lowerings, for every
/// context `registry` is appended to, when its tile dialect loads. The
/// tile-to-nvvm pass declares it; a compiler that runs the patterns inside
/// its own conversion registers it with its dialects.
void registerBuiltinCopyLowerings(DialectRegistry &registry);

} // namespace tile
} // namespace mlir

#endif // TILE_CONVERSION_TILETONVVM_TILETONVVM_H
