/*===- tile-capi-test.c - The tile C API, from C ------------------------===*\
|*                                                                          *|
|* Usage: tile-capi-test <input.mlir>. Prints the dialect handle's          *|
|* namespace, the plan report line of every tile.copy_async in the input,   *|
|* a failed query on a non-copy op, and the module after tile-gpu-pipeline  *|
|* (test/CAPI/capi.test checks the output).                                 *|
|*                                                                          *|
\*===----------------------------------------------------------------------===*/

#include "mlir-c/Diagnostics.h"
#include "mlir-c/IR.h"
#include "mlir-c/Pass.h"
#include "tile-c/Dialects.h"
#include "tile-c/Passes.h"
#include "tile-c/Plan.h"

#include <stdio.h>
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

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s <input.mlir>\n", argv[0]);
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
  return failures ? 1 : 0;
}
