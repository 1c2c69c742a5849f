//===- device_map_check.cpp - Device-side tensor maps on the GPU ----------===//
//
// Runs test/GPU/kernels/device_map_groups.mlir (built by scripts/gpu-suite.sh
// into DIR/device_map_groups.so) on 8 groups with run-time row counts and
// starts in device memory, twice with different counts, and checks C bit for
// bit: group g's rows of C hold A[g]'s first count_g rows in their first 64
// columns, and every other element of C keeps its sentinel (the map's
// dimensions, replaced on the device, clip the 64 x 64 box). Prints one line
// per run and exits 1 on a mismatch; without a CUDA driver it prints a SKIP
// line and exits 0.
//
//   device_map_check [DIR]
//
//===----------------------------------------------------------------------===//

#include "tile/Runtime/TileRuntime.h"

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <dlfcn.h>
#include <string>
#include <vector>

namespace {

constexpr int64_t kGroups = 8, kRows = 64, kCols = 64;
// C: each group owns kSpan rows (so rows past a group are visible), with a
// row pitch of kPitch elements (so columns past 64 are visible).
constexpr int64_t kSpan = 80, kPitch = 96, kCRows = kGroups * kSpan;
constexpr uint16_t kSentinel = 0xA5A5;

template <int N> struct Desc {
  void *allocated, *aligned;
  int64_t offset, sizes[N], strides[N];
};

using Entry = void (*)(Desc<3> *, Desc<2> *, Desc<1> *, Desc<1> *);

void *upload(const void *host, size_t bytes) {
  void *dev = mgpuMemAlloc(bytes, nullptr, false);
  if (dev)
    mgpuMemcpy(dev, const_cast<void *>(host), bytes, nullptr);
  return dev;
}

bool run(Entry entry, const char *name, const std::vector<int32_t> &counts) {
  std::vector<uint16_t> a(kGroups * kRows * kCols);
  for (size_t i = 0; i < a.size(); ++i)
    a[i] = static_cast<uint16_t>((i * 2654435761u) >> 7);
  std::vector<uint16_t> c(kCRows * kPitch, kSentinel);
  std::vector<int32_t> starts(kGroups);
  for (int64_t g = 0; g < kGroups; ++g)
    starts[g] = static_cast<int32_t>(g * kSpan);
  tileRuntimeClearError();
  void *devA = upload(a.data(), a.size() * 2);
  void *devC = upload(c.data(), c.size() * 2);
  void *devCounts = upload(counts.data(), counts.size() * 4);
  void *devStarts = upload(starts.data(), starts.size() * 4);
  if (!devA || !devC || !devCounts || !devStarts) {
    std::printf("FAIL device_map %s: allocation: %s\n", name,
                tileRuntimeLastError());
    return false;
  }
  Desc<3> dA{devA, devA, 0, {kGroups, kRows, kCols}, {kRows * kCols, kCols, 1}};
  Desc<2> dC{devC, devC, 0, {kCRows, kPitch}, {kPitch, 1}};
  Desc<1> dCounts{devCounts, devCounts, 0, {kGroups}, {1}};
  Desc<1> dStarts{devStarts, devStarts, 0, {kGroups}, {1}};
  entry(&dA, &dC, &dCounts, &dStarts);
  mgpuStreamSynchronize(nullptr);
  std::vector<uint16_t> got(c.size());
  mgpuMemcpy(got.data(), devC, got.size() * 2, nullptr);
  mgpuStreamSynchronize(nullptr);
  std::string error = tileRuntimeLastError();
  for (void *p : {devA, devC, devCounts, devStarts})
    mgpuMemFree(p, nullptr);
  if (tileRuntimeConsumeStatus() != TILE_SUCCESS) {
    std::printf("FAIL device_map %s: %s\n", name, error.c_str());
    return false;
  }
  int64_t bad = 0, firstBad = -1;
  for (int64_t g = 0; g < kGroups; ++g)
    for (int64_t r = 0; r < kSpan; ++r)
      for (int64_t col = 0; col < kPitch; ++col) {
        int64_t at = (g * kSpan + r) * kPitch + col;
        uint16_t want = r < counts[g] && col < kCols
                            ? a[(g * kRows + r) * kCols + col]
                            : kSentinel;
        if (got[at] != want && bad++ == 0)
          firstBad = at;
      }
  if (bad) {
    std::printf("FAIL device_map %s: %lld of %lld elements differ, first at "
                "row %lld column %lld\n",
                name, static_cast<long long>(bad),
                static_cast<long long>(got.size()),
                static_cast<long long>(firstBad / kPitch),
                static_cast<long long>(firstBad % kPitch));
    return false;
  }
  std::printf("PASS device_map %s: 8 groups, rows", name);
  for (int32_t n : counts)
    std::printf(" %d", n);
  std::printf("; C exact, rows and columns past each group untouched\n");
  return true;
}

} // namespace

int main(int argc, char **argv) {
  std::string dir = argc > 1 ? argv[1] : ".";
  if (tileRuntimeInit() != TILE_SUCCESS) {
    std::printf("SKIP device_map: %s\n", tileRuntimeLastError());
    return 0;
  }
  std::string path = dir + "/device_map_groups.so";
  void *lib = dlopen(path.c_str(), RTLD_NOW);
  auto entry = lib ? reinterpret_cast<Entry>(
                         dlsym(lib, "_mlir_ciface_device_map_groups"))
                   : nullptr;
  if (!entry) {
    std::printf("FAIL device_map: %s\n", dlerror());
    return 1;
  }
  bool ok = true;
  // Full, single-row, empty and ragged groups; then other counts on the same
  // launch site (the same slots, updated again).
  ok &= run(entry, "first", {64, 1, 0, 37, 63, 5, 64, 17});
  ok &= run(entry, "second", {3, 64, 40, 0, 1, 64, 0, 33});
  return ok ? 0 : 1;
}
