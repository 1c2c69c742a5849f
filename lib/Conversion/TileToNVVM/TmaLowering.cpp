//===- TmaLowering.cpp - cp.async.bulk.tensor emission --------------------===//

#include "TmaLowering.h"
#include "LoweringUtils.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "tile/Dialect/Tile/IR/DiscardableAttrs.h"
#include "tile/Dialect/Tile/IR/RuleDiagnostic.h"
#include "tile/Dispatch/BuiltinVariants.h"

using namespace mlir;
using namespace mlir::tile;

FailureOr<Value>
mlir::tile::getTensorMapPtr(Operation *op,
                            ConversionPatternRewriter &rewriter) {
  auto argIndex = op->getAttrOfType<IntegerAttr>(kTensorMapArgAttr);
  auto func = op->getParentOfType<gpu::GPUFuncOp>();
  if (!argIndex || !func)
    return rewriter.notifyMatchFailure(
        op, "TMA copy outside a kernel the tensor-map ABI pass has seen "
            "(run --tile-tensor-map-abi first)");
  if (argIndex.getInt() >= func.getNumArguments())
    return failure();
  Value arg = func.getArgument(argIndex.getInt());
  auto cast = UnrealizedConversionCastOp::create(
      rewriter, op->getLoc(), LLVM::LLVMPointerType::get(op->getContext()),
      arg);
  cast->setAttr(kTensorMapAddressAttr, rewriter.getUnitAttr());
  return cast.getResult(0);
}

/// The reduction a `reduce` store names (the op's enum has no "none": a
/// store without `reduce` takes the plain store).
static NVVM::TMAReduxKind getReduxKind(ReduceMode mode) {
  switch (mode) {
  case ReduceMode::Add:
    return NVVM::TMAReduxKind::ADD;
  case ReduceMode::Min:
    return NVVM::TMAReduxKind::MIN;
  case ReduceMode::Max:
    return NVVM::TMAReduxKind::MAX;
  case ReduceMode::Inc:
    return NVVM::TMAReduxKind::INC;
  case ReduceMode::Dec:
    return NVVM::TMAReduxKind::DEC;
  case ReduceMode::And:
    return NVVM::TMAReduxKind::AND;
  case ReduceMode::Or:
    return NVVM::TMAReduxKind::OR;
  case ReduceMode::Xor:
    return NVVM::TMAReduxKind::XOR;
  }
  llvm_unreachable("a ReduceMode the switch does not name");
}

/// The sm_100a forms reach LLVM's instruction selection as an abort on other
/// chips: the target the kernel's gpu.module names must have them.
static LogicalResult checkTargetForms(CopyAsyncOp op) {
  return verifySm100FormChip(op, getTargetChip(op), "the target chip");
}

LogicalResult mlir::tile::lowerTmaCopy(CopyAsyncOp op, const TmaMatch &match,
                                       ConversionPatternRewriter &rewriter,
                                       const LLVMTypeConverter &converter) {
  Location loc = op.getLoc();
  if (failed(checkTargetForms(op)))
    return failure();
  // Through a device map: its slot (a global address), generic as the
  // instruction takes it; else the kernel's map parameter.
  FailureOr<Value> tmap =
      op.getMap()
          ? FailureOr<Value>(LLVM::AddrSpaceCastOp::create(
                rewriter, loc, LLVM::LLVMPointerType::get(op.getContext()),
                rewriter.getRemappedValue(op.getMap())))
          : getTensorMapPtr(op, rewriter);
  if (failed(tmap))
    return failure();

  auto cachePolicy = [&]() -> Value {
    if (std::optional<CacheHint> hint = op.getCacheHintKind())
      return arith::ConstantIntOp::create(rewriter, loc, rewriter.getI64Type(),
                                          getCachePolicy(*hint));
    return Value();
  };
  Type i32 = rewriter.getI32Type();
  // A prefetch issues the load's boxes into L2 only: no shared address, no
  // barrier.
  if (op.getPrefetch()) {
    Value policy = cachePolicy();
    for (const ::tile::tma::TmaIssue &issue : match.plan.issues) {
      SmallVector<Value> coords;
      for (const ::tile::tma::SymExpr &c : issue.coords)
        coords.push_back(emitSymExpr(rewriter, loc, c, match.symbols, i32));
      NVVM::CpAsyncBulkTensorPrefetchOp::create(
          rewriter, loc, *tmap, coords, /*im2colOffsets=*/ValueRange{},
          NVVM::TMALoadMode::TILE, policy);
    }
    rewriter.eraseOp(op);
    return success();
  }

  bool load = op.isLoad();
  Value shared = rewriter.getRemappedValue(op.getShared());
  Value base = getBufferBasePtr(rewriter, loc, shared, op.getShared().getType(),
                                converter);
  Value mbar;
  if (load)
    mbar = getMBarrierPtr(rewriter, loc,
                          rewriter.getRemappedValue(op.getBarrier()),
                          op.getBarrierIndex());
  Value policy = cachePolicy();
  bool rows = op.isRowGather();
  NVVM::CTAGroupKindAttr group;
  if (std::optional<uint32_t> ctaGroup = op.getCtaGroup())
    group = NVVM::CTAGroupKindAttr::get(
        op.getContext(),
        *ctaGroup == 2 ? NVVM::CTAGroupKind::CTA_2 : NVVM::CTAGroupKind::CTA_1);
  NVVM::TMALoadMode loadMode =
      rows ? NVVM::TMALoadMode::TILE_GATHER4 : NVVM::TMALoadMode::TILE;
  NVVM::TMAStoreMode storeMode =
      rows ? NVVM::TMAStoreMode::TILE_SCATTER4 : NVVM::TMAStoreMode::TILE;
  for (const ::tile::tma::TmaIssue &issue : match.plan.issues) {
    Value offset = emitSymExpr(rewriter, loc, issue.smemByteOffset,
                               match.symbols, rewriter.getI64Type());
    Value smem = emitBytePtrAdd(rewriter, loc, base, offset);
    SmallVector<Value> coords;
    for (const ::tile::tma::SymExpr &c : issue.coords)
      coords.push_back(emitSymExpr(rewriter, loc, c, match.symbols, i32));
    if (load) {
      Value dst = LLVM::AddrSpaceCastOp::create(
          rewriter, loc,
          LLVM::LLVMPointerType::get(op.getContext(),
                                     kSharedClusterAddressSpace),
          smem);
      NVVM::CpAsyncBulkTensorGlobalToSharedClusterOp::create(
          rewriter, loc, dst, *tmap, coords, mbar, ValueRange{},
          op.getMulticastMask(), policy, loadMode,
          /*isCTAOnly=*/false, group, /*predicate=*/Value());
    } else if (std::optional<ReduceMode> reduce = op.getReduceKind()) {
      NVVM::CpAsyncBulkTensorReduceOp::create(
          rewriter, loc, *tmap, smem, getReduxKind(*reduce),
          NVVM::TMAStoreMode::TILE, coords, policy);
    } else {
      NVVM::CpAsyncBulkTensorSharedCTAToGlobalOp::create(
          rewriter, loc, *tmap, smem, coords, policy, storeMode,
          /*predicate=*/Value());
    }
  }
  rewriter.eraseOp(op);
  return success();
}
