//===- LaunchVersionsTest.cpp - Guarded launches and fallback logging -----===//

#include "tile/Runtime/TileRuntime.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

namespace {

const char *const kCopySite = "@copy_tiles: launch of @kernels::@copy";
const char *const kStrideGuard = "global-stride: stride[0]*2 % 16 == 0";

std::string fallbackLine(const std::string &site, const std::string &guard) {
  return "tile: " + site + ": guard failed (" + guard +
         "); running the fallback version\n";
}

class RuntimeLaunchVersions : public testing::Test {
protected:
  void SetUp() override {
    unsetenv("TILE_LOG_FALLBACK");
    tileRuntimeResetLaunchVersionCounts();
  }
  void TearDown() override {
    unsetenv("TILE_LOG_FALLBACK");
    tileRuntimeResetLaunchVersionCounts();
  }
};

TEST_F(RuntimeLaunchVersions, StartsAtZero) {
  EXPECT_EQ(tileRuntimeLaunchVersionCount(TILE_VERSION_GUARDED), 0);
  EXPECT_EQ(tileRuntimeLaunchVersionCount(TILE_VERSION_FALLBACK), 0);
  EXPECT_EQ(tileRuntimeSiteLaunchVersionCount(kCopySite, TILE_VERSION_GUARDED),
            0);
  EXPECT_EQ(tileRuntimeSiteLaunchVersionCount(nullptr, TILE_VERSION_GUARDED),
            0);
}

TEST_F(RuntimeLaunchVersions, CountsPerVersionAndSite) {
  const char *other = "@scale: launch of @kernels::@scale";
  for (int i = 0; i < 3; ++i)
    tileRuntimeNoteLaunchVersion(kCopySite, TILE_VERSION_GUARDED, nullptr);
  tileRuntimeNoteLaunchVersion(kCopySite, TILE_VERSION_FALLBACK, kStrideGuard);
  for (int i = 0; i < 5; ++i)
    tileRuntimeNoteLaunchVersion(other, TILE_VERSION_FALLBACK, kStrideGuard);
  tileRuntimeNoteLaunchVersion(other, TILE_VERSION_GUARDED, nullptr);

  EXPECT_EQ(tileRuntimeLaunchVersionCount(TILE_VERSION_GUARDED), 4);
  EXPECT_EQ(tileRuntimeLaunchVersionCount(TILE_VERSION_FALLBACK), 6);
  EXPECT_EQ(tileRuntimeSiteLaunchVersionCount(kCopySite, TILE_VERSION_GUARDED),
            3);
  EXPECT_EQ(tileRuntimeSiteLaunchVersionCount(kCopySite, TILE_VERSION_FALLBACK),
            1);
  EXPECT_EQ(tileRuntimeSiteLaunchVersionCount(other, TILE_VERSION_GUARDED), 1);
  EXPECT_EQ(tileRuntimeSiteLaunchVersionCount(other, TILE_VERSION_FALLBACK), 5);
  EXPECT_EQ(tileRuntimeSiteLaunchVersionCount("@nowhere: launch of @k",
                                              TILE_VERSION_GUARDED),
            0);
  // Unknown versions read as 0.
  EXPECT_EQ(tileRuntimeLaunchVersionCount(2), 0);
  EXPECT_EQ(tileRuntimeLaunchVersionCount(-1), 0);
  EXPECT_EQ(tileRuntimeSiteLaunchVersionCount(kCopySite, 2), 0);
}

// Sites are compared by content, not by pointer.
TEST_F(RuntimeLaunchVersions, SitesCompareByContent) {
  std::string first = kCopySite, second = kCopySite;
  ASSERT_NE(first.c_str(), second.c_str());
  tileRuntimeNoteLaunchVersion(first.c_str(), TILE_VERSION_GUARDED, nullptr);
  tileRuntimeNoteLaunchVersion(second.c_str(), TILE_VERSION_GUARDED, nullptr);
  tileRuntimeNoteLaunchVersion(kCopySite, TILE_VERSION_GUARDED, nullptr);
  std::string query = kCopySite;
  EXPECT_EQ(
      tileRuntimeSiteLaunchVersionCount(query.c_str(), TILE_VERSION_GUARDED),
      3);
  // A prefix is another site.
  EXPECT_EQ(
      tileRuntimeSiteLaunchVersionCount("@copy_tiles", TILE_VERSION_GUARDED),
      0);
}

TEST_F(RuntimeLaunchVersions, NullSiteCountsAsUnknown) {
  tileRuntimeNoteLaunchVersion(nullptr, TILE_VERSION_GUARDED, nullptr);
  tileRuntimeNoteLaunchVersion(nullptr, TILE_VERSION_FALLBACK, kStrideGuard);
  tileRuntimeNoteLaunchVersion("<unknown>", TILE_VERSION_FALLBACK,
                               kStrideGuard);
  EXPECT_EQ(
      tileRuntimeSiteLaunchVersionCount("<unknown>", TILE_VERSION_GUARDED), 1);
  EXPECT_EQ(
      tileRuntimeSiteLaunchVersionCount("<unknown>", TILE_VERSION_FALLBACK), 2);
  EXPECT_EQ(tileRuntimeSiteLaunchVersionCount(nullptr, TILE_VERSION_FALLBACK),
            2);
  EXPECT_EQ(tileRuntimeLaunchVersionCount(TILE_VERSION_GUARDED), 1);
  EXPECT_EQ(tileRuntimeLaunchVersionCount(TILE_VERSION_FALLBACK), 2);
}

TEST_F(RuntimeLaunchVersions, UnknownVersionIgnored) {
  setenv("TILE_LOG_FALLBACK", "1", 1);
  testing::internal::CaptureStderr();
  for (int32_t version : {-1, 2, 3, 100, INT32_MIN, INT32_MAX})
    tileRuntimeNoteLaunchVersion(kCopySite, version, kStrideGuard);
  EXPECT_EQ(testing::internal::GetCapturedStderr(), "");
  EXPECT_EQ(tileRuntimeLaunchVersionCount(TILE_VERSION_GUARDED), 0);
  EXPECT_EQ(tileRuntimeLaunchVersionCount(TILE_VERSION_FALLBACK), 0);
  EXPECT_EQ(tileRuntimeSiteLaunchVersionCount(kCopySite, TILE_VERSION_GUARDED),
            0);
  EXPECT_EQ(tileRuntimeSiteLaunchVersionCount(kCopySite, TILE_VERSION_FALLBACK),
            0);
  for (int32_t version : {-1, 2, 100})
    EXPECT_EQ(tileRuntimeLaunchVersionCount(version), 0);
}

TEST_F(RuntimeLaunchVersions, ResetClearsEveryCounter) {
  tileRuntimeNoteLaunchVersion(kCopySite, TILE_VERSION_GUARDED, nullptr);
  tileRuntimeNoteLaunchVersion(kCopySite, TILE_VERSION_FALLBACK, kStrideGuard);
  tileRuntimeNoteLaunchVersion(nullptr, TILE_VERSION_FALLBACK, kStrideGuard);
  tileRuntimeResetLaunchVersionCounts();
  EXPECT_EQ(tileRuntimeLaunchVersionCount(TILE_VERSION_GUARDED), 0);
  EXPECT_EQ(tileRuntimeLaunchVersionCount(TILE_VERSION_FALLBACK), 0);
  EXPECT_EQ(tileRuntimeSiteLaunchVersionCount(kCopySite, TILE_VERSION_GUARDED),
            0);
  EXPECT_EQ(tileRuntimeSiteLaunchVersionCount(kCopySite, TILE_VERSION_FALLBACK),
            0);
  EXPECT_EQ(tileRuntimeSiteLaunchVersionCount(nullptr, TILE_VERSION_FALLBACK),
            0);
  // Counting starts again from zero.
  tileRuntimeNoteLaunchVersion(kCopySite, TILE_VERSION_FALLBACK, kStrideGuard);
  EXPECT_EQ(tileRuntimeLaunchVersionCount(TILE_VERSION_FALLBACK), 1);
  EXPECT_EQ(tileRuntimeSiteLaunchVersionCount(kCopySite, TILE_VERSION_FALLBACK),
            1);
  // Resetting twice, or with nothing counted, is harmless.
  tileRuntimeResetLaunchVersionCounts();
  tileRuntimeResetLaunchVersionCounts();
  EXPECT_EQ(tileRuntimeLaunchVersionCount(TILE_VERSION_FALLBACK), 0);
}

// Many sites: the per-site table grows and keeps every count.
TEST_F(RuntimeLaunchVersions, ManySites) {
  const int sites = 300;
  std::vector<std::string> names;
  for (int s = 0; s < sites; ++s)
    names.push_back("@entry" + std::to_string(s) + ": launch of @k");
  for (int s = 0; s < sites; ++s)
    for (int i = 0; i <= s % 4; ++i)
      tileRuntimeNoteLaunchVersion(names[s].c_str(), s % 2, kStrideGuard);
  int64_t guarded = 0, fallback = 0;
  for (int s = 0; s < sites; ++s) {
    int64_t expected = s % 4 + 1;
    (s % 2 ? fallback : guarded) += expected;
    EXPECT_EQ(tileRuntimeSiteLaunchVersionCount(names[s].c_str(), s % 2),
              expected)
        << names[s];
    EXPECT_EQ(tileRuntimeSiteLaunchVersionCount(names[s].c_str(), 1 - s % 2), 0)
        << names[s];
  }
  EXPECT_EQ(tileRuntimeLaunchVersionCount(TILE_VERSION_GUARDED), guarded);
  EXPECT_EQ(tileRuntimeLaunchVersionCount(TILE_VERSION_FALLBACK), fallback);
}

TEST_F(RuntimeLaunchVersions, LogsFirstFallbackOncePerSite) {
  const char *other = "@scale: launch of @kernels::@scale";
  const char *boxGuard = "box-inner-bytes: size[1]*4 % 16 == 0";
  setenv("TILE_LOG_FALLBACK", "1", 1);
  testing::internal::CaptureStderr();
  tileRuntimeNoteLaunchVersion(kCopySite, TILE_VERSION_GUARDED, nullptr);
  tileRuntimeNoteLaunchVersion(kCopySite, TILE_VERSION_FALLBACK, kStrideGuard);
  tileRuntimeNoteLaunchVersion(kCopySite, TILE_VERSION_FALLBACK, boxGuard);
  tileRuntimeNoteLaunchVersion(kCopySite, TILE_VERSION_GUARDED, nullptr);
  tileRuntimeNoteLaunchVersion(other, TILE_VERSION_GUARDED, nullptr);
  tileRuntimeNoteLaunchVersion(other, TILE_VERSION_FALLBACK, boxGuard);
  std::string copy = kCopySite; // the same site through another pointer
  tileRuntimeNoteLaunchVersion(copy.c_str(), TILE_VERSION_FALLBACK,
                               kStrideGuard);
  tileRuntimeNoteLaunchVersion(other, TILE_VERSION_FALLBACK, kStrideGuard);
  EXPECT_EQ(testing::internal::GetCapturedStderr(),
            fallbackLine(kCopySite, kStrideGuard) +
                fallbackLine(other, boxGuard));
  EXPECT_EQ(tileRuntimeSiteLaunchVersionCount(kCopySite, TILE_VERSION_FALLBACK),
            3);
  EXPECT_EQ(tileRuntimeSiteLaunchVersionCount(other, TILE_VERSION_FALLBACK), 2);
}

TEST_F(RuntimeLaunchVersions, LogsNullSiteAndNullGuardAsUnknown) {
  setenv("TILE_LOG_FALLBACK", "yes", 1);
  testing::internal::CaptureStderr();
  tileRuntimeNoteLaunchVersion(nullptr, TILE_VERSION_FALLBACK, nullptr);
  tileRuntimeNoteLaunchVersion(nullptr, TILE_VERSION_FALLBACK, kStrideGuard);
  tileRuntimeNoteLaunchVersion(kCopySite, TILE_VERSION_FALLBACK, nullptr);
  EXPECT_EQ(testing::internal::GetCapturedStderr(),
            fallbackLine("<unknown>", "<unknown>") +
                fallbackLine(kCopySite, "<unknown>"));
}

TEST_F(RuntimeLaunchVersions, NoLogWhenUnsetEmptyOrZero) {
  for (const char *value : {static_cast<const char *>(nullptr), "", "0"}) {
    SCOPED_TRACE(value ? std::string("\"") + value + "\"" : "unset");
    tileRuntimeResetLaunchVersionCounts();
    if (value)
      setenv("TILE_LOG_FALLBACK", value, 1);
    else
      unsetenv("TILE_LOG_FALLBACK");
    testing::internal::CaptureStderr();
    tileRuntimeNoteLaunchVersion(kCopySite, TILE_VERSION_FALLBACK,
                                 kStrideGuard);
    tileRuntimeNoteLaunchVersion(kCopySite, TILE_VERSION_FALLBACK,
                                 kStrideGuard);
    tileRuntimeNoteLaunchVersion(nullptr, TILE_VERSION_FALLBACK, kStrideGuard);
    EXPECT_EQ(testing::internal::GetCapturedStderr(), "");
    EXPECT_EQ(tileRuntimeLaunchVersionCount(TILE_VERSION_FALLBACK), 3);
  }
}

// The variable is read at each site's first fallback launch: a site whose
// first fallback was not logged stays unlogged, a new site is logged.
TEST_F(RuntimeLaunchVersions, VariableReadAtFirstFallbackOfEachSite) {
  const char *other = "@scale: launch of @kernels::@scale";
  testing::internal::CaptureStderr();
  tileRuntimeNoteLaunchVersion(kCopySite, TILE_VERSION_FALLBACK, kStrideGuard);
  setenv("TILE_LOG_FALLBACK", "1", 1);
  tileRuntimeNoteLaunchVersion(kCopySite, TILE_VERSION_FALLBACK, kStrideGuard);
  tileRuntimeNoteLaunchVersion(other, TILE_VERSION_FALLBACK, kStrideGuard);
  setenv("TILE_LOG_FALLBACK", "0", 1);
  tileRuntimeNoteLaunchVersion("@third: launch of @k", TILE_VERSION_FALLBACK,
                               kStrideGuard);
  EXPECT_EQ(testing::internal::GetCapturedStderr(),
            fallbackLine(other, kStrideGuard));
}

TEST_F(RuntimeLaunchVersions, ResetForgetsLoggedSites) {
  setenv("TILE_LOG_FALLBACK", "1", 1);
  testing::internal::CaptureStderr();
  tileRuntimeNoteLaunchVersion(kCopySite, TILE_VERSION_FALLBACK, kStrideGuard);
  tileRuntimeNoteLaunchVersion(kCopySite, TILE_VERSION_FALLBACK, kStrideGuard);
  tileRuntimeResetLaunchVersionCounts();
  tileRuntimeNoteLaunchVersion(kCopySite, TILE_VERSION_FALLBACK, kStrideGuard);
  tileRuntimeNoteLaunchVersion(kCopySite, TILE_VERSION_FALLBACK, kStrideGuard);
  EXPECT_EQ(testing::internal::GetCapturedStderr(),
            fallbackLine(kCopySite, kStrideGuard) +
                fallbackLine(kCopySite, kStrideGuard));
}

// Threads noting the same sites (through their own copies of the strings)
// lose no count, and each site's first fallback is logged once.
TEST_F(RuntimeLaunchVersions, ThreadSafeExactCounts) {
  const int threads = 4, notes = 10000, sites = 8;
  setenv("TILE_LOG_FALLBACK", "1", 1);
  testing::internal::CaptureStderr();
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t)
    pool.emplace_back([=] {
      std::vector<std::string> names;
      for (int s = 0; s < sites; ++s)
        names.push_back("@site" + std::to_string(s));
      for (int i = 0; i < notes; ++i) {
        int32_t version =
            i % 4 == 0 ? TILE_VERSION_FALLBACK : TILE_VERSION_GUARDED;
        tileRuntimeNoteLaunchVersion(names[(i + t) % sites].c_str(), version,
                                     version ? kStrideGuard : nullptr);
      }
    });
  for (std::thread &thread : pool)
    thread.join();
  std::string log = testing::internal::GetCapturedStderr();

  EXPECT_EQ(tileRuntimeLaunchVersionCount(TILE_VERSION_GUARDED) +
                tileRuntimeLaunchVersionCount(TILE_VERSION_FALLBACK),
            threads * notes);
  EXPECT_EQ(tileRuntimeLaunchVersionCount(TILE_VERSION_FALLBACK),
            threads * notes / 4);
  EXPECT_EQ(tileRuntimeLaunchVersionCount(TILE_VERSION_GUARDED),
            threads * notes * 3 / 4);
  int64_t perSite = 0;
  for (int s = 0; s < sites; ++s) {
    std::string name = "@site" + std::to_string(s);
    // Thread t notes site s when i = s - t (mod 8), which is a fallback
    // (i % 4 == 0) every time for the one thread with t = s (mod 4), and
    // never for the others.
    int64_t fallback =
        tileRuntimeSiteLaunchVersionCount(name.c_str(), TILE_VERSION_FALLBACK);
    int64_t guarded =
        tileRuntimeSiteLaunchVersionCount(name.c_str(), TILE_VERSION_GUARDED);
    EXPECT_EQ(fallback + guarded, threads * notes / sites) << name;
    EXPECT_EQ(fallback, notes / sites) << name;
    perSite += fallback + guarded;
    EXPECT_EQ(log.find(fallbackLine(name, kStrideGuard)),
              log.rfind(fallbackLine(name, kStrideGuard)))
        << name;
    EXPECT_NE(log.find(fallbackLine(name, kStrideGuard)), std::string::npos)
        << name;
  }
  EXPECT_EQ(perSite, threads * notes);
  EXPECT_EQ(log.size(), [&] {
    size_t size = 0;
    for (int s = 0; s < sites; ++s)
      size += fallbackLine("@site" + std::to_string(s), kStrideGuard).size();
    return size;
  }());
}

} // namespace
