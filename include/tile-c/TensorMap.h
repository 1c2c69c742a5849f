/*===- tile-c/TensorMap.h - C API: a kernel's tensor-map records --*- C -*-===*\
|*                                                                            *|
|* What a host that is not ours reads to encode a kernel's tensor maps: the  *|
|* `#tile.tensor_map` records of `tile.tensor_maps`, as plain C structs.     *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef TILE_C_TENSORMAP_H
#define TILE_C_TENSORMAP_H

#include "mlir-c/IR.h"
#include "mlir-c/Support.h"

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// A record's mode: which driver entry point encodes it.
enum MlirTileTensorMapMode {
  MlirTileTensorMapTiled = 0,  /* cuTensorMapEncodeTiled */
  MlirTileTensorMapIm2col = 1, /* cuTensorMapEncodeIm2col */
};

/// A value the host reads from the global buffer's memref descriptor.
enum MlirTileRuntimeValueKind {
  MlirTileRuntimeStatic = -1, /* not a run-time field: the static value holds */
  MlirTileRuntimeSize = 0,    /* size of memref dimension `dim` */
  MlirTileRuntimeStride = 1,  /* stride (elements) of memref dimension `dim` */
  MlirTileRuntimeOffset = 2,  /* the memref's element offset */
  MlirTileRuntimeAddress = 3, /* the aligned pointer */
};

/// A field the host computes: value(kind, dim) * scale / divisor.
typedef struct {
  int32_t kind; /* MlirTileRuntimeValueKind */
  int32_t dim;
  int64_t scale;
  int64_t divisor;
} MlirTileRuntimeField;

/// Every field of one record. Lists are innermost first, as the driver takes
/// them; entries past `rank` (or rank - 1, rank - 2) are zero.
typedef struct {
  int32_t mode;      /* MlirTileTensorMapMode */
  int64_t arg;       /* the kernel argument that takes the map */
  int64_t param;     /* its parameter index after memref expansion, or -1 */
  int64_t globalArg; /* the kernel argument holding the global buffer */
  int32_t dataType;  /* CUtensorMapDataType */
  int32_t rank;
  int32_t interleave;  /* CUtensorMapInterleave */
  int32_t swizzle;     /* CUtensorMapSwizzle */
  int32_t l2Promotion; /* CUtensorMapL2promotion */
  int32_t oobFill;     /* CUtensorMapFloatOOBfill */
  int64_t elementBytes;
  /* Tiled maps. A dimension or stride whose runtime field has a kind other
     than MlirTileRuntimeStatic is computed from the buffer. */
  uint64_t globalDim[5];
  MlirTileRuntimeField runtimeGlobalDim[5];
  uint64_t globalStrides[4]; /* bytes */
  MlirTileRuntimeField runtimeGlobalStrides[4];
  uint32_t boxDim[5];
  uint32_t elementStrides[5];
  int64_t baseOffsetBytes; /* added to the aligned pointer */
  int64_t offsetScale;     /* bytes per element of the memref offset, or 0 */
  /* im2col maps (sizes and strides come from the buffer at run time). */
  int32_t lowerCorner[3];
  int32_t upperCorner[3];
  uint32_t channelsPerPixel;
  uint32_t pixelsPerColumn;
  /* Guards to check before encoding: mlirTileTensorMapGetGuard. */
  intptr_t numGuards;
} MlirTileTensorMap;

/// One term of a guard: coeff * value(kind, dim).
typedef struct {
  int32_t kind; /* MlirTileRuntimeValueKind, never MlirTileRuntimeStatic */
  int32_t dim;
  int64_t coeff;
} MlirTileGuardTerm;

enum MlirTileGuardKind {
  MlirTileGuardMultipleOf = 0, /* the value is a multiple of `modulus` */
  MlirTileGuardInRange = 1,    /* lo <= value <= hi */
};

/// A run-time fact the map relies on: value = constant + sum of the terms.
/// When one fails, launch the kernel's fallback version (`tile.fallback`).
typedef struct {
  int32_t kind;       /* MlirTileGuardKind */
  MlirStringRef rule; /* the rule id it protects, e.g. "global-align" */
  int64_t constant;
  int64_t modulus;
  int64_t lo;
  int64_t hi;
  intptr_t numTerms;
  MlirTileGuardTerm terms[16];
} MlirTileGuard;

/// The number of tensor-map records of `kernel` (a gpu.func or the llvm.func
/// it lowers to), 0 when it has none.
MLIR_CAPI_EXPORTED intptr_t
mlirTileKernelGetNumTensorMaps(MlirOperation kernel);

/// The device maps of `kernel` (docs/device-tensor-maps.md): the number of
/// 128-byte slots per CTA, 0 when it has none. A host launching the kernel
/// passes, at parameter `*arrayParam` (the last; -1 before memrefs are
/// expanded: use `*arrayArg`), a device array of grid CTAs x slots x 128
/// bytes that no concurrent launch shares.
MLIR_CAPI_EXPORTED intptr_t mlirTileKernelGetDeviceMapSlots(
    MlirOperation kernel, int64_t *arrayArg, int64_t *arrayParam);

/// Record `pos` of `kernel`, in map-argument order (null when out of range).
MLIR_CAPI_EXPORTED MlirAttribute
mlirTileKernelGetTensorMap(MlirOperation kernel, intptr_t pos);

/// True when `attr` is a `#tile.tensor_map`.
MLIR_CAPI_EXPORTED bool mlirAttributeIsATileTensorMap(MlirAttribute attr);

/// Fills `out` from the record `attr`. Fails when `attr` is not a
/// `#tile.tensor_map`.
MLIR_CAPI_EXPORTED MlirLogicalResult
mlirTileTensorMapGetFields(MlirAttribute attr, MlirTileTensorMap *out);

/// Fills `out` with guard `pos` of the record `attr`, in the order the host
/// checks them. Fails when there is no such guard or it has more than 16
/// terms. `rule` points into the program's rule table (no need to free).
MLIR_CAPI_EXPORTED MlirLogicalResult
mlirTileTensorMapGetGuard(MlirAttribute attr, intptr_t pos, MlirTileGuard *out);

#ifdef __cplusplus
}
#endif

#endif // TILE_C_TENSORMAP_H
