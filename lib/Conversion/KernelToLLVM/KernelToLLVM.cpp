//===- KernelToLLVM.cpp - --convert-tile-kernel-to-llvm -------------------===//
//
// The kernel lowering after the tile conversion: scf to cf, gpu and nvgpu to
// NVVM, the tensor-map kernel ABI, NVVM to LLVM and the reconciliation of
// casts, applied in one pass (with `lower-tile`, also the tile conversion
// first; with `cleanup`, the CSE before and the canonicalization and CSE
// after, which the pipeline ran as passes). Upstream's convert-gpu-to-nvvm
// builds its type converter and the to-LLVM patterns of every loaded dialect
// in runOnOperation, once per gpu.module, and the pass manager verifies each
// module after each pass; the pipeline outlines one module per kernel, so a
// program with a thousand kernels paid for a thousand pattern sets and ten
// verifications of each. Here everything is built once in
// initialize() and frozen; pass clones on other threads share it (frozen
// pattern sets are immutable, the type converter locks its caches).
//
//===----------------------------------------------------------------------===//

#include "mlir/Conversion/ConvertToLLVM/ToLLVMInterface.h"
#include "mlir/Conversion/GPUToNVVM/GPUToNVVMPass.h"
#include "mlir/Conversion/LLVMCommon/ConversionTarget.h"
#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/Conversion/NVGPUToNVVM/NVGPUToNVVM.h"
#include "mlir/Conversion/NVVMToLLVM/NVVMToLLVM.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/Patterns.h"
#include "mlir/Dialect/Vector/Transforms/VectorRewritePatterns.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/DataLayoutInterfaces.h"
#include "mlir/Rewrite/FrozenRewritePatternSet.h"
#include "mlir/Transforms/CSE.h"
#include "mlir/Transforms/DialectConversion.h"
#include "mlir/Transforms/FoldUtils.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Transforms/RegionUtils.h"
#include "tile/Conversion/KernelABI/FinalizeKernelABI.h"
#include "tile/Conversion/Passes.h"
#include "tile/Conversion/TileToNVVM/TileToNVVM.h"

namespace mlir::tile {
#define GEN_PASS_DEF_TILEKERNELTOLLVM
#include "tile/Conversion/Passes.h.inc"
} // namespace mlir::tile

using namespace mlir;

namespace {
/// One conversion step: a target and the frozen patterns that reach it.
struct ConversionStep {
  std::unique_ptr<ConversionTarget> target;
  FrozenRewritePatternSet patterns;
};

/// convert-gpu-to-nvvm for one index width. The patterns refer to the
/// converter, so they live and die together.
struct GpuToNVVM {
  std::unique_ptr<LLVMTypeConverter> converter;
  FrozenRewritePatternSet inDialect;
  ConversionStep toNVVM;
};

/// convert-nvgpu-to-nvvm: its own converter (64-bit indices, as upstream's
/// pass always uses), which the patterns refer to.
struct NVGPUToNVVM {
  std::unique_ptr<LLVMTypeConverter> converter;
  ConversionStep step;
};

/// Everything the pass applies, immutable once built.
struct KernelLowering {
  std::unique_ptr<const NVGPUToNVVM> nvgpuToNVVM;
  ConversionStep scfToCf;
  std::shared_ptr<const GpuToNVVM> gpuToNVVM;
  ConversionStep nvvmToLLVM;
  /// The canonicalization patterns of every loaded dialect and registered
  /// op, as the canonicalize pass collects them (with `cleanup` only).
  FrozenRewritePatternSet canonicalization;
  /// The subset that can apply to a fully lowered kernel: those of the LLVM
  /// and NVVM dialects and their ops (with `cleanup` only).
  FrozenRewritePatternSet loweredCanonicalization;
};
} // namespace

/// The nvgpu types as convert-nvgpu-to-nvvm represents them: tokens as
/// integers, an mbarrier group as the memref of its words, a wgmma
/// accumulator as one struct of registers per 64 rows, a TMA descriptor as
/// a pointer (the host passes the descriptor's address). An accumulator of
/// another element type has no conversion (the op then stays, a diagnostic).
static void addNVGPUTypeConversions(LLVMTypeConverter &converter) {
  converter.addConversion([](nvgpu::TensorMapDescriptorType type) -> Type {
    return LLVM::LLVMPointerType::get(type.getContext());
  });
  converter.addConversion([](nvgpu::DeviceAsyncTokenType type) -> Type {
    return IntegerType::get(type.getContext(), 32);
  });
  converter.addConversion([](nvgpu::MBarrierTokenType type) -> Type {
    return IntegerType::get(type.getContext(), 64);
  });
  converter.addConversion([](nvgpu::WarpgroupMatrixDescriptorType type) {
    return IntegerType::get(type.getContext(), 64);
  });
  converter.addConversion(
      [&converter](nvgpu::MBarrierGroupType type) -> std::optional<Type> {
        Type words = converter.convertType(
            nvgpu::getMBarrierMemrefType(type.getContext(), type));
        if (!words)
          return std::nullopt;
        return words;
      });
  converter.addConversion(
      [](nvgpu::WarpgroupAccumulatorType type) -> std::optional<Type> {
        VectorType fragmented = type.getFragmented();
        Type element = fragmented.getElementType();
        int64_t perThread;
        if (element.isF32() || element.isInteger(32))
          perThread = fragmented.getDimSize(1) / 2;
        else if (element.isF16())
          perThread = fragmented.getDimSize(1) / 4;
        else
          return std::nullopt;
        MLIRContext *ctx = type.getContext();
        auto rows = LLVM::LLVMStructType::getLiteral(
            ctx, SmallVector<Type>(perThread, element));
        return LLVM::LLVMStructType::getLiteral(
            ctx,
            SmallVector<Type>(
                llvm::divideCeil(fragmented.getDimSize(0), kWgmmaSizeM), rows));
      });
}

static std::unique_ptr<const NVGPUToNVVM> buildNVGPUToNVVM(MLIRContext *ctx) {
  auto built = std::make_unique<NVGPUToNVVM>();
  built->converter =
      std::make_unique<LLVMTypeConverter>(ctx, LowerToLLVMOptions(ctx));
  LLVMTypeConverter &converter = *built->converter;
  nvgpu::populateCommonGPUTypeAndAttributeConversions(converter);
  addNVGPUTypeConversions(converter);
  RewritePatternSet patterns(ctx);
  populateNVGPUToNVVMConversionPatterns(converter, patterns);
  auto target = std::make_unique<LLVMConversionTarget>(*ctx);
  target->addLegalDialect<LLVM::LLVMDialect, arith::ArithDialect,
                          memref::MemRefDialect, NVVM::NVVMDialect>();
  scf::populateSCFStructuralTypeConversionsAndLegality(converter, patterns,
                                                       *target);
  built->step = {std::move(target),
                 FrozenRewritePatternSet(std::move(patterns))};
  return built;
}

static std::shared_ptr<const GpuToNVVM>
buildGpuToNVVM(MLIRContext *ctx, const LowerToLLVMOptions &options) {
  auto step = std::make_shared<GpuToNVVM>();
  RewritePatternSet inDialect(ctx);
  populateGpuRewritePatterns(inDialect);
  vector::populateVectorFromElementsUnrollPatterns(inDialect);
  step->inDialect = FrozenRewritePatternSet(std::move(inDialect));

  step->converter = std::make_unique<LLVMTypeConverter>(ctx, options);
  LLVMTypeConverter &converter = *step->converter;
  configureGpuToNVVMTypeConverter(converter);
  // Kernel arguments of upstream's TMA descriptor type (a program using
  // nvgpu.tma.* directly): the nvgpu step rewrote their uses, the signature
  // is converted here.
  addNVGPUTypeConversions(converter);

  auto target = std::make_unique<LLVMConversionTarget>(*ctx);
  RewritePatternSet patterns(ctx);
  // A higher benefit, so that the GPU patterns win over the generic ones.
  populateGpuToNVVMConversionPatterns(converter, patterns, /*benefit=*/10);
  for (Dialect *dialect : ctx->getLoadedDialects()) {
    // Math has NVVM-specific lowerings (libdevice calls) among the above.
    if (isa<math::MathDialect>(dialect))
      continue;
    if (auto *iface = dyn_cast<ConvertToLLVMPatternInterface>(dialect))
      iface->populateConvertToLLVMConversionPatterns(*target, converter,
                                                     patterns);
  }
  populateGpuWMMAToNVVMConversionPatterns(converter, patterns);
  configureGpuToNVVMConversionLegality(*target);
  step->toNVVM = {std::move(target),
                  FrozenRewritePatternSet(std::move(patterns))};
  return step;
}

static ConversionStep buildScfToCf(MLIRContext *ctx) {
  auto target = std::make_unique<ConversionTarget>(*ctx);
  target->addIllegalOp<scf::ForallOp, scf::ForOp, scf::IfOp, scf::IndexSwitchOp,
                       scf::ParallelOp, scf::WhileOp, scf::ExecuteRegionOp>();
  target->markUnknownOpDynamicallyLegal([](Operation *) { return true; });
  RewritePatternSet patterns(ctx);
  populateSCFToControlFlowConversionPatterns(patterns);
  return {std::move(target), FrozenRewritePatternSet(std::move(patterns))};
}

static ConversionStep buildNVVMToLLVM(MLIRContext *ctx) {
  auto target = std::make_unique<ConversionTarget>(*ctx);
  target->addLegalDialect<LLVM::LLVMDialect>();
  RewritePatternSet patterns(ctx);
  populateNVVMToLLVMConversionPatterns(patterns);
  return {std::move(target), FrozenRewritePatternSet(std::move(patterns))};
}

/// A conversion step. It folds nothing: the canonicalization after the
/// conversions folds what is left (with `cleanup`, or the pipeline's own).
/// One-shot (no rollback bookkeeping): 1% fewer instructions for the whole
/// pipeline on 1,000 and 10,000 copies (bench/Compile, callgrind).
static LogicalResult apply(Operation *root, const ConversionStep &step) {
  ConversionConfig config;
  config.foldingMode = DialectConversionFoldingMode::Never;
  config.allowPatternRollback = false;
  return applyPartialConversion(root, *step.target, step.patterns, config);
}

/// The canonicalize pass's pattern set, collected the same way, from the
/// dialects `include` accepts and their ops.
static FrozenRewritePatternSet
buildCanonicalization(MLIRContext *ctx, function_ref<bool(Dialect *)> include) {
  RewritePatternSet patterns(ctx);
  for (Dialect *dialect : ctx->getLoadedDialects())
    if (include(dialect))
      dialect->getCanonicalizationPatterns(patterns);
  for (RegisteredOperationName op : ctx->getRegisteredOperations())
    if (include(&op.getDialect()))
      op.getCanonicalizationPatterns(patterns, ctx);
  return FrozenRewritePatternSet(std::move(patterns));
}

static bool isLoweredDialect(Dialect *dialect) {
  return isa<LLVM::LLVMDialect, NVVM::NVVMDialect>(dialect);
}

/// Whether every op under `root` is of the LLVM or NVVM dialect. The full
/// canonicalization set holds patterns that are tried on every op whatever
/// its kind (linalg's dead-op and static-shape rewrites, tensor's cast
/// folding); over a lowered kernel they never apply, and they cost more than
/// the folding.
static bool isFullyLowered(Operation *root) {
  return !root->walk([&](Operation *op) {
                if (op == root || isLoweredDialect(op->getDialect()))
                  return WalkResult::advance();
                return WalkResult::interrupt();
              })
              .wasInterrupted();
}

/// Whether `root` holds work for convert-nvgpu-to-nvvm: an nvgpu op, or an
/// op that takes or gives a value of an nvgpu type (a loop carrying a
/// token, for one). Without it the conversion would only check every op's
/// legality.
static bool holdsNVGPUWork(Operation *root) {
  auto isNVGPU = [](Type type) {
    return isa<nvgpu::NVGPUDialect>(type.getDialect());
  };
  return root
      ->walk([&](Operation *op) {
        if (isa<nvgpu::NVGPUDialect>(op->getDialect()) ||
            llvm::any_of(op->getOperandTypes(), isNVGPU) ||
            llvm::any_of(op->getResultTypes(), isNVGPU))
          return WalkResult::interrupt();
        return WalkResult::advance();
      })
      .wasInterrupted();
}

static void runCSE(Operation *root) {
  IRRewriter rewriter(root->getContext());
  DominanceInfo dominance(root);
  eliminateCommonSubExpressions(rewriter, dominance, root);
}

/// canonicalize with its default options, then cse. The greedy driver would
/// simplify the regions (dead code and arguments, unreachable blocks) after
/// each sweep over the patterns, including the last one that finds nothing
/// to do; over a lowered kernel that liveness analysis costs more than the
/// patterns. Here the patterns run to their fixpoint first and the regions
/// are simplified after, again until neither changes anything, which reaches
/// the same fixpoint with one analysis where nothing was left to simplify.
static void canonicalizeAndEliminate(Operation *root,
                                     const FrozenRewritePatternSet &patterns) {
  GreedyRewriteConfig config;
  config.setUseTopDownTraversal(true)
      .setRegionSimplificationLevel(GreedySimplifyRegionLevel::Disabled)
      .setMaxIterations(10)
      .setMaxNumRewrites(GreedyRewriteConfig::kNoLimit);
  IRRewriter rewriter(root->getContext());
  // As the pass: a rewrite that does not converge is not an error.
  for (int round = 0; round < 10; ++round) {
    (void)applyPatternsGreedily(root, patterns, config);
    if (failed(simplifyRegions(rewriter, root->getRegions(),
                               /*mergeBlocks=*/false)))
      break;
  }
  runCSE(root);
}

/// Whether the in-dialect GPU rewrites (`populateGpuRewritePatterns`, the
/// vector unrolling) have an op to rewrite in `root`. The all-reduce rewrite
/// is rooted on gpu.func and looks for gpu.all_reduce inside it, so a
/// function alone gives the rewrites nothing to do.
static bool holdsInDialectWork(Operation *root,
                               const FrozenRewritePatternSet &patterns) {
  if (!patterns.getMatchAnyOpNativePatterns().empty())
    return true;
  const auto &byOp = patterns.getOpSpecificNativePatterns();
  return root
      ->walk([&](Operation *op) {
        if (isa<gpu::AllReduceOp>(op) ||
            (!isa<gpu::GPUFuncOp>(op) && byOp.count(op->getName())))
          return WalkResult::interrupt();
        return WalkResult::advance();
      })
      .wasInterrupted();
}

/// Folds `value`'s producers, operands first, as far as they fold (16 deep);
/// each producer is tried once.
static void foldProducers(Value value, OperationFolder &folder,
                          DenseSet<Operation *> &tried, unsigned depth = 0) {
  Operation *producer = value.getDefiningOp();
  // The folder only adds constants, so an op in `tried` is never a new one.
  if (!producer || producer->getNumRegions() ||
      matchPattern(value, m_Constant()) || !tried.insert(producer).second)
    return;
  if (depth < 16)
    for (Value operand : producer->getOperands())
      foldProducers(operand, folder, tried, depth + 1);
  (void)folder.tryToFold(producer);
}

/// The NVVM ops lowered to inline PTX take an operand as an immediate only
/// where its producer is a constant. Upstream's pass gets those constants
/// from a greedy sweep that folds every op of the module; folding the
/// operands of these ops is what the lowering reads of it.
static void foldPtxOperands(Operation *root) {
  OperationFolder folder(root->getContext());
  SmallVector<Operation *> ptxOps;
  root->walk([&](NVVM::BasicPtxBuilderInterface op) { ptxOps.push_back(op); });
  DenseSet<Operation *> tried;
  for (Operation *op : ptxOps)
    for (Value operand : op->getOperands())
      foldProducers(operand, folder, tried);
}

namespace {
struct TileKernelToLLVMPass
    : public tile::impl::TileKernelToLLVMBase<TileKernelToLLVMPass> {
  using TileKernelToLLVMBase::TileKernelToLLVMBase;

  void getDependentDialects(DialectRegistry &registry) const override {
    Base::getDependentDialects(registry);
    if (lowerTile)
      tile::registerBuiltinCopyLowerings(registry);
  }

  LogicalResult initialize(MLIRContext *ctx) override {
    auto built = std::make_shared<KernelLowering>();
    built->nvgpuToNVVM = buildNVGPUToNVVM(ctx);
    built->scfToCf = buildScfToCf(ctx);
    // A module without a data-layout entry for index has 64-bit indices.
    built->gpuToNVVM = buildGpuToNVVM(ctx, LowerToLLVMOptions(ctx));
    built->nvvmToLLVM = buildNVVMToLLVM(ctx);
    if (cleanup) {
      built->canonicalization =
          buildCanonicalization(ctx, [](Dialect *) { return true; });
      built->loweredCanonicalization =
          buildCanonicalization(ctx, isLoweredDialect);
    }
    lowering = std::move(built);
    return success();
  }

  void runOnOperation() override {
    gpu::GPUModuleOp module = getOperation();
    if (lowerTile && failed(tile::lowerTileOps(module, prefetchTensorMaps)))
      return signalPassFailure();
    // Fewer ops to convert: the tile lowering repeats constants and
    // addresses per copy.
    if (cleanup)
      runCSE(module);
    if ((holdsNVGPUWork(module) &&
         failed(apply(module, lowering->nvgpuToNVVM->step))) ||
        failed(apply(module, lowering->scfToCf)))
      return signalPassFailure();
    if (failed(lowerGpuToNVVM(module)))
      return signalPassFailure();
    if (failed(tile::finalizeKernelABI(module)))
      return signalPassFailure();
    if (failed(apply(module, lowering->nvvmToLLVM)))
      return signalPassFailure();
    SmallVector<UnrealizedConversionCastOp> casts;
    module->walk(
        [&](UnrealizedConversionCastOp cast) { casts.push_back(cast); });
    reconcileUnrealizedCasts(casts);
    if (cleanup)
      canonicalizeAndEliminate(module, isFullyLowered(module)
                                           ? lowering->loweredCanonicalization
                                           : lowering->canonicalization);
  }

  LogicalResult lowerGpuToNVVM(gpu::GPUModuleOp module) {
    MLIRContext *ctx = &getContext();
    // As upstream: host-callable functions in a kernel module get C
    // wrappers.
    for (auto func : module.getOps<func::FuncOp>())
      func->setAttr(LLVM::LLVMDialect::getEmitCWrapperAttrName(),
                    UnitAttr::get(ctx));
    LowerToLLVMOptions options(
        ctx, DataLayout(cast<DataLayoutOpInterface>(module.getOperation())));
    std::shared_ptr<const GpuToNVVM> step = lowering->gpuToNVVM;
    if (options.getIndexBitwidth() != step->converter->getIndexTypeBitwidth())
      step = buildGpuToNVVM(ctx, options);
    if (holdsInDialectWork(module, step->inDialect)) {
      if (failed(applyPatternsGreedily(module, step->inDialect)))
        return failure();
    } else {
      foldPtxOperands(module);
    }
    return apply(module, step->toNVVM);
  }

  std::shared_ptr<const KernelLowering> lowering;
};
} // namespace
