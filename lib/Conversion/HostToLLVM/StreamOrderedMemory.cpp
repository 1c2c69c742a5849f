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
#include "tile/Dialect/Tile/IR/TileOps.h"

#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/FunctionCallUtils.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "llvm/Support/xxhash.h"

using namespace mlir;

namespace {

constexpr StringLiteral kAllocFn = "tileRuntimeMemAllocAsync";
constexpr StringLiteral kFreeFn = "tileRuntimeMemFreeAsync";
constexpr StringLiteral kWorkspaceFn = "tileRuntimeStreamWorkspace";

/// The call of runtime function `name` (declared on first use) on `args`;
/// a null `result` is void.
FailureOr<LLVM::CallOp> callRuntime(ConversionPatternRewriter &rewriter,
                                    Operation *op, StringRef name,
                                    ValueRange args, Type result) {
  auto module = op->getParentOfType<ModuleOp>();
  if (!result)
    result = LLVM::LLVMVoidType::get(rewriter.getContext());
  SmallVector<Type> types(args.getTypes());
  FailureOr<LLVM::LLVMFuncOp> fn =
      LLVM::lookupOrCreateFn(rewriter, module, name, types, result);
  if (failed(fn))
    return failure();
  return LLVM::CallOp::create(rewriter, op->getLoc(), *fn, args);
}

/// The token's stream: an async op with exactly one dependency, as upstream
/// requires.
Value streamOf(ValueRange dependencies, Value token) {
  return token && dependencies.size() == 1 ? dependencies.front() : Value();
}

/// A pattern whose op becomes a runtime call returning a buffer.
template <typename SourceOp>
struct RuntimeBufferPattern : public ConvertOpToLLVMPattern<SourceOp> {
  using ConvertOpToLLVMPattern<SourceOp>::ConvertOpToLLVMPattern;

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
    FailureOr<LLVM::CallOp> call =
        callRuntime(rewriter, op, fn, args(bytes),
                    LLVM::LLVMPointerType::get(rewriter.getContext()));
    if (failed(call))
      return failure();
    Value ptr = call->getResult();
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

struct DeallocOnStream : public ConvertOpToLLVMPattern<gpu::DeallocOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(gpu::DeallocOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value stream = streamOf(adaptor.getAsyncDependencies(), op.getAsyncToken());
    if (!stream)
      return rewriter.notifyMatchFailure(op, "upstream's lowering applies");
    MemRefDescriptor descriptor(adaptor.getMemref());
    Value ptr = descriptor.allocatedPtr(rewriter, op.getLoc());
    if (failed(callRuntime(rewriter, op, kFreeFn, {ptr, stream}, Type())))
      return failure();
    rewriter.replaceOp(op, {stream});
    return success();
  }
};

/// The address of a NUL-terminated constant holding `text`, one global per
/// text in the module (named by the text's hash, reused where it exists).
Value stringAddress(ConversionPatternRewriter &rewriter, Operation *op,
                    StringRef text) {
  auto module = op->getParentOfType<ModuleOp>();
  std::string symbol =
      ("tile_workspace_name_" + Twine(llvm::xxh3_64bits(text))).str();
  Location loc = op->getLoc();
  // The global's address is its first character's (opaque pointers).
  if (auto global = module.lookupSymbol<LLVM::GlobalOp>(symbol))
    return LLVM::AddressOfOp::create(rewriter, loc, global);
  return LLVM::createGlobalString(loc, rewriter, symbol, text,
                                  LLVM::Linkage::Internal);
}

struct StreamWorkspaceOnStream
    : public RuntimeBufferPattern<mlir::tile::StreamWorkspaceOp> {
  using RuntimeBufferPattern::RuntimeBufferPattern;

  LogicalResult
  matchAndRewrite(mlir::tile::StreamWorkspaceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = cast<MemRefType>(op.getBuffer().getType());
    std::string text = op.getName().str();
    Value name = stringAddress(rewriter, op, StringRef(text.c_str(),
                                                       text.size() + 1));
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
    const LLVMTypeConverter &converter, RewritePatternSet &patterns) {
  // Above upstream's patterns for the same ops (benefit 1).
  patterns.add<AllocOnStream, DeallocOnStream>(converter, /*benefit=*/2);
  patterns.add<StreamWorkspaceOnStream>(converter);
}
