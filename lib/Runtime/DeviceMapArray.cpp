//===- DeviceMapArray.cpp - Device arrays for device-side tensor maps -----===//
//
// Kernels that rewrite their tensor maps on the device (tensormap.replace)
// keep them in global memory, one 128-byte slot per CTA and map. Compiled
// host code asks for the launch site's array before every launch, so a hit
// must be cheap: the current context, the stream and the site text are
// hashed and looked up in an open-addressing table under a mutex; nothing is
// allocated or formatted. Entries are keyed by (context, stream, site text)
// and own a copy of the text: launches of one site on two streams may run at
// the same time, so each stream gets its own array (a launch without a
// stream is keyed by the NULL stream).
//
// A CUDA graph that captured a launch keeps the array's address, so an array
// is never freed or moved while the process runs: a launch that needs more
// retires the site's array to a list (freed, with the live ones, only by
// tileRuntimeReleaseDeviceMapArrays) and allocates a larger one, at least
// twice the old size so that a slowly growing grid retires O(log n) arrays.
// cuMemAlloc is not permitted while a stream is being captured in global
// mode, so the allocation runs in relaxed capture mode on the calling thread
// and the thread's mode is restored afterwards.
//
//===----------------------------------------------------------------------===//

#include "DriverApi.h"
#include "EntryTable.h"
#include "Error.h"
#include "RelaxedAllocation.h"

#include "tile/Runtime/TileRuntime.h"

#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <pthread.h>

using namespace tile::runtime;

namespace {

constexpr const char *kName = "tileRuntimeDeviceMapArray";
constexpr const char *kStreamName = "tileRuntimeDeviceMapArrayOnStream";
constexpr const char *kReleaseName = "tileRuntimeReleaseDeviceMapArrays";
constexpr size_t kInitialCapacity = 16;
constexpr size_t kWhereCapacity = 512;

struct Entry {
  uint64_t hash;
  cu::Context context;
  const void *stream;  // a key only: never dereferenced or passed on
  char *site;          // owned copy, NUL-terminated
  cu::DevicePtr array; // 0 until the first allocation succeeds
  uint64_t arrayBytes;
};

/// An array a larger one replaced, kept until release.
struct Retired {
  cu::Context context;
  cu::DevicePtr array;
};

pthread_mutex_t mutex = PTHREAD_MUTEX_INITIALIZER;
EntryTable<Entry, kInitialCapacity> table;
Retired *retired = nullptr;
size_t retiredCount = 0, retiredCapacity = 0;

/// "<function>: site "<site>"[, stream <address>], <bytes> bytes", the
/// prefix of every message about one request; built only when a request
/// fails.
struct Where {
  char text[kWhereCapacity];
  Where(const char *site, const void *stream, uint64_t bytes) {
    if (stream)
      snprintf(text, kWhereCapacity,
               "%s: site \"%s\", stream %p, %" PRIu64 " bytes", kStreamName,
               site, stream, bytes);
    else
      snprintf(text, kWhereCapacity, "%s: site \"%s\", %" PRIu64 " bytes",
               kName, site, bytes);
  }
};

/// FNV-1a over the site's bytes, then the context's and the stream's
/// addresses.
uint64_t hashKey(cu::Context context, const void *stream, const char *site) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (const unsigned char *c = reinterpret_cast<const unsigned char *>(site);
       *c; ++c) {
    h ^= *c;
    h *= 0x100000001b3ull;
  }
  h ^= static_cast<uint64_t>(reinterpret_cast<uintptr_t>(context));
  h *= 0xff51afd7ed558ccdull;
  h ^= static_cast<uint64_t>(reinterpret_cast<uintptr_t>(stream));
  h *= 0xc4ceb9fe1a85ec53ull;
  return h ^ (h >> 32);
}

Entry *find(cu::Context context, const void *stream, const char *site,
            uint64_t hash) {
  return table.find(hash, [&](const Entry &entry) {
    return entry.context == context && entry.stream == stream &&
           strcmp(entry.site, site) == 0;
  });
}

void freeEntry(Entry *entry) {
  free(entry->site);
  free(entry);
}

/// The key's entry, inserted (without an array) when new; call with the mutex
/// held. Null when out of host memory.
Entry *findOrInsert(cu::Context context, const void *stream, const char *site,
                    uint64_t hash) {
  if (Entry *entry = find(context, stream, site, hash))
    return entry;
  auto *entry = static_cast<Entry *>(calloc(1, sizeof(Entry)));
  if (!entry)
    return nullptr;
  size_t length = strlen(site);
  entry->site = static_cast<char *>(malloc(length + 1));
  if (!entry->site) {
    freeEntry(entry);
    return nullptr;
  }
  memcpy(entry->site, site, length + 1);
  entry->hash = hash;
  entry->context = context;
  entry->stream = stream;
  if (!table.insert(entry)) {
    freeEntry(entry);
    return nullptr;
  }
  return entry;
}

/// Room for one more retired array; false when out of host memory.
bool reserveRetired() {
  if (retiredCount < retiredCapacity)
    return true;
  size_t capacity = retiredCapacity ? retiredCapacity * 2 : kInitialCapacity;
  auto *grown =
      static_cast<Retired *>(realloc(retired, capacity * sizeof(Retired)));
  if (!grown)
    return false;
  retired = grown;
  retiredCapacity = capacity;
  return true;
}

/// The entry's array, allocated or replaced when smaller than `bytes`; call
/// with the mutex held. Null after recording an error.
void *arrayFor(const DriverApi *api, Entry *entry, const char *site,
               uint64_t bytes) {
  if (entry->array && entry->arrayBytes >= bytes)
    return reinterpret_cast<void *>(static_cast<uintptr_t>(entry->array));
  Where where(site, entry->stream, bytes);
  uint64_t size = bytes;
  if (entry->array) {
    uint64_t doubled = entry->arrayBytes <= UINT64_MAX / 2
                           ? entry->arrayBytes * 2
                           : UINT64_MAX;
    size = doubled > bytes ? doubled : bytes;
    if (!reserveRetired()) {
      setError(TILE_ERROR_OUT_OF_MEMORY,
               "%s: out of host memory for the replaced array", where.text);
      return nullptr;
    }
  }
  cu::DevicePtr array = 0;
  int32_t status = allocateRelaxed(api, where.text, bytes, size, &array);
  if (!array)
    return nullptr; // the old array, if any, stays the site's
  if (entry->array)
    retired[retiredCount++] = Retired{entry->context, entry->array};
  entry->array = array;
  entry->arrayBytes = size;
  // After a failed restore of the capture mode the array is the site's
  // (owned, freed at release) but the call still fails.
  if (status != TILE_SUCCESS)
    return nullptr;
  return reinterpret_cast<void *>(static_cast<uintptr_t>(array));
}

} // namespace

extern "C" {

void *tileRuntimeDeviceMapArrayOnStream(const char *site, uint64_t bytes,
                                        void *stream) {
  if (!site) {
    setError(TILE_ERROR_INVALID_VALUE, "%s: site is NULL (%" PRIu64 " bytes)",
             stream ? kStreamName : kName, bytes);
    return nullptr;
  }
  if (bytes == 0) {
    setError(TILE_ERROR_INVALID_VALUE, "%s: bytes is 0",
             Where(site, stream, 0).text);
    return nullptr;
  }
  const DriverApi *api = nullptr;
  cu::Context context = nullptr;
  if (!driverAndContext(&api, &context,
                        [&] { return Where(site, stream, bytes); }))
    return nullptr;
  uint64_t hash = hashKey(context, stream, site);
  pthread_mutex_lock(&mutex);
  void *array = nullptr;
  if (Entry *entry = findOrInsert(context, stream, site, hash))
    array = arrayFor(api, entry, site, bytes);
  else
    setError(TILE_ERROR_OUT_OF_MEMORY, "%s: out of host memory for the site",
             Where(site, stream, bytes).text);
  pthread_mutex_unlock(&mutex);
  return array;
}

void *tileRuntimeDeviceMapArray(const char *site, uint64_t bytes) {
  return tileRuntimeDeviceMapArrayOnStream(site, bytes, nullptr);
}

void tileRuntimeReleaseDeviceMapArrays(void) {
  pthread_mutex_lock(&mutex);
  // Arrays exist only if the driver was loaded; without it there is only
  // host memory to free.
  const DriverApi *api = loadedDriver();
  cu::Context original = nullptr, current = nullptr;
  bool haveContext = false;
  if (api && (table.size() > 0 || retiredCount > 0)) {
    cu::Result result = api->cuCtxGetCurrent(&original);
    if (result == cu::kSuccess) {
      haveContext = true;
      current = original;
    } else {
      setDriverError(kReleaseName, "cuCtxGetCurrent", result);
      api = nullptr; // leak rather than free in an unknown context
    }
  }
  for (size_t i = 0; i < retiredCount; ++i)
    if (api)
      freeArray(api, kReleaseName, retired[i].array, retired[i].context,
                &current);
  free(retired);
  retired = nullptr;
  retiredCount = retiredCapacity = 0;
  table.clear([&](Entry *entry) {
    if (api)
      freeArray(api, kReleaseName, entry->array, entry->context, &current);
    freeEntry(entry);
  });
  if (haveContext && current != original) {
    cu::Result result = api->cuCtxSetCurrent(original);
    if (result != cu::kSuccess)
      setDriverError(kReleaseName, "cuCtxSetCurrent", result);
  }
  pthread_mutex_unlock(&mutex);
}

} // extern "C"
