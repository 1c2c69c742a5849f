//===- TensorMapTestUtil.h - Arguments for tensor-map tests -----*- C++ -*-===//

#ifndef TILE_UNITTESTS_RUNTIME_TENSORMAPTESTUTIL_H
#define TILE_UNITTESTS_RUNTIME_TENSORMAPTESTUTIL_H

#include "tile/Runtime/TileRuntime.h"

#include <cstdint>

namespace tile::runtime::test {

/// A valid request: f16, 64 x 8 x 4 contiguous, whole-tensor box, 128B
/// swizzle. Tests mutate one field at a time.
struct MapArgs {
  int32_t dataType = 6; // FLOAT16
  int32_t rank = 3;
  const void *address = reinterpret_cast<const void *>(uintptr_t(0x10000));
  uint64_t globalDim[5] = {64, 8, 4, 1, 1};
  uint64_t strides[4] = {128, 1024, 4096, 4096};
  uint32_t boxDim[5] = {64, 8, 4, 1, 1};
  uint32_t elementStrides[5] = {1, 1, 1, 1, 1};
  int32_t interleave = 0;
  int32_t swizzle = 3;
  int32_t l2Promotion = 2;
  int32_t oobFill = 0;

  int32_t validate() const {
    return tileTensorMapValidateTiled(
        dataType, rank, address, globalDim, strides, boxDim, elementStrides,
        interleave, swizzle, l2Promotion, oobFill);
  }
  int32_t encode(void *map) const {
    return tileTensorMapEncodeTiled(map, dataType, rank, address, globalDim,
                                    strides, boxDim, elementStrides, interleave,
                                    swizzle, l2Promotion, oobFill);
  }
  const void *cached() const {
    return tileTensorMapGetCached(dataType, rank, address, globalDim, strides,
                                  boxDim, elementStrides, interleave, swizzle,
                                  l2Promotion, oobFill);
  }
};

/// A valid im2col request: f16 NHWC, N = 2, H = W = 8, C = 64, contiguous;
/// the corners of a 3x3 window with padding 1 (lower -1, upper -1 in H and
/// W), 64 channels (128 bytes, the 128B swizzle span) for 64 pixels. Tests
/// mutate one field at a time.
struct Im2colMapArgs {
  int32_t dataType = 6; // FLOAT16
  int32_t rank = 4;
  const void *address = reinterpret_cast<const void *>(uintptr_t(0x10000));
  uint64_t globalDim[5] = {64, 8, 8, 2, 1};
  uint64_t strides[4] = {128, 1024, 8192, 16384};
  int32_t lower[3] = {-1, -1, 0};
  int32_t upper[3] = {-1, -1, 0};
  uint32_t channelsPerPixel = 64;
  uint32_t pixelsPerColumn = 64;
  uint32_t elementStrides[5] = {1, 1, 1, 1, 1};
  int32_t interleave = 0;
  int32_t swizzle = 3;
  int32_t l2Promotion = 2;
  int32_t oobFill = 0;

  int32_t validate() const {
    return tileTensorMapValidateIm2col(
        dataType, rank, address, globalDim, strides, lower, upper,
        channelsPerPixel, pixelsPerColumn, elementStrides, interleave, swizzle,
        l2Promotion, oobFill);
  }
  int32_t encode(void *map) const {
    return tileTensorMapEncodeIm2col(map, dataType, rank, address, globalDim,
                                     strides, lower, upper, channelsPerPixel,
                                     pixelsPerColumn, elementStrides,
                                     interleave, swizzle, l2Promotion, oobFill);
  }
  const void *cached() const {
    return tileTensorMapIm2colGetCached(
        dataType, rank, address, globalDim, strides, lower, upper,
        channelsPerPixel, pixelsPerColumn, elementStrides, interleave, swizzle,
        l2Promotion, oobFill);
  }
};

/// 64-byte aligned storage for one map.
struct alignas(64) MapStorage {
  unsigned char bytes[128];
};

} // namespace tile::runtime::test

#endif // TILE_UNITTESTS_RUNTIME_TENSORMAPTESTUTIL_H
