//===- ErrorTest.cpp - The last-error channel -----------------------------===//

#include "tile/Runtime/TileRuntime.h"

#include <gtest/gtest.h>

#include <string>
#include <thread>

namespace {

// A failing call with a known message that needs no driver.
int32_t failWithRankError() {
  uint64_t dim = 1;
  uint32_t one = 1;
  return tileTensorMapValidateTiled(0, 0, &dim, &dim, nullptr, &one, &one, 0, 0,
                                    0, 0);
}

TEST(RuntimeError, EmptyWhenNone) {
  tileRuntimeClearError();
  EXPECT_STREQ(tileRuntimeLastError(), "");
  EXPECT_EQ(tileRuntimeGetStatus(), TILE_SUCCESS);
  char buf[8] = "x";
  EXPECT_EQ(tileRuntimeGetLastError(buf, sizeof(buf)), 0);
  EXPECT_STREQ(buf, "");
}

TEST(RuntimeError, MessageAndStickyStatus) {
  tileRuntimeClearError();
  EXPECT_EQ(failWithRankError(), TILE_ERROR_INVALID_VALUE);
  const std::string expected =
      "tileTensorMapValidateTiled: rank = 0 is outside 1..5";
  EXPECT_EQ(tileRuntimeLastError(), expected);
  EXPECT_EQ(tileRuntimeGetStatus(), TILE_ERROR_INVALID_VALUE);

  char small[11];
  EXPECT_EQ(tileRuntimeGetLastError(small, sizeof(small)),
            static_cast<int32_t>(expected.size()));
  EXPECT_EQ(std::string(small), expected.substr(0, 10));
  EXPECT_EQ(tileRuntimeGetLastError(nullptr, 0),
            static_cast<int32_t>(expected.size()));

  EXPECT_EQ(tileRuntimeConsumeStatus(), TILE_ERROR_INVALID_VALUE);
  EXPECT_EQ(tileRuntimeGetStatus(), TILE_SUCCESS);
  EXPECT_EQ(tileRuntimeLastError(), expected); // the message stays
  tileRuntimeClearError();
  EXPECT_STREQ(tileRuntimeLastError(), "");
}

// Status and message describe the same failure: the latest one. Successful
// calls change neither (statuses of different kinds:
// RuntimeFakeDriver.LatestFailureWinsStatusAndMessage).
TEST(RuntimeError, LatestFailureWinsStatusAndMessage) {
  const char *rankMessage =
      "tileTensorMapValidateTiled: rank = 0 is outside 1..5";
  const char *mapMessage = "tileTensorMapEncodeTiled: map128 is NULL";
  auto failWithMapError = [] {
    return tileTensorMapEncodeTiled(nullptr, 0, 1, nullptr, nullptr, nullptr,
                                    nullptr, nullptr, 0, 0, 0, 0);
  };
  tileRuntimeClearError();
  EXPECT_EQ(failWithRankError(), TILE_ERROR_INVALID_VALUE);
  EXPECT_EQ(failWithMapError(), TILE_ERROR_INVALID_VALUE);
  EXPECT_STREQ(tileRuntimeLastError(), mapMessage);
  EXPECT_EQ(tileRuntimeGetStatus(), TILE_ERROR_INVALID_VALUE);
  // A successful call keeps both.
  alignas(16) static char buffer[256];
  uint64_t dim = 256;
  uint32_t box = 64, one = 1;
  EXPECT_EQ(tileTensorMapValidateTiled(0, 1, buffer, &dim, nullptr, &box, &one,
                                       0, 0, 0, 0),
            TILE_SUCCESS);
  EXPECT_STREQ(tileRuntimeLastError(), mapMessage);
  EXPECT_EQ(tileRuntimeGetStatus(), TILE_ERROR_INVALID_VALUE);

  // Consumed: the message stays until the next failure records both.
  EXPECT_EQ(tileRuntimeConsumeStatus(), TILE_ERROR_INVALID_VALUE);
  EXPECT_EQ(tileRuntimeGetStatus(), TILE_SUCCESS);
  EXPECT_STREQ(tileRuntimeLastError(), mapMessage);
  EXPECT_EQ(failWithRankError(), TILE_ERROR_INVALID_VALUE);
  EXPECT_STREQ(tileRuntimeLastError(), rankMessage);
  EXPECT_EQ(tileRuntimeGetStatus(), TILE_ERROR_INVALID_VALUE);
  tileRuntimeClearError();
}

TEST(RuntimeError, ThreadLocal) {
  tileRuntimeClearError();
  failWithRankError();
  std::string other = "unset";
  int32_t otherStatus = -1;
  std::thread([&] {
    other = tileRuntimeLastError();
    otherStatus = tileRuntimeGetStatus();
  }).join();
  EXPECT_EQ(other, "");
  EXPECT_EQ(otherStatus, TILE_SUCCESS);
  EXPECT_NE(std::string(tileRuntimeLastError()), "");
  tileRuntimeClearError();
}

TEST(RuntimeError, StatusNames) {
  EXPECT_STREQ(tileRuntimeStatusName(TILE_SUCCESS), "TILE_SUCCESS");
  EXPECT_STREQ(tileRuntimeStatusName(TILE_ERROR_INVALID_VALUE),
               "TILE_ERROR_INVALID_VALUE");
  EXPECT_STREQ(tileRuntimeStatusName(TILE_ERROR_NO_DRIVER),
               "TILE_ERROR_NO_DRIVER");
  EXPECT_STREQ(tileRuntimeStatusName(TILE_ERROR_DRIVER), "TILE_ERROR_DRIVER");
  EXPECT_STREQ(tileRuntimeStatusName(TILE_ERROR_OUT_OF_MEMORY),
               "TILE_ERROR_OUT_OF_MEMORY");
  EXPECT_STREQ(tileRuntimeStatusName(42), "TILE_ERROR_UNKNOWN");
}

} // namespace
