/*===- tile-capi-maps.c - A foreign host's view of the tensor maps ------===*\
|*                                                                          *|
|* Usage: tile-capi-maps <input.mlir>. Lowers the input's kernels with      *|
|* tile-gpu-pipeline{device-only=1 format=none}, as a compiler with its own *|
|* host code would, then prints every kernel's tensor-map records and       *|
|* guards through tile-c/TensorMap.h alone: the fields a host passes to     *|
|* cuTensorMapEncodeTiled / cuTensorMapEncodeIm2col (test/CAPI/capi.test    *|
|* checks the output).                                                      *|
|*                                                                          *|
\*===----------------------------------------------------------------------===*/

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/IR.h"
#include "mlir-c/Pass.h"
#include "tile-c/Dialects.h"
#include "tile-c/Passes.h"
#include "tile-c/TensorMap.h"

#include <inttypes.h>
#include <stdio.h>

static void printToStdout(MlirStringRef text, void *userData) {
  (void)userData;
  fwrite(text.data, 1, text.length, stdout);
}

static const char *valueName(int32_t kind) {
  switch (kind) {
  case MlirTileRuntimeSize:
    return "size";
  case MlirTileRuntimeStride:
    return "stride";
  case MlirTileRuntimeOffset:
    return "offset";
  case MlirTileRuntimeAddress:
    return "address";
  default:
    return "?";
  }
}

static void printValue(int32_t kind, int32_t dim) {
  if (kind == MlirTileRuntimeSize || kind == MlirTileRuntimeStride)
    printf("%s(%d)", valueName(kind), dim);
  else
    printf("%s", valueName(kind));
}

/* A tiled map's dims or strides: the static value, or the run-time field. */
static void printFields(const char *name, const uint64_t *values,
                        const MlirTileRuntimeField *fields, int count) {
  printf(" %s=", name);
  for (int i = 0; i < count; ++i) {
    if (i)
      putchar(',');
    if (fields[i].kind == MlirTileRuntimeStatic) {
      printf("%" PRIu64, values[i]);
      continue;
    }
    printValue(fields[i].kind, fields[i].dim);
    if (fields[i].scale != 1)
      printf("*%" PRId64, fields[i].scale);
    if (fields[i].divisor != 1)
      printf("/%" PRId64, fields[i].divisor);
  }
}

static void printU32(const char *name, const uint32_t *values, int count) {
  printf(" %s=", name);
  for (int i = 0; i < count; ++i)
    printf(i ? ",%u" : "%u", values[i]);
}

static void printI32(const char *name, const int32_t *values, int count) {
  printf(" %s=", name);
  for (int i = 0; i < count; ++i)
    printf(i ? ",%d" : "%d", values[i]);
}

static int printMaps(MlirOperation kernel) {
  int failures = 0;
  intptr_t count = mlirTileKernelGetNumTensorMaps(kernel);
  MlirStringRef name = mlirStringAttrGetValue(mlirOperationGetAttributeByName(
      kernel, mlirStringRefCreateFromCString("sym_name")));
  for (intptr_t i = 0; i < count; ++i) {
    MlirAttribute attr = mlirTileKernelGetTensorMap(kernel, i);
    MlirTileTensorMap map;
    if (!mlirAttributeIsATileTensorMap(attr) ||
        mlirLogicalResultIsFailure(mlirTileTensorMapGetFields(attr, &map))) {
      printf("error: record %ld is not a #tile.tensor_map\n", (long)i);
      ++failures;
      continue;
    }
    printf("@%.*s map %ld: %s arg=%" PRId64 " param=%" PRId64
           " global_arg=%" PRId64 " data_type=%d rank=%d",
           (int)name.length, name.data, (long)i,
           map.mode == MlirTileTensorMapTiled ? "tiled" : "im2col", map.arg,
           map.param, map.globalArg, map.dataType, map.rank);
    if (map.mode == MlirTileTensorMapTiled) {
      printFields("dim", map.globalDim, map.runtimeGlobalDim, map.rank);
      printFields("strides", map.globalStrides, map.runtimeGlobalStrides,
                  map.rank - 1);
      printU32("box", map.boxDim, map.rank);
      printU32("element_strides", map.elementStrides, map.rank);
      printf(" interleave=%d swizzle=%d l2=%d oob=%d base=%" PRId64
             " offset_scale=%" PRId64,
             map.interleave, map.swizzle, map.l2Promotion, map.oobFill,
             map.baseOffsetBytes, map.offsetScale);
    } else {
      printI32("lower_corner", map.lowerCorner, map.rank - 2);
      printI32("upper_corner", map.upperCorner, map.rank - 2);
      printf(" channels=%u pixels=%u", map.channelsPerPixel,
             map.pixelsPerColumn);
      printU32("element_strides", map.elementStrides, map.rank);
      printf(" swizzle=%d l2=%d oob=%d element_bytes=%" PRId64, map.swizzle,
             map.l2Promotion, map.oobFill, map.elementBytes);
    }
    printf(" guards=%ld\n", (long)map.numGuards);
    for (intptr_t g = 0; g < map.numGuards; ++g) {
      MlirTileGuard guard;
      if (mlirLogicalResultIsFailure(
              mlirTileTensorMapGetGuard(attr, g, &guard))) {
        printf("error: guard %ld of map %ld cannot be read\n", (long)g,
               (long)i);
        ++failures;
        continue;
      }
      printf("  guard %.*s: %" PRId64, (int)guard.rule.length, guard.rule.data,
             guard.constant);
      for (intptr_t t = 0; t < guard.numTerms; ++t) {
        printf(" + %" PRId64 "*", guard.terms[t].coeff);
        printValue(guard.terms[t].kind, guard.terms[t].dim);
      }
      if (guard.kind == MlirTileGuardMultipleOf)
        printf(" %% %" PRId64 " == 0\n", guard.modulus);
      else
        printf(" in [%" PRId64 ", %" PRId64 "]\n", guard.lo, guard.hi);
    }
  }
  int64_t arrayArg = 0, arrayParam = 0;
  intptr_t slots =
      mlirTileKernelGetDeviceMapSlots(kernel, &arrayArg, &arrayParam);
  if (slots)
    printf("@%.*s device maps: %ld slot(s), array arg=%" PRId64
           " param=%" PRId64 "\n",
           (int)name.length, name.data, (long)slots, arrayArg, arrayParam);
  /* Out of range: a null attribute, and reading it fails. */
  MlirTileTensorMap unused;
  if (!mlirAttributeIsNull(mlirTileKernelGetTensorMap(kernel, count)) ||
      mlirLogicalResultIsSuccess(mlirTileTensorMapGetFields(
          mlirTileKernelGetTensorMap(kernel, count), &unused))) {
    puts("error: a record past the last one was read");
    ++failures;
  }
  return failures;
}

static int failures = 0;

static MlirWalkResult visit(MlirOperation op, void *userData) {
  (void)userData;
  if (mlirTileKernelGetNumTensorMaps(op) > 0)
    failures += printMaps(op);
  return MlirWalkResultAdvance;
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s <input.mlir>\n", argv[0]);
    return 2;
  }
  MlirContext context = mlirContextCreate();
  MlirDialectRegistry registry = mlirDialectRegistryCreate();
  mlirTileRegisterAllDialects(registry);
  mlirContextAppendDialectRegistry(context, registry);
  mlirDialectRegistryDestroy(registry);
  mlirTileRegisterAllPasses();
  MlirModule module = mlirModuleCreateParseFromFile(
      context, mlirStringRefCreateFromCString(argv[1]));
  if (mlirModuleIsNull(module)) {
    puts("error: cannot parse the input");
    mlirContextDestroy(context);
    return 1;
  }
  MlirOperation moduleOp = mlirModuleGetOperation(module);
  MlirPassManager pm = mlirPassManagerCreate(context);
  MlirLogicalResult parsed = mlirOpPassManagerAddPipeline(
      mlirPassManagerGetAsOpPassManager(pm),
      mlirStringRefCreateFromCString(
          "tile-gpu-pipeline{device-only=1 format=none}"),
      printToStdout, NULL);
  if (mlirLogicalResultIsFailure(parsed) ||
      mlirLogicalResultIsFailure(mlirPassManagerRunOnOp(pm, moduleOp))) {
    puts("error: tile-gpu-pipeline failed");
    ++failures;
  } else {
    mlirOperationWalk(moduleOp, visit, NULL, MlirWalkPreOrder);
  }
  mlirPassManagerDestroy(pm);
  mlirModuleDestroy(module);
  mlirContextDestroy(context);
  return failures ? 1 : 0;
}
