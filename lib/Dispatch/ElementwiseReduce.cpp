//===- ElementwiseReduce.cpp - Reductions the per-element path can do ----===//

#include "tile/Dispatch/ElementwiseReduce.h"

using namespace mlir;
using namespace mlir::tile;
using ::tile::tma::ReduceKind;

std::optional<LLVM::AtomicBinOp>
mlir::tile::getElementwiseAtomicOp(ReduceKind kind, Type elementType) {
  bool isFloat = isa<FloatType>(elementType);
  bool isUnsigned = elementType.isUnsignedInteger();
  switch (kind) {
  case ReduceKind::Add:
    return isFloat ? LLVM::AtomicBinOp::fadd : LLVM::AtomicBinOp::add;
  case ReduceKind::Min:
    if (isFloat)
      return std::nullopt;
    return isUnsigned ? LLVM::AtomicBinOp::umin : LLVM::AtomicBinOp::min;
  case ReduceKind::Max:
    if (isFloat)
      return std::nullopt;
    return isUnsigned ? LLVM::AtomicBinOp::umax : LLVM::AtomicBinOp::max;
  case ReduceKind::Inc:
    return LLVM::AtomicBinOp::uinc_wrap;
  case ReduceKind::Dec:
    return LLVM::AtomicBinOp::udec_wrap;
  case ReduceKind::And:
    return LLVM::AtomicBinOp::_and;
  case ReduceKind::Or:
    return LLVM::AtomicBinOp::_or;
  case ReduceKind::Xor:
    return LLVM::AtomicBinOp::_xor;
  case ReduceKind::None:
    return std::nullopt;
  }
  return std::nullopt;
}

std::optional<::tile::Decline>
mlir::tile::checkElementwiseReduce(ReduceKind reduce, Type elementType) {
  if (reduce == ReduceKind::None)
    return std::nullopt;
  if (!getElementwiseAtomicOp(reduce, elementType))
    return ::tile::Decline{::tile::RuleId::ReduceType,
                           std::string("per-element atomics have no ") +
                               ::tile::tma::toString(reduce) +
                               " for floating-point elements"};
  return std::nullopt;
}
