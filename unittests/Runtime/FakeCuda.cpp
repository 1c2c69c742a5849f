//===- FakeCuda.cpp - A fake libcuda for CPU tests of the driver paths ----===//
//
// Implements just the entry points the runtime resolves, with plausible
// handles and failures on request: module images starting with "bad" fail
// with a JIT log, function "missing" is not found, shared memory above the
// fake device's 232448-byte opt-in limit is refused, allocations above 1 TiB
// run out of memory, and allocations and frees fail while a test pretends a
// stream is being captured in global mode and the thread's capture mode is not
// relaxed. The capture mode is per thread, as the driver's.
//
//===----------------------------------------------------------------------===//

#include "FakeCuda.h"

#include <algorithm>
#include <cstdarg>
#include <cstdio>
#include <cstring>

#ifndef FAKE_CUINIT_RESULT
#define FAKE_CUINIT_RESULT 0
#endif

namespace {
FakeCudaState state;
thread_local void *currentContext = nullptr;
thread_local int captureMode = 0; // CU_STREAM_CAPTURE_MODE_GLOBAL
constexpr int kOptinSmem = 232448;
constexpr int kCaptureModeRelaxed = 2;
constexpr int kErrorStreamCaptureUnsupported = 900;

/// Appends to `log` (one of the state's logs), dropping what does not fit.
template <size_t N>
__attribute__((format(printf, 2, 3))) void appendTo(char (&log)[N],
                                                    const char *format, ...) {
  size_t used = strlen(log);
  if (used + 1 >= N)
    return;
  va_list args;
  va_start(args, format);
  vsnprintf(log + used, N - used, format, args);
  va_end(args);
}

/// Appends a launch to state.launchLog: the function last looked up (the
/// entries look a kernel up before each launch), its grid and block.
void logLaunch(const unsigned grid[3], const unsigned block[3]) {
  appendTo(state.launchLog, "%s (%u,%u,%u)x(%u,%u,%u); ",
           state.lastFunctionName ? state.lastFunctionName : "?", grid[0],
           grid[1], grid[2], block[0], block[1], block[2]);
}

bool captureForbidsMemory() {
  return state.capturing && captureMode != kCaptureModeRelaxed;
}

template <typename T>
T handle(uintptr_t value) {
  return reinterpret_cast<T>(value);
}
} // namespace

#define API extern "C" __attribute__((visibility("default"))) int

extern "C" __attribute__((visibility("default")))
FakeCudaState *fakeCudaState() {
  return &state;
}

// The pools' fields past the prefix python/tests/fake_driver.py mirrors:
// pools created, the last one's device, the last release threshold set.
extern "C" __attribute__((visibility("default"))) void
fakeCudaPools(int *creates, int *device, uint64_t *threshold) {
  *creates = state.poolCreates;
  *device = state.lastPoolDevice;
  *threshold = state.poolThreshold;
}

API cuInit(unsigned) {
  ++state.initCalls;
  return FAKE_CUINIT_RESULT;
}
API cuDriverGetVersion(int *version) {
  *version = 13000;
  return 0;
}
API cuGetErrorName(int error, const char **name) {
  switch (error) {
  case 1:
    *name = "CUDA_ERROR_INVALID_VALUE";
    return 0;
  case 2:
    *name = "CUDA_ERROR_OUT_OF_MEMORY";
    return 0;
  case 100:
    *name = "CUDA_ERROR_NO_DEVICE";
    return 0;
  case 101:
    *name = "CUDA_ERROR_INVALID_DEVICE";
    return 0;
  case 218:
    *name = "CUDA_ERROR_INVALID_PTX";
    return 0;
  case 500:
    *name = "CUDA_ERROR_NOT_FOUND";
    return 0;
  case 900:
    *name = "CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED";
    return 0;
  default:
    *name = nullptr;
    return 1;
  }
}
API cuDeviceGet(int *device, int ordinal) {
  if (ordinal < 0 || ordinal > 1)
    return 101;
  *device = ordinal;
  return 0;
}
API cuDeviceGetAttribute(int *value, int attribute, int) {
  *value = attribute == 97 ? kOptinSmem : 0;
  return 0;
}
API cuDevicePrimaryCtxRetain(void **context, int device) {
  *context = handle<void *>(0x1000 + device);
  return 0;
}
API cuCtxGetCurrent(void **context) {
  *context = currentContext;
  return 0;
}
API cuCtxSetCurrent(void *context) {
  // Atomic: threads without a context each make the primary one current.
  __atomic_fetch_add(&state.contextSets, 1, __ATOMIC_RELAXED);
  __atomic_store_n(&state.lastDevice,
                   int(reinterpret_cast<uintptr_t>(context) - 0x1000),
                   __ATOMIC_RELAXED);
  currentContext = context;
  return 0;
}
// The device of the current context (a primary context is 0x1000 + its
// device), else 0.
API cuCtxGetDevice(int *device) {
  *device = currentContext
                ? int(reinterpret_cast<uintptr_t>(currentContext) - 0x1000)
                : 0;
  return 0;
}
API cuTensorMapEncodeTiled(void *map, int, unsigned rank, void *address,
                           const uint64_t *dims, const uint64_t *strides,
                           const unsigned *, const unsigned *, int, int, int,
                           int) {
  ++state.encodeCalls;
  state.lastEncodeRank = rank;
  state.lastEncodeAddress = reinterpret_cast<uintptr_t>(address);
  for (unsigned i = 0; i < rank && i < 5; ++i) {
    state.lastEncodeDims[i] = dims[i];
    if (i > 0)
      state.lastEncodeStrides[i - 1] = strides[i - 1];
  }
  // A rank-2 map's address, dims and row stride, for the entries' tests.
  if (rank == 2)
    appendTo(state.encodeLog, "0x%llx [%llu,%llu] %llu; ",
             (unsigned long long)reinterpret_cast<uintptr_t>(address),
             (unsigned long long)dims[0], (unsigned long long)dims[1],
             (unsigned long long)strides[0]);
  memset(map, 0xff, 128);
  return 0;
}
API cuTensorMapEncodeIm2col(void *map, int, unsigned rank, void *address,
                            const uint64_t *, const uint64_t *,
                            const int *lower, const int *upper,
                            unsigned channelsPerPixel, unsigned pixelsPerColumn,
                            const unsigned *, int, int, int, int) {
  ++state.encodeIm2colCalls;
  state.lastIm2colRank = rank;
  state.lastIm2colAddress = reinterpret_cast<uintptr_t>(address);
  for (unsigned i = 0; i + 2 < rank && i < 3; ++i) {
    state.lastIm2colLower[i] = lower[i];
    state.lastIm2colUpper[i] = upper[i];
  }
  state.lastIm2colChannels = channelsPerPixel;
  state.lastIm2colPixels = pixelsPerColumn;
  memset(map, 0xee, 128);
  return 0;
}
API cuModuleLoadDataEx(void **module, const void *image, unsigned numOptions,
                       int *options, void **values) {
  ++state.moduleLoads;
  state.lastNumOptions = numOptions;
  state.lastOptLevel = -1;
  char *log = nullptr;
  size_t logBytes = 0;
  for (unsigned i = 0; i < numOptions; ++i) {
    if (options[i] == 7)
      state.lastOptLevel = long(reinterpret_cast<intptr_t>(values[i]));
    if (options[i] == 5)
      log = static_cast<char *>(values[i]);
    if (options[i] == 6)
      logBytes = size_t(reinterpret_cast<uintptr_t>(values[i]));
  }
  if (strncmp(static_cast<const char *>(image), "bad", 3) == 0) {
    if (log && logBytes > 0)
      strncpy(log, "ptxas fatal: bad input", logBytes - 1);
    return 218;
  }
  *module = handle<void *>(0x2000);
  return 0;
}
API cuModuleUnload(void *) {
  ++state.moduleUnloads;
  return 0;
}
API cuModuleGetFunction(void **function, void *, const char *name) {
  state.lastFunctionName = name;
  if (strcmp(name, "missing") == 0)
    return 500;
  *function = handle<void *>(0x3000);
  return 0;
}
API cuFuncSetAttribute(void *, int attribute, int value) {
  ++state.funcAttributeCalls;
  state.lastFuncAttribute = attribute;
  state.lastFuncAttributeValue = value;
  return attribute == 8 && value > kOptinSmem ? 1 : 0;
}
API cuFuncGetAttribute(int *value, int attribute, void *) {
  *value = attribute == 1 ? state.staticSmem : 0;
  return 0;
}
API cuLaunchKernel(void *, unsigned gx, unsigned gy, unsigned gz, unsigned bx,
                   unsigned by, unsigned bz, unsigned smem, void *stream,
                   void **params, void **extra) {
  ++state.launches;
  state.grid[0] = gx, state.grid[1] = gy, state.grid[2] = gz;
  state.block[0] = bx, state.block[1] = by, state.block[2] = bz;
  state.smem = smem;
  state.stream = stream;
  state.params = params;
  state.extra = extra;
  logLaunch(state.grid, state.block);
  return 0;
}

struct Attribute {
  int id;
  char pad[4];
  union {
    char pad[64];
    unsigned dim[3];
  } value;
};
struct Config {
  unsigned grid[3], block[3], smem;
  void *stream;
  Attribute *attrs;
  unsigned numAttrs;
};

API cuLaunchKernelEx(const Config *config, void *, void **params,
                     void **extra) {
  ++state.launchExCalls;
  for (int i = 0; i < 3; ++i) {
    state.grid[i] = config->grid[i];
    state.block[i] = config->block[i];
    state.cluster[i] = 0;
  }
  state.smem = config->smem;
  state.stream = config->stream;
  state.numAttrs = config->numAttrs;
  for (unsigned a = 0; a < config->numAttrs; ++a)
    if (config->attrs[a].id == 4)
      for (int i = 0; i < 3; ++i)
        state.cluster[i] = config->attrs[a].value.dim[i];
  state.params = params;
  state.extra = extra;
  logLaunch(state.grid, state.block);
  return 0;
}
API cuStreamCreate(void **stream, unsigned flags) {
  ++state.streamsCreated;
  state.lastStreamFlags = flags;
  *stream = handle<void *>(0x4000);
  return 0;
}
API cuStreamDestroy_v2(void *) {
  ++state.streamsDestroyed;
  return 0;
}
API cuStreamSynchronize(void *) {
  ++state.streamSyncs;
  return 0;
}
API cuStreamWaitEvent(void *, void *, unsigned) {
  ++state.streamWaits;
  return 0;
}
API cuEventCreate(void **event, unsigned) {
  ++state.eventsCreated;
  *event = handle<void *>(0x5000);
  return 0;
}
API cuEventDestroy_v2(void *) {
  ++state.eventsDestroyed;
  return 0;
}
API cuEventSynchronize(void *) {
  ++state.eventSyncs;
  return 0;
}
API cuEventRecord(void *, void *) {
  ++state.eventRecords;
  return 0;
}
API cuMemAlloc_v2(uint64_t *ptr, size_t bytes) {
  state.lastAllocBytes = bytes;
  int result = 0;
  if (captureForbidsMemory())
    result = kErrorStreamCaptureUnsupported;
  else if (bytes > (1ull << 40))
    result = 2;
  if (result != 0) {
    appendTo(state.memoryLog, "alloc %zu = error %d; ", bytes, result);
    return result;
  }
  *ptr = 0x60000 + 0x10000 * uint64_t(state.allocs);
  ++state.allocs;
  appendTo(state.memoryLog, "alloc %zu = 0x%llx; ", bytes,
           (unsigned long long)*ptr);
  return 0;
}
API cuMemAllocManaged(uint64_t *ptr, size_t bytes, unsigned) {
  ++state.managedAllocs;
  state.lastAllocBytes = bytes;
  *ptr = 0x70000;
  return 0;
}
API cuMemFree_v2(uint64_t ptr) {
  if (captureForbidsMemory()) {
    appendTo(state.memoryLog, "free 0x%llx = error %d; ",
             (unsigned long long)ptr, kErrorStreamCaptureUnsupported);
    return kErrorStreamCaptureUnsupported;
  }
  if (state.frees >= 0 && size_t(state.frees) < sizeof(state.freed) / 8)
    state.freed[state.frees] = ptr;
  ++state.frees;
  appendTo(state.memoryLog, "free 0x%llx; ", (unsigned long long)ptr);
  return 0;
}
// The runtime's pools: cuMemPoolCreate hands out 0x9000 + the location's
// device and keeps the properties it read (or fails with poolCreateResult);
// cuMemPoolSetAttribute keeps the release threshold (attribute 4; or fails
// with poolSetAttributeResult); cuMemPoolDestroy counts.
API cuMemPoolCreate(void **pool, const FakeMemPoolProps *props) {
  ++state.poolCreates;
  state.lastPoolAllocType = props->allocType;
  state.lastPoolLocationType = props->locationType;
  state.lastPoolDevice = props->locationId;
  if (state.poolCreateResult)
    return state.poolCreateResult;
  *pool = handle<void *>(0x9000 + props->locationId);
  return 0;
}
API cuMemPoolDestroy(void *) {
  ++state.poolDestroys;
  return 0;
}
API cuMemPoolSetAttribute(void *pool, int attribute, void *value) {
  ++state.poolSetAttributes;
  if (attribute != 4 || reinterpret_cast<uintptr_t>(pool) < 0x9000)
    return 1;
  if (state.poolSetAttributeResult)
    return state.poolSetAttributeResult;
  state.poolThreshold = *static_cast<const uint64_t *>(value);
  return 0;
}
// Stream-ordered, from a pool cuMemPoolCreate made (else invalid value): the
// same pointers and refusals as cuMemAlloc_v2, logged with the stream
// ("alloc 256 on 0x10 = 0x60000; "); no capture rule (a captured
// stream-ordered allocation becomes a graph node).
API cuMemAllocFromPoolAsync(uint64_t *ptr, size_t bytes, void *pool,
                            void *stream) {
  state.lastAllocBytes = bytes;
  if (reinterpret_cast<uintptr_t>(pool) < 0x9000)
    return 1;
  if (bytes > (1ull << 40)) {
    appendTo(state.memoryLog, "alloc %zu on %p = error 2; ", bytes, stream);
    return 2;
  }
  *ptr = 0x60000 + 0x10000 * uint64_t(state.allocs);
  ++state.allocs;
  ++state.asyncAllocs;
  appendTo(state.memoryLog, "alloc %zu on %p = 0x%llx; ", bytes, stream,
           (unsigned long long)*ptr);
  return 0;
}
API cuMemFreeAsync(uint64_t ptr, void *stream) {
  if (state.frees >= 0 && size_t(state.frees) < sizeof(state.freed) / 8)
    state.freed[state.frees] = ptr;
  ++state.frees;
  ++state.asyncFrees;
  appendTo(state.memoryLog, "free 0x%llx on %p; ", (unsigned long long)ptr,
           stream);
  return 0;
}
API cuMemcpyAsync(uint64_t dst, uint64_t src, size_t bytes, void *) {
  ++state.memcpys;
  state.lastDst = dst, state.lastSrc = src, state.lastCount = bytes;
  if (state.memcpyResult)
    return state.memcpyResult;
  if (state.keepCopies) {
    state.copiedBytes = std::min(bytes, sizeof(state.copied));
    memcpy(state.copied, reinterpret_cast<const void *>(src),
           state.copiedBytes);
  }
  return 0;
}
API cuMemsetD32Async(uint64_t dst, unsigned value, size_t count,
                     void *stream) {
  if (state.memsetResult != 0)
    return state.memsetResult;
  ++state.memset32s;
  state.lastDst = dst, state.lastValue = value, state.lastCount = count;
  state.lastMemsetStream = stream;
  return 0;
}
API cuMemsetD16Async(uint64_t dst, unsigned short value, size_t count,
                     void *stream) {
  ++state.memset16s;
  state.lastDst = dst, state.lastValue = value, state.lastCount = count;
  state.lastMemsetStream = stream;
  return 0;
}
API cuThreadExchangeStreamCaptureMode(int *mode) {
  if (state.exchangeResult != 0) {
    appendTo(state.memoryLog, "mode %d -> %d = error %d; ", captureMode, *mode,
             state.exchangeResult);
    return state.exchangeResult;
  }
  appendTo(state.memoryLog, "mode %d -> %d; ", captureMode, *mode);
  int previous = captureMode;
  captureMode = *mode;
  *mode = previous;
  return 0;
}
