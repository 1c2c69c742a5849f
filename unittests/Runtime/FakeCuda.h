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
  // cuMemAlloc_v2 and cuMemAllocFromPoolAsync (device pointers 0x60000,
  // 0x70000, ... by `allocs` since the last reset; refused with 2 above 1 TiB),
  // cuMemFree_v2, cuMemFreeAsync (their stream after "on") and
  // cuThreadExchangeStreamCaptureMode in call order, as
  // "mode 0 -> 2; alloc 256 = 0x60000; mode 2 -> 0; free 0x60000; "
  // (failed calls end in "= error <n>"; truncated when full).
  char memoryLog[2048];
  // The pointers cuMemFree_v2 was given, in order (the first 64).
  uint64_t freed[64];
  // Set by tests: a stream is being captured in global mode, so cuMemAlloc_v2
  // and cuMemFree_v2 on a thread whose capture mode is not relaxed (2) fail
  // with CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED (900), as the driver's do.
  int capturing;
  // Set by tests: when nonzero, cuThreadExchangeStreamCaptureMode fails with
  // this result (and changes nothing).
  int exchangeResult;
  // Appended last, so the mirrors of the fields above (python/tests/
  // fake_driver.py) keep their offsets.
  int asyncAllocs, asyncFrees; // cuMemAllocFromPoolAsync, cuMemFreeAsync
  // cuLaunchKernel and cuLaunchKernelEx in call order, each as
  // "<function last looked up> (gx,gy,gz)x(bx,by,bz); " (truncated when full).
  char launchLog[2048];
  // cuTensorMapEncodeTiled's rank-2 maps in call order, each as
  // "<address> [dim0,dim1] <row stride>; " (truncated when full).
  char encodeLog[2048];
  // Set by tests: cuMemcpyAsync keeps the first bytes of its source (a host
  // pointer, then) in `copied`, and their count in `copiedBytes`.
  int keepCopies;
  unsigned char copied[16384];
  size_t copiedBytes;
  // Set by tests: when nonzero, cuMemcpyAsync fails with this result.
  int memcpyResult;
  // cuMemPoolCreate: calls, the last properties' allocation type, location
  // type and device; cuMemPoolSetAttribute: calls, the last release
  // threshold.
  int poolCreates;
  int lastPoolAllocType, lastPoolLocationType, lastPoolDevice;
  int poolSetAttributes;
  uint64_t poolThreshold;
  // Set by tests: when nonzero, cuMemPoolCreate fails with this result.
  int poolCreateResult;
  // Set by tests: when nonzero, cuMemPoolSetAttribute fails with this
  // result. cuMemPoolDestroy's calls.
  int poolSetAttributeResult;
  int poolDestroys;
  // cuMemsetD32Async's and cuMemsetD16Async's last stream; set by tests:
  // when nonzero, cuMemsetD32Async fails with this result.
  void *lastMemsetStream;
  int memsetResult;
};

// The fields of CUmemPoolProps the fake reads.
struct FakeMemPoolProps {
  int allocType, handleTypes, locationType, locationId;
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

using FakeExchangeCaptureModeFn = int (*)(int *mode);

/// The fake library's cuThreadExchangeStreamCaptureMode, for tests that set
/// the calling thread's capture mode themselves (null when it cannot be
/// loaded).
inline FakeExchangeCaptureModeFn loadFakeExchangeCaptureMode(const char *path) {
  void *library = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  return library ? reinterpret_cast<FakeExchangeCaptureModeFn>(
                       dlsym(library, "cuThreadExchangeStreamCaptureMode"))
                 : nullptr;
}

#endif // TILE_UNITTESTS_RUNTIME_FAKECUDA_H
