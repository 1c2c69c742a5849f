// RUN: tile-opt %s --tile-gpu-pipeline=format=isa -o %t.mlir
// RUN: python3 %tile_src_root/scripts/extract-ptx.py %t.mlir -o %t.ptx
// RUN: FileCheck %s < %t.ptx

// The descriptors of a k-loop over a 128B-swizzled bf16 A tile lower to
// PTX: the arena's shared address plus the k-step's 32 B, >> 4, in 14 bits,
// or'ed with LBO 16 B, SBO 1024 B and swizzle mode 1.

!a = memref<128x64xbf16, #tile.layout<(128, 64) : (64, 1), swizzle = 128B>, #gpu.address_space<workgroup>>

// The arena is 1024-aligned, so LLVM folds the add into an or and narrows
// the 14-bit mask to the bits that can be set; the 64-bit store is split
// into the low word (start, LBO = 1) and the high word 0x40000040 (SBO = 64,
// swizzle mode 1 in bit 62).
// CHECK: .extern .shared .align 1024 .b8 __tile_arena[];
// CHECK-LABEL: .entry descriptors_kernel
// CHECK: shl.b32 [[K:%r[0-9]+]], %r{{[0-9]+}}, 5;
// CHECK: mov.b64 [[ARENA:%rd[0-9]+]], __tile_arena;
// CHECK: or.b64 [[ADDR:%rd[0-9]+]], %rd{{[0-9]+}}, [[ARENA]];
// CHECK: shr.u64 [[S:%rd[0-9]+]], [[ADDR]], 4;
// CHECK: and.b64 [[F:%rd[0-9]+]], [[S]], {{[0-9]+}};
// CHECK: or.b64 [[LO:%rd[0-9]+]], [[F]], 65536;
// CHECK: st.global.b32 [[[P:%rd[0-9]+]]], [[LO]];
// CHECK: st.global.b32 [[[P]]+4], 1073741888;

module attributes {gpu.container_module} {
  func.func @descriptors(%out: memref<4xi64>) {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) {
      %c0 = arith.constant 0 : index
      %c16 = arith.constant 16 : index
      %buf = tile.arena_view [0] : !a
      %col = arith.muli %tx, %c16 : index
      %d = tile.wgmma_descriptor %buf[%c0, %col] {rows = 64, k = 16} : !a -> i64
      memref.store %d, %out[%tx] : memref<4xi64>
      gpu.terminator
    }
    return
  }
}
