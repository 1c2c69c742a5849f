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
// A map for a buffer with run-time sizes, strides or offset reads them from
// the memref descriptor at the hoist point, evaluates the plan's guards there
// and encodes only when they hold. A launch of a kernel with a fallback
// version (tile-version-kernels) launches the kernel when every guard holds
// and the fallback version otherwise, and tells the runtime which one ran
// (`tileRuntimeNoteLaunchVersion`, which counts and can log). A launch of a
// guarded kernel without one (its guarded copies have no other variant, as a
// floating-point max-reduce store) is skipped where a guard fails, and the
// runtime records why
// (`tileRuntimeRefuseLaunch`).
//
//===----------------------------------------------------------------------===//

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "tile/Dialect/Tile/IR/DiscardableAttrs.h"
#include "tile/Dialect/Tile/IR/Im2colRequest.h"
#include "tile/Dialect/Tile/IR/RuleDiagnostic.h"
#include "tile/Dialect/Tile/IR/TileOps.h"
#include "tile/Dispatch/BuiltinVariants.h"
#include "tile/Dispatch/CopyVariant.h"
#include "tile/TMA/Limits.h"
#include "tile/Transforms/Passes.h"

#include "ModuleWalk.h"
#include "TensorMapEncode.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/xxhash.h"

namespace mlir::tile {
#define GEN_PASS_DEF_TILETENSORMAPABI
#include "tile/Transforms/Passes.h.inc"
} // namespace mlir::tile

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::host;

static constexpr StringLiteral kNoteVersionFn = "tileRuntimeNoteLaunchVersion";
static constexpr StringLiteral kRefuseLaunchFn = "tileRuntimeRefuseLaunch";
static constexpr StringLiteral kDeviceMapArrayFn = "tileRuntimeDeviceMapArray";
static constexpr StringLiteral kDeviceMapArrayOnStreamFn =
    "tileRuntimeDeviceMapArrayOnStream";
/// Bytes of one device-map slot: a CUtensorMap.
/// Marks the scf.if that chooses between a kernel and its fallback version.
static constexpr StringLiteral kVersionChoiceAttr = "tile.version_choice";

/// The record of a tiled map (at argument 0): the plan's map and its guards.
static TensorMapAttr getTiledRecord(MLIRContext *ctx,
                                    const ::tile::tma::TmaPlan &plan,
                                    unsigned globalArg) {
  ArrayAttr guards;
  if (!plan.guards.empty()) {
    SmallVector<Attribute> list;
    for (const ::tile::tma::Guard &g : plan.guards)
      list.push_back(GuardAttr::get(ctx, g));
    guards = ArrayAttr::get(ctx, list);
  }
  return TensorMapAttr::get(ctx, TensorMapMode::Tiled, /*arg=*/0, std::nullopt,
                            globalArg, TiledMapAttr::get(ctx, plan.map),
                            guards);
}

/// The record of an im2col map. The host reads the sizes and strides from
/// the buffer at run time (the runtime's encode checks them), so they are
/// not part of it.
static TensorMapAttr getIm2colRecord(MLIRContext *ctx,
                                     const ::tile::tma::Im2colPlan &plan,
                                     unsigned globalArg) {
  ::tile::tma::Im2colMapDesc map = plan.map;
  map.globalDim.clear();
  map.globalStridesBytes.clear();
  return TensorMapAttr::get(ctx, TensorMapMode::Im2col, /*arg=*/0, std::nullopt,
                            globalArg, Im2colMapAttr::get(ctx, map),
                            ArrayAttr());
}

namespace {
struct TensorMapABIPass
    : public mlir::tile::impl::TileTensorMapABIBase<TensorMapABIPass> {
  void getDependentDialects(DialectRegistry &registry) const override {
    Base::getDependentDialects(registry);
    registerBuiltinCopyVariants(registry);
  }
  /// Encodes emitted so far: (block, global buffer, map) -> what they give.
  llvm::DenseMap<std::tuple<Block *, Value, Attribute>, EncodedMap> encodedMaps;
  /// The symbol tables of the host modules, built once per run (a lookup by
  /// name per launch would scan the module each time); set while the pass
  /// runs.
  SymbolTableCollection *symbolTables = nullptr;

  SymbolTable &symbolsOf(Operation *op) {
    return symbolTables->getSymbolTable(symbolModuleOf(op));
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    bool failedAny = false;
    forEachGpuFunc(module, [&](gpu::GPUFuncOp func) {
      if (func.isKernel() && failed(addKernelArguments(func)))
        failedAny = true;
    });
    if (failedAny)
      return signalPassFailure();
    encodedMaps.clear();
    SymbolTableCollection tables;
    symbolTables = &tables;
    auto unset = llvm::scope_exit([&] { symbolTables = nullptr; });
    SmallVector<gpu::LaunchFuncOp> launches;
    walkHostLaunches(module, [&](gpu::LaunchFuncOp launch) {
      launches.push_back(launch);
      return WalkResult::advance();
    });
    for (gpu::LaunchFuncOp launch : launches)
      if (failed(encodeOnHost(launch)))
        return signalPassFailure();
  }

  /// A device map's template is a user argument of its kernel (checked
  /// first: the copies through the map then name the same buffer).
  static LogicalResult checkDeviceMapTemplates(gpu::GPUFuncOp func) {
    WalkResult walk = func.walk([&](DeviceMapOp op) {
      auto arg = dyn_cast<BlockArgument>(op.getBuffer());
      if (arg && arg.getOwner() == &func.getBody().front())
        return WalkResult::advance();
      emitRuleError(op, RuleId::DeviceMapPlace)
          << "the template must be an argument of its kernel, so the host "
             "can encode its tensor map";
      return WalkResult::interrupt();
    });
    return failure(walk.wasInterrupted());
  }

  LogicalResult addKernelArguments(gpu::GPUFuncOp func) {
    if (failed(checkDeviceMapTemplates(func)))
      return failure();
    Builder b(func.getContext());
    SmallVector<Attribute> maps;
    llvm::DenseMap<TensorMapAttr, unsigned> seen;
    unsigned userArgs = func.getNumArguments();
    // Gives `op` the map argument of the record `makeMap(globalArg)` builds
    // (at argument 0) for its global buffer `global`: the argument of an
    // equal record, else a new one after the others. `makeMap` returns null
    // after a diagnostic.
    auto assignMapArgument =
        [&](Operation *op, Value global, StringRef what,
            function_ref<TensorMapAttr(unsigned)> makeMap) -> LogicalResult {
      auto arg = dyn_cast<BlockArgument>(global);
      if (!arg || arg.getOwner() != &func.getBody().front() ||
          arg.getArgNumber() >= userArgs)
        return withRule(op->emitError(), RuleId::Tma)
               << "tma: the " << what
               << " must be an argument of its kernel, so the host can "
                  "encode its tensor map";
      TensorMapAttr record = makeMap(arg.getArgNumber());
      if (!record)
        return failure();
      // Equal maps of one buffer share an argument.
      TensorMapAttr key = record.getEncodeKey();
      auto it = seen.find(key);
      unsigned mapArg = it != seen.end() ? it->second : func.getNumArguments();
      if (it == seen.end()) {
        if (failed(func.insertArgument(mapArg, getMapArgType(b.getContext()),
                                       DictionaryAttr(), op->getLoc())))
          return failure();
        seen[key] = mapArg;
        maps.push_back(TensorMapAttr::get(
            b.getContext(), record.getMode(), mapArg, std::nullopt,
            record.getGlobalArg(), record.getMap(), record.getGuards()));
      }
      op->setAttr(kTensorMapArgAttr, b.getI64IntegerAttr(mapArg));
      return success();
    };
    WalkResult walk = func.walk([&](CopyAsyncOp op) -> WalkResult {
      FailureOr<DispatchResult> result = recallCopyDecision(op);
      if (failed(result))
        return WalkResult::interrupt();
      const ::tile::tma::TmaPlan *plan = result->selected && result->match
                                             ? result->match->getTensorMapPlan()
                                             : nullptr;
      if (!plan)
        return WalkResult::advance();
      auto makeMap = [&](unsigned globalArg) {
        if (!plan->map.baseOffsetBytes.isConstant()) {
          // A dynamic region start folded into the base would need an
          // encode per start; the planner keeps such starts in the
          // coordinates.
          withRule(op.emitError(), RuleId::Tma)
              << "tma: the tensor map's base offset "
              << plan->map.baseOffsetBytes.str()
              << " bytes is not a compile-time constant";
          return TensorMapAttr();
        }
        return getTiledRecord(b.getContext(), *plan, globalArg);
      };
      return failed(assignMapArgument(op, op.getGlobal(),
                                      "global buffer of a TMA copy", makeMap))
                 ? WalkResult::interrupt()
                 : WalkResult::advance();
    });
    if (walk.wasInterrupted())
      return failure();
    walk = func.walk([&](CopyIm2colOp op) -> WalkResult {
      FailureOr<::tile::tma::Im2colPlan> plan = recallIm2colPlan(op);
      if (failed(plan))
        return WalkResult::interrupt();
      auto makeMap = [&](unsigned globalArg) {
        return getIm2colRecord(b.getContext(), *plan, globalArg);
      };
      return failed(assignMapArgument(
                 op, op.getSrc(), "global tensor of an im2col load", makeMap))
                 ? WalkResult::interrupt()
                 : WalkResult::advance();
    });
    if (walk.wasInterrupted())
      return failure();
    if (!maps.empty())
      func->setAttr(kTensorMapsAttr, b.getArrayAttr(maps));
    return assignDeviceMapSlots(func);
  }

  /// Gives each tile.device_map of `func` a slot and the map argument of the
  /// copies through it (its template), and the kernel the slot-array
  /// argument after the maps.
  LogicalResult assignDeviceMapSlots(gpu::GPUFuncOp func) {
    SmallVector<DeviceMapOp> deviceMaps;
    func.walk([&](DeviceMapOp op) { deviceMaps.push_back(op); });
    if (deviceMaps.empty())
      return success();
    Builder b(func.getContext());
    for (auto [slot, op] : llvm::enumerate(deviceMaps)) {
      std::optional<int64_t> mapArg;
      for (Operation *user : op.getMap().getUsers()) {
        // The map's only users that read it are copies through it.
        auto copy = dyn_cast<CopyAsyncOp>(user);
        if (!copy)
          continue;
        auto attr = copy->getAttrOfType<IntegerAttr>(kTensorMapArgAttr);
        if (!attr)
          return emitRuleError(copy, RuleId::DeviceMapCopy)
                 << "the copy goes through a device map "
                    "but has no tensor map (no TMA plan was recorded)";
        if (mapArg && *mapArg != attr.getInt())
          return emitRuleError(copy, RuleId::DeviceMapCopy)
                 << "the copies through one device map "
                    "need one tensor map; this copy's plan differs from an "
                    "earlier copy's (kernel arguments #"
                 << *mapArg << " and #" << attr.getInt() << ")";
        mapArg = attr.getInt();
      }
      if (!mapArg)
        return emitRuleError(op, RuleId::DeviceMapCopy)
               << "no copy goes through the device map; "
                  "its tensor map is the plan of the copies through it";
      op->setAttr(kTensorMapArgAttr, b.getI64IntegerAttr(*mapArg));
      op->setAttr(kDeviceMapSlotAttr, b.getI64IntegerAttr(slot));
    }
    unsigned arrayArg = func.getNumArguments();
    if (failed(func.insertArgument(arrayArg,
                                   LLVM::LLVMPointerType::get(b.getContext()),
                                   DictionaryAttr(), func.getLoc())))
      return failure();
    func->setAttr(kDeviceMapArrayArgAttr, b.getI64IntegerAttr(arrayArg));
    func->setAttr(kDeviceMapSlotsAttr, b.getI64IntegerAttr(deviceMaps.size()));
    return success();
  }

  /// The runtime's slot array for the device maps of `kernel`'s launch
  /// (grid CTAs x slots x 128 bytes), fetched before `launch`; null where
  /// the kernel has none. A launch with an async dependency runs on the
  /// stream that token becomes (the host lowering passes the token as the
  /// stream, as it does to the launch), and gets that stream's array, so
  /// launches of one site on two streams do not share slots.
  FailureOr<Value> getDeviceMapArray(OpBuilder &b, gpu::LaunchFuncOp launch,
                                     gpu::GPUFuncOp kernel) {
    auto slots = kernel->getAttrOfType<IntegerAttr>(kDeviceMapSlotsAttr);
    if (!slots)
      return Value();
    Location loc = launch.getLoc();
    Type ptrType = LLVM::LLVMPointerType::get(b.getContext());
    Value stream;
    if (!launch.getAsyncDependencies().empty())
      stream = launch.getAsyncDependencies().front();
    SmallVector<Type> params{ptrType, b.getI64Type()};
    if (stream)
      params.push_back(stream.getType());
    FailureOr<func::FuncOp> arrayFn = getOrDeclareRuntimeFn(
        b, symbolsOf(launch),
        stream ? kDeviceMapArrayOnStreamFn : kDeviceMapArrayFn,
        b.getFunctionType(params, {ptrType}),
        "the runtime's device-map arrays, which the host fetches before "
        "each launch of a kernel with device maps");
    if (failed(arrayFn))
      return failure();
    Value bytes = arith::ConstantIndexOp::create(
        b, loc, slots.getInt() * ::tile::tma::limits::kTensorMapBytes);
    for (Value extent :
         {launch.getGridSizeX(), launch.getGridSizeY(), launch.getGridSizeZ()})
      bytes = arith::MulIOp::create(b, loc, bytes, extent);
    bytes = arith::IndexCastUIOp::create(b, loc, b.getI64Type(), bytes);
    Value site = getStringAddress(b, symbolsOf(launch), loc, siteText(launch));
    SmallVector<Value> args{site, bytes};
    if (stream)
      args.push_back(stream);
    return func::CallOp::create(b, loc, *arrayFn, args).getResult(0);
  }

  /// `void tileRuntimeNoteLaunchVersion(site, version, failedGuard)`.
  FailureOr<func::FuncOp> getOrCreateNoteFn(OpBuilder &b,
                                            SymbolTable &symbols) {
    Type i32 = b.getI32Type(), ptr = LLVM::LLVMPointerType::get(b.getContext());
    return getOrDeclareRuntimeFn(
        b, symbols, kNoteVersionFn, b.getFunctionType({ptr, i32, ptr}, {}),
        "the runtime's launch-version counter, which the host calls before "
        "each launch of a kernel with a fallback version");
  }

  /// The outermost point before `launch` where `buffer` is available: out of
  /// every enclosing loop that does not define it (and out of the version
  /// choice this pass adds around a launch).
  Operation *getHoistPoint(Operation *launch, Value buffer) {
    Operation *definedIn = buffer.getDefiningOp();
    if (!definedIn)
      definedIn = buffer.getParentBlock()->getParentOp();
    Operation *point = launch;
    for (Operation *parent = launch->getParentOp();
         parent && (isa<LoopLikeOpInterface>(parent) ||
                    parent->hasAttr(kVersionChoiceAttr));
         parent = parent->getParentOp()) {
      if (parent->isAncestor(definedIn))
        break;
      point = parent;
    }
    return point;
  }

  LogicalResult encodeOnHost(gpu::LaunchFuncOp launch) {
    auto kernel = symbolTables->lookupNearestSymbolFrom<gpu::GPUFuncOp>(
        launch, launch.getKernel());
    if (!kernel)
      return success();
    auto maps = kernel->getAttrOfType<ArrayAttr>(kTensorMapsAttr);
    if (!maps)
      return success();
    SmallVector<EncodedMap> encoded;
    if (failed(encodeMaps(launch, maps, encoded)))
      return failure();
    if (auto fallback =
            kernel->getAttrOfType<FlatSymbolRefAttr>(kFallbackAttr)) {
      if (failed(chooseVersion(launch, fallback, encoded)))
        return failure();
    } else if (failed(refuseWhereGuardsFail(launch, encoded))) {
      return failure();
    }
    SmallVector<Value> mapPtrs;
    for (const EncodedMap &map : encoded)
      mapPtrs.push_back(map.ptr);
    OpBuilder b(launch);
    FailureOr<Value> slotArray = getDeviceMapArray(b, launch, kernel);
    if (failed(slotArray))
      return failure();
    guardLaunch(b, launch, mapPtrs, *slotArray);
    for (Value ptr : mapPtrs) {
      Value value = LLVM::LoadOp::create(b, launch.getLoc(),
                                         getMapArgType(b.getContext()), ptr);
      launch.getKernelOperandsMutable().append(value);
    }
    if (*slotArray)
      launch.getKernelOperandsMutable().append(*slotArray);
    return success();
  }

  /// Whether every guard of `encoded` holds (null without guards), and the
  /// text of the first that fails (null when all hold), built at `b`.
  static std::pair<Value, Value> evaluateGuards(OpBuilder &b,
                                                SymbolTable &symbols,
                                                Location loc,
                                                ArrayRef<EncodedMap> encoded) {
    Value ok;
    SmallVector<std::pair<Value, std::string>> guards;
    for (const EncodedMap &map : encoded) {
      if (!map.ok)
        continue;
      ok = ok ? arith::AndIOp::create(b, loc, ok, map.ok).getResult() : map.ok;
      guards.append(map.guards.begin(), map.guards.end());
    }
    if (!ok)
      return {};
    Type ptrType = LLVM::LLVMPointerType::get(b.getContext());
    Value failed = LLVM::ZeroOp::create(b, loc, ptrType);
    for (auto &[holds, text] : llvm::reverse(guards))
      failed = LLVM::SelectOp::create(b, loc, holds, failed,
                                      getStringAddress(b, symbols, loc, text));
    return {ok, failed};
  }

  /// "@<host>: launch of @<module>::@<kernel>", the runtime's name for the
  /// launch site.
  static std::string siteText(gpu::LaunchFuncOp launch) {
    auto host = launch->getParentOfType<FunctionOpInterface>();
    return "@" + (host ? host.getName().str() : std::string("?")) +
           ": launch of @" + launch.getKernel().getRootReference().str() +
           "::@" + launch.getKernelName().str();
  }

  /// A kernel with guards but no fallback version (the guarded copies left
  /// have no other variant, as a floating-point max-reduce store; a fallback
  /// version keeps those): where a guard fails the maps are not encoded, so the
  /// launch is skipped; after it, the runtime records the refusal with the
  /// guard's text.
  LogicalResult refuseWhereGuardsFail(gpu::LaunchFuncOp launch,
                                      ArrayRef<EncodedMap> encoded) {
    Location loc = launch.getLoc();
    OpBuilder b(launch);
    auto [ok, failedGuard] = evaluateGuards(b, symbolsOf(launch), loc, encoded);
    if (!ok)
      return success();
    Type ptrType = LLVM::LLVMPointerType::get(b.getContext());
    FailureOr<func::FuncOp> refuseFn = getOrDeclareRuntimeFn(
        b, symbolsOf(launch), kRefuseLaunchFn,
        b.getFunctionType({ptrType, ptrType}, {}),
        "the runtime's record of a launch refused because a guard failed, "
        "which the host calls where a kernel without a fallback version "
        "cannot run");
    if (failed(refuseFn))
      return failure();
    Value site = getStringAddress(b, symbolsOf(launch), loc, siteText(launch));
    // After the launch: an async launch refused with an empty grid records
    // its own error first, and this one, naming the guard, is the latest.
    b.setInsertionPointAfter(launch);
    Value fails = arith::XOrIOp::create(
        b, loc, ok, arith::ConstantIntOp::create(b, loc, b.getI1Type(), 1));
    auto ifOp = scf::IfOp::create(b, loc, fails, /*withElseRegion=*/false);
    b.setInsertionPoint(ifOp.thenBlock()->getTerminator());
    func::CallOp::create(b, loc, *refuseFn, ValueRange{site, failedGuard});
    return success();
  }

  /// Wraps `launch` in `scf.if all guards hold { launch } else { launch the
  /// fallback version }`, each side telling the runtime which version ran.
  LogicalResult chooseVersion(gpu::LaunchFuncOp launch,
                              FlatSymbolRefAttr fallback,
                              ArrayRef<EncodedMap> encoded) {
    Location loc = launch.getLoc();
    OpBuilder b(launch);
    auto [ok, failedGuard] = evaluateGuards(b, symbolsOf(launch), loc, encoded);
    if (!ok)
      return success();
    // An async launch on one stream returns that stream as its token (what
    // gpu-to-llvm makes of it), so the token need not flow out of the branch:
    // later users take the stream the launch was queued on.
    if (Value token = launch.getAsyncToken()) {
      if (launch.getAsyncDependencies().size() != 1)
        return emitRuleError(launch.getOperation(), RuleId::Guard)
               << "the kernel has a fallback version for run-time "
                  "guards; an async launch of it must name exactly one "
                  "stream to launch on (it names "
               << launch.getAsyncDependencies().size()
               << " dependencies), or give its buffers static types";
      token.replaceAllUsesWith(launch.getAsyncDependencies().front());
    }
    FailureOr<func::FuncOp> noteFn = getOrCreateNoteFn(b, symbolsOf(launch));
    if (failed(noteFn))
      return failure();
    Type ptrType = LLVM::LLVMPointerType::get(b.getContext());
    Value site = getStringAddress(b, symbolsOf(launch), loc, siteText(launch));

    auto choice = scf::IfOp::create(b, loc, ok, /*withElseRegion=*/true);
    choice->setAttr(kVersionChoiceAttr, b.getUnitAttr());
    b.setInsertionPoint(choice.thenBlock()->getTerminator());
    Value guarded = arith::ConstantIntOp::create(b, loc, b.getI32Type(), 0);
    func::CallOp::create(
        b, loc, *noteFn,
        ValueRange{site, guarded, LLVM::ZeroOp::create(b, loc, ptrType)});
    launch->moveBefore(choice.thenBlock()->getTerminator());

    b.setInsertionPoint(choice.elseBlock()->getTerminator());
    Value version = arith::ConstantIntOp::create(b, loc, b.getI32Type(), 1);
    func::CallOp::create(b, loc, *noteFn,
                         ValueRange{site, version, failedGuard});
    auto other = cast<gpu::LaunchFuncOp>(b.clone(*launch));
    other.setKernelAttr(
        SymbolRefAttr::get(launch.getKernel().getRootReference(), {fallback}));
    return encodeOnHost(other);
  }

  /// One encode per distinct map of `launch`'s kernel, at the hoist point of
  /// its buffer; `encoded` gets the maps in argument order.
  LogicalResult encodeMaps(gpu::LaunchFuncOp launch, ArrayAttr maps,
                           SmallVectorImpl<EncodedMap> &encoded) {
    OpBuilder b(launch);
    for (Attribute attr : maps) {
      auto map = cast<TensorMapAttr>(attr);
      int64_t globalArg = map.getGlobalArg();
      if (globalArg >= static_cast<int64_t>(launch.getNumKernelOperands()))
        return emitRuleError(launch.getOperation(), RuleId::KernelArg)
               << "the launch passes " << launch.getNumKernelOperands()
               << " operand(s); the kernel's "
               << "tensor map needs its argument #" << globalArg;
      Value buffer = launch.getKernelOperands()[globalArg];
      // Reuse an equal request encoded earlier in the same block: launches
      // are visited in program order, so that encode precedes this point.
      Operation *point = getHoistPoint(launch, buffer);
      TensorMapAttr key = map.getEncodeKey();
      EncodedMap &entry = encodedMaps[{point->getBlock(), buffer, key}];
      if (!entry.ptr) {
        b.setInsertionPoint(point);
        FailureOr<EncodedMap> emitted = emitTensorMapEncode(
            b, symbolsOf(launch), launch.getLoc(), buffer, map);
        if (failed(emitted))
          return failure();
        entry = *emitted;
        if (Operation *def = entry.ptr.getDefiningOp())
          def->setAttr(kTensorMapAttr, map);
      }
      encoded.push_back(entry);
    }
    return success();
  }

  /// Skips the launch when a map could not be encoded (null pointer); leaves
  /// `b` before the launch.
  void guardLaunch(OpBuilder &b, gpu::LaunchFuncOp launch,
                   SmallVectorImpl<Value> &mapPtrs, Value slotArray) {
    Location loc = launch.getLoc();
    b.setInsertionPoint(launch);
    Type ptrType = LLVM::LLVMPointerType::get(b.getContext());
    Value ok;
    SmallVector<Value> checked(mapPtrs.begin(), mapPtrs.end());
    if (slotArray)
      checked.push_back(slotArray);
    for (Value ptr : checked) {
      Value null = LLVM::ZeroOp::create(b, loc, ptrType);
      Value nonNull =
          LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::ne, ptr, null);
      ok =
          ok ? arith::AndIOp::create(b, loc, ok, nonNull).getResult() : nonNull;
    }
    // A launch whose token nobody uses (a synchronous one, or an async one
    // in a version branch) can sit in a branch.
    if (launch->getNumResults() == 0 || launch->use_empty()) {
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
    Value zeroMap = getConstantArray(
        b, symbolsOf(launch), loc, SmallVector<int64_t>(16, 0), b.getI64Type());
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
