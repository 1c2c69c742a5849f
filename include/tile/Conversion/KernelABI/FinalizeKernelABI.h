//===- FinalizeKernelABI.h - Map arguments as byval pointers ---*- C++ -*-===//

#ifndef TILE_CONVERSION_KERNELABI_FINALIZEKERNELABI_H
#define TILE_CONVERSION_KERNELABI_FINALIZEKERNELABI_H

#include "mlir/IR/Operation.h"
#include "mlir/Support/LLVM.h"

namespace mlir::tile {

/// Turns each tensor-map argument of the NVVM kernels under `root` (an
/// `!llvm.array<16 x i64>` whose address the TMA copies take through a
/// marked cast) into a grid-constant byval pointer and records its parameter
/// index in the kernel's `tile.tensor_maps`. Fails, with a diagnostic at the
/// cast, when a marked address does not come from a kernel argument.
LogicalResult finalizeKernelABI(Operation *root);

} // namespace mlir::tile

#endif // TILE_CONVERSION_KERNELABI_FINALIZEKERNELABI_H
