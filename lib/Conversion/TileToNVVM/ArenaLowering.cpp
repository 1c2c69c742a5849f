//===- ArenaLowering.cpp - tile.arena_view, tile.stage, dynamic smem ------===//
//
// Arena views point into one `external` shared global; a stage is an offset
// view of its buffer. Upstream's `gpu.dynamic_shared_memory` points at the
// same global: its own lowering makes a zero-size `internal` shared global,
// which ptxas lays out like any static variable, so the kernel's dynamic
// shared memory may start on another static variable (an mbarrier) and is
// only 16-byte aligned.
//
//===----------------------------------------------------------------------===//

#include "LoweringUtils.h"
#include "Patterns.h"
#include "mlir/Conversion/LLVMCommon/MemRefBuilder.h"
#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "tile/Dialect/Tile/IR/TileOps.h"
#include "tile/TMA/Limits.h"

using namespace mlir;
using namespace mlir::tile;

/// Name of the dynamic shared memory global every arena view points into.
static constexpr StringLiteral kArenaSymbol = "__tile_arena";

/// `external` address-space-3 global aligned to 1024 (PTX `.extern .shared
/// .align 1024`). Upstream `gpu.dynamic_shared_memory` is not used: it lowers
/// to a zero-size internal global whose accesses LLVM -O2 deletes.
static LLVM::GlobalOp getOrCreateArena(OpBuilder &b, Operation *from) {
  Operation *symbolTable = from->getParentWithTrait<OpTrait::SymbolTable>();
  if (auto existing = dyn_cast_or_null<LLVM::GlobalOp>(
          SymbolTable::lookupSymbolIn(symbolTable, kArenaSymbol)))
    return existing;
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&symbolTable->getRegion(0).front());
  auto type = LLVM::LLVMArrayType::get(b.getI8Type(), 0);
  return LLVM::GlobalOp::create(b, from->getLoc(), type, /*isConstant=*/false,
                                LLVM::Linkage::External, kArenaSymbol,
                                /*value=*/Attribute(),
                                /*alignment=*/
                                ::tile::tma::limits::kArenaAlignmentBytes,
                                /*addrSpace=*/kSharedAddressSpace);
}

/// Builds the converted value of a shared memref starting at `ptr`: the
/// pointer itself for `#tile.layout` memrefs, a static descriptor otherwise.
static Value makeBufferValue(OpBuilder &b, Location loc, Value ptr,
                             MemRefType type,
                             const LLVMTypeConverter &converter) {
  Type converted = converter.convertType(type);
  if (!converted || isa<LLVM::LLVMPointerType>(converted))
    return ptr;
  return MemRefDescriptor::fromStaticShape(b, loc, converter, type, ptr);
}

namespace {
struct ArenaViewLowering : public ConvertOpToLLVMPattern<ArenaViewOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(ArenaViewOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    LLVM::GlobalOp arena = getOrCreateArena(rewriter, op);
    auto ptrType =
        LLVM::LLVMPointerType::get(getContext(), kSharedAddressSpace);
    Value base =
        LLVM::AddressOfOp::create(rewriter, loc, ptrType, arena.getSymName());
    Value offset = arith::ConstantIntOp::create(
        rewriter, loc, rewriter.getI64Type(), op.getOffset());
    Value ptr = emitBytePtrAdd(rewriter, loc, base, offset);
    rewriter.replaceOp(op, makeBufferValue(rewriter, loc, ptr,
                                           op.getResult().getType(),
                                           *getTypeConverter()));
    return success();
  }
};

struct StageLowering : public ConvertOpToLLVMPattern<StageOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(StageOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    const LLVMTypeConverter &converter = *getTypeConverter();
    Value base = getBufferBasePtr(rewriter, loc, adaptor.getSource(),
                                  op.getSource().getType(), converter);
    Value index = arith::IndexCastOp::create(
        rewriter, loc, rewriter.getI64Type(), op.getIndex());
    Value stride = arith::ConstantIntOp::create(
        rewriter, loc, rewriter.getI64Type(), op.getStageStrideBytes());
    Value offset = arith::MulIOp::create(rewriter, loc, index, stride);
    Value ptr = emitBytePtrAdd(rewriter, loc, base, offset);
    rewriter.replaceOp(op,
                       makeBufferValue(rewriter, loc, ptr,
                                       op.getResult().getType(), converter));
    return success();
  }
};

/// `gpu.dynamic_shared_memory` as the arena's start: a memref<?xi8> whose
/// pointers are the arena's address (views of it go through memref.view).
struct DynamicSharedMemoryLowering
    : public ConvertOpToLLVMPattern<gpu::DynamicSharedMemoryOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(gpu::DynamicSharedMemoryOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type structType = getTypeConverter()->convertType(op.getType());
    if (!structType)
      return failure();
    LLVM::GlobalOp arena = getOrCreateArena(rewriter, op);
    auto ptrType =
        LLVM::LLVMPointerType::get(getContext(), kSharedAddressSpace);
    Value base =
        LLVM::AddressOfOp::create(rewriter, loc, ptrType, arena.getSymName());
    auto descriptor = MemRefDescriptor::poison(rewriter, loc, structType);
    descriptor.setAllocatedPtr(rewriter, loc, base);
    descriptor.setAlignedPtr(rewriter, loc, base);
    descriptor.setConstantOffset(rewriter, loc, 0);
    // The size is the launch's; like upstream's lowering, the descriptor
    // says 0 (memref.view reads only the pointer).
    descriptor.setConstantSize(rewriter, loc, 0, 0);
    descriptor.setConstantStride(rewriter, loc, 0, 1);
    rewriter.replaceOp(op, Value(descriptor));
    return success();
  }
};

} // namespace

void mlir::tile::populateArenaLoweringPatterns(
    const LLVMTypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<ArenaViewLowering, StageLowering, DynamicSharedMemoryLowering>(
      converter);
}
