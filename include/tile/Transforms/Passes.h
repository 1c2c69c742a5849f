//===- Passes.h - tile passes -----------------------------------*- C++ -*-===//

#ifndef TILE_TRANSFORMS_PASSES_H
#define TILE_TRANSFORMS_PASSES_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Pass/Pass.h"

namespace mlir::tile {

#define GEN_PASS_DECL
#include "tile/Transforms/Passes.h.inc"

/// True for names of runtime entry points the host lowering calls (`mgpu*`,
/// `tileTensorMap*`, `tileRuntime*`, ...): user symbols may not take them.
bool isReservedRuntimeSymbol(StringRef name);

#define GEN_PASS_REGISTRATION
#include "tile/Transforms/Passes.h.inc"

} // namespace mlir::tile

#endif // TILE_TRANSFORMS_PASSES_H
