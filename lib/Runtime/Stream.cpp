//===- Stream.cpp - Streams and events (mgpu* entry points) ---------------===//

#include "DriverApi.h"
#include "Error.h"

#include "tile/Runtime/TileRuntime.h"

using namespace tile::runtime;

namespace {

/// Runs call(api) when the driver is ready, recording its failure.
template <typename Call>
int32_t withDriver(const char *where, const char *name, Call call) {
  const DriverApi *api = nullptr;
  if (int32_t status = getDriverWithContext(where, &api))
    return status;
  cu::Result result = call(api);
  if (result != cu::kSuccess)
    return setDriverError(where, name, result);
  return TILE_SUCCESS;
}

} // namespace

extern "C" {

int32_t tileStreamSynchronize(void *stream) {
  return withDriver("tileStreamSynchronize", "cuStreamSynchronize",
                    [&](const DriverApi *api) {
                      return api->cuStreamSynchronize(
                          static_cast<cu::Stream>(stream));
                    });
}

void *mgpuStreamCreate(void) {
  cu::Stream stream = nullptr;
  withDriver("mgpuStreamCreate", "cuStreamCreate", [&](const DriverApi *api) {
    return api->cuStreamCreate(&stream, cu::kStreamNonBlocking);
  });
  return stream;
}

void mgpuStreamDestroy(void *stream) {
  if (!stream)
    return; // the legacy default stream is not ours to destroy
  withDriver("mgpuStreamDestroy", "cuStreamDestroy", [&](const DriverApi *api) {
    return api->cuStreamDestroy(static_cast<cu::Stream>(stream));
  });
}

void mgpuStreamSynchronize(void *stream) {
  withDriver("mgpuStreamSynchronize", "cuStreamSynchronize",
             [&](const DriverApi *api) {
               return api->cuStreamSynchronize(static_cast<cu::Stream>(stream));
             });
}

void mgpuStreamWaitEvent(void *stream, void *event) {
  if (!event) {
    setError(TILE_ERROR_INVALID_VALUE, "mgpuStreamWaitEvent: event is NULL");
    return;
  }
  withDriver("mgpuStreamWaitEvent", "cuStreamWaitEvent",
             [&](const DriverApi *api) {
               return api->cuStreamWaitEvent(static_cast<cu::Stream>(stream),
                                             static_cast<cu::Event>(event), 0);
             });
}

void *mgpuEventCreate(void) {
  cu::Event event = nullptr;
  withDriver("mgpuEventCreate", "cuEventCreate", [&](const DriverApi *api) {
    return api->cuEventCreate(&event, cu::kEventDisableTiming);
  });
  return event;
}

void mgpuEventDestroy(void *event) {
  if (!event)
    return;
  withDriver("mgpuEventDestroy", "cuEventDestroy", [&](const DriverApi *api) {
    return api->cuEventDestroy(static_cast<cu::Event>(event));
  });
}

void mgpuEventSynchronize(void *event) {
  if (!event) {
    setError(TILE_ERROR_INVALID_VALUE, "mgpuEventSynchronize: event is NULL");
    return;
  }
  withDriver("mgpuEventSynchronize", "cuEventSynchronize",
             [&](const DriverApi *api) {
               return api->cuEventSynchronize(static_cast<cu::Event>(event));
             });
}

void mgpuEventRecord(void *event, void *stream) {
  if (!event) {
    setError(TILE_ERROR_INVALID_VALUE, "mgpuEventRecord: event is NULL");
    return;
  }
  withDriver("mgpuEventRecord", "cuEventRecord", [&](const DriverApi *api) {
    return api->cuEventRecord(static_cast<cu::Event>(event),
                              static_cast<cu::Stream>(stream));
  });
}

} // extern "C"
