//===- ThreadIndex.h - A thread's place in its CTA and warpgroup -*- C++
//-*-===//
//
// The linear thread index the tile passes and lowerings agree on
// (x + block.x * (y + block.y * z), as CUDA numbers a block's threads into
// warps), and the named barrier one warpgroup synchronises on. Every pass
// that splits a CTA into warpgroups builds these here, so a warpgroup means
// the same 128 threads everywhere.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_DIALECT_TILE_IR_THREADINDEX_H
#define TILE_DIALECT_TILE_IR_THREADINDEX_H

#include "mlir/IR/Builders.h"

namespace mlir::tile {

/// The calling thread's index within its CTA, linearised x-fastest.
Value emitLinearThreadId(OpBuilder &b, Location loc);

/// The CTA's thread count (block.x * block.y * block.z).
Value emitCtaThreadCount(OpBuilder &b, Location loc);

/// `bar.sync 1 + linearTid / 128, 128`: the 128 threads of the calling
/// thread's warpgroup meet on their own named barrier (id 0 is the CTA's
/// barrier; a CTA of up to 1024 threads uses ids 1 to 8).
void emitWarpgroupBarrier(OpBuilder &b, Location loc, Value linearTid);

} // namespace mlir::tile

#endif // TILE_DIALECT_TILE_IR_THREADINDEX_H
