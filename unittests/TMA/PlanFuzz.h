//===- PlanFuzz.h - Random copies for the planner property test -*- C++ -*-===//
//
// Generates copies shaped like real TMA tiles (swizzled row atoms, permuted
// row orders, pipeline stage dimensions, unit and batch dimensions, padded
// strides, reshaped regions, loads leaving the tensor, dynamic offsets), with
// a minority of deliberately broken ones, and checks each: no crash, every
// accepted plan verified by the hardware model, every decline a known rule.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_UNITTESTS_TMA_PLANFUZZ_H
#define TILE_UNITTESTS_TMA_PLANFUZZ_H

#include "tile/TMA/Plan.h"

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace tile::tma::fuzz {

struct FuzzCase {
  CopyRequest request;
  /// Symbol assignments the accepted plan is verified with.
  std::vector<std::vector<int64_t>> symbolValues;
};

/// The case number `index` of the stream seeded with `seed` (independent of
/// the other cases, so a failure reproduces from (seed, index)).
FuzzCase generateCase(uint64_t seed, uint64_t index);

/// Human-readable dump of a request for failure reports.
std::string describeRequest(const CopyRequest &request);

struct FuzzStats {
  uint64_t cases = 0, accepted = 0, failures = 0;
  std::map<std::string, uint64_t> declines; // by rule id
  std::vector<std::string> failureReports;  // the first few
};

/// Runs one case; returns an error report or an empty string.
std::string runCase(const FuzzCase &c, FuzzStats &stats);

/// Runs cases [0, count) of `seed`.
FuzzStats runCases(uint64_t seed, uint64_t count);

/// "accepted 61234 / 100000 (61.2%); declines: elementwise 120, ..."
std::string summary(const FuzzStats &stats);

/// The symbolic property test (SymbolicFuzz.cpp): case `index` of `seed`
/// with some global sizes, strides and the offset left to run time.
struct SymbolicStats {
  uint64_t cases = 0, accepted = 0, failures = 0;
  uint64_t guardsHeld = 0, modelChecks = 0;
  /// With an EncodeCheck: maps it judged, and those it refused where a guard
  /// on a descriptor rule failed.
  uint64_t encodeChecks = 0, encodeRefusals = 0;
  std::map<std::string, uint64_t> guardsFailed; // by the first failed rule
  std::map<std::string, uint64_t> declines;
  std::vector<std::string> failureReports;
};
/// A second judge of an instantiated plan's map, as the host encodes it at
/// the global base address `base` (the buffer's address plus the map's base
/// offset): an error message, or nullopt where it accepts. The runtime's
/// validation is one (TileRuntimePlannedMapsTests); lib/TMA cannot call it.
using EncodeCheck = std::function<std::optional<std::string>(
    const TensorMapDesc &map, int64_t base)>;

/// Where every guard holds the check must accept the map; where a guard on a
/// descriptor rule fails it must refuse it.
std::string runSymbolicCase(uint64_t seed, uint64_t index, SymbolicStats &stats,
                            const EncodeCheck &encodeCheck = {});
SymbolicStats runSymbolicCases(uint64_t seed, uint64_t count,
                               const EncodeCheck &encodeCheck = {});
std::string summary(const SymbolicStats &stats);

} // namespace tile::tma::fuzz

#endif // TILE_UNITTESTS_TMA_PLANFUZZ_H
