//===- DeviceMapArray.cpp - Device arrays kept per site and stream --------===//
//
// Two kinds of device arrays that compiled host code asks for before a
// launch, each kept by the runtime per (context, stream, site text):
//
// - Device-map arrays: kernels that rewrite their tensor maps on the device
//   (tensormap.replace) keep them in global memory, one 128-byte slot per CTA
//   and map.
// - Stream workspaces (tile.stream_workspace): a launch's scratch, such as a
//   split kernel's partial tiles and its counters. A zeroed workspace is
//   zero when allocated, and the kernels that use it leave it zero (each
//   counter reset by its last arrival), so no call zeroes it again: the
//   per-call allocation, memset and free of a workspace allocated on the
//   stream are gone.
//
// A hit must be cheap: the current context, the stream and the site text are
// hashed and looked up in an open-addressing table under a mutex; nothing is
// allocated or formatted. Entries own a copy of the text: launches of one
// site on two streams may run at the same time, so each stream gets its own
// array (a launch without a stream is keyed by the NULL stream); launches on
// one stream run in order, so they share it.
//
// A CUDA graph that captured a launch keeps the array's address, so an array
// is never freed or moved while the process runs: a launch that needs more
// retires the site's array to a list (freed, with the live ones, only by the
// kind's release function) and allocates a larger one, at least twice the
// old size so that a slowly growing grid retires O(log n) arrays.
// cuMemAlloc is not permitted while a stream is being captured in global
// mode, so the allocation (and a zeroed workspace's memset, on a stream of
// its own, waited for) runs in relaxed capture mode on the calling thread
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

constexpr size_t kInitialCapacity = 16;
constexpr size_t kWhereCapacity = 512;

struct Entry {
  uint64_t hash;
  cu::Context context;
  const void *stream;  // a key only: never dereferenced or passed on
  char *site;          // owned copy, NUL-terminated
  bool zeroed;         // a zeroed workspace (a key: the contract differs)
  cu::DevicePtr array; // 0 until the first allocation succeeds
  uint64_t arrayBytes;
};

/// An array a larger one replaced, kept until release.
struct Retired {
  cu::Context context;
  cu::DevicePtr array;
};

/// One kind's arrays: its entry points' names (for messages), its table and
/// its retired arrays, under its own mutex.
struct SiteArrays {
  SiteArrays(const char *name, const char *streamName, const char *releaseName,
             const char *siteWord)
      : name(name), streamName(streamName), releaseName(releaseName),
        siteWord(siteWord) {}
  const char *name;       // the entry point without a stream
  const char *streamName; // the entry point with one
  const char *releaseName;
  const char *siteWord; // what the message calls the site text
  pthread_mutex_t mutex = PTHREAD_MUTEX_INITIALIZER;
  EntryTable<Entry, kInitialCapacity> table;
  Retired *retired = nullptr;
  size_t retiredCount = 0, retiredCapacity = 0;
};

SiteArrays deviceMapArrays{"tileRuntimeDeviceMapArray",
                           "tileRuntimeDeviceMapArrayOnStream",
                           "tileRuntimeReleaseDeviceMapArrays", "site"};
SiteArrays workspaces{"tileRuntimeStreamWorkspace",
                      "tileRuntimeStreamWorkspace",
                      "tileRuntimeReleaseStreamWorkspaces", "workspace"};

/// "<function>: <site word> "<site>"[, stream <address>], <bytes> bytes",
/// the prefix of every message about one request; built only when a request
/// fails.
struct Where {
  char text[kWhereCapacity];
  Where(const SiteArrays &arrays, const char *site, const void *stream,
        uint64_t bytes) {
    if (stream)
      snprintf(text, kWhereCapacity,
               "%s: %s \"%s\", stream %p, %" PRIu64 " bytes",
               arrays.streamName, arrays.siteWord, site, stream, bytes);
    else
      snprintf(text, kWhereCapacity, "%s: %s \"%s\", %" PRIu64 " bytes",
               arrays.name, arrays.siteWord, site, bytes);
  }
};

/// FNV-1a over the site's bytes, then the context's and the stream's
/// addresses (and whether the workspace is zeroed).
uint64_t hashKey(cu::Context context, const void *stream, const char *site,
                 bool zeroed) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (const unsigned char *c = reinterpret_cast<const unsigned char *>(site);
       *c; ++c) {
    h ^= *c;
    h *= 0x100000001b3ull;
  }
  h ^= static_cast<uint64_t>(reinterpret_cast<uintptr_t>(context));
  h *= 0xff51afd7ed558ccdull;
  h ^= static_cast<uint64_t>(reinterpret_cast<uintptr_t>(stream)) ^ zeroed;
  h *= 0xc4ceb9fe1a85ec53ull;
  return h ^ (h >> 32);
}

void freeEntry(Entry *entry) {
  free(entry->site);
  free(entry);
}

/// The key's entry, inserted (without an array) when new; call with the
/// arrays' mutex held. Null when out of host memory.
Entry *findOrInsert(SiteArrays &arrays, cu::Context context,
                    const void *stream, const char *site, bool zeroed,
                    uint64_t hash) {
  if (Entry *entry = arrays.table.find(hash, [&](const Entry &entry) {
        return entry.context == context && entry.stream == stream &&
               entry.zeroed == zeroed && strcmp(entry.site, site) == 0;
      }))
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
  entry->zeroed = zeroed;
  if (!arrays.table.insert(entry)) {
    freeEntry(entry);
    return nullptr;
  }
  return entry;
}

/// Room for one more retired array; false when out of host memory.
bool reserveRetired(SiteArrays &arrays) {
  if (arrays.retiredCount < arrays.retiredCapacity)
    return true;
  size_t capacity =
      arrays.retiredCapacity ? arrays.retiredCapacity * 2 : kInitialCapacity;
  auto *grown = static_cast<Retired *>(
      realloc(arrays.retired, capacity * sizeof(Retired)));
  if (!grown)
    return false;
  arrays.retired = grown;
  arrays.retiredCapacity = capacity;
  return true;
}

/// cuMemAlloc of `size` bytes in relaxed capture mode, zeroed (on a stream of
/// its own, waited for) where `zeroed`; *array is 0 where nothing was
/// allocated.
int32_t allocate(const DriverApi *api, const char *where, uint64_t bytes,
                 uint64_t size, bool zeroed, cu::DevicePtr *array) {
  *array = 0;
  return inRelaxedCaptureMode(api, where, [&] {
    int32_t status = allocateArray(api, where, bytes, size, array);
    if (status != TILE_SUCCESS || !zeroed)
      return status;
    status = zeroArray(api, where, *array, size);
    if (status != TILE_SUCCESS) {
      freeArray(api, where, *array);
      *array = 0;
    }
    return status;
  });
}

/// The entry's array, allocated or replaced when smaller than `bytes`; call
/// with the arrays' mutex held. Null after recording an error.
void *arrayFor(SiteArrays &arrays, const DriverApi *api, Entry *entry,
               uint64_t bytes) {
  if (entry->array && entry->arrayBytes >= bytes)
    return reinterpret_cast<void *>(static_cast<uintptr_t>(entry->array));
  Where where(arrays, entry->site, entry->stream, bytes);
  uint64_t size = bytes;
  if (entry->array) {
    uint64_t doubled = entry->arrayBytes <= UINT64_MAX / 2
                           ? entry->arrayBytes * 2
                           : UINT64_MAX;
    size = doubled > bytes ? doubled : bytes;
    if (!reserveRetired(arrays)) {
      setError(TILE_ERROR_OUT_OF_MEMORY,
               "%s: out of host memory for the replaced array", where.text);
      return nullptr;
    }
  }
  if (entry->zeroed && size % 4 != 0 && size <= UINT64_MAX - 3)
    size += 4 - size % 4; // zeroed in 32-bit words
  cu::DevicePtr array = 0;
  int32_t status =
      allocate(api, where.text, bytes, size, entry->zeroed, &array);
  if (!array)
    return nullptr; // the old array, if any, stays the site's
  if (entry->array)
    arrays.retired[arrays.retiredCount++] =
        Retired{entry->context, entry->array};
  entry->array = array;
  entry->arrayBytes = size;
  // After a failed restore of the capture mode the array is the site's
  // (owned, freed at release) but the call still fails.
  if (status != TILE_SUCCESS)
    return nullptr;
  return reinterpret_cast<void *>(static_cast<uintptr_t>(array));
}

/// The array of at least `bytes` for (current context, stream, site,
/// zeroed) of `arrays`; null after recording an error.
void *siteArray(SiteArrays &arrays, const char *site, uint64_t bytes,
                bool zeroed, const void *stream) {
  if (!site) {
    setError(TILE_ERROR_INVALID_VALUE, "%s: %s is NULL (%" PRIu64 " bytes)",
             stream ? arrays.streamName : arrays.name, arrays.siteWord, bytes);
    return nullptr;
  }
  if (bytes == 0) {
    setError(TILE_ERROR_INVALID_VALUE, "%s: bytes is 0",
             Where(arrays, site, stream, 0).text);
    return nullptr;
  }
  const DriverApi *api = nullptr;
  cu::Context context = nullptr;
  if (!driverAndContext(&api, &context,
                        [&] { return Where(arrays, site, stream, bytes); }))
    return nullptr;
  uint64_t hash = hashKey(context, stream, site, zeroed);
  pthread_mutex_lock(&arrays.mutex);
  void *array = nullptr;
  if (Entry *entry =
          findOrInsert(arrays, context, stream, site, zeroed, hash))
    array = arrayFor(arrays, api, entry, bytes);
  else
    setError(TILE_ERROR_OUT_OF_MEMORY, "%s: out of host memory for the %s",
             Where(arrays, site, stream, bytes).text, arrays.siteWord);
  pthread_mutex_unlock(&arrays.mutex);
  return array;
}

/// Frees every array of `arrays`, replaced ones included, and forgets the
/// sites.
void release(SiteArrays &arrays) {
  const char *where = arrays.releaseName;
  pthread_mutex_lock(&arrays.mutex);
  // Arrays exist only if the driver was loaded; without it there is only
  // host memory to free.
  const DriverApi *api = loadedDriver();
  cu::Context original = nullptr, current = nullptr;
  bool haveContext = false;
  if (api && (arrays.table.size() > 0 || arrays.retiredCount > 0)) {
    cu::Result result = api->cuCtxGetCurrent(&original);
    if (result == cu::kSuccess) {
      haveContext = true;
      current = original;
    } else {
      setDriverError(where, "cuCtxGetCurrent", result);
      api = nullptr; // leak rather than free in an unknown context
    }
  }
  for (size_t i = 0; i < arrays.retiredCount; ++i)
    if (api)
      freeArray(api, where, arrays.retired[i].array, arrays.retired[i].context,
                &current);
  free(arrays.retired);
  arrays.retired = nullptr;
  arrays.retiredCount = arrays.retiredCapacity = 0;
  arrays.table.clear([&](Entry *entry) {
    if (api)
      freeArray(api, where, entry->array, entry->context, &current);
    freeEntry(entry);
  });
  if (haveContext && current != original) {
    cu::Result result = api->cuCtxSetCurrent(original);
    if (result != cu::kSuccess)
      setDriverError(where, "cuCtxSetCurrent", result);
  }
  pthread_mutex_unlock(&arrays.mutex);
}

} // namespace

extern "C" {

void *tileRuntimeDeviceMapArrayOnStream(const char *site, uint64_t bytes,
                                        void *stream) {
  return siteArray(deviceMapArrays, site, bytes, /*zeroed=*/false, stream);
}

void *tileRuntimeDeviceMapArray(const char *site, uint64_t bytes) {
  return tileRuntimeDeviceMapArrayOnStream(site, bytes, nullptr);
}

void tileRuntimeReleaseDeviceMapArrays(void) { release(deviceMapArrays); }

void *tileRuntimeStreamWorkspace(const char *name, uint64_t bytes,
                                 int32_t zeroed, void *stream) {
  return siteArray(workspaces, name, bytes, zeroed != 0, stream);
}

void tileRuntimeReleaseStreamWorkspaces(void) { release(workspaces); }

} // extern "C"
