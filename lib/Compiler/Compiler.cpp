//===- Compiler.cpp - A module of host functions to a shared library ------===//

#include "tile/Compiler/Compiler.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "tile/Dialect/Tile/IR/RuleDiagnostic.h"
#include "tile/InitAllTile.h"
#include "tile/Pipelines/Pipelines.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Target/TargetOptions.h"
#include "llvm/TargetParser/Triple.h"

using namespace mlir;
using namespace mlir::tile;

static llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

void mlir::tile::registerCompilerDialects(DialectRegistry &registry) {
  registerAllDialects(registry);
  registerAllExtensions(registry);
  registerAllToLLVMIRTranslations(registry);
  registerAllTileDialects(registry);
}

OwningOpRef<ModuleOp> mlir::tile::parseCompilerInput(llvm::SourceMgr &sourceMgr,
                                                     MLIRContext &context) {
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, &context);
  if (!module)
    return nullptr;
  if (!(*module)->hasAttr(gpu::GPUDialect::getContainerModuleAttrName()))
    (*module)->setAttr(gpu::GPUDialect::getContainerModuleAttrName(),
                       UnitAttr::get(&context));
  return module;
}

void mlir::tile::markCInterfaces(ModuleOp module) {
  for (auto func : module.getOps<func::FuncOp>())
    if (func.isPublic() && !func.isExternal())
      func->setAttr("llvm.emit_c_interface",
                    UnitAttr::get(module.getContext()));
}

/// Serialises every gpu.module of `module` to `format` (isa or bin).
static LogicalResult serializeKernels(ModuleOp module, StringRef format,
                                      StringRef toolkit) {
  PassManager pm(module.getContext());
  GpuModuleToBinaryPassOptions binary;
  binary.compilationTarget = format.str();
  binary.toolkitPath = toolkit.str();
  pm.addPass(createGpuModuleToBinaryPass(binary));
  return pm.run(module);
}

/// The PTX of every kernel module: the gpu.modules are copied into a scratch
/// module and serialised to PTX there, so the original goes on to a cubin.
static LogicalResult collectPTX(ModuleOp module, StringRef toolkit,
                                std::vector<KernelPTX> &ptx) {
  OpBuilder builder(module.getContext());
  OwningOpRef<ModuleOp> scratch = ModuleOp::create(builder, module.getLoc());
  (*scratch)->setAttrs(module->getAttrDictionary());
  builder.setInsertionPointToEnd(scratch->getBody());
  for (auto kernels : module.getOps<gpu::GPUModuleOp>())
    builder.clone(*kernels);
  if (failed(serializeKernels(*scratch, "isa", toolkit)))
    return failure();
  for (auto binary : scratch->getOps<gpu::BinaryOp>())
    for (Attribute object : binary.getObjects())
      if (auto gpuObject = dyn_cast<gpu::ObjectAttr>(object))
        ptx.push_back({binary.getName().str(), gpuObject.getObject().str()});
  return success();
}

LogicalResult
mlir::tile::lowerModule(ModuleOp module, const CompilerOptions &options,
                        std::vector<KernelPTX> *ptx,
                        llvm::function_ref<void(PassManager &)> instrument) {
  if (!llvm::sys::fs::is_directory(options.toolkit))
    return withRule(module.emitError(), RuleId::Toolkit)
           << "toolkit: CUDA toolkit directory '" << options.toolkit
           << "' does not exist; the cubin needs ptxas from it (pass the "
              "toolkit's folder)";
  markCInterfaces(module);
  PassManager pm(module.getContext());
  if (instrument)
    instrument(pm);
  // Serialisation runs separately below, so the PTX can be taken first.
  TileGPUPipelineOptions pipeline;
  pipeline.chip = options.chip;
  pipeline.format = "none";
  pipeline.toolkit = options.toolkit;
  pipeline.verifyAsync = options.verifyAsync;
  pipeline.convertUpstreamCopies = options.convertUpstreamCopies;
  pipeline.prefetchTensorMaps = options.prefetchTensorMaps;
  buildTileGPUPipeline(pm, pipeline);
  // Verifying between passes is a third of the pipeline's time; the passes'
  // own invariants are covered by tile-opt's tests, so verify once at the end.
  pm.enableVerifier(options.verifyEach);
  if (failed(pm.run(module)))
    return failure();
  if (options.emitPTX && ptx &&
      failed(collectPTX(module, options.toolkit, *ptx)))
    return failure();
  if (failed(serializeKernels(module, "bin", options.toolkit)))
    return failure();
  return verify(module);
}

static llvm::Expected<std::unique_ptr<llvm::TargetMachine>>
createHostTargetMachine() {
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  llvm::Triple triple("x86_64-unknown-linux-gnu");
  std::string error;
  const llvm::Target *target =
      llvm::TargetRegistry::lookupTarget(triple, error);
  if (!target)
    return makeError("no x86-64 target: " + error);
  llvm::TargetOptions targetOptions;
  // Constructors in .init_array (what clang does on Linux): glibc does not
  // run a .ctors section, so the cubin would never be loaded.
  targetOptions.UseInitArray = true;
  return std::unique_ptr<llvm::TargetMachine>(target->createTargetMachine(
      triple, "x86-64", "", targetOptions, llvm::Reloc::PIC_, std::nullopt,
      llvm::CodeGenOptLevel::Default));
}

static void optimize(llvm::Module &module, llvm::TargetMachine &tm) {
  llvm::LoopAnalysisManager lam;
  llvm::FunctionAnalysisManager fam;
  llvm::CGSCCAnalysisManager cgam;
  llvm::ModuleAnalysisManager mam;
  llvm::PassBuilder pb(&tm);
  pb.registerModuleAnalyses(mam);
  pb.registerCGSCCAnalyses(cgam);
  pb.registerFunctionAnalyses(fam);
  pb.registerLoopAnalyses(lam);
  pb.crossRegisterProxies(lam, fam, cgam, mam);
  llvm::ModulePassManager mpm =
      pb.buildPerModuleDefaultPipeline(llvm::OptimizationLevel::O2);
  mpm.run(module, mam);
}

static llvm::Error writeObject(llvm::Module &module, llvm::TargetMachine &tm,
                               StringRef path) {
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec, llvm::sys::fs::OF_None);
  if (ec)
    return makeError("cannot write " + path + ": " + ec.message());
  llvm::legacy::PassManager pm;
  if (tm.addPassesToEmitFile(pm, os, nullptr,
                             llvm::CodeGenFileType::ObjectFile))
    return makeError("the x86-64 target cannot emit an object file");
  pm.run(module);
  os.flush();
  if (os.has_error())
    return makeError("cannot write " + path);
  return llvm::Error::success();
}

static llvm::Error linkSharedLibrary(StringRef object, StringRef output,
                                     const CompilerOptions &options) {
  SmallString<256> runtime(options.runtimeDir);
  llvm::sys::path::append(runtime, "libtile_runtime.so");
  if (!llvm::sys::fs::exists(runtime))
    return makeError("cannot find " + runtime +
                     " (pass the folder of libtile_runtime.so)");
  auto driver = llvm::sys::findProgramByName(options.linker);
  if (!driver)
    return makeError("cannot find the linker driver " + options.linker);
  std::string rtFlag = "-L" + options.runtimeDir;
  std::string soname =
      ("-Wl,-soname," + llvm::sys::path::filename(output)).str();
  SmallVector<StringRef> args = {
      *driver, "-shared",        "-fuse-ld=lld",       "-o",  output, object,
      rtFlag,  "-ltile_runtime", "-Wl,-rpath,$ORIGIN", soname};
  std::string message;
  int rc = llvm::sys::ExecuteAndWait(*driver, args, std::nullopt, {}, 0, 0,
                                     &message);
  if (rc != 0)
    return makeError("linking " + output + " failed" +
                     (message.empty() ? "" : ": " + message));
  return llvm::Error::success();
}

static llvm::Error writeSharedLibrary(llvm::Module &module,
                                      llvm::TargetMachine &tm,
                                      const CompilerOptions &options,
                                      StringRef output) {
  SmallString<128> object;
  if (std::error_code ec =
          llvm::sys::fs::createTemporaryFile("tile-compile", "o", object))
    return makeError("cannot create a temporary file: " + ec.message());
  llvm::Error error = writeObject(module, tm, object);
  if (!error)
    error = linkSharedLibrary(object, output, options);
  if (!options.keepTemps)
    llvm::sys::fs::remove(object);
  return error;
}

llvm::Error mlir::tile::writeHostOutput(ModuleOp module,
                                        const CompilerOptions &options,
                                        HostOutputKind kind,
                                        StringRef outputPath) {
  llvm::LLVMContext llvmContext;
  std::unique_ptr<llvm::Module> llvmModule =
      translateModuleToLLVMIR(module, llvmContext, "tile-compile");
  if (!llvmModule)
    return makeError("translation to LLVM IR failed");
  auto tm = createHostTargetMachine();
  if (!tm)
    return tm.takeError();
  llvmModule->setDataLayout((*tm)->createDataLayout());
  llvmModule->setTargetTriple((*tm)->getTargetTriple());
  std::string verifierMessage;
  llvm::raw_string_ostream verifierOS(verifierMessage);
  if (llvm::verifyModule(*llvmModule, &verifierOS))
    return makeError("the host LLVM IR does not verify: " + verifierMessage);

  if (kind == HostOutputKind::LLVM) {
    std::error_code ec;
    llvm::raw_fd_ostream os(outputPath, ec, llvm::sys::fs::OF_Text);
    if (ec)
      return makeError("cannot write " + outputPath + ": " + ec.message());
    llvmModule->print(os, nullptr);
    return llvm::Error::success();
  }
  optimize(*llvmModule, **tm);
  if (kind == HostOutputKind::Object) {
    if (outputPath == "-")
      return makeError("an object file needs -o <file>");
    return writeObject(*llvmModule, **tm, outputPath);
  }
  return writeSharedLibrary(*llvmModule, **tm, options, outputPath);
}
