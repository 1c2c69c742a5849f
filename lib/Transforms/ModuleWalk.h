//===- ModuleWalk.h - Kernels and launches without walking the rest -------===//
//
// The module-level passes look for kernels (gpu.func) or for the host's
// launches (gpu.launch_func). A plain walk for either visits every op of the
// module, the bodies of all kernels included: with thousands of kernels the
// whole IR leaves the caches once per pass. These walks visit only where the
// ops can be: a gpu.func's parent is a gpu.module, so no function body holds
// one, and the host launches kernels from outside every gpu.module.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_TRANSFORMS_MODULEWALK_H
#define TILE_TRANSFORMS_MODULEWALK_H

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

namespace mlir::tile {

/// Calls `fn` on every gpu.func under `root`, in order, without entering any
/// function's body.
template <typename Fn>
void forEachGpuFunc(Operation *root, Fn &&fn) {
  root->walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (auto func = dyn_cast<gpu::GPUFuncOp>(op)) {
      fn(func);
      return WalkResult::skip();
    }
    return isa<FunctionOpInterface>(op) ? WalkResult::skip()
                                        : WalkResult::advance();
  });
}

/// Calls `fn` on every gpu.launch_func under `root` outside the gpu.modules
/// (the kernels launch nothing), in order. `fn` returns a WalkResult; an
/// interrupt stops the walk and is returned.
template <typename Fn>
WalkResult walkHostLaunches(Operation *root, Fn &&fn) {
  return root->walk<WalkOrder::PreOrder>([&](Operation *op) -> WalkResult {
    if (isa<gpu::GPUModuleOp, gpu::BinaryOp>(op))
      return WalkResult::skip();
    if (auto launch = dyn_cast<gpu::LaunchFuncOp>(op))
      return fn(launch);
    return WalkResult::advance();
  });
}

} // namespace mlir::tile

#endif // TILE_TRANSFORMS_MODULEWALK_H
