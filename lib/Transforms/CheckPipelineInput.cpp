//===- CheckPipelineInput.cpp - --tile-check-pipeline-input ---------------===//
//
// The GPU pipeline strings upstream conversions together; input they cannot
// handle surfaces there as location-less internal errors, aborts in
// instruction selection, or silently unlowered ops. This pass runs first and
// turns each such case into a diagnostic at the op that causes it, naming the
// rule.
//
//===----------------------------------------------------------------------===//

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Matchers.h"
#include "tile/Dialect/Tile/IR/RuleDiagnostic.h"
#include "tile/Dialect/Tile/IR/TileDialect.h"
#include "tile/Dialect/Tile/IR/TileOps.h"
#include "tile/Dialect/Tile/IR/TileTypeUtils.h"
#include "tile/Pipelines/LoweringDependencies.h"
#include "tile/Transforms/Passes.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"

namespace mlir::tile {
#define GEN_PASS_DEF_TILECHECKPIPELINEINPUT
#include "tile/Transforms/Passes.h.inc"
} // namespace mlir::tile

using namespace mlir;
using namespace mlir::tile;

static constexpr StringLiteral kSupportedChips[] = {"sm_90", "sm_90a", "sm_100",
                                                    "sm_100a"};
static constexpr StringLiteral kFormats[] = {"isa", "bin", "fatbin", "none"};
/// Name prefixes of the runtime entry points the host lowering calls.
static constexpr StringLiteral kReservedPrefixes[] = {
    "mgpu",       "tileTensorMap", "tileRuntime",
    "tileModule", "tileLaunch",    "tileStream"};

/// A runtime entry point that host code declares and calls itself (the
/// others only the host lowering calls), with the one declaration its
/// `_mlir_ciface_` entry point serves: its type, through the C interface,
/// no body.
struct DeclarableEntry {
  StringLiteral name;
  StringLiteral what;
  FunctionType (*type)(Builder &);
};

static constexpr DeclarableEntry kDeclarableEntries[] = {
    // The longest-first schedule table a persistent causal attention kernel
    // reads (TileRuntime.h).
    {"tileRuntimeLongestFirstTable",
     "the runtime's longest-first schedule table",
     [](Builder &b) {
       Type i64 = b.getI64Type();
       return b.getFunctionType(
           {i64, i64, i64, i64, i64, i64},
           {MemRefType::get({ShapedType::kDynamic}, b.getI32Type())});
     }},
};

static const DeclarableEntry *findDeclarableEntry(StringRef name) {
  for (const DeclarableEntry &entry : kDeclarableEntries)
    if (entry.name == name)
      return &entry;
  return nullptr;
}

/// A declaration of `entry`: its one form, or a diagnostic that names it.
static LogicalResult checkDeclaration(Operation *op,
                                      const DeclarableEntry &entry) {
  auto func = dyn_cast<func::FuncOp>(op);
  Builder b(op->getContext());
  FunctionType expected = entry.type(b);
  // (A declaration is private: MLIR's verifier rejects a public one.)
  if (func && func.isExternal() && func.getFunctionType() == expected &&
      func->hasAttr(LLVM::LLVMDialect::getEmitCWrapperAttrName()))
    return success();
  std::string form;
  llvm::raw_string_ostream(form) << expected; // unquoted, as written
  return emitRuleError(op, RuleId::ReservedSymbol)
         << "'@" << entry.name << "' is " << entry.what
         << "; host code declares it as `func.func private @" << entry.name
         << form << " attributes {llvm.emit_c_interface}` or not at all";
}

bool mlir::tile::isReservedRuntimeSymbol(StringRef name) {
  return llvm::any_of(kReservedPrefixes, [&](StringRef prefix) {
    // `mgpu` alone reserves the upstream runtime's whole namespace; the
    // tile prefixes are followed by the entry point's name.
    return name.starts_with(prefix) && name.size() > prefix.size() &&
           llvm::isUpper(name[prefix.size()]);
  });
}

static std::string debugString(Attribute attr) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << attr;
  return s;
}

/// Why a value of `type` cannot live in host code or travel from the host
/// into a kernel, or "" when it can.
static std::string whyNotHostValue(Type type) {
  // Scalars, vectors and complex numbers are passed as LLVM values; a float
  // type LLVM has no equivalent of (tf32, the 8-bit formats) cannot be.
  if (!isa<MemRefType>(type)) {
    Type unsupported;
    type.walk([&](FloatType element) {
      if (!unsupported && !LLVM::isCompatibleFloatingPointType(element))
        unsupported = element;
    });
    if (unsupported)
      return "LLVM has no type for " + debugString(TypeAttr::get(unsupported)) +
             " values (pass them in a memref)";
  }
  if (isa<nvgpu::MBarrierGroupType>(type))
    return "an mbarrier group lives in the kernel's shared memory; create it "
           "inside the kernel with nvgpu.mbarrier.create";
  auto memref = dyn_cast<MemRefType>(type);
  if (!memref)
    return "";
  MemorySpaceKind space = getMemorySpaceKind(memref);
  if (space == MemorySpaceKind::Shared)
    return "a shared-memory buffer cannot be passed from the host; carve it "
           "out of the kernel's arena with tile.arena_view";
  if (memref.getMemorySpace())
    return "a buffer passed from the host must use the default memory space "
           "(the host lowering has no conversion for " +
           debugString(memref.getMemorySpace()) +
           "); #gpu.address_space<global> is for views inside kernels";
  if (!memref.isStrided())
    return "a buffer passed from the host needs a strided layout (identity "
           "or strided<...>); its #tile.layout has several shards in one "
           "dimension, which memref lowering cannot pass";
  return "";
}

namespace {
struct CheckPipelineInputPass
    : public mlir::tile::impl::TileCheckPipelineInputBase<
          CheckPipelineInputPass> {
  using TileCheckPipelineInputBase::TileCheckPipelineInputBase;

  // The pipeline starts here: whatever its later passes look up at run time
  // is loaded into the context before any of them runs.
  void getDependentDialects(DialectRegistry &registry) const override {
    Base::getDependentDialects(registry);
    registerTileLoweringDependencies(registry);
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    bool ok = succeeded(checkTarget(module));
    // Cached tables: a lookup by name per launch would scan the module.
    SymbolTableCollection symbols;
    module.walk([&](Operation *op) {
      if (failed(checkNestedLaunch(op, module)) || failed(checkPlacement(op)) ||
          failed(checkSymbolName(op)) ||
          failed(checkKernelArguments(op, symbols)) ||
          failed(checkHostSignature(op)) || failed(checkLaunchSizes(op)) ||
          failed(checkLayoutAccess(op)) || failed(checkSm100Forms(op)) ||
          failed(checkSharedAlloca(op)) || failed(checkLayoutAttribution(op)) ||
          failed(checkKernelOp(op)))
        ok = false;
    });
    if (!ok)
      signalPassFailure();
    // A check only: no verifier run after it.
    markAllAnalysesPreserved();
  }

  LogicalResult checkTarget(ModuleOp module) {
    if (!llvm::is_contained(kSupportedChips, StringRef(chip)))
      return withRule(module.emitError(), RuleId::Chip)
             << "chip: unsupported target chip '" << chip
             << "'; the tile lowering supports "
             << llvm::join(ArrayRef<StringLiteral>(kSupportedChips), ", ")
             << " (TMA and bulk copies need sm_90 or newer)";
    if (!llvm::is_contained(kFormats, StringRef(format)))
      return withRule(module.emitError(), RuleId::Format)
             << "format: unknown binary format '" << format
             << "'; expected isa, bin, fatbin or none";
    if ((format == "bin" || format == "fatbin") &&
        !llvm::sys::fs::is_directory(toolkit))
      return withRule(module.emitError(), RuleId::Toolkit)
             << "toolkit: CUDA toolkit directory '" << toolkit
             << "' does not exist; format=" << format
             << " needs ptxas from it (pass toolkit=<path> or format=isa)";
    return success();
  }

  /// The cta_group and four-row forms exist on sm_100a only (LLVM aborts in
  /// instruction selection on other chips).
  LogicalResult checkSm100Forms(Operation *op) {
    auto copy = dyn_cast<CopyAsyncOp>(op);
    if (!copy)
      return success();
    return verifySm100FormChip(copy, chip, "the pipeline's chip");
  }

  /// Kernel outlining takes the gpu.launch ops of the outermost module only;
  /// one in a nested module would reach the host lowering with its body.
  static LogicalResult checkNestedLaunch(Operation *op, ModuleOp top) {
    if (!isa<gpu::LaunchOp, gpu::GPUModuleOp>(op) ||
        op->getParentOfType<ModuleOp>() == top)
      return success();
    if (isa<gpu::GPUModuleOp>(op))
      return emitRuleError(op, RuleId::Placement)
             << "a gpu.module in a nested module is not lowered by the "
                "pipeline (it lowers the outermost module's gpu.modules); "
                "move it and its host functions into the outermost module";
    return emitRuleError(op, RuleId::Placement)
           << "a gpu.launch in a nested module is not outlined by "
              "the pipeline; move its host function into the outermost "
              "module";
  }

  static LogicalResult checkPlacement(Operation *op) {
    // The host's request for a runtime buffer (its own verifier keeps it out
    // of device code).
    if (isa<StreamWorkspaceOp>(op))
      return success();
    if (isa_and_nonnull<TileDialect>(op->getDialect())) {
      if (op->getParentOfType<gpu::LaunchOp>() ||
          op->getParentOfType<gpu::GPUFuncOp>())
        return success();
      return emitRuleError(op, RuleId::Placement)
             << "tile ops run on the GPU; this one is in host code "
                "(move it into a gpu.launch body or a gpu.func)";
    }
    // Every nvgpu op but the descriptor encoding is a device instruction.
    // The host lowering converts them too, into shared-memory globals and
    // NVVM intrinsics in host code; mbarrier.create outside a function
    // crashes the upstream conversion.
    if (!isa_and_nonnull<nvgpu::NVGPUDialect>(op->getDialect()) ||
        isa<nvgpu::TmaCreateDescriptorOp>(op))
      return success();
    if (op->getParentOfType<gpu::LaunchOp>() ||
        (op->getParentOfType<FunctionOpInterface>() &&
         op->getParentOfType<gpu::GPUModuleOp>()))
      return success();
    return emitRuleError(op, RuleId::Placement)
           << op->getName()
           << " is a device instruction; this one is in host code (move it "
              "into a gpu.launch body or a function of a gpu.module)";
  }

  /// No pass of the pipeline lowers linalg ops: one left in a kernel (a
  /// copy the upstream-copy conversion did not take, or was not asked to)
  /// would reach the LLVM translation as an unrealized cast.
  static LogicalResult checkKernelOp(Operation *op) {
    if (!isa_and_nonnull<linalg::LinalgDialect>(op->getDialect()) ||
        !(op->getParentOfType<gpu::LaunchOp>() ||
          op->getParentOfType<gpu::GPUModuleOp>()))
      return success();
    // Only the outermost linalg op: its body's ops go with it.
    if (isa_and_nonnull<linalg::LinalgDialect>(op->getParentOp()->getDialect()))
      return success();
    InFlightDiagnostic diag = emitRuleError(op, RuleId::KernelOp)
                              << op->getName()
                              << " in a kernel is not lowered by the pipeline, "
                                 "which lowers no linalg op; ";
    if (isa<linalg::CopyOp>(op))
      diag << "a copy between global and shared memory that every thread "
              "runs becomes a tile.copy with convert-upstream-copies=true "
              "(its remark says why it did not); otherwise ";
    return diag << "lower it to loops before the pipeline "
                   "(convert-linalg-to-loops)";
  }

  /// memref.alloca lowers to a stack slot; in the workgroup address space
  /// that is an `alloca` in address space 3, which NVPTX emits and the GPU
  /// faults on (out-of-bounds shared writes). Shared buffers come from
  /// workgroup attributions, tile.arena_view or memref.global.
  static LogicalResult checkSharedAlloca(Operation *op) {
    auto alloca = dyn_cast<memref::AllocaOp>(op);
    if (!alloca ||
        getMemorySpaceKind(alloca.getType()) != MemorySpaceKind::Shared)
      return success();
    return emitRuleError(op, RuleId::SharedAlloca)
           << "memref.alloca of " << alloca.getType()
           << " would be a stack slot in shared memory, which the GPU cannot "
              "address; take shared memory from a workgroup attribution "
              "(gpu.launch workgroup(...), gpu.func workgroup(...)), "
              "tile.arena_view or a memref.global";
  }

  /// A workgroup or private buffer of a gpu.launch or gpu.func is lowered by
  /// upstream's GPU conversion, which builds a memref descriptor for it and
  /// has none for a `#tile.layout` type (it crashed on one): such a buffer
  /// comes from the arena.
  static LogicalResult checkLayoutAttribution(Operation *op) {
    ArrayRef<BlockArgument> workgroup, priv;
    if (auto launch = dyn_cast<gpu::LaunchOp>(op)) {
      workgroup = launch.getWorkgroupAttributions();
      priv = launch.getPrivateAttributions();
    } else if (auto func = dyn_cast<gpu::GPUFuncOp>(op)) {
      workgroup = func.getWorkgroupAttributions();
      priv = func.getPrivateAttributions();
    } else {
      return success();
    }
    for (ArrayRef<BlockArgument> buffers : {workgroup, priv})
      for (BlockArgument buffer : buffers)
        if (auto type = dyn_cast<MemRefType>(buffer.getType());
            type && isa<LayoutAttr>(type.getLayout()))
          return emitRuleError(op, RuleId::SmemLayout)
                 << "the attribution " << buffer.getType()
                 << " has a #tile.layout, which the GPU lowering cannot give "
                    "a memref descriptor; take a buffer with a layout from "
                    "the arena (tile.arena_view) and keep attributions "
                    "strided";
    return success();
  }

  /// A buffer typed with a `#tile.layout` lowers to a bare shared pointer
  /// that only the ops that apply the layout and its swizzle address: tile
  /// ops, memref.load/store and vector.load/store of 1-D vectors. Other
  /// upstream accesses would index it as a strided memref.
  static LogicalResult checkLayoutAccess(Operation *op) {
    bool element = isa<memref::LoadOp, memref::StoreOp>(op);
    if (auto load = dyn_cast<vector::LoadOp>(op))
      element = load.getVectorType().getRank() == 1;
    if (auto store = dyn_cast<vector::StoreOp>(op))
      element = store.getVectorType().getRank() == 1;
    if (element ||
        !isa<vector::LoadOp, vector::StoreOp, vector::TransferReadOp,
             vector::TransferWriteOp, memref::CopyOp, memref::SubViewOp>(op))
      return success();
    for (Value operand : op->getOperands()) {
      auto type = dyn_cast<MemRefType>(operand.getType());
      if (!type || !isa<LayoutAttr>(type.getLayout()))
        continue;
      return emitRuleError(op, RuleId::SmemLayout)
             << "cannot access the buffer of type " << type << " with '"
             << op->getName()
             << "': a #tile.layout buffer is addressed by tile ops, "
                "memref.load/store and vector.load/store of 1-D vectors only "
                "(they apply the layout and its swizzle)";
    }
    return success();
  }

  static LogicalResult checkSymbolName(Operation *op) {
    if (!isa<func::FuncOp, LLVM::LLVMFuncOp, LLVM::GlobalOp>(op))
      return success();
    auto name = op->getAttrOfType<StringAttr>(SymbolTable::getSymbolAttrName());
    if (!name || !isReservedRuntimeSymbol(name.getValue()))
      return success();
    if (const DeclarableEntry *entry = findDeclarableEntry(name.getValue()))
      return checkDeclaration(op, *entry);
    return emitRuleError(op, RuleId::ReservedSymbol)
           << "'@" << name.getValue()
           << "' is the name of a runtime entry point that the host lowering "
              "calls; rename the symbol";
  }

  /// Host functions are lowered by upstream conversions that take only
  /// strided memrefs in the default memory space.
  static LogicalResult checkHostSignature(Operation *op) {
    auto func = dyn_cast<func::FuncOp>(op);
    if (!func || func->getParentOfType<gpu::GPUModuleOp>())
      return success();
    FunctionType type = func.getFunctionType();
    for (auto [kind, types] :
         {std::pair<StringRef, ArrayRef<Type>>{"argument", type.getInputs()},
          {"result", type.getResults()}}) {
      for (auto [i, t] : llvm::enumerate(types)) {
        std::string why = whyNotHostValue(t);
        if (!why.empty())
          return emitRuleError(func.getOperation(), RuleId::HostType)
                 << kind << " #" << i << " of host function @" << func.getName()
                 << " has type " << t
                 << ", which the host lowering cannot convert: " << why;
      }
    }
    return success();
  }

  /// The constant sizes of a launch's grid or block (x, y, z); a size that
  /// is not a constant is unknown.
  using Sizes = std::array<std::optional<int64_t>, 3>;
  static Sizes getConstantSizes(const gpu::KernelDim3 &dims) {
    Sizes sizes;
    Value values[] = {dims.x, dims.y, dims.z};
    for (auto [size, value] : llvm::zip_equal(sizes, values)) {
      APInt constant;
      if (value && matchPattern(value, m_ConstantInt(&constant)))
        size = constant.getSExtValue();
    }
    return sizes;
  }

  /// The sizes a kernel function states (known_grid_size, known_block_size).
  static Sizes getStatedSizes(std::optional<ArrayRef<int32_t>> stated) {
    Sizes sizes;
    if (stated && stated->size() == 3)
      for (auto [size, value] : llvm::zip_equal(sizes, *stated))
        size = value;
    return sizes;
  }

  /// Grid and block sizes within CUDA's limits, where a launch gives them as
  /// constants or a kernel function states them (a zero size also gives
  /// upstream lowerings an empty index range they cannot express, and the
  /// passes that split a block into warpgroups size their barriers from the
  /// stated block).
  static LogicalResult checkLaunchSizes(Operation *op) {
    Sizes grid, block;
    StringRef gridName = "grid", blockName = "block";
    if (auto launch = dyn_cast<gpu::LaunchOp>(op)) {
      grid = getConstantSizes(launch.getGridSizeOperandValues());
      block = getConstantSizes(launch.getBlockSizeOperandValues());
    } else if (auto launch = dyn_cast<gpu::LaunchFuncOp>(op)) {
      grid = getConstantSizes(launch.getGridSizeOperandValues());
      block = getConstantSizes(launch.getBlockSizeOperandValues());
    } else if (auto func = dyn_cast<gpu::GPUFuncOp>(op)) {
      grid = getStatedSizes(func.getKnownGridSize());
      block = getStatedSizes(func.getKnownBlockSize());
      gridName = "known_grid_size";
      blockName = "known_block_size";
    } else {
      return success();
    }
    struct Limit {
      StringRef what;
      StringRef dim;
      std::optional<int64_t> size;
      int64_t max;
      bool threads; // a block extent (counts towards threads per block)
    };
    const int64_t kMaxGridX = (int64_t(1) << 31) - 1;
    Limit limits[] = {{gridName, "x", grid[0], kMaxGridX, false},
                      {gridName, "y", grid[1], 65535, false},
                      {gridName, "z", grid[2], 65535, false},
                      {blockName, "x", block[0], 1024, true},
                      {blockName, "y", block[1], 1024, true},
                      {blockName, "z", block[2], 64, true}};
    int64_t threads = 1;
    for (const Limit &limit : limits) {
      if (!limit.size)
        continue;
      int64_t size = *limit.size;
      if (size < 1 || size > limit.max)
        return emitRuleError(op, RuleId::LaunchSize)
               << limit.what << " " << limit.dim << " size " << size
               << " is outside 1.." << limit.max;
      if (limit.threads)
        threads *= size;
    }
    if (threads > 1024)
      return emitRuleError(op, RuleId::LaunchSize)
             << "a block of " << threads << " threads exceeds CUDA's 1024";
    return success();
  }

  /// A launch into a gpu.module names one of its kernels and passes one
  /// operand per kernel argument (launches of gpu.binary ops are opaque).
  static LogicalResult checkLaunchTarget(gpu::LaunchFuncOp launch,
                                         SymbolTableCollection &symbols) {
    // Upstream's verifier skips launches nested below a function's top
    // level (in an scf.for, say); once the host lowering flattens them a
    // dangling kernel name fails verification far from its cause.
    Operation *container = symbols.lookupNearestSymbolFrom(
        launch, launch.getKernel().getRootReference());
    if (!container || !isa<gpu::GPUModuleOp, gpu::BinaryOp>(container))
      return emitRuleError(launch.getOperation(), RuleId::KernelArg)
             << launch.getKernel() << " names no kernel: @"
             << launch.getKernel().getRootReference().getValue()
             << (container ? " is not a gpu.module or gpu.binary"
                           : " is not defined");
    auto module = dyn_cast<gpu::GPUModuleOp>(container);
    if (!module)
      return success();
    auto kernel = symbols.lookupSymbolIn<gpu::GPUFuncOp>(
        module, launch.getKernel().getLeafReference());
    if (!kernel || !kernel.isKernel())
      return emitRuleError(launch.getOperation(), RuleId::KernelArg)
             << launch.getKernel()
             << " is not a gpu.func kernel of gpu.module @" << module.getName();
    if (kernel.getNumArguments() != launch.getNumKernelOperands())
      return emitRuleError(launch.getOperation(), RuleId::KernelArg)
             << "the launch passes " << launch.getNumKernelOperands()
             << " operand(s) but " << launch.getKernel() << " takes "
             << kernel.getNumArguments();
    return success();
  }

  static LogicalResult checkKernelArguments(Operation *op,
                                            SymbolTableCollection &symbols) {
    if (auto launch = dyn_cast<gpu::LaunchFuncOp>(op)) {
      if (failed(checkLaunchTarget(launch, symbols)))
        return failure();
      for (auto [i, value] : llvm::enumerate(launch.getKernelOperands())) {
        std::string why = whyNotHostValue(value.getType());
        if (!why.empty())
          return emitRuleError(launch.getOperation(), RuleId::KernelArg)
                 << "kernel operand #" << i << " of type " << value.getType()
                 << ": " << why;
      }
      return success();
    }
    auto launch = op->getParentOfType<gpu::LaunchOp>();
    if (!launch)
      return success();
    // Values a gpu.launch body captures become kernel arguments.
    for (Value operand : op->getOperands()) {
      if (launch.getBody().isAncestor(operand.getParentRegion()))
        continue;
      std::string why = whyNotHostValue(operand.getType());
      if (!why.empty())
        return emitRuleError(op, RuleId::KernelArg)
               << "this op uses a value of type " << operand.getType()
               << " from outside the gpu.launch, which makes it a kernel "
                  "argument: "
               << why;
    }
    return success();
  }
};
} // namespace
