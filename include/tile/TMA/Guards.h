//===- Guards.h - Run-time facts of plans for symbolic globals --*- C++ -*-===//
//
// A plan for a global buffer whose type leaves sizes, strides or its offset
// to run time carries fields the host computes from the memref descriptor and
// guards: the facts the plan needs that the compiler could not prove. These
// helpers evaluate them for concrete values, as the host does before a launch
// and as the tests do to check every guard against the hardware model.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_TMA_GUARDS_H
#define TILE_TMA_GUARDS_H

#include "tile/TMA/Plan.h"

namespace tile::tma {

/// The guards a plan for `request` (a symbolic global) relies on; the
/// planner stores them in TmaPlan::guards, and a plan read back from IR gets
/// them again from here.
std::vector<Guard> deriveGuards(const CopyRequest &request,
                                const TmaPlan &plan);

/// The first guard of `plan` that fails for `values`, or null.
const Guard *firstFailedGuard(const TmaPlan &plan, const RuntimeValues &values);

/// The static request a symbolic one describes for concrete values: the
/// global shape, a strided layout and its offset taken from `values`.
CopyRequest instantiateRequest(const CopyRequest &request,
                               const RuntimeValues &values);

/// The plan with every run-time field computed from `values`: what the host
/// encodes (the base address itself is not part of a plan).
TmaPlan instantiatePlan(const TmaPlan &plan, const RuntimeValues &values);

/// Small run-time values for `request` under which every guard of `plan`
/// holds and the region lies inside the tensor (for symbols at zero): what a
/// verifier instantiates to run the hardware model. nullopt when the search
/// finds none.
std::optional<RuntimeValues> exampleValues(const CopyRequest &request,
                                           const TmaPlan &plan);

} // namespace tile::tma

#endif // TILE_TMA_GUARDS_H
