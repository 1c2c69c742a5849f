//===- RelaxedAllocation.cpp - Driver calls a stream capture allows -------===//

#include "RelaxedAllocation.h"

#include <cinttypes>
#include <cstdio>

using namespace tile::runtime;

int32_t tile::runtime::allocateArray(const DriverApi *api, const char *where,
                                     uint64_t requested, uint64_t bytes,
                                     cu::DevicePtr *array) {
  *array = 0;
  char call[64] = "cuMemAlloc";
  if (bytes != requested)
    snprintf(call, sizeof(call), "cuMemAlloc(%" PRIu64 " bytes)", bytes);
  cu::DevicePtr allocated = 0;
  cu::Result result = api->cuMemAlloc(&allocated, bytes);
  if (result != cu::kSuccess)
    return setDriverError(where, call, result);
  if (allocated == 0)
    return setError(TILE_ERROR_DRIVER, "%s: %s returned address 0", where,
                    call);
  *array = allocated;
  return TILE_SUCCESS;
}

int32_t tile::runtime::allocateRelaxed(const DriverApi *api, const char *where,
                                       uint64_t requested, uint64_t bytes,
                                       cu::DevicePtr *array) {
  *array = 0;
  return inRelaxedCaptureMode(api, where, [&] {
    return allocateArray(api, where, requested, bytes, array);
  });
}

int32_t tile::runtime::zeroArray(const DriverApi *api, const char *where,
                                 cu::DevicePtr array, uint64_t bytes) {
  return onStreamOfItsOwn(api, where, "cuMemsetD32Async",
                          [&](cu::Stream stream) {
                            return api->cuMemsetD32Async(array, 0, bytes / 4,
                                                         stream);
                          });
}

void tile::runtime::freeArray(const DriverApi *api, const char *where,
                              cu::DevicePtr array, cu::Context context,
                              cu::Context *current) {
  if (!array)
    return;
  if (current && context != *current) {
    cu::Result result = api->cuCtxSetCurrent(context);
    if (result != cu::kSuccess) {
      setDriverError(where, "cuCtxSetCurrent", result);
      return;
    }
    *current = context;
  }
  cu::Result result = api->cuMemFree(array);
  if (result != cu::kSuccess) {
    char call[64];
    snprintf(call, sizeof(call), "cuMemFree(0x%llx)",
             static_cast<unsigned long long>(array));
    setDriverError(where, call, result);
  }
}
