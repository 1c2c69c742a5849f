//===- TileOptFuzzer.cpp - tile-opt's parse, verify, report and lowering --===//
//
// Each input is MLIR text. It is parsed with tile-opt's dialects and verified;
// a module that verifies goes through the copy-plan report and then the
// lowering pipeline (`--tile-gpu-pipeline`, format=none by default: no
// serialisation, no ptxas). Diagnostics are the expected answer to bad input
// and are swallowed; findings are:
//   - crashes, aborts (LLVM fatal errors included) and sanitizer reports;
//   - a verified module whose printed form does not parse back;
//   - a pass that succeeds but leaves IR that does not verify (the pass
//     manager's own verifier is replaced by one that names the pass);
// and with TILE_FUZZ_STRICT=1 also
//   - an error without a location (`<unknown>:0`);
//   - a pipeline that succeeds after reporting an error, or fails without one.
//
// An optional first line `// pipeline: KEY=VALUE ...` sets pipeline options
// (chip, features, format=none|isa, opt-level, device-only,
// prefetch-tensor-maps, verify-async, insert-proxy-fences); format=isa runs
// the NVPTX back end too.
//
// The custom mutator is grammar-aware: besides libFuzzer's own mutations (with
// fuzz/tile-opt.dict) it replaces integer literals with boundary values
// (offsets, sizes, strides, the dynamic-offset marker, 2^31, 2^63 - 8, ...)
// and swaps tokens within their class (element types, memory spaces,
// swizzles, attribute values, op names, chips), or drops or duplicates a line.
//
//===----------------------------------------------------------------------===//

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassInstrumentation.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "tile/Dialect/Tile/IR/TileOps.h"
#include "tile/Dispatch/CopyVariant.h"
#include "tile/InitAllTile.h"
#include "tile/Transforms/PlanReport.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

using namespace mlir;

extern "C" size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t maxSize);

namespace {

constexpr size_t kMaxInput = 16 * 1024;

/// TILE_FUZZ_VERBOSE=1 prints every diagnostic (replaying one input).
bool verbose() {
  static const bool value = [] {
    const char *v = getenv("TILE_FUZZ_VERBOSE");
    return v && *v && strcmp(v, "0") != 0;
  }();
  return value;
}

bool strict() {
  static const bool value = [] {
    const char *v = getenv("TILE_FUZZ_STRICT");
    return v && *v && strcmp(v, "0") != 0;
  }();
  return value;
}

[[noreturn]] void finding(const std::string &what, StringRef input) {
  llvm::errs() << "==== tile-fuzz-tile-opt finding: " << what
               << "\n==== input:\n"
               << input << "\n";
  llvm::errs().flush();
  abort();
}

MLIRContext &context() {
  static MLIRContext *ctx = [] {
    mlir::tile::registerAllTilePasses();
    DialectRegistry registry;
    registerAllDialects(registry);
    registerAllExtensions(registry);
    registerAllGPUToLLVMIRTranslations(registry);
    mlir::tile::registerAllTileDialects(registry);
    auto *c = new MLIRContext(registry, MLIRContext::Threading::DISABLED);
    c->printOpOnDiagnostic(false);
    c->printStackTraceOnDiagnostic(false);
    return c;
  }();
  return *ctx;
}

/// Verifies the IR after every successful pass and names the pass that broke
/// it.
class VerifyAfterPass : public PassInstrumentation {
public:
  VerifyAfterPass(StringRef input, bool &active, unsigned &passes)
      : input(input), active(active), passes(passes) {}
  void runBeforePass(Pass *, Operation *) override { ++passes; }
  void runAfterPass(Pass *pass, Operation *op) override {
    if (!active)
      return;
    // Only the first failure matters; a verifier error is a diagnostic that
    // the handler would count, so it is checked with a private handler.
    std::string why;
    ScopedDiagnosticHandler quiet(op->getContext(), [&](Diagnostic &diag) {
      if (why.empty()) {
        llvm::raw_string_ostream os(why);
        os << diag.getLocation() << ": " << diag.str();
      }
      return success();
    });
    if (failed(verify(op)))
      finding(("pass '" + pass->getArgument() + "' (" + pass->getName() +
               ") succeeded but left IR that does not verify: " + why)
                  .str(),
              input);
  }

private:
  StringRef input;
  bool &active;
  unsigned &passes;
};

/// Pipeline options from a leading `// pipeline: ...` line (only the keys
/// that need no tools outside the process).
std::string pipelineOptions(StringRef text) {
  // The protocol check runs on its own (below); the lowering runs without it
  // unless the line asks for it, so inputs that do not wait for their copies
  // still reach the conversions.
  std::string options = "format=none";
  if (!text.consume_front("// pipeline:"))
    return options + " verify-async=false";
  bool verifyAsync = false;
  StringRef line = text.take_until([](char c) { return c == '\n'; });
  SmallVector<StringRef> words;
  line.split(words, ' ', -1, /*KeepEmpty=*/false);
  for (StringRef word : words) {
    auto [key, value] = word.split('=');
    if (value.empty() || value.contains_insensitive("{") || value.contains('}'))
      continue;
    if (key == "format" && value != "none" && value != "isa")
      continue;
    if (key == "chip" || key == "features" || key == "format" ||
        key == "opt-level" || key == "device-only" ||
        key == "prefetch-tensor-maps" || key == "verify-async" ||
        key == "insert-proxy-fences") {
      options += (" " + key + "=" + value).str();
      verifyAsync |= key == "verify-async";
    }
  }
  if (!verifyAsync)
    options += " verify-async=false";
  return options;
}

struct DiagnosticCounts {
  unsigned errors = 0;
  unsigned unknownLocErrors = 0;
  std::string firstUnknown;
};

bool runPipeline(ModuleOp module, StringRef pipeline, StringRef input,
                 DiagnosticCounts &counts) {
  PassManager pm(module->getContext(), ModuleOp::getOperationName());
  pm.enableVerifier(false);
  bool active = true;
  unsigned passes = 0;
  pm.addInstrumentation(
      std::make_unique<VerifyAfterPass>(input, active, passes));
  std::string error;
  llvm::raw_string_ostream errorStream(error);
  if (failed(parsePassPipeline(pipeline, pm, errorStream))) {
    // Only options from the input's `// pipeline:` line can be rejected.
    if (!input.starts_with("// pipeline:"))
      finding(("cannot build '" + pipeline + "': " + error).str(), input);
    return true;
  }
  unsigned before = counts.errors;
  LogicalResult result = pm.run(module);
  if (verbose())
    llvm::errs() << pipeline << ": "
                 << (succeeded(result) ? "succeeded" : "failed") << " ("
                 << passes << " passes)\n";
  bool reported = counts.errors > before;
  // The pipeline text is anchored on the module the pass manager runs on; a
  // mistake there would quietly run nothing.
  if (passes == 0)
    finding(("'" + pipeline + "' ran no pass").str(), input);
  if (strict()) {
    if (succeeded(result) && reported)
      finding(("'" + pipeline + "' succeeded after reporting an error").str(),
              input);
    if (failed(result) && !reported)
      finding(("'" + pipeline + "' failed without an error").str(), input);
  }
  return succeeded(result);
}

/// Whether `input` holds a dense array of `index` elements (`array<index:
/// ...>`). MLIR 22's parser accepts the element type and then asks it for its
/// bit width, which an index type does not have: a crash in libMLIR that
/// `mlir-opt` shares and no tile code is on the path of.
bool hasIndexDenseArray(StringRef input) {
  for (size_t at = input.find("array<"); at != StringRef::npos;
       at = input.find("array<", at + 1))
    if (input.drop_front(at + 6).ltrim().starts_with("index"))
      return true;
  return false;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size > kMaxInput)
    return 0;
  // MLIR's lexer stops at a NUL it expects after the buffer (the guarantee a
  // file's MemoryBuffer gives); libFuzzer's data has none, and reading past
  // it lexes whatever the heap holds next.
  std::string text(reinterpret_cast<const char *>(data), size);
  StringRef input(text);
  if (hasIndexDenseArray(input))
    return 0;
  MLIRContext &ctx = context();
  DiagnosticCounts counts;
  ScopedDiagnosticHandler handler(&ctx, [&](Diagnostic &diag) {
    if (verbose())
      llvm::errs() << diag.getLocation() << ": " << diag.str() << "\n";
    if (diag.getSeverity() != DiagnosticSeverity::Error)
      return success();
    ++counts.errors;
    if (isa<UnknownLoc>(diag.getLocation())) {
      ++counts.unknownLocErrors;
      if (counts.firstUnknown.empty())
        counts.firstUnknown = diag.str();
    }
    return success();
  });

  ParserConfig config(&ctx, /*verifyAfterParse=*/true);
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(input, config);
  if (!module) {
    if (verbose())
      llvm::errs() << "does not parse or verify\n";
    return 0;
  }

  // Printed IR must parse back (a misprinted operand list or attribute reads
  // past its storage without touching memory ASan watches).
  {
    std::string printed;
    llvm::raw_string_ostream os(printed);
    (*module)->print(os);
    os.flush();
    std::string why;
    ScopedDiagnosticHandler capture(&ctx, [&](Diagnostic &diag) {
      if (why.empty() && diag.getSeverity() == DiagnosticSeverity::Error) {
        llvm::raw_string_ostream w(why);
        w << diag.getLocation() << ": " << diag.str();
      }
      return success();
    });
    if (!parseSourceString<ModuleOp>(printed, config))
      finding("the printed module does not parse back: " + why +
                  "\n==== printed:\n" + printed,
              input);
  }

  // The report on a copy (it must not change the IR the lowering sees),
  // then the picture of every copy it decided (--tile-draw-copy-plans without
  // the files).
  {
    OwningOpRef<ModuleOp> copy(cast<ModuleOp>((*module)->clone()));
    if (runPipeline(*copy, "tile-report-copy-plans{output=/dev/null}", input,
                    counts))
      copy->walk([&](mlir::tile::CopyAsyncOp op) {
        FailureOr<mlir::tile::DispatchResult> decision =
            mlir::tile::recallCopyDecision(op);
        if (succeeded(decision) &&
            mlir::tile::drawCopyDecision(op, *decision).find("</svg>") ==
                std::string::npos)
          finding("a copy's picture is not a complete SVG", input);
      });
  }
  // The protocol check (and the fences it inserts) on a copy.
  {
    OwningOpRef<ModuleOp> copy(cast<ModuleOp>((*module)->clone()));
    runPipeline(*copy, "tile-verify-async{insert-fences=true}", input, counts);
  }
  std::string pipeline = "tile-gpu-pipeline{" + pipelineOptions(input) + "}";
  runPipeline(*module, pipeline, input, counts);

  if (strict() && counts.unknownLocErrors)
    finding("an error without a location: " + counts.firstUnknown, input);
  return 0;
}

//===----------------------------------------------------------------------===//
// Grammar-aware mutator
//===----------------------------------------------------------------------===//

namespace {

// Boundary values for offsets, sizes, strides, stage and barrier indices.
const int64_t kInteresting[] = {0,
                                1,
                                -1,
                                2,
                                3,
                                7,
                                8,
                                15,
                                16,
                                17,
                                31,
                                32,
                                64,
                                127,
                                128,
                                255,
                                256,
                                257,
                                1024,
                                4096,
                                65536,
                                232448,
                                232449,
                                400000,
                                INT32_MAX,
                                int64_t(1) << 31,
                                UINT32_MAX,
                                int64_t(1) << 32,
                                int64_t(1) << 33,
                                (int64_t(1) << 55) + 1,
                                int64_t(1) << 62,
                                INT64_MAX - 7,
                                INT64_MAX,
                                INT64_MIN,
                                INT32_MIN};

// Tokens replaced by another token of the same class.
const std::vector<std::vector<const char *>> kClasses = {
    {"f16",  "bf16",         "f32",          "f64",   "i1",       "i4",
     "i8",   "i16",          "i24",          "i32",   "i48",      "i64",
     "ui8",  "si16",         "ui32",         "index", "f8E4M3FN", "f8E5M2",
     "tf32", "complex<f32>", "vector<4xf32>"},
    {"workgroup", "global", "private"},
    {"#gpu.address_space<workgroup>", "#gpu.address_space<global>", "3", "1",
     "5", "#gpu.address_space<private>"},
    {"swizzle = 32B", "swizzle = 64B", "swizzle = 128B", "swizzle = 16B"},
    {"oob = \"zero\"", "oob = \"nan\"", "oob = \"one\""},
    {"reduce = \"add\"", "reduce = \"min\"", "reduce = \"max\"",
     "reduce = \"inc\"", "reduce = \"dec\"", "reduce = \"and\"",
     "reduce = \"or\"", "reduce = \"xor\"", "reduce = \"mul\""},
    {"cache_hint = \"evict_first\"", "cache_hint = \"evict_last\"",
     "cache_hint = \"evict_normal\"", "cache_hint = \"bogus\""},
    {"dispatch = \"tma\"", "dispatch = \"simt\"", "dispatch = \"collective\"",
     "dispatch = \"bulk\"", "dispatch = \"none\""},
    {"scope = \"cta\"", "scope = \"warp\"", "scope = \"warpgroup\"",
     "scope = \"thread\"", "scope = \"grid\"", "scope = \"cluster\""},
    {"tile.copy_async", "tile.copy"},
    {"gpu.launch ", "gpu.launch async "},
    {"strided<[", "#tile.layout<("},
    {"chip=sm_90a", "chip=sm_100a", "chip=sm_80", "chip=sm_89", "chip="},
    {"format=none", "format=isa"},
    {"func.func @", "func.func @mgpuLaunchKernel", "func.func @tileTensorMap"},
};

bool isIdentChar(char c) {
  return isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '%' ||
         c == '#' || c == '@' || c == '^' || c == '$' || c == '.' || c == '!';
}

struct Span {
  size_t begin, end;
  int cls; // -1: integer literal
};

/// Integer literals: digit runs not inside an identifier, where `x` (shape
/// separator) counts as a boundary.
void findIntegers(const std::string &s, std::vector<Span> &spans) {
  for (size_t i = 0; i < s.size();) {
    if (!isdigit(static_cast<unsigned char>(s[i]))) {
      ++i;
      continue;
    }
    size_t begin = i;
    while (i < s.size() && isdigit(static_cast<unsigned char>(s[i])))
      ++i;
    if (begin > 0 && s[begin - 1] == '-')
      --begin;
    char before = begin > 0 ? s[begin - 1] : ' ';
    char after = i < s.size() ? s[i] : ' ';
    bool boundaryBefore = !isIdentChar(before) || before == 'x';
    bool boundaryAfter =
        !(isalnum(static_cast<unsigned char>(after)) || after == '_') ||
        after == 'x';
    if (boundaryBefore && boundaryAfter)
      spans.push_back({begin, i, -1});
  }
}

void findTokens(const std::string &s, std::vector<Span> &spans) {
  for (size_t c = 0; c < kClasses.size(); ++c) {
    for (const char *token : kClasses[c]) {
      size_t n = strlen(token);
      // Bare numbers only as memory spaces (`, 3>`): integers cover the rest.
      if (isdigit(static_cast<unsigned char>(token[0])))
        continue;
      for (size_t pos = s.find(token); pos != std::string::npos;
           pos = s.find(token, pos + 1)) {
        char before = pos > 0 ? s[pos - 1] : ' ';
        char after = pos + n < s.size() ? s[pos + n] : ' ';
        if (isalnum(static_cast<unsigned char>(token[0])) &&
            isIdentChar(before))
          continue;
        if (isalnum(static_cast<unsigned char>(token[n - 1])) &&
            (isalnum(static_cast<unsigned char>(after)) || after == '_'))
          continue;
        spans.push_back({pos, pos + n, static_cast<int>(c)});
      }
    }
  }
}

std::string integerFor(const std::string &old, std::mt19937_64 &rng) {
  int64_t value = strtoll(old.c_str(), nullptr, 10);
  switch (rng() % 4) {
  case 0:
  case 1:
    value = kInteresting[rng() % (sizeof(kInteresting) / sizeof(int64_t))];
    break;
  case 2: {
    const int64_t deltas[] = {1, -1, 8, -8, 16, -16, 64};
    value = static_cast<int64_t>(static_cast<uint64_t>(value) +
                                 static_cast<uint64_t>(deltas[rng() % 7]));
    break;
  }
  default:
    value = static_cast<int64_t>(static_cast<uint64_t>(value) *
                                 (rng() % 2 ? 2u : uint64_t(-1)));
    break;
  }
  return std::to_string(value);
}

size_t store(const std::string &s, uint8_t *data, size_t maxSize) {
  size_t n = std::min(s.size(), maxSize);
  memcpy(data, s.data(), n);
  return n;
}

} // namespace

extern "C" size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size,
                                          size_t maxSize, unsigned seed) {
  std::mt19937_64 rng(seed);
  if (rng() % 3 == 0)
    return LLVMFuzzerMutate(data, size, maxSize);
  std::string s(reinterpret_cast<const char *>(data), size);
  unsigned rounds = 1 + static_cast<unsigned>(rng() % 3);
  for (unsigned r = 0; r < rounds; ++r) {
    unsigned kind = static_cast<unsigned>(rng() % 10);
    if (kind < 8) {
      std::vector<Span> spans;
      if (kind < 5)
        findIntegers(s, spans);
      else
        findTokens(s, spans);
      if (spans.empty())
        continue;
      const Span &span = spans[rng() % spans.size()];
      std::string replacement;
      if (span.cls < 0) {
        replacement =
            integerFor(s.substr(span.begin, span.end - span.begin), rng);
      } else {
        const auto &cls = kClasses[static_cast<size_t>(span.cls)];
        replacement = cls[rng() % cls.size()];
      }
      s.replace(span.begin, span.end - span.begin, replacement);
      continue;
    }
    // Drop or duplicate a line (not the first: it may hold the options).
    std::vector<size_t> starts;
    for (size_t i = 0; i < s.size(); ++i)
      if (s[i] == '\n' && i + 1 < s.size())
        starts.push_back(i + 1);
    if (starts.empty())
      continue;
    size_t begin = starts[rng() % starts.size()];
    size_t end = s.find('\n', begin);
    end = end == std::string::npos ? s.size() : end + 1;
    std::string line = s.substr(begin, end - begin);
    if (kind == 8)
      s.erase(begin, end - begin);
    else
      s.insert(begin, line);
  }
  if (s.size() > maxSize)
    return LLVMFuzzerMutate(data, size, maxSize);
  return store(s, data, maxSize);
}
