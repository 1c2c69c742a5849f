//===- ValidatePlannedMap.h - A planned map through the runtime -*- C++ -*-===//
//
// The runtime's validation (what every encode runs before the driver) of a
// planner's tiled map, as the host hands it over. Shared by the runtime's
// agreement tests and the planner fuzz harness.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_UNITTESTS_RUNTIME_VALIDATEPLANNEDMAP_H
#define TILE_UNITTESTS_RUNTIME_VALIDATEPLANNEDMAP_H

#include "tile/Runtime/TileRuntime.h"
#include "tile/TMA/Plan.h"

#include <cstdint>
#include <optional>
#include <string>

namespace tile::runtime::test {

/// A global buffer's address: 1024-byte aligned, as an allocation is.
inline constexpr int64_t kPlannedBufferAddress = int64_t(1) << 24;

/// tileTensorMapValidateTiled's answer for `map` with the global base (the
/// buffer's address plus the map's base offset) at `base`: nullopt where it
/// accepts, else its message.
inline std::optional<std::string>
validatePlannedMap(const tma::TensorMapDesc &map, int64_t base) {
  int32_t rc = tileTensorMapValidateTiled(
      static_cast<int32_t>(map.dataType), static_cast<int32_t>(map.rank),
      reinterpret_cast<const void *>(static_cast<uintptr_t>(base)),
      map.globalDim.data(), map.globalStridesBytes.data(), map.boxDim.data(),
      map.elementStrides.data(), map.interleave,
      static_cast<int32_t>(map.swizzle), map.l2Promotion, map.oobFill);
  if (rc == TILE_SUCCESS)
    return std::nullopt;
  return std::string(tileRuntimeLastError());
}

} // namespace tile::runtime::test

#endif // TILE_UNITTESTS_RUNTIME_VALIDATEPLANNEDMAP_H
