//===- CheckHostArguments.cpp - --tile-check-host-arguments ---------------===//
//
// A host function that launches kernels trusts its memref arguments' static
// types: the kernels' tensor maps and loops are built from them. A caller
// (C, Python, another compiler) can pass any descriptor, so each such
// function first compares the sizes, strides and offset its caller passed
// with the ones the type fixes, and on the first difference reports it to the
// runtime and returns without launching.
//
// The fields are read from the descriptor through a cast to its LLVM struct:
// `memref.extract_strided_metadata` of a static type folds to the type's
// constants, which would check nothing.
//
//===----------------------------------------------------------------------===//

#include "TensorMapEncode.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "tile/Transforms/Passes.h"

namespace mlir::tile {
#define GEN_PASS_DEF_TILECHECKHOSTARGUMENTS
#include "tile/Transforms/Passes.h.inc"
} // namespace mlir::tile

using namespace mlir;
using namespace mlir::tile;

static constexpr StringLiteral kCheckFn = "tileRuntimeCheckArgument";

namespace {
/// One descriptor field the static type fixes.
struct FieldCheck {
  unsigned argument;
  std::string field;             // "size 0", "stride 1", "offset"
  SmallVector<int64_t> position; // in the descriptor struct
  int64_t expected;
};

/// The checked fields of memref argument `index`, in descriptor order.
void collectFieldChecks(unsigned index, MemRefType type,
                        SmallVectorImpl<FieldCheck> &checks) {
  SmallVector<int64_t> strides;
  int64_t offset;
  bool strided = succeeded(type.getStridesAndOffset(strides, offset));
  for (auto [d, size] : llvm::enumerate(type.getShape()))
    if (!ShapedType::isDynamic(size))
      checks.push_back({index,
                        "size " + std::to_string(d),
                        {3, static_cast<int64_t>(d)},
                        size});
  if (!strided)
    return;
  // The stride of a dimension of size 1 addresses nothing; callers such as
  // PyTorch pass any value there.
  for (auto [d, stride] : llvm::enumerate(strides))
    if (!ShapedType::isDynamic(stride) && type.getDimSize(d) != 1)
      checks.push_back({index,
                        "stride " + std::to_string(d),
                        {4, static_cast<int64_t>(d)},
                        stride});
  if (!ShapedType::isDynamic(offset))
    checks.push_back({index, "offset", {2}, offset});
}

/// Host memrefs the upstream lowering passes as descriptors: default memory
/// space, strided, ranked.
bool isCheckedArgument(Type type) {
  auto memref = dyn_cast<MemRefType>(type);
  return memref && !memref.getMemorySpace() && memref.getRank() > 0 &&
         memref.isStrided();
}

struct CheckHostArgumentsPass
    : public mlir::tile::impl::TileCheckHostArgumentsBase<
          CheckHostArgumentsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<func::FuncOp> entries;
    for (auto func : module.getOps<func::FuncOp>())
      if (!func.isExternal() && func.isPublic() && func.getNumResults() == 0 &&
          launchesKernels(func) &&
          llvm::any_of(func.getArgumentTypes(), isCheckedArgument))
        entries.push_back(func);
    // Unchanged IR needs no verifier run after this pass.
    if (entries.empty())
      return markAllAnalysesPreserved();
    // Built once: a lookup by name scans the module.
    SymbolTable symbols(module);
    OpBuilder b(module.getContext());
    Type ptr = LLVM::LLVMPointerType::get(module.getContext());
    Type i32 = b.getI32Type(), i64 = b.getI64Type();
    FailureOr<func::FuncOp> checkFn = host::getOrDeclareRuntimeFn(
        b, symbols, kCheckFn,
        b.getFunctionType({ptr, i32, ptr, ptr, i64, i64}, {i32}),
        "the runtime's argument check, which host functions that launch "
        "kernels call");
    if (failed(checkFn))
      return signalPassFailure();
    for (func::FuncOp func : entries)
      addChecks(func, *checkFn, symbols);
  }

  static bool launchesKernels(func::FuncOp func) {
    return func.walk([](gpu::LaunchFuncOp) { return WalkResult::interrupt(); })
        .wasInterrupted();
  }

  static std::string typeText(Type type) {
    std::string s;
    llvm::raw_string_ostream os(s);
    os << type;
    return s;
  }

  /// Splits the entry block into a chain of field comparisons, each failing
  /// into a block that reports the field and returns; the last comparison
  /// passes into the original body.
  void addChecks(func::FuncOp func, func::FuncOp checkFn,
                 SymbolTable &symbols) {
    Block *entry = &func.getBody().front();
    Block *body = entry->splitBlock(entry->begin());
    OpBuilder b(func.getContext());
    b.setInsertionPointToEnd(entry);
    Location loc = func.getLoc();
    for (auto [index, arg] : llvm::enumerate(func.getArguments())) {
      if (!isCheckedArgument(arg.getType()))
        continue;
      auto type = cast<MemRefType>(arg.getType());
      SmallVector<FieldCheck> checks;
      collectFieldChecks(index, type, checks);
      if (checks.empty())
        continue;
      Value desc =
          UnrealizedConversionCastOp::create(b, loc, descriptorType(type), arg)
              .getResult(0);
      for (const FieldCheck &check : checks) {
        Value received =
            LLVM::ExtractValueOp::create(b, loc, desc, check.position);
        Value expected = LLVM::ConstantOp::create(
            b, loc, b.getI64Type(), b.getI64IntegerAttr(check.expected));
        Value differs = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::ne,
                                             received, expected);
        Block *current = b.getInsertionBlock();
        Block *report = b.createBlock(body);
        Block *next = b.createBlock(body);
        b.setInsertionPointToEnd(current);
        cf::CondBranchOp::create(b, loc, differs, report, ValueRange(), next,
                                 ValueRange());
        b.setInsertionPointToEnd(report);
        Value argument = LLVM::ConstantOp::create(
            b, loc, b.getI32Type(), b.getI32IntegerAttr(check.argument));
        func::CallOp::create(
            b, loc, checkFn,
            ValueRange{host::getStringAddress(b, symbols, loc,
                                              "@" + func.getName().str()),
                       argument,
                       host::getStringAddress(b, symbols, loc, typeText(type)),
                       host::getStringAddress(b, symbols, loc, check.field),
                       expected, received});
        func::ReturnOp::create(b, loc);
        b.setInsertionPointToEnd(next);
      }
    }
    cf::BranchOp::create(b, loc, body);
  }

  static Type descriptorType(MemRefType type) {
    MLIRContext *ctx = type.getContext();
    Type ptr = LLVM::LLVMPointerType::get(ctx);
    Type i64 = IntegerType::get(ctx, 64);
    Type array = LLVM::LLVMArrayType::get(i64, type.getRank());
    return LLVM::LLVMStructType::getLiteral(ctx, {ptr, ptr, i64, array, array});
  }
};
} // namespace
