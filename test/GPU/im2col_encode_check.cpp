//===- im2col_encode_check.cpp - Im2col validation against the driver -----===//
//
// For each request below, asks the runtime's validator
// (tileTensorMapValidateIm2col) and the driver's cuTensorMapEncodeIm2col
// (resolved from libcuda.so.1 directly) whether they accept it, and prints
//
//   im2col <name>: runtime accept|reject, driver accept|reject (<CUresult>)
//
// with "ok" when they agree and "MISMATCH" when not. For every accepted
// request, the runtime's tileTensorMapEncodeIm2col must also produce the
// driver's 128 bytes with the defect patch applied. Exits 1 on any
// mismatch; without a CUDA driver it prints a SKIP line and exits 0.
//
//   im2col_encode_check [DRIVER_LIBRARY]
//
// Built and run by scripts/gpu-suite.sh.
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

struct Request {
  const char *name;
  std::vector<uint64_t> dims; // C, W[, H[, D]], N
  std::vector<int32_t> lower, upper;
  uint32_t channelsPerPixel, pixelsPerColumn;
  int32_t dataType = 6; // FLOAT16
  int32_t swizzle = 0;
  int32_t interleave = 0;
  uint32_t elementStride = 1;    // every dimension ...
  int32_t elementStrideDim = -1; // ... or only this one
};

uint32_t elementBytes(int32_t dataType) {
  return tileTensorMapElementBytes(dataType);
}

const Request kRequests[] = {
    // A 3x3 window with padding 1 on a 5x5 NHWC image, C = 8 (u32).
    {"nhwc-3x3-pad1", {8, 5, 5, 2}, {-1, -1}, {-1, -1}, 8, 16, 2},
    // Corner ranges by rank.
    {"rank3-lower-min", {8, 70000, 1}, {-32768}, {32767}, 8, 16},
    {"rank3-lower-below", {8, 70000, 1}, {-32769}, {0}, 8, 16},
    {"rank3-upper-above", {8, 70000, 1}, {0}, {32768}, 8, 16},
    {"rank4-lower-128", {8, 300, 300, 1}, {-128, -1}, {-1, -1}, 8, 16},
    {"rank4-lower-129", {8, 300, 300, 1}, {-129, -1}, {-1, -1}, 8, 16},
    {"rank4-upper-127", {8, 300, 300, 1}, {0, 0}, {127, 0}, 8, 16},
    {"rank4-upper-128", {8, 300, 300, 1}, {0, 0}, {128, 0}, 8, 16},
    {"rank5-corners-min-max",
     {8, 40, 40, 40, 1},
     {-16, -16, -16},
     {15, 15, 15},
     8,
     16},
    {"rank5-lower-16", {8, 40, 40, 40, 1}, {16, 0, 0}, {0, 0, 0}, 8, 16},
    {"rank5-upper-minus17", {8, 40, 40, 40, 1}, {0, 0, 0}, {0, -17, 0}, 8, 16},
    // The bounding box: W = 5.
    {"box-one-position", {8, 5, 5, 1}, {2, 0}, {-2, 0}, 8, 16},
    {"box-empty-w", {8, 5, 5, 1}, {3, 0}, {-3, 0}, 8, 16},
    {"box-empty-h", {8, 5, 4, 1}, {0, 2}, {0, -2}, 8, 16},
    // Channels per pixel.
    {"channels-256-u8", {256, 4, 4, 1}, {0, 0}, {0, 0}, 256, 16, 0},
    {"channels-257-u8", {272, 4, 4, 1}, {0, 0}, {0, 0}, 257, 16, 0},
    {"channels-260-u32", {260, 2, 2, 1}, {0, 0}, {0, 0}, 260, 1, 2},
    {"channels-6-u32", {8, 5, 5, 1}, {0, 0}, {0, 0}, 6, 4, 2},
    {"channels-12-f16-interleave64",
     {16, 5, 5, 1},
     {0, 0},
     {0, 0},
     12,
     4,
     6,
     0,
     1},
    // Pixels per column.
    {"pixels-1024", {8, 5, 5, 1}, {0, 0}, {0, 0}, 8, 1024},
    {"pixels-1025", {8, 5, 5, 1}, {0, 0}, {0, 0}, 8, 1025},
    {"pixels-257", {8, 5, 5, 1}, {0, 0}, {0, 0}, 8, 257},
    // Element strides.
    {"element-strides-8", {8, 9, 9, 1}, {0, 0}, {0, 0}, 8, 16, 6, 0, 0, 8},
    {"element-stride-9-w", {8, 9, 9, 1}, {0, 0}, {0, 0}, 8, 16, 6, 0, 0, 9, 1},
    // Swizzle spans (f16: 2 bytes per channel).
    {"swizzle32-16ch", {64, 4, 4, 1}, {0, 0}, {0, 0}, 16, 16, 6, 1},
    {"swizzle32-24ch", {64, 4, 4, 1}, {0, 0}, {0, 0}, 24, 16, 6, 1},
    {"swizzle64-32ch", {64, 4, 4, 1}, {0, 0}, {0, 0}, 32, 16, 6, 2},
    {"swizzle64-40ch", {64, 4, 4, 1}, {0, 0}, {0, 0}, 40, 16, 6, 2},
    {"swizzle128-64ch", {64, 4, 4, 1}, {0, 0}, {0, 0}, 64, 16, 6, 3},
    {"swizzle128-72ch", {80, 4, 4, 1}, {0, 0}, {0, 0}, 72, 16, 6, 3},
};

} // namespace

int main(int argc, char **argv) {
  // An optional driver library instead of libcuda.so.1 (plumbing tests with
  // the fake driver, whose encoder accepts everything).
  const char *driverPath = argc > 1 ? argv[1] : "libcuda.so.1";
  if (argc > 1)
    tileRuntimeSetDriverLibraryForTesting(driverPath);
  if (tileRuntimeInit() != TILE_SUCCESS) {
    std::printf("SKIP im2col encode check: %s\n", tileRuntimeLastError());
    return 0;
  }
  void *library = dlopen(driverPath, RTLD_NOW | RTLD_LOCAL);
  auto driverEncode = library ? reinterpret_cast<TileTensorMapEncodeIm2colHook>(
                                    dlsym(library, "cuTensorMapEncodeIm2col"))
                              : nullptr;
  if (!driverEncode) {
    std::printf("FAIL im2col encode check: no cuTensorMapEncodeIm2col\n");
    return 1;
  }
  const uint64_t bufferBytes = 64ull << 20;
  void *buffer = mgpuMemAlloc(bufferBytes, nullptr, false);
  if (!buffer) {
    std::printf("FAIL im2col encode check: %s\n", tileRuntimeLastError());
    return 1;
  }
  int32_t version = 0;
  tileRuntimeDriverVersion(&version);

  int mismatches = 0;
  for (const Request &r : kRequests) {
    int32_t rank = int32_t(r.dims.size());
    uint32_t eb = elementBytes(r.dataType);
    std::vector<uint64_t> strides;
    uint64_t stride = eb;
    for (int32_t d = 0; d + 1 < rank; ++d) {
      stride *= r.dims[d];
      strides.push_back(stride);
    }
    std::vector<uint32_t> es(rank,
                             r.elementStrideDim < 0 ? r.elementStride : 1);
    if (r.elementStrideDim >= 0)
      es[r.elementStrideDim] = r.elementStride;
    if (stride * r.dims[rank - 1] > bufferBytes) {
      std::printf("im2col %s: tensor too large for the buffer\n", r.name);
      ++mismatches;
      continue;
    }
    tileRuntimeClearError();
    int32_t status = tileTensorMapValidateIm2col(
        r.dataType, rank, buffer, r.dims.data(), strides.data(), r.lower.data(),
        r.upper.data(), r.channelsPerPixel, r.pixelsPerColumn, es.data(),
        r.interleave, r.swizzle, 0, 0);
    std::string message = tileRuntimeLastError();
    alignas(64) unsigned char direct[128] = {};
    // The validator's accepted run first: tileTensorMapEncodeIm2col makes a
    // context current, which the direct driver call needs.
    alignas(64) unsigned char viaRuntime[128] = {};
    int32_t encodeStatus =
        status == TILE_SUCCESS
            ? tileTensorMapEncodeIm2col(
                  viaRuntime, r.dataType, rank, buffer, r.dims.data(),
                  strides.data(), r.lower.data(), r.upper.data(),
                  r.channelsPerPixel, r.pixelsPerColumn, es.data(),
                  r.interleave, r.swizzle, 0, 0)
            : TILE_ERROR_INVALID_VALUE;
    int32_t result = driverEncode(
        direct, r.dataType, uint32_t(rank), buffer, r.dims.data(),
        strides.data(), r.lower.data(), r.upper.data(), r.channelsPerPixel,
        r.pixelsPerColumn, es.data(), r.interleave, r.swizzle, 0, 0);
    bool agree = (status == TILE_SUCCESS) == (result == 0);
    std::printf("im2col %s: runtime %s, driver %s (%d): %s\n", r.name,
                status == TILE_SUCCESS ? "accept" : "reject",
                result == 0 ? "accept" : "reject", result,
                agree ? "ok" : "MISMATCH");
    if (status != TILE_SUCCESS)
      std::printf("  runtime: %s\n", message.c_str());
    if (!agree) {
      ++mismatches;
      continue;
    }
    if (status == TILE_SUCCESS) {
      uint64_t tensorBytes = tileTensorMapTensorBytes(
          r.dataType, rank, r.dims.data(), strides.data());
      tileTensorMapApplyDefectPatch(direct, version, tensorBytes);
      if (encodeStatus != TILE_SUCCESS ||
          std::memcmp(direct, viaRuntime, 128) != 0) {
        std::printf("  MISMATCH: the runtime's encode (%s) differs from the "
                    "driver's: %s\n",
                    tileRuntimeStatusName(encodeStatus),
                    tileRuntimeLastError());
        ++mismatches;
      }
    }
  }
  mgpuMemFree(buffer, nullptr);
  std::printf("%s im2col encode check: %zu requests, %d mismatches\n",
              mismatches ? "FAIL" : "PASS",
              sizeof(kRequests) / sizeof(kRequests[0]), mismatches);
  return mismatches ? 1 : 0;
}
