//===- TileTransformOps.h - Transform dialect ops of the tile dialect -*- C++
//-*-===//

#ifndef TILE_TRANSFORMOPS_TILETRANSFORMOPS_H
#define TILE_TRANSFORMOPS_TILETRANSFORMOPS_H

#include "mlir/Dialect/Transform/IR/TransformDialect.h"
#include "mlir/Dialect/Transform/Interfaces/TransformInterfaces.h"
#include "mlir/IR/OpImplementation.h"

#define GET_OP_CLASSES
#include "tile/TransformOps/TileTransformOps.h.inc"

namespace mlir {
class DialectRegistry;
namespace tile {
/// Adds the tile dialect's transform ops to the transform dialect.
void registerTransformDialectExtension(DialectRegistry &registry);
} // namespace tile
} // namespace mlir

#endif // TILE_TRANSFORMOPS_TILETRANSFORMOPS_H
