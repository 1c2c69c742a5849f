//===- LoweringUtils.h - Helpers shared by the copy lowerings ---*- C++ -*-===//

#ifndef TILE_CONVERSION_TILETONVVM_LOWERINGUTILS_H
#define TILE_CONVERSION_TILETONVVM_LOWERINGUTILS_H

#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/Transforms/DialectConversion.h"
#include "tile/Dialect/Tile/IR/TileDialect.h"
#include "tile/TMA/SymExpr.h"

namespace mlir::tile {

/// NVVM address spaces of the pointers the lowering creates.
constexpr unsigned kGlobalAddressSpace =
    static_cast<unsigned>(NVVM::NVVMMemorySpace::Global);
constexpr unsigned kSharedAddressSpace =
    static_cast<unsigned>(NVVM::NVVMMemorySpace::Shared);
constexpr unsigned kSharedClusterAddressSpace =
    static_cast<unsigned>(NVVM::NVVMMemorySpace::SharedCluster);

/// Adds the tile lowering's type conversions to `converter`: memrefs with a
/// `#tile.layout` become bare `!llvm.ptr<space>` (their layout is static),
/// mbarrier groups become the memref descriptor upstream's nvgpu lowering
/// gives them, and `#gpu.address_space` maps to NVVM's address spaces (as
/// convert-gpu-to-nvvm maps them, so descriptors agree with the kernel
/// conversion that follows).
void populateTileTypeConversions(LLVMTypeConverter &converter);

/// Address of a buffer's first element (byte pointer in the buffer's address
/// space) from its converted value: a bare pointer or a memref descriptor.
Value getBufferBasePtr(OpBuilder &b, Location loc, Value converted,
                       MemRefType type, const LLVMTypeConverter &converter);

/// Address of the element at `indices` (i64 values, one per dimension, each
/// within its dimension) of a `#tile.layout` buffer starting at `base`: the
/// swizzled byte offset of emitGroupedByteOffset (GroupedOffset.h; the buffer
/// starts on the swizzle's repeat, so the XOR of the relative offset equals
/// the XOR of the absolute address).
Value emitLayoutElementAddress(OpBuilder &b, Location loc, Value base,
                               MemRefType type, ValueRange indices);

/// Address of barrier `index` of a converted mbarrier group.
Value getMBarrierPtr(OpBuilder &b, Location loc, Value convertedGroup,
                     Value index);

/// Materialises `expr` (symbols are index values) as a value of `type`
/// (an integer type or index).
Value emitSymExpr(OpBuilder &b, Location loc, const ::tile::tma::SymExpr &expr,
                  ArrayRef<Value> symbols, Type type);

/// An i64 `llvm.mlir.constant`.
Value i64Constant(OpBuilder &b, Location loc, int64_t value);

/// An i32 `llvm.mlir.constant`.
Value i32Constant(OpBuilder &b, Location loc, int64_t value);

/// The address of `shared` (a pointer into this CTA's shared memory) in CTA
/// `cta`'s (i32 rank in the cluster) shared memory, through the cluster's
/// shared window (`mapa`).
Value mapToClusterCta(OpBuilder &b, Location loc, Value shared, Value cta);

/// `base + byteOffset` as a byte GEP (offset of any integer type).
Value emitBytePtrAdd(OpBuilder &b, Location loc, Value base, Value byteOffset);

/// A side-effecting inline PTX statement (it stays in order with the
/// fences, commits and waits around it); `result` null for none.
Value createAsm(OpBuilder &b, Location loc, Type result, ValueRange operands,
                StringRef code, StringRef constraints);

/// The L2 cache policy constant of a `cache_hint`.
int64_t getCachePolicy(CacheHint hint);

} // namespace mlir::tile

#endif // TILE_CONVERSION_TILETONVVM_LOWERINGUTILS_H
