//===- RuntimeFieldEmitter.cpp - A plan's run-time quantities as IR -------===//

#include "tile/Dialect/Tile/IR/RuntimeFieldEmitter.h"
#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace mlir::tile;

static Value i64Constant(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIntOp::create(b, loc, b.getI64Type(), v);
}

Value mlir::tile::emitRuntimeField(OpBuilder &b, Location loc,
                                   const ::tile::tma::RuntimeField &field,
                                   RuntimeValueReader read) {
  Value v = read(field.value);
  if (field.scale != 1)
    v = arith::MulIOp::create(b, loc, v, i64Constant(b, loc, field.scale));
  if (field.divisor != 1)
    v = arith::DivUIOp::create(b, loc, v, i64Constant(b, loc, field.divisor));
  return v;
}

Value mlir::tile::emitGuardHolds(OpBuilder &b, Location loc,
                                 const ::tile::tma::Guard &guard,
                                 RuntimeValueReader read) {
  Value lin;
  auto add = [&](Value v) {
    lin = lin ? arith::AddIOp::create(b, loc, lin, v).getResult() : v;
  };
  for (const auto &[value, coeff] : guard.terms) {
    Value v = read(value);
    if (coeff != 1)
      v = arith::MulIOp::create(b, loc, v, i64Constant(b, loc, coeff));
    add(v);
  }
  if (guard.constant != 0 || !lin)
    add(i64Constant(b, loc, guard.constant));
  if (guard.kind == ::tile::tma::Guard::Kind::MultipleOf) {
    Value rem =
        arith::RemUIOp::create(b, loc, lin, i64Constant(b, loc, guard.modulus));
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, rem,
                                 i64Constant(b, loc, 0));
  }
  Value lo = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, lin,
                                   i64Constant(b, loc, guard.lo));
  Value hi = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sle, lin,
                                   i64Constant(b, loc, guard.hi));
  return arith::AndIOp::create(b, loc, lo, hi);
}
