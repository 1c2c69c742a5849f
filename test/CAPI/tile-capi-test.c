/*===- tile-capi-test.c - The tile C API, from C ------------------------===*\
|*                                                                          *|
|* Usage: tile-capi-test <input.mlir> [<upstream.mlir>]. Prints the        *|
|* dialect handle's namespace, the plan report line of every               *|
|* tile.copy_async in the input, a failed query on a non-copy op, the      *|
|* module after tile-gpu-pipeline, then what mlirTileCompile hands back    *|
|* for the input and for a source that does not parse; with a second file, *|
|* what it hands back for that one with convertUpstreamCopies set          *|
|* (test/CAPI/capi.test checks the output).                                *|
|*                                                                          *|
\*===----------------------------------------------------------------------===*/

#include "mlir-c/Diagnostics.h"
#include "mlir-c/IR.h"
#include "mlir-c/Pass.h"
#include "tile-c/Compile.h"
#include "tile-c/Dialects.h"
#include "tile-c/Passes.h"
#include "tile-c/Plan.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void printToStdout(MlirStringRef text, void *userData) {
  (void)userData;
  fwrite(text.data, 1, text.length, stdout);
}

static MlirLogicalResult printDiagnostic(MlirDiagnostic diagnostic,
                                         void *userData) {
  (void)userData;
  fputs("diagnostic: ", stdout);
  mlirDiagnosticPrint(diagnostic, printToStdout, NULL);
  fputs("\n", stdout);
  return mlirLogicalResultSuccess();
}

static int failures = 0;

static MlirWalkResult queryCopies(MlirOperation op, void *userData) {
  (void)userData;
  MlirStringRef name = mlirIdentifierStr(mlirOperationGetName(op));
  if (name.length != strlen("tile.copy_async") ||
      strncmp(name.data, "tile.copy_async", name.length) != 0)
    return MlirWalkResultAdvance;
  fputs("plan: ", stdout);
  if (mlirLogicalResultIsFailure(
          mlirTileQueryCopyPlan(op, printToStdout, NULL)))
    ++failures;
  fputs("\n", stdout);
  return MlirWalkResultAdvance;
}

/* One line per product: its kind, its name, and the first line of its
   text (or the line naming the PTX target). */
static void printProduct(MlirStringRef kind, MlirStringRef name,
                         MlirStringRef text, void *userData) {
  (void)userData;
  const char *shown = text.data;
  size_t length = text.length;
  const char *target = NULL;
  if (kind.length == 3 && strncmp(kind.data, "ptx", 3) == 0)
    for (size_t i = 0; i + 7 < text.length && !target; ++i)
      if (strncmp(text.data + i, ".target", 7) == 0)
        target = text.data + i;
  if (target) {
    shown = target;
    length = text.length - (size_t)(target - text.data);
  }
  const char *newline = memchr(shown, '\n', length);
  if (newline)
    length = (size_t)(newline - shown);
  printf("compile: %.*s [%.*s] %.*s\n", (int)kind.length, kind.data,
         (int)name.length, name.data, (int)length, shown);
}

static char *readFile(const char *path, size_t *size) {
  FILE *file = fopen(path, "rb");
  if (!file)
    return NULL;
  fseek(file, 0, SEEK_END);
  long length = ftell(file);
  fseek(file, 0, SEEK_SET);
  char *data = malloc((size_t)length + 1);
  if (data && fread(data, 1, (size_t)length, file) != (size_t)length) {
    free(data);
    data = NULL;
  }
  fclose(file);
  if (data)
    *size = (size_t)length;
  return data;
}

static int compileFile(const char *path, const char *sourceName,
                       const MlirTileCompileOptions *options) {
  size_t size = 0;
  char *source = readFile(path, &size);
  if (!source) {
    puts("error: cannot read the input");
    return 1;
  }
  int result = 0;
  if (mlirLogicalResultIsFailure(
          mlirTileCompile(mlirStringRefCreate(source, size),
                          mlirStringRefCreateFromCString(sourceName), options,
                          printProduct, NULL))) {
    puts("error: mlirTileCompile failed");
    result = 1;
  }
  free(source);
  return result;
}

static int compileInProcess(const char *path) {
  MlirTileCompileOptions options;
  memset(&options, 0, sizeof(options));
  options.stages = mlirStringRefCreateFromCString("tile-plan-copies");
  options.emitPTX = true;
  int result = compileFile(path, "demo.mlir", &options);
  const char *broken = "func.func @f( {\n}\n";
  if (mlirLogicalResultIsSuccess(
          mlirTileCompile(mlirStringRefCreateFromCString(broken),
                          mlirStringRefCreateFromCString("broken.mlir"),
                          &options, printProduct, NULL))) {
    puts("error: a source that does not parse compiled");
    result = 1;
  }
  return result;
}

/* A kernel of upstream copies compiled with the conversion on: the
   converted copies' plans and the kernel's PTX. */
static int compileUpstreamCopies(const char *path) {
  MlirTileCompileOptions options;
  memset(&options, 0, sizeof(options));
  options.emitPTX = true;
  options.convertUpstreamCopies = true;
  return compileFile(path, "upstream.mlir", &options);
}

int main(int argc, char **argv) {
  if (argc != 2 && argc != 3) {
    fprintf(stderr, "usage: %s <input.mlir> [<upstream.mlir>]\n", argv[0]);
    return 2;
  }
  MlirDialectHandle tile = mlirGetDialectHandle__tile__();
  MlirStringRef ns = mlirDialectHandleGetNamespace(tile);
  printf("dialect: %.*s\n", (int)ns.length, ns.data);

  MlirContext context = mlirContextCreate();
  MlirDialectRegistry registry = mlirDialectRegistryCreate();
  mlirTileRegisterAllDialects(registry);
  mlirContextAppendDialectRegistry(context, registry);
  mlirDialectRegistryDestroy(registry);
  mlirContextAttachDiagnosticHandler(context, printDiagnostic, NULL, NULL);
  mlirTileRegisterAllPasses();

  MlirModule module = mlirModuleCreateParseFromFile(
      context, mlirStringRefCreateFromCString(argv[1]));
  if (mlirModuleIsNull(module)) {
    puts("error: cannot parse the input");
    mlirContextDestroy(context);
    return 1;
  }
  MlirOperation moduleOp = mlirModuleGetOperation(module);
  mlirOperationWalk(moduleOp, queryCopies, NULL, MlirWalkPreOrder);

  /* A query on something that is not a copy fails with a diagnostic. */
  if (mlirLogicalResultIsSuccess(
          mlirTileQueryCopyPlan(moduleOp, printToStdout, NULL))) {
    puts("error: a plan query on the module succeeded");
    ++failures;
  }

  MlirPassManager pm = mlirPassManagerCreate(context);
  MlirOpPassManager opm = mlirPassManagerGetAsOpPassManager(pm);
  MlirLogicalResult parsed = mlirOpPassManagerAddPipeline(
      opm, mlirStringRefCreateFromCString("tile-gpu-pipeline{format=isa}"),
      printToStdout, NULL);
  if (mlirLogicalResultIsFailure(parsed) ||
      mlirLogicalResultIsFailure(mlirPassManagerRunOnOp(pm, moduleOp))) {
    puts("error: tile-gpu-pipeline failed");
    ++failures;
  } else {
    mlirOperationPrint(moduleOp, printToStdout, NULL);
    fputs("\n", stdout);
  }
  mlirPassManagerDestroy(pm);
  mlirModuleDestroy(module);
  mlirContextDestroy(context);
  failures += compileInProcess(argv[1]);
  if (argc == 3)
    failures += compileUpstreamCopies(argv[2]);
  return failures ? 1 : 0;
}
