//===- DeviceMapLowering.cpp - Device maps to slots and tensormap.replace -===//
//
// A `!tile.device_map` becomes the global address of the CTA's slot in the
// runtime's slot array (the kernel argument tile-tensor-map-abi added):
// array + ((linear CTA index) x slots + slot) x 128. An update copies the
// template (the host-encoded map of the template buffer, a kernel
// parameter) into the slot and replaces the fields the view decides: the
// global address, and the dimensions and strides the plan computes at run
// time, evaluated from the view's descriptor by the host's formulas
// (RuntimeFieldEmitter.h). The fences are fence.proxy.tensormap's release
// and acquire. A staged update builds the map in shared memory (lane 0)
// and the warp copies it to the slot with tensormap.cp_fenceproxy, which
// releases it too.
//
//===----------------------------------------------------------------------===//

#include "LoweringUtils.h"
#include "Patterns.h"
#include "TmaLowering.h"
#include "mlir/Conversion/LLVMCommon/MemRefBuilder.h"
#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "tile/Dialect/Tile/IR/DiscardableAttrs.h"
#include "tile/Dialect/Tile/IR/RuleDiagnostic.h"
#include "tile/Dialect/Tile/IR/RuntimeFieldEmitter.h"
#include "tile/Dialect/Tile/IR/TileOps.h"
#include "tile/Dialect/Tile/IR/TileTypeUtils.h"
#include "tile/TMA/Limits.h"

using namespace mlir;
using namespace mlir::tile;
using ::tile::RuleId;
using ::tile::tma::RuntimeValue;

/// A slot holds one tensor map, on a boundary of its size.
static constexpr int64_t kSlotBytes = ::tile::tma::limits::kTensorMapBytes;

/// The CTA's linear index in its grid, (z x grid.y + y) x grid.x + x, i64.
static Value emitLinearCtaIndex(OpBuilder &b, Location loc) {
  Type i32 = b.getI32Type(), i64 = b.getI64Type();
  auto ext = [&](Value v) { return LLVM::ZExtOp::create(b, loc, i64, v); };
  Value x = ext(NVVM::BlockIdXOp::create(b, loc, i32));
  Value y = ext(NVVM::BlockIdYOp::create(b, loc, i32));
  Value z = ext(NVVM::BlockIdZOp::create(b, loc, i32));
  Value gx = ext(NVVM::GridDimXOp::create(b, loc, i32));
  Value gy = ext(NVVM::GridDimYOp::create(b, loc, i32));
  Value zy = LLVM::AddOp::create(b, loc, LLVM::MulOp::create(b, loc, z, gy), y);
  return LLVM::AddOp::create(b, loc, LLVM::MulOp::create(b, loc, zy, gx), x);
}

/// The record of the map argument `mapArg` of `func` (tile.tensor_maps).
static TensorMapAttr getMapRecord(gpu::GPUFuncOp func, int64_t mapArg) {
  auto maps = func ? func->getAttrOfType<ArrayAttr>(kTensorMapsAttr) : nullptr;
  if (!maps)
    return {};
  for (Attribute attr : maps)
    if (auto map = dyn_cast<TensorMapAttr>(attr); map && map.getArg() == mapArg)
      return map;
  return {};
}

/// What an update writes into a map: the template's bytes, then the fields
/// the view decides.
struct MapFields {
  Value templ;
  Value base;
  const ::tile::tma::TensorMapDesc &desc;
  RuntimeValueReader read;
};

/// Writes the map of `fields` at `dest` (the slot in global memory or the
/// stage in shared memory; tensormap.replace takes either space).
static void emitMapFill(OpBuilder &b, Location loc, Value dest,
                        const MapFields &fields) {
  Type i64 = b.getI64Type();
  auto chunk = VectorType::get({2}, i64);
  for (int64_t at = 0; at < kSlotBytes; at += 16) {
    Value from = emitBytePtrAdd(b, loc, fields.templ, i64Constant(b, loc, at));
    Value to = emitBytePtrAdd(b, loc, dest, i64Constant(b, loc, at));
    Value bytes = LLVM::LoadOp::create(b, loc, chunk, from, 16);
    LLVM::StoreOp::create(b, loc, bytes, to, 16);
  }
  auto replace = [&](StringRef intrinsic, ValueRange operands) {
    LLVM::CallIntrinsicOp::create(b, loc, b.getStringAttr(intrinsic), operands);
  };
  replace("llvm.nvvm.tensormap.replace.global.address", {dest, fields.base});
  for (auto [ord, field] : llvm::enumerate(fields.desc.runtimeGlobalDim)) {
    if (!field)
      continue;
    Value dim = LLVM::TruncOp::create(
        b, loc, b.getI32Type(), emitRuntimeField(b, loc, *field, fields.read));
    replace("llvm.nvvm.tensormap.replace.global.dim",
            {dest, i32Constant(b, loc, ord), dim});
  }
  for (auto [ord, field] : llvm::enumerate(fields.desc.runtimeGlobalStrides)) {
    if (!field)
      continue;
    replace("llvm.nvvm.tensormap.replace.global.stride",
            {dest, i32Constant(b, loc, ord),
             emitRuntimeField(b, loc, *field, fields.read)});
  }
}

namespace {
struct DeviceMapOpLowering : public ConvertOpToLLVMPattern<DeviceMapOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(DeviceMapOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto func = op->getParentOfType<gpu::GPUFuncOp>();
    auto slot = op->getAttrOfType<IntegerAttr>(kDeviceMapSlotAttr);
    auto arrayArg =
        func ? func->getAttrOfType<IntegerAttr>(kDeviceMapArrayArgAttr)
             : nullptr;
    auto slots =
        func ? func->getAttrOfType<IntegerAttr>(kDeviceMapSlotsAttr) : nullptr;
    if (!slot || !arrayArg || !slots ||
        arrayArg.getInt() >= func.getNumArguments())
      return rewriter.notifyMatchFailure(
          op, "device map outside a kernel the tensor-map ABI pass has seen "
              "(run --tile-tensor-map-abi first)");
    Location loc = op.getLoc();
    Value array = func.getArgument(arrayArg.getInt());
    if (!isa<LLVM::LLVMPointerType>(array.getType()))
      return rewriter.notifyMatchFailure(op, "the slot array is not a pointer");
    Value global = LLVM::AddrSpaceCastOp::create(
        rewriter, loc,
        LLVM::LLVMPointerType::get(op.getContext(), kGlobalAddressSpace),
        array);
    Value index = LLVM::AddOp::create(
        rewriter, loc,
        LLVM::MulOp::create(rewriter, loc, emitLinearCtaIndex(rewriter, loc),
                            i64Constant(rewriter, loc, slots.getInt())),
        i64Constant(rewriter, loc, slot.getInt()));
    Value offset = LLVM::MulOp::create(rewriter, loc, index,
                                       i64Constant(rewriter, loc, kSlotBytes));
    rewriter.replaceOp(op, emitBytePtrAdd(rewriter, loc, global, offset));
    return success();
  }
};

struct DeviceMapUpdateLowering
    : public ConvertOpToLLVMPattern<DeviceMapUpdateOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(DeviceMapUpdateOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto def = op.getMap().getDefiningOp<DeviceMapOp>();
    auto mapArg =
        def ? def->getAttrOfType<IntegerAttr>(kTensorMapArgAttr) : nullptr;
    if (!mapArg)
      return rewriter.notifyMatchFailure(
          op, "device map without a template (run --tile-tensor-map-abi)");
    TensorMapAttr record =
        getMapRecord(op->getParentOfType<gpu::GPUFuncOp>(), mapArg.getInt());
    TiledMapAttr tiled = record ? record.getTiledMap() : nullptr;
    if (!tiled)
      return rewriter.notifyMatchFailure(op, "the template has no tiled map");
    const ::tile::tma::TensorMapDesc &desc = tiled.getDesc();
    MemRefType viewType = op.getView().getType();
    std::optional<int64_t> elementBytes = getElementBytes(viewType);
    if (!elementBytes)
      return rewriter.notifyMatchFailure(op, "sub-byte element type");
    // The view's address: the plan's base offset minus the part the
    // template's static offset contributed, plus the view's offset.
    SmallVector<int64_t> strides;
    int64_t templateOffset = 0;
    MemRefType templType = op.getMap().getType().getTemplateType();
    if (failed(getMemRefStridesAndOffset(templType, strides, templateOffset)))
      return rewriter.notifyMatchFailure(op, "template without strides");
    if (ShapedType::isDynamic(templateOffset))
      templateOffset = 0;
    if (desc.runtimeOffsetScale != 0 &&
        desc.runtimeOffsetScale != *elementBytes)
      return emitRuleError(op, RuleId::DeviceMapView)
             << "the template's plan scales the offset by "
             << desc.runtimeOffsetScale << " bytes, not the element's "
             << *elementBytes;
    int64_t regionBytes =
        *desc.baseOffsetBytes.constantValue() - templateOffset * *elementBytes;

    MemRefDescriptor view(adaptor.getView());
    Type i64 = rewriter.getI64Type();
    Value address;
    auto read = [&](RuntimeValue v) -> Value {
      switch (v.kind) {
      case RuntimeValue::Kind::Address:
        if (!address)
          address = LLVM::PtrToIntOp::create(rewriter, loc, i64,
                                             view.alignedPtr(rewriter, loc));
        return address;
      case RuntimeValue::Kind::Offset:
        return view.offset(rewriter, loc);
      case RuntimeValue::Kind::Size:
        return view.size(rewriter, loc, v.dim);
      case RuntimeValue::Kind::Stride:
        return view.stride(rewriter, loc, v.dim);
      }
      llvm_unreachable("a RuntimeValue kind the switch does not name");
    };
    Value base = LLVM::AddOp::create(
        rewriter, loc, read(RuntimeValue::address()),
        LLVM::MulOp::create(rewriter, loc, read(RuntimeValue::offset()),
                            i64Constant(rewriter, loc, *elementBytes)));
    if (regionBytes != 0)
      base = LLVM::AddOp::create(rewriter, loc, base,
                                 i64Constant(rewriter, loc, regionBytes));
    // The TMA reads its global base in 16-byte granules.
    Value rem = LLVM::URemOp::create(
        rewriter, loc, base,
        i64Constant(rewriter, loc, ::tile::tma::limits::kGranuleBytes));
    Value ok = LLVM::ICmpOp::create(rewriter, loc, LLVM::ICmpPredicate::eq, rem,
                                    i64Constant(rewriter, loc, 0));
    for (GuardAttr guard : record.getGuardList())
      ok = arith::AndIOp::create(
          rewriter, loc, ok,
          emitGuardHolds(rewriter, loc, guard.getGuard(), read));

    FailureOr<Value> templ = getTensorMapPtr(def, rewriter);
    if (failed(templ))
      return failure();
    Value slot = adaptor.getMap();
    MapFields fields{*templ, base, desc, read};
    if (!op.isStaged()) {
      auto ifOk =
          scf::IfOp::create(rewriter, loc, ok, /*withElseRegion=*/false);
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPoint(ifOk.thenBlock()->getTerminator());
      emitMapFill(rewriter, loc, slot, fields);
      rewriter.replaceOp(op, ok);
      return success();
    }
    // Staged: lane 0 builds the map in shared memory; the warp copies it to
    // the slot, releasing it to the tensor-map proxy.
    Value stage = getBufferBasePtr(rewriter, loc, adaptor.getStage(),
                                   cast<MemRefType>(op.getStage().getType()),
                                   *getTypeConverter());
    Value stageRem = LLVM::URemOp::create(
        rewriter, loc, LLVM::PtrToIntOp::create(rewriter, loc, i64, stage),
        i64Constant(rewriter, loc, kSlotBytes));
    ok = arith::AndIOp::create(
        rewriter, loc, ok,
        LLVM::ICmpOp::create(rewriter, loc, LLVM::ICmpPredicate::eq, stageRem,
                             i64Constant(rewriter, loc, 0)));
    // One answer for the warp, so that every lane or none reaches the
    // warp-wide copy.
    Value fullWarp = i32Constant(rewriter, loc, -1);
    ok = NVVM::VoteSyncOp::create(rewriter, loc, rewriter.getI1Type(), fullWarp,
                                  ok, NVVM::VoteSyncKind::all);
    auto ifOk = scf::IfOp::create(rewriter, loc, ok, /*withElseRegion=*/false);
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPoint(ifOk.thenBlock()->getTerminator());
    Value lane = NVVM::LaneIdOp::create(rewriter, loc, rewriter.getI32Type());
    Value isLaneZero =
        LLVM::ICmpOp::create(rewriter, loc, LLVM::ICmpPredicate::eq, lane,
                             i32Constant(rewriter, loc, 0));
    auto ifLaneZero =
        scf::IfOp::create(rewriter, loc, isLaneZero, /*withElseRegion=*/false);
    {
      OpBuilder::InsertionGuard inLaneZero(rewriter);
      rewriter.setInsertionPoint(ifLaneZero.thenBlock()->getTerminator());
      emitMapFill(rewriter, loc, stage, fields);
    }
    // bar.warp.sync orders lane 0's writes before the other lanes' reads.
    NVVM::SyncWarpOp::create(rewriter, loc, fullWarp);
    Value slotAddress = LLVM::PtrToIntOp::create(rewriter, loc, i64, slot);
    Value stageAddress =
        LLVM::PtrToIntOp::create(rewriter, loc, rewriter.getI32Type(), stage);
    createAsm(rewriter, loc, /*result=*/Type(),
              ValueRange{slotAddress, stageAddress},
              "tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic."
              "release.gpu.sync.aligned [$0], [$1], " +
                  std::to_string(kSlotBytes) + ";",
              "l,r");
    rewriter.replaceOp(op, ok);
    return success();
  }
};

struct DeviceMapReleaseLowering
    : public ConvertOpToLLVMPattern<DeviceMapReleaseOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(DeviceMapReleaseOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    NVVM::FenceProxyReleaseOp::create(rewriter, op.getLoc(),
                                      NVVM::MemScopeKind::GPU);
    rewriter.eraseOp(op);
    return success();
  }
};

struct DeviceMapAcquireLowering
    : public ConvertOpToLLVMPattern<DeviceMapAcquireOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(DeviceMapAcquireOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value generic = LLVM::AddrSpaceCastOp::create(
        rewriter, loc, LLVM::LLVMPointerType::get(op.getContext()),
        adaptor.getMap());
    NVVM::FenceProxyAcquireOp::create(rewriter, loc, NVVM::MemScopeKind::GPU,
                                      generic,
                                      i32Constant(rewriter, loc, kSlotBytes));
    rewriter.eraseOp(op);
    return success();
  }
};
} // namespace

void mlir::tile::populateDeviceMapLoweringPatterns(
    const LLVMTypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<DeviceMapOpLowering, DeviceMapUpdateLowering,
               DeviceMapReleaseLowering, DeviceMapAcquireLowering>(converter);
}
