//===- HostToLLVM.cpp - The host side of the pipeline, in one conversion --===//
//
// The upstream host conversions (memref, cf, func, arith, index, gpu launches)
// applied as one partial conversion over the module's host ops, leaving every
// gpu.module and gpu.binary alone. The kernels are lowered before this by
// their own nested pipeline; walking them again from five module-level
// conversions (each checking every kernel op's legality, then the verifier
// after each) was most of the host lowering's time with many kernels.
//
//===----------------------------------------------------------------------===//

#include "StreamOrderedMemory.h"

#include "mlir/Analysis/DataLayoutAnalysis.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/ConvertToLLVM/ToLLVMInterface.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVM.h"
#include "mlir/Conversion/GPUCommon/GPUCommonPass.h"
#include "mlir/Conversion/LLVMCommon/ConversionTarget.h"
#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/Conversion/MemRefToLLVM/MemRefToLLVM.h"
#include "mlir/Conversion/NVGPUToNVVM/NVGPUToNVVM.h"
#include "mlir/Conversion/VectorToLLVM/ConvertVectorToLLVM.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Transforms/DialectConversion.h"
#include "tile/Conversion/Passes.h"

namespace mlir::tile {
#define GEN_PASS_DEF_TILEHOSTTOLLVM
#include "tile/Conversion/Passes.h.inc"
} // namespace mlir::tile

using namespace mlir;

namespace {
struct TileHostToLLVMPass
    : public tile::impl::TileHostToLLVMBase<TileHostToLLVMPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = &getContext();
    const auto &dataLayout = getAnalysis<DataLayoutAnalysis>();
    LowerToLLVMOptions options(ctx, dataLayout.getAtOrAbove(module));
    LLVMTypeConverter converter(ctx, options, &dataLayout);
    // Upstream's TMA descriptors made on the host
    // (nvgpu.tma.create.descriptor) become calls (the NVGPU patterns below) of
    // the runtime's mgpuTensorMapEncodeTiledMemref, which returns the map's
    // device address.
    converter.addConversion([ctx](nvgpu::TensorMapDescriptorType) -> Type {
      return LLVM::LLVMPointerType::get(ctx);
    });
    // GPU memory spaces by the numbers the kernels' lowering gives them (a
    // program may declare its shared buffers as host-level memref.globals,
    // which the kernels' outlining copies into their modules).
    nvgpu::populateCommonGPUTypeAndAttributeConversions(converter);

    LLVMConversionTarget target(*ctx);
    // As in gpu-to-llvm: a launch stays a gpu.launch_func once its operands
    // are LLVM values; the binary's offloading handler emits the runtime
    // calls at translation.
    target.addDynamicallyLegalOp<gpu::LaunchFuncOp>([&](gpu::LaunchFuncOp op) {
      return converter.isLegal(op->getOperandTypes());
    });

    // The standalone passes' patterns (with their symbol tables) for the
    // func, memref and cf dialects, then what gpu-to-llvm takes from every
    // other loaded dialect's interface (once each: those three's interfaces
    // would add the same patterns again).
    SymbolTableCollection symbolTables;
    RewritePatternSet patterns(ctx);
    populateFinalizeMemRefToLLVMConversionPatterns(converter, patterns,
                                                   &symbolTables);
    cf::populateControlFlowToLLVMConversionPatterns(converter, patterns);
    cf::populateAssertToLLVMConversionPattern(converter, patterns,
                                              /*abortOnFailure=*/true,
                                              &symbolTables);
    populateFuncToLLVMConversionPatterns(converter, patterns, &symbolTables);
    for (Dialect *dialect : ctx->getLoadedDialects()) {
      if (isa<func::FuncDialect, memref::MemRefDialect, cf::ControlFlowDialect>(
              dialect))
        continue;
      if (auto *iface = dyn_cast<ConvertToLLVMPatternInterface>(dialect))
        iface->populateConvertToLLVMConversionPatterns(target, converter,
                                                       patterns);
    }
    populateVectorToLLVMConversionPatterns(converter, patterns);
    populateGpuToLLVMConversionPatterns(converter, patterns);
    tile::populateStreamOrderedMemoryPatterns(converter, patterns,
                                              symbolTables);
    populateNVGPUToNVVMConversionPatterns(converter, patterns);
    // The roots are the module's host ops; the kernels (gpu.module, or
    // gpu.binary once serialized) are lowered by their own pipeline and left
    // alone. With the module as the root and the kernels legal as a whole,
    // the converter would still walk every kernel op to mark it ignored,
    // which with many kernels costs more than the host code.
    SmallVector<Operation *> hostOps;
    for (Operation &op : module.getBody()->getOperations())
      if (!isa<gpu::GPUModuleOp, gpu::BinaryOp>(op))
        hostOps.push_back(&op);
    // One-shot, as the kernels' lowering converts: no pattern here needs a
    // rollback, and the bookkeeping is not paid.
    ConversionConfig config;
    config.allowPatternRollback = false;
    if (failed(applyPartialConversion(hostOps, target, std::move(patterns),
                                      config)))
      signalPassFailure();
  }
};
} // namespace
