//===- MemoryPool.cpp - The runtime's stream-ordered memory pools ---------===//

#include "MemoryPool.h"

#include <atomic>
#include <mutex>

using namespace tile::runtime;

namespace {

constexpr int kMaxDevices = 64;
constexpr uint64_t kDefaultKeepBytes = 256ull << 20;

// Read without the mutex on every allocation; written once per device, with
// it held.
std::atomic<cu::MemoryPool> pools[kMaxDevices];
std::mutex poolsMutex; // creation and the kept amount
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

/// Creates device `device`'s pool keeping keepBytes; null after recording
/// the driver's error (a pool that refuses the amount is destroyed: it
/// would keep nothing, as the default pool). Call with the mutex held.
cu::MemoryPool createPool(const char *where, const DriverApi &api,
                          cu::Device device) {
  cu::MemPoolProps props = {};
  props.allocType = cu::kMemAllocationTypePinned;
  props.location.type = cu::kMemLocationTypeDevice;
  props.location.id = device;
  cu::MemoryPool pool = nullptr;
  cu::Result result = api.cuMemPoolCreate(&pool, &props);
  if (result != cu::kSuccess) {
    setDriverError(where, "cuMemPoolCreate", result);
    return nullptr;
  }
  if (!setThreshold(where, api, pool, keepBytes)) {
    api.cuMemPoolDestroy(pool);
    return nullptr;
  }
  return pool;
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
  *pool = pools[device].load(std::memory_order_acquire);
  if (*pool)
    return true;
  std::lock_guard<std::mutex> lock(poolsMutex);
  *pool = pools[device].load(std::memory_order_relaxed);
  if (!*pool && (*pool = createPool(where, api, device)))
    pools[device].store(*pool, std::memory_order_release);
  return *pool != nullptr;
}

extern "C" int32_t tileRuntimeMemPoolKeep(uint64_t bytes) {
  const char *where = "tileRuntimeMemPoolKeep";
  std::lock_guard<std::mutex> lock(poolsMutex);
  keepBytes = bytes;
  const DriverApi *api = loadedDriver();
  if (!api)
    return TILE_SUCCESS; // no pool exists yet
  // Every pool is told, whichever refuses; the last refusal is recorded.
  int32_t status = TILE_SUCCESS;
  for (const std::atomic<cu::MemoryPool> &entry : pools) {
    cu::MemoryPool pool = entry.load(std::memory_order_relaxed);
    if (pool && !setThreshold(where, *api, pool, bytes))
      status = TILE_ERROR_DRIVER;
  }
  return status;
}
