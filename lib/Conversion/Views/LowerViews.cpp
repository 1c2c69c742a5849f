//===- LowerViews.cpp - --tile-lower-views --------------------------------===//
//
// Upstream's expand-strided-metadata and lower-affine, run only on an op that
// holds something they rewrite. Both passes rewrite in place and the pass
// manager verifies the op after each, whether or not they changed anything;
// outlined kernels and host functions rarely hold a view or an affine op, so
// in a program with a thousand kernels those were two verifications of every
// kernel for nothing. Where there is work, the two passes run unchanged as a
// dynamic pipeline (verified like the pipeline's own passes); elsewhere this
// pass changes nothing and says so, and the pass manager skips the
// verification.
//
//===----------------------------------------------------------------------===//

#include "mlir/Conversion/AffineToStandard/AffineToStandard.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Transforms.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Pass/PassManager.h"
#include "tile/Conversion/Passes.h"

namespace mlir::tile {
#define GEN_PASS_DEF_TILELOWERVIEWS
#include "tile/Conversion/Passes.h.inc"
} // namespace mlir::tile

using namespace mlir;

namespace {
struct TileLowerViewsPass
    : public tile::impl::TileLowerViewsBase<TileLowerViewsPass> {
  LogicalResult initialize(MLIRContext *ctx) override {
    // The ops the strided-metadata patterns are rooted on; a pattern rooted
    // on any op would make every op a candidate.
    RewritePatternSet patterns(ctx);
    memref::populateExpandStridedMetadataPatterns(patterns);
    roots = std::make_shared<DenseSet<OperationName>>();
    for (const std::unique_ptr<RewritePattern> &pattern :
         patterns.getNativePatterns()) {
      std::optional<OperationName> root = pattern->getRootKind();
      if (!root) {
        anyOpIsRoot = true;
        continue;
      }
      roots->insert(*root);
    }
    return success();
  }

  void getDependentDialects(DialectRegistry &registry) const override {
    buildPipeline().getDependentDialects(registry);
  }

  void runOnOperation() override {
    Operation *root = getOperation();
    if (!holdsWork(root)) {
      markAllAnalysesPreserved();
      return;
    }
    OpPassManager pipeline = buildPipeline();
    if (failed(runPipeline(pipeline, root)))
      signalPassFailure();
  }

  static OpPassManager buildPipeline() {
    OpPassManager pipeline;
    pipeline.addPass(memref::createExpandStridedMetadataPass());
    pipeline.addPass(createLowerAffinePass());
    return pipeline;
  }

  /// Whether an op nested in `root` is one the two passes rewrite.
  bool holdsWork(Operation *root) const {
    if (anyOpIsRoot)
      return true;
    StringRef affine = affine::AffineDialect::getDialectNamespace();
    return root
        ->walk([&](Operation *op) {
          if (op == root)
            return WalkResult::advance();
          return roots->contains(op->getName()) ||
                         op->getName().getDialectNamespace() == affine
                     ? WalkResult::interrupt()
                     : WalkResult::advance();
        })
        .wasInterrupted();
  }

  std::shared_ptr<DenseSet<OperationName>> roots;
  bool anyOpIsRoot = false;
};
} // namespace
