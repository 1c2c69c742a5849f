//===- BarrierIdentity.cpp - Which mbarrier an op names -------------------===//

#include "BarrierIdentity.h"
#include "KnownValues.h"
#include "mlir/IR/OperationSupport.h"

using namespace mlir;
using namespace mlir::tile::async_protocol;

BarrierIdentity BarrierIdentity::get(Value group, Value index,
                                     KnownValues &known) {
  if (std::optional<int64_t> x = known.resolve(index))
    return BarrierIdentity(group, Value(), *x);
  return BarrierIdentity(group, index, std::nullopt);
}

bool BarrierIdentity::mayAlias(const BarrierIdentity &o) const {
  if (group != o.group)
    return false;
  return !knownIndex || !o.knownIndex || *knownIndex == *o.knownIndex;
}

bool BarrierIdentity::operator<(const BarrierIdentity &o) const {
  if (group != o.group)
    return group.getAsOpaquePointer() < o.group.getAsOpaquePointer();
  if (isKnown() != o.isKnown())
    return isKnown();
  if (isKnown())
    return *knownIndex < *o.knownIndex;
  return symbolicIndex.getAsOpaquePointer() <
         o.symbolicIndex.getAsOpaquePointer();
}

void BarrierIdentity::print(llvm::raw_ostream &os) const {
  os << "barrier ";
  if (knownIndex)
    os << *knownIndex;
  else
    symbolicIndex.printAsOperand(os, OpPrintingFlags());
  os << " of ";
  group.printAsOperand(os, OpPrintingFlags());
}
