//===- TileTransformOps.cpp - Transform dialect ops of the tile dialect ---===//
//
// Debian's libMLIR is built with NDEBUG and so lacks the assertion-only
// checkImplementsTransformOpInterface, which the transform dialect's op
// registration calls inline when NDEBUG is not set (the sanitizer build drops
// it). This file registers its ops the way that library was built.
//
//===----------------------------------------------------------------------===//

#ifndef NDEBUG
#define NDEBUG
#endif

#include "tile/TransformOps/TileTransformOps.h"
#include "mlir/Dialect/Transform/IR/TransformDialect.h"
#include "mlir/Dialect/Transform/IR/TransformOps.h"
#include "tile/Dialect/Tile/IR/TileDialect.h"
#include "tile/Dialect/Tile/IR/TileOps.h"
#include "tile/Transforms/UpstreamCopies.h"

using namespace mlir;
using namespace mlir::tile;

DiagnosedSilenceableFailure
ConvertUpstreamCopyOp::applyToOne(transform::TransformRewriter &rewriter,
                                  Operation *target,
                                  transform::ApplyToEachResultList &results,
                                  transform::TransformState &state) {
  if (!isUpstreamCopy(target))
    return emitDefiniteFailure()
           << "expected a memref.copy or a linalg.copy of buffers, got "
           << target->getName();
  // The converter's analysis is per kernel body and cheap to rebuild; one
  // per target keeps the op free of state between applications.
  UpstreamCopyConverter converter;
  std::string why;
  rewriter.setInsertionPoint(target);
  Operation *original = target;
  FailureOr<CopyOp> copy = converter.convert(target, why);
  if (failed(copy)) {
    if (why.empty())
      why = "it is not inside a GPU kernel (a gpu.launch body or a kernel "
            "gpu.func), so no threads share it";
    DiagnosedSilenceableFailure diag =
        emitSilenceableError() << "upstream-copy: " << original->getName()
                               << " stays per-thread: " << why;
    diag.attachNote(original->getLoc()) << "the copy";
    return diag;
  }
  results.push_back(*copy);
  return DiagnosedSilenceableFailure::success();
}

#define GET_OP_CLASSES
#include "tile/TransformOps/TileTransformOps.cpp.inc"

namespace {
class TileTransformDialectExtension
    : public transform::TransformDialectExtension<
          TileTransformDialectExtension> {
public:
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TileTransformDialectExtension)

  TileTransformDialectExtension() {
    declareGeneratedDialect<TileDialect>();
    registerTransformOps<
#define GET_OP_LIST
#include "tile/TransformOps/TileTransformOps.cpp.inc"
        >();
  }
};
} // namespace

void mlir::tile::registerTransformDialectExtension(DialectRegistry &registry) {
  registry.addExtensions<TileTransformDialectExtension>();
}
