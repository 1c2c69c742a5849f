//===- TensorMapCache.cpp - Encoded tensor maps, cached by argument -------===//
//
// Compiled host code asks for its maps before every launch, so a hit must be
// cheap: the key is built on the stack, hashed, and looked up in an
// open-addressing table under a read lock; nothing is allocated. Entries are
// separately allocated, 64-byte aligned and never move, so returned pointers
// stay valid until tileTensorMapCacheClear(). A miss encodes under the write
// lock, so concurrent first requests for one key encode it once. Tiled and
// im2col maps share the table; the key records which encoder made the map.
//
//===----------------------------------------------------------------------===//

#include "EntryTable.h"
#include "Error.h"
#include "TensorMap.h"

#include "tile/Runtime/TileRuntime.h"

#include <cstdlib>
#include <cstring>
#include <pthread.h>

using namespace tile::runtime;

namespace {

constexpr int32_t kMaxRank = 5;
constexpr int32_t kMaxSpatialDims = kMaxRank - 2;
constexpr size_t kInitialCapacity = 64;

/// Which encoder a key's map comes from.
enum class MapKind : int32_t { Tiled = 0, Im2col = 1 };

/// Fields the other kind does not use stay zero.
struct Key {
  uint64_t address;
  int32_t dataType, rank, interleave, swizzle, l2Promotion, oobFill;
  uint64_t globalDim[kMaxRank];
  uint64_t globalStrides[kMaxRank - 1];
  uint32_t boxDim[kMaxRank];
  uint32_t elementStrides[kMaxRank];
  MapKind kind;
  uint32_t channelsPerPixel, pixelsPerColumn;
  int32_t lowerCorner[kMaxSpatialDims], upperCorner[kMaxSpatialDims];
  int32_t unused; // zero; pads the key to whole words
};
static_assert(sizeof(Key) % sizeof(uint64_t) == 0, "Key hashes by words");

struct Entry {
  alignas(TILE_TENSOR_MAP_ALIGNMENT) unsigned char map[TILE_TENSOR_MAP_BYTES];
  Key key;
  uint64_t hash;
};

pthread_rwlock_t lock = PTHREAD_RWLOCK_INITIALIZER;
EntryTable<Entry, kInitialCapacity> table;

uint64_t hashKey(const Key &key) {
  uint64_t words[sizeof(Key) / sizeof(uint64_t)];
  memcpy(words, &key, sizeof(Key));
  uint64_t h = 0x9e3779b97f4a7c15ull;
  for (uint64_t w : words) {
    h ^= w;
    h *= 0xff51afd7ed558ccdull;
    h ^= h >> 32;
  }
  return h;
}

/// Zeroes key and fills the fields both kinds have; Args is TensorMapArgs or
/// Im2colArgs, whose rank and arrays the caller has checked.
template <typename Args>
void makeCommonKey(const Args &a, Key &key) {
  memset(&key, 0, sizeof(Key));
  key.address = reinterpret_cast<uintptr_t>(a.globalAddress);
  key.dataType = a.dataType;
  key.rank = a.rank;
  key.interleave = a.interleave;
  key.swizzle = a.swizzle;
  key.l2Promotion = a.l2Promotion;
  key.oobFill = a.oobFill;
  for (int32_t i = 0; i < a.rank; ++i) {
    key.globalDim[i] = a.globalDim[i];
    key.elementStrides[i] = a.elementStrides[i];
    if (i > 0)
      key.globalStrides[i - 1] = a.globalStridesBytes[i - 1];
  }
}

/// Fills key from the arguments; false when they are too malformed to read
/// (the encoder then reports why).
bool makeKey(const TensorMapArgs &a, Key &key) {
  if (a.rank < 1 || a.rank > kMaxRank || !a.globalDim || !a.boxDim ||
      !a.elementStrides || (a.rank > 1 && !a.globalStridesBytes))
    return false;
  makeCommonKey(a, key);
  key.kind = MapKind::Tiled;
  for (int32_t i = 0; i < a.rank; ++i)
    key.boxDim[i] = a.boxDim[i];
  return true;
}

bool makeKey(const Im2colArgs &a, Key &key) {
  if (a.rank < 3 || a.rank > kMaxRank || !a.globalDim ||
      !a.globalStridesBytes || !a.pixelBoxLowerCorner ||
      !a.pixelBoxUpperCorner || !a.elementStrides)
    return false;
  makeCommonKey(a, key);
  key.kind = MapKind::Im2col;
  key.channelsPerPixel = a.channelsPerPixel;
  key.pixelsPerColumn = a.pixelsPerColumn;
  for (int32_t i = 0; i < a.rank - 2; ++i) {
    key.lowerCorner[i] = a.pixelBoxLowerCorner[i];
    key.upperCorner[i] = a.pixelBoxUpperCorner[i];
  }
  return true;
}

int32_t validate(const char *where, const TensorMapArgs &args) {
  return validateTensorMap(where, args);
}
int32_t validate(const char *where, const Im2colArgs &args) {
  return validateIm2col(where, args);
}
int32_t encode(const char *where, void *map128, const TensorMapArgs &args) {
  return encodeTensorMap(where, map128, args);
}
int32_t encode(const char *where, void *map128, const Im2colArgs &args) {
  return encodeIm2col(where, map128, args);
}

Entry *find(const Key &key, uint64_t hash) {
  return table.find(hash, [&](const Entry &entry) {
    return memcmp(&entry.key, &key, sizeof(Key)) == 0;
  });
}

template <typename Args>
const void *getCached(const char *where, const Args &args) {
  Key key;
  if (!makeKey(args, key)) {
    validate(where, args);
    return nullptr;
  }
  uint64_t hash = hashKey(key);

  pthread_rwlock_rdlock(&lock);
  Entry *hit = find(key, hash);
  pthread_rwlock_unlock(&lock);
  if (hit)
    return hit->map;

  pthread_rwlock_wrlock(&lock);
  Entry *entry = find(key, hash); // another thread may have encoded it
  if (!entry) {
    auto *fresh =
        static_cast<Entry *>(aligned_alloc(alignof(Entry), sizeof(Entry)));
    if (!fresh) {
      pthread_rwlock_unlock(&lock);
      setError(TILE_ERROR_OUT_OF_MEMORY,
               "%s: out of host memory for a cache entry", where);
      return nullptr;
    }
    memset(fresh, 0, sizeof(Entry));
    if (encode(where, fresh->map, args) != TILE_SUCCESS) {
      free(fresh);
      pthread_rwlock_unlock(&lock);
      return nullptr;
    }
    fresh->key = key;
    fresh->hash = hash;
    if (!table.insert(fresh)) {
      free(fresh);
      pthread_rwlock_unlock(&lock);
      setError(TILE_ERROR_OUT_OF_MEMORY,
               "%s: out of host memory for a cache entry", where);
      return nullptr;
    }
    entry = fresh;
  }
  pthread_rwlock_unlock(&lock);
  return entry->map;
}

} // namespace

extern "C" {

const void *tileTensorMapGetCached(
    int32_t dataType, int32_t rank, const void *globalAddress,
    const uint64_t *globalDim, const uint64_t *globalStridesBytes,
    const uint32_t *boxDim, const uint32_t *elementStrides, int32_t interleave,
    int32_t swizzle, int32_t l2Promotion, int32_t oobFill) {
  return getCached("tileTensorMapGetCached",
                   TensorMapArgs{dataType, rank, globalAddress, globalDim,
                                 globalStridesBytes, boxDim, elementStrides,
                                 interleave, swizzle, l2Promotion, oobFill});
}

const void *tileTensorMapIm2colGetCached(
    int32_t dataType, int32_t rank, const void *globalAddress,
    const uint64_t *globalDim, const uint64_t *globalStridesBytes,
    const int32_t *pixelBoxLowerCorner, const int32_t *pixelBoxUpperCorner,
    uint32_t channelsPerPixel, uint32_t pixelsPerColumn,
    const uint32_t *elementStrides, int32_t interleave, int32_t swizzle,
    int32_t l2Promotion, int32_t oobFill) {
  return getCached("tileTensorMapIm2colGetCached",
                   Im2colArgs{dataType, rank, globalAddress, globalDim,
                              globalStridesBytes, pixelBoxLowerCorner,
                              pixelBoxUpperCorner, channelsPerPixel,
                              pixelsPerColumn, elementStrides, interleave,
                              swizzle, l2Promotion, oobFill});
}

void tileTensorMapCacheClear(void) {
  pthread_rwlock_wrlock(&lock);
  table.clear([](Entry *entry) { free(entry); });
  pthread_rwlock_unlock(&lock);
}

size_t tileTensorMapCacheSize(void) {
  pthread_rwlock_rdlock(&lock);
  size_t size = table.size();
  pthread_rwlock_unlock(&lock);
  return size;
}

} // extern "C"
