//===- DataType.cpp - Element-type rules shared with the verifier ---------===//

#include "tile/TMA/ElementType.h"

namespace tile::tma {

namespace {
bool isInt(ElementType t) {
  return t.kind == ScalarKind::SignlessInt || t.kind == ScalarKind::SignedInt ||
         t.kind == ScalarKind::UnsignedInt;
}
// Signless integers count as either signedness.
bool isUnsignedInt(ElementType t, int64_t bytes) {
  return t.bytes == bytes && (t.kind == ScalarKind::UnsignedInt ||
                              t.kind == ScalarKind::SignlessInt);
}
bool isSignedInt(ElementType t, int64_t bytes) {
  return t.bytes == bytes &&
         (t.kind == ScalarKind::SignedInt || t.kind == ScalarKind::SignlessInt);
}
bool isFloat(ElementType t, int64_t bytes) {
  return t.kind == ScalarKind::Float && t.bytes == bytes;
}
bool isBF16(ElementType t) {
  return t.kind == ScalarKind::BFloat && t.bytes == 2;
}
} // namespace

std::string toString(ElementType type) {
  std::string bits = std::to_string(type.bytes * 8);
  switch (type.kind) {
  case ScalarKind::SignlessInt:
    return "i" + bits;
  case ScalarKind::SignedInt:
    return "si" + bits;
  case ScalarKind::UnsignedInt:
    return "ui" + bits;
  case ScalarKind::Float:
    return "f" + bits;
  case ScalarKind::BFloat:
    return "bf" + bits;
  case ScalarKind::Float8:
    return "f8";
  }
  return "?";
}

const char *toString(TensorDataType type) {
  switch (type) {
  case TensorDataType::U8:
    return "u8";
  case TensorDataType::U16:
    return "u16";
  case TensorDataType::U32:
    return "u32";
  case TensorDataType::I32:
    return "i32";
  case TensorDataType::U64:
    return "u64";
  case TensorDataType::I64:
    return "i64";
  case TensorDataType::F16:
    return "f16";
  case TensorDataType::F32:
    return "f32";
  case TensorDataType::F64:
    return "f64";
  case TensorDataType::BF16:
    return "bf16";
  }
  return "?";
}

std::optional<TensorDataType> dataTypeFor(ElementType type) {
  switch (type.kind) {
  case ScalarKind::Float8:
    if (type.bytes == 1)
      return TensorDataType::U8; // TMA copies fp8 as bits.
    return std::nullopt;
  case ScalarKind::BFloat:
    if (type.bytes == 2)
      return TensorDataType::BF16;
    return std::nullopt;
  case ScalarKind::Float:
    if (type.bytes == 2)
      return TensorDataType::F16;
    if (type.bytes == 4)
      return TensorDataType::F32;
    if (type.bytes == 8)
      return TensorDataType::F64;
    return std::nullopt;
  case ScalarKind::SignlessInt:
  case ScalarKind::SignedInt:
  case ScalarKind::UnsignedInt:
    break;
  }
  bool isUnsigned = type.kind == ScalarKind::UnsignedInt;
  switch (type.bytes) {
  case 1:
    return TensorDataType::U8;
  case 2:
    return TensorDataType::U16;
  case 4:
    return isUnsigned ? TensorDataType::U32 : TensorDataType::I32;
  case 8:
    return isUnsigned ? TensorDataType::U64 : TensorDataType::I64;
  default:
    return std::nullopt;
  }
}

std::optional<TensorDataType> promotedDataType(int64_t bytes) {
  switch (bytes) {
  case 1:
    return TensorDataType::U8;
  case 2:
    return TensorDataType::U16;
  case 4:
    return TensorDataType::U32;
  case 8:
    return TensorDataType::U64;
  default:
    return std::nullopt;
  }
}

const char *toString(ReduceKind kind) {
  switch (kind) {
  case ReduceKind::None:
    return "none";
  case ReduceKind::Add:
    return "add";
  case ReduceKind::Min:
    return "min";
  case ReduceKind::Max:
    return "max";
  case ReduceKind::Inc:
    return "inc";
  case ReduceKind::Dec:
    return "dec";
  case ReduceKind::And:
    return "and";
  case ReduceKind::Or:
    return "or";
  case ReduceKind::Xor:
    return "xor";
  }
  return "?";
}

const char *reduceTypesDescription(ReduceKind kind) {
  switch (kind) {
  case ReduceKind::Add:
    return "u32, s32, u64, f32, f16, bf16";
  case ReduceKind::Min:
  case ReduceKind::Max:
    return "u32, s32, u64, s64, f16, bf16";
  case ReduceKind::Inc:
  case ReduceKind::Dec:
    return "u32";
  case ReduceKind::And:
  case ReduceKind::Or:
  case ReduceKind::Xor:
    return "32- and 64-bit integers";
  case ReduceKind::None:
    return "any";
  }
  return "any";
}

bool reduceSupports(ReduceKind kind, ElementType t) {
  switch (kind) {
  case ReduceKind::None:
    return true;
  case ReduceKind::Add:
    return isUnsignedInt(t, 4) || isSignedInt(t, 4) || isUnsignedInt(t, 8) ||
           isFloat(t, 4) || isFloat(t, 2) || isBF16(t);
  case ReduceKind::Min:
  case ReduceKind::Max:
    return (isInt(t) && (t.bytes == 4 || t.bytes == 8)) || isFloat(t, 2) ||
           isBF16(t);
  case ReduceKind::Inc:
  case ReduceKind::Dec:
    return isUnsignedInt(t, 4);
  case ReduceKind::And:
  case ReduceKind::Or:
  case ReduceKind::Xor:
    return isInt(t) && (t.bytes == 4 || t.bytes == 8);
  }
  return false;
}

bool nanFillSupports(ElementType t) {
  return isFloat(t, 2) || isFloat(t, 4) || isFloat(t, 8) || isBF16(t);
}

} // namespace tile::tma
