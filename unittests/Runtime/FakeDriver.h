//===- FakeDriver.h - A test binary on the fake libcuda ---------*- C++ -*-===//
//
// What a runtime suite on the fake driver shares: the runtime pointed at the
// fake (FAKE_CUDA_PATH, set by the binary's CMake target) before main, the
// fake's recorded state, and a fixture whose tests start on an initialised
// runtime with the fake's counters zeroed and end with no error left. Include
// it in exactly one file of a test binary. (Suites that load a compiled entry
// object include FakeEntry.h, which includes this and points the runtime at
// the fake earlier still.)
//
//===----------------------------------------------------------------------===//

#ifndef TILE_UNITTESTS_RUNTIME_FAKEDRIVER_H
#define TILE_UNITTESTS_RUNTIME_FAKEDRIVER_H

#include "FakeCuda.h"

#include "tile/Runtime/TileRuntime.h"

#include <gtest/gtest.h>

#include <cstring>

namespace {

// Before main, so before any driver use.
const bool kFakeDriverSet = [] {
  tileRuntimeSetDriverLibraryForTesting(FAKE_CUDA_PATH);
  return true;
}();

FakeCudaState &fake() {
  static FakeCudaState *state = loadFakeCudaState(FAKE_CUDA_PATH);
  return *state;
}

/// A test on the fake driver: the runtime initialised, the fake's state
/// zeroed and the runtime's error cleared before; no error left after.
class FakeDriverTest : public testing::Test {
protected:
  void SetUp() override {
    ASSERT_TRUE(kFakeDriverSet);
    ASSERT_EQ(tileRuntimeInit(), TILE_SUCCESS) << tileRuntimeLastError();
    memset(&fake(), 0, sizeof(FakeCudaState));
    tileRuntimeClearError();
  }
  void TearDown() override {
    EXPECT_EQ(tileRuntimeGetStatus(), TILE_SUCCESS) << tileRuntimeLastError();
    tileRuntimeClearError();
  }
};

} // namespace

#endif // TILE_UNITTESTS_RUNTIME_FAKEDRIVER_H
