//===- StreamWorkspaceOp.cpp - A launch's scratch kept per stream ---------===//
//
// The verifier of tile.stream_workspace (stream-workspace): host code asks the
// runtime for a buffer of `size` elements, which it hands back as a
// one-dimensional global memref of run-time size.
//
//===----------------------------------------------------------------------===//

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "tile/Dialect/Tile/IR/RuleDiagnostic.h"
#include "tile/Dialect/Tile/IR/TileOps.h"
#include "tile/Dialect/Tile/IR/TileTypeUtils.h"

using namespace mlir;
using namespace mlir::tile;
using ::tile::RuleId;

LogicalResult StreamWorkspaceOp::verify() {
  auto fail = [&]() { return emitRuleError(*this, RuleId::StreamWorkspace); };
  if (getName().empty())
    return fail() << "the workspace's name is empty; the runtime keeps one "
                     "buffer per name and stream";
  auto type = dyn_cast<MemRefType>(getBuffer().getType());
  if (!type || type.getRank() != 1 || !type.isDynamicDim(0))
    return fail() << "the workspace is " << getBuffer().getType()
                  << "; a stream workspace is one-dimensional, memref<?xT>";
  if (!type.getLayout().isIdentity())
    return fail() << "the workspace " << type
                  << " has a layout; a stream workspace is contiguous";
  if (getMemorySpaceKind(type) != MemorySpaceKind::Global)
    return fail() << "the workspace " << type
                  << " is not in global memory; the runtime allocates "
                     "device memory";
  Type element = type.getElementType();
  if (!element.isIntOrFloat() || element.getIntOrFloatBitWidth() % 8 != 0)
    return fail() << "the workspace's element " << element
                  << " is not a whole number of bytes";
  if ((*this)->getParentOfType<gpu::GPUModuleOp>() ||
      (*this)->getParentOfType<gpu::LaunchOp>())
    return fail() << "tile.stream_workspace sits in device code; the host "
                     "asks for the buffer before the launches that use it";
  return success();
}
