//===- TensorMapsVerifier.cpp - Verifier of a kernel's tile.tensor_maps ---===//
//
// `tile-tensor-map-abi` records on each kernel the maps its launches encode,
// one `#tile.tensor_map` per map argument; the host side of the same pass,
// and any host that is not ours, reads them back. Each record checks its own
// fields; what needs the kernel is checked here: the record names the map's
// own argument and a memref argument for its buffer, whose rank bounds the
// dimensions the run-time fields and guards read.
//
//===----------------------------------------------------------------------===//

#include "tile/Dialect/Tile/IR/DiscardableAttrs.h"
#include "tile/Dialect/Tile/IR/RuleDiagnostic.h"
#include "tile/Dialect/Tile/IR/TileDialect.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;
using namespace mlir::tile;

/// The highest memref dimension the record reads, or -1.
static int64_t highestDimRead(TensorMapAttr map) {
  int64_t highest = -1;
  auto note = [&](const ::tile::tma::RuntimeValue &v) {
    if (v.kind == ::tile::tma::RuntimeValue::Kind::Size ||
        v.kind == ::tile::tma::RuntimeValue::Kind::Stride)
      highest = std::max<int64_t>(highest, v.dim);
  };
  if (TiledMapAttr tiled = map.getTiledMap()) {
    for (const auto *fields : {&tiled.getDesc().runtimeGlobalDim,
                               &tiled.getDesc().runtimeGlobalStrides})
      for (const auto &f : *fields)
        if (f)
          note(f->value);
  }
  for (GuardAttr guard : map.getGuardList())
    for (const auto &term : guard.getGuard().terms)
      note(term.first);
  return highest;
}

/// Why `map` (entry #i) cannot be encoded for `kernel`, or "".
static std::string checkAgainstKernel(gpu::GPUFuncOp kernel, TensorMapAttr map,
                                      size_t i, size_t count) {
  // The maps are the kernel's last arguments, in record order (but for the
  // device maps' slot array, which follows them).
  int64_t numArgs = kernel.getNumArguments() -
                    (kernel->hasAttr(kDeviceMapArrayArgAttr) ? 1 : 0);
  int64_t expectedArg = numArgs - static_cast<int64_t>(count) + i;
  if (map.getArg() != expectedArg)
    return "its 'arg' is " + std::to_string(map.getArg()) +
           "; the maps are the kernel's last arguments, so it is " +
           std::to_string(expectedArg);
  if (map.getGlobalArg() >= numArgs - static_cast<int64_t>(count))
    return "'global_arg' " + std::to_string(map.getGlobalArg()) +
           " is not a user argument of the kernel";
  auto type =
      dyn_cast<MemRefType>(kernel.getArgument(map.getGlobalArg()).getType());
  if (!type)
    return "'global_arg' " + std::to_string(map.getGlobalArg()) +
           " is not a memref";
  if (Im2colMapAttr im2col = map.getIm2colMap();
      im2col && type.getRank() != im2col.getDesc().rank)
    return "'global_arg' " + std::to_string(map.getGlobalArg()) +
           " is not a memref of rank " + std::to_string(im2col.getDesc().rank);
  int64_t dim = highestDimRead(map);
  if (dim >= type.getRank())
    return "it reads dimension " + std::to_string(dim) +
           " of a buffer of rank " + std::to_string(type.getRank());
  return "";
}

LogicalResult mlir::tile::verifyTensorMapsAttr(Operation *op, Attribute value) {
  auto kernel = dyn_cast<gpu::GPUFuncOp>(op);
  auto maps = dyn_cast<ArrayAttr>(value);
  if ((!kernel && !isa<LLVM::LLVMFuncOp>(op)) || !maps ||
      !llvm::all_of(maps, llvm::IsaPred<TensorMapAttr>))
    return emitRuleError(op, RuleId::TensorMap)
           << "'" << kTensorMapsAttr
           << "' must be a list of #tile.tensor_map on a "
              "kernel";
  // A lowered kernel (llvm.func) only keeps the record for embedders; the
  // host encodes from the gpu.func.
  if (!kernel)
    return success();
  for (auto [i, attr] : llvm::enumerate(maps)) {
    std::string why =
        checkAgainstKernel(kernel, cast<TensorMapAttr>(attr), i, maps.size());
    if (!why.empty())
      return emitRuleError(op, RuleId::TensorMap)
             << "map #" << i << " of '" << kTensorMapsAttr
             << "' cannot be encoded by a host: " << why;
  }
  return success();
}
