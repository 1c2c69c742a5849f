//===- StreamOrderedMemory.cpp - gpu.alloc/dealloc async on the stream ----===//
//
// Upstream lowers `gpu.alloc async [%t]` to mgpuMemAlloc(bytes, stream), whose
// wrapper allocates synchronously (cuMemAlloc) and ignores the stream, and
// `gpu.dealloc async` to mgpuMemFree, a cuMemFree that waits for the whole
// device. Here they become the runtime's stream-ordered calls
// (tileRuntimeMemAllocAsync, tileRuntimeMemFreeAsync): the allocation and
// the free are ordered on the token's stream, the null stream included (the
// legacy default stream, which is PyTorch's default), and the host does not
// wait. Host-shared allocations keep upstream's lowering (managed memory).
//
// `tile.stream_workspace` becomes tileRuntimeStreamWorkspace(name, bytes,
// zeroed, stream): the runtime's buffer for the stream, kept across calls.
//
//===----------------------------------------------------------------------===//

#include "StreamOrderedMemory.h"
#include "tile/Conversion/HostSymbols.h"
#include "tile/Dialect/Tile/IR/TileOps.h"

#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/FunctionCallUtils.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

using namespace mlir;

namespace {

constexpr StringLiteral kAllocFn = "tileRuntimeMemAllocAsync";
constexpr StringLiteral kFreeFn = "tileRuntimeMemFreeAsync";
constexpr StringLiteral kWorkspaceFn = "tileRuntimeStreamWorkspace";

/// The token's stream: an async op with exactly one dependency, as upstream
/// requires.
Value streamOf(ValueRange dependencies, Value token) {
  return token && dependencies.size() == 1 ? dependencies.front() : Value();
}

/// A pattern whose op becomes runtime calls, which it declares and finds
/// through the pass's symbol tables (built once: a lookup by name per op
/// would scan the module each time).
template <typename SourceOp>
struct RuntimeCallPattern : public ConvertOpToLLVMPattern<SourceOp> {
  RuntimeCallPattern(const LLVMTypeConverter &converter,
                     SymbolTableCollection &symbolTables,
                     PatternBenefit benefit = 1)
      : ConvertOpToLLVMPattern<SourceOp>(converter, benefit),
        symbolTables(symbolTables) {}

  /// The call of runtime function `name` (declared on first use) on `args`;
  /// a null `result` is void.
  FailureOr<LLVM::CallOp> call(ConversionPatternRewriter &rewriter,
                               Operation *op, StringRef name, ValueRange args,
                               Type result) const {
    if (!result)
      result = LLVM::LLVMVoidType::get(rewriter.getContext());
    SmallVector<Type> types(args.getTypes());
    FailureOr<LLVM::LLVMFuncOp> fn = LLVM::lookupOrCreateFn(
        rewriter, op->getParentOfType<ModuleOp>(), name, types, result,
        /*isVarArg=*/false, /*isReserved=*/false, &symbolTables);
    if (failed(fn))
      return failure();
    return LLVM::CallOp::create(rewriter, op->getLoc(), *fn, args);
  }

  SymbolTableCollection &symbolTables;
};

/// A pattern whose op becomes a runtime call returning a buffer.
template <typename SourceOp>
struct RuntimeBufferPattern : public RuntimeCallPattern<SourceOp> {
  using RuntimeCallPattern<SourceOp>::RuntimeCallPattern;

  /// The descriptor of the `type` buffer of `dynamicSizes` elements that
  /// runtime function `fn` returns, called on `args(bytes)`.
  template <typename Args>
  FailureOr<Value> runtimeBuffer(ConversionPatternRewriter &rewriter,
                                 Operation *op, MemRefType type,
                                 ValueRange dynamicSizes, StringRef fn,
                                 Args args) const {
    Location loc = op->getLoc();
    SmallVector<Value, 4> shape, strides;
    Value bytes;
    this->getMemRefDescriptorSizes(loc, type, dynamicSizes, rewriter, shape,
                                   strides, bytes);
    FailureOr<LLVM::CallOp> called =
        this->call(rewriter, op, fn, args(bytes),
                   LLVM::LLVMPointerType::get(rewriter.getContext()));
    if (failed(called))
      return failure();
    Value ptr = called->getResult();
    Value descriptor = this->createMemRefDescriptor(loc, type, ptr, ptr, shape,
                                                    strides, rewriter);
    return descriptor;
  }
};

struct AllocOnStream : public RuntimeBufferPattern<gpu::AllocOp> {
  using RuntimeBufferPattern::RuntimeBufferPattern;

  LogicalResult
  matchAndRewrite(gpu::AllocOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value stream = streamOf(adaptor.getAsyncDependencies(), op.getAsyncToken());
    MemRefType type = op.getType();
    if (!stream || op.getHostShared() || !isConvertibleAndHasIdentityMaps(type))
      return rewriter.notifyMatchFailure(op, "upstream's lowering applies");
    FailureOr<Value> descriptor = runtimeBuffer(
        rewriter, op, type, adaptor.getDynamicSizes(), kAllocFn,
        [&](Value bytes) { return SmallVector<Value>{bytes, stream}; });
    if (failed(descriptor))
      return failure();
    rewriter.replaceOp(op, {*descriptor, stream});
    return success();
  }
};

struct DeallocOnStream : public RuntimeCallPattern<gpu::DeallocOp> {
  using RuntimeCallPattern::RuntimeCallPattern;

  LogicalResult
  matchAndRewrite(gpu::DeallocOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value stream = streamOf(adaptor.getAsyncDependencies(), op.getAsyncToken());
    if (!stream)
      return rewriter.notifyMatchFailure(op, "upstream's lowering applies");
    MemRefDescriptor descriptor(adaptor.getMemref());
    Value ptr = descriptor.allocatedPtr(rewriter, op.getLoc());
    if (failed(call(rewriter, op, kFreeFn, {ptr, stream}, Type())))
      return failure();
    rewriter.replaceOp(op, {stream});
    return success();
  }
};

struct StreamWorkspaceOnStream
    : public RuntimeBufferPattern<mlir::tile::StreamWorkspaceOp> {
  using RuntimeBufferPattern::RuntimeBufferPattern;

  LogicalResult
  matchAndRewrite(mlir::tile::StreamWorkspaceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = cast<MemRefType>(op.getBuffer().getType());
    SymbolTable &symbols =
        symbolTables.getSymbolTable(op->getParentOfType<ModuleOp>());
    Value name = mlir::tile::host::getStringAddress(rewriter, symbols,
                                                    op.getLoc(), op.getName());
    Value zeroed = LLVM::ConstantOp::create(
        rewriter, op.getLoc(), rewriter.getI32Type(),
        rewriter.getI32IntegerAttr(op.getZeroed() ? 1 : 0));
    FailureOr<Value> descriptor = runtimeBuffer(
        rewriter, op, type, adaptor.getSize(), kWorkspaceFn, [&](Value bytes) {
          return SmallVector<Value>{name, bytes, zeroed, adaptor.getStream()};
        });
    if (failed(descriptor))
      return failure();
    rewriter.replaceOp(op, *descriptor);
    return success();
  }
};

} // namespace

void mlir::tile::populateStreamOrderedMemoryPatterns(
    const LLVMTypeConverter &converter, RewritePatternSet &patterns,
    SymbolTableCollection &symbolTables) {
  // Above upstream's patterns for the same ops (benefit 1).
  patterns.add<AllocOnStream, DeallocOnStream>(converter, symbolTables,
                                               /*benefit=*/2);
  patterns.add<StreamWorkspaceOnStream>(converter, symbolTables);
}
