//===- ElementwiseReduce.h - Reductions the per-element path can do -*- C++
//-*-//
//
// A reducing store the TMA does not take falls back to per-element atomics.
// Which atomic each reduction and element type gets is both a decision (the
// `simt` variant declines what has none) and the lowering's choice
// (ElementwiseCopy.cpp emits it), so both read it from here.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_DISPATCH_ELEMENTWISEREDUCE_H
#define TILE_DISPATCH_ELEMENTWISEREDUCE_H

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "tile/Support/Decline.h"
#include "tile/TMA/Plan.h"

#include <optional>

namespace mlir::tile {

/// The atomic read-modify-write that applies `kind` to one element of
/// `elementType`, or nullopt (float min/max, no reduction).
std::optional<LLVM::AtomicBinOp>
getElementwiseAtomicOp(::tile::tma::ReduceKind kind, Type elementType);

/// Whether the element-wise path can apply `reduce` to `elementType`
/// (integer atomics, float adds); the broken rule otherwise.
std::optional<::tile::Decline>
checkElementwiseReduce(::tile::tma::ReduceKind reduce, Type elementType);

} // namespace mlir::tile

#endif // TILE_DISPATCH_ELEMENTWISEREDUCE_H
