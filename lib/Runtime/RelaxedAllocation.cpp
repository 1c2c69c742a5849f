//===- RelaxedAllocation.cpp - cuMemAlloc that a stream capture allows ----===//

#include "RelaxedAllocation.h"
#include "Error.h"

#include <cinttypes>
#include <cstdio>

using namespace tile::runtime;

int32_t tile::runtime::allocateRelaxed(const DriverApi *api, const char *where,
                                       uint64_t requested, uint64_t bytes,
                                       cu::DevicePtr *array) {
  *array = 0;
  int mode = cu::kStreamCaptureModeRelaxed;
  cu::Result result = api->cuThreadExchangeStreamCaptureMode(&mode);
  if (result != cu::kSuccess)
    return setDriverError(where, "cuThreadExchangeStreamCaptureMode", result);
  char call[64] = "cuMemAlloc";
  if (bytes != requested)
    snprintf(call, sizeof(call), "cuMemAlloc(%" PRIu64 " bytes)", bytes);
  int32_t status = TILE_SUCCESS;
  cu::DevicePtr allocated = 0;
  result = api->cuMemAlloc(&allocated, bytes);
  if (result != cu::kSuccess)
    status = setDriverError(where, call, result);
  else if (allocated == 0)
    status =
        setError(TILE_ERROR_DRIVER, "%s: %s returned address 0", where, call);
  else
    *array = allocated;
  // `mode` holds the previous mode now; exchanging again puts it back.
  result = api->cuThreadExchangeStreamCaptureMode(&mode);
  if (result != cu::kSuccess)
    status = setDriverError(
        where, "cuThreadExchangeStreamCaptureMode (restoring the mode)",
        result);
  return status;
}
