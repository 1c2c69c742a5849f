//===- Memory.cpp - Device memory (mgpu* entry points) --------------------===//

#include "DriverApi.h"
#include "Error.h"
#include "MemoryPool.h"

#include "tile/Runtime/TileRuntime.h"

using namespace tile::runtime;

namespace {

cu::DevicePtr devicePtr(void *ptr) {
  return static_cast<cu::DevicePtr>(reinterpret_cast<uintptr_t>(ptr));
}

int32_t check(const char *where, const char *call, cu::Result result) {
  return result == cu::kSuccess ? TILE_SUCCESS
                                : setDriverError(where, call, result);
}

} // namespace

extern "C" {

void *mgpuMemAlloc(uint64_t sizeBytes, void *stream, bool isHostShared) {
  (void)stream; // allocation is synchronous, as upstream's
  const char *where = "mgpuMemAlloc";
  const DriverApi *api = nullptr;
  if (getDriverWithContext(where, &api))
    return nullptr;
  if (sizeBytes == 0)
    return nullptr;
  cu::DevicePtr ptr = 0;
  if (isHostShared) {
    if (check(where, "cuMemAllocManaged",
              api->cuMemAllocManaged(&ptr, sizeBytes, cu::kMemAttachGlobal)))
      return nullptr;
  } else if (check(where, "cuMemAlloc", api->cuMemAlloc(&ptr, sizeBytes))) {
    return nullptr;
  }
  return reinterpret_cast<void *>(static_cast<uintptr_t>(ptr));
}

void mgpuMemFree(void *ptr, void *stream) {
  (void)stream;
  if (!ptr)
    return;
  const char *where = "mgpuMemFree";
  const DriverApi *api = nullptr;
  if (getDriverWithContext(where, &api))
    return;
  check(where, "cuMemFree", api->cuMemFree(devicePtr(ptr)));
}

void *tileRuntimeMemAllocAsync(uint64_t sizeBytes, void *stream) {
  const char *where = "tileRuntimeMemAllocAsync";
  const DriverApi *api = nullptr;
  if (getDriverWithContext(where, &api) || sizeBytes == 0)
    return nullptr;
  cu::MemoryPool pool = nullptr;
  if (!currentDevicePool(where, *api, &pool))
    return nullptr;
  cu::DevicePtr ptr = 0;
  if (check(where, "cuMemAllocFromPoolAsync",
            api->cuMemAllocFromPoolAsync(&ptr, sizeBytes, pool,
                                         static_cast<cu::Stream>(stream))))
    return nullptr;
  return reinterpret_cast<void *>(static_cast<uintptr_t>(ptr));
}

void tileRuntimeMemFreeAsync(void *ptr, void *stream) {
  if (!ptr)
    return;
  const char *where = "tileRuntimeMemFreeAsync";
  const DriverApi *api = nullptr;
  if (getDriverWithContext(where, &api))
    return;
  check(where, "cuMemFreeAsync",
        api->cuMemFreeAsync(devicePtr(ptr), static_cast<cu::Stream>(stream)));
}

void mgpuMemcpy(void *dst, void *src, size_t sizeBytes, void *stream) {
  const char *where = "mgpuMemcpy";
  const DriverApi *api = nullptr;
  if (getDriverWithContext(where, &api) || sizeBytes == 0)
    return;
  check(where, "cuMemcpyAsync",
        api->cuMemcpyAsync(devicePtr(dst), devicePtr(src), sizeBytes,
                           static_cast<cu::Stream>(stream)));
}

void mgpuMemset32(void *dst, unsigned int value, size_t count, void *stream) {
  const char *where = "mgpuMemset32";
  const DriverApi *api = nullptr;
  if (getDriverWithContext(where, &api) || count == 0)
    return;
  check(where, "cuMemsetD32Async",
        api->cuMemsetD32Async(devicePtr(dst), value, count,
                              static_cast<cu::Stream>(stream)));
}

void mgpuMemset16(void *dst, unsigned short value, size_t count, void *stream) {
  const char *where = "mgpuMemset16";
  const DriverApi *api = nullptr;
  if (getDriverWithContext(where, &api) || count == 0)
    return;
  check(where, "cuMemsetD16Async",
        api->cuMemsetD16Async(devicePtr(dst), value, count,
                              static_cast<cu::Stream>(stream)));
}

} // extern "C"
