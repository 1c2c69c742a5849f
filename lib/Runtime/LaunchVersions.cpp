//===- LaunchVersions.cpp - Launch counts of guarded kernels' versions ----===//
//
// Compiled host code notes which version of a guarded kernel it launches (the
// planned one when every run-time guard held, the fallback otherwise) before
// every launch, so the note must be cheap. Totals per version are atomics.
// Per-site counts live in an open-addressing table of entries keyed by the
// site string's content (hash, then strcmp); a note probes it under a read lock
// and increments the entry's atomic counters without allocating. A site's
// first note inserts its entry (with a copy of the string) under the write
// lock. Entries never move; tileRuntimeResetLaunchVersionCounts() frees them
// under the write lock, so no note holds one across a reset.
//
// The first fallback launch of a site reads TILE_LOG_FALLBACK and, when it is
// set to something other than "" or "0", prints one line to stderr. Out of
// memory for a new site's entry, the launch still counts in the totals, but
// not per site, and is not logged.
//
//===----------------------------------------------------------------------===//

#include "EntryTable.h"

#include "tile/Runtime/TileRuntime.h"

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>
#include <pthread.h>

namespace {

constexpr int32_t kVersionCount = 2;
constexpr size_t kInitialCapacity = 16;
const char *const kUnknownSite = "<unknown>";

struct Entry {
  std::atomic<int64_t> counts[kVersionCount] = {};
  std::atomic<bool> sawFallback{false};
  uint64_t hash = 0;
  char *site = nullptr; // owned copy, NUL-terminated
};

std::atomic<int64_t> totals[kVersionCount];

pthread_rwlock_t lock = PTHREAD_RWLOCK_INITIALIZER;
tile::runtime::EntryTable<Entry, kInitialCapacity> table;

bool knownVersion(int32_t version) {
  return version >= 0 && version < kVersionCount;
}

/// FNV-1a over the string's bytes.
uint64_t hashSite(const char *site) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (const unsigned char *c = reinterpret_cast<const unsigned char *>(site);
       *c; ++c) {
    h ^= *c;
    h *= 0x100000001b3ull;
  }
  return h;
}

Entry *find(const char *site, uint64_t hash) {
  return table.find(
      hash, [&](const Entry &entry) { return strcmp(entry.site, site) == 0; });
}

void freeEntry(Entry *entry) {
  if (!entry)
    return;
  free(entry->site);
  delete entry;
}

/// The site's entry, inserted when new; call with the write lock held. Null
/// when out of memory.
Entry *findOrInsert(const char *site, uint64_t hash) {
  if (Entry *entry = find(site, hash)) // another thread may have inserted it
    return entry;
  auto *entry = new (std::nothrow) Entry();
  if (!entry)
    return nullptr;
  entry->hash = hash;
  size_t length = strlen(site);
  entry->site = static_cast<char *>(malloc(length + 1));
  if (!entry->site) {
    freeEntry(entry);
    return nullptr;
  }
  memcpy(entry->site, site, length + 1);
  if (!table.insert(entry)) {
    freeEntry(entry);
    return nullptr;
  }
  return entry;
}

/// Counts the launch for the site; true when it is the site's first fallback
/// launch since the last reset.
bool countForSite(const char *site, int32_t version) {
  uint64_t hash = hashSite(site);
  bool firstFallback = false;
  pthread_rwlock_rdlock(&lock);
  Entry *entry = find(site, hash);
  if (!entry) {
    pthread_rwlock_unlock(&lock);
    pthread_rwlock_wrlock(&lock);
    entry = findOrInsert(site, hash);
  }
  if (entry) {
    entry->counts[version].fetch_add(1, std::memory_order_relaxed);
    if (version == TILE_VERSION_FALLBACK &&
        !entry->sawFallback.load(std::memory_order_relaxed))
      firstFallback =
          !entry->sawFallback.exchange(true, std::memory_order_relaxed);
  }
  pthread_rwlock_unlock(&lock);
  return firstFallback;
}

bool fallbackLoggingEnabled() {
  const char *value = getenv("TILE_LOG_FALLBACK");
  return value && value[0] != '\0' && strcmp(value, "0") != 0;
}

} // namespace

extern "C" {

void tileRuntimeNoteLaunchVersion(const char *site, int32_t version,
                                  const char *failedGuard) {
  if (!knownVersion(version))
    return;
  if (!site)
    site = kUnknownSite;
  totals[version].fetch_add(1, std::memory_order_relaxed);
  if (countForSite(site, version) && fallbackLoggingEnabled())
    fprintf(stderr,
            "tile: %s: guard failed (%s); running the fallback version\n", site,
            failedGuard ? failedGuard : kUnknownSite);
}

int64_t tileRuntimeLaunchVersionCount(int32_t version) {
  if (!knownVersion(version))
    return 0;
  return totals[version].load(std::memory_order_relaxed);
}

int64_t tileRuntimeSiteLaunchVersionCount(const char *site, int32_t version) {
  if (!knownVersion(version))
    return 0;
  if (!site)
    site = kUnknownSite;
  uint64_t hash = hashSite(site);
  pthread_rwlock_rdlock(&lock);
  Entry *entry = find(site, hash);
  int64_t launches =
      entry ? entry->counts[version].load(std::memory_order_relaxed) : 0;
  pthread_rwlock_unlock(&lock);
  return launches;
}

void tileRuntimeResetLaunchVersionCounts(void) {
  pthread_rwlock_wrlock(&lock);
  table.clear(freeEntry);
  for (std::atomic<int64_t> &total : totals)
    total.store(0, std::memory_order_relaxed);
  pthread_rwlock_unlock(&lock);
}

} // extern "C"
