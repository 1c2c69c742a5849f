// RUN: tile-opt %s -split-input-file -verify-diagnostics --tile-finalize-kernel-abi | FileCheck %s

// After the kernel became an llvm.func, each tensor-map argument (a 128-byte
// array passed by value) turns into a byval, 64-byte aligned, grid_constant
// pointer, so TMA reads the parameter itself; the casts the conversion left
// (tagged tile.tensor_map_address) fold into it, and each map records its
// parameter index for hosts that build the argument array themselves.

// CHECK-LABEL: llvm.func @kernel
// CHECK-SAME: (%[[P:.*]]: !llvm.ptr, %[[M0:.*]]: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<16 x i64>, nvvm.grid_constant}, %[[M1:.*]]: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<16 x i64>, nvvm.grid_constant})
// CHECK-SAME: tile.tensor_maps = [#tile.tensor_map<tiled, arg = 1, param = 1, global_arg = 0, map = #tile.tiled_map<{{.*}}>>, #tile.tensor_map<tiled, arg = 2, param = 2, global_arg = 0, map = #tile.tiled_map<{{.*}}>>]
// CHECK-NOT: unrealized_conversion_cast
// CHECK: llvm.call @use(%[[M0]], %[[M0]], %[[M1]])
llvm.func @use(!llvm.ptr, !llvm.ptr, !llvm.ptr)
llvm.func @kernel(%p: !llvm.ptr, %m0: !llvm.array<16 x i64>, %m1: !llvm.array<16 x i64>)
    attributes {tile.tensor_maps = [#tile.tensor_map<tiled, arg = 1, global_arg = 0, map = #tile.tiled_map<"f16", dim = [64], strides = [], box = [64], element_strides = [1], swizzle = "none", interleave = 0, l2_promotion = 2, oob = "zero", base = 0, element_bytes = 2, promoted = false>>,
                                    #tile.tensor_map<tiled, arg = 2, global_arg = 0, map = #tile.tiled_map<"f16", dim = [64], strides = [], box = [64], element_strides = [1], swizzle = "none", interleave = 0, l2_promotion = 2, oob = "zero", base = 0, element_bytes = 2, promoted = false>>]} {
  %a = builtin.unrealized_conversion_cast %m0 : !llvm.array<16 x i64> to !llvm.ptr {tile.tensor_map_address}
  %b = builtin.unrealized_conversion_cast %m0 : !llvm.array<16 x i64> to !llvm.ptr {tile.tensor_map_address}
  %c = builtin.unrealized_conversion_cast %m1 : !llvm.array<16 x i64> to !llvm.ptr {tile.tensor_map_address}
  llvm.call @use(%a, %b, %c) : (!llvm.ptr, !llvm.ptr, !llvm.ptr) -> ()
  llvm.return
}

// -----

// Functions without tagged casts are left alone.
// CHECK-LABEL: llvm.func @plain
// CHECK-SAME: (%{{.*}}: !llvm.array<16 x i64>)
// CHECK: builtin.unrealized_conversion_cast
llvm.func @plain(%m: !llvm.array<16 x i64>) {
  %a = builtin.unrealized_conversion_cast %m : !llvm.array<16 x i64> to !llvm.ptr
  llvm.return
}

// -----

llvm.func @not_an_argument(%m: !llvm.ptr) {
  %v = llvm.load %m : !llvm.ptr -> !llvm.array<16 x i64>
  // expected-error @+1 {{tensor-map address does not come from a kernel argument}}
  %a = builtin.unrealized_conversion_cast %v : !llvm.array<16 x i64> to !llvm.ptr {tile.tensor_map_address}
  llvm.return
}
