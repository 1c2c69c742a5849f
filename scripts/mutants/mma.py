"""Mutants of the wgmma descriptor planner and encoder (lib/MMA,
include/tile/MMA).
"""
from ._catalog import Library

LIBRARY = Library("lib/MMA", "include/tile/MMA")
M = LIBRARY.mutant

MUTANTS = [
    M("mma-sbo-repeat", "WgmmaDescriptor.cpp",
      "bytes > 0 && bytes % repeat == 0", "bytes > 0 && bytes % 16 == 0",
      "8-row atoms (or MN-major spans) off the swizzle repeat accepted: the "
      "hardware's swizzle phase of the second atom is not the layout's",
      function="isAtomDistance"),
    M("mma-kstep-align", "WgmmaDescriptor.cpp",
      "floorMod(startByte, kWgmmaKStepBytes) != 0",
      "floorMod(startByte, 16) != 0",
      "a block starting half-way into a k-step accepted",
      function="checkStart"),
    M("mma-atom-row", "WgmmaDescriptor.cpp",
      "if (inAtom >= span)", "if (inAtom >= repeat)",
      "a block starting inside a swizzle atom gets base offset 0",
      function="checkStart"),
    M("mma-encode-sbo", "WgmmaDescriptor.cpp",
      "field14(fields.strideByteOffset) << 32",
      "field14(fields.strideByteOffset) << 30",
      "the stride byte offset lands in the wrong descriptor bits",
      function="encodeWgmmaDescriptor"),
    M("mma-model-mask", "WgmmaDescriptor.cpp",
      "int64_t chunkMask = span / 16 - 1;", "int64_t chunkMask = span / 16;",
      "the model the property test trusts XORs one bit too many",
      function="wgmmaOperandByteAddress"),
    M("mma-mn-lbo", "WgmmaDescriptor.cpp",
      "int64_t want = (n * elementBytes) % span + (n / perSpan) * colLbo;",
      "int64_t want = (n * elementBytes) % span + (n / perSpan) * repeat;",
      "an MN-major operand's second span checked at one swizzle repeat, not "
      "at the layout's LBO: attention's V panels 16 KiB apart declined",
      function="planMnStarts"),
    M("mma-mn-start", "WgmmaDescriptor.cpp",
      "if (floorMod(startByte, repeat) == 0)",
      "if (floorMod(startByte, swizzleSpanBytes(s)) == 0)",
      "an MN-major block starting inside a swizzle atom accepted",
      function="checkMnStart"),
]
