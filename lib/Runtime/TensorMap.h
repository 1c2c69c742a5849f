//===- TensorMap.h - Tensor-map validation and encoding ---------*- C++ -*-===//

#ifndef TILE_LIB_RUNTIME_TENSORMAP_H
#define TILE_LIB_RUNTIME_TENSORMAP_H

#include <cstdint>

namespace tile::runtime {

/// The arguments of cuTensorMapEncodeTiled, less the output map.
struct TensorMapArgs {
  int32_t dataType;
  int32_t rank;
  const void *globalAddress;
  const uint64_t *globalDim;
  const uint64_t *globalStridesBytes;
  const uint32_t *boxDim;
  const uint32_t *elementStrides;
  int32_t interleave;
  int32_t swizzle;
  int32_t l2Promotion;
  int32_t oobFill;
};

/// The arguments of cuTensorMapEncodeIm2col, less the output map. The corners
/// have rank - 2 entries: index i is spatial driver dimension i + 1.
struct Im2colArgs {
  int32_t dataType;
  int32_t rank;
  const void *globalAddress;
  const uint64_t *globalDim;
  const uint64_t *globalStridesBytes;
  const int32_t *pixelBoxLowerCorner;
  const int32_t *pixelBoxUpperCorner;
  uint32_t channelsPerPixel;
  uint32_t pixelsPerColumn;
  const uint32_t *elementStrides;
  int32_t interleave;
  int32_t swizzle;
  int32_t l2Promotion;
  int32_t oobFill;
};

/// Checks every driver rule; messages start with "<where>: ".
int32_t validateTensorMap(const char *where, const TensorMapArgs &args);
int32_t validateIm2col(const char *where, const Im2colArgs &args);

/// Validates map128 and args, encodes with the driver (or the testing hook)
/// and applies the defect patch.
int32_t encodeTensorMap(const char *where, void *map128,
                        const TensorMapArgs &args);
int32_t encodeIm2col(const char *where, void *map128, const Im2colArgs &args);

} // namespace tile::runtime

#endif // TILE_LIB_RUNTIME_TENSORMAP_H
