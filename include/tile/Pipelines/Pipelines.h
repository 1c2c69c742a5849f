//===- Pipelines.h - The tile lowering pipeline -----------------*- C++ -*-===//

#ifndef TILE_PIPELINES_PIPELINES_H
#define TILE_PIPELINES_PIPELINES_H

#include "mlir/Pass/PassOptions.h"
#include <string>

namespace mlir {
class OpPassManager;
namespace tile {

struct TileGPUPipelineOptions
    : public PassPipelineOptions<TileGPUPipelineOptions> {
  PassOptions::Option<std::string> chip{
      *this, "chip", llvm::cl::desc("GPU chip: sm_90a (default) or sm_100a"),
      llvm::cl::init("sm_90a")};
  PassOptions::Option<std::string> features{
      *this, "features",
      llvm::cl::desc("PTX features (default: +ptx80 for sm_90a, +ptx86 for "
                     "sm_100a)"),
      llvm::cl::init("")};
  PassOptions::Option<int> optLevel{*this, "opt-level",
                                    llvm::cl::desc("NVPTX optimisation level"),
                                    llvm::cl::init(3)};
  PassOptions::Option<std::string> format{
      *this, "format",
      llvm::cl::desc("gpu.binary format: isa (PTX), bin (cubin), fatbin, or "
                     "none to stop before serialisation"),
      llvm::cl::init("isa")};
  PassOptions::Option<std::string> toolkit{
      *this, "toolkit", llvm::cl::desc("CUDA toolkit path (for bin/fatbin)"),
      llvm::cl::init("/usr/local/cuda")};
  PassOptions::Option<bool> deviceOnly{
      *this, "device-only",
      llvm::cl::desc("Stop once the kernels are in NVVM/LLVM (no host "
                     "lowering, no serialisation)"),
      llvm::cl::init(false)};
  PassOptions::Option<bool> verifyAsync{
      *this, "verify-async",
      llvm::cl::desc("Check the asynchronous protocol around the copies "
                     "(tile-verify-async)"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> insertProxyFences{
      *this, "insert-proxy-fences",
      llvm::cl::desc("Insert missing fence.proxy.async instead of reporting "
                     "async-proxy-fence"),
      llvm::cl::init(false)};
  PassOptions::Option<bool> convertUpstreamCopies{
      *this, "convert-upstream-copies",
      llvm::cl::desc("Turn global <-> shared memref.copy and linalg.copy "
                     "inside kernels into CTA-wide tile.copy first "
                     "(tile-convert-upstream-copies)"),
      llvm::cl::init(false)};
  PassOptions::Option<bool> prefetchTensorMaps{
      *this, "prefetch-tensor-maps",
      llvm::cl::desc("Prefetch each tensor map once per CTA"),
      llvm::cl::init(false)};
};

/// The whole lowering: outline kernels, plan and pass tensor maps, lower tile
/// and upstream GPU dialects to NVVM/LLVM, host code to LLVM, and serialise
/// the kernels.
void buildTileGPUPipeline(OpPassManager &pm,
                          const TileGPUPipelineOptions &options);

/// Registers `--tile-gpu-pipeline`.
void registerTileGPUPipeline();

} // namespace tile
} // namespace mlir

#endif // TILE_PIPELINES_PIPELINES_H
