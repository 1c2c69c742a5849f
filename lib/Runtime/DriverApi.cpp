//===- DriverApi.cpp - The CUDA driver, loaded with dlopen ----------------===//

#include "DriverApi.h"
#include "Error.h"

#include <atomic>
#include <cstdio>
#include <cstring>
#include <dlfcn.h>
#include <pthread.h>

using namespace tile::runtime;

namespace {

constexpr size_t kReasonCapacity = 1024;
constexpr size_t kPathCapacity = 256;
constexpr int kMaxDevices = 64;

pthread_once_t loadOnce = PTHREAD_ONCE_INIT;
DriverApi driver;
std::atomic<bool> driverReady{false};
char loadFailure[kReasonCapacity] = "not loaded";
char libraryPath[kPathCapacity] = "libcuda.so.1";

std::atomic<TileTensorMapEncodeHook> encodeHook{nullptr};
std::atomic<TileTensorMapEncodeIm2colHook> encodeIm2colHook{nullptr};
std::atomic<int32_t> versionOverride{-1};

pthread_mutex_t contextMutex = PTHREAD_MUTEX_INITIALIZER;
cu::Context primaryContexts[kMaxDevices];
thread_local int32_t defaultDevice = 0;

template <typename Fn>
bool resolve(void *library, const char *name, Fn &slot) {
  slot = reinterpret_cast<Fn>(dlsym(library, name));
  if (!slot)
    snprintf(loadFailure, kReasonCapacity, "%s lacks %s (driver too old?)",
             libraryPath, name);
  return slot != nullptr;
}

// Resolves every entry point into d; false (with loadFailure set) at the
// first one the library lacks.
bool resolveAll(void *library, DriverApi &d) {
  // The _v2 names are what <cuda.h> maps the plain names to.
  return resolve(library, "cuInit", d.cuInit) &&
         resolve(library, "cuDriverGetVersion", d.cuDriverGetVersion) &&
         resolve(library, "cuGetErrorName", d.cuGetErrorName) &&
         resolve(library, "cuDeviceGet", d.cuDeviceGet) &&
         resolve(library, "cuDeviceGetAttribute", d.cuDeviceGetAttribute) &&
         resolve(library, "cuDevicePrimaryCtxRetain",
                 d.cuDevicePrimaryCtxRetain) &&
         resolve(library, "cuCtxGetCurrent", d.cuCtxGetCurrent) &&
         resolve(library, "cuCtxSetCurrent", d.cuCtxSetCurrent) &&
         resolve(library, "cuCtxGetDevice", d.cuCtxGetDevice) &&
         resolve(library, "cuTensorMapEncodeTiled", d.cuTensorMapEncodeTiled) &&
         resolve(library, "cuTensorMapEncodeIm2col",
                 d.cuTensorMapEncodeIm2col) &&
         resolve(library, "cuModuleLoadDataEx", d.cuModuleLoadDataEx) &&
         resolve(library, "cuModuleUnload", d.cuModuleUnload) &&
         resolve(library, "cuModuleGetFunction", d.cuModuleGetFunction) &&
         resolve(library, "cuFuncSetAttribute", d.cuFuncSetAttribute) &&
         resolve(library, "cuFuncGetAttribute", d.cuFuncGetAttribute) &&
         resolve(library, "cuLaunchKernel", d.cuLaunchKernel) &&
         resolve(library, "cuLaunchKernelEx", d.cuLaunchKernelEx) &&
         resolve(library, "cuStreamCreate", d.cuStreamCreate) &&
         resolve(library, "cuStreamDestroy_v2", d.cuStreamDestroy) &&
         resolve(library, "cuStreamSynchronize", d.cuStreamSynchronize) &&
         resolve(library, "cuStreamWaitEvent", d.cuStreamWaitEvent) &&
         resolve(library, "cuEventCreate", d.cuEventCreate) &&
         resolve(library, "cuEventDestroy_v2", d.cuEventDestroy) &&
         resolve(library, "cuEventSynchronize", d.cuEventSynchronize) &&
         resolve(library, "cuEventRecord", d.cuEventRecord) &&
         resolve(library, "cuMemAlloc_v2", d.cuMemAlloc) &&
         resolve(library, "cuMemAllocManaged", d.cuMemAllocManaged) &&
         resolve(library, "cuMemFree_v2", d.cuMemFree) &&
         resolve(library, "cuMemPoolCreate", d.cuMemPoolCreate) &&
         resolve(library, "cuMemPoolDestroy", d.cuMemPoolDestroy) &&
         resolve(library, "cuMemPoolSetAttribute", d.cuMemPoolSetAttribute) &&
         resolve(library, "cuMemAllocFromPoolAsync",
                 d.cuMemAllocFromPoolAsync) &&
         resolve(library, "cuMemFreeAsync", d.cuMemFreeAsync) &&
         resolve(library, "cuMemcpyAsync", d.cuMemcpyAsync) &&
         resolve(library, "cuMemsetD32Async", d.cuMemsetD32Async) &&
         resolve(library, "cuMemsetD16Async", d.cuMemsetD16Async) &&
         resolve(library, "cuThreadExchangeStreamCaptureMode",
                 d.cuThreadExchangeStreamCaptureMode);
}

// Runs cuInit; false with loadFailure set when it fails.
bool initDriver(const DriverApi &d) {
  cu::Result result = d.cuInit(0);
  if (result != cu::kSuccess) {
    const char *name = nullptr;
    if (d.cuGetErrorName(result, &name) != cu::kSuccess || !name)
      name = "CUDA_ERROR_UNKNOWN_CODE";
    snprintf(loadFailure, kReasonCapacity, "cuInit failed: %s (%d)", name,
             result);
    return false;
  }
  return true;
}

void loadDriver() {
  // RTLD_LOCAL keeps the driver's symbols out of the global namespace;
  // only the names resolveAll looks up are used.
  void *library = dlopen(libraryPath, RTLD_NOW | RTLD_LOCAL);
  if (!library) {
    const char *reason = dlerror();
    snprintf(loadFailure, kReasonCapacity, "cannot load %s: %s", libraryPath,
             reason ? reason : "unknown dlopen error");
    return;
  }
  if (!resolveAll(library, driver)) {
    dlclose(library);
    return;
  }
  // On failure the library stays open: unloading a driver that ran cuInit is
  // unsafe.
  if (!initDriver(driver))
    return;
  loadFailure[0] = '\0';
  driverReady.store(true, std::memory_order_release);
}

int32_t primaryContext(const char *where, const DriverApi *api, int32_t device,
                       cu::Context *context) {
  if (device < 0 || device >= kMaxDevices)
    return setError(TILE_ERROR_INVALID_VALUE, "%s: device %d is outside 0..%d",
                    where, device, kMaxDevices - 1);
  pthread_mutex_lock(&contextMutex);
  cu::Result result = cu::kSuccess;
  const char *call = "cuDeviceGet";
  if (!primaryContexts[device]) {
    cu::Device handle = 0;
    result = api->cuDeviceGet(&handle, device);
    if (result == cu::kSuccess) {
      call = "cuDevicePrimaryCtxRetain";
      result = api->cuDevicePrimaryCtxRetain(&primaryContexts[device], handle);
    }
  }
  *context = primaryContexts[device];
  pthread_mutex_unlock(&contextMutex);
  if (result != cu::kSuccess)
    return setDriverError(where, call, result);
  return TILE_SUCCESS;
}

} // namespace

int32_t tile::runtime::getDriver(const char *where, const DriverApi **api) {
  pthread_once(&loadOnce, loadDriver);
  if (!driverReady.load(std::memory_order_acquire)) {
    *api = nullptr;
    return setError(TILE_ERROR_NO_DRIVER, "%s: no CUDA driver: %s", where,
                    loadFailure);
  }
  *api = &driver;
  return TILE_SUCCESS;
}

const DriverApi *tile::runtime::loadedDriver() {
  return driverReady.load(std::memory_order_acquire) ? &driver : nullptr;
}

int32_t tile::runtime::getDriverWithContext(const char *where,
                                            const DriverApi **api) {
  if (int32_t status = getDriver(where, api))
    return status;
  cu::Context current = nullptr;
  cu::Result result = (*api)->cuCtxGetCurrent(&current);
  if (result != cu::kSuccess)
    return setDriverError(where, "cuCtxGetCurrent", result);
  if (current)
    return TILE_SUCCESS;
  if (int32_t status = primaryContext(where, *api, defaultDevice, &current))
    return status;
  result = (*api)->cuCtxSetCurrent(current);
  if (result != cu::kSuccess)
    return setDriverError(where, "cuCtxSetCurrent", result);
  return TILE_SUCCESS;
}

int32_t tile::runtime::getEncoder(const char *where,
                                  TileTensorMapEncodeHook *encode) {
  if (TileTensorMapEncodeHook hook =
          encodeHook.load(std::memory_order_acquire)) {
    *encode = hook;
    return TILE_SUCCESS;
  }
  const DriverApi *api = nullptr;
  *encode = nullptr;
  if (int32_t status = getDriverWithContext(where, &api))
    return status;
  *encode = api->cuTensorMapEncodeTiled;
  return TILE_SUCCESS;
}

int32_t tile::runtime::getIm2colEncoder(const char *where,
                                        TileTensorMapEncodeIm2colHook *encode) {
  if (TileTensorMapEncodeIm2colHook hook =
          encodeIm2colHook.load(std::memory_order_acquire)) {
    *encode = hook;
    return TILE_SUCCESS;
  }
  const DriverApi *api = nullptr;
  *encode = nullptr;
  if (int32_t status = getDriverWithContext(where, &api))
    return status;
  *encode = api->cuTensorMapEncodeIm2col;
  return TILE_SUCCESS;
}

int32_t tile::runtime::effectiveDriverVersion() {
  int32_t override = versionOverride.load(std::memory_order_relaxed);
  if (override >= 0)
    return override;
  // The driver's version cannot change while the process runs.
  static const int32_t driverVersion = [] {
    pthread_once(&loadOnce, loadDriver);
    int version = 0;
    if (const DriverApi *api = loadedDriver())
      if (api->cuDriverGetVersion(&version) != cu::kSuccess)
        version = 0;
    return static_cast<int32_t>(version);
  }();
  return driverVersion;
}

extern "C" {

int32_t tileRuntimeInit(void) {
  const DriverApi *api = nullptr;
  return getDriver("tileRuntimeInit", &api);
}

int32_t tileRuntimeDriverAvailable(void) {
  pthread_once(&loadOnce, loadDriver);
  return driverReady.load(std::memory_order_acquire) ? 1 : 0;
}

int32_t tileRuntimeDriverVersion(int32_t *version) {
  if (!version)
    return setError(TILE_ERROR_INVALID_VALUE,
                    "tileRuntimeDriverVersion: version is NULL");
  int32_t override = versionOverride.load(std::memory_order_relaxed);
  if (override >= 0) {
    *version = override;
    return TILE_SUCCESS;
  }
  *version = 0;
  const DriverApi *api = nullptr;
  if (int32_t status = getDriver("tileRuntimeDriverVersion", &api))
    return status;
  int value = 0;
  cu::Result result = api->cuDriverGetVersion(&value);
  if (result != cu::kSuccess)
    return setDriverError("tileRuntimeDriverVersion", "cuDriverGetVersion",
                          result);
  *version = value;
  return TILE_SUCCESS;
}

void mgpuSetDefaultDevice(int32_t device) {
  const char *where = "mgpuSetDefaultDevice";
  if (device < 0 || device >= kMaxDevices) {
    setError(TILE_ERROR_INVALID_VALUE, "%s: device %d is outside 0..%d", where,
             device, kMaxDevices - 1);
    return;
  }
  defaultDevice = device;
  const DriverApi *api = nullptr;
  cu::Context context = nullptr;
  if (getDriver(where, &api) || primaryContext(where, api, device, &context))
    return;
  cu::Result result = api->cuCtxSetCurrent(context);
  if (result != cu::kSuccess)
    setDriverError(where, "cuCtxSetCurrent", result);
}

void tileRuntimeSetEncodeHookForTesting(TileTensorMapEncodeHook hook) {
  encodeHook.store(hook, std::memory_order_release);
}

void tileRuntimeSetEncodeIm2colHookForTesting(
    TileTensorMapEncodeIm2colHook hook) {
  encodeIm2colHook.store(hook, std::memory_order_release);
}

void tileRuntimeSetDriverVersionForTesting(int32_t version) {
  versionOverride.store(version < 0 ? -1 : version, std::memory_order_relaxed);
}

void tileRuntimeSetDriverLibraryForTesting(const char *path) {
  if (path && strlen(path) < kPathCapacity)
    snprintf(libraryPath, kPathCapacity, "%s", path);
}

} // extern "C"
