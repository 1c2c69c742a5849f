//===- ElementTypeTest.cpp - Data types, reduce and NaN-fill tables -------===//

#include "TestUtil.h"

using namespace tile::tma;
using namespace tile::tma::test;

namespace {

ElementType si(int64_t b) { return {ScalarKind::SignedInt, b}; }
ElementType ui(int64_t b) { return {ScalarKind::UnsignedInt, b}; }
ElementType i(int64_t b) { return {ScalarKind::SignlessInt, b}; }

std::string dt(ElementType t) {
  std::optional<TensorDataType> d = dataTypeFor(t);
  return d ? toString(*d) : "none";
}

TEST(ElementType, DataTypeTable) {
  EXPECT_EQ(dt(i(1)), "u8");
  EXPECT_EQ(dt(si(1)), "u8");
  EXPECT_EQ(dt(ui(1)), "u8");
  EXPECT_EQ(dt(fp8()), "u8");
  EXPECT_EQ(dt(i(2)), "u16");
  EXPECT_EQ(dt(si(2)), "u16");
  EXPECT_EQ(dt(ui(2)), "u16");
  EXPECT_EQ(dt(f16()), "f16");
  EXPECT_EQ(dt(bf16()), "bf16");
  EXPECT_EQ(dt(i(4)), "i32");
  EXPECT_EQ(dt(si(4)), "i32");
  EXPECT_EQ(dt(ui(4)), "u32");
  EXPECT_EQ(dt(f32()), "f32");
  EXPECT_EQ(dt(i(8)), "i64");
  EXPECT_EQ(dt(si(8)), "i64");
  EXPECT_EQ(dt(ui(8)), "u64");
  EXPECT_EQ(dt(f64()), "f64");
  EXPECT_EQ(dt({ScalarKind::Float, 1}), "none");
  EXPECT_EQ(dt(i(3)), "none");
  EXPECT_EQ(static_cast<int>(TensorDataType::BF16), 9);
  EXPECT_EQ(static_cast<int>(TensorDataType::U64), 4);
  EXPECT_STREQ(toString(*promotedDataType(4)), "u32");
  EXPECT_EQ(toString(bf16()), "bf16");
  EXPECT_EQ(toString(ui(64 / 8)), "ui64");
}

TEST(ElementType, ReduceTable) {
  EXPECT_TRUE(reduceSupports(ReduceKind::Add, ui(4)));
  EXPECT_TRUE(reduceSupports(ReduceKind::Add, si(4)));
  EXPECT_TRUE(reduceSupports(ReduceKind::Add, i(4)));
  EXPECT_TRUE(reduceSupports(ReduceKind::Add, ui(8)));
  EXPECT_TRUE(reduceSupports(ReduceKind::Add, i(8)));
  EXPECT_FALSE(reduceSupports(ReduceKind::Add, si(8)));
  EXPECT_TRUE(reduceSupports(ReduceKind::Add, f32()));
  EXPECT_TRUE(reduceSupports(ReduceKind::Add, f16()));
  EXPECT_TRUE(reduceSupports(ReduceKind::Add, bf16()));
  EXPECT_FALSE(reduceSupports(ReduceKind::Add, f64()));
  EXPECT_FALSE(reduceSupports(ReduceKind::Add, i(2)));
  EXPECT_TRUE(reduceSupports(ReduceKind::Min, si(8)));
  EXPECT_TRUE(reduceSupports(ReduceKind::Max, ui(4)));
  EXPECT_TRUE(reduceSupports(ReduceKind::Max, bf16()));
  EXPECT_FALSE(reduceSupports(ReduceKind::Min, f32()));
  EXPECT_TRUE(reduceSupports(ReduceKind::Inc, ui(4)));
  EXPECT_TRUE(reduceSupports(ReduceKind::Dec, i(4)));
  EXPECT_FALSE(reduceSupports(ReduceKind::Inc, si(4)));
  EXPECT_FALSE(reduceSupports(ReduceKind::Dec, ui(8)));
  EXPECT_TRUE(reduceSupports(ReduceKind::And, si(4)));
  EXPECT_TRUE(reduceSupports(ReduceKind::Or, ui(8)));
  EXPECT_TRUE(reduceSupports(ReduceKind::Xor, i(8)));
  EXPECT_FALSE(reduceSupports(ReduceKind::Xor, f32()));
  EXPECT_FALSE(reduceSupports(ReduceKind::And, i(2)));
  EXPECT_TRUE(reduceSupports(ReduceKind::None, fp8()));
}

TEST(ElementType, NaNFill) {
  EXPECT_TRUE(nanFillSupports(f16()));
  EXPECT_TRUE(nanFillSupports(bf16()));
  EXPECT_TRUE(nanFillSupports(f32()));
  EXPECT_TRUE(nanFillSupports(f64()));
  EXPECT_FALSE(nanFillSupports(fp8()));
  EXPECT_FALSE(nanFillSupports(i(4)));
}

} // namespace
