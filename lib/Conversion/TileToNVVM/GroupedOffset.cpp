//===- GroupedOffset.cpp - Grouped-layout byte offsets as IR --------------===//

#include "GroupedOffset.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

using namespace mlir;
using namespace mlir::tile;

OpFoldResult
mlir::tile::emitGroupedByteOffset(OpBuilder &b, Location loc,
                                  const ::tile::GroupedLayout &layout,
                                  int64_t elementBytes, ValueRange indices) {
  assert(indices.size() == layout.rank() && "one index per dimension");
  Type i64 = b.getI64Type();
  auto c = [&](int64_t v) -> Value {
    return arith::ConstantIntOp::create(b, loc, i64, v);
  };
  // Constant indices go through the layout library (a run-time index stands
  // in as 0, which adds nothing); run-time ones become the sum `dynamic`.
  std::vector<int64_t> known(layout.rank(), 0);
  Value dynamic;
  for (auto [d, index] : llvm::enumerate(indices)) {
    if (std::optional<int64_t> value = getConstantIntValue(index)) {
      known[d] = *value;
      continue;
    }
    const std::vector<::tile::Shard> &group = layout.groups[d];
    // The outermost shard that moves takes the quotient: an index below the
    // dimension's size needs no remainder there, nor any digit on the
    // extent-1 shards.
    size_t outermost = 0;
    while (outermost < group.size() && group[outermost].extent == 1)
      ++outermost;
    if (outermost == group.size())
      continue;
    assert((index.getType().isIndex() || index.getType().isInteger(64)) &&
           "an index or i64 value");
    Value i = index.getType().isIndex()
                  ? arith::IndexCastUIOp::create(b, loc, i64, index)
                  : index;
    int64_t inner = 1;
    for (size_t k = group.size(); k-- > outermost;) {
      const ::tile::Shard &shard = group[k];
      if (shard.extent == 1)
        continue;
      Value digit =
          inner == 1 ? i
                     : arith::DivUIOp::create(b, loc, i, c(inner)).getResult();
      if (k != outermost)
        digit = arith::RemUIOp::create(b, loc, digit, c(shard.extent));
      if (shard.stride != 1)
        digit = arith::MulIOp::create(b, loc, digit, c(shard.stride));
      dynamic = dynamic
                    ? arith::AddIOp::create(b, loc, dynamic, digit).getResult()
                    : digit;
      inner *= shard.extent;
    }
  }
  int64_t constantBytes = layout.offsetOf(known) * elementBytes;
  if (!dynamic)
    return b.getI64IntegerAttr(
        ::tile::applySwizzle(layout.swizzle, constantBytes));

  Value bytes = dynamic;
  if (elementBytes != 1)
    bytes = arith::MulIOp::create(b, loc, bytes, c(elementBytes));
  if (constantBytes != 0)
    bytes = arith::AddIOp::create(b, loc, bytes, c(constantBytes));
  if (std::optional<::tile::SwizzleXor> swizzle =
          ::tile::getSwizzleXor(layout.swizzle)) {
    Value row = arith::ShRUIOp::create(b, loc, bytes, c(swizzle->rowShift));
    Value sel = arith::AndIOp::create(b, loc, row, c(swizzle->rowMask));
    Value mask = arith::ShLIOp::create(b, loc, sel, c(swizzle->chunkShift));
    bytes = arith::XOrIOp::create(b, loc, bytes, mask);
  }
  return bytes;
}
