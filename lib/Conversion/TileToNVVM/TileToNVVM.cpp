//===- TileToNVVM.cpp - --convert-tile-to-nvvm ----------------------------===//
//
// Lowers the tile dialect inside kernels to NVVM/LLVM ops. Copies go through
// the dispatch registry; the arena becomes an `external` shared global.
//
//===----------------------------------------------------------------------===//

#include "tile/Conversion/TileToNVVM/TileToNVVM.h"
#include "LoweringUtils.h"
#include "TmaLowering.h"
#include "Variants.h"
#include "mlir/Conversion/LLVMCommon/MemRefBuilder.h"
#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Transforms/DialectConversion.h"
#include "tile/Conversion/Passes.h"
#include "tile/Dialect/Tile/IR/DiscardableAttrs.h"
#include "tile/Dialect/Tile/IR/TileOps.h"
#include "tile/Dialect/Tile/IR/TileTypeUtils.h"

namespace mlir::tile {
#define GEN_PASS_DEF_TILETONVVM
#include "tile/Conversion/Passes.h.inc"
} // namespace mlir::tile

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
                                /*value=*/Attribute(), /*alignment=*/1024,
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

/// The decisions of the copies a conversion lowers, recalled before it
/// starts (op -> decision).
using RecalledDecisions = llvm::DenseMap<Operation *, DispatchResult>;

/// Recalls `op`'s recorded decision and checks that it can be lowered here;
/// a diagnostic at the op otherwise.
static FailureOr<DispatchResult> recallLowerableDecision(Operation *op) {
  FailureOr<DispatchResult> result = recallCopyDecision(op);
  if (failed(result))
    return failure();
  if (!result->selected) {
    emitNoVariantError(op, *result);
    return failure();
  }
  if (result->match && result->match->getTensorMapRequest() &&
      !op->hasAttr(kTensorMapArgAttr))
    return op->emitError()
           << "tma: this copy has no tensor-map kernel argument; run "
              "--tile-tensor-map-abi first (--tile-gpu-pipeline does), "
              "with the copy inside a gpu.func kernel whose launch is "
              "visible, or request dispatch = \"simt\"";
  return result;
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

struct BulkCommitLowering : public ConvertOpToLLVMPattern<BulkCommitGroupOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(BulkCommitGroupOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<NVVM::CpAsyncBulkCommitGroupOp>(op);
    return success();
  }
};

struct BulkWaitLowering : public ConvertOpToLLVMPattern<BulkWaitGroupOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(BulkWaitGroupOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<NVVM::CpAsyncBulkWaitGroupOp>(
        op, op.getGroupAttr(), op.getReadAttr());
    return success();
  }
};

/// Lowers a copy op through the variant its recorded decision names. The
/// pass recalls every decision up front (one diagnostic per copy, nothing
/// rewritten on failure); patterns an embedder populates recall their own.
template <typename CopyOpTy>
struct DispatchedCopyLowering : public ConvertOpToLLVMPattern<CopyOpTy> {
  DispatchedCopyLowering(const LLVMTypeConverter &converter,
                         const RecalledDecisions *recalled)
      : ConvertOpToLLVMPattern<CopyOpTy>(converter), recalled(recalled) {}
  LogicalResult
  matchAndRewrite(CopyOpTy op, typename CopyOpTy::Adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    std::optional<DispatchResult> own;
    const DispatchResult *decision = nullptr;
    if (recalled) {
      auto it = recalled->find(op);
      if (it != recalled->end())
        decision = &it->second;
    } else {
      FailureOr<DispatchResult> result = recallLowerableDecision(op);
      if (succeeded(result))
        decision = &own.emplace(std::move(*result));
    }
    if (!decision || !decision->selected)
      return rewriter.notifyMatchFailure(op, "no lowerable decision");
    return decision->selected->rewrite(op, decision->match.get(), rewriter,
                                       *this->getTypeConverter());
  }
  const RecalledDecisions *recalled;
};
} // namespace

static void populatePatterns(LLVMTypeConverter &converter,
                             RewritePatternSet &patterns,
                             const RecalledDecisions *recalled) {
  populateTileTypeConversions(converter);
  patterns.add<ArenaViewLowering, StageLowering, BulkCommitLowering,
               BulkWaitLowering>(converter);
  patterns
      .add<DispatchedCopyLowering<CopyAsyncOp>, DispatchedCopyLowering<CopyOp>>(
          converter, recalled);
}

void mlir::tile::populateTileToNVVMConversionPatterns(
    LLVMTypeConverter &converter, RewritePatternSet &patterns) {
  populatePatterns(converter, patterns, /*recalled=*/nullptr);
}

namespace {
struct TileToNVVMPass
    : public mlir::tile::impl::TileToNVVMBase<TileToNVVMPass> {
  using Base::Base;
  void getDependentDialects(DialectRegistry &registry) const override {
    Base::getDependentDialects(registry);
    registerBuiltinCopyVariants(registry);
  }
  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    // Recall every copy's recorded decision first so that each copy that
    // cannot be lowered gets its diagnostic, and nothing is rewritten.
    RecalledDecisions recalled;
    bool recallFailed = false;
    getOperation()->walk([&](Operation *op) {
      if (!isa<CopyAsyncOp, CopyOp>(op))
        return;
      FailureOr<DispatchResult> result = recallLowerableDecision(op);
      if (failed(result)) {
        recallFailed = true;
        return;
      }
      recalled.try_emplace(op, std::move(*result));
    });
    if (recallFailed)
      return signalPassFailure();

    LLVMTypeConverter converter(ctx);
    RewritePatternSet patterns(ctx);
    populatePatterns(converter, patterns, &recalled);
    ConversionTarget target(*ctx);
    target.addIllegalDialect<TileDialect>();
    target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
    if (failed(applyPartialConversion(getOperation(), target,
                                      std::move(patterns))))
      return signalPassFailure();
    if (prefetchTensorMaps)
      insertTensorMapPrefetches();
  }

  /// One `prefetch.tensormap` per tensor-map argument at kernel entry.
  void insertTensorMapPrefetches() {
    getOperation()->walk([](gpu::GPUFuncOp func) {
      SmallVector<UnrealizedConversionCastOp> casts;
      func.walk([&](UnrealizedConversionCastOp cast) {
        if (cast->hasAttr(kTensorMapAddressAttr))
          casts.push_back(cast);
      });
      llvm::SmallPtrSet<Value, 4> seen;
      OpBuilder b(func.getContext());
      b.setInsertionPointToStart(&func.getBody().front());
      for (UnrealizedConversionCastOp cast : casts) {
        Value arg = cast.getOperand(0);
        if (!seen.insert(arg).second)
          continue;
        auto addr = UnrealizedConversionCastOp::create(
            b, cast.getLoc(), cast.getResultTypes(), arg);
        addr->setAttr(kTensorMapAddressAttr, b.getUnitAttr());
        NVVM::PrefetchOp::create(b, cast.getLoc(), /*cacheLevel=*/nullptr,
                                 /*evictPriority=*/nullptr, addr.getResult(0),
                                 /*predicate=*/Value(),
                                 /*tensormap=*/true);
      }
    });
  }
};
} // namespace
