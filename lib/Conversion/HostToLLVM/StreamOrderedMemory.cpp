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
//===----------------------------------------------------------------------===//

#include "StreamOrderedMemory.h"

#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/FunctionCallUtils.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

using namespace mlir;

namespace {

constexpr StringLiteral kAllocFn = "tileRuntimeMemAllocAsync";
constexpr StringLiteral kFreeFn = "tileRuntimeMemFreeAsync";

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

struct AllocOnStream : public ConvertOpToLLVMPattern<gpu::AllocOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(gpu::AllocOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value stream = streamOf(adaptor.getAsyncDependencies(), op.getAsyncToken());
    MemRefType type = op.getType();
    if (!stream || op.getHostShared() || !isConvertibleAndHasIdentityMaps(type))
      return rewriter.notifyMatchFailure(op, "upstream's lowering applies");
    Location loc = op.getLoc();
    SmallVector<Value, 4> shape, strides;
    Value bytes;
    getMemRefDescriptorSizes(loc, type, adaptor.getDynamicSizes(), rewriter,
                             shape, strides, bytes);
    FailureOr<LLVM::CallOp> call =
        callRuntime(rewriter, op, kAllocFn, {bytes, stream},
                    LLVM::LLVMPointerType::get(rewriter.getContext()));
    if (failed(call))
      return failure();
    Value ptr = call->getResult();
    Value descriptor =
        createMemRefDescriptor(loc, type, ptr, ptr, shape, strides, rewriter);
    rewriter.replaceOp(op, {descriptor, stream});
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

} // namespace

void mlir::tile::populateStreamOrderedMemoryPatterns(
    const LLVMTypeConverter &converter, RewritePatternSet &patterns) {
  // Above upstream's patterns for the same ops (benefit 1).
  patterns.add<AllocOnStream, DeallocOnStream>(converter, /*benefit=*/2);
}
