//===- FakeEntry.h - Compiled entries on the fake driver --------*- C++ -*-===//
//
// What a test of a tile-compile entry object needs: the runtime pointed at
// the fake libcuda before the object's module-loading constructor runs, the
// fake's recorded state (FakeDriver.h's), and the memref descriptors of the C
// interface.
// Include it in exactly one file of a test binary.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_UNITTESTS_RUNTIME_FAKEENTRY_H
#define TILE_UNITTESTS_RUNTIME_FAKEENTRY_H

#include "FakeDriver.h"
#include "tile/Runtime/TileRuntime.h"

#include <cstdint>
#include <vector>

namespace {

// Before the entry object's module-loading constructor (priority 123).
__attribute__((constructor(101))) void useFakeDriver() {
  tileRuntimeSetDriverLibraryForTesting(FAKE_CUDA_PATH);
}

/// A test's clean start: the runtime initialised on the fake, the map cache,
/// version counts and error cleared, the fake's launch and encode counts 0.
/// Returns the runtime's init status (TILE_SUCCESS expected).
int32_t resetFakeRuntime() {
  int32_t status = tileRuntimeInit();
  tileTensorMapCacheClear();
  tileRuntimeResetLaunchVersionCounts();
  tileRuntimeClearError();
  fake().launches = 0;
  fake().encodeCalls = 0;
  return status;
}

/// The descriptor of a rank-N memref (`_mlir_ciface_` arguments).
template <int N>
struct Descriptor {
  void *allocated;
  void *aligned;
  int64_t offset;
  int64_t sizes[N];
  int64_t strides[N];
};
using Descriptor2 = Descriptor<2>;
using Descriptor3 = Descriptor<3>;
using Descriptor4 = Descriptor<4>;

/// An attention entry's (batch, heads, seq, 128) tensor at `data`, rows
/// packed.
inline Descriptor4 attentionTensor(void *data, int64_t b, int64_t h,
                                   int64_t s) {
  return {data, data, 0, {b, h, s, 128}, {h * s * 128, s * 128, 128, 1}};
}

/// 256-byte aligned storage for an entry's descriptors; the fake driver
/// never touches it.
inline char *alignedStorage() {
  static std::vector<char> data(1024);
  auto at = reinterpret_cast<uintptr_t>(data.data());
  return data.data() + ((256 - at % 256) % 256);
}

} // namespace

#endif // TILE_UNITTESTS_RUNTIME_FAKEENTRY_H
