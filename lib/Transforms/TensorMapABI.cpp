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
// (`tileRuntimeNoteLaunchVersion`, which counts and can log).
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
#include "tile/Conversion/TileToNVVM/TileToNVVM.h"
#include "tile/Dialect/Tile/IR/DiscardableAttrs.h"
#include "tile/Dialect/Tile/IR/Im2colRequest.h"
#include "tile/Dialect/Tile/IR/TileOps.h"
#include "tile/Dispatch/CopyVariant.h"
#include "tile/Transforms/Passes.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/xxhash.h"

namespace mlir::tile {
#define GEN_PASS_DEF_TILETENSORMAPABI
#include "tile/Transforms/Passes.h.inc"
} // namespace mlir::tile

using namespace mlir;
using namespace mlir::tile;

static constexpr StringLiteral kEncodeFn = "tileTensorMapGetCached";
static constexpr StringLiteral kEncodeIm2colFn = "tileTensorMapIm2colGetCached";
static constexpr StringLiteral kNoteVersionFn = "tileRuntimeNoteLaunchVersion";
/// Marks the scf.if that chooses between a kernel and its fallback version.
static constexpr StringLiteral kVersionChoiceAttr = "tile.version_choice";

static Type getMapArgType(MLIRContext *ctx) {
  return LLVM::LLVMArrayType::get(IntegerType::get(ctx, 64), 16);
}

/// Per map dimension: {} for a static field, else
/// {value = "size"|"stride", dim, scale, divisor}.
static ArrayAttr getRuntimeFieldsAttr(
    Builder &b,
    const std::vector<std::optional<::tile::tma::RuntimeField>> &fields) {
  SmallVector<Attribute> list;
  for (const auto &f : fields) {
    if (!f) {
      list.push_back(b.getDictionaryAttr({}));
      continue;
    }
    list.push_back(b.getDictionaryAttr(
        {b.getNamedAttr("value", b.getStringAttr(f->value.kindName())),
         b.getNamedAttr("dim", b.getI64IntegerAttr(f->value.dim)),
         b.getNamedAttr("scale", b.getI64IntegerAttr(f->scale)),
         b.getNamedAttr("divisor", b.getI64IntegerAttr(f->divisor))}));
  }
  return b.getArrayAttr(list);
}

/// A guard as data a host can evaluate: constant + sum(coeff * value) is a
/// multiple of `modulus`, or within [lo, hi].
static DictionaryAttr getGuardAttr(Builder &b, const ::tile::tma::Guard &g) {
  SmallVector<Attribute> terms;
  for (const auto &[value, coeff] : g.terms)
    terms.push_back(b.getArrayAttr({b.getStringAttr(value.kindName()),
                                    b.getI64IntegerAttr(value.dim),
                                    b.getI64IntegerAttr(coeff)}));
  bool multiple = g.kind == ::tile::tma::Guard::Kind::MultipleOf;
  SmallVector<NamedAttribute> fields = {
      b.getNamedAttr("rule", b.getStringAttr(::tile::tma::ruleIdName(g.rule))),
      b.getNamedAttr("expr", b.getStringAttr(g.str())),
      b.getNamedAttr("kind",
                     b.getStringAttr(multiple ? "multiple_of" : "in_range")),
      b.getNamedAttr("constant", b.getI64IntegerAttr(g.constant)),
      b.getNamedAttr("terms", b.getArrayAttr(terms))};
  if (multiple) {
    fields.push_back(b.getNamedAttr("modulus", b.getI64IntegerAttr(g.modulus)));
  } else {
    fields.push_back(b.getNamedAttr("lo", b.getI64IntegerAttr(g.lo)));
    fields.push_back(b.getNamedAttr("hi", b.getI64IntegerAttr(g.hi)));
  }
  return b.getDictionaryAttr(fields);
}

/// A list of integers as a dense i64 array attribute.
template <typename Range>
static DenseI64ArrayAttr toI64Array(Builder &b, const Range &values) {
  SmallVector<int64_t> v(values.begin(), values.end());
  return b.getDenseI64ArrayAttr(v);
}

/// The fields every map's record has: its and its buffer's arguments, the
/// data type, rank and the encode's enum arguments.
static SmallVector<NamedAttribute>
getCommonMapFields(Builder &b, unsigned mapArg, unsigned globalArg,
                   ::tile::tma::TensorDataType dataType, unsigned rank,
                   ::tile::Swizzle swizzle, int l2Promotion, int oobFill) {
  return {b.getNamedAttr("arg", b.getI64IntegerAttr(mapArg)),
          b.getNamedAttr("global_arg", b.getI64IntegerAttr(globalArg)),
          b.getNamedAttr("data_type",
                         b.getStringAttr(::tile::tma::toString(dataType))),
          b.getNamedAttr("data_type_enum",
                         b.getI64IntegerAttr(static_cast<int64_t>(dataType))),
          b.getNamedAttr("rank", b.getI64IntegerAttr(rank)),
          b.getNamedAttr("swizzle",
                         b.getI64IntegerAttr(static_cast<int64_t>(swizzle))),
          b.getNamedAttr("l2_promotion", b.getI64IntegerAttr(l2Promotion)),
          b.getNamedAttr("oob_fill", b.getI64IntegerAttr(oobFill))};
}

/// The plan of a tensor map as an attribute (the fields a host needs).
static DictionaryAttr getMapAttr(Builder &b, const ::tile::tma::TmaPlan &plan,
                                 unsigned globalArg, unsigned mapArg) {
  const ::tile::tma::TensorMapDesc &m = plan.map;
  auto i64Array = [&](const auto &values) { return toI64Array(b, values); };
  SmallVector<NamedAttribute> fields =
      getCommonMapFields(b, mapArg, globalArg, m.dataType, m.rank, m.swizzle,
                         m.l2Promotion, m.oobFill);
  fields.append(
      {b.getNamedAttr("global_dim", i64Array(m.globalDim)),
       b.getNamedAttr("global_strides", i64Array(m.globalStridesBytes)),
       b.getNamedAttr("box_dim", i64Array(m.boxDim)),
       b.getNamedAttr("element_strides", i64Array(m.elementStrides)),
       b.getNamedAttr("interleave", b.getI64IntegerAttr(m.interleave)),
       b.getNamedAttr(
           "base_offset_bytes",
           b.getI64IntegerAttr(*m.baseOffsetBytes.constantValue()))});
  if (m.hasRuntimeFields()) {
    fields.push_back(b.getNamedAttr(
        "runtime_global_dim", getRuntimeFieldsAttr(b, m.runtimeGlobalDim)));
    fields.push_back(
        b.getNamedAttr("runtime_global_strides",
                       getRuntimeFieldsAttr(b, m.runtimeGlobalStrides)));
    fields.push_back(b.getNamedAttr("offset_scale",
                                    b.getI64IntegerAttr(m.runtimeOffsetScale)));
  }
  if (!plan.guards.empty()) {
    SmallVector<Attribute> guards;
    for (const ::tile::tma::Guard &g : plan.guards)
      guards.push_back(getGuardAttr(b, g));
    fields.push_back(b.getNamedAttr("guards", b.getArrayAttr(guards)));
  }
  return b.getDictionaryAttr(fields);
}

/// The plan of an im2col map as an attribute. The host reads the sizes and
/// strides from the buffer at run time (the runtime's encode checks them).
static DictionaryAttr getIm2colMapAttr(Builder &b,
                                       const ::tile::tma::Im2colPlan &plan,
                                       unsigned globalArg, unsigned mapArg) {
  const ::tile::tma::Im2colMapDesc &m = plan.map;
  auto i64Array = [&](const auto &values) { return toI64Array(b, values); };
  SmallVector<NamedAttribute> fields =
      getCommonMapFields(b, mapArg, globalArg, m.dataType, m.rank, m.swizzle,
                         m.l2Promotion, m.oobFill);
  fields.append(
      {b.getNamedAttr("mode", b.getStringAttr("im2col")),
       b.getNamedAttr("element_bytes", b.getI64IntegerAttr(m.elementBytes)),
       b.getNamedAttr("lower_corner", i64Array(m.lowerCorner)),
       b.getNamedAttr("upper_corner", i64Array(m.upperCorner)),
       b.getNamedAttr("channels_per_pixel",
                      b.getI64IntegerAttr(m.channelsPerPixel)),
       b.getNamedAttr("pixels_per_column",
                      b.getI64IntegerAttr(m.pixelsPerColumn)),
       b.getNamedAttr("element_strides", i64Array(m.elementStrides))});
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
  /// What the host computes for one map at its hoist point.
  struct EncodedMap {
    /// The map, or null when the encode failed or a guard does not hold.
    Value ptr;
    /// True when every guard holds (null when the map has none).
    Value ok;
    /// Each guard's value with its text ("<rule>: <expr>").
    SmallVector<std::pair<Value, std::string>> guards;
  };
  /// Encodes emitted so far: (block, global buffer, map) -> what they give.
  llvm::DenseMap<std::tuple<Block *, Value, Attribute>, EncodedMap> encodedMaps;

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
    // Gives `op` the map argument of the record `makeMap(globalArg, mapArg)`
    // builds for its global buffer `global`: the argument of an equal record,
    // else a new one after the others. `makeMap` returns null after a
    // diagnostic.
    auto assignMapArgument =
        [&](Operation *op, Value global, StringRef what,
            function_ref<DictionaryAttr(unsigned, unsigned)> makeMap)
        -> LogicalResult {
      auto arg = dyn_cast<BlockArgument>(global);
      if (!arg || arg.getOwner() != &func.getBody().front() ||
          arg.getArgNumber() >= userArgs)
        return op->emitError()
               << "tma: the " << what
               << " must be an argument of its kernel, so the host can "
                  "encode its tensor map";
      DictionaryAttr record = makeMap(arg.getArgNumber(), /*mapArg=*/0);
      if (!record)
        return failure();
      DictionaryAttr key = withoutArg(record);
      auto it = llvm::find_if(seen, [&](auto &p) { return p.first == key; });
      unsigned mapArg = it != seen.end() ? it->second : func.getNumArguments();
      if (it == seen.end()) {
        if (failed(func.insertArgument(mapArg, getMapArgType(b.getContext()),
                                       DictionaryAttr(), op->getLoc())))
          return failure();
        seen.push_back({key, mapArg});
        maps.push_back(makeMap(arg.getArgNumber(), mapArg));
      }
      op->setAttr(kTensorMapArgAttr, b.getI64IntegerAttr(mapArg));
      return success();
    };
    WalkResult walk = func.walk([&](CopyAsyncOp op) -> WalkResult {
      FailureOr<DispatchResult> result = recallCopyDecision(op);
      if (failed(result))
        return WalkResult::interrupt();
      const ::tile::tma::TmaPlan *plan =
          result->selected && result->match
              ? result->match->getTensorMapRequest()
              : nullptr;
      if (!plan)
        return WalkResult::advance();
      auto makeMap = [&](unsigned globalArg, unsigned mapArg) {
        if (!plan->map.baseOffsetBytes.isConstant()) {
          // A dynamic region start folded into the base would need an
          // encode per start; the planner keeps such starts in the
          // coordinates.
          op.emitError() << "tma: the tensor map's base offset "
                         << plan->map.baseOffsetBytes.str()
                         << " bytes is not a compile-time constant";
          return DictionaryAttr();
        }
        return getMapAttr(b, *plan, globalArg, mapArg);
      };
      return failed(assignMapArgument(op, op.getGlobal(),
                                      "global buffer of a TMA copy", makeMap))
                 ? WalkResult::interrupt()
                 : WalkResult::advance();
    });
    if (walk.wasInterrupted())
      return failure();
    walk = func.walk([&](CopyIm2colOp op) -> WalkResult {
      FailureOr<::tile::tma::Im2colPlan> plan = planIm2colOp(op);
      if (failed(plan))
        return WalkResult::interrupt();
      auto makeMap = [&](unsigned globalArg, unsigned mapArg) {
        return getIm2colMapAttr(b, *plan, globalArg, mapArg);
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
    return success();
  }

  /// Declares the runtime function `name` of `type` in the host module,
  /// once. A user symbol of the same name is an error (`reserved-symbol`),
  /// not a call into user code.
  FailureOr<func::FuncOp> getOrDeclareRuntimeFn(OpBuilder &b, ModuleOp module,
                                                StringRef name,
                                                FunctionType type,
                                                StringRef purpose) {
    if (Operation *existing = module.lookupSymbol(name)) {
      auto fn = dyn_cast<func::FuncOp>(existing);
      if (fn && fn.isExternal() && fn.getFunctionType() == type)
        return fn;
      return existing->emitOpError() << "reserved-symbol: '@" << name << "' is "
                                     << purpose << "; rename this symbol";
    }
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(module.getBody());
    auto fn = func::FuncOp::create(b, module.getLoc(), name, type);
    fn.setPrivate();
    return fn;
  }

  /// `const void *tileTensorMapGetCached(...)`: the runtime's encoder.
  FailureOr<func::FuncOp> getOrCreateEncodeFn(OpBuilder &b, ModuleOp module) {
    Type i32 = b.getI32Type(), ptr = LLVM::LLVMPointerType::get(b.getContext());
    return getOrDeclareRuntimeFn(
        b, module, kEncodeFn,
        b.getFunctionType(
            {i32, i32, ptr, ptr, ptr, ptr, ptr, i32, i32, i32, i32}, {ptr}),
        "the runtime's tensor-map encoder, which the host calls before each "
        "TMA launch");
  }

  /// `const void *tileTensorMapIm2colGetCached(...)`: the runtime's im2col
  /// encoder.
  FailureOr<func::FuncOp> getOrCreateIm2colEncodeFn(OpBuilder &b,
                                                    ModuleOp module) {
    Type i32 = b.getI32Type(), ptr = LLVM::LLVMPointerType::get(b.getContext());
    return getOrDeclareRuntimeFn(
        b, module, kEncodeIm2colFn,
        b.getFunctionType({i32, i32, ptr, ptr, ptr, ptr, ptr, i32, i32, ptr,
                           i32, i32, i32, i32},
                          {ptr}),
        "the runtime's im2col tensor-map encoder, which the host calls "
        "before each launch with an im2col load");
  }

  /// `void tileRuntimeNoteLaunchVersion(site, version, failedGuard)`.
  FailureOr<func::FuncOp> getOrCreateNoteFn(OpBuilder &b, ModuleOp module) {
    Type i32 = b.getI32Type(), ptr = LLVM::LLVMPointerType::get(b.getContext());
    return getOrDeclareRuntimeFn(
        b, module, kNoteVersionFn, b.getFunctionType({ptr, i32, ptr}, {}),
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

  /// The module whose symbol table the host code at `op` resolves symbols
  /// in: runtime declarations and constant globals go there, so that a host
  /// function in a nested module finds them.
  static ModuleOp symbolModuleOf(Operation *op) {
    if (auto module = dyn_cast<ModuleOp>(op))
      return module;
    return op->getParentOfType<ModuleOp>();
  }

  /// The address of a NUL-terminated constant string (one global per text).
  Value getStringAddress(OpBuilder &b, Location loc, StringRef text) {
    ModuleOp module = symbolModuleOf(b.getInsertionBlock()->getParentOp());
    std::string name =
        "__tile_str_" + llvm::utohexstr(llvm::xxh3_64bits(text), true);
    auto global = module.lookupSymbol<LLVM::GlobalOp>(name);
    if (!global) {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(module.getBody());
      std::string value = text.str();
      value.push_back('\0');
      global = LLVM::GlobalOp::create(
          b, loc, LLVM::LLVMArrayType::get(b.getI8Type(), value.size()),
          /*isConstant=*/true, LLVM::Linkage::Private, name,
          b.getStringAttr(value));
    }
    return LLVM::AddressOfOp::create(b, loc, global);
  }

  /// The address of a constant array global holding `values` (one global
  /// per distinct array, e.g. @__tile_tmap_i64_64_8_4), so encode calls read
  /// their fields from read-only data instead of per-launch stack stores.
  Value getConstantArray(OpBuilder &b, Location loc, ArrayRef<int64_t> values,
                         IntegerType elementType) {
    ModuleOp module = symbolModuleOf(b.getInsertionBlock()->getParentOp());
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

  /// Values of a global buffer's memref descriptor, read on first use.
  struct DescriptorValues {
    OpBuilder &b;
    Location loc;
    Value buffer;
    memref::ExtractStridedMetadataOp metadata;
    Value address;

    Value toI64(Value index) {
      return arith::IndexCastOp::create(b, loc, b.getI64Type(), index);
    }
    Value get(StringRef kind, int64_t dim) {
      if (kind == "address") {
        if (!address)
          address = toI64(
              memref::ExtractAlignedPointerAsIndexOp::create(b, loc, buffer));
        return address;
      }
      if (!metadata)
        metadata = memref::ExtractStridedMetadataOp::create(b, loc, buffer);
      if (kind == "offset")
        return toI64(metadata.getOffset());
      if (kind == "size")
        return toI64(metadata.getSizes()[dim]);
      return toI64(metadata.getStrides()[dim]);
    }
  };

  Value i64Constant(OpBuilder &b, Location loc, int64_t v) {
    return arith::ConstantIntOp::create(b, loc, b.getI64Type(), v);
  }

  /// A run-time field's value: value * scale / divisor.
  Value emitRuntimeField(DescriptorValues &dv, DictionaryAttr field) {
    OpBuilder &b = dv.b;
    Location loc = dv.loc;
    auto get = [&](StringRef name) {
      return cast<IntegerAttr>(field.get(name)).getInt();
    };
    Value v =
        dv.get(cast<StringAttr>(field.get("value")).getValue(), get("dim"));
    if (get("scale") != 1)
      v = arith::MulIOp::create(b, loc, v, i64Constant(b, loc, get("scale")));
    if (get("divisor") != 1)
      v = arith::DivUIOp::create(b, loc, v,
                                 i64Constant(b, loc, get("divisor")));
    return v;
  }

  /// The i1 value of one guard.
  Value emitGuard(DescriptorValues &dv, DictionaryAttr guard) {
    OpBuilder &b = dv.b;
    Location loc = dv.loc;
    auto get = [&](StringRef name) {
      return cast<IntegerAttr>(guard.get(name)).getInt();
    };
    Value lin;
    auto add = [&](Value v) {
      lin = lin ? arith::AddIOp::create(b, loc, lin, v).getResult() : v;
    };
    for (Attribute t : cast<ArrayAttr>(guard.get("terms"))) {
      auto term = cast<ArrayAttr>(t);
      Value v = dv.get(cast<StringAttr>(term[0]).getValue(),
                       cast<IntegerAttr>(term[1]).getInt());
      int64_t coeff = cast<IntegerAttr>(term[2]).getInt();
      if (coeff != 1)
        v = arith::MulIOp::create(b, loc, v, i64Constant(b, loc, coeff));
      add(v);
    }
    if (get("constant") != 0 || !lin)
      add(i64Constant(b, loc, get("constant")));
    if (cast<StringAttr>(guard.get("kind")).getValue() == "multiple_of") {
      Value rem = arith::RemUIOp::create(b, loc, lin,
                                         i64Constant(b, loc, get("modulus")));
      return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, rem,
                                   i64Constant(b, loc, 0));
    }
    Value lo = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, lin,
                                     i64Constant(b, loc, get("lo")));
    Value hi = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sle, lin,
                                     i64Constant(b, loc, get("hi")));
    return arith::AndIOp::create(b, loc, lo, hi);
  }

  /// A stack array of i64 (allocated once in the host function's entry
  /// block, so a loop that encodes does not grow the stack) filled with
  /// `values` here.
  Value emitRuntimeArray(OpBuilder &b, Location loc, ArrayRef<Value> values) {
    Type ptrType = LLVM::LLVMPointerType::get(b.getContext());
    Block *insertBlock = b.getInsertionBlock();
    auto func =
        insertBlock->getParentOp()->getParentOfType<FunctionOpInterface>();
    if (!func && isa<FunctionOpInterface>(insertBlock->getParentOp()))
      func = cast<FunctionOpInterface>(insertBlock->getParentOp());
    Value array;
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(&func.getFunctionBody().front());
      Value count = arith::ConstantIntOp::create(
          b, loc, b.getI64Type(), std::max<int64_t>(values.size(), 1));
      array = LLVM::AllocaOp::create(b, loc, ptrType, b.getI64Type(), count);
    }
    for (auto [i, v] : llvm::enumerate(values)) {
      Value slot =
          LLVM::GEPOp::create(b, loc, ptrType, b.getI64Type(), array,
                              ArrayRef<LLVM::GEPArg>{static_cast<int32_t>(i)});
      LLVM::StoreOp::create(b, loc, v, slot);
    }
    return array;
  }

  /// The dims or strides argument of an encode: a constant global when every
  /// field is static, else a stack array of the run-time values.
  Value emitFieldArray(DescriptorValues &dv, DictionaryAttr map,
                       StringRef staticName, StringRef runtimeName) {
    ArrayRef<int64_t> values =
        cast<DenseI64ArrayAttr>(map.get(staticName)).asArrayRef();
    auto runtime = map.getAs<ArrayAttr>(runtimeName);
    if (!runtime)
      return getConstantArray(dv.b, dv.loc, values, dv.b.getI64Type());
    SmallVector<Value> fields;
    for (auto [i, v] : llvm::enumerate(values)) {
      auto field = i < runtime.size() ? cast<DictionaryAttr>(runtime[i])
                                      : DictionaryAttr();
      fields.push_back(field && !field.empty() ? emitRuntimeField(dv, field)
                                               : i64Constant(dv.b, dv.loc, v));
    }
    return emitRuntimeArray(dv.b, dv.loc, fields);
  }

  /// An im2col map: sizes and strides (bytes) read from the buffer,
  /// innermost first, and the buffer's element offset added to its address.
  EncodedMap emitIm2colEncode(OpBuilder &b, Location loc, Value buffer,
                              DictionaryAttr map, func::FuncOp encodeFn) {
    EncodedMap out;
    auto integer = [&](StringRef name) {
      return cast<IntegerAttr>(map.get(name)).getInt();
    };
    auto i32 = [&](StringRef name) -> Value {
      return arith::ConstantIntOp::create(b, loc, b.getI32Type(),
                                          integer(name));
    };
    auto arr = [&](StringRef name) {
      return cast<DenseI64ArrayAttr>(map.get(name)).asArrayRef();
    };
    DescriptorValues dv{b, loc, buffer, {}, {}};
    int64_t rank = integer("rank"), elementBytes = integer("element_bytes");
    SmallVector<Value> dims, strides;
    for (int64_t k = 0; k < rank; ++k) {
      int64_t d = rank - 1 - k;
      dims.push_back(dv.get("size", d));
      if (k > 0)
        strides.push_back(arith::MulIOp::create(
            b, loc, dv.get("stride", d), i64Constant(b, loc, elementBytes)));
    }
    Type ptrType = LLVM::LLVMPointerType::get(b.getContext());
    Value base =
        LLVM::IntToPtrOp::create(b, loc, ptrType, dv.get("address", 0));
    Value offset = arith::MulIOp::create(b, loc, dv.get("offset", 0),
                                         i64Constant(b, loc, elementBytes));
    base = LLVM::GEPOp::create(b, loc, ptrType, b.getI8Type(), base,
                               ValueRange{offset});
    auto call = func::CallOp::create(
        b, loc, encodeFn,
        ValueRange{
            i32("data_type_enum"), i32("rank"), base,
            emitRuntimeArray(b, loc, dims), emitRuntimeArray(b, loc, strides),
            getConstantArray(b, loc, arr("lower_corner"), b.getI32Type()),
            getConstantArray(b, loc, arr("upper_corner"), b.getI32Type()),
            i32("channels_per_pixel"), i32("pixels_per_column"),
            getConstantArray(b, loc, arr("element_strides"), b.getI32Type()),
            /*interleave=*/
            arith::ConstantIntOp::create(b, loc, b.getI32Type(), 0),
            i32("swizzle"), i32("l2_promotion"), i32("oob_fill")});
    out.ptr = call.getResult(0);
    return out;
  }

  /// The encode of `map` at `b`'s insertion point, through the runtime's
  /// encoder for the map's mode (declared on first use).
  FailureOr<EncodedMap> emitEncode(OpBuilder &b, Location loc, Value buffer,
                                   DictionaryAttr map) {
    ModuleOp module = symbolModuleOf(b.getInsertionBlock()->getParentOp());
    bool im2col = static_cast<bool>(map.get("mode"));
    FailureOr<func::FuncOp> encodeFn =
        im2col ? getOrCreateIm2colEncodeFn(b, module)
               : getOrCreateEncodeFn(b, module);
    if (failed(encodeFn))
      return failure();
    if (im2col)
      return emitIm2colEncode(b, loc, buffer, map, *encodeFn);
    auto i32 = [&](StringRef name) -> Value {
      return arith::ConstantIntOp::create(
          b, loc, b.getI32Type(), cast<IntegerAttr>(map.get(name)).getInt());
    };
    auto arr = [&](StringRef name) {
      return cast<DenseI64ArrayAttr>(map.get(name)).asArrayRef();
    };
    EncodedMap out;
    DescriptorValues dv{b, loc, buffer, {}, {}};
    if (auto guards = map.getAs<ArrayAttr>("guards")) {
      for (Attribute attr : guards) {
        auto guard = cast<DictionaryAttr>(attr);
        Value holds = emitGuard(dv, guard);
        out.guards.push_back(
            {holds, (guard.getAs<StringAttr>("rule").getValue() + ": " +
                     guard.getAs<StringAttr>("expr").getValue())
                        .str()});
        out.ok = out.ok
                     ? arith::AndIOp::create(b, loc, out.ok, holds).getResult()
                     : holds;
      }
    }
    Type ptrType = LLVM::LLVMPointerType::get(b.getContext());
    // Encode only where the guards hold: the driver would refuse the rest.
    scf::IfOp ifOk;
    if (out.ok) {
      ifOk = scf::IfOp::create(b, loc, TypeRange{ptrType}, out.ok,
                               /*withElseRegion=*/true);
      b.setInsertionPointToStart(ifOk.elseBlock());
      scf::YieldOp::create(b, loc,
                           ValueRange{LLVM::ZeroOp::create(b, loc, ptrType)});
      b.setInsertionPointToStart(ifOk.thenBlock());
    }
    // The guards' reads of the descriptor (at the hoist point) serve here too.
    Value base =
        LLVM::IntToPtrOp::create(b, loc, ptrType, dv.get("address", 0));
    int64_t constantOffset =
        cast<IntegerAttr>(map.get("base_offset_bytes")).getInt();
    Value offset;
    if (constantOffset != 0)
      offset = i64Constant(b, loc, constantOffset);
    if (auto scale = map.getAs<IntegerAttr>("offset_scale");
        scale && scale.getInt() != 0) {
      Value scaled = arith::MulIOp::create(b, loc, dv.get("offset", 0),
                                           i64Constant(b, loc, scale.getInt()));
      offset = offset
                   ? arith::AddIOp::create(b, loc, offset, scaled).getResult()
                   : scaled;
    }
    if (offset)
      base = LLVM::GEPOp::create(b, loc, ptrType, b.getI8Type(), base,
                                 ValueRange{offset});
    Value dims = emitFieldArray(dv, map, "global_dim", "runtime_global_dim");
    Value strides =
        emitFieldArray(dv, map, "global_strides", "runtime_global_strides");
    Value box = getConstantArray(b, loc, arr("box_dim"), b.getI32Type());
    Value elementStrides =
        getConstantArray(b, loc, arr("element_strides"), b.getI32Type());
    auto call = func::CallOp::create(
        b, loc, *encodeFn,
        ValueRange{i32("data_type_enum"), i32("rank"), base, dims, strides, box,
                   elementStrides, i32("interleave"), i32("swizzle"),
                   i32("l2_promotion"), i32("oob_fill")});
    out.ptr = call.getResult(0);
    if (ifOk) {
      scf::YieldOp::create(b, loc, ValueRange{out.ptr});
      b.setInsertionPointAfter(ifOk);
      out.ptr = ifOk.getResult(0);
    }
    return out;
  }

  LogicalResult encodeOnHost(gpu::LaunchFuncOp launch) {
    auto kernel = SymbolTable::lookupNearestSymbolFrom<gpu::GPUFuncOp>(
        launch, launch.getKernel());
    if (!kernel)
      return success();
    auto maps = kernel->getAttrOfType<ArrayAttr>(kTensorMapsAttr);
    if (!maps)
      return success();
    SmallVector<EncodedMap> encoded;
    if (failed(encodeMaps(launch, maps, encoded)))
      return failure();
    if (auto fallback = kernel->getAttrOfType<FlatSymbolRefAttr>(kFallbackAttr))
      if (failed(chooseVersion(launch, fallback, encoded)))
        return failure();
    SmallVector<Value> mapPtrs;
    for (const EncodedMap &map : encoded)
      mapPtrs.push_back(map.ptr);
    OpBuilder b(launch);
    guardLaunch(b, launch, mapPtrs);
    for (Value ptr : mapPtrs) {
      Value value = LLVM::LoadOp::create(b, launch.getLoc(),
                                         getMapArgType(b.getContext()), ptr);
      launch.getKernelOperandsMutable().append(value);
    }
    return success();
  }

  /// Wraps `launch` in `scf.if all guards hold { launch } else { launch the
  /// fallback version }`, each side telling the runtime which version ran.
  LogicalResult chooseVersion(gpu::LaunchFuncOp launch,
                              FlatSymbolRefAttr fallback,
                              ArrayRef<EncodedMap> encoded) {
    Location loc = launch.getLoc();
    OpBuilder b(launch);
    Value ok;
    SmallVector<std::pair<Value, std::string>> guards;
    for (const EncodedMap &map : encoded) {
      if (!map.ok)
        continue;
      ok = ok ? arith::AndIOp::create(b, loc, ok, map.ok).getResult() : map.ok;
      guards.append(map.guards.begin(), map.guards.end());
    }
    if (!ok)
      return success();
    // An async launch on one stream returns that stream as its token (what
    // gpu-to-llvm makes of it), so the token need not flow out of the branch:
    // later users take the stream the launch was queued on.
    if (Value token = launch.getAsyncToken()) {
      if (launch.getAsyncDependencies().size() != 1)
        return launch.emitOpError()
               << "guard: the kernel has a fallback version for run-time "
                  "guards; an async launch of it must name exactly one "
                  "stream to launch on (it names "
               << launch.getAsyncDependencies().size()
               << " dependencies), or give its buffers static types";
      token.replaceAllUsesWith(launch.getAsyncDependencies().front());
    }
    FailureOr<func::FuncOp> noteFn =
        getOrCreateNoteFn(b, symbolModuleOf(launch));
    if (failed(noteFn))
      return failure();
    // The first failed guard's text, for the runtime's log.
    Type ptrType = LLVM::LLVMPointerType::get(b.getContext());
    Value failed = LLVM::ZeroOp::create(b, loc, ptrType);
    for (auto &[holds, text] : llvm::reverse(guards))
      failed = LLVM::SelectOp::create(b, loc, holds, failed,
                                      getStringAddress(b, loc, text));
    auto host = launch->getParentOfType<FunctionOpInterface>();
    std::string siteText =
        "@" + (host ? host.getName().str() : std::string("?")) +
        ": launch of @" + launch.getKernel().getRootReference().str() + "::@" +
        launch.getKernelName().str();
    Value site = getStringAddress(b, loc, siteText);

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
    func::CallOp::create(b, loc, *noteFn, ValueRange{site, version, failed});
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
      EncodedMap &entry = encodedMaps[{point->getBlock(), buffer, key}];
      if (!entry.ptr) {
        b.setInsertionPoint(point);
        FailureOr<EncodedMap> emitted =
            emitEncode(b, launch.getLoc(), buffer, map);
        if (failed(emitted))
          return failure();
        entry = *emitted;
        if (Operation *def = entry.ptr.getDefiningOp())
          def->setAttr(kTensorMapAttr, key);
      }
      encoded.push_back(entry);
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
