//===- Planner.h - Plan a TMA descriptor for a copy -------------*- C++ -*-===//
//
// planTmaCopy follows the reference L1/L2/L3 algorithm (canonicalize, group,
// slice; contiguous stride-1 chain and issue axes; stack into a tensor map,
// validate, shrink and retry; promote the element type when only the 256 box
// limit blocks a wider box), and checks every hardware rule at plan time so a
// copy either gets a descriptor the driver and the TMA accept or a decline
// "<rule-id>: <values>" (rule ids: tile/Support/Rules.h).
//
//===----------------------------------------------------------------------===//

#ifndef TILE_TMA_PLANNER_H
#define TILE_TMA_PLANNER_H

#include "tile/TMA/Plan.h"

namespace tile::tma {

PlanOutcome planTmaCopy(const CopyRequest &request);

/// The plan of a tile::gather4 load or tile::scatter4 store (a request with
/// gatherRows; planTmaCopy calls it for those): one instruction, a 2D map
/// with box {n, 1}, coordinates {col, row0, row1, row2, row3}.
PlanOutcome planGather4(const CopyRequest &request);

} // namespace tile::tma

#endif // TILE_TMA_PLANNER_H
