//===- Pipelines.cpp - The tile lowering pipeline -------------------------===//

#include "tile/Pipelines/Pipelines.h"
#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"
#include "tile/Conversion/Passes.h"
#include "tile/Transforms/Passes.h"

using namespace mlir;
using namespace mlir::tile;

// Input the conversions below cannot lower is a diagnostic at its op; then
// the kernels, their plans and tensor-map arguments (the host encodes the
// maps), and the NVVM target of every gpu.module.
static void addKernelPasses(OpPassManager &pm,
                            const TileGPUPipelineOptions &options) {
  TileCheckPipelineInputOptions check;
  check.chip = options.chip;
  check.format =
      options.deviceOnly ? std::string("none") : std::string(options.format);
  check.toolkit = options.toolkit;
  // Upstream copies and pipelines first: what they become is checked like
  // hand-written code.
  if (options.convertUpstreamCopies)
    pm.addPass(createTileConvertUpstreamCopies());
  pm.addPass(createTileExpandPipelines());
  pm.addPass(createTileCheckPipelineInput(check));
  pm.addPass(createGpuKernelOutliningPass());
  pm.addPass(createTileArenaSize());
  pm.addPass(createTileMaterializeExpectTx());
  pm.addPass(createTilePlanCopies());
  // A tile.copy decided for the TMA becomes one thread's copy_async and its
  // completion, checked below like hand-written ones.
  pm.addPass(createTileExpandCollectiveCopies());
  // The release and acquire after each device-map update, which
  // tile-verify-async then checks with the rest of the protocol.
  pm.addPass(createTileFenceDeviceMaps());
  if (options.verifyAsync || options.insertProxyFences) {
    TileVerifyAsyncOptions verify;
    verify.insertFences = options.insertProxyFences;
    pm.addPass(createTileVerifyAsync(verify));
  }
  pm.addPass(createTileVersionKernels());
  pm.addPass(createTileTensorMapABI());
  pm.addPass(createTileCheckHostArguments());
  GpuNVVMAttachTargetOptions target;
  target.chip = options.chip;
  target.features =
      options.features.empty()
          ? (StringRef(options.chip).starts_with("sm_100") ? "+ptx86"
                                                           : "+ptx83")
          : options.features.getValue();
  target.optLevel = options.optLevel;
  pm.addPass(createGpuNVVMAttachTarget(target));
}

// Device, per gpu.module (modules are independent, so this nested pipeline
// runs them in parallel and never walks the host): tile first, since it
// reads mbarrier groups before nvgpu lowers them.
static void addDevicePasses(OpPassManager &pm,
                            const TileGPUPipelineOptions &options) {
  OpPassManager &device = pm.nest<gpu::GPUModuleOp>();
  // Views a kernel takes of its buffers (memref.subview, as converted upstream
  // copies use) become reinterpret casts the conversions below can lower.
  device.addPass(createTileLowerViews());
  // convert-tile-to-nvvm, cse, nvgpu-to-nvvm, scf-to-cf, gpu-to-nvvm, the
  // tensor-map kernel ABI, nvvm-to-llvm, the cast reconciliation,
  // canonicalize and cse, with patterns built once for all modules, and one
  // verification per module.
  TileKernelToLLVMOptions kernelOptions;
  kernelOptions.lowerTile = true;
  kernelOptions.prefetchTensorMaps = options.prefetchTensorMaps;
  kernelOptions.cleanup = true;
  device.addPass(createTileKernelToLLVM(kernelOptions));
}

// Host, per function where the pass allows it; the module-level lowering
// leaves the (already lowered) gpu.modules alone.
static void addHostPasses(OpPassManager &pm) {
  OpPassManager &hostFunc = pm.nest<func::FuncOp>();
  hostFunc.addPass(createSCFToControlFlowPass());
  hostFunc.addPass(createTileLowerViews());
  hostFunc.addPass(createArithToLLVMConversionPass());
  hostFunc.addPass(createConvertIndexToLLVMPass());
  pm.addPass(createTileHostToLLVM());
  OpPassManager &hostLLVM = pm.nest<LLVM::LLVMFuncOp>();
  hostLLVM.addPass(createReconcileUnrealizedCastsPass());
  hostLLVM.addPass(createCanonicalizerPass());
  hostLLVM.addPass(createCSEPass());
}

void mlir::tile::buildTileGPUPipeline(OpPassManager &pm,
                                      const TileGPUPipelineOptions &options) {
  addKernelPasses(pm, options);
  addDevicePasses(pm, options);
  if (options.deviceOnly)
    return;
  addHostPasses(pm);
  if (options.format != "none") {
    GpuModuleToBinaryPassOptions binary;
    binary.compilationTarget = options.format;
    binary.toolkitPath = options.toolkit;
    pm.addPass(createGpuModuleToBinaryPass(binary));
  }
}

void mlir::tile::registerTileGPUPipeline() {
  PassPipelineRegistration<TileGPUPipelineOptions>(
      "tile-gpu-pipeline",
      "Lowers tile-dialect GPU programs to LLVM host code and a gpu.binary",
      buildTileGPUPipeline);
}
