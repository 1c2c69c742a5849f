//===- tile-compile.cpp - Ahead-of-time compiler: .mlir -> shared library -===//
//
// Compiles a module of host functions that launch tile-dialect kernels into a
// shared library: every public host `func.func` gets a C interface
// (`_mlir_ciface_<name>(descriptor *...)` next to the expanded `<name>(...)`),
// the tile GPU pipeline lowers the kernels to an embedded cubin, and the host
// LLVM IR is compiled for x86-64 and linked against libtile_runtime.so. See
// docs/tile-compile.md.
//
//===----------------------------------------------------------------------===//

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/AsmState.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "tile/InitAllTile.h"
#include "tile/Transforms/Pipelines.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Target/TargetOptions.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/TargetParser/Triple.h"

using namespace mlir;
namespace cl = llvm::cl;

namespace {
enum class EmitKind { MLIR, LLVM, Obj, SO };

/// `--help` lists these only; LLVM's and MLIR's own options stay accepted.
cl::OptionCategory toolCategory("tile-compile options");

cl::opt<std::string> inputFilename(cl::Positional, cl::desc("<input .mlir>"),
                                   cl::init("-"), cl::cat(toolCategory));
cl::opt<std::string> outputFilename("o", cl::desc("Output file"),
                                    cl::value_desc("filename"), cl::init(""),
                                    cl::cat(toolCategory));
cl::opt<std::string> chip("chip", cl::desc("GPU chip (default sm_90a)"),
                          cl::init("sm_90a"), cl::cat(toolCategory));
cl::opt<std::string>
    toolkit("toolkit", cl::desc("CUDA toolkit path (ptxas for the cubin)"),
            cl::init("/usr/local/cuda"), cl::cat(toolCategory));
cl::opt<EmitKind> emitKind(
    "emit", cl::desc("What to produce"), cl::init(EmitKind::SO),
    cl::values(clEnumValN(EmitKind::MLIR, "mlir",
                          "lowered MLIR (LLVM dialect)"),
               clEnumValN(EmitKind::LLVM, "llvm", "host LLVM IR"),
               clEnumValN(EmitKind::Obj, "obj", "x86-64 object file"),
               clEnumValN(EmitKind::SO, "so", "shared library (default)")),
    cl::cat(toolCategory));
cl::opt<std::string>
    runtimeDir("runtime-dir",
               cl::desc("Folder holding libtile_runtime.so (default: ../lib or "
                        "../lib/Runtime next to this tool)"),
               cl::init(""), cl::cat(toolCategory));
cl::opt<std::string> linker("linker-driver",
                            cl::desc("Compiler driver used to link the .so"),
                            cl::init("/usr/lib/llvm-22/bin/clang"),
                            cl::cat(toolCategory));
cl::opt<bool> verifyEach(
    "verify-each",
    cl::desc("Verify the IR after every pass (slower; by default the module "
             "is verified once, after the pipeline)"),
    cl::init(false), cl::cat(toolCategory));
cl::opt<bool>
    verifyAsync("verify-async",
                cl::desc("Check the asynchronous protocol around the copies "
                         "(tile-verify-async; default true, =false to skip)"),
                cl::init(true), cl::cat(toolCategory));
cl::opt<bool> keepTemps("keep-temps", cl::desc("Keep the temporary object"),
                        cl::init(false), cl::cat(toolCategory));
} // namespace

static int fail(const llvm::Twine &message) {
  llvm::WithColor::error(llvm::errs(), "tile-compile") << message << "\n";
  return 1;
}

/// Gives every public host function with a body a C interface.
static void markCInterfaces(ModuleOp module) {
  for (auto func : module.getOps<func::FuncOp>())
    if (func.isPublic() && !func.isExternal())
      func->setAttr("llvm.emit_c_interface",
                    UnitAttr::get(module.getContext()));
}

static std::string defaultOutput(StringRef suffix) {
  if (inputFilename == "-")
    return suffix == ".so" ? "a.so" : "-";
  SmallString<128> path(llvm::sys::path::filename(inputFilename));
  llvm::sys::path::replace_extension(path, suffix);
  return std::string(path);
}

static std::unique_ptr<llvm::TargetMachine> createHostTargetMachine() {
  llvm::Triple triple("x86_64-unknown-linux-gnu");
  std::string error;
  const llvm::Target *target =
      llvm::TargetRegistry::lookupTarget(triple, error);
  if (!target) {
    fail("no x86-64 target: " + error);
    return nullptr;
  }
  llvm::TargetOptions options;
  // Constructors in .init_array (what clang does on Linux): glibc does not
  // run a .ctors section, so the cubin would never be loaded.
  options.UseInitArray = true;
  return std::unique_ptr<llvm::TargetMachine>(target->createTargetMachine(
      triple, "x86-64", "", options, llvm::Reloc::PIC_, std::nullopt,
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

static int writeObject(llvm::Module &module, llvm::TargetMachine &tm,
                       StringRef path) {
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec, llvm::sys::fs::OF_None);
  if (ec)
    return fail("cannot write " + path + ": " + ec.message());
  llvm::legacy::PassManager pm;
  if (tm.addPassesToEmitFile(pm, os, nullptr,
                             llvm::CodeGenFileType::ObjectFile))
    return fail("the x86-64 target cannot emit an object file");
  pm.run(module);
  os.flush();
  return os.has_error() ? fail("cannot write " + path) : 0;
}

static std::string findRuntimeDir(const char *argv0) {
  if (!runtimeDir.empty())
    return runtimeDir;
  std::string exe = llvm::sys::fs::getMainExecutable(
      argv0, reinterpret_cast<void *>(&findRuntimeDir));
  SmallString<256> lib(llvm::sys::path::parent_path(exe));
  llvm::sys::path::append(lib, "..", "lib");
  // An install tree has lib/libtile_runtime.so; a build tree lib/Runtime/.
  SmallString<256> build(lib);
  llvm::sys::path::append(build, "Runtime");
  SmallString<256> probe(build);
  llvm::sys::path::append(probe, "libtile_runtime.so");
  return std::string(llvm::sys::fs::exists(probe) ? build : lib);
}

static int linkSharedLibrary(StringRef object, StringRef output,
                             StringRef rtDir) {
  SmallString<256> runtime(rtDir);
  llvm::sys::path::append(runtime, "libtile_runtime.so");
  if (!llvm::sys::fs::exists(runtime))
    return fail("cannot find " + runtime +
                " (pass --runtime-dir=<folder of libtile_runtime.so>)");
  auto driver = llvm::sys::findProgramByName(linker);
  if (!driver)
    return fail("cannot find the linker driver " + linker);
  std::string rtFlag = ("-L" + rtDir).str();
  std::string soname =
      ("-Wl,-soname," + llvm::sys::path::filename(output)).str();
  SmallVector<StringRef> args = {
      *driver, "-shared",        "-fuse-ld=lld",       "-o",  output, object,
      rtFlag,  "-ltile_runtime", "-Wl,-rpath,$ORIGIN", soname};
  std::string message;
  int rc = llvm::sys::ExecuteAndWait(*driver, args, std::nullopt, {}, 0, 0,
                                     &message);
  if (rc != 0)
    return fail("linking " + output + " failed" +
                (message.empty() ? "" : ": " + message));
  return 0;
}

static void parseCommandLine(int argc, char **argv) {
  registerAsmPrinterCLOptions();
  registerMLIRContextCLOptions();
  registerPassManagerCLOptions();
  cl::HideUnrelatedOptions(toolCategory);
  cl::ParseCommandLineOptions(
      argc, argv,
      "tile-compile: tile-dialect .mlir to a shared library with C entry "
      "points and the embedded cubin\n");
}

/// Reads and parses the input as a gpu.container_module; null on failure
/// (reported).
static OwningOpRef<ModuleOp> loadInput(llvm::SourceMgr &sourceMgr,
                                       MLIRContext &context) {
  std::string error;
  std::unique_ptr<llvm::MemoryBuffer> input =
      openInputFile(inputFilename, &error);
  if (!input) {
    fail(error);
    return nullptr;
  }
  sourceMgr.AddNewSourceBuffer(std::move(input), llvm::SMLoc());
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, &context);
  if (!module)
    return nullptr;
  if (!(*module)->hasAttr(gpu::GPUDialect::getContainerModuleAttrName()))
    (*module)->setAttr(gpu::GPUDialect::getContainerModuleAttrName(),
                       UnitAttr::get(&context));
  return module;
}

/// Runs the tile GPU pipeline (kernels to an embedded cubin, host to the LLVM
/// dialect); failure is reported.
static LogicalResult lowerModule(ModuleOp module) {
  markCInterfaces(module);
  PassManager pm(module.getContext());
  if (failed(applyPassManagerCLOptions(pm))) {
    fail("invalid pass manager options");
    return failure();
  }
  tile::TileGPUPipelineOptions options;
  options.chip = chip;
  options.format = "bin";
  options.toolkit = toolkit;
  options.verifyAsync = verifyAsync;
  tile::buildTileGPUPipeline(pm, options);
  // Verifying between passes is a third of the pipeline's time; the passes'
  // own invariants are covered by tile-opt's tests, so verify once at the end.
  pm.enableVerifier(verifyEach);
  if (failed(pm.run(module)) || failed(verify(module)))
    return failure();
  return success();
}

static std::string outputPath() {
  return outputFilename.empty()
             ? defaultOutput(emitKind == EmitKind::MLIR   ? ".llvm.mlir"
                             : emitKind == EmitKind::LLVM ? ".ll"
                             : emitKind == EmitKind::Obj  ? ".o"
                                                          : ".so")
             : std::string(outputFilename);
}

static int writeMLIR(ModuleOp module, StringRef output) {
  std::string error;
  auto file = openOutputFile(output, &error);
  if (!file)
    return fail(error);
  module->print(file->os());
  file->os() << "\n";
  file->keep();
  return 0;
}

static int writeLLVM(llvm::Module &llvmModule, StringRef output) {
  std::string error;
  auto file = openOutputFile(output, &error);
  if (!file)
    return fail(error);
  llvmModule.print(file->os(), nullptr);
  file->keep();
  return 0;
}

/// The object in a temporary file, linked into the shared library `output`.
static int writeSharedLibrary(llvm::Module &llvmModule, llvm::TargetMachine &tm,
                              StringRef output, const char *argv0) {
  SmallString<128> object;
  if (std::error_code ec =
          llvm::sys::fs::createTemporaryFile("tile-compile", "o", object))
    return fail("cannot create a temporary file: " + ec.message());
  int rc = writeObject(llvmModule, tm, object);
  if (rc == 0)
    rc = linkSharedLibrary(object, output, findRuntimeDir(argv0));
  if (!keepTemps)
    llvm::sys::fs::remove(object);
  return rc;
}

/// Translates the lowered module to host LLVM IR and writes what --emit
/// asks for past MLIR: the IR, an object file or the shared library.
static int writeHostOutput(ModuleOp module, StringRef output,
                           const char *argv0) {
  llvm::LLVMContext llvmContext;
  std::unique_ptr<llvm::Module> llvmModule =
      translateModuleToLLVMIR(module, llvmContext, "tile-compile");
  if (!llvmModule)
    return fail("translation to LLVM IR failed");
  std::unique_ptr<llvm::TargetMachine> tm = createHostTargetMachine();
  if (!tm)
    return 1;
  llvmModule->setDataLayout(tm->createDataLayout());
  llvmModule->setTargetTriple(tm->getTargetTriple());
  if (llvm::verifyModule(*llvmModule, &llvm::errs()))
    return fail("the host LLVM IR does not verify");

  if (emitKind == EmitKind::LLVM)
    return writeLLVM(*llvmModule, output);

  optimize(*llvmModule, *tm);
  if (emitKind == EmitKind::Obj) {
    if (output == "-")
      return fail("an object file needs -o <file>");
    return writeObject(*llvmModule, *tm, output);
  }
  return writeSharedLibrary(*llvmModule, *tm, output, argv0);
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  parseCommandLine(argc, argv);

  DialectRegistry registry;
  registerAllDialects(registry);
  registerAllExtensions(registry);
  registerAllToLLVMIRTranslations(registry);
  tile::registerAllTileDialects(registry);
  MLIRContext context(registry);
  context.loadAllAvailableDialects();

  // The handler reports the parser's and the passes' diagnostics with their
  // source lines, so it lives until the pipeline has run.
  llvm::SourceMgr sourceMgr;
  SourceMgrDiagnosticHandler diagHandler(sourceMgr, &context);
  OwningOpRef<ModuleOp> module = loadInput(sourceMgr, context);
  if (!module || failed(lowerModule(*module)))
    return 1;

  std::string output = outputPath();
  if (emitKind == EmitKind::MLIR)
    return writeMLIR(*module, output);
  return writeHostOutput(*module, output, argv[0]);
}
