//===- TensorMapEncode.cpp - Host code that encodes one tensor map --------===//
//
// Reads the typed `#tile.tensor_map` record and emits the host's encode of it
// (TensorMapEncode.h). Static fields go to constant globals shared by every
// encode of the same values; run-time fields, guards and the base address
// come from the buffer's memref descriptor, read once per hoist point.
//
//===----------------------------------------------------------------------===//

#include "TensorMapEncode.h"
#include "tile/Dialect/Tile/IR/RuntimeFieldEmitter.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "tile/Dialect/Tile/IR/RuleDiagnostic.h"
#include "tile/Support/Rules.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::host;
using ::tile::tma::RuntimeField;
using ::tile::tma::RuntimeValue;

static constexpr StringLiteral kEncodeFn = "tileTensorMapGetCached";
static constexpr StringLiteral kEncodeIm2colFn = "tileTensorMapIm2colGetCached";

Type host::getMapArgType(MLIRContext *ctx) {
  return LLVM::LLVMArrayType::get(IntegerType::get(ctx, 64), 16);
}

ModuleOp host::symbolModuleOf(Operation *op) {
  if (auto module = dyn_cast<ModuleOp>(op))
    return module;
  return op->getParentOfType<ModuleOp>();
}

FailureOr<func::FuncOp>
host::getOrDeclareRuntimeFn(OpBuilder &b, SymbolTable &symbols, StringRef name,
                            FunctionType type, StringRef purpose) {
  if (Operation *existing = symbols.lookup(name)) {
    auto fn = dyn_cast<func::FuncOp>(existing);
    if (fn && fn.isExternal() && fn.getFunctionType() == type)
      return fn;
    return emitRuleError(existing, RuleId::ReservedSymbol)
           << "'@" << name << "' is " << purpose << "; rename this symbol";
  }
  auto module = cast<ModuleOp>(symbols.getOp());
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(module.getBody());
  auto fn = func::FuncOp::create(b, module.getLoc(), name, type);
  fn.setPrivate();
  symbols.insert(fn);
  return fn;
}

Value host::getConstantArray(OpBuilder &b, SymbolTable &symbols, Location loc,
                             ArrayRef<int64_t> values,
                             IntegerType elementType) {
  auto module = cast<ModuleOp>(symbols.getOp());
  std::string name = "__tile_tmap_i" + std::to_string(elementType.getWidth());
  for (int64_t v : values)
    name += "_" + std::to_string(v);
  if (values.empty())
    name += "_empty";
  auto global = symbols.lookup<LLVM::GlobalOp>(name);
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
    global =
        LLVM::GlobalOp::create(b, loc, LLVM::LLVMArrayType::get(elementType, n),
                               /*isConstant=*/true, LLVM::Linkage::Private,
                               name, DenseElementsAttr::get(tensorType, bits));
    symbols.insert(global);
  }
  return LLVM::AddressOfOp::create(b, loc, global);
}

namespace {
/// Values of a global buffer's memref descriptor, read on first use.
struct DescriptorValues {
  OpBuilder &b;
  SymbolTable &symbols;
  Location loc;
  Value buffer;
  memref::ExtractStridedMetadataOp metadata;
  Value address;

  Value toI64(Value index) {
    return arith::IndexCastOp::create(b, loc, b.getI64Type(), index);
  }
  Value get(RuntimeValue v) {
    if (v.kind == RuntimeValue::Kind::Address) {
      if (!address)
        address = toI64(
            memref::ExtractAlignedPointerAsIndexOp::create(b, loc, buffer));
      return address;
    }
    if (!metadata)
      metadata = memref::ExtractStridedMetadataOp::create(b, loc, buffer);
    switch (v.kind) {
    case RuntimeValue::Kind::Offset:
      return toI64(metadata.getOffset());
    case RuntimeValue::Kind::Size:
      return toI64(metadata.getSizes()[v.dim]);
    default:
      return toI64(metadata.getStrides()[v.dim]);
    }
  }
  Value constant(int64_t v) {
    return arith::ConstantIntOp::create(b, loc, b.getI64Type(), v);
  }
  Value i32(int64_t v) {
    return arith::ConstantIntOp::create(b, loc, b.getI32Type(), v);
  }
};
} // namespace

/// A run-time field's value: value * scale / divisor.
static Value emitRuntimeField(DescriptorValues &dv, const RuntimeField &f) {
  return mlir::tile::emitRuntimeField(
      dv.b, dv.loc, f, [&](RuntimeValue v) { return dv.get(v); });
}

/// The i1 value of one guard.
static Value emitGuard(DescriptorValues &dv, const ::tile::tma::Guard &g) {
  return emitGuardHolds(dv.b, dv.loc, g,
                        [&](RuntimeValue v) { return dv.get(v); });
}

/// A stack array of i64 (allocated once in the host function's entry block,
/// so a loop that encodes does not grow the stack) filled with `values` here.
static Value emitRuntimeArray(OpBuilder &b, Location loc,
                              ArrayRef<Value> values) {
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

template <typename T>
static SmallVector<int64_t> toI64(const std::vector<T> &values) {
  return SmallVector<int64_t>(values.begin(), values.end());
}

/// The dims or strides argument of an encode: a constant global when every
/// field is static, else a stack array of the run-time values.
static Value
emitFieldArray(DescriptorValues &dv, const std::vector<uint64_t> &values,
               const std::vector<std::optional<RuntimeField>> &runtime) {
  if (runtime.empty())
    return getConstantArray(dv.b, dv.symbols, dv.loc, toI64(values),
                            dv.b.getI64Type());
  SmallVector<Value> fields;
  for (auto [i, v] : llvm::enumerate(values))
    fields.push_back(i < runtime.size() && runtime[i]
                         ? emitRuntimeField(dv, *runtime[i])
                         : dv.constant(static_cast<int64_t>(v)));
  return emitRuntimeArray(dv.b, dv.loc, fields);
}

/// An im2col map: sizes and strides (bytes) read from the buffer, innermost
/// first, and the buffer's element offset added to its address.
static EncodedMap emitIm2colEncode(DescriptorValues &dv,
                                   const ::tile::tma::Im2colMapDesc &m,
                                   func::FuncOp encodeFn) {
  OpBuilder &b = dv.b;
  Location loc = dv.loc;
  int64_t rank = m.rank;
  SmallVector<Value> dims, strides;
  for (int64_t k = 0; k < rank; ++k) {
    unsigned d = rank - 1 - k;
    dims.push_back(dv.get(RuntimeValue::size(d)));
    if (k > 0)
      strides.push_back(arith::MulIOp::create(b, loc,
                                              dv.get(RuntimeValue::stride(d)),
                                              dv.constant(m.elementBytes)));
  }
  Type ptrType = LLVM::LLVMPointerType::get(b.getContext());
  Value base = LLVM::IntToPtrOp::create(b, loc, ptrType,
                                        dv.get(RuntimeValue::address()));
  Value offset = arith::MulIOp::create(b, loc, dv.get(RuntimeValue::offset()),
                                       dv.constant(m.elementBytes));
  base = LLVM::GEPOp::create(b, loc, ptrType, b.getI8Type(), base,
                             ValueRange{offset});
  auto call = func::CallOp::create(
      b, loc, encodeFn,
      ValueRange{
          dv.i32(static_cast<int64_t>(m.dataType)), dv.i32(rank), base,
          emitRuntimeArray(b, loc, dims), emitRuntimeArray(b, loc, strides),
          getConstantArray(b, dv.symbols, loc, toI64(m.lowerCorner),
                           b.getI32Type()),
          getConstantArray(b, dv.symbols, loc, toI64(m.upperCorner),
                           b.getI32Type()),
          dv.i32(m.channelsPerPixel), dv.i32(m.pixelsPerColumn),
          getConstantArray(b, dv.symbols, loc, toI64(m.elementStrides),
                           b.getI32Type()),
          /*interleave=*/dv.i32(0), dv.i32(static_cast<int64_t>(m.swizzle)),
          dv.i32(m.l2Promotion), dv.i32(m.oobFill)});
  EncodedMap out;
  out.ptr = call.getResult(0);
  return out;
}

/// A tiled map: the guards, then (where they hold) the encode.
static EncodedMap emitTiledEncode(DescriptorValues &dv, TensorMapAttr record,
                                  const ::tile::tma::TensorMapDesc &m,
                                  func::FuncOp encodeFn) {
  OpBuilder &b = dv.b;
  Location loc = dv.loc;
  EncodedMap out;
  for (GuardAttr guard : record.getGuardList()) {
    const ::tile::tma::Guard &g = guard.getGuard();
    Value holds = emitGuard(dv, g);
    out.guards.push_back(
        {holds, std::string(::tile::ruleIdName(g.rule)) + ": " + g.str()});
    out.ok = out.ok ? arith::AndIOp::create(b, loc, out.ok, holds).getResult()
                    : holds;
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
  Value base = LLVM::IntToPtrOp::create(b, loc, ptrType,
                                        dv.get(RuntimeValue::address()));
  int64_t constantOffset = *m.baseOffsetBytes.constantValue();
  Value offset;
  if (constantOffset != 0)
    offset = dv.constant(constantOffset);
  if (m.runtimeOffsetScale != 0) {
    Value scaled = arith::MulIOp::create(b, loc, dv.get(RuntimeValue::offset()),
                                         dv.constant(m.runtimeOffsetScale));
    offset = offset ? arith::AddIOp::create(b, loc, offset, scaled).getResult()
                    : scaled;
  }
  if (offset)
    base = LLVM::GEPOp::create(b, loc, ptrType, b.getI8Type(), base,
                               ValueRange{offset});
  Value dims = emitFieldArray(dv, m.globalDim, m.runtimeGlobalDim);
  Value strides =
      emitFieldArray(dv, m.globalStridesBytes, m.runtimeGlobalStrides);
  Value box =
      getConstantArray(b, dv.symbols, loc, toI64(m.boxDim), b.getI32Type());
  Value elementStrides = getConstantArray(
      b, dv.symbols, loc, toI64(m.elementStrides), b.getI32Type());
  auto call = func::CallOp::create(
      b, loc, encodeFn,
      ValueRange{dv.i32(static_cast<int64_t>(m.dataType)), dv.i32(m.rank), base,
                 dims, strides, box, elementStrides, dv.i32(m.interleave),
                 dv.i32(static_cast<int64_t>(m.swizzle)), dv.i32(m.l2Promotion),
                 dv.i32(m.oobFill)});
  out.ptr = call.getResult(0);
  if (ifOk) {
    scf::YieldOp::create(b, loc, ValueRange{out.ptr});
    b.setInsertionPointAfter(ifOk);
    out.ptr = ifOk.getResult(0);
  }
  return out;
}

FailureOr<EncodedMap> host::emitTensorMapEncode(OpBuilder &b,
                                                SymbolTable &symbols,
                                                Location loc, Value buffer,
                                                TensorMapAttr map) {
  Type i32 = b.getI32Type(), ptr = LLVM::LLVMPointerType::get(b.getContext());
  DescriptorValues dv{b, symbols, loc, buffer, {}, {}};
  if (Im2colMapAttr im2col = map.getIm2colMap()) {
    FailureOr<func::FuncOp> encodeFn = getOrDeclareRuntimeFn(
        b, symbols, kEncodeIm2colFn,
        b.getFunctionType({i32, i32, ptr, ptr, ptr, ptr, ptr, i32, i32, ptr,
                           i32, i32, i32, i32},
                          {ptr}),
        "the runtime's im2col tensor-map encoder, which the host calls "
        "before each launch with an im2col load");
    if (failed(encodeFn))
      return failure();
    return emitIm2colEncode(dv, im2col.getDesc(), *encodeFn);
  }
  FailureOr<func::FuncOp> encodeFn = getOrDeclareRuntimeFn(
      b, symbols, kEncodeFn,
      b.getFunctionType({i32, i32, ptr, ptr, ptr, ptr, ptr, i32, i32, i32, i32},
                        {ptr}),
      "the runtime's tensor-map encoder, which the host calls before each "
      "TMA launch");
  if (failed(encodeFn))
    return failure();
  return emitTiledEncode(dv, map, map.getTiledMap().getDesc(), *encodeFn);
}
