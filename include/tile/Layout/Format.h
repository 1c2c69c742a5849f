//===- Format.h - Small text helpers for layout messages --------*- C++ -*-===//
//
// Shared by the layout printer, the verifier messages and the TMA planner's
// decline reasons so that value lists always read the same way.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_LAYOUT_FORMAT_H
#define TILE_LAYOUT_FORMAT_H

#include <cstdint>
#include <string>
#include <vector>

namespace tile {

/// "(8, 4, 64)"; "()" for an empty list.
std::string formatTuple(const std::vector<int64_t> &values);
/// "[8, 4, 64]".
std::string formatList(const std::vector<int64_t> &values);

} // namespace tile

#endif // TILE_LAYOUT_FORMAT_H
