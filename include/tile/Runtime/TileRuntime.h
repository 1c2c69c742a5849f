/*===- TileRuntime.h - tile-mlir host runtime C ABI ------------*- C -*-===*\
|*                                                                          *|
|* Host runtime for code produced by tile-mlir: Hopper tensor-map encoding  *|
|* (validated, cached, patched for a driver defect), module load and kernel *|
|* launch, and the mgpu* entry points that MLIR 22's gpu-to-llvm lowering   *|
|* calls.                                                                   *|
|*                                                                          *|
|* The CUDA driver (libcuda.so.1) is loaded with dlopen on first use;       *|
|* nothing links it at build time. No entry point aborts or throws: each    *|
|* failure returns a status (or NULL) and records a thread-local message,   *|
|* read with tileRuntimeLastError(). See docs/runtime.md.                   *|
|*                                                                          *|
\*===----------------------------------------------------------------------===*/

#ifndef TILE_RUNTIME_TILERUNTIME_H
#define TILE_RUNTIME_TILERUNTIME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#if defined(_WIN32)
#define TILE_RUNTIME_API
#else
#define TILE_RUNTIME_API __attribute__((visibility("default")))
#endif

#ifdef __cplusplus
extern "C" {
#endif

/*===----------------------------------------------------------------------===
 * Status and errors
 *===----------------------------------------------------------------------===*/

/* Status codes returned by the int32_t entry points. */
enum {
  TILE_SUCCESS = 0,
  /* An argument broke a documented rule; the message names field and value. */
  TILE_ERROR_INVALID_VALUE = 1,
  /* libcuda.so.1 is missing, lacks a required symbol, or cuInit failed. */
  TILE_ERROR_NO_DRIVER = 2,
  /* A driver call failed; the message carries the CUresult name and number. */
  TILE_ERROR_DRIVER = 3,
  /* Host or device allocation failed. */
  TILE_ERROR_OUT_OF_MEMORY = 4
};

/* Message of the latest failure on this thread, "" when none. The pointer is
 * valid until the next runtime call on this thread. Successful calls leave the
 * message unchanged; it always describes the failure the sticky status
 * (tileRuntimeGetStatus) holds, or the one last consumed. */
TILE_RUNTIME_API const char *tileRuntimeLastError(void);

/* Copies the latest message into buf (always NUL-terminated when size > 0) and
 * returns the message's full length. */
TILE_RUNTIME_API int32_t tileRuntimeGetLastError(char *buf, size_t size);

/* Clears this thread's message and sticky status. */
TILE_RUNTIME_API void tileRuntimeClearError(void);

/* Sticky status: the latest failure on this thread since the status was last
 * consumed or cleared (TILE_SUCCESS when none); successful calls do not reset
 * it. This is how callers of the void mgpu* functions learn that something
 * failed. Status and message always describe the same failure. */
TILE_RUNTIME_API int32_t tileRuntimeGetStatus(void);

/* Returns the sticky status and resets it to TILE_SUCCESS. */
TILE_RUNTIME_API int32_t tileRuntimeConsumeStatus(void);

/* "TILE_SUCCESS", "TILE_ERROR_INVALID_VALUE", ...; "TILE_ERROR_UNKNOWN" for
 * other values. */
TILE_RUNTIME_API const char *tileRuntimeStatusName(int32_t status);

/*===----------------------------------------------------------------------===
 * Entry arguments
 *===----------------------------------------------------------------------===*/

/* Compares one field of a memref argument the caller passed to a compiled
 * host entry with the value its static type fixes. Equal: returns
 * TILE_SUCCESS and records nothing. Different: records TILE_ERROR_INVALID_VALUE
 * with "<function>: argument #<argument> (<type>): <field> is <received>,
 * expected <expected>; nothing was launched" and returns it. The generated
 * entry checks the fields in order (sizes, strides, offset of each argument)
 * and calls this for the first one that differs, then returns without
 * launching anything. */
TILE_RUNTIME_API int32_t tileRuntimeCheckArgument(
    const char *function, int32_t argument, const char *type, const char *field,
    int64_t expected, int64_t received);

/*===----------------------------------------------------------------------===
 * Guarded launches
 *===----------------------------------------------------------------------===*/

/* Versions of a kernel that has run-time guards: TILE_VERSION_GUARDED when
 * every guard held (the planned TMA kernel), TILE_VERSION_FALLBACK when a
 * guard failed (the fallback kernel). */
#define TILE_VERSION_GUARDED 0
#define TILE_VERSION_FALLBACK 1

/* Called by compiled host code before each launch of a guarded kernel. site is
 * a static NUL-terminated string naming the launch site, such as
 * "@copy_tiles: launch of @kernels::@copy" (NULL counts as "<unknown>");
 * failedGuard is the text of the first failed guard, such as
 * "global-stride: stride[0]*2 % 16 == 0", and NULL for TILE_VERSION_GUARDED.
 * Counts the launch; other versions are ignored. When the environment
 * variable TILE_LOG_FALLBACK (read at each site's first fallback launch) is
 * set to a non-empty value other than "0", the first fallback launch of each
 * site (by string content) prints one line to stderr:
 *   tile: <site>: guard failed (<failedGuard>); running the fallback version
 * Never fails, never aborts; thread-safe. */
TILE_RUNTIME_API void tileRuntimeNoteLaunchVersion(const char *site,
                                                   int32_t version,
                                                   const char *failedGuard);

/* Called by compiled host code after a launch it skipped because a guard of a
 * kernel without a fallback version failed (a kernel whose guarded copies
 * have no other variant, such as a floating-point max-reduce store): records
 * TILE_ERROR_INVALID_VALUE with
 *   "<site>: guard failed (<failedGuard>) and the kernel has no fallback
 *   version; nothing was launched"
 * (NULL site or guard reads "<unknown>"). Never aborts; the message is this
 * thread's, as every error. */
TILE_RUNTIME_API void tileRuntimeRefuseLaunch(const char *site,
                                              const char *failedGuard);

/* Launches counted for version since the process started or the last reset,
 * over all sites; 0 for an unknown version. */
TILE_RUNTIME_API int64_t tileRuntimeLaunchVersionCount(int32_t version);

/* The same for one site (compared by string content; NULL is "<unknown>"); 0
 * for an unknown site. */
TILE_RUNTIME_API int64_t tileRuntimeSiteLaunchVersionCount(const char *site,
                                                           int32_t version);

/* Resets every counter and forgets which sites were logged. */
TILE_RUNTIME_API void tileRuntimeResetLaunchVersionCounts(void);

/*===----------------------------------------------------------------------===
 * Driver
 *===----------------------------------------------------------------------===*/

/* Loads libcuda.so.1 and runs cuInit once (thread-safe); later calls return
 * the recorded outcome. TILE_ERROR_NO_DRIVER when the library is missing or
 * incomplete or cuInit fails (a stub library counts as missing). */
TILE_RUNTIME_API int32_t tileRuntimeInit(void);

/* 1 when tileRuntimeInit() succeeds, else 0. Does not touch the error state. */
TILE_RUNTIME_API int32_t tileRuntimeDriverAvailable(void);

/* cuDriverGetVersion (e.g. 13000 for CUDA 13.0), or the testing override. */
TILE_RUNTIME_API int32_t tileRuntimeDriverVersion(int32_t *version);

/*===----------------------------------------------------------------------===
 * Tensor maps (cuTensorMapEncodeTiled)
 *===----------------------------------------------------------------------===*/

/* Size and required alignment of an encoded tensor map (CUtensorMap). */
#define TILE_TENSOR_MAP_BYTES 128
#define TILE_TENSOR_MAP_ALIGNMENT 64

/* Bytes per element of a CUtensorMapDataType value 0..12; 0 for anything
 * else (the packed sub-byte types 13..15 are not supported). */
TILE_RUNTIME_API uint32_t tileTensorMapElementBytes(int32_t dataType);

/* Checks every rule the driver applies to cuTensorMapEncodeTiled's arguments
 * (docs/runtime.md lists them). TILE_SUCCESS or TILE_ERROR_INVALID_VALUE with
 * a message such as "tileTensorMapValidateTiled: boxDim[0] = 300 exceeds 256".
 * Arrays are innermost dimension first; globalStridesBytes has rank-1 entries
 * (dims 1..rank-1) and may be NULL when rank is 1. */
TILE_RUNTIME_API int32_t tileTensorMapValidateTiled(
    int32_t dataType, int32_t rank, const void *globalAddress,
    const uint64_t *globalDim, const uint64_t *globalStridesBytes,
    const uint32_t *boxDim, const uint32_t *elementStrides, int32_t interleave,
    int32_t swizzle, int32_t l2Promotion, int32_t oobFill);

/* Validates as above (plus map128 != NULL and 64-byte aligned), encodes with
 * the driver's cuTensorMapEncodeTiled into the 128 bytes at map128, then
 * applies the driver-defect patch (tileTensorMapApplyDefectPatch). Enum
 * arguments take the CUDA values (CUtensorMapDataType, ...Interleave,
 * ...Swizzle, ...L2promotion, ...FloatOOBfill). */
TILE_RUNTIME_API int32_t tileTensorMapEncodeTiled(
    void *map128, int32_t dataType, int32_t rank, const void *globalAddress,
    const uint64_t *globalDim, const uint64_t *globalStridesBytes,
    const uint32_t *boxDim, const uint32_t *elementStrides, int32_t interleave,
    int32_t swizzle, int32_t l2Promotion, int32_t oobFill);

/* "Tensor bytes" as the driver-defect workaround defines it:
 * 1 + sum_i (globalDim[i] - 1) * stride_i, where stride_0 is the element size
 * and stride_i (i >= 1) is globalStridesBytes[i-1]. Saturates at UINT64_MAX;
 * returns 0 for an unsupported dataType, a rank outside 1..5, a NULL array
 * or a zero dimension. */
TILE_RUNTIME_API uint64_t tileTensorMapTensorBytes(
    int32_t dataType, int32_t rank, const uint64_t *globalDim,
    const uint64_t *globalStridesBytes);

/* 1 when the defect patch applies: driverVersion <= 13010 and
 * tensorBytes < 128 KiB; else 0. */
TILE_RUNTIME_API int32_t tileTensorMapDefectPatchApplies(int32_t driverVersion,
                                                         uint64_t tensorBytes);

/* When tileTensorMapDefectPatchApplies(driverVersion, tensorBytes), clears bit
 * 21 of 64-bit word 1 of the map (bit 85; byte 10, bit 5); otherwise, and for
 * a NULL map, does nothing. No other byte changes; any alignment is fine. */
TILE_RUNTIME_API void tileTensorMapApplyDefectPatch(void *map128,
                                                    int32_t driverVersion,
                                                    uint64_t tensorBytes);

/* Returns a cached encoded map for these arguments, encoding it on the first
 * request (validation, driver encode and patch as tileTensorMapEncodeTiled).
 * The pointer is 64-byte aligned and stays valid until
 * tileTensorMapCacheClear(). Thread-safe; a hit takes a read lock, hashes the
 * key and allocates nothing. NULL on failure, with the error recorded (failures
 * are not cached). */
TILE_RUNTIME_API const void *tileTensorMapGetCached(
    int32_t dataType, int32_t rank, const void *globalAddress,
    const uint64_t *globalDim, const uint64_t *globalStridesBytes,
    const uint32_t *boxDim, const uint32_t *elementStrides, int32_t interleave,
    int32_t swizzle, int32_t l2Promotion, int32_t oobFill);

/* Frees every cached map: pointers returned earlier become invalid (a kernel
 * already launched has its own copy of the map, since maps are passed by
 * value). Must not race with users of those pointers. */
TILE_RUNTIME_API void tileTensorMapCacheClear(void);

/* Number of cached maps. */
TILE_RUNTIME_API size_t tileTensorMapCacheSize(void);

/*===----------------------------------------------------------------------===
 * Im2col tensor maps (cuTensorMapEncodeIm2col)
 *===----------------------------------------------------------------------===*/

/* Checks every rule the driver applies to cuTensorMapEncodeIm2col's arguments
 * (docs/runtime.md lists them). TILE_SUCCESS or TILE_ERROR_INVALID_VALUE with
 * a message such as
 * "tileTensorMapValidateIm2col: pixelsPerColumn = 1025 exceeds 1024".
 * rank is 3..5 (NWC, NHWC, NDHWC; arrays innermost dimension first, so
 * globalDim[0] is C); globalStridesBytes has rank-1 entries; the corners have
 * rank-2 entries each, index i being the offset of spatial dimension i + 1
 * (W first). Enum, address, dimension, stride and element-stride rules are
 * those of tileTensorMapValidateTiled. */
TILE_RUNTIME_API int32_t tileTensorMapValidateIm2col(
    int32_t dataType, int32_t rank, const void *globalAddress,
    const uint64_t *globalDim, const uint64_t *globalStridesBytes,
    const int32_t *pixelBoxLowerCorner, const int32_t *pixelBoxUpperCorner,
    uint32_t channelsPerPixel, uint32_t pixelsPerColumn,
    const uint32_t *elementStrides, int32_t interleave, int32_t swizzle,
    int32_t l2Promotion, int32_t oobFill);

/* Validates as above (plus map128 != NULL and 64-byte aligned), encodes with
 * the driver's cuTensorMapEncodeIm2col into the 128 bytes at map128, then
 * applies the driver-defect patch as tileTensorMapEncodeTiled does. */
TILE_RUNTIME_API int32_t tileTensorMapEncodeIm2col(
    void *map128, int32_t dataType, int32_t rank, const void *globalAddress,
    const uint64_t *globalDim, const uint64_t *globalStridesBytes,
    const int32_t *pixelBoxLowerCorner, const int32_t *pixelBoxUpperCorner,
    uint32_t channelsPerPixel, uint32_t pixelsPerColumn,
    const uint32_t *elementStrides, int32_t interleave, int32_t swizzle,
    int32_t l2Promotion, int32_t oobFill);

/* tileTensorMapGetCached for im2col maps: the same cache (cleared by
 * tileTensorMapCacheClear, counted by tileTensorMapCacheSize), whose key tells
 * tiled and im2col maps apart. NULL on failure, with the error recorded. */
TILE_RUNTIME_API const void *tileTensorMapIm2colGetCached(
    int32_t dataType, int32_t rank, const void *globalAddress,
    const uint64_t *globalDim, const uint64_t *globalStridesBytes,
    const int32_t *pixelBoxLowerCorner, const int32_t *pixelBoxUpperCorner,
    uint32_t channelsPerPixel, uint32_t pixelsPerColumn,
    const uint32_t *elementStrides, int32_t interleave, int32_t swizzle,
    int32_t l2Promotion, int32_t oobFill);

/*===----------------------------------------------------------------------===
 * Device-side tensor maps
 *===----------------------------------------------------------------------===*/

/* The device array of at least bytes bytes for the device-side tensor maps of
 * one launch site (site is a constant NUL-terminated string naming the site;
 * equal texts are one site), owned by the runtime and keyed by (current
 * context, site text) for launches without a stream (the NULL stream; see
 * tileRuntimeDeviceMapArrayOnStream): allocated (cuMemAlloc, 256-byte aligned)
 * on the site's first use in the current context, reused by later launches of
 * the site that need no more, replaced by a larger one (max(bytes, twice the
 * old size)) when a launch needs more. An array is never freed or moved while
 * the process may still replay a CUDA graph that captured it: a replaced
 * array stays allocated until tileRuntimeReleaseDeviceMapArrays(). The
 * allocation runs in relaxed stream-capture mode
 * (cuThreadExchangeStreamCaptureMode, restored afterwards), so a launch
 * through it is capturable while the calling thread's stream is being
 * captured into a CUDA graph. Contents are not initialised. Thread-safe (a
 * mutex). Returns NULL after recording an error naming the site and size
 * (TILE_ERROR_INVALID_VALUE for a NULL site or bytes == 0; a driver failure
 * as usual); a failed replacement keeps the old array. */
TILE_RUNTIME_API void *tileRuntimeDeviceMapArray(const char *site,
                                                 uint64_t bytes);

/* tileRuntimeDeviceMapArray for a launch on `stream` (a CUstream; NULL is
 * the same as tileRuntimeDeviceMapArray): arrays are keyed by (current
 * context, stream, site text), so launches of one site on two streams, which
 * may run at the same time, write different arrays. The stream is only a
 * key: the runtime never uses it, and a stream destroyed and a new one
 * created at the same address share the array (the old stream's launches
 * must have completed, as after any cuStreamDestroy). Compiled host code
 * calls this for a launch with an async dependency (the stream the launch
 * runs on). Errors as tileRuntimeDeviceMapArray, their messages naming this
 * function and the stream. */
TILE_RUNTIME_API void *tileRuntimeDeviceMapArrayOnStream(const char *site,
                                                         uint64_t bytes,
                                                         void *stream);

/* Frees every device-map array of every site, replaced ones included, each
 * once, and forgets the sites (for tests and for hosts that unload). Must not
 * race with launches or graphs that use the arrays. A failing cuMemFree is
 * recorded (TILE_ERROR_DRIVER) and its array forgotten all the same. */
TILE_RUNTIME_API void tileRuntimeReleaseDeviceMapArrays(void);

/*===----------------------------------------------------------------------===
 * Stream workspaces
 *===----------------------------------------------------------------------===*/

/* A device buffer of at least bytes bytes for one launch's scratch (what
 * tile-compile makes of tile.stream_workspace), owned by the runtime and
 * keyed by (current context, stream, name text, zeroed): launches on one
 * stream run in order and share it; another stream gets its own. Allocated
 * (cuMemAlloc, 256-byte aligned) on the key's first use, reused by later
 * calls that need no more, replaced by a larger one (max(bytes, twice the
 * old size)) when a call needs more; a replaced buffer stays allocated
 * until tileRuntimeReleaseStreamWorkspaces(), since queued launches or a
 * captured CUDA graph may still use it. With zeroed nonzero, every byte is
 * zero when the buffer is allocated (cuMemsetD32Async on a stream of the
 * runtime's own, waited for), and the kernels that use it must leave it
 * zero (a counter reset by its last arrival): the runtime never zeroes it
 * again. Without, its contents are unspecified. Allocation and zeroing run
 * in relaxed stream-capture mode, so a call is capturable. The stream is
 * only a key. Thread-safe (a mutex). Returns NULL after recording an error
 * naming the workspace, the stream and the size (TILE_ERROR_INVALID_VALUE
 * for a NULL name or bytes == 0; a driver failure as usual); a failed
 * replacement keeps the old buffer. */
TILE_RUNTIME_API void *tileRuntimeStreamWorkspace(const char *name,
                                                  uint64_t bytes,
                                                  int32_t zeroed,
                                                  void *stream);

/* Frees every stream workspace, replaced ones included, each once, and
 * forgets the keys (for tests and for hosts that unload). Must not race with
 * launches or graphs that use them. A failing cuMemFree is recorded
 * (TILE_ERROR_DRIVER) and its buffer forgotten all the same. */
TILE_RUNTIME_API void tileRuntimeReleaseStreamWorkspaces(void);

/*===----------------------------------------------------------------------===
 * Schedules of causal attention tiles
 *===----------------------------------------------------------------------===*/

/* A 1-D memref<?xi32> descriptor as compiled host code receives one. */
typedef struct {
  int32_t *allocated;
  int32_t *aligned;
  int64_t offset;
  int64_t sizes[1];
  int64_t strides[1];
} TileRuntimeI32Memref;

/* The longest-first schedule of a causal attention problem's tiles over
 * `ctas` CTAs (tile/Schedule/LongestFirst.h): `heads` (batch x heads) heads
 * of `queryBlocks` query blocks, query block q reading min(kvBlocks, q + 1)
 * KV blocks, ordered in sections of `sectionHeads` heads, each tile costing
 * its KV blocks plus `tileCost`. Returns a device array of int32 values,
 * ctas + 1 offsets and then every tile once as head x queryBlocks +
 * queryBlock (CTA c walks the tiles at [offsets[c], offsets[c + 1])), and
 * its length in *length (may be NULL). Built and uploaded on the problem's
 * first request in the current context (cuMemAlloc, then a copy on a
 * non-blocking stream of the runtime's own that the call waits for, so a
 * launch on any stream reads the table complete and no other stream's work
 * is waited for; all in relaxed capture mode, so the first request may come
 * while a stream is being captured) and kept until
 * tileRuntimeReleaseLongestFirstTables: later requests are a lookup.
 * Thread-safe (a mutex). Returns NULL and *length 0 after recording an
 * error: TILE_ERROR_INVALID_VALUE for a count below 1, more CTAs than tiles,
 * a tile cost outside [0, 2^30] or a table of more than 2^31 - 4097 values;
 * a driver failure as usual. Keyed by the context's handle: release the
 * tables before resetting a context. */
TILE_RUNTIME_API const int32_t *
tileRuntimeLongestFirstTable(int64_t queryBlocks, int64_t kvBlocks,
                             int64_t heads, int64_t sectionHeads, int64_t ctas,
                             int64_t tileCost, int64_t *length);

/* tileRuntimeLongestFirstTable for compiled host code, which declares
 * `func.func private @tileRuntimeLongestFirstTable(i64, i64, i64, i64, i64,
 * i64) -> memref<?xi32> attributes {llvm.emit_c_interface}`: the table as a
 * memref of its length, or a descriptor of NULL pointers and size 0 after an
 * error. */
TILE_RUNTIME_API void _mlir_ciface_tileRuntimeLongestFirstTable(
    TileRuntimeI32Memref *result, int64_t queryBlocks, int64_t kvBlocks,
    int64_t heads, int64_t sectionHeads, int64_t ctas, int64_t tileCost);

/* Frees every schedule table and forgets the problems (for tests and for
 * hosts that unload). Must not race with launches or graphs that use the
 * tables. A failing cuMemFree is recorded (TILE_ERROR_DRIVER). */
TILE_RUNTIME_API void tileRuntimeReleaseLongestFirstTables(void);

/*===----------------------------------------------------------------------===
 * Modules and launches (status-returning)
 *===----------------------------------------------------------------------===*/

/* Loads a cubin, fatbin or NUL-terminated PTX image into the current (or the
 * default device's primary) context. size is informational (may be 0). On
 * failure *module is NULL and the JIT error log, if any, is in the message. */
TILE_RUNTIME_API int32_t tileModuleLoad(void **module, const void *image,
                                        size_t size);

/* Unloads a module from tileModuleLoad or mgpuModuleLoad*. NULL is a no-op. */
TILE_RUNTIME_API int32_t tileModuleUnload(void *module);

/* Looks up a kernel by its (mangled) name. */
TILE_RUNTIME_API int32_t tileModuleGetFunction(void **function, void *module,
                                               const char *name);

/* Launches function on stream (NULL = the legacy default stream). grid and
 * block are 3 values each, every one >= 1. cluster may be NULL; a cluster of
 * all 0/1 values means no cluster, otherwise each value must be >= 1 and
 * divide the grid, and the launch goes through cuLaunchKernelEx with the
 * cluster-dimension attribute. Above 48 KiB of dynamic shared memory the
 * function's CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES is raised
 * first. params is the usual array of pointers to each argument (a tensor map
 * argument is a pointer to its 128 bytes). */
TILE_RUNTIME_API int32_t tileLaunchKernel(void *function, const uint32_t *grid,
                                          const uint32_t *block,
                                          const uint32_t *cluster,
                                          uint32_t smemBytes, void *stream,
                                          void **params);

/* cuStreamSynchronize; reports asynchronous kernel faults. */
TILE_RUNTIME_API int32_t tileStreamSynchronize(void *stream);

/* Stream-ordered device memory (what tile-compile makes of gpu.alloc async
 * and gpu.dealloc async): cuMemAllocFromPoolAsync and cuMemFreeAsync on
 * `stream` (a CUstream; NULL is the legacy default stream, PyTorch's
 * default), from a memory pool the runtime creates for the current
 * context's device on first use and keeps for the process. The memory may
 * be used by work on that stream after the allocation and before the free;
 * the host does not wait, and a free followed by an allocation on the same
 * stream reuses the memory. Inside a stream capture both become graph
 * nodes. The allocation returns NULL for 0 bytes, or after recording an
 * error (the driver's, such as CUDA_ERROR_OUT_OF_MEMORY); the free does
 * nothing for NULL. */
TILE_RUNTIME_API void *tileRuntimeMemAllocAsync(uint64_t sizeBytes,
                                                void *stream);
TILE_RUNTIME_API void tileRuntimeMemFreeAsync(void *ptr, void *stream);

/* How many freed bytes each of the runtime's pools keeps across stream, event
 * and context synchronizations (its release threshold; 256 MiB until set),
 * for the pools that exist and those created later. A device's default pool
 * keeps none, so a workspace allocated after every synchronization would be
 * mapped afresh each time. 0 hands every freed byte back to the driver at the
 * next synchronization. TILE_SUCCESS, or TILE_ERROR_DRIVER with the driver's
 * message when a pool refuses the value. */
TILE_RUNTIME_API int32_t tileRuntimeMemPoolKeep(uint64_t bytes);

/*===----------------------------------------------------------------------===
 * MLIR 22 gpu-to-llvm ABI (upstream libmlir_cuda_runtime's entry points)
 *
 * Signatures match the calls that `mlir-opt --gpu-to-llvm` and
 * `mlir-translate --mlir-to-llvmir` emit. They return nothing (or NULL on
 * failure), so errors go to the last-error message and the sticky status.
 * Without a driver they do nothing, return NULL and record
 * TILE_ERROR_NO_DRIVER; in particular the module-loading global constructor
 * is harmless.
 *===----------------------------------------------------------------------===*/

TILE_RUNTIME_API void *mgpuModuleLoad(void *data, size_t gpuBlobSize);
TILE_RUNTIME_API void *mgpuModuleLoadJIT(void *data, int optLevel);
TILE_RUNTIME_API void mgpuModuleUnload(void *module);
TILE_RUNTIME_API void *mgpuModuleGetFunction(void *module, const char *name);
TILE_RUNTIME_API void mgpuLaunchKernel(void *function, intptr_t gridX,
                                       intptr_t gridY, intptr_t gridZ,
                                       intptr_t blockX, intptr_t blockY,
                                       intptr_t blockZ, int32_t smem,
                                       void *stream, void **params,
                                       void **extra, size_t paramsCount);
/* MLIR 22 passes 14 arguments (no paramsCount); the 15th parameter is kept
 * for source compatibility with upstream's wrapper and is never read. */
TILE_RUNTIME_API void
mgpuLaunchClusterKernel(void *function, intptr_t clusterX, intptr_t clusterY,
                        intptr_t clusterZ, intptr_t gridX, intptr_t gridY,
                        intptr_t gridZ, intptr_t blockX, intptr_t blockY,
                        intptr_t blockZ, int32_t smem, void *stream,
                        void **params, void **extra, size_t paramsCount);
TILE_RUNTIME_API void *mgpuStreamCreate(void);
TILE_RUNTIME_API void mgpuStreamDestroy(void *stream);
TILE_RUNTIME_API void mgpuStreamSynchronize(void *stream);
TILE_RUNTIME_API void mgpuStreamWaitEvent(void *stream, void *event);
TILE_RUNTIME_API void *mgpuEventCreate(void);
TILE_RUNTIME_API void mgpuEventDestroy(void *event);
TILE_RUNTIME_API void mgpuEventSynchronize(void *event);
TILE_RUNTIME_API void mgpuEventRecord(void *event, void *stream);
/* Synchronous, as upstream's: cuMemAlloc (cuMemAllocManaged where
 * isHostShared) and cuMemFree, the stream ignored. tile-compile lowers
 * gpu.alloc async and gpu.dealloc async to the stream-ordered
 * tileRuntimeMemAllocAsync and tileRuntimeMemFreeAsync instead. */
TILE_RUNTIME_API void *mgpuMemAlloc(uint64_t sizeBytes, void *stream,
                                    bool isHostShared);
TILE_RUNTIME_API void mgpuMemFree(void *ptr, void *stream);
TILE_RUNTIME_API void mgpuMemcpy(void *dst, void *src, size_t sizeBytes,
                                 void *stream);
TILE_RUNTIME_API void mgpuMemset32(void *dst, unsigned int value, size_t count,
                                   void *stream);
TILE_RUNTIME_API void mgpuMemset16(void *dst, unsigned short value,
                                   size_t count, void *stream);
/* Upstream's TMA descriptor entry point (nvgpu.tma.create.descriptor): encodes
 * a tiled map for the memref descriptor `rankedDescriptor` of `tensorRank`
 * dimensions and box `inputBoxDims` (outermost first) and returns the address
 * of a device copy, shared by identical maps and kept for the process's
 * lifetime. NULL after recording an error (an invalid map, a non-unit
 * innermost stride, a driver failure). */
TILE_RUNTIME_API void *
mgpuTensorMapEncodeTiledMemref(int64_t tensorRank, void *rankedDescriptor,
                               int64_t tensorDataType, int64_t interleave,
                               int64_t swizzle, int64_t l2Promotion,
                               int64_t oobFill, int64_t *inputBoxDims);
/* Device whose primary context is used by threads that have no current
 * context; also makes that context current on the calling thread. */
TILE_RUNTIME_API void mgpuSetDefaultDevice(int32_t device);

/*===----------------------------------------------------------------------===
 * Testing hooks (CPU tests without a driver)
 *===----------------------------------------------------------------------===*/

/* Same shape as cuTensorMapEncodeTiled; returns a CUresult value. */
typedef int32_t (*TileTensorMapEncodeHook)(
    void *map128, int32_t dataType, uint32_t rank, void *globalAddress,
    const uint64_t *globalDim, const uint64_t *globalStridesBytes,
    const uint32_t *boxDim, const uint32_t *elementStrides, int32_t interleave,
    int32_t swizzle, int32_t l2Promotion, int32_t oobFill);

/* Replaces the driver's encoder (NULL restores it). With a hook installed the
 * tensor-map functions need no driver. */
TILE_RUNTIME_API void
tileRuntimeSetEncodeHookForTesting(TileTensorMapEncodeHook hook);

/* Same shape as cuTensorMapEncodeIm2col; returns a CUresult value. */
typedef int32_t (*TileTensorMapEncodeIm2colHook)(
    void *map, int32_t dataType, uint32_t rank, void *globalAddress,
    const uint64_t *globalDim, const uint64_t *globalStrides,
    const int32_t *lower, const int32_t *upper, uint32_t channelsPerPixel,
    uint32_t pixelsPerColumn, const uint32_t *elementStrides,
    int32_t interleave, int32_t swizzle, int32_t l2Promotion, int32_t oobFill);

/* Replaces the driver's im2col encoder (NULL restores it); independent of
 * the tiled hook. */
TILE_RUNTIME_API void
tileRuntimeSetEncodeIm2colHookForTesting(TileTensorMapEncodeIm2colHook hook);

/* Overrides the version tileRuntimeDriverVersion reports and the defect patch
 * uses; a negative value restores the driver's. Without a driver and without
 * an override, the version is 0 (so the patch rule applies). */
TILE_RUNTIME_API void tileRuntimeSetDriverVersionForTesting(int32_t version);

/* Loads the driver from path instead of "libcuda.so.1". Only effective before
 * the first driver use in the process. */
TILE_RUNTIME_API void tileRuntimeSetDriverLibraryForTesting(const char *path);

#ifdef __cplusplus
}
#endif

#endif /* TILE_RUNTIME_TILERUNTIME_H */
