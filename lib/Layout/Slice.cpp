//===- Slice.cpp - Slicing grouped layouts by regions ---------------------===//

#include "tile/Layout/Slice.h"

namespace tile {

std::optional<std::vector<SliceAxis>>
sliceGroup(const std::vector<Shard> &group, int64_t start, int64_t size,
           std::string *error) {
  auto fail = [&](std::string message) {
    if (error)
      *error = std::move(message);
    return std::nullopt;
  };
  if (size <= 0)
    return fail("region size " + std::to_string(size) + " is not positive");
  SliceFailure failure;
  std::optional<std::vector<SliceAxis>> axes =
      sliceGroupWith<IntegerStart>(group, start, size, &failure);
  if (axes)
    return axes;
  std::string shard = "shard " + std::to_string(failure.shard) + " of extent " +
                      std::to_string(failure.extent);
  switch (failure.kind) {
  case SliceFailure::Misaligned:
    return fail("region start " + std::to_string(start) +
                " does not align to " + shard);
  case SliceFailure::UnknownDigit: // Integer digits are always known.
  case SliceFailure::Crosses:
    break;
  }
  return fail("region [" + std::to_string(start) + ", " +
              std::to_string(start + size) + ") crosses a boundary of " +
              shard);
}

} // namespace tile
