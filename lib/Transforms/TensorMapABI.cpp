//===- TensorMapABI.cpp - --tile-tensor-map-abi ---------------------------===//
//
// Device side: every distinct (global buffer, plan) of a kernel's TMA copies
// becomes a by-value 128-byte tensor-map argument appended after the user's
// arguments, in first-use order; the kernel records each map's plan in
// `tile.tensor_maps` so any host can encode it.
//
// Host side: before each `gpu.launch_func` of such a kernel, the maps are
// fetched from the runtime's encode cache (`tileTensorMapGetCached`), hoisted
// out of loops the buffer is invariant in, one call per distinct map, and
// passed to the launch. A launch whose map cannot be encoded is skipped (the
// runtime records the error for `tileRuntimeLastError`).
//
//===----------------------------------------------------------------------===//

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "tile/Transforms/Passes.h"
#include "tile/Conversion/TileToNVVM/TileToNVVM.h"
#include "tile/Dialect/Tile/IR/DiscardableAttrs.h"
#include "tile/Dialect/Tile/IR/TileOps.h"
#include "tile/Dispatch/CopyVariant.h"

namespace mlir::tile {
#define GEN_PASS_DEF_TILETENSORMAPABI
#include "tile/Transforms/Passes.h.inc"
} // namespace mlir::tile

using namespace mlir;
using namespace mlir::tile;

static constexpr StringLiteral kEncodeFn = "tileTensorMapGetCached";

static Type getMapArgType(MLIRContext *ctx) {
  return LLVM::LLVMArrayType::get(IntegerType::get(ctx, 64), 16);
}

/// The plan of a tensor map as an attribute (the fields a host needs).
static DictionaryAttr getMapAttr(Builder &b, const ::tile::tma::TmaPlan &plan,
                                 unsigned globalArg, unsigned mapArg) {
  const ::tile::tma::TensorMapDesc &m = plan.map;
  auto i64Array = [&](auto values) {
    SmallVector<int64_t> v(values.begin(), values.end());
    return b.getDenseI64ArrayAttr(v);
  };
  SmallVector<NamedAttribute> fields = {
      b.getNamedAttr("arg", b.getI64IntegerAttr(mapArg)),
      b.getNamedAttr("global_arg", b.getI64IntegerAttr(globalArg)),
      b.getNamedAttr("data_type",
                     b.getStringAttr(::tile::tma::toString(m.dataType))),
      b.getNamedAttr("data_type_enum",
                     b.getI64IntegerAttr(static_cast<int64_t>(m.dataType))),
      b.getNamedAttr("rank", b.getI64IntegerAttr(m.rank)),
      b.getNamedAttr("global_dim", i64Array(m.globalDim)),
      b.getNamedAttr("global_strides", i64Array(m.globalStridesBytes)),
      b.getNamedAttr("box_dim", i64Array(m.boxDim)),
      b.getNamedAttr("element_strides", i64Array(m.elementStrides)),
      b.getNamedAttr("interleave", b.getI64IntegerAttr(m.interleave)),
      b.getNamedAttr("swizzle",
                     b.getI64IntegerAttr(static_cast<int64_t>(m.swizzle))),
      b.getNamedAttr("l2_promotion", b.getI64IntegerAttr(m.l2Promotion)),
      b.getNamedAttr("oob_fill", b.getI64IntegerAttr(m.oobFill)),
      b.getNamedAttr("base_offset_bytes",
                     b.getI64IntegerAttr(*m.baseOffsetBytes.constantValue()))};
  return b.getDictionaryAttr(fields);
}

/// The map's identity without its argument number (for deduplication).
static DictionaryAttr withoutArg(DictionaryAttr map) {
  SmallVector<NamedAttribute> fields;
  for (NamedAttribute f : map)
    if (f.getName() != "arg")
      fields.push_back(f);
  return DictionaryAttr::get(map.getContext(), fields);
}

namespace {
struct TensorMapABIPass
    : public mlir::tile::impl::TileTensorMapABIBase<TensorMapABIPass> {
  void getDependentDialects(DialectRegistry &registry) const override {
    Base::getDependentDialects(registry);
    registerBuiltinCopyVariants(registry);
  }
  /// Encodes emitted so far: (block, global buffer, map) -> map pointer.
  llvm::DenseMap<std::tuple<Block *, Value, Attribute>, Value> encodedMaps;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    bool failedAny = false;
    module.walk([&](gpu::GPUFuncOp func) {
      if (func.isKernel() && failed(addKernelArguments(func)))
        failedAny = true;
    });
    if (failedAny)
      return signalPassFailure();
    encodedMaps.clear();
    SmallVector<gpu::LaunchFuncOp> launches;
    module.walk([&](gpu::LaunchFuncOp launch) { launches.push_back(launch); });
    for (gpu::LaunchFuncOp launch : launches)
      if (failed(encodeOnHost(launch)))
        return signalPassFailure();
  }

  LogicalResult addKernelArguments(gpu::GPUFuncOp func) {
    Builder b(func.getContext());
    SmallVector<Attribute> maps;
    SmallVector<std::pair<DictionaryAttr, unsigned>> seen;
    unsigned userArgs = func.getNumArguments();
    WalkResult walk = func.walk([&](CopyAsyncOp op) -> WalkResult {
      FailureOr<DispatchResult> result = recallCopyDecision(op);
      if (failed(result))
        return WalkResult::interrupt();
      const ::tile::tma::TmaPlan *request =
          result->selected && result->match
              ? result->match->getTensorMapRequest()
              : nullptr;
      if (!request)
        return WalkResult::advance();
      const ::tile::tma::TmaPlan &plan = *request;
      auto arg = dyn_cast<BlockArgument>(op.getGlobal());
      if (!arg || arg.getOwner() != &func.getBody().front() ||
          arg.getArgNumber() >= userArgs) {
        op.emitError() << "tma: the global buffer of a TMA copy must be an "
                          "argument of its kernel, so the host can encode its "
                          "tensor map";
        return WalkResult::interrupt();
      }
      if (!plan.map.baseOffsetBytes.isConstant()) {
        op.emitError() << "tma: the tensor map's base offset "
                       << plan.map.baseOffsetBytes.str()
                       << " bytes is not a compile-time constant";
        return WalkResult::interrupt();
      }
      DictionaryAttr key =
          withoutArg(getMapAttr(b, plan, arg.getArgNumber(), /*mapArg=*/0));
      unsigned mapArg = 0;
      auto it = llvm::find_if(seen, [&](auto &p) { return p.first == key; });
      if (it != seen.end()) {
        mapArg = it->second;
      } else {
        mapArg = func.getNumArguments();
        if (failed(func.insertArgument(mapArg, getMapArgType(b.getContext()),
                                       DictionaryAttr(), op.getLoc())))
          return WalkResult::interrupt();
        seen.push_back({key, mapArg});
        maps.push_back(getMapAttr(b, plan, arg.getArgNumber(), mapArg));
      }
      op->setAttr(kTensorMapArgAttr, b.getI64IntegerAttr(mapArg));
      return WalkResult::advance();
    });
    if (walk.wasInterrupted())
      return failure();
    if (!maps.empty())
      func->setAttr(kTensorMapsAttr, b.getArrayAttr(maps));
    return success();
  }

  /// Declares `const void *tileTensorMapGetCached(...)` in the host module.
  /// The runtime's encoder, declared once per module. A user symbol of the
  /// same name is an error (`reserved-symbol`), not a call into user code.
  FailureOr<func::FuncOp> getOrCreateEncodeFn(OpBuilder &b, ModuleOp module) {
    MLIRContext *ctx = module.getContext();
    Type i32 = b.getI32Type(), ptr = LLVM::LLVMPointerType::get(ctx);
    auto type = b.getFunctionType(
        {i32, i32, ptr, ptr, ptr, ptr, ptr, i32, i32, i32, i32}, {ptr});
    if (Operation *existing = module.lookupSymbol(kEncodeFn)) {
      auto fn = dyn_cast<func::FuncOp>(existing);
      if (fn && fn.isExternal() && fn.getFunctionType() == type)
        return fn;
      return existing->emitOpError()
             << "reserved-symbol: '@" << kEncodeFn
             << "' is the runtime's tensor-map encoder, which the host calls "
                "before each TMA launch; rename this symbol";
    }
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(module.getBody());
    auto fn = func::FuncOp::create(b, module.getLoc(), kEncodeFn, type);
    fn.setPrivate();
    return fn;
  }

  /// The outermost point before `launch` where `buffer` is available: out of
  /// every enclosing loop that does not define it.
  Operation *getHoistPoint(Operation *launch, Value buffer) {
    Operation *definedIn = buffer.getDefiningOp();
    if (!definedIn)
      definedIn = buffer.getParentBlock()->getParentOp();
    Operation *point = launch;
    for (Operation *parent = launch->getParentOp();
         parent && isa<LoopLikeOpInterface>(parent);
         parent = parent->getParentOp()) {
      if (parent->isAncestor(definedIn))
        break;
      point = parent;
    }
    return point;
  }

  /// The address of a constant array global holding `values` (one global
  /// per distinct array, e.g. @__tile_tmap_i64_64_8_4), so encode calls read
  /// their fields from read-only data instead of per-launch stack stores.
  Value getConstantArray(OpBuilder &b, Location loc, ArrayRef<int64_t> values,
                         IntegerType elementType) {
    ModuleOp module = getOperation();
    std::string name = "__tile_tmap_i" + std::to_string(elementType.getWidth());
    for (int64_t v : values)
      name += "_" + std::to_string(v);
    if (values.empty())
      name += "_empty";
    auto global = module.lookupSymbol<LLVM::GlobalOp>(name);
    if (!global) {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(module.getBody());
      int64_t n = std::max<int64_t>(values.size(), 1);
      SmallVector<APInt> bits;
      for (int64_t v : values)
        bits.push_back(APInt(elementType.getWidth(), v, /*isSigned=*/true));
      if (values.empty())
        bits.push_back(APInt(elementType.getWidth(), 0));
      auto tensorType = RankedTensorType::get({n}, elementType);
      global = LLVM::GlobalOp::create(
          b, loc, LLVM::LLVMArrayType::get(elementType, n),
          /*isConstant=*/true, LLVM::Linkage::Private, name,
          DenseElementsAttr::get(tensorType, bits));
    }
    return LLVM::AddressOfOp::create(b, loc, global);
  }

  Value emitEncode(OpBuilder &b, Location loc, Value buffer, DictionaryAttr map,
                   func::FuncOp encodeFn) {
    auto i32 = [&](StringRef name) -> Value {
      return arith::ConstantIntOp::create(
          b, loc, b.getI32Type(), cast<IntegerAttr>(map.get(name)).getInt());
    };
    auto arr = [&](StringRef name) {
      return cast<DenseI64ArrayAttr>(map.get(name)).asArrayRef();
    };
    Type ptrType = LLVM::LLVMPointerType::get(b.getContext());
    Value aligned =
        memref::ExtractAlignedPointerAsIndexOp::create(b, loc, buffer);
    Value asInt = arith::IndexCastOp::create(b, loc, b.getI64Type(), aligned);
    Value base = LLVM::IntToPtrOp::create(b, loc, ptrType, asInt);
    int64_t offset = cast<IntegerAttr>(map.get("base_offset_bytes")).getInt();
    if (offset != 0) {
      Value off = arith::ConstantIntOp::create(b, loc, b.getI64Type(), offset);
      base = LLVM::GEPOp::create(b, loc, ptrType, b.getI8Type(), base,
                                 ValueRange{off});
    }
    Value dims = getConstantArray(b, loc, arr("global_dim"), b.getI64Type());
    Value strides =
        getConstantArray(b, loc, arr("global_strides"), b.getI64Type());
    Value box = getConstantArray(b, loc, arr("box_dim"), b.getI32Type());
    Value elementStrides =
        getConstantArray(b, loc, arr("element_strides"), b.getI32Type());
    return func::CallOp::create(
               b, loc, encodeFn,
               ValueRange{i32("data_type_enum"), i32("rank"), base, dims,
                          strides, box, elementStrides, i32("interleave"),
                          i32("swizzle"), i32("l2_promotion"), i32("oob_fill")})
        .getResult(0);
  }

  LogicalResult encodeOnHost(gpu::LaunchFuncOp launch) {
    auto kernel = SymbolTable::lookupNearestSymbolFrom<gpu::GPUFuncOp>(
        launch, launch.getKernel());
    if (!kernel)
      return success();
    auto maps = kernel->getAttrOfType<ArrayAttr>(kTensorMapsAttr);
    if (!maps)
      return success();
    SmallVector<Value> mapPtrs;
    if (failed(encodeMaps(launch, maps, mapPtrs)))
      return failure();
    OpBuilder b(launch);
    guardLaunch(b, launch, mapPtrs);
    for (Value ptr : mapPtrs) {
      Value value = LLVM::LoadOp::create(b, launch.getLoc(),
                                         getMapArgType(b.getContext()), ptr);
      launch.getKernelOperandsMutable().append(value);
    }
    return success();
  }

  /// One encode call per distinct map of `launch`'s kernel, at the hoist
  /// point of its buffer; `mapPtrs` gets the map pointers in argument order.
  LogicalResult encodeMaps(gpu::LaunchFuncOp launch, ArrayAttr maps,
                           SmallVectorImpl<Value> &mapPtrs) {
    OpBuilder b(launch);
    FailureOr<func::FuncOp> encodeFn = getOrCreateEncodeFn(b, getOperation());
    if (failed(encodeFn))
      return failure();
    for (Attribute attr : maps) {
      auto map = cast<DictionaryAttr>(attr);
      int64_t globalArg = cast<IntegerAttr>(map.get("global_arg")).getInt();
      if (globalArg >= static_cast<int64_t>(launch.getNumKernelOperands()))
        return launch.emitOpError()
               << "kernel-arg: the launch passes "
               << launch.getNumKernelOperands() << " operand(s); the kernel's "
               << "tensor map needs its argument #" << globalArg;
      Value buffer = launch.getKernelOperands()[globalArg];
      // Reuse an equal request encoded earlier in the same block: launches
      // are visited in program order, so that encode precedes this point.
      Operation *point = getHoistPoint(launch, buffer);
      DictionaryAttr key = withoutArg(map);
      Value &encoded = encodedMaps[{point->getBlock(), buffer, key}];
      if (!encoded) {
        b.setInsertionPoint(point);
        encoded = emitEncode(b, launch.getLoc(), buffer, map, *encodeFn);
        encoded.getDefiningOp()->setAttr(kTensorMapAttr, key);
      }
      mapPtrs.push_back(encoded);
    }
    return success();
  }

  /// Skips the launch when a map could not be encoded (null pointer); leaves
  /// `b` before the launch.
  void guardLaunch(OpBuilder &b, gpu::LaunchFuncOp launch,
                   SmallVectorImpl<Value> &mapPtrs) {
    Location loc = launch.getLoc();
    b.setInsertionPoint(launch);
    Type ptrType = LLVM::LLVMPointerType::get(b.getContext());
    Value ok;
    for (Value ptr : mapPtrs) {
      Value null = LLVM::ZeroOp::create(b, loc, ptrType);
      Value nonNull =
          LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::ne, ptr, null);
      ok =
          ok ? arith::AndIOp::create(b, loc, ok, nonNull).getResult() : nonNull;
    }
    if (launch->getNumResults() == 0) {
      auto ifOp = scf::IfOp::create(b, loc, ok, /*withElseRegion=*/false);
      launch->moveBefore(ifOp.thenBlock()->getTerminator());
      b.setInsertionPoint(launch);
      return;
    }
    // An async launch stays in straight-line code: its token must not flow
    // through a branch (the host lowering cannot tell a stream from an
    // event there). When a map is missing the launch gets an empty grid,
    // which the runtime refuses without running anything, and reads a
    // zeroed map instead of a null pointer.
    Value zeroMap =
        getConstantArray(b, loc, SmallVector<int64_t>(16, 0), b.getI64Type());
    for (Value &ptr : mapPtrs)
      ptr = LLVM::SelectOp::create(b, loc, ok, ptr, zeroMap);
    Value gridX = launch.getGridSizeX();
    Value empty = arith::ConstantOp::create(
        b, loc, cast<TypedAttr>(b.getZeroAttr(gridX.getType())));
    launch.getGridSizeXMutable().set(
        arith::SelectOp::create(b, loc, ok, gridX, empty));
  }
};
} // namespace
