//===- Patterns.h - The tile-to-NVVM patterns (internal) --------*- C++ -*-===//

#ifndef TILE_CONVERSION_TILETONVVM_PATTERNS_H
#define TILE_CONVERSION_TILETONVVM_PATTERNS_H

#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/IR/PatternMatch.h"
#include "tile/Dispatch/CopyVariant.h"
#include "llvm/ADT/DenseMap.h"

namespace mlir::tile {

/// The decisions of the copies a conversion lowers, recalled before it
/// starts (op -> decision).
using RecalledDecisions = llvm::DenseMap<Operation *, DispatchResult>;

/// Recalls `op`'s recorded decision and checks that it can be lowered here;
/// a diagnostic at the op otherwise.
FailureOr<DispatchResult> recallLowerableDecision(Operation *op);

/// The diagnostic for a `tile.copy` planned for the TMA that reached the
/// lowering without tile-expand-collective-copies.
LogicalResult emitUnexpandedCollectiveTmaError(Operation *op);

/// `tile.arena_view` and `tile.stage`: views of the kernel's arena.
/// Whether `type` is a memref typed with a `#tile.layout`.
bool hasTileLayout(Type type);

/// memref.load/store and vector.load/store of `#tile.layout` buffers.
void populateLayoutAccessLoweringPatterns(const LLVMTypeConverter &converter,
                                          RewritePatternSet &patterns);

/// tile.grouped_tile as index arithmetic.
void populateGroupedTileLoweringPatterns(RewritePatternSet &patterns);

void populateArenaLoweringPatterns(const LLVMTypeConverter &converter,
                                   RewritePatternSet &patterns);

/// `tile.arrive_remote`: an arrival on a peer CTA's mbarrier.
void populateArriveRemoteLoweringPatterns(const LLVMTypeConverter &converter,
                                          RewritePatternSet &patterns);

/// `tile.bulk_commit_group` and `tile.bulk_wait_group`.
void populateBulkGroupLoweringPatterns(const LLVMTypeConverter &converter,
                                       RewritePatternSet &patterns);

/// `tile.wgmma_descriptor`: the operand's shared address and the planner's
/// constant fields, packed into the 64-bit wgmma descriptor.
void populateIm2colLoweringPatterns(const LLVMTypeConverter &converter,
                                    RewritePatternSet &patterns);

void populateWgmmaDescriptorLoweringPatterns(const LLVMTypeConverter &converter,
                                             RewritePatternSet &patterns);

/// `tile.wgmma_a_fragment` (an f32 accumulator rounded to an A fragment)
/// and `tile.wgmma_register_a` (wgmma with A in registers, inline PTX).
void populateWgmmaFragmentLoweringPatterns(const LLVMTypeConverter &converter,
                                           RewritePatternSet &patterns);

/// Device maps: their slots, updates (tensormap.replace) and fences.
void populateDeviceMapLoweringPatterns(const LLVMTypeConverter &converter,
                                       RewritePatternSet &patterns);

/// The copy ops, through the variant their recorded decision names: taken
/// from `recalled` when given (the pass recalls every copy up front),
/// recalled by the pattern otherwise.
void populateCopyLoweringPatterns(const LLVMTypeConverter &converter,
                                  RewritePatternSet &patterns,
                                  const RecalledDecisions *recalled);

/// Type conversions and every pattern (the public entry point, with an
/// optional table of recalled decisions).
void populateTileToNVVMPatterns(LLVMTypeConverter &converter,
                                RewritePatternSet &patterns,
                                const RecalledDecisions *recalled);

} // namespace mlir::tile

#endif // TILE_CONVERSION_TILETONVVM_PATTERNS_H
