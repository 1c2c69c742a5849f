//===- RuntimeFieldEmitter.h - A plan's run-time quantities as IR -*- C++
//-*-===//
//
// The arithmetic a plan leaves to run time -- a tensor-map field computed
// from a buffer's sizes and strides, and the guards the plan relies on --
// emitted as i64 `arith` ops over values the caller reads from the buffer.
// The host reads them from a memref descriptor before a launch
// (tile-tensor-map-abi); a kernel reads them from the view it points a
// device map at (convert-tile-to-nvvm): one formula for both.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_DIALECT_TILE_IR_RUNTIMEFIELDEMITTER_H
#define TILE_DIALECT_TILE_IR_RUNTIMEFIELDEMITTER_H

#include "mlir/IR/Builders.h"
#include "tile/TMA/Plan.h"

namespace mlir::tile {

/// The buffer's run-time value `v` as an i64, built at the caller's point.
using RuntimeValueReader = function_ref<Value(::tile::tma::RuntimeValue v)>;

/// `value * scale / divisor` (the plan's guards make the division exact).
Value emitRuntimeField(OpBuilder &b, Location loc,
                       const ::tile::tma::RuntimeField &field,
                       RuntimeValueReader read);

/// The i1 that holds where `guard` does.
Value emitGuardHolds(OpBuilder &b, Location loc,
                     const ::tile::tma::Guard &guard, RuntimeValueReader read);

} // namespace mlir::tile

#endif // TILE_DIALECT_TILE_IR_RUNTIMEFIELDEMITTER_H
