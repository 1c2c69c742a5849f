//===- Swizzle.cpp - Hardware XOR swizzle patterns ------------------------===//

#include "tile/Layout/Layout.h"

namespace tile {

int swizzleBits(Swizzle s) { return static_cast<int>(s); }

int64_t swizzleSpanBytes(Swizzle s) {
  return s == Swizzle::None ? 0 : int64_t(16) << swizzleBits(s);
}

int64_t swizzleRepeatBytes(Swizzle s) {
  return s == Swizzle::None ? 1 : int64_t(128) << swizzleBits(s);
}

const char *toString(Swizzle s) {
  switch (s) {
  case Swizzle::None:
    return "none";
  case Swizzle::B32:
    return "32B";
  case Swizzle::B64:
    return "64B";
  case Swizzle::B128:
    return "128B";
  }
  return "none";
}

std::optional<Swizzle> parseSwizzle(std::string_view text) {
  if (text == "none")
    return Swizzle::None;
  if (text == "32B")
    return Swizzle::B32;
  if (text == "64B")
    return Swizzle::B64;
  if (text == "128B")
    return Swizzle::B128;
  return std::nullopt;
}

std::optional<SwizzleXor> getSwizzleXor(Swizzle s) {
  int bits = swizzleBits(s);
  if (bits == 0)
    return std::nullopt;
  return SwizzleXor{/*rowShift=*/7, /*rowMask=*/(int64_t(1) << bits) - 1,
                    /*chunkShift=*/4};
}

int64_t applySwizzle(Swizzle s, int64_t byteAddress) {
  std::optional<SwizzleXor> x = getSwizzleXor(s);
  if (!x)
    return byteAddress;
  return byteAddress ^
         (((byteAddress >> x->rowShift) & x->rowMask) << x->chunkShift);
}

} // namespace tile
