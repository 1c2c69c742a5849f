//===- LoweringUtils.cpp - Helpers shared by the copy lowerings -----------===//

#include "tile/Conversion/TileToNVVM/LoweringUtils.h"
#include "mlir/Conversion/GPUCommon/GPUCommonPass.h"
#include "mlir/Conversion/LLVMCommon/MemRefBuilder.h"
#include "mlir/Conversion/NVGPUToNVVM/NVGPUToNVVM.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "tile/Dialect/Tile/IR/TileDialect.h"

using namespace mlir;
using namespace mlir::tile;

TileTypeConverter::TileTypeConverter(MLIRContext *ctx) : llvmConverter(ctx) {
  // NVVM address spaces of #gpu.address_space (as convert-gpu-to-nvvm maps
  // them), so memref descriptors agree with the later kernel conversion.
  populateGpuMemorySpaceAttributeConversions(
      llvmConverter, [](gpu::AddressSpace space) -> unsigned {
        switch (space) {
        case gpu::AddressSpace::Global:
          return kGlobalAddressSpace;
        case gpu::AddressSpace::Workgroup:
          return kSharedAddressSpace;
        case gpu::AddressSpace::Private:
          return 5;
        }
        return 0;
      });
  addConversion([](Type type) { return type; });
  addConversion([this](MemRefType type) -> std::optional<Type> {
    if (isa<LayoutAttr>(type.getLayout())) {
      // The same address space a descriptor of this memref would use.
      FailureOr<unsigned> space = llvmConverter.getMemRefAddressSpace(type);
      if (failed(space))
        return std::nullopt;
      return LLVM::LLVMPointerType::get(type.getContext(), *space);
    }
    SmallVector<Type> results;
    if (failed(llvmConverter.convertType(type, results)) || results.size() != 1)
      return std::nullopt;
    return results.front();
  });
  addConversion([this](nvgpu::MBarrierGroupType type) -> std::optional<Type> {
    return llvmConverter.convertType(
        nvgpu::getMBarrierMemrefType(type.getContext(), type));
  });
  auto materialize = [](OpBuilder &b, Type type, ValueRange inputs,
                        Location loc) -> Value {
    return UnrealizedConversionCastOp::create(b, loc, type, inputs)
        .getResult(0);
  };
  addSourceMaterialization(materialize);
  addTargetMaterialization(materialize);
}

Value mlir::tile::getBufferBasePtr(OpBuilder &b, Location loc, Value converted,
                                   MemRefType type,
                                   const TileTypeConverter &converter) {
  if (isa<LLVM::LLVMPointerType>(converted.getType()))
    return converted;
  MemRefDescriptor desc(converted);
  return desc.bufferPtr(b, loc, converter.getLLVMConverter(), type);
}

Value mlir::tile::getMBarrierPtr(OpBuilder &b, Location loc,
                                 Value convertedGroup, Value index) {
  MemRefDescriptor desc(convertedGroup);
  Value base = desc.alignedPtr(b, loc);
  Value idx = arith::IndexCastOp::create(b, loc, b.getI64Type(), index);
  return LLVM::GEPOp::create(b, loc, base.getType(), b.getI64Type(), base,
                             ValueRange{idx});
}

Value mlir::tile::emitSymExpr(OpBuilder &b, Location loc,
                              const ::tile::tma::SymExpr &expr,
                              ArrayRef<Value> symbols, Type type) {
  auto constant = [&](int64_t v) -> Value {
    if (type.isIndex())
      return arith::ConstantIndexOp::create(b, loc, v);
    return arith::ConstantIntOp::create(b, loc, type, v);
  };
  // constant + sum(coeff * symbol), without a zero constant or unit factors.
  Value result;
  for (auto [id, coeff] : expr.terms) {
    Value sym = symbols[id];
    if (sym.getType() != type)
      sym = arith::IndexCastOp::create(b, loc, type, sym);
    if (coeff != 1)
      sym = arith::MulIOp::create(b, loc, sym, constant(coeff));
    result =
        result ? arith::AddIOp::create(b, loc, result, sym).getResult() : sym;
  }
  if (!result)
    return constant(expr.constant);
  if (expr.constant != 0)
    result = arith::AddIOp::create(b, loc, result, constant(expr.constant));
  return result;
}

Value mlir::tile::emitBytePtrAdd(OpBuilder &b, Location loc, Value base,
                                 Value byteOffset) {
  if (auto c = byteOffset.getDefiningOp<arith::ConstantOp>())
    if (auto attr = dyn_cast<IntegerAttr>(c.getValue());
        attr && attr.getInt() == 0)
      return base;
  if (byteOffset.getType().isIndex())
    byteOffset = arith::IndexCastOp::create(b, loc, b.getI64Type(), byteOffset);
  return LLVM::GEPOp::create(b, loc, base.getType(), b.getI8Type(), base,
                             ValueRange{byteOffset});
}

int64_t mlir::tile::getCachePolicy(CacheHint hint) {
  switch (hint) {
  case CacheHint::EvictNormal:
    return 0x1000000000000000;
  case CacheHint::EvictFirst:
    return 0x12F0000000000000;
  case CacheHint::EvictLast:
    return 0x14F0000000000000;
  }
  llvm_unreachable("unknown CacheHint");
}
