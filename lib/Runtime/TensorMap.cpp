//===- TensorMap.cpp - Tensor-map validation, encoding and patch ----------===//
//
// Validation mirrors the rules cuTensorMapEncodeTiled and
// cuTensorMapEncodeIm2col document (CUDA 13 cuda.h), plus what the H200's
// driver (version 13000) was measured to enforce ("[H200]"), so a bad request
// fails here with the field, index and value named instead of a bare
// CUDA_ERROR_INVALID_VALUE from the driver.
//
//===----------------------------------------------------------------------===//

#include "TensorMap.h"
#include "DriverApi.h"
#include "Error.h"

#include "tile/Runtime/TileRuntime.h"
#include "tile/TMA/Limits.h"

#include <cinttypes>
#include <cstdarg>
#include <cstdio>
#include <cstring>

using namespace tile::runtime;

namespace {

namespace limits = tile::tma::limits;
constexpr int32_t kMaxRank = limits::kMaxRank;
constexpr int32_t kLastByteType = 12;   // TFLOAT32_FTZ
constexpr int32_t kLastPackedType = 15; // 16U6_ALIGN16B
constexpr int32_t kInterleave32B = 2;
constexpr int32_t kSwizzle32B = 1;
constexpr int32_t kLastSwizzle = 6; // 128B_ATOM_64B (sm_100)
constexpr int32_t kLastL2Promotion = 3;
constexpr int32_t kOobFillNaN = 1;
constexpr uint64_t kMaxGlobalDim = limits::kMaxGlobalDim;
constexpr uint64_t kStrideLimit = limits::kGlobalStrideLimitBytes;
constexpr uint32_t kMaxBoxDim = limits::kMaxBoxDim;
constexpr uint32_t kMaxElementStride = limits::kMaxElementStride;
constexpr uint64_t kGranuleBytes = limits::kGranuleBytes;
constexpr int32_t kMinIm2colRank = 3;
constexpr uint32_t kMaxChannelsPerPixel = limits::kMaxIm2colChannels;
constexpr uint32_t kMaxPixelsPerColumn = limits::kMaxIm2colPixels;
constexpr int32_t kLastAffectedDriver = 13010;
constexpr uint64_t kSmallTensorBytes = 128 * 1024;

bool isFloatType(int32_t dataType) {
  return dataType >= 6 && dataType <= kLastByteType;
}

uint32_t swizzleSpan(int32_t swizzle) {
  switch (swizzle) {
  case 1:
    return 32;
  case 2:
    return 64;
  default:
    return 128; // 128B and the sm_100 128B atom variants
  }
}

int32_t invalid(const char *where, const char *format, ...)
    __attribute__((format(printf, 2, 3)));

int32_t invalid(const char *where, const char *format, ...) {
  char detail[512];
  va_list args;
  va_start(args, format);
  vsnprintf(detail, sizeof(detail), format, args);
  va_end(args);
  return setError(TILE_ERROR_INVALID_VALUE, "%s: %s", where, detail);
}

// The enumerations; Args is TensorMapArgs or Im2colArgs.
template <typename Args>
int32_t checkEnums(const char *where, const Args &a) {
  if (a.dataType > kLastByteType && a.dataType <= kLastPackedType)
    return invalid(where,
                   "dataType = %d (packed sub-byte type) is not supported",
                   a.dataType);
  if (a.dataType < 0 || a.dataType > kLastByteType)
    return invalid(where, "dataType = %d is outside 0..%d", a.dataType,
                   kLastByteType);
  if (a.interleave < 0 || a.interleave > kInterleave32B)
    return invalid(where, "interleave = %d is outside 0..2", a.interleave);
  if (a.swizzle < 0 || a.swizzle > kLastSwizzle)
    return invalid(where, "swizzle = %d is outside 0..%d", a.swizzle,
                   kLastSwizzle);
  if (a.l2Promotion < 0 || a.l2Promotion > kLastL2Promotion)
    return invalid(where, "l2Promotion = %d is outside 0..%d", a.l2Promotion,
                   kLastL2Promotion);
  if (a.oobFill < 0 || a.oobFill > kOobFillNaN)
    return invalid(where, "oobFill = %d is outside 0..1", a.oobFill);
  if (a.oobFill == kOobFillNaN && !isFloatType(a.dataType))
    return invalid(where,
                   "oobFill = 1 (NaN) requires a floating-point dataType "
                   "(6..12), got dataType = %d",
                   a.dataType);
  if (a.interleave == kInterleave32B && a.swizzle != kSwizzle32B)
    return invalid(where,
                   "interleave = 2 (32B) requires swizzle = 1 (32B), got "
                   "swizzle = %d",
                   a.swizzle);
  return TILE_SUCCESS;
}

// The global address, then globalDim and globalStridesBytes non-NULL.
template <typename Args>
int32_t checkAddressAndGlobalArrays(const char *where, const Args &a) {
  if (!a.globalAddress)
    return invalid(where, "globalAddress is NULL");
  uint64_t addressAlign = a.interleave == kInterleave32B ? 32 : 16;
  auto address = reinterpret_cast<uintptr_t>(a.globalAddress);
  if (address % addressAlign != 0)
    return invalid(
        where, "globalAddress = 0x%" PRIxPTR " is not %" PRIu64 "-byte aligned",
        address, addressAlign);
  if (!a.globalDim)
    return invalid(where, "globalDim is NULL");
  if (!a.globalStridesBytes && a.rank > 1)
    return invalid(where, "globalStridesBytes is NULL (rank = %d needs %d)",
                   a.rank, a.rank - 1);
  return TILE_SUCCESS;
}

// The rank, and the pointers the rank says are read.
int32_t checkRankAndPointers(const char *where, const TensorMapArgs &a) {
  if (a.rank < 1 || a.rank > kMaxRank)
    return invalid(where, "rank = %d is outside 1..%d", a.rank, kMaxRank);
  if (a.interleave != 0 && a.rank < 3)
    return invalid(where, "rank = %d is outside 3..%d (interleave = %d)",
                   a.rank, kMaxRank, a.interleave);
  if (int32_t status = checkAddressAndGlobalArrays(where, a))
    return status;
  if (!a.boxDim)
    return invalid(where, "boxDim is NULL");
  if (!a.elementStrides)
    return invalid(where, "elementStrides is NULL");
  return TILE_SUCCESS;
}

template <typename Args>
int32_t checkGlobalDimsAndStrides(const char *where, const Args &a) {
  for (int32_t i = 0; i < a.rank; ++i) {
    uint64_t dim = a.globalDim[i];
    if (dim < 1 || dim > kMaxGlobalDim)
      return invalid(where, "globalDim[%d] = %" PRIu64 " is outside 1..2^32", i,
                     dim);
  }
  uint64_t strideAlign = a.interleave == kInterleave32B ? 32 : 16;
  for (int32_t i = 0; i + 1 < a.rank; ++i) {
    uint64_t stride = a.globalStridesBytes[i];
    if (stride % strideAlign != 0)
      return invalid(where,
                     "globalStridesBytes[%d] = %" PRIu64
                     " is not a multiple of %" PRIu64,
                     i, stride, strideAlign);
    if (stride >= kStrideLimit)
      return invalid(where,
                     "globalStridesBytes[%d] = %" PRIu64 " is not below 2^40",
                     i, stride);
  }
  return TILE_SUCCESS;
}

int32_t checkElementStrides(const char *where, int32_t rank,
                            const uint32_t *elementStrides) {
  for (int32_t i = 0; i < rank; ++i) {
    uint32_t step = elementStrides[i];
    if (step < 1)
      return invalid(where, "elementStrides[%d] = 0 must be at least 1", i);
    if (step > kMaxElementStride)
      return invalid(where, "elementStrides[%d] = %u exceeds %u", i, step,
                     kMaxElementStride);
  }
  return TILE_SUCCESS;
}

// The box and element strides, then the inner box row against the 16-byte
// granularity and the swizzle span.
int32_t checkBox(const char *where, const TensorMapArgs &a,
                 uint32_t elementBytes) {
  for (int32_t i = 0; i < a.rank; ++i) {
    uint32_t box = a.boxDim[i];
    if (box < 1)
      return invalid(where, "boxDim[%d] = 0 must be at least 1", i);
    if (box > kMaxBoxDim)
      return invalid(where, "boxDim[%d] = %u exceeds %u", i, box, kMaxBoxDim);
  }
  if (int32_t status = checkElementStrides(where, a.rank, a.elementStrides))
    return status;
  // cuda.h states this rule for non-interleaved maps only; [H200] driver
  // 13000 enforces it with interleave too (24 bytes rejected, 48 accepted).
  uint64_t innerBytes = uint64_t(a.boxDim[0]) * elementBytes;
  if (innerBytes % kGranuleBytes != 0)
    return invalid(where,
                   "boxDim[0] * elementBytes = %u * %u = %" PRIu64
                   " is not a multiple of %" PRIu64,
                   a.boxDim[0], elementBytes, innerBytes, kGranuleBytes);
  if (a.interleave == 0) {
    if (a.swizzle != 0 && innerBytes > swizzleSpan(a.swizzle))
      return invalid(where,
                     "boxDim[0] * elementBytes = %u * %u = %" PRIu64
                     " exceeds the swizzle span %u (swizzle = %d)",
                     a.boxDim[0], elementBytes, innerBytes,
                     swizzleSpan(a.swizzle), a.swizzle);
  }
  return TILE_SUCCESS;
}

int32_t checkShape(const char *where, const TensorMapArgs &a,
                   uint32_t elementBytes) {
  if (int32_t status = checkRankAndPointers(where, a))
    return status;
  if (int32_t status = checkGlobalDimsAndStrides(where, a))
    return status;
  return checkBox(where, a, elementBytes);
}

// Im2col: rank 3..5 (cuTensorMapEncodeIm2col's 3D, 4D and 5D forms), and the
// pointers the rank says are read.
int32_t checkIm2colRankAndPointers(const char *where, const Im2colArgs &a) {
  if (a.rank < kMinIm2colRank || a.rank > kMaxRank)
    return invalid(where, "rank = %d is outside %d..%d (im2col)", a.rank,
                   kMinIm2colRank, kMaxRank);
  if (int32_t status = checkAddressAndGlobalArrays(where, a))
    return status;
  if (!a.pixelBoxLowerCorner)
    return invalid(where, "pixelBoxLowerCorner is NULL (rank = %d needs %d)",
                   a.rank, a.rank - 2);
  if (!a.pixelBoxUpperCorner)
    return invalid(where, "pixelBoxUpperCorner is NULL (rank = %d needs %d)",
                   a.rank, a.rank - 2);
  if (!a.elementStrides)
    return invalid(where, "elementStrides is NULL");
  return TILE_SUCCESS;
}

// The corners' offsets share 16 bits (cuda.h; tile/TMA/Limits.h).
int32_t cornerLimit(int32_t rank) {
  return static_cast<int32_t>(limits::im2colCornerLimit(rank));
}

// Each corner offset in range, then a non-empty bounding box in every spatial
// dimension: lower[i] <= globalDim[i + 1] - 1 + upper[i]. [H200] W = 5,
// lower = 3, upper = -3 rejected.
int32_t checkCorners(const char *where, const Im2colArgs &a) {
  int32_t limit = cornerLimit(a.rank);
  int32_t spatial = a.rank - 2;
  struct {
    const char *name;
    const int32_t *offsets;
  } corners[] = {{"pixelBoxLowerCorner", a.pixelBoxLowerCorner},
                 {"pixelBoxUpperCorner", a.pixelBoxUpperCorner}};
  for (const auto &corner : corners)
    for (int32_t i = 0; i < spatial; ++i) {
      int32_t offset = corner.offsets[i];
      if (offset < -limit || offset > limit - 1)
        return invalid(where, "%s[%d] = %d is outside %d..%d (rank = %d)",
                       corner.name, i, offset, -limit, limit - 1, a.rank);
    }
  for (int32_t i = 0; i < spatial; ++i) {
    int32_t lower = a.pixelBoxLowerCorner[i];
    int32_t upper = a.pixelBoxUpperCorner[i];
    uint64_t dim = a.globalDim[i + 1];
    int64_t last = int64_t(dim) - 1 + upper;
    if (lower > last)
      return invalid(where,
                     "pixelBoxLowerCorner[%d] = %d exceeds globalDim[%d] - 1 "
                     "+ pixelBoxUpperCorner[%d] = %" PRIu64
                     " - 1 + (%d) = %" PRId64
                     ": the bounding box is empty in dimension %d",
                     i, lower, i + 1, i, dim, upper, last, i + 1);
  }
  return TILE_SUCCESS;
}

// Channels per pixel and pixels per column, element strides, then the
// pixel's bytes against the 16-byte granularity and the swizzle span.
int32_t checkIm2colBox(const char *where, const Im2colArgs &a,
                       uint32_t elementBytes) {
  uint32_t channels = a.channelsPerPixel;
  if (channels < 1)
    return invalid(where, "channelsPerPixel = 0 must be at least 1");
  // [H200] 260 rejected.
  if (channels > kMaxChannelsPerPixel)
    return invalid(where, "channelsPerPixel = %u exceeds %u", channels,
                   kMaxChannelsPerPixel);
  uint32_t pixels = a.pixelsPerColumn;
  if (pixels < 1)
    return invalid(where, "pixelsPerColumn = 0 must be at least 1");
  // [H200] 1025 rejected; 1024 and 257 accepted.
  if (pixels > kMaxPixelsPerColumn)
    return invalid(where, "pixelsPerColumn = %u exceeds %u", pixels,
                   kMaxPixelsPerColumn);
  // [H200] 9 rejected.
  if (int32_t status = checkElementStrides(where, a.rank, a.elementStrides))
    return status;
  // Applied with interleave too, as for the tiled box's inner row. [H200]
  // 6 channels of 4 bytes rejected.
  uint64_t pixelBytes = uint64_t(channels) * elementBytes;
  if (pixelBytes % kGranuleBytes != 0)
    return invalid(where,
                   "channelsPerPixel * elementBytes = %u * %u = %" PRIu64
                   " is not a multiple of %" PRIu64,
                   channels, elementBytes, pixelBytes, kGranuleBytes);
  if (a.interleave == 0 && a.swizzle != 0 &&
      pixelBytes > swizzleSpan(a.swizzle))
    return invalid(where,
                   "channelsPerPixel * elementBytes = %u * %u = %" PRIu64
                   " exceeds the swizzle span %u (swizzle = %d)",
                   channels, elementBytes, pixelBytes, swizzleSpan(a.swizzle),
                   a.swizzle);
  return TILE_SUCCESS;
}

int32_t checkMapPointer(const char *where, void *map128) {
  if (!map128)
    return invalid(where, "map128 is NULL");
  auto mapAddress = reinterpret_cast<uintptr_t>(map128);
  if (mapAddress % TILE_TENSOR_MAP_ALIGNMENT != 0)
    return invalid(where, "map128 = 0x%" PRIxPTR " is not %d-byte aligned",
                   mapAddress, TILE_TENSOR_MAP_ALIGNMENT);
  return TILE_SUCCESS;
}

} // namespace

int32_t tile::runtime::validateTensorMap(const char *where,
                                         const TensorMapArgs &args) {
  if (int32_t status = checkEnums(where, args))
    return status;
  return checkShape(where, args, tileTensorMapElementBytes(args.dataType));
}

int32_t tile::runtime::validateIm2col(const char *where,
                                      const Im2colArgs &args) {
  if (int32_t status = checkEnums(where, args))
    return status;
  if (int32_t status = checkIm2colRankAndPointers(where, args))
    return status;
  if (int32_t status = checkGlobalDimsAndStrides(where, args))
    return status;
  if (int32_t status = checkCorners(where, args))
    return status;
  return checkIm2colBox(where, args, tileTensorMapElementBytes(args.dataType));
}

/// The driver's verdict on an encode, then the small-tensor defect patch.
static int32_t finishEncode(const char *where, const char *driverFunction,
                            int32_t result, void *map128, int32_t dataType,
                            int32_t rank, const uint64_t *globalDim,
                            const uint64_t *globalStridesBytes) {
  if (result != cu::kSuccess)
    return setDriverError(where, driverFunction, result);
  tileTensorMapApplyDefectPatch(
      map128, effectiveDriverVersion(),
      tileTensorMapTensorBytes(dataType, rank, globalDim, globalStridesBytes));
  return TILE_SUCCESS;
}

int32_t tile::runtime::encodeTensorMap(const char *where, void *map128,
                                       const TensorMapArgs &a) {
  if (int32_t status = checkMapPointer(where, map128))
    return status;
  if (int32_t status = validateTensorMap(where, a))
    return status;
  TileTensorMapEncodeHook encode = nullptr;
  if (int32_t status = getEncoder(where, &encode))
    return status;
  int32_t result = encode(map128, a.dataType, static_cast<uint32_t>(a.rank),
                          const_cast<void *>(a.globalAddress), a.globalDim,
                          a.globalStridesBytes, a.boxDim, a.elementStrides,
                          a.interleave, a.swizzle, a.l2Promotion, a.oobFill);
  return finishEncode(where, "cuTensorMapEncodeTiled", result, map128,
                      a.dataType, a.rank, a.globalDim, a.globalStridesBytes);
}

int32_t tile::runtime::encodeIm2col(const char *where, void *map128,
                                    const Im2colArgs &m) {
  if (int32_t status = checkMapPointer(where, map128))
    return status;
  if (int32_t status = validateIm2col(where, m))
    return status;
  TileTensorMapEncodeIm2colHook encode = nullptr;
  if (int32_t status = getIm2colEncoder(where, &encode))
    return status;
  int32_t result =
      encode(map128, m.dataType, static_cast<uint32_t>(m.rank),
             const_cast<void *>(m.globalAddress), m.globalDim,
             m.globalStridesBytes, m.pixelBoxLowerCorner, m.pixelBoxUpperCorner,
             m.channelsPerPixel, m.pixelsPerColumn, m.elementStrides,
             m.interleave, m.swizzle, m.l2Promotion, m.oobFill);
  // The same defect, the same workaround as for tiled maps.
  return finishEncode(where, "cuTensorMapEncodeIm2col", result, map128,
                      m.dataType, m.rank, m.globalDim, m.globalStridesBytes);
}

extern "C" {

uint32_t tileTensorMapElementBytes(int32_t dataType) {
  static const uint8_t bytes[kLastByteType + 1] = {1, 2, 4, 4, 8, 8, 2,
                                                   4, 8, 2, 4, 4, 4};
  if (dataType < 0 || dataType > kLastByteType)
    return 0;
  return bytes[dataType];
}

int32_t tileTensorMapValidateTiled(
    int32_t dataType, int32_t rank, const void *globalAddress,
    const uint64_t *globalDim, const uint64_t *globalStridesBytes,
    const uint32_t *boxDim, const uint32_t *elementStrides, int32_t interleave,
    int32_t swizzle, int32_t l2Promotion, int32_t oobFill) {
  return validateTensorMap("tileTensorMapValidateTiled",
                           {dataType, rank, globalAddress, globalDim,
                            globalStridesBytes, boxDim, elementStrides,
                            interleave, swizzle, l2Promotion, oobFill});
}

int32_t tileTensorMapEncodeTiled(
    void *map128, int32_t dataType, int32_t rank, const void *globalAddress,
    const uint64_t *globalDim, const uint64_t *globalStridesBytes,
    const uint32_t *boxDim, const uint32_t *elementStrides, int32_t interleave,
    int32_t swizzle, int32_t l2Promotion, int32_t oobFill) {
  return encodeTensorMap("tileTensorMapEncodeTiled", map128,
                         {dataType, rank, globalAddress, globalDim,
                          globalStridesBytes, boxDim, elementStrides,
                          interleave, swizzle, l2Promotion, oobFill});
}

int32_t tileTensorMapValidateIm2col(
    int32_t dataType, int32_t rank, const void *globalAddress,
    const uint64_t *globalDim, const uint64_t *globalStridesBytes,
    const int32_t *pixelBoxLowerCorner, const int32_t *pixelBoxUpperCorner,
    uint32_t channelsPerPixel, uint32_t pixelsPerColumn,
    const uint32_t *elementStrides, int32_t interleave, int32_t swizzle,
    int32_t l2Promotion, int32_t oobFill) {
  return validateIm2col("tileTensorMapValidateIm2col",
                        {dataType, rank, globalAddress, globalDim,
                         globalStridesBytes, pixelBoxLowerCorner,
                         pixelBoxUpperCorner, channelsPerPixel, pixelsPerColumn,
                         elementStrides, interleave, swizzle, l2Promotion,
                         oobFill});
}

int32_t tileTensorMapEncodeIm2col(
    void *map128, int32_t dataType, int32_t rank, const void *globalAddress,
    const uint64_t *globalDim, const uint64_t *globalStridesBytes,
    const int32_t *pixelBoxLowerCorner, const int32_t *pixelBoxUpperCorner,
    uint32_t channelsPerPixel, uint32_t pixelsPerColumn,
    const uint32_t *elementStrides, int32_t interleave, int32_t swizzle,
    int32_t l2Promotion, int32_t oobFill) {
  return encodeIm2col("tileTensorMapEncodeIm2col", map128,
                      {dataType, rank, globalAddress, globalDim,
                       globalStridesBytes, pixelBoxLowerCorner,
                       pixelBoxUpperCorner, channelsPerPixel, pixelsPerColumn,
                       elementStrides, interleave, swizzle, l2Promotion,
                       oobFill});
}

uint64_t tileTensorMapTensorBytes(int32_t dataType, int32_t rank,
                                  const uint64_t *globalDim,
                                  const uint64_t *globalStridesBytes) {
  uint32_t elementBytes = tileTensorMapElementBytes(dataType);
  if (elementBytes == 0 || rank < 1 || rank > kMaxRank || !globalDim ||
      (rank > 1 && !globalStridesBytes))
    return 0;
  uint64_t total = 1;
  for (int32_t i = 0; i < rank; ++i) {
    if (globalDim[i] == 0)
      return 0;
    uint64_t stride = i == 0 ? elementBytes : globalStridesBytes[i - 1];
    uint64_t term = 0;
    if (__builtin_mul_overflow(globalDim[i] - 1, stride, &term) ||
        __builtin_add_overflow(total, term, &total))
      return UINT64_MAX;
  }
  return total;
}

int32_t tileTensorMapDefectPatchApplies(int32_t driverVersion,
                                        uint64_t tensorBytes) {
  return driverVersion <= kLastAffectedDriver &&
         tensorBytes < kSmallTensorBytes;
}

void tileTensorMapApplyDefectPatch(void *map128, int32_t driverVersion,
                                   uint64_t tensorBytes) {
  if (!map128 || !tileTensorMapDefectPatchApplies(driverVersion, tensorBytes))
    return;
  // Bit 21 of little-endian 64-bit word 1 is bit 5 of byte 8 + 21 / 8 = 10.
  auto *bytes = static_cast<unsigned char *>(map128);
  bytes[10] = static_cast<unsigned char>(bytes[10] & ~(1u << 5));
}

} // extern "C"
