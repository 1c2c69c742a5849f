//===- Rules.h - Rule ids of TMA plan declines ------------------*- C++ -*-===//
//
// Every decline reads "<rule-id>: <values>". The table below is the single
// list of ids (DESIGN.md contract ids first, then this library's additions)
// with the file and function that checks each one.
//
//   id                    checked in                        rule
//   direction             (dialect)                         global<->shared
//   only scope                 (dialect)                         single-thread
//   issue count-mismatch        Rules.cpp checkCountMismatch      equal element
//   counts rank                  Rules.cpp checkRank               1..5
//   dimensions box-dim               Rules.cpp checkBoxDims            boxDim
//   in 1..256 inner-box-bytes       Rules.cpp checkInnerBoxBytes boxDim[0]*eb %
//   16 global-stride         Rules.cpp checkGlobalStrides      % 16 and < 2^40
//   global-dim            Rules.cpp checkGlobalDims         1..2^32
//   element-stride        Rules.cpp checkElementStrides     1..8
//   swizzle-span          Chain.cpp findChain,              boxDim[0]*eb <=
//   span
//                         Rules.cpp checkSwizzleSpan
//   swizzle-mismatch      Chain.cpp findChain               padded row pitch
//                                                           max(row, span) must
//                                                           match the layout
//   smem-align            Rules.cpp checkSmemAlign          128 B issue address
//   global-align          Rules.cpp checkGlobalAlign        16 B global base
//   inner-coord-align     Rules.cpp checkInnerCoordAlign    coord0*eb % 16
//   store-negative-coord  Rules.cpp checkStoreNegativeCoord no negative store
//                                                           coordinate
//   store-bounds          Rules.cpp checkStoreBounds        store inside
//   tensor,
//                                                           no 16 B row clip
//   nan-fill-type         Rules.cpp checkNanFillType        NaN fill: f16,
//   bf16,
//                                                           f32, f64
//   oob-mode              Rules.cpp checkOobMode            NaN fill on a store
//   reduce-type           Rules.cpp checkReduceType         TMA_FACTS reduce
//                                                           table; loads never
//                                                           reduce
//   elementwise           Modes.cpp refineModes,            no run contiguous
//   in
//                         Chain.cpp findChain               both layouts
//   --- additions ---
//   data-type             Rules.cpp checkDataType           type TMA can carry
//   layout                Regions.cpp buildCopyModes        layouts verify and
//                                                           group onto shapes;
//                                                           stores never alias
//   shared-bounds         Regions.cpp buildCopyModes        shared region
//   inside
//                                                           its buffer
//   region-split          Regions.cpp sliceSymbolic,        region start/size
//                         Descriptor.cpp buildCandidate     aligns to the
//                         shards
//                                                           it must split
//   issue-count           Descriptor.cpp buildCandidate     at most kMaxIssues
//                                                           instructions
//   coord-range           Rules.cpp checkCoordRange         coords fit int32
//
//===----------------------------------------------------------------------===//

#ifndef TILE_TMA_RULES_H
#define TILE_TMA_RULES_H

#include <cstdint>
#include <string_view>
#include <vector>

namespace tile::tma {

/// Every rule id a decline may carry.
const std::vector<std::string_view> &allRuleIds();
/// True when `id` is in allRuleIds().
bool isKnownRuleId(std::string_view id);

/// A plan needing more instructions than this declines with `issue-count`.
constexpr int64_t kMaxIssues = 1024;

} // namespace tile::tma

#endif // TILE_TMA_RULES_H
