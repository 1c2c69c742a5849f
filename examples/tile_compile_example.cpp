//===- tile_compile_example.cpp - Calling a tile-compile entry from C++ ---===//
//
// Calls the reference demo compiled by tile-compile:
//
//   tile-compile examples/copy_async_tma.mlir -o demo.so --runtime-dir <lib>
//   clang++ -std=c++17 examples/tile_compile_example.cpp -Iinclude demo.so \
//       -L<lib> -ltile_runtime -Wl,-rpath,'$ORIGIN' -o example
//
// (scripts/gpu-suite.sh builds it as .gpu/tile_compile_example.) The entry
// takes one memref descriptor per `memref` argument of the host function:
// {allocated, aligned, offset, sizes[rank], strides[rank]}, with device
// pointers. Device memory and copies go through the runtime's mgpu* calls;
// failures are read back with tileRuntimeConsumeStatus().
//
//===----------------------------------------------------------------------===//

#include "tile/Runtime/TileRuntime.h"

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

template <int Rank>
struct MemRef {
  void *allocated;
  void *aligned;
  int64_t offset;
  int64_t sizes[Rank];
  int64_t strides[Rank];
};

// func.func @copy_async(%A: memref<8x256xf16>, %B: memref<8x256xf16>)
extern "C" void _mlir_ciface_copy_async(MemRef<2> *A, MemRef<2> *B);

int main() {
  if (tileRuntimeInit() != TILE_SUCCESS) {
    std::printf("skipped: %s\n", tileRuntimeLastError());
    return 0;
  }
  const size_t count = 8 * 256, bytes = count * sizeof(uint16_t);
  std::vector<uint16_t> a(count), b(count, 0xFFFF);
  for (size_t i = 0; i < count; ++i)
    a[i] = static_cast<uint16_t>(i * 2654435761u >> 16); // f16 bit patterns

  void *dA = mgpuMemAlloc(bytes, nullptr, false);
  void *dB = mgpuMemAlloc(bytes, nullptr, false);
  mgpuMemcpy(dA, a.data(), bytes, nullptr);
  mgpuMemcpy(dB, b.data(), bytes, nullptr);
  mgpuStreamSynchronize(nullptr);

  MemRef<2> A{dA, dA, 0, {8, 256}, {256, 1}};
  MemRef<2> B{dB, dB, 0, {8, 256}, {256, 1}};
  _mlir_ciface_copy_async(&A, &B); // encodes the tensor map, launches, syncs
  if (tileRuntimeConsumeStatus() != TILE_SUCCESS) {
    std::printf("error: %s\n", tileRuntimeLastError());
    return 1;
  }
  mgpuMemcpy(b.data(), dB, bytes, nullptr);
  mgpuStreamSynchronize(nullptr);
  mgpuMemFree(dA, nullptr);
  mgpuMemFree(dB, nullptr);
  bool same = std::memcmp(a.data(), b.data(), bytes) == 0;
  std::printf("copy_async: B %s A\n", same ? "equals" : "differs from");
  return same ? 0 : 1;
}
