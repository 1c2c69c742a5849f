//===- CudaTypes.h - The few CUDA driver types the runtime uses -*- C++ -*-===//
//
// Declared here rather than taken from <cuda.h> so the runtime builds on
// machines without the CUDA toolkit. Values are those of CUDA 12/13's cuda.h;
// the driver ABI keeps them stable.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_LIB_RUNTIME_CUDATYPES_H
#define TILE_LIB_RUNTIME_CUDATYPES_H

#include <cstddef>
#include <cstdint>

namespace tile::runtime::cu {

using Result = int; // CUresult
using Device = int; // CUdevice
using Context = struct CUctx_st *;
using Module = struct CUmod_st *;
using Function = struct CUfunc_st *;
using Stream = struct CUstream_st *;
using Event = struct CUevent_st *;
using DevicePtr = unsigned long long; // CUdeviceptr (64-bit)
using MemoryPool = struct CUmemPoolHandle_st *;

constexpr Result kSuccess = 0;
constexpr Result kErrorInvalidValue = 1;
constexpr Result kErrorOutOfMemory = 2;
constexpr Result kErrorNotInitialized = 3;

constexpr int kJitInfoLogBuffer = 3;
constexpr int kJitInfoLogBufferSizeBytes = 4;
constexpr int kJitErrorLogBuffer = 5;
constexpr int kJitErrorLogBufferSizeBytes = 6;
constexpr int kJitOptimizationLevel = 7;

constexpr int kFuncAttributeSharedSizeBytes = 1;
constexpr int kFuncAttributeMaxDynamicSharedSizeBytes = 8;
constexpr int kFuncAttributeNonPortableClusterSizeAllowed = 14;
constexpr int kDeviceAttributeMaxSharedMemoryPerBlockOptin = 97;

constexpr unsigned kStreamNonBlocking = 0x1;
constexpr unsigned kEventDisableTiming = 0x2;
constexpr unsigned kMemAttachGlobal = 0x1;

constexpr int kLaunchAttributeClusterDimension = 4;

// CUstreamCaptureMode.
constexpr int kStreamCaptureModeGlobal = 0;
constexpr int kStreamCaptureModeThreadLocal = 1;
constexpr int kStreamCaptureModeRelaxed = 2;

// CUlaunchAttributeValue is a 64-byte union; only clusterDim is used.
union LaunchAttributeValue {
  char pad[64];
  struct {
    unsigned x, y, z;
  } clusterDim;
};

struct LaunchAttribute {
  int id; // CUlaunchAttributeID
  char pad[8 - sizeof(int)];
  LaunchAttributeValue value;
};

struct LaunchConfig {
  unsigned gridDimX, gridDimY, gridDimZ;
  unsigned blockDimX, blockDimY, blockDimZ;
  unsigned sharedMemBytes;
  Stream hStream;
  LaunchAttribute *attrs;
  unsigned numAttrs;
};

static_assert(sizeof(LaunchAttribute) == 72, "CUlaunchAttribute layout");

// CUmemPoolProps (CUDA 12.2 and later; earlier drivers read the same first
// 24 bytes and a reserved tail that must be zero).
struct MemPoolProps {
  int allocType;   // CUmemAllocationType
  int handleTypes; // CUmemAllocationHandleType
  struct {
    int type; // CUmemLocationType
    int id;
  } location;
  void *win32SecurityAttributes;
  size_t maxSize;
  unsigned short usage;
  unsigned char reserved[54];
};

static_assert(sizeof(MemPoolProps) == 88, "CUmemPoolProps layout");

constexpr int kMemAllocationTypePinned = 1;
constexpr int kMemLocationTypeDevice = 1;
constexpr int kMemPoolAttrReleaseThreshold = 4; // value type cuuint64_t

} // namespace tile::runtime::cu

#endif // TILE_LIB_RUNTIME_CUDATYPES_H
