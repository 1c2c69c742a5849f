//===- FinalizeKernelABI.cpp - --tile-finalize-kernel-abi -----------------===//
//
// After convert-gpu-to-nvvm a tensor-map argument is an `!llvm.array<16 x
// i64>` passed by value whose address the TMA copies take through a marked
// cast. NVVM wants `ptr byval(...) align 64` with `nvvm.grid_constant`: the
// map stays in the kernel's parameter space and its generic address feeds
// cp.async.bulk.tensor directly (no copy, no fence). The host still passes
// the 128 bytes by value, so the launch ABI is unchanged.
//
//===----------------------------------------------------------------------===//

#include "tile/Conversion/KernelABI/FinalizeKernelABI.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "tile/Conversion/Passes.h"
#include "tile/Dialect/Tile/IR/DiscardableAttrs.h"
#include "tile/Dialect/Tile/IR/TileDialect.h"

namespace mlir::tile {
#define GEN_PASS_DEF_TILEFINALIZEKERNELABI
#include "tile/Conversion/Passes.h.inc"
} // namespace mlir::tile

using namespace mlir;
using namespace mlir::tile;

/// The maps are the kernel's last parameters (but for the device maps' slot
/// array), in `tile.tensor_maps` order;
/// record each one's parameter index after memref expansion (`param`) so a
/// foreign host can place it in the launch's argument array.
static void recordParameterIndices(LLVM::LLVMFuncOp func) {
  auto maps = func->getAttrOfType<ArrayAttr>(kTensorMapsAttr);
  if (!maps)
    return;
  // A kernel with device maps takes their slot array after the maps.
  unsigned after = func->hasAttr(kDeviceMapArrayArgAttr) ? 1 : 0;
  unsigned first = func.getNumArguments() - maps.size() - after;
  SmallVector<Attribute> updated;
  for (auto [i, attr] : llvm::enumerate(maps)) {
    auto map = cast<TensorMapAttr>(attr);
    updated.push_back(
        TensorMapAttr::get(func.getContext(), map.getMode(), map.getArg(),
                           static_cast<int64_t>(first + i), map.getGlobalArg(),
                           map.getMap(), map.getGuards()));
  }
  func->setAttr(kTensorMapsAttr, ArrayAttr::get(func.getContext(), updated));
}

LogicalResult mlir::tile::finalizeKernelABI(Operation *root) {
  WalkResult result = root->walk([&](LLVM::LLVMFuncOp func) {
    if (func.isExternal())
      return WalkResult::advance();
    SmallVector<UnrealizedConversionCastOp> casts;
    func.walk([&](UnrealizedConversionCastOp cast) {
      if (cast->hasAttr(kTensorMapAddressAttr))
        casts.push_back(cast);
    });
    if (casts.empty())
      return WalkResult::advance();
    MLIRContext *ctx = func.getContext();
    Block &entry = func.getBody().front();
    auto ptrType = LLVM::LLVMPointerType::get(ctx);
    Builder b(ctx);
    for (UnrealizedConversionCastOp cast : casts) {
      auto arg = dyn_cast<BlockArgument>(cast.getOperand(0));
      if (!arg || arg.getOwner() != &entry) {
        cast.emitError("tensor-map address does not come from a kernel "
                       "argument");
        return WalkResult::interrupt();
      }
      unsigned index = arg.getArgNumber();
      if (arg.getType() != ptrType) {
        Type mapType = arg.getType();
        arg.setType(ptrType);
        func.setArgAttr(index, LLVM::LLVMDialect::getByValAttrName(),
                        TypeAttr::get(mapType));
        func.setArgAttr(index, LLVM::LLVMDialect::getAlignAttrName(),
                        b.getI64IntegerAttr(64));
        func.setArgAttr(index, NVVM::NVVMDialect::getGridConstantAttrName(),
                        b.getUnitAttr());
      }
      cast.getResult(0).replaceAllUsesWith(arg);
      cast.erase();
    }
    recordParameterIndices(func);
    SmallVector<Type> inputs(entry.getArgumentTypes());
    func.setFunctionType(
        LLVM::LLVMFunctionType::get(func.getFunctionType().getReturnType(),
                                    inputs, func.getFunctionType().isVarArg()));
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

namespace {
struct FinalizeKernelABIPass
    : public mlir::tile::impl::TileFinalizeKernelABIBase<
          FinalizeKernelABIPass> {
  void runOnOperation() override {
    if (failed(finalizeKernelABI(getOperation())))
      signalPassFailure();
  }
};
} // namespace
