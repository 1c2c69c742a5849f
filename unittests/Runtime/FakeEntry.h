//===- FakeEntry.h - Compiled entries on the fake driver --------*- C++ -*-===//
//
// What a test of a tile-compile entry object needs: the runtime pointed at
// the fake libcuda before the object's module-loading constructor runs, the
// fake's recorded state, and the rank-2 memref descriptor of the C interface.
// Include it in exactly one file of a test binary.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_UNITTESTS_RUNTIME_FAKEENTRY_H
#define TILE_UNITTESTS_RUNTIME_FAKEENTRY_H

#include "FakeCuda.h"
#include "tile/Runtime/TileRuntime.h"

namespace {

// Before the entry object's module-loading constructor (priority 123).
__attribute__((constructor(101))) void useFakeDriver() {
  tileRuntimeSetDriverLibraryForTesting(FAKE_CUDA_PATH);
}

FakeCudaState &fake() {
  static FakeCudaState *state = loadFakeCudaState(FAKE_CUDA_PATH);
  return *state;
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

/// The descriptor of a rank-2 memref (`_mlir_ciface_` arguments).
struct Descriptor2 {
  void *allocated;
  void *aligned;
  int64_t offset;
  int64_t sizes[2];
  int64_t strides[2];
};

} // namespace

#endif // TILE_UNITTESTS_RUNTIME_FAKEENTRY_H
