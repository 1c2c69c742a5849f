//===- LoweringUtils.cpp - Helpers shared by the copy lowerings -----------===//

#include "LoweringUtils.h"
#include "GroupedOffset.h"
#include "mlir/Conversion/GPUCommon/GPUCommonPass.h"
#include "mlir/Conversion/LLVMCommon/MemRefBuilder.h"
#include "mlir/Conversion/NVGPUToNVVM/NVGPUToNVVM.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "tile/Dialect/Tile/IR/TileDialect.h"
#include "tile/Dialect/Tile/IR/TileTypeUtils.h"

using namespace mlir;
using namespace mlir::tile;

void mlir::tile::populateTileTypeConversions(LLVMTypeConverter &converter) {
  populateGpuMemorySpaceAttributeConversions(
      converter, [](gpu::AddressSpace space) -> unsigned {
        switch (space) {
        case gpu::AddressSpace::Global:
          return kGlobalAddressSpace;
        case gpu::AddressSpace::Workgroup:
          return kSharedAddressSpace;
        case gpu::AddressSpace::Private:
          return static_cast<unsigned>(NVVM::NVVMMemorySpace::Local);
        }
        return 0;
      });
  // A device map is the global address of its slot.
  converter.addConversion([](DeviceMapType type) -> Type {
    return LLVM::LLVMPointerType::get(type.getContext(), kGlobalAddressSpace);
  });
  // Conversions added later are tried first: these take precedence over the
  // LLVM converter's own memref conversion.
  converter.addConversion([&converter](MemRefType type) -> std::optional<Type> {
    if (!isa<LayoutAttr>(type.getLayout()))
      return std::nullopt;
    // The same address space a descriptor of this memref would use.
    FailureOr<unsigned> space = converter.getMemRefAddressSpace(type);
    if (failed(space))
      return std::nullopt;
    return LLVM::LLVMPointerType::get(type.getContext(), *space);
  });
  converter.addConversion(
      [&converter](nvgpu::MBarrierGroupType type) -> std::optional<Type> {
        return converter.convertType(
            nvgpu::getMBarrierMemrefType(type.getContext(), type));
      });
}

Value mlir::tile::emitLayoutElementAddress(OpBuilder &b, Location loc,
                                           Value base, MemRefType type,
                                           ValueRange indices) {
  OpFoldResult offset = emitGroupedByteOffset(b, loc, *getGroupedLayout(type),
                                              *getElementBytes(type), indices);
  if (isZeroInteger(offset))
    return base;
  return emitBytePtrAdd(b, loc, base,
                        getValueOrCreateConstantIntOp(b, loc, offset));
}

Value mlir::tile::getBufferBasePtr(OpBuilder &b, Location loc, Value converted,
                                   MemRefType type,
                                   const LLVMTypeConverter &converter) {
  if (isa<LLVM::LLVMPointerType>(converted.getType()))
    return converted;
  MemRefDescriptor desc(converted);
  return desc.bufferPtr(b, loc, converter, type);
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

Value mlir::tile::i64Constant(OpBuilder &b, Location loc, int64_t value) {
  return LLVM::ConstantOp::create(b, loc, b.getI64Type(), value);
}

Value mlir::tile::i32Constant(OpBuilder &b, Location loc, int64_t value) {
  return LLVM::ConstantOp::create(b, loc, b.getI32Type(), value);
}

Value mlir::tile::mapToClusterCta(OpBuilder &b, Location loc, Value shared,
                                  Value cta) {
  auto window =
      LLVM::LLVMPointerType::get(b.getContext(), kSharedClusterAddressSpace);
  return NVVM::MapaOp::create(b, loc, window, shared, cta);
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

Value mlir::tile::createAsm(OpBuilder &b, Location loc, Type result,
                            ValueRange operands, StringRef code,
                            StringRef constraints) {
  return LLVM::InlineAsmOp::create(
             b, loc, result, operands, code, constraints,
             /*has_side_effects=*/true, /*is_align_stack=*/false,
             LLVM::TailCallKind::None,
             LLVM::AsmDialectAttr::get(b.getContext(),
                                       LLVM::AsmDialect::AD_ATT),
             /*operand_attrs=*/ArrayAttr())
      .getRes();
}
