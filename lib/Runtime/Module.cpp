//===- Module.cpp - Module load, unload and function lookup ---------------===//

#include "DriverApi.h"
#include "Error.h"

#include "tile/Runtime/TileRuntime.h"

#include <cstdint>

using namespace tile::runtime;

namespace {

constexpr int kDefaultOptLevel = -1;
constexpr int kMaxOptLevel = 4;
constexpr unsigned kJitLogBytes = 4096;

/// Loads a cubin, fatbin or PTX image; the JIT error log, when the driver
/// writes one, is appended to the message.
int32_t loadModule(const char *where, void **module, const void *image,
                   int optLevel) {
  if (!module)
    return setError(TILE_ERROR_INVALID_VALUE, "%s: module is NULL", where);
  *module = nullptr;
  if (!image)
    return setError(TILE_ERROR_INVALID_VALUE, "%s: image is NULL", where);
  if (optLevel != kDefaultOptLevel && (optLevel < 0 || optLevel > kMaxOptLevel))
    return setError(TILE_ERROR_INVALID_VALUE,
                    "%s: optLevel = %d is outside 0..%d", where, optLevel,
                    kMaxOptLevel);
  const DriverApi *api = nullptr;
  if (int32_t status = getDriverWithContext(where, &api))
    return status;

  char errorLog[kJitLogBytes] = {};
  int options[3] = {cu::kJitErrorLogBuffer, cu::kJitErrorLogBufferSizeBytes,
                    cu::kJitOptimizationLevel};
  void *values[3] = {errorLog,
                     reinterpret_cast<void *>(uintptr_t(kJitLogBytes)),
                     reinterpret_cast<void *>(intptr_t(optLevel))};
  unsigned numOptions = optLevel == kDefaultOptLevel ? 2 : 3;
  cu::Module handle = nullptr;
  cu::Result result =
      api->cuModuleLoadDataEx(&handle, image, numOptions, options, values);
  if (result != cu::kSuccess) {
    errorLog[kJitLogBytes - 1] = '\0';
    int32_t status = result == cu::kErrorOutOfMemory ? TILE_ERROR_OUT_OF_MEMORY
                                                     : TILE_ERROR_DRIVER;
    return setError(status, "%s: cuModuleLoadDataEx failed: %s (%d)%s%s", where,
                    driverErrorName(result), result, errorLog[0] ? ": " : "",
                    errorLog);
  }
  *module = handle;
  return TILE_SUCCESS;
}

int32_t unloadModule(const char *where, void *module) {
  if (!module)
    return TILE_SUCCESS;
  const DriverApi *api = nullptr;
  if (int32_t status = getDriverWithContext(where, &api))
    return status;
  cu::Result result = api->cuModuleUnload(static_cast<cu::Module>(module));
  if (result != cu::kSuccess)
    return setDriverError(where, "cuModuleUnload", result);
  return TILE_SUCCESS;
}

int32_t getFunction(const char *where, void **function, void *module,
                    const char *name) {
  if (!function)
    return setError(TILE_ERROR_INVALID_VALUE, "%s: function is NULL", where);
  *function = nullptr;
  if (!module)
    return setError(TILE_ERROR_INVALID_VALUE, "%s: module is NULL", where);
  if (!name)
    return setError(TILE_ERROR_INVALID_VALUE, "%s: name is NULL", where);
  const DriverApi *api = nullptr;
  if (int32_t status = getDriverWithContext(where, &api))
    return status;
  cu::Function handle = nullptr;
  cu::Result result =
      api->cuModuleGetFunction(&handle, static_cast<cu::Module>(module), name);
  if (result != cu::kSuccess)
    return setError(TILE_ERROR_DRIVER,
                    "%s: cuModuleGetFunction(\"%s\") failed: %s (%d)", where,
                    name, driverErrorName(result), result);
  *function = handle;
  return TILE_SUCCESS;
}

} // namespace

extern "C" {

int32_t tileModuleLoad(void **module, const void *image, size_t size) {
  (void)size; // the driver finds the image's extent itself
  return loadModule("tileModuleLoad", module, image, kDefaultOptLevel);
}

int32_t tileModuleUnload(void *module) {
  return unloadModule("tileModuleUnload", module);
}

int32_t tileModuleGetFunction(void **function, void *module, const char *name) {
  return getFunction("tileModuleGetFunction", function, module, name);
}

void *mgpuModuleLoad(void *data, size_t gpuBlobSize) {
  (void)gpuBlobSize;
  void *module = nullptr;
  loadModule("mgpuModuleLoad", &module, data, kDefaultOptLevel);
  return module;
}

void *mgpuModuleLoadJIT(void *data, int optLevel) {
  void *module = nullptr;
  loadModule("mgpuModuleLoadJIT", &module, data, optLevel);
  return module;
}

void mgpuModuleUnload(void *module) {
  unloadModule("mgpuModuleUnload", module);
}

void *mgpuModuleGetFunction(void *module, const char *name) {
  void *function = nullptr;
  getFunction("mgpuModuleGetFunction", &function, module, name);
  return function;
}

} // extern "C"
