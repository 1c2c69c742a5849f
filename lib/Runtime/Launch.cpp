//===- Launch.cpp - Kernel launch, with large shared memory and clusters --===//

#include "DriverApi.h"
#include "Error.h"

#include "tile/Runtime/TileRuntime.h"

#include <cinttypes>
#include <cstdint>
#include <string>

using namespace tile::runtime;

namespace {

// Above this (static plus dynamic shared memory) the kernel must opt in to
// more dynamic shared memory: the default dynamic limit is this minus the
// kernel's static shared memory (H200: 48 KiB dynamic plus an mbarrier's 8
// static bytes fails with CUDA_ERROR_INVALID_VALUE without the opt-in).
constexpr uint32_t kDefaultDynamicSmemLimit = 48 * 1024;
constexpr uint64_t kPortableClusterSize = 8;
// cuFuncSetAttribute takes the dynamic shared-memory size as an int: larger
// requests are rejected here instead of wrapping to a negative number.
constexpr uint32_t kMaxSmemBytes = INT32_MAX;

const char *const kAxis[3] = {"X", "Y", "Z"};

int32_t raiseSmemLimit(const char *where, const DriverApi *api,
                       cu::Function function, uint32_t smemBytes) {
  cu::Result result = api->cuFuncSetAttribute(
      function, cu::kFuncAttributeMaxDynamicSharedSizeBytes,
      static_cast<int>(smemBytes));
  if (result == cu::kSuccess)
    return TILE_SUCCESS;
  // Name the device's limit: the usual cause of this failure.
  int limit = -1;
  cu::Device device = 0;
  if (api->cuCtxGetDevice(&device) == cu::kSuccess)
    api->cuDeviceGetAttribute(
        &limit, cu::kDeviceAttributeMaxSharedMemoryPerBlockOptin, device);
  return setError(TILE_ERROR_DRIVER,
                  "%s: cuFuncSetAttribute(MAX_DYNAMIC_SHARED_SIZE_BYTES, %u) "
                  "failed: %s (%d); device opt-in limit %d bytes",
                  where, smemBytes, driverErrorName(result), result, limit);
}

int32_t checkGridAndBlock(const char *where, void *function,
                          const uint32_t grid[3], const uint32_t block[3],
                          uint32_t smemBytes) {
  if (!function)
    return setError(TILE_ERROR_INVALID_VALUE, "%s: function is NULL", where);
  for (int i = 0; i < 3; ++i) {
    if (grid[i] < 1)
      return setError(TILE_ERROR_INVALID_VALUE, "%s: grid%s = 0 must be >= 1",
                      where, kAxis[i]);
    if (block[i] < 1)
      return setError(TILE_ERROR_INVALID_VALUE, "%s: block%s = 0 must be >= 1",
                      where, kAxis[i]);
  }
  if (smemBytes > kMaxSmemBytes)
    return setError(TILE_ERROR_INVALID_VALUE,
                    "%s: smemBytes = %u exceeds %u, the largest dynamic "
                    "shared-memory size the driver takes",
                    where, smemBytes, kMaxSmemBytes);
  return TILE_SUCCESS;
}

// Every cluster extent is at least 1 and divides the grid's; *clusterSize
// gets the CTAs per cluster.
int32_t checkCluster(const char *where, const uint32_t grid[3],
                     const uint32_t cluster[3], uint64_t *clusterSize) {
  for (int i = 0; i < 3; ++i) {
    if (cluster[i] < 1)
      return setError(TILE_ERROR_INVALID_VALUE,
                      "%s: cluster%s = 0 must be >= 1", where, kAxis[i]);
    if (grid[i] % cluster[i] != 0)
      return setError(TILE_ERROR_INVALID_VALUE,
                      "%s: grid%s = %u is not a multiple of cluster%s = %u",
                      where, kAxis[i], grid[i], kAxis[i], cluster[i]);
    *clusterSize *= cluster[i];
  }
  return TILE_SUCCESS;
}

// Opts the kernel in to more dynamic shared memory when the default limit is
// too small for its static plus dynamic shared memory.
int32_t reserveSharedMemory(const char *where, const DriverApi *api,
                            cu::Function fn, uint32_t smemBytes) {
  int staticBytes = 0;
  if (smemBytes > 0 &&
      api->cuFuncGetAttribute(&staticBytes, cu::kFuncAttributeSharedSizeBytes,
                              fn) != cu::kSuccess)
    staticBytes = 0;
  if (uint64_t(smemBytes) + uint64_t(staticBytes) > kDefaultDynamicSmemLimit)
    if (int32_t status = raiseSmemLimit(where, api, fn, smemBytes))
      return status;
  return TILE_SUCCESS;
}

// Clusters need cuLaunchKernelEx with a cluster-dimension attribute, and an
// opt-in above the portable cluster size.
int32_t launchCluster(const char *where, const DriverApi *api, cu::Function fn,
                      const uint32_t grid[3], const uint32_t block[3],
                      const uint32_t cluster[3], uint64_t clusterSize,
                      uint32_t smemBytes, void *stream, void **params,
                      void **extra) {
  cu::Result result;
  if (clusterSize > kPortableClusterSize) {
    result = api->cuFuncSetAttribute(
        fn, cu::kFuncAttributeNonPortableClusterSizeAllowed, 1);
    if (result != cu::kSuccess)
      return setDriverError(
          where, "cuFuncSetAttribute(NON_PORTABLE_CLUSTER_SIZE_ALLOWED)",
          result);
  }
  cu::LaunchAttribute attribute = {};
  attribute.id = cu::kLaunchAttributeClusterDimension;
  attribute.value.clusterDim.x = cluster[0];
  attribute.value.clusterDim.y = cluster[1];
  attribute.value.clusterDim.z = cluster[2];
  cu::LaunchConfig config = {};
  config.gridDimX = grid[0];
  config.gridDimY = grid[1];
  config.gridDimZ = grid[2];
  config.blockDimX = block[0];
  config.blockDimY = block[1];
  config.blockDimZ = block[2];
  config.sharedMemBytes = smemBytes;
  config.hStream = static_cast<cu::Stream>(stream);
  config.attrs = &attribute;
  config.numAttrs = 1;
  result = api->cuLaunchKernelEx(&config, fn, params, extra);
  if (result != cu::kSuccess)
    return setDriverError(where, "cuLaunchKernelEx", result);
  return TILE_SUCCESS;
}

int32_t launch(const char *where, void *function, const uint32_t grid[3],
               const uint32_t block[3], const uint32_t *cluster,
               uint32_t smemBytes, void *stream, void **params, void **extra) {
  if (int32_t status =
          checkGridAndBlock(where, function, grid, block, smemBytes))
    return status;
  bool hasCluster =
      cluster && (cluster[0] > 1 || cluster[1] > 1 || cluster[2] > 1);
  uint64_t clusterSize = 1;
  if (hasCluster)
    if (int32_t status = checkCluster(where, grid, cluster, &clusterSize))
      return status;

  const DriverApi *api = nullptr;
  if (int32_t status = getDriverWithContext(where, &api))
    return status;
  auto fn = static_cast<cu::Function>(function);
  if (int32_t status = reserveSharedMemory(where, api, fn, smemBytes))
    return status;
  if (hasCluster)
    return launchCluster(where, api, fn, grid, block, cluster, clusterSize,
                         smemBytes, stream, params, extra);
  cu::Result result = api->cuLaunchKernel(
      fn, grid[0], grid[1], grid[2], block[0], block[1], block[2], smemBytes,
      static_cast<cu::Stream>(stream), params, extra);
  if (result != cu::kSuccess)
    return setDriverError(where, "cuLaunchKernel", result);
  return TILE_SUCCESS;
}

/// Narrows an MLIR index (intptr_t) to a launch dimension.
bool narrow(const char *where, const char *name, intptr_t value,
            uint32_t &out) {
  if (value < 1 || static_cast<uint64_t>(value) > UINT32_MAX) {
    setError(TILE_ERROR_INVALID_VALUE,
             "%s: %s = %" PRIdPTR " is outside 1..4294967295", where, name,
             value);
    return false;
  }
  out = static_cast<uint32_t>(value);
  return true;
}

/// Narrows the x, y, z of one launch dimension ("grid", "block", "cluster").
bool narrow3(const char *where, const char *dim, intptr_t x, intptr_t y,
             intptr_t z, uint32_t (&out)[3]) {
  const std::string base(dim);
  return narrow(where, (base + "X").c_str(), x, out[0]) &&
         narrow(where, (base + "Y").c_str(), y, out[1]) &&
         narrow(where, (base + "Z").c_str(), z, out[2]);
}

bool narrowSmem(const char *where, int32_t smem, uint32_t &out) {
  if (smem < 0) {
    setError(TILE_ERROR_INVALID_VALUE, "%s: smem = %d is negative", where,
             smem);
    return false;
  }
  out = static_cast<uint32_t>(smem);
  return true;
}

} // namespace

extern "C" {

int32_t tileLaunchKernel(void *function, const uint32_t *grid,
                         const uint32_t *block, const uint32_t *cluster,
                         uint32_t smemBytes, void *stream, void **params) {
  const char *where = "tileLaunchKernel";
  if (!grid || !block)
    return setError(TILE_ERROR_INVALID_VALUE, "%s: %s is NULL", where,
                    grid ? "block" : "grid");
  return launch(where, function, grid, block, cluster, smemBytes, stream,
                params, nullptr);
}

void mgpuLaunchKernel(void *function, intptr_t gridX, intptr_t gridY,
                      intptr_t gridZ, intptr_t blockX, intptr_t blockY,
                      intptr_t blockZ, int32_t smem, void *stream,
                      void **params, void **extra, size_t paramsCount) {
  (void)paramsCount;
  const char *where = "mgpuLaunchKernel";
  uint32_t grid[3], block[3], smemBytes;
  if (narrow3(where, "grid", gridX, gridY, gridZ, grid) &&
      narrow3(where, "block", blockX, blockY, blockZ, block) &&
      narrowSmem(where, smem, smemBytes))
    launch(where, function, grid, block, nullptr, smemBytes, stream, params,
           extra);
}

void mgpuLaunchClusterKernel(void *function, intptr_t clusterX,
                             intptr_t clusterY, intptr_t clusterZ,
                             intptr_t gridX, intptr_t gridY, intptr_t gridZ,
                             intptr_t blockX, intptr_t blockY, intptr_t blockZ,
                             int32_t smem, void *stream, void **params,
                             void **extra, size_t paramsCount) {
  (void)paramsCount; // not passed by MLIR 22: never read it
  const char *where = "mgpuLaunchClusterKernel";
  uint32_t cluster[3], grid[3], block[3], smemBytes;
  if (narrow3(where, "cluster", clusterX, clusterY, clusterZ, cluster) &&
      narrow3(where, "grid", gridX, gridY, gridZ, grid) &&
      narrow3(where, "block", blockX, blockY, blockZ, block) &&
      narrowSmem(where, smem, smemBytes))
    launch(where, function, grid, block, cluster, smemBytes, stream, params,
           extra);
}

} // extern "C"
