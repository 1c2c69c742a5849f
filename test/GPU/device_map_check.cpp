//===- device_map_check.cpp - Device-side tensor maps on the GPU ----------===//
//
// Runs test/GPU/kernels/device_map_groups.mlir (built by scripts/gpu-suite.sh
// into DIR/device_map_groups.so) on a stream of its own: 8 groups with
// run-time row counts and starts in device memory, twice with different
// counts. Each CTA loads its group through one device map and stores it
// through another. Checks C bit for bit: group g's rows of C hold A's rows of
// the group in their first 64 columns, the next 4 rows the load's zero fill
// (the load map ends at the group), and every other element of C keeps its
// sentinel (the store map's dimensions clip the 64 x 64 box). Checks each
// updated slot of the launch stream's array byte for byte against the
// driver's encoding of the group's views (cuTensorMapEncodeTiled), and that
// the NULL stream's array is another. Then it captures the launch into a
// CUDA graph and replays the graph twice, with new contents of A and new row
// counts written to device memory between the replays: the maps are
// rewritten on the device each time, so C stays exact. All of it for both
// forms of the update: in the slot (global memory) and staged in shared
// memory by a warp (tensormap.cp_fenceproxy). Prints one line per
// run and exits 1 on a mismatch; without a CUDA driver it prints a SKIP line
// and exits 0.
//
//   device_map_check [DIR]
//
//===----------------------------------------------------------------------===//

#include "tile/Runtime/TileRuntime.h"

#include <algorithm>
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

template <int N>
struct Desc {
  void *allocated, *aligned;
  int64_t offset, sizes[N], strides[N];
};

using StreamEntry = void *(*)(Desc<2> *, Desc<2> *, Desc<1> *, Desc<1> *,
                              void *);

/// One of the kernel's entry points: the maps updated in global memory
/// (`on`) or staged in shared memory (`staged_on`).
struct Entry {
  const char *label;
  StreamEntry fn;
  /// The launch site's name, which keys its slot array in the runtime.
  std::string site;
};

void *upload(const void *host, size_t bytes) {
  void *dev = mgpuMemAlloc(bytes, nullptr, false);
  if (dev)
    mgpuMemcpy(dev, const_cast<void *>(host), bytes, nullptr);
  return dev;
}

struct Buffers {
  std::vector<uint16_t> a;
  std::vector<int32_t> counts, starts;
  void *devA = nullptr, *devC = nullptr, *devCounts = nullptr,
       *devStarts = nullptr;
  Desc<2> dA;
  Desc<2> dC;
  Desc<1> dCounts, dStarts;
};

std::vector<uint16_t> contentsOfA(unsigned seed) {
  std::vector<uint16_t> a(kGroups * kRows * kCols);
  for (size_t i = 0; i < a.size(); ++i)
    a[i] = static_cast<uint16_t>(((i + seed) * 2654435761u) >> 7);
  return a;
}

/// Writes A, the counts and a sentinel-filled C to the device buffers.
void fill(Buffers &b, unsigned seed, const std::vector<int32_t> &counts) {
  b.a = contentsOfA(seed);
  b.counts = counts;
  std::vector<uint16_t> c(kCRows * kPitch, kSentinel);
  mgpuMemcpy(b.devA, b.a.data(), b.a.size() * 2, nullptr);
  mgpuMemcpy(b.devC, c.data(), c.size() * 2, nullptr);
  mgpuMemcpy(b.devCounts, b.counts.data(), b.counts.size() * 4, nullptr);
  mgpuStreamSynchronize(nullptr);
}

bool allocate(Buffers &b) {
  tileRuntimeClearError();
  b.starts.resize(kGroups);
  for (int64_t g = 0; g < kGroups; ++g)
    b.starts[g] = static_cast<int32_t>(g * kSpan);
  b.devA = mgpuMemAlloc(kGroups * kRows * kCols * 2, nullptr, false);
  b.devC = mgpuMemAlloc(kCRows * kPitch * 2, nullptr, false);
  b.devCounts = mgpuMemAlloc(kGroups * 4, nullptr, false);
  b.devStarts = upload(b.starts.data(), b.starts.size() * 4);
  b.dA = {b.devA, b.devA, 0, {kGroups * kRows, kCols}, {kCols, 1}};
  b.dC = {b.devC, b.devC, 0, {kCRows, kPitch}, {kPitch, 1}};
  b.dCounts = {b.devCounts, b.devCounts, 0, {kGroups}, {1}};
  b.dStarts = {b.devStarts, b.devStarts, 0, {kGroups}, {1}};
  return b.devA && b.devC && b.devCounts && b.devStarts;
}

void release(Buffers &b) {
  for (void *p : {b.devA, b.devC, b.devCounts, b.devStarts})
    mgpuMemFree(p, nullptr);
}

/// Compares C on the device with what the groups should have written.
bool check(const Buffers &b, const char *name) {
  std::vector<uint16_t> got(kCRows * kPitch);
  mgpuMemcpy(got.data(), b.devC, got.size() * 2, nullptr);
  mgpuStreamSynchronize(nullptr);
  if (tileRuntimeConsumeStatus() != TILE_SUCCESS) {
    std::printf("FAIL device_map %s: %s\n", name, tileRuntimeLastError());
    return false;
  }
  int64_t bad = 0, firstBad = -1;
  for (int64_t g = 0; g < kGroups; ++g)
    for (int64_t r = 0; r < kSpan; ++r)
      for (int64_t col = 0; col < kPitch; ++col) {
        int64_t at = (g * kSpan + r) * kPitch + col;
        // Rows of the group: A's; the next 4 (within the 64-row box): the
        // load's zero fill; then what C held. A group of 0 rows copies
        // nothing.
        uint16_t want = kSentinel;
        if (b.counts[g] > 0 && col < kCols && r < b.counts[g])
          want = b.a[(g * kRows + r) * kCols + col];
        else if (b.counts[g] > 0 && col < kCols &&
                 r < std::min<int64_t>(b.counts[g] + 4, kRows))
          want = 0;
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
  for (int32_t n : b.counts)
    std::printf(" %d", n);
  std::printf("; C exact (the load clipped to the group, the store past it)\n");
  return true;
}

bool checkSlots(const Buffers &b, const Entry &entry, void *stream,
                const char *name);

bool run(const Entry &entry, const char *run, unsigned seed,
         const std::vector<int32_t> &counts) {
  std::string label = std::string(entry.label) + " " + run;
  const char *name = label.c_str();
  Buffers b;
  bool ok = allocate(b);
  if (ok) {
    fill(b, seed, counts);
    void *stream = mgpuStreamCreate();
    entry.fn(&b.dA, &b.dC, &b.dCounts, &b.dStarts, stream);
    mgpuStreamSynchronize(stream);
    ok = check(b, name) && checkSlots(b, entry, stream, name);
    mgpuStreamDestroy(stream);
  } else {
    std::printf("FAIL device_map %s: allocation: %s\n", name,
                tileRuntimeLastError());
  }
  release(b);
  return ok;
}

/// The launch site's slot array on the launch's stream (the runtime's: per
/// CTA, C's map then A's, in the order of the kernel's tile.device_map ops)
/// against the driver's encoding of each non-empty group's views. Another
/// stream's launches must get another array (the NULL stream's here).
bool checkSlots(const Buffers &b, const Entry &entry, void *stream,
                const char *name) {
  using Encode =
      int (*)(void *, int, unsigned, void *, const uint64_t *, const uint64_t *,
              const uint32_t *, const uint32_t *, int, int, int, int);
  void *cuda = dlopen("libcuda.so.1", RTLD_NOW);
  auto encode =
      cuda ? reinterpret_cast<Encode>(dlsym(cuda, "cuTensorMapEncodeTiled"))
           : nullptr;
  size_t bytes = kGroups * 2 * 128;
  void *slots =
      tileRuntimeDeviceMapArrayOnStream(entry.site.c_str(), bytes, stream);
  if (!encode || !slots) {
    std::printf("FAIL device_map %s slots: %s\n", name,
                encode ? tileRuntimeLastError() : "no cuTensorMapEncodeTiled");
    return false;
  }
  void *nullStreamSlots = tileRuntimeDeviceMapArray(entry.site.c_str(), bytes);
  if (!nullStreamSlots || nullStreamSlots == slots) {
    std::printf("FAIL device_map %s slots: the NULL stream's array %p is the "
                "launch stream's %p\n",
                name, nullStreamSlots, slots);
    return false;
  }
  std::vector<uint8_t> got(bytes);
  mgpuMemcpy(got.data(), slots, got.size(), nullptr);
  mgpuStreamSynchronize(nullptr);
  int compared = 0;
  for (int64_t g = 0; g < kGroups; ++g) {
    if (b.counts[g] == 0)
      continue; // A's update failed its guard: nothing to compare
    char *baseC = static_cast<char *>(b.devC) + b.starts[g] * kPitch * 2;
    char *baseA = static_cast<char *>(b.devA) + g * kRows * kCols * 2;
    uint64_t rows = static_cast<uint64_t>(b.counts[g]);
    struct View {
      const char *what;
      void *base;
      uint64_t rows, pitchBytes;
    } views[2] = {{"C", baseC, rows + 4, kPitch * 2},
                  {"A", baseA, rows, kCols * 2}};
    for (int slot = 0; slot < 2; ++slot) {
      const View &v = views[slot];
      alignas(64) uint8_t want[128];
      uint64_t dims[2] = {kCols, v.rows};
      uint64_t strides[1] = {v.pitchBytes};
      uint32_t box[2] = {64, 64}, elementStrides[2] = {1, 1};
      // bf16, no interleave, 128B swizzle, 128B L2 promotion, zero fill:
      // the templates' plans (tile.tensor_maps of the kernel).
      int rc = encode(want, /*BFLOAT16=*/9, 2, v.base, dims, strides, box,
                      elementStrides, 0, 3, 2, 0);
      if (rc != 0) {
        std::printf("FAIL device_map %s slots: encode of group %lld's %s: "
                    "%d\n",
                    name, static_cast<long long>(g), v.what, rc);
        return false;
      }
      const uint8_t *slotBytes = &got[(g * 2 + slot) * 128];
      for (int i = 0; i < 128; ++i)
        if (slotBytes[i] != want[i]) {
          std::printf("FAIL device_map %s slots: group %lld's %s map byte %d "
                      "is 0x%02x, the driver's 0x%02x\n",
                      name, static_cast<long long>(g), v.what, i, slotBytes[i],
                      want[i]);
          return false;
        }
      ++compared;
    }
  }
  std::printf("PASS device_map %s slots: %d updated maps equal the driver's "
              "encoding byte for byte\n",
              name, compared);
  return true;
}

/// The driver's graph entry points (resolved from libcuda directly).
struct Graphs {
  int (*beginCapture)(void *, int) = nullptr;
  int (*endCapture)(void *, void **) = nullptr;
  int (*instantiate)(void **, void *, unsigned long long) = nullptr;
  int (*launch)(void *, void *) = nullptr;
  int (*execDestroy)(void *) = nullptr;
  int (*destroy)(void *) = nullptr;
  bool load() {
    void *cuda = dlopen("libcuda.so.1", RTLD_NOW);
    if (!cuda)
      return false;
    auto sym = [&](const char *a, const char *b) {
      void *f = dlsym(cuda, a);
      return f ? f : dlsym(cuda, b);
    };
    beginCapture = reinterpret_cast<decltype(beginCapture)>(
        sym("cuStreamBeginCapture_v2", "cuStreamBeginCapture"));
    endCapture = reinterpret_cast<decltype(endCapture)>(
        sym("cuStreamEndCapture", "cuStreamEndCapture"));
    instantiate = reinterpret_cast<decltype(instantiate)>(
        sym("cuGraphInstantiateWithFlags", "cuGraphInstantiateWithFlags"));
    launch = reinterpret_cast<decltype(launch)>(
        sym("cuGraphLaunch", "cuGraphLaunch"));
    execDestroy = reinterpret_cast<decltype(execDestroy)>(
        sym("cuGraphExecDestroy", "cuGraphExecDestroy"));
    destroy = reinterpret_cast<decltype(destroy)>(
        sym("cuGraphDestroy", "cuGraphDestroy"));
    return beginCapture && endCapture && instantiate && launch && execDestroy &&
           destroy;
  }
};

/// Captures one launch into a graph, then replays it with new contents of A
/// and new counts written between the replays.
bool runGraph(const Entry &entry) {
  Graphs cu;
  if (!cu.load()) {
    std::printf("FAIL device_map graph: the driver lacks the graph API\n");
    return false;
  }
  Buffers b;
  if (!allocate(b)) {
    std::printf("FAIL device_map graph: allocation: %s\n",
                tileRuntimeLastError());
    release(b);
    return false;
  }
  void *stream = mgpuStreamCreate();
  void *graph = nullptr, *exec = nullptr;
  bool ok = true;
  int rc = cu.beginCapture(stream, /*CU_STREAM_CAPTURE_MODE_GLOBAL=*/0);
  if (rc == 0) {
    entry.fn(&b.dA, &b.dC, &b.dCounts, &b.dStarts, stream);
    rc = cu.endCapture(stream, &graph);
  }
  if (rc == 0)
    rc = cu.instantiate(&exec, graph, 0);
  if (rc != 0 || tileRuntimeConsumeStatus() != TILE_SUCCESS) {
    std::printf("FAIL device_map graph: capture (CUresult %d): %s\n", rc,
                tileRuntimeLastError());
    ok = false;
  }
  const std::vector<std::vector<int32_t>> replays = {
      {64, 1, 0, 37, 63, 5, 64, 17}, {0, 2, 64, 31, 0, 48, 9, 64}};
  for (size_t i = 0; ok && i < replays.size(); ++i) {
    fill(b, 100 + static_cast<unsigned>(i), replays[i]);
    rc = cu.launch(exec, stream);
    mgpuStreamSynchronize(stream);
    std::string name =
        std::string(entry.label) + " graph replay " + std::to_string(i + 1);
    ok = rc == 0 && check(b, name.c_str());
    if (rc != 0)
      std::printf("FAIL device_map %s: cuGraphLaunch (CUresult %d)\n",
                  name.c_str(), rc);
  }
  if (exec)
    cu.execDestroy(exec);
  if (graph)
    cu.destroy(graph);
  mgpuStreamDestroy(stream);
  release(b);
  return ok;
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
  if (!lib) {
    std::printf("FAIL device_map: %s\n", dlerror());
    return 1;
  }
  bool ok = true;
  for (const char *form : {"on", "staged_on"}) {
    std::string fn = std::string("device_map_groups_") + form;
    Entry entry{form,
                reinterpret_cast<StreamEntry>(
                    dlsym(lib, ("_mlir_ciface_" + fn).c_str())),
                "@" + fn + ": launch of @" + fn + "_kernel::@" + fn +
                    "_kernel"};
    if (!entry.fn) {
      std::printf("FAIL device_map: no entry %s\n", fn.c_str());
      ok = false;
      continue;
    }
    // Full, single-row, empty and ragged groups; then other counts on the
    // same launch site (the same slots, updated again).
    ok &= run(entry, "first", 1, {64, 1, 0, 37, 63, 5, 64, 17});
    ok &= run(entry, "second", 2, {3, 64, 40, 0, 1, 64, 0, 33});
    ok &= runGraph(entry);
  }
  return ok ? 0 : 1;
}
