//===- LongestFirstTable.cpp - Device tables of causal tile schedules -----===//
//
// A persistent causal attention kernel reads which tiles each CTA walks from
// a table in device memory: the longest-first schedule
// (tile/Schedule/LongestFirst.h), built on the host on a problem's first
// launch and kept for the process's lifetime, so later launches of the
// same problem pay one lookup. Entries are keyed by (context, problem);
// the table is the same for every stream, so it is uploaded once, on a
// non-blocking stream of its own, and the upload is waited for before the
// table is handed out: a launch on any stream then reads it complete, and
// no other stream's work is waited for.
//
// A CUDA graph that captured a launch keeps the table's address, so a table
// is freed only by tileRuntimeReleaseLongestFirstTables. The allocation,
// the copy and the wait run in relaxed capture mode (as the device-map
// arrays' allocation does), so a problem's first launch may come inside a
// capture: the table is complete before the capture records the launch.
//
//===----------------------------------------------------------------------===//

#include "DriverApi.h"
#include "EntryTable.h"
#include "Error.h"
#include "RelaxedAllocation.h"

#include "tile/Runtime/TileRuntime.h"
#include "tile/Schedule/LongestFirst.h"

#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <pthread.h>

using namespace tile::runtime;
using tile::schedule::CausalTiles;

namespace {

constexpr const char *kName = "tileRuntimeLongestFirstTable";
constexpr const char *kReleaseName = "tileRuntimeReleaseLongestFirstTables";
constexpr size_t kWhereCapacity = 256;

struct Key {
  int64_t queryBlocks, kvBlocks, heads, sectionHeads, ctas, tileCost;
  bool operator==(const Key &o) const {
    return queryBlocks == o.queryBlocks && kvBlocks == o.kvBlocks &&
           heads == o.heads && sectionHeads == o.sectionHeads &&
           ctas == o.ctas && tileCost == o.tileCost;
  }
};

struct Entry {
  uint64_t hash;
  cu::Context context;
  Key key;
  cu::DevicePtr table;
  int64_t length; // int32 values
};

pthread_mutex_t mutex = PTHREAD_MUTEX_INITIALIZER;
EntryTable<Entry, 16> table;

/// "<function>: <q> query blocks, ..." — the prefix of every message about
/// one request; built only when a request fails.
struct Where {
  char text[kWhereCapacity];
  explicit Where(const Key &k) {
    snprintf(text, kWhereCapacity,
             "%s: %" PRId64 " query blocks, %" PRId64 " KV blocks, %" PRId64
             " heads in sections of %" PRId64 ", %" PRId64
             " CTAs, tile cost %" PRId64,
             kName, k.queryBlocks, k.kvBlocks, k.heads, k.sectionHeads, k.ctas,
             k.tileCost);
  }
};

uint64_t hashKey(cu::Context context, const Key &k) {
  uint64_t h = 0xcbf29ce484222325ull ^
               static_cast<uint64_t>(reinterpret_cast<uintptr_t>(context));
  for (int64_t v : {k.queryBlocks, k.kvBlocks, k.heads, k.sectionHeads, k.ctas,
                    k.tileCost}) {
    h ^= static_cast<uint64_t>(v);
    h *= 0xff51afd7ed558ccdull;
    h ^= h >> 29;
  }
  return h;
}

/// Copies `bytes` from `host` to `array` on a stream of its own
/// (non-blocking: it waits for no other stream's work, nor they for it) and
/// waits for the copy; records failures after `where`. Call in relaxed
/// capture mode.
int32_t upload(const DriverApi *api, const char *where, cu::DevicePtr array,
               const void *host, uint64_t bytes) {
  return onStreamOfItsOwn(api, where, "cuMemcpyAsync", [&](cu::Stream stream) {
    return api->cuMemcpyAsync(
        array, static_cast<cu::DevicePtr>(reinterpret_cast<uintptr_t>(host)),
        bytes, stream);
  });
}

/// Builds the schedule and uploads it; the new entry, or null after recording
/// an error (nothing is kept then). Call with the mutex held.
Entry *build(const DriverApi *api, cu::Context context, const Key &key,
             uint64_t hash) {
  Where where(key);
  std::optional<tile::schedule::CtaSchedule> schedule =
      tile::schedule::longestFirstSchedule(CausalTiles{key.queryBlocks,
                                                       key.kvBlocks, key.heads,
                                                       key.sectionHeads},
                                           key.ctas, key.tileCost);
  if (!schedule) {
    setError(TILE_ERROR_INVALID_VALUE,
             "%s: no schedule (every count must be at least 1, the CTAs at "
             "most the tiles, the tile cost in [0, %" PRId64
             "], and the table at most %" PRId64 " values)",
             where.text, tile::schedule::kLongestFirstMaxTileCost,
             tile::schedule::kLongestFirstMaxTiles);
    return nullptr;
  }
  uint64_t bytes = schedule->table.size() * sizeof(int32_t);
  cu::DevicePtr array = 0;
  // A failed upload's array is freed in the same relaxed mode (a free, like
  // the allocation, is refused during a global-mode capture).
  int32_t status = inRelaxedCaptureMode(api, where.text, [&] {
    int32_t done = allocateArray(api, where.text, bytes, bytes, &array);
    if (done == TILE_SUCCESS)
      done = upload(api, where.text, array, schedule->table.data(), bytes);
    if (done != TILE_SUCCESS && array) {
      freeArray(api, where.text, array);
      array = 0;
    }
    return done;
  });
  if (status != TILE_SUCCESS) {
    // Only a failed restore of the capture mode leaves an array here.
    if (array)
      freeArray(api, where.text, array);
    return nullptr;
  }
  auto *entry = static_cast<Entry *>(calloc(1, sizeof(Entry)));
  if (entry)
    entry->hash = hash;
  if (!entry || !table.insert(entry)) {
    free(entry);
    freeArray(api, where.text, array);
    setError(TILE_ERROR_OUT_OF_MEMORY, "%s: out of host memory for the table",
             where.text);
    return nullptr;
  }
  entry->context = context;
  entry->key = key;
  entry->table = array;
  entry->length = static_cast<int64_t>(schedule->table.size());
  return entry;
}

} // namespace

extern "C" {

const int32_t *tileRuntimeLongestFirstTable(int64_t queryBlocks,
                                            int64_t kvBlocks, int64_t heads,
                                            int64_t sectionHeads, int64_t ctas,
                                            int64_t tileCost, int64_t *length) {
  Key key{queryBlocks, kvBlocks, heads, sectionHeads, ctas, tileCost};
  if (length)
    *length = 0;
  const DriverApi *api = nullptr;
  cu::Context context = nullptr;
  if (!driverAndContext(&api, &context, [&] { return Where(key); }))
    return nullptr;
  uint64_t hash = hashKey(context, key);
  pthread_mutex_lock(&mutex);
  Entry *entry = table.find(hash, [&](const Entry &e) {
    return e.context == context && e.key == key;
  });
  if (!entry)
    entry = build(api, context, key, hash);
  const int32_t *array = nullptr;
  if (entry) {
    array =
        reinterpret_cast<const int32_t *>(static_cast<uintptr_t>(entry->table));
    if (length)
      *length = entry->length;
  }
  pthread_mutex_unlock(&mutex);
  return array;
}

void _mlir_ciface_tileRuntimeLongestFirstTable(TileRuntimeI32Memref *result,
                                               int64_t queryBlocks,
                                               int64_t kvBlocks, int64_t heads,
                                               int64_t sectionHeads,
                                               int64_t ctas, int64_t tileCost) {
  int64_t length = 0;
  const int32_t *array = tileRuntimeLongestFirstTable(
      queryBlocks, kvBlocks, heads, sectionHeads, ctas, tileCost, &length);
  result->allocated = const_cast<int32_t *>(array);
  result->aligned = const_cast<int32_t *>(array);
  result->offset = 0;
  result->sizes[0] = length;
  result->strides[0] = 1;
}

void tileRuntimeReleaseLongestFirstTables(void) {
  pthread_mutex_lock(&mutex);
  const DriverApi *api = loadedDriver();
  cu::Context original = nullptr, current = nullptr;
  if (api && table.size() > 0) {
    cu::Result result = api->cuCtxGetCurrent(&original);
    if (result != cu::kSuccess) {
      setDriverError(kReleaseName, "cuCtxGetCurrent", result);
      api = nullptr; // leak rather than free in an unknown context
    }
    current = original;
  }
  table.clear([&](Entry *entry) {
    if (api)
      freeArray(api, kReleaseName, entry->table, entry->context, &current);
    free(entry);
  });
  if (api && current != original)
    api->cuCtxSetCurrent(original);
  pthread_mutex_unlock(&mutex);
}

} // extern "C"
