//===- tile-embed.cpp - An out-of-tree compiler driver embedding tile -----===//
//
// What a compiler built on MLIR does to use the tile dialect: register its
// own input dialects, the tile dialect and passes (two calls), and its own
// copy variant, then run the tile GPU pipeline. Built against an installed
// tile-mlir (find_package(TileMLIR)) or inside this repository; see
// docs/embedding.md.
//
//   tile-embed input.mlir                 # lower to host LLVM + gpu.binary
//   tile-embed input.mlir --format=none   # stop before serialisation
//   tile-embed input.mlir --report        # plan report (JSON Lines)
//
//===----------------------------------------------------------------------===//

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "tile/Dialect/Tile/IR/TileDialect.h"
#include "tile/Dialect/Tile/IR/TileOps.h"
#include "tile/Dispatch/CopyVariant.h"
#include "tile/InitAllTile.h"
#include "tile/Pipelines/Pipelines.h"
#include "tile/Transforms/Passes.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"

using namespace mlir;
namespace cl = llvm::cl;

namespace {
cl::OptionCategory category("tile-embed options");
cl::opt<std::string> inputFilename(cl::Positional, cl::desc("<input .mlir>"),
                                   cl::init("-"), cl::cat(category));
cl::opt<std::string> outputFilename("o", cl::desc("Output file"), cl::init("-"),
                                    cl::cat(category));
cl::opt<std::string> format("format",
                            cl::desc("gpu.binary format: isa (PTX), bin "
                                     "(cubin, needs ptxas) or none"),
                            cl::init("isa"), cl::cat(category));
cl::opt<bool> report("report",
                     cl::desc("Print the plan report instead of lowering"),
                     cl::init(false), cl::cat(category));

/// This compiler's own copy variant. It is tried before the built-in ones
/// (higher priority) and, in this example, declines every copy with a reason
/// in the "<rule-id>: <values>" form, which the plan report and the "no
/// variant" diagnostic show. A real variant adds predicates that hold for the
/// copies it can lower and implements `rewrite`.
class PolicyVariant : public mlir::tile::CopyVariant {
public:
  PolicyVariant() : CopyVariant("example-policy", /*priority=*/1000) {
    addPredicate("example-policy", [](Operation *) {
      return mlir::tile::PredicateResult::failure(
          "example-policy: this compiler leaves every copy to the built-in "
          "variants");
    });
  }
  bool handles(Operation *op) const override {
    return isa<mlir::tile::CopyAsyncOp>(op);
  }
  LogicalResult rewrite(Operation *op, const mlir::tile::VariantMatch *,
                        ConversionPatternRewriter &rewriter,
                        const LLVMTypeConverter &) const override {
    return rewriter.notifyMatchFailure(op, "example-policy never applies");
  }
};
} // namespace

/// The tile dialect, the dialects this driver's input uses and its variant.
static void registerDialects(DialectRegistry &registry) {
  registry
      .insert<arith::ArithDialect, func::FuncDialect, gpu::GPUDialect,
              memref::MemRefDialect, nvgpu::NVGPUDialect, scf::SCFDialect>();
  mlir::tile::registerAllTileDialects(registry);
  registry.addExtension(+[](MLIRContext *, mlir::tile::TileDialect *dialect) {
    mlir::tile::CopyVariantRegistry::attach(dialect).add(
        std::make_unique<PolicyVariant>());
  });
}

static LogicalResult buildPipeline(PassManager &pm) {
  if (report) {
    pm.addPass(mlir::tile::createTileReportCopyPlans());
    return success();
  }
  mlir::tile::TileGPUPipelineOptions options;
  options.format = format;
  mlir::tile::buildTileGPUPipeline(pm, options);
  return success();
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  cl::HideUnrelatedOptions(category);
  cl::ParseCommandLineOptions(argc, argv, "tile-embed: lowers tile programs\n");
  mlir::tile::registerAllTilePasses();

  DialectRegistry registry;
  registerDialects(registry);
  MLIRContext context(registry);

  std::string error;
  std::unique_ptr<llvm::MemoryBuffer> input =
      openInputFile(inputFilename, &error);
  if (!input) {
    llvm::errs() << "tile-embed: " << error << "\n";
    return 1;
  }
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(input), llvm::SMLoc());
  SourceMgrDiagnosticHandler handler(sourceMgr, &context);
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, &context);
  if (!module)
    return 1;

  PassManager pm(&context);
  if (failed(buildPipeline(pm)) || failed(pm.run(*module)))
    return 1;
  if (report)
    return 0;

  std::unique_ptr<llvm::ToolOutputFile> output =
      openOutputFile(outputFilename, &error);
  if (!output) {
    llvm::errs() << "tile-embed: " << error << "\n";
    return 1;
  }
  module->print(output->os());
  output->os() << "\n";
  output->keep();
  return 0;
}
