//===- UpstreamTensorMap.cpp - Upstream's TMA descriptor entry point
//-------===//
//
// A program written against upstream's own TMA ops creates its descriptors
// on the host with nvgpu.tma.create.descriptor, which lowers to a call of
// mgpuTensorMapEncodeTiledMemref: encode a tiled map for a memref and return
// the address of a device copy the kernel reads. This is that entry point,
// so such programs run on the tile runtime unchanged, with three differences
// from upstream's wrapper:
//
//  - the map is validated (every driver rule, as tileTensorMapEncodeTiled)
//    and a failure is recorded (tileRuntimeGetLastError) and returns null,
//    instead of aborting the process;
//  - the global address includes the memref's offset, and an innermost
//    stride other than 1 is an error (upstream ignores both);
//  - identical maps share one device copy, kept for the process's lifetime
//    (a CUDA graph that captured a launch keeps the address), instead of a
//    fresh allocation per call that is never freed.
//
// A miss allocates and copies in relaxed capture mode; a hit makes no driver
// call.
//
//===----------------------------------------------------------------------===//

#include "DriverApi.h"
#include "EntryTable.h"
#include "Error.h"
#include "TensorMap.h"

#include "tile/Runtime/TileRuntime.h"

#include <cinttypes>
#include <cstring>
#include <new>
#include <pthread.h>

using namespace tile::runtime;

namespace {

constexpr const char *kName = "mgpuTensorMapEncodeTiledMemref";
constexpr int64_t kMaxRank = 5;

constexpr size_t kInitialCapacity = 16;

/// One device copy of an encoded map in one context.
struct DeviceCopy {
  uint64_t hash;
  cu::Context context;
  alignas(64) unsigned char map[128];
  cu::DevicePtr device;
};

pthread_mutex_t mutex = PTHREAD_MUTEX_INITIALIZER;
// Never freed: graphs that captured a launch keep the copies' addresses.
EntryTable<DeviceCopy, kInitialCapacity> copies;

/// FNV-1a over the map's bytes, then the context's address.
uint64_t hashKey(cu::Context context, const unsigned char *map) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (size_t i = 0; i < 128; ++i) {
    h ^= map[i];
    h *= 0x100000001b3ull;
  }
  h ^= static_cast<uint64_t>(reinterpret_cast<uintptr_t>(context));
  h *= 0xff51afd7ed558ccdull;
  return h ^ (h >> 32);
}

/// Allocates and fills the device copy of `entry` in relaxed capture mode,
/// the thread's mode restored afterwards.
int32_t upload(const DriverApi *api, DeviceCopy *entry) {
  int mode = cu::kStreamCaptureModeRelaxed;
  cu::Result result = api->cuThreadExchangeStreamCaptureMode(&mode);
  if (result != cu::kSuccess)
    return setDriverError(kName, "cuThreadExchangeStreamCaptureMode", result);
  int32_t status = TILE_SUCCESS;
  result = api->cuMemAlloc(&entry->device, sizeof(entry->map));
  if (result != cu::kSuccess) {
    entry->device = 0;
    status = setDriverError(kName, "cuMemAlloc", result);
  } else {
    result = api->cuMemcpyAsync(
        entry->device,
        static_cast<cu::DevicePtr>(reinterpret_cast<uintptr_t>(entry->map)),
        sizeof(entry->map), nullptr);
    if (result == cu::kSuccess)
      result = api->cuStreamSynchronize(nullptr);
    if (result != cu::kSuccess) {
      status = setDriverError(kName, "cuMemcpyAsync", result);
      api->cuMemFree(entry->device);
      entry->device = 0;
    }
  }
  result = api->cuThreadExchangeStreamCaptureMode(&mode);
  if (result != cu::kSuccess && status == TILE_SUCCESS)
    status = setDriverError(
        kName, "cuThreadExchangeStreamCaptureMode (restoring the mode)",
        result);
  return status;
}

/// The device copy of `map`, shared by every call that encodes the same map
/// in the current context; null after recording an error.
void *deviceCopyOf(const unsigned char *map) {
  const DriverApi *api = nullptr;
  if (getDriverWithContext(kName, &api))
    return nullptr;
  cu::Context context = nullptr;
  cu::Result result = api->cuCtxGetCurrent(&context);
  if (result != cu::kSuccess) {
    setDriverError(kName, "cuCtxGetCurrent", result);
    return nullptr;
  }
  uint64_t hash = hashKey(context, map);
  pthread_mutex_lock(&mutex);
  DeviceCopy *entry = copies.find(hash, [&](const DeviceCopy &copy) {
    return copy.context == context && !memcmp(copy.map, map, 128);
  });
  if (!entry) {
    entry = new (std::nothrow) DeviceCopy{};
    if (!entry) {
      setError(TILE_ERROR_OUT_OF_MEMORY, "%s: out of host memory", kName);
    } else {
      entry->hash = hash;
      entry->context = context;
      memcpy(entry->map, map, sizeof(entry->map));
      if (upload(api, entry) != TILE_SUCCESS) {
        delete entry;
        entry = nullptr;
      } else if (!copies.insert(entry)) {
        setError(TILE_ERROR_OUT_OF_MEMORY, "%s: out of host memory", kName);
        api->cuMemFree(entry->device);
        delete entry;
        entry = nullptr;
      }
    }
  }
  void *address =
      entry ? reinterpret_cast<void *>(static_cast<uintptr_t>(entry->device))
            : nullptr;
  pthread_mutex_unlock(&mutex);
  return address;
}

} // namespace

extern "C" {

/// `rankedDescriptor` is a memref descriptor of `tensorRank` dimensions
/// (allocated and aligned pointers, offset, sizes, strides in elements);
/// `inputBoxDims` the box, outermost first, as nvgpu.tma.create.descriptor
/// passes it. The enums are the driver's CUtensorMap* values.
void *mgpuTensorMapEncodeTiledMemref(int64_t tensorRank, void *rankedDescriptor,
                                     int64_t tensorDataType, int64_t interleave,
                                     int64_t swizzle, int64_t l2Promotion,
                                     int64_t oobFill, int64_t *inputBoxDims) {
  if (tensorRank < 1 || tensorRank > kMaxRank) {
    setError(TILE_ERROR_INVALID_VALUE,
             "%s: tensorRank = %" PRId64 " is outside 1..%" PRId64, kName,
             tensorRank, kMaxRank);
    return nullptr;
  }
  if (!rankedDescriptor || !inputBoxDims) {
    setError(TILE_ERROR_INVALID_VALUE, "%s: %s is null", kName,
             rankedDescriptor ? "inputBoxDims" : "rankedDescriptor");
    return nullptr;
  }
  // {allocated, aligned, offset, sizes[rank], strides[rank]}
  struct Head {
    char *allocated;
    char *aligned;
    int64_t offset;
  };
  const auto *head = static_cast<const Head *>(rankedDescriptor);
  const int64_t *sizes = reinterpret_cast<const int64_t *>(head + 1);
  const int64_t *strides = sizes + tensorRank;
  uint32_t elementBytes =
      tileTensorMapElementBytes(static_cast<int32_t>(tensorDataType));
  if (elementBytes == 0) {
    setError(TILE_ERROR_INVALID_VALUE,
             "%s: dataType = %" PRId64 " has no element size", kName,
             tensorDataType);
    return nullptr;
  }
  if (strides[tensorRank - 1] != 1) {
    setError(TILE_ERROR_INVALID_VALUE,
             "%s: the innermost stride is %" PRId64
             " elements; a tensor map's innermost dimension is contiguous",
             kName, strides[tensorRank - 1]);
    return nullptr;
  }
  // The driver's order is innermost first.
  uint64_t globalDim[kMaxRank] = {}, globalStrides[kMaxRank] = {};
  uint32_t boxDim[kMaxRank] = {}, elementStrides[kMaxRank] = {};
  for (int64_t i = 0; i < tensorRank; ++i) {
    int64_t d = tensorRank - 1 - i;
    if (sizes[d] < 0 || strides[d] < 0 || inputBoxDims[d] < 0 ||
        inputBoxDims[d] > UINT32_MAX) {
      setError(TILE_ERROR_INVALID_VALUE,
               "%s: dimension %" PRId64 " has size %" PRId64 ", stride %" PRId64
               ", box %" PRId64,
               kName, d, sizes[d], strides[d], inputBoxDims[d]);
      return nullptr;
    }
    globalDim[i] = static_cast<uint64_t>(sizes[d]);
    boxDim[i] = static_cast<uint32_t>(inputBoxDims[d]);
    elementStrides[i] = 1;
    if (i > 0)
      globalStrides[i - 1] = static_cast<uint64_t>(strides[d]) * elementBytes;
  }
  TensorMapArgs args{};
  args.dataType = static_cast<int32_t>(tensorDataType);
  args.rank = static_cast<int32_t>(tensorRank);
  args.globalAddress = head->aligned + head->offset * int64_t(elementBytes);
  args.globalDim = globalDim;
  args.globalStridesBytes = globalStrides;
  args.boxDim = boxDim;
  args.elementStrides = elementStrides;
  args.interleave = static_cast<int32_t>(interleave);
  args.swizzle = static_cast<int32_t>(swizzle);
  args.l2Promotion = static_cast<int32_t>(l2Promotion);
  args.oobFill = static_cast<int32_t>(oobFill);
  alignas(64) unsigned char map[128];
  if (encodeTensorMap(kName, map, args) != TILE_SUCCESS)
    return nullptr;
  return deviceCopyOf(map);
}

} // extern "C"
