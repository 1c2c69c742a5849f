//===- TestUtil.h - Helpers for TMA planner tests ---------------*- C++ -*-===//

#ifndef TILE_UNITTESTS_TMA_TESTUTIL_H
#define TILE_UNITTESTS_TMA_TESTUTIL_H

#include "tile/Layout/Format.h"
#include "tile/Support/Rules.h"
#include "tile/TMA/HardwareModel.h"
#include "tile/TMA/Planner.h"

#include <gtest/gtest.h>

#include <set>

namespace tile::tma::test {

inline ElementType f16() { return {ScalarKind::Float, 2}; }
inline ElementType bf16() { return {ScalarKind::BFloat, 2}; }
inline ElementType f32() { return {ScalarKind::Float, 4}; }
inline ElementType f64() { return {ScalarKind::Float, 8}; }
inline ElementType fp8() { return {ScalarKind::Float8, 1}; }
inline ElementType i8() { return {ScalarKind::SignlessInt, 1}; }
inline ElementType i32() { return {ScalarKind::SignlessInt, 4}; }
inline ElementType ui32() { return {ScalarKind::UnsignedInt, 4}; }
inline ElementType ui64() { return {ScalarKind::UnsignedInt, 8}; }

inline Layout parse(const std::string &text) {
  std::string error;
  std::optional<Layout> l = Layout::parse(text, &error);
  EXPECT_TRUE(l) << text << ": " << error;
  return l.value_or(Layout());
}

inline std::vector<SymExpr> zeros(size_t n) {
  return std::vector<SymExpr>(n, SymExpr(0));
}

/// A full-region load (offsets zero, sizes = shapes).
inline CopyRequest load(ElementType t, Layout g, std::vector<int64_t> gShape,
                        Layout s, std::vector<int64_t> sShape) {
  CopyRequest r;
  r.direction = Direction::GlobalToShared;
  r.elementType = t;
  r.globalLayout = std::move(g);
  r.globalOffsets = zeros(gShape.size());
  r.globalSizes = gShape;
  r.globalShape = std::move(gShape);
  r.sharedLayout = std::move(s);
  r.sharedOffsets = zeros(sShape.size());
  r.sharedSizes = sShape;
  r.sharedShape = std::move(sShape);
  return r;
}

inline CopyRequest store(ElementType t, Layout g, std::vector<int64_t> gShape,
                         Layout s, std::vector<int64_t> sShape) {
  CopyRequest r =
      load(t, std::move(g), std::move(gShape), std::move(s), std::move(sShape));
  r.direction = Direction::SharedToGlobal;
  return r;
}

template <typename T>
std::string join(const std::vector<T> &v) {
  std::vector<int64_t> w(v.begin(), v.end());
  return formatList(w);
}

/// One line per plan: descriptor | issues | bytes.
inline std::string describe(const TmaPlan &p) {
  const TensorMapDesc &m = p.map;
  std::string s =
      std::string(toString(m.dataType)) + " rank " + std::to_string(m.rank) +
      " dim " + join(m.globalDim) + " strides " + join(m.globalStridesBytes) +
      " box " + join(m.boxDim) + " estr " + join(m.elementStrides) + " swz " +
      std::to_string(static_cast<int>(m.swizzle)) + " oob " +
      std::to_string(m.oobFill) + " base " + m.baseOffsetBytes.str();
  for (const TmaIssue &i : p.issues) {
    s += " | smem " + i.smemByteOffset.str() + " @ [";
    for (size_t k = 0; k < i.coords.size(); ++k)
      s += (k ? ", " : "") + i.coords[k].str();
    s += "]";
  }
  return s + " | bytes " + std::to_string(p.bytes);
}

/// Plans, expects success, and checks the plan on the hardware model with
/// the given symbol values (all symbols zero by default).
inline TmaPlan planOk(const CopyRequest &r,
                      std::vector<std::vector<int64_t>> symbolValues = {{}}) {
  PlanOutcome o = planTmaCopy(r);
  EXPECT_TRUE(o.plan) << messageOf(o.decline);
  if (!o.plan)
    return TmaPlan();
  for (const std::vector<int64_t> &values : symbolValues) {
    std::optional<std::string> err = verifyPlan(r, *o.plan, values);
    EXPECT_FALSE(err) << *err << "\n" << describe(*o.plan);
  }
  return *o.plan;
}

inline std::string declineOf(const CopyRequest &r) {
  PlanOutcome o = planTmaCopy(r);
  EXPECT_FALSE(o.plan) << describe(*o.plan);
  EXPECT_TRUE(o.decline.has_value());
  return messageOf(o.decline);
}

/// The id of the rule `r`'s decline names ("" when it plans).
inline std::string declineRuleOf(const CopyRequest &r) {
  PlanOutcome o = planTmaCopy(r);
  EXPECT_FALSE(o.plan) << describe(*o.plan);
  return o.decline ? std::string(ruleIdName(o.decline->rule)) : std::string();
}

} // namespace tile::tma::test

#endif // TILE_UNITTESTS_TMA_TESTUTIL_H
