//===- ElementType.h - Element types, descriptor data types -----*- C++ -*-===//
//
// The element-type rules the TMA planner and the dialect verifier share: the
// descriptor's data type (DESIGN.md data_type table), which reduce operations
// a type supports (TMA_FACTS section 3) and which types may request NaN fill.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_TMA_ELEMENTTYPE_H
#define TILE_TMA_ELEMENTTYPE_H

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace tile::tma {

enum class ScalarKind {
  SignlessInt,
  SignedInt,
  UnsignedInt,
  Float,
  BFloat,
  Float8
};

/// f16 = {Float, 2}, bf16 = {BFloat, 2}, fp8 = {Float8, 1}, i32 =
/// {SignlessInt, 4}.
struct ElementType {
  ScalarKind kind = ScalarKind::Float;
  int64_t bytes = 2;
  bool operator==(const ElementType &o) const {
    return kind == o.kind && bytes == o.bytes;
  }
};

/// "f16", "bf16", "f8", "i32", "si8", "ui64", ...
std::string toString(ElementType type);

/// CUtensorMapDataType values.
enum class TensorDataType {
  U8 = 0,
  U16 = 1,
  U32 = 2,
  I32 = 3,
  U64 = 4,
  I64 = 5,
  F16 = 6,
  F32 = 7,
  F64 = 8,
  BF16 = 9
};

/// "u8", "u16", "u32", "i32", "u64", "i64", "f16", "f32", "f64", "bf16".
const char *toString(TensorDataType type);

/// The DESIGN.md data_type table; nullopt for types TMA cannot carry.
std::optional<TensorDataType> dataTypeFor(ElementType type);

/// The unsigned type of `bytes` bytes (1, 2, 4, 8) used after promotion.
std::optional<TensorDataType> promotedDataType(int64_t bytes);

enum class ReduceKind { None, Add, Min, Max, Inc, Dec, And, Or, Xor };
enum class OobFill { Zero, NaN };

/// "none", "add", "min", ...
const char *toString(ReduceKind kind);

/// The element types reduceSupports accepts for `kind`, for diagnostics.
const char *reduceTypesDescription(ReduceKind kind);

/// TMA_FACTS section 3: add u32/s32/u64/f32/f16/bf16; min/max
/// u32/s32/u64/s64/f16/bf16; inc/dec u32; and/or/xor b32/b64. Signless
/// integers count as either signedness; bitwise ops accept any 32/64-bit int.
/// None is supported by every type.
bool reduceSupports(ReduceKind kind, ElementType type);

/// NaN fill is only defined for f16, bf16, f32 and f64.
bool nanFillSupports(ElementType type);

} // namespace tile::tma

#endif // TILE_TMA_ELEMENTTYPE_H
