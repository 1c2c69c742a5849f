//===- PlanFingerprintTest.cpp - The recorded plan-input fingerprint ------===//
//
// tile-plan-copies records `tile.plan_input`, a fingerprint of the planner's
// request and the plan made for it, and every later pass compares it with
// the copy it reads: equal, the record stands; different, the hardware model
// checks the plan again. The fingerprint is printed into the IR and read by
// other processes, so its value for a given record is fixed, and a change to
// any field of the request or the plan changes it.
//
//===----------------------------------------------------------------------===//

#include "tile/Dialect/Tile/IR/CopyRequest.h"
#include "tile/TMA/Planner.h"
#include "gtest/gtest.h"

using namespace tile;
using namespace tile::tma;

namespace {

/// The reference demo's load: 8 rows of 256 f16 into a 128B-swizzled tile.
CopyRequest demoLoad() {
  CopyRequest r;
  r.elementType = {ScalarKind::Float, 2};
  r.globalLayout = Layout::strided({8, 256}, {256, 1}, 0);
  r.globalShape = {8, 256};
  r.globalOffsets = {SymExpr(0), SymExpr(0)};
  r.globalSizes = {8, 256};
  r.sharedLayout = Layout::strided({8, 256}, {256, 1}, 0);
  r.sharedShape = {8, 256};
  r.sharedOffsets = {SymExpr(0), SymExpr(0)};
  r.sharedSizes = {8, 256};
  return r;
}

TmaPlan planFor(const CopyRequest &r) {
  PlanOutcome o = planTmaCopy(r);
  EXPECT_TRUE(o.plan.has_value());
  return o.plan ? *o.plan : TmaPlan{};
}

TEST(PlanFingerprint, IsTheSameInEveryProcess) {
  CopyRequest r = demoLoad();
  // The value this build prints for the record; a change here makes every
  // fingerprint recorded by an earlier build stale (re-checked by the model).
  EXPECT_EQ(mlir::tile::getPlanInputFingerprint(r, planFor(r)),
            9295076597077640060ull);
}

TEST(PlanFingerprint, ChangesWithEveryField) {
  CopyRequest base = demoLoad();
  TmaPlan plan = planFor(base);
  uint64_t reference = mlir::tile::getPlanInputFingerprint(base, plan);
  auto differs = [&](const CopyRequest &r, const TmaPlan &p) {
    return mlir::tile::getPlanInputFingerprint(r, p) != reference;
  };

  CopyRequest moved = base;
  moved.globalOffsets[1] = SymExpr::symbol(0);
  EXPECT_TRUE(differs(moved, plan)) << "a global offset";
  CopyRequest smaller = base;
  smaller.globalSizes[0] = 4;
  EXPECT_TRUE(differs(smaller, plan)) << "a size";
  CopyRequest nan = base;
  nan.oobFill = OobFill::NaN;
  EXPECT_TRUE(differs(nan, plan)) << "the fill";
  CopyRequest aligned = base;
  aligned.sharedBaseAlignment = 128;
  EXPECT_TRUE(differs(aligned, plan)) << "the shared alignment";
  CopyRequest symbolic = base;
  symbolic.symbolicGlobal = SymbolicGlobal{{8, 256}, {256, 1}, 0};
  EXPECT_TRUE(differs(symbolic, plan)) << "a symbolic global";
  CopyRequest dynamicOffset = symbolic;
  dynamicOffset.symbolicGlobal->offset = std::nullopt;
  EXPECT_NE(mlir::tile::getPlanInputFingerprint(symbolic, plan),
            mlir::tile::getPlanInputFingerprint(dynamicOffset, plan))
      << "a static offset against a dynamic one";

  TmaPlan swizzled = plan;
  swizzled.map.swizzle = Swizzle::B128;
  EXPECT_TRUE(differs(base, swizzled)) << "the plan's swizzle";
  TmaPlan shifted = plan;
  shifted.issues[0].coords[0] = SymExpr(8);
  EXPECT_TRUE(differs(base, shifted)) << "an issue's coordinate";
  TmaPlan runtime = plan;
  runtime.map.runtimeGlobalDim = {RuntimeField{RuntimeValue::size(1), 1, 1},
                                  std::nullopt};
  EXPECT_TRUE(differs(base, runtime)) << "a host field";
}

TEST(PlanFingerprint, KeepsListsApart) {
  // Lengths are part of the key: moving a value from one list to the next
  // is a different record.
  CopyRequest a = demoLoad();
  CopyRequest b = demoLoad();
  a.globalShape = {8, 256, 1};
  a.globalSizes = {8};
  b.globalShape = {8, 256};
  b.globalSizes = {1, 8};
  TmaPlan plan = planFor(demoLoad());
  EXPECT_NE(mlir::tile::getPlanInputFingerprint(a, plan),
            mlir::tile::getPlanInputFingerprint(b, plan));
}

} // namespace
