//===- FakeCuda.h - State of the fake libcuda used by tests -----*- C++ -*-===//
//
// FakeCuda.cpp builds a shared library with the driver entry points the
// runtime resolves; it records what it was asked to do here. Tests reach the
// state through dlopen/dlsym("fakeCudaState") on the same library.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_UNITTESTS_RUNTIME_FAKECUDA_H
#define TILE_UNITTESTS_RUNTIME_FAKECUDA_H

#include <cstddef>
#include <cstdint>
#include <dlfcn.h>

struct FakeCudaState {
  int initCalls;
  int encodeCalls;
  int moduleLoads;
  unsigned lastNumOptions;
  long lastOptLevel; // -1 when not passed
  int moduleUnloads;
  const char *lastFunctionName;
  int lastFuncAttribute;
  int lastFuncAttributeValue;
  int funcAttributeCalls;
  int launches;
  int launchExCalls;
  unsigned grid[3], block[3], cluster[3];
  unsigned smem;
  void *stream;
  void **params;
  void **extra;
  unsigned numAttrs;
  int streamsCreated, streamsDestroyed, streamSyncs, streamWaits;
  unsigned lastStreamFlags;
  int eventsCreated, eventsDestroyed, eventSyncs, eventRecords;
  int allocs, managedAllocs, frees;
  uint64_t lastAllocBytes;
  int memcpys, memset32s, memset16s;
  uint64_t lastDst, lastSrc;
  size_t lastCount;
  unsigned lastValue;
  int contextSets;
  int lastDevice;
  int staticSmem; // CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES of every function
  // The last cuTensorMapEncodeTiled call.
  unsigned lastEncodeRank;
  uint64_t lastEncodeAddress;
  uint64_t lastEncodeDims[5];
  uint64_t lastEncodeStrides[4];
  // The last cuTensorMapEncodeIm2col call.
  int encodeIm2colCalls;
  unsigned lastIm2colRank;
  uint64_t lastIm2colAddress;
  int lastIm2colLower[3], lastIm2colUpper[3];
  unsigned lastIm2colChannels, lastIm2colPixels;
};

using FakeCudaStateFn = FakeCudaState *(*)();

/// The recorded state of the fake library at `path`, the same library the
/// runtime was pointed at (null when it cannot be loaded).
inline FakeCudaState *loadFakeCudaState(const char *path) {
  void *library = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  auto fn =
      library
          ? reinterpret_cast<FakeCudaStateFn>(dlsym(library, "fakeCudaState"))
          : nullptr;
  return fn ? fn() : nullptr;
}

#endif // TILE_UNITTESTS_RUNTIME_FAKECUDA_H
