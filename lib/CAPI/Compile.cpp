//===- Compile.cpp - C API: compile a module to a library -----------------===//
//
// mlirTileCompile: tile-compile's steps (tile/Compiler/Compiler.h) on a
// string, in a context of its own, with every product handed to a callback.
//
//===----------------------------------------------------------------------===//

#include "tile-c/Compile.h"
#include "mlir/CAPI/Support.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Location.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassInstrumentation.h"
#include "tile/Compiler/Compiler.h"
#include "tile/Dialect/Tile/IR/RuleDiagnostic.h"
#include "tile/Dialect/Tile/IR/TileOps.h"
#include "tile/Dispatch/CopyVariant.h"
#include "tile/Transforms/Passes.h"
#include "tile/Transforms/PlanReport.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include <mutex>

using namespace mlir;

namespace {
/// Hands products to the caller's callback.
struct Products {
  MlirTileCompileCallback callback;
  void *userData;

  void emit(StringRef kind, StringRef name, StringRef text) const {
    callback(wrap(kind), wrap(name), wrap(text), userData);
  }
};

/// Prints the IR after the passes a caller asked for, numbering repeated runs
/// ("cse", "cse#2", ...) and naming the op of a nested pass ("@kernels").
class StageCapture : public PassInstrumentation {
public:
  StageCapture(const llvm::StringSet<> &stages, const Products &products)
      : stages(stages), products(products) {}

  void runAfterPass(Pass *pass, Operation *op) override {
    StringRef argument = pass->getArgument();
    if (argument.empty() ||
        (!stages.contains("all") && !stages.contains(argument)))
      return;
    std::string name = argument.str();
    if (auto symbol =
            op->getAttrOfType<StringAttr>(SymbolTable::getSymbolAttrName());
        symbol && !isa<ModuleOp>(op))
      name += "@" + symbol.getValue().str();
    std::string text;
    llvm::raw_string_ostream os(text);
    op->print(os);
    std::lock_guard<std::mutex> lock(mutex);
    unsigned run = ++runs[name];
    if (run > 1)
      name += "#" + std::to_string(run);
    products.emit("mlir", name, text);
  }

private:
  const llvm::StringSet<> &stages;
  const Products &products;
  std::mutex mutex;
  llvm::StringMap<unsigned> runs;
};
} // namespace

static std::string locationText(Location loc) {
  if (auto fileLoc = loc->findInstanceOf<FileLineColLoc>())
    return (fileLoc.getFilename().getValue() + ":" + Twine(fileLoc.getLine()) +
            ":" + Twine(fileLoc.getColumn()))
        .str();
  return "";
}

static StringRef severityText(DiagnosticSeverity severity) {
  switch (severity) {
  case DiagnosticSeverity::Error:
    return "error";
  case DiagnosticSeverity::Warning:
    return "warning";
  case DiagnosticSeverity::Remark:
    return "remark";
  case DiagnosticSeverity::Note:
    return "note";
  }
  return "error";
}

static void emitDiagnostic(Diagnostic &diag, const Products &products) {
  // The engine calls its handler under its own lock, so the rule and its
  // diagnostic arrive back to back.
  if (std::optional<::tile::RuleId> rule = mlir::tile::getDiagnosticRule(diag))
    products.emit("rule", StringRef(::tile::ruleIdName(*rule)), "");
  std::string text;
  llvm::raw_string_ostream os(text);
  os << severityText(diag.getSeverity()) << ": " << diag.str();
  for (Diagnostic &note : diag.getNotes()) {
    os << "\n";
    std::string where = locationText(note.getLocation());
    if (!where.empty())
      os << where << ": ";
    os << severityText(DiagnosticSeverity::Note) << ": " << note.str();
  }
  products.emit("diagnostic", locationText(diag.getLocation()), text);
}

/// An integer that the type leaves open is JSON null.
static llvm::json::Value staticOrNull(int64_t value) {
  if (ShapedType::isDynamic(value))
    return nullptr;
  return value;
}

static std::string typeText(Type type) {
  std::string text;
  llvm::raw_string_ostream os(text);
  type.print(os);
  return text;
}

/// One argument of a host entry, as docs/python.md describes it.
static llvm::json::Object argumentSignature(Type type) {
  llvm::json::Object arg{{"type", typeText(type)}};
  if (auto memref = dyn_cast<MemRefType>(type)) {
    arg["kind"] = "memref";
    arg["dtype"] = typeText(memref.getElementType());
    llvm::json::Array shape, strides;
    for (int64_t size : memref.getShape())
      shape.push_back(staticOrNull(size));
    arg["shape"] = std::move(shape);
    SmallVector<int64_t> strideValues;
    int64_t offset;
    if (succeeded(memref.getStridesAndOffset(strideValues, offset))) {
      for (int64_t stride : strideValues)
        strides.push_back(staticOrNull(stride));
      arg["strides"] = std::move(strides);
      arg["offset"] = staticOrNull(offset);
    } else {
      arg["strides"] = nullptr;
      arg["offset"] = nullptr;
    }
    if (Attribute space = memref.getMemorySpace()) {
      std::string spaceText;
      llvm::raw_string_ostream spaceOS(spaceText);
      space.print(spaceOS);
      arg["memory_space"] = spaceText;
    } else {
      arg["memory_space"] = nullptr;
    }
    return arg;
  }
  if (isa<gpu::AsyncTokenType>(type)) {
    arg["kind"] = "stream";
    return arg;
  }
  if (type.isIntOrIndexOrFloat()) {
    arg["kind"] = "scalar";
    return arg;
  }
  arg["kind"] = "unsupported";
  return arg;
}

/// The C entry points the library will export: every public host function
/// with a body. An argument that a TMA copy reads or writes is marked
/// `"tma": true` (its base must be 16-byte aligned).
/// The name an argument has in the source (`%A` gives "A"), read at its
/// location; empty where there is none.
static std::string sourceName(BlockArgument arg, llvm::SourceMgr &sourceMgr) {
  auto loc = dyn_cast<FileLineColLoc>(arg.getLoc());
  if (!loc || sourceMgr.getNumBuffers() == 0)
    return "";
  llvm::SMLoc at = sourceMgr.FindLocForLineAndColumn(
      sourceMgr.getMainFileID(), loc.getLine(), loc.getColumn());
  if (!at.isValid() || *at.getPointer() != '%')
    return "";
  StringRef rest(
      at.getPointer() + 1,
      sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID())->getBufferEnd() -
          at.getPointer() - 1);
  size_t end = rest.find_if_not([](char c) {
    return llvm::isAlnum(c) || c == '_' || c == '$' || c == '.' || c == '-';
  });
  return rest.take_front(end).str();
}

static void
emitEntries(ModuleOp module, const Products &products,
            const llvm::DenseSet<std::pair<Operation *, unsigned>> &tmaArgs,
            llvm::SourceMgr &sourceMgr) {
  for (auto func : module.getOps<func::FuncOp>()) {
    if (!func.isPublic() || func.isExternal())
      continue;
    llvm::json::Array args, results;
    for (auto [index, type] : llvm::enumerate(func.getArgumentTypes())) {
      llvm::json::Object arg = argumentSignature(type);
      arg["tma"] = tmaArgs.contains({func, static_cast<unsigned>(index)});
      arg["name"] = sourceName(func.getArgument(index), sourceMgr);
      args.push_back(std::move(arg));
    }
    for (Type type : func.getResultTypes())
      results.push_back(typeText(type));
    llvm::json::Object entry{{"name", func.getSymName().str()},
                             {"args", std::move(args)},
                             {"results", std::move(results)}};
    std::string text;
    llvm::raw_string_ostream os(text);
    os << llvm::json::Value(std::move(entry));
    products.emit("entry", func.getSymName(), text);
  }
}

/// The host function arguments `value` is, through views and the operands
/// of kernel launches (defined below).
static void collectHostArguments(
    Value value, ModuleOp module,
    llvm::DenseSet<std::pair<Operation *, unsigned>> &arguments,
    unsigned depth = 0);

/// Hands back the report line of every TMA copy in `module`, in order, as the
/// report pass writes them, and `tmaArgs`: the host function arguments those
/// copies read or write. It runs on the pipeline's own module once
/// tile-plan-copies has decided every copy and tile-expand-collective-copies
/// has turned each CTA- or warpgroup-wide tile.copy the TMA takes (a
/// converted upstream copy too) into its tile.copy_async, and before kernel
/// versions duplicate copies.
static LogicalResult
emitPlans(ModuleOp module, const Products &products,
          llvm::DenseSet<std::pair<Operation *, unsigned>> &tmaArgs) {
  WalkResult walk =
      module->walk<WalkOrder::PreOrder>([&](Operation *op) -> WalkResult {
        std::string line;
        llvm::raw_string_ostream os(line);
        if (auto im2col = dyn_cast<mlir::tile::CopyIm2colOp>(op)) {
          if (failed(mlir::tile::writeIm2colReport(im2col, os)))
            return WalkResult::interrupt();
          products.emit("plan", "", line);
          collectHostArguments(im2col.getSrc(), module, tmaArgs);
          return WalkResult::advance();
        }
        auto copy = dyn_cast<mlir::tile::CopyAsyncOp>(op);
        if (!copy)
          return WalkResult::advance();
        FailureOr<mlir::tile::DispatchResult> result =
            mlir::tile::recallCopyDecision(copy);
        if (failed(result))
          return WalkResult::interrupt();
        mlir::tile::writeCopyPlanReport(copy, *result, os);
        products.emit("plan", "", line);
        // A copy whose lowering needs a tensor map reads its global through
        // TMA.
        if (result->selected && result->match &&
            result->match->getTensorMapPlan())
          collectHostArguments(copy.getGlobal(), module, tmaArgs);
        return WalkResult::advance();
      });
  return failure(walk.wasInterrupted());
}

/// The host function arguments `value` is, through views and the operands
/// of kernel launches (a kernel may be launched from several places).
static void collectHostArguments(
    Value value, ModuleOp module,
    llvm::DenseSet<std::pair<Operation *, unsigned>> &arguments,
    unsigned depth) {
  if (depth > 16)
    return;
  while (auto view = value.getDefiningOp<ViewLikeOpInterface>())
    value = view.getViewSource();
  auto arg = dyn_cast<BlockArgument>(value);
  if (!arg)
    return;
  Operation *owner = arg.getOwner()->getParentOp();
  if (auto func = dyn_cast<func::FuncOp>(owner)) {
    arguments.insert({func, arg.getArgNumber()});
    return;
  }
  auto kernel = dyn_cast<gpu::GPUFuncOp>(owner);
  if (!kernel || arg.getOwner() != &kernel.getBody().front())
    return;
  auto kernels = kernel->getParentOfType<gpu::GPUModuleOp>();
  module.walk([&](gpu::LaunchFuncOp launch) {
    if (launch.getKernelModuleName() == kernels.getSymNameAttr() &&
        launch.getKernelName() == kernel.getNameAttr() &&
        arg.getArgNumber() < launch.getNumKernelOperands())
      collectHostArguments(launch.getKernelOperand(arg.getArgNumber()), module,
                           arguments, depth + 1);
  });
}

namespace {
/// Hands back the plans and the entries' signatures from the pipeline's own
/// run, after tile-expand-collective-copies (see emitPlans).
class PlanCapture : public PassInstrumentation {
public:
  /// `broken` outlives the capture, which the pass manager owns.
  PlanCapture(const Products &products, llvm::SourceMgr &sourceMgr,
              bool &broken)
      : products(products), sourceMgr(sourceMgr), broken(broken),
        expansion(mlir::tile::createTileExpandCollectiveCopies()->getTypeID()) {
  }

  void runAfterPass(Pass *pass, Operation *op) override {
    auto module = dyn_cast<ModuleOp>(op);
    if (!module || pass->getTypeID() != expansion)
      return;
    // Reading the recorded decisions leaves the module as it is.
    llvm::DenseSet<std::pair<Operation *, unsigned>> tmaArgs;
    if (mlir::failed(emitPlans(module, products, tmaArgs))) {
      broken = true;
      return;
    }
    emitEntries(module, products, tmaArgs, sourceMgr);
  }

private:
  const Products &products;
  llvm::SourceMgr &sourceMgr;
  /// Set where a recorded decision could not be recalled (a diagnostic says
  /// why).
  bool &broken;
  TypeID expansion;
};
} // namespace

static std::string orDefault(MlirStringRef value, StringRef fallback) {
  StringRef text = unwrap(value);
  return text.empty() ? fallback.str() : text.str();
}

MlirLogicalResult mlirTileCompile(MlirStringRef source,
                                  MlirStringRef sourceName,
                                  const MlirTileCompileOptions *options,
                                  MlirTileCompileCallback callback,
                                  void *userData) {
  Products products{callback, userData};
  mlir::tile::CompilerOptions compiler;
  compiler.chip = orDefault(options->chip, compiler.chip);
  compiler.toolkit = orDefault(options->toolkit, compiler.toolkit);
  compiler.runtimeDir = unwrap(options->runtimeDir).str();
  compiler.emitPTX = options->emitPTX;
  compiler.convertUpstreamCopies = options->convertUpstreamCopies;
  llvm::StringSet<> stages;
  SmallVector<StringRef> stageNames;
  unwrap(options->stages).split(stageNames, ',', -1, /*KeepEmpty=*/false);
  for (StringRef stage : stageNames)
    stages.insert(stage.trim());

  DialectRegistry registry;
  mlir::tile::registerCompilerDialects(registry);
  MLIRContext context(registry);
  context.loadAllAvailableDialects();
  // A diagnostic names its op and rule; the op's text would repeat the
  // source the location already points at.
  context.printOpOnDiagnostic(false);
  // Stage captures come in pass order only without threads.
  if (!stages.empty())
    context.disableMultithreading();
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diag) {
    emitDiagnostic(diag, products);
    return success();
  });

  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(unwrap(source),
                                           orDefault(sourceName, "<string>")),
      llvm::SMLoc());
  OwningOpRef<ModuleOp> module =
      mlir::tile::parseCompilerInput(sourceMgr, context);
  if (!module)
    return wrap(failure());
  if (stages.contains("input")) {
    std::string text;
    llvm::raw_string_ostream os(text);
    module->print(os);
    products.emit("mlir", "input", text);
  }
  std::vector<mlir::tile::KernelPTX> ptx;
  bool plansBroken = false;
  auto instrument = [&](PassManager &pm) {
    pm.addInstrumentation(
        std::make_unique<PlanCapture>(products, sourceMgr, plansBroken));
    if (!stages.empty())
      pm.addInstrumentation(std::make_unique<StageCapture>(stages, products));
  };
  if (failed(mlir::tile::lowerModule(*module, compiler, &ptx, instrument)) ||
      plansBroken)
    return wrap(failure());
  for (const mlir::tile::KernelPTX &kernels : ptx)
    products.emit("ptx", kernels.module, kernels.ptx);
  if (stages.contains("lowered")) {
    std::string text;
    llvm::raw_string_ostream os(text);
    module->print(os);
    products.emit("mlir", "lowered", text);
  }

  std::string output = unwrap(options->output).str();
  if (output.empty())
    return wrap(success());
  if (llvm::Error error = mlir::tile::writeHostOutput(
          *module, compiler, mlir::tile::HostOutputKind::SharedLibrary,
          output)) {
    emitError(UnknownLoc::get(&context)) << llvm::toString(std::move(error));
    return wrap(failure());
  }
  return wrap(success());
}
