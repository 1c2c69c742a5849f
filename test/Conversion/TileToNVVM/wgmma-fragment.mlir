// RUN: tile-opt %s --convert-tile-to-nvvm | FileCheck %s

// tile.wgmma_a_fragment: k-step 1 of an m64n32 accumulator is f32 8..15,
// rounded to eight bf16 (LLVM selects cvt.rn.bf16x2.f32 pairs).

!acc32 = !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
!acc16 = !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>

// CHECK-LABEL: func.func @fragment
// CHECK: %[[V:.*]] = llvm.mlir.poison : vector<8xf32>
// CHECK: llvm.extractvalue %{{.*}}[8] : !llvm.struct
// CHECK: llvm.insertelement
// CHECK-COUNT-6: llvm.extractvalue
// CHECK: %[[E15:.*]] = llvm.extractvalue %{{.*}}[15] : !llvm.struct
// CHECK: %[[W:.*]] = llvm.insertelement %[[E15]]
// CHECK: %[[R:.*]] = llvm.fptrunc %[[W]] : vector<8xf32> to vector<8xbf16>
// CHECK: return %[[R]]
func.func @fragment(%s: !acc32) -> vector<8xbf16> {
  %p = tile.wgmma_a_fragment %s[1] : !acc32 -> vector<8xbf16>
  return %p : vector<8xbf16>
}

// tile.wgmma_register_a: the register-A form of wgmma as inline PTX. The
// accumulator's eight f32 are outputs $0..$7 tied to inputs $8..$15, A's
// four 32-bit registers $16..$19, the B descriptor $20; scale-d 1 is an
// immediate; imm-trans-b 1 for an MN-major B.
// CHECK-LABEL: func.func @register_a
// CHECK: %[[A:.*]] = llvm.bitcast %{{.*}} : vector<8xbf16> to vector<4xi32>
// CHECK: %[[R:.*]] = llvm.inline_asm has_side_effects asm_dialect = att "{\0A.reg .pred p;\0Asetp.ne.b32 p, 1, 0;\0Awgmma.mma_async.sync.aligned.m64n16k16.f32.bf16.bf16 {$0, $1, $2, $3, $4, $5, $6, $7}, {$16, $17, $18, $19}, $20, p, 1, 1, 1;\0A}\0A", "=f,=f,=f,=f,=f,=f,=f,=f,0,1,2,3,4,5,6,7,r,r,r,r,l"
// CHECK-SAME: -> !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>
// K-major B, f16: imm-trans-b 0.
// CHECK: wgmma.mma_async.sync.aligned.m64n16k16.f32.f16.f16 {{.*}}, p, 1, 1, 0;
func.func @register_a(%a: vector<8xbf16>, %h: vector<8xf16>, %b: i64, %o: !acc16) -> (!acc16, !acc16) {
  %r = tile.wgmma_register_a %a, %b, %o {b_major = #tile.wgmma_major<mn>} : vector<8xbf16>, !acc16
  %k = tile.wgmma_register_a %h, %b, %o : vector<8xf16>, !acc16
  return %r, %k : !acc16, !acc16
}

// With `if %issue`, the i1 is one more input, a predicate register ("b",
// $21), that guards the wgmma; the accumulator is tied as before, so where
// the guard is false the result is the accumulator unchanged.
// CHECK-LABEL: func.func @register_a_guarded
// CHECK: llvm.inline_asm has_side_effects asm_dialect = att "{\0A.reg .pred p;\0Asetp.ne.b32 p, 1, 0;\0A@$21 wgmma.mma_async.sync.aligned.m64n16k16.f32.bf16.bf16 {$0, $1, $2, $3, $4, $5, $6, $7}, {$16, $17, $18, $19}, $20, p, 1, 1, 1;\0A}\0A", "=f,=f,=f,=f,=f,=f,=f,=f,0,1,2,3,4,5,6,7,r,r,r,r,l,b"
// CHECK-SAME: %{{.*}}, %[[ISSUE:[a-z0-9]+]] : (f32, f32, f32, f32, f32, f32, f32, f32, i32, i32, i32, i32, i64, i1)
func.func @register_a_guarded(%a: vector<8xbf16>, %b: i64, %o: !acc16, %issue: i1) -> !acc16 {
  %r = tile.wgmma_register_a %a, %b, %o if %issue {b_major = #tile.wgmma_major<mn>} : vector<8xbf16>, !acc16
  return %r : !acc16
}

// With zero_init the accumulator is output only ("=f", no tied inputs):
// A's registers are $4..$7 of an m64n8 and scale-d is 0 (D = A x B).
// CHECK-LABEL: func.func @register_a_zero_init
// CHECK-NOT: llvm.extractvalue
// CHECK: llvm.inline_asm has_side_effects asm_dialect = att "{\0A.reg .pred p;\0Asetp.ne.b32 p, 0, 0;\0Awgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16 {$0, $1, $2, $3}, {$4, $5, $6, $7}, $8, p, 1, 1, 0;\0A}\0A", "=f,=f,=f,=f,r,r,r,r,l"
// CHECK-SAME: : (i32, i32, i32, i32, i64) -> !llvm.struct<(f32, f32, f32, f32)>
func.func @register_a_zero_init(%a: vector<8xbf16>, %b: i64, %o: !llvm.struct<(f32, f32, f32, f32)>) -> !llvm.struct<(f32, f32, f32, f32)> {
  %r = tile.wgmma_register_a %a, %b, %o {zero_init} : vector<8xbf16>, !llvm.struct<(f32, f32, f32, f32)>
  return %r : !llvm.struct<(f32, f32, f32, f32)>
}

// tile.wgmma_fence_operand: an empty statement that reads and writes the
// value's 32-bit registers (an A fragment's four, an accumulator's f32).
// CHECK-LABEL: func.func @fence_operand
// CHECK: %[[P:.*]] = llvm.bitcast %{{.*}} : vector<8xbf16> to vector<4xi32>
// CHECK: %[[H:.*]] = llvm.inline_asm has_side_effects asm_dialect = att "", "=r,=r,=r,=r,0,1,2,3" %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : (i32, i32, i32, i32) -> !llvm.struct<(i32, i32, i32, i32)>
// CHECK: %[[B:.*]] = llvm.bitcast %{{.*}} : vector<4xi32> to vector<8xbf16>
// CHECK: llvm.inline_asm has_side_effects asm_dialect = att "", "=f,=f,=f,=f,=f,=f,=f,=f,0,1,2,3,4,5,6,7" {{.*}} -> !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>
func.func @fence_operand(%a: vector<8xbf16>, %o: !acc16) -> (vector<8xbf16>, !acc16) {
  %a1 = tile.wgmma_fence_operand %a : vector<8xbf16>
  %o1 = tile.wgmma_fence_operand %o : !acc16
  return %a1, %o1 : vector<8xbf16>, !acc16
}
