//===- MemoryPool.cpp - The runtime's stream-ordered memory pools ---------===//

#include "MemoryPool.h"

#include <mutex>

using namespace tile::runtime;

namespace {

constexpr int kMaxDevices = 64;
constexpr uint64_t kDefaultKeepBytes = 256ull << 20;

std::mutex poolsMutex;
cu::MemoryPool pools[kMaxDevices];
uint64_t keepBytes = kDefaultKeepBytes;

bool setThreshold(const char *where, const DriverApi &api, cu::MemoryPool pool,
                  uint64_t bytes) {
  cu::Result result =
      api.cuMemPoolSetAttribute(pool, cu::kMemPoolAttrReleaseThreshold, &bytes);
  if (result == cu::kSuccess)
    return true;
  setDriverError(where, "cuMemPoolSetAttribute", result);
  return false;
}

} // namespace

bool tile::runtime::currentDevicePool(const char *where, const DriverApi &api,
                                      cu::MemoryPool *pool) {
  cu::Device device = 0;
  cu::Result result = api.cuCtxGetDevice(&device);
  if (result != cu::kSuccess) {
    setDriverError(where, "cuCtxGetDevice", result);
    return false;
  }
  if (device < 0 || device >= kMaxDevices) {
    setError(TILE_ERROR_INVALID_VALUE,
             "%s: device %d is beyond the runtime's %d memory pools", where,
             device, kMaxDevices);
    return false;
  }
  std::lock_guard<std::mutex> lock(poolsMutex);
  if (pools[device]) {
    *pool = pools[device];
    return true;
  }
  cu::MemPoolProps props = {};
  props.allocType = cu::kMemAllocationTypePinned;
  props.location.type = cu::kMemLocationTypeDevice;
  props.location.id = device;
  cu::MemoryPool created = nullptr;
  result = api.cuMemPoolCreate(&created, &props);
  if (result != cu::kSuccess) {
    setDriverError(where, "cuMemPoolCreate", result);
    return false;
  }
  // A pool whose threshold cannot be set still allocates; it only keeps
  // less. The failure is recorded all the same.
  setThreshold(where, api, created, keepBytes);
  pools[device] = created;
  *pool = created;
  return true;
}

extern "C" int32_t tileRuntimeMemPoolKeep(uint64_t bytes) {
  const char *where = "tileRuntimeMemPoolKeep";
  std::lock_guard<std::mutex> lock(poolsMutex);
  keepBytes = bytes;
  const DriverApi *api = loadedDriver();
  if (!api)
    return TILE_SUCCESS; // no pool exists yet
  for (cu::MemoryPool pool : pools)
    if (pool && !setThreshold(where, *api, pool, bytes))
      return TILE_ERROR_DRIVER;
  return TILE_SUCCESS;
}
