//===- LoweringDependencies.h - What the GPU pipeline needs -----*- C++ -*-===//
//
// A library of its own (MLIRTileLoweringDependencies,
// lib/Pipelines/LoweringDependencies), below the passes rather than in
// MLIRTilePipelines: the pipeline's first pass, tile-check-pipeline-input
// (lib/Transforms), declares all of it as its dependencies, and the pipeline
// (Pipelines.h) is built from the passes.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_PIPELINES_LOWERINGDEPENDENCIES_H
#define TILE_PIPELINES_LOWERINGDEPENDENCIES_H

namespace mlir {
class DialectRegistry;
namespace tile {

/// Adds what `--tile-gpu-pipeline` needs beyond the tile dialect: the
/// dialects its passes create, their ConvertToLLVM interfaces, the NVVM
/// target models (gpu-module-to-binary) and the LLVM IR translations of the
/// dialects in a gpu.module. registerAllTileDialects calls it, and the
/// pipeline's first pass declares it as a dependency, so a context the
/// pipeline runs in always has it.
void registerTileLoweringDependencies(DialectRegistry &registry);

} // namespace tile
} // namespace mlir

#endif // TILE_PIPELINES_LOWERINGDEPENDENCIES_H
