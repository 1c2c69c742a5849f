//===- Error.cpp - Thread-local last-error channel ------------------------===//

#include "Error.h"
#include "DriverApi.h"

#include "tile/Runtime/TileRuntime.h"

#include <cstdarg>
#include <cstdio>
#include <cstring>

using namespace tile::runtime;

namespace {
constexpr size_t kMessageCapacity = 1024;
thread_local char lastMessage[kMessageCapacity];
thread_local int32_t stickyStatus = TILE_SUCCESS;
} // namespace

// The latest failure wins both the status and the message, so the two always
// describe the same failure; successful calls change neither.
int32_t tile::runtime::setError(int32_t status, const char *format, ...) {
  va_list args;
  va_start(args, format);
  vsnprintf(lastMessage, kMessageCapacity, format, args);
  va_end(args);
  stickyStatus = status;
  return status;
}

const char *tile::runtime::driverErrorName(cu::Result result) {
  if (const DriverApi *api = loadedDriver()) {
    const char *name = nullptr;
    if (api->cuGetErrorName(result, &name) == cu::kSuccess && name)
      return name;
  }
  switch (result) {
  case 0:
    return "CUDA_SUCCESS";
  case 1:
    return "CUDA_ERROR_INVALID_VALUE";
  case 2:
    return "CUDA_ERROR_OUT_OF_MEMORY";
  case 3:
    return "CUDA_ERROR_NOT_INITIALIZED";
  case 4:
    return "CUDA_ERROR_DEINITIALIZED";
  case 34:
    return "CUDA_ERROR_STUB_LIBRARY";
  case 100:
    return "CUDA_ERROR_NO_DEVICE";
  case 101:
    return "CUDA_ERROR_INVALID_DEVICE";
  case 200:
    return "CUDA_ERROR_INVALID_IMAGE";
  case 201:
    return "CUDA_ERROR_INVALID_CONTEXT";
  case 209:
    return "CUDA_ERROR_NO_BINARY_FOR_GPU";
  case 218:
    return "CUDA_ERROR_INVALID_PTX";
  case 222:
    return "CUDA_ERROR_UNSUPPORTED_PTX_VERSION";
  case 400:
    return "CUDA_ERROR_INVALID_HANDLE";
  case 500:
    return "CUDA_ERROR_NOT_FOUND";
  case 700:
    return "CUDA_ERROR_ILLEGAL_ADDRESS";
  case 701:
    return "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES";
  case 719:
    return "CUDA_ERROR_LAUNCH_FAILED";
  case 803:
    return "CUDA_ERROR_SYSTEM_DRIVER_MISMATCH";
  case 999:
    return "CUDA_ERROR_UNKNOWN";
  default:
    return "CUDA_ERROR_UNKNOWN_CODE";
  }
}

int32_t tile::runtime::setDriverError(const char *where, const char *call,
                                      cu::Result result) {
  int32_t status = result == cu::kErrorOutOfMemory ? TILE_ERROR_OUT_OF_MEMORY
                                                   : TILE_ERROR_DRIVER;
  return setError(status, "%s: %s failed: %s (%d)", where, call,
                  driverErrorName(result), result);
}

extern "C" {

const char *tileRuntimeLastError(void) { return lastMessage; }

int32_t tileRuntimeGetLastError(char *buf, size_t size) {
  size_t length = strlen(lastMessage);
  if (buf && size > 0) {
    size_t n = length < size - 1 ? length : size - 1;
    memcpy(buf, lastMessage, n);
    buf[n] = '\0';
  }
  return static_cast<int32_t>(length);
}

void tileRuntimeClearError(void) {
  lastMessage[0] = '\0';
  stickyStatus = TILE_SUCCESS;
}

int32_t tileRuntimeGetStatus(void) { return stickyStatus; }

int32_t tileRuntimeConsumeStatus(void) {
  int32_t status = stickyStatus;
  stickyStatus = TILE_SUCCESS;
  return status;
}

const char *tileRuntimeStatusName(int32_t status) {
  switch (status) {
  case TILE_SUCCESS:
    return "TILE_SUCCESS";
  case TILE_ERROR_INVALID_VALUE:
    return "TILE_ERROR_INVALID_VALUE";
  case TILE_ERROR_NO_DRIVER:
    return "TILE_ERROR_NO_DRIVER";
  case TILE_ERROR_DRIVER:
    return "TILE_ERROR_DRIVER";
  case TILE_ERROR_OUT_OF_MEMORY:
    return "TILE_ERROR_OUT_OF_MEMORY";
  default:
    return "TILE_ERROR_UNKNOWN";
  }
}

} // extern "C"
