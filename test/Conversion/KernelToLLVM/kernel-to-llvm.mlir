// The fused kernel lowering gives the PTX of the six upstream and tile
// passes it replaces, and the same IR up to the order of the constants the
// upstream pass's greedy sweep folds (the fused pass folds only what the
// inline-PTX lowering reads as immediates); both are canonicalized (with
// cleanup, the pass canonicalizes itself; the last RUN lines). The PTX is
// compared without the serializer's timing property.
// RUN: tile-opt %s -split-input-file --pass-pipeline='builtin.module(gpu.module(convert-tile-kernel-to-llvm,canonicalize))' > %t.fused
// RUN: FileCheck %s < %t.fused
// RUN: tile-opt %s -split-input-file --pass-pipeline='builtin.module(nvvm-attach-target{chip=sm_90a features=+ptx83},gpu.module(convert-tile-kernel-to-llvm,canonicalize),gpu-module-to-binary{format=isa})' | sed 's/LLVMIRToISATimeInMs = [0-9]*//' > %t.fused.ptx
// RUN: tile-opt %s -split-input-file --pass-pipeline='builtin.module(nvvm-attach-target{chip=sm_90a features=+ptx83},gpu.module(convert-nvgpu-to-nvvm,convert-scf-to-cf,convert-gpu-to-nvvm,tile-finalize-kernel-abi,convert-nvvm-to-llvm,reconcile-unrealized-casts,canonicalize),gpu-module-to-binary{format=isa})' | sed 's/LLVMIRToISATimeInMs = [0-9]*//' > %t.separate.ptx
// RUN: diff %t.fused.ptx %t.separate.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.fused.ptx
// RUN: tile-opt %s -split-input-file --pass-pipeline='builtin.module(gpu.module(convert-tile-kernel-to-llvm{cleanup=true}))' > %t.clean
// RUN: tile-opt %s -split-input-file --pass-pipeline='builtin.module(nvvm-attach-target{chip=sm_90a features=+ptx83},gpu.module(convert-tile-kernel-to-llvm{cleanup=true}),gpu-module-to-binary{format=isa})' | sed 's/LLVMIRToISATimeInMs = [0-9]*//' > %t.clean.ptx
// RUN: tile-opt %s -split-input-file --pass-pipeline='builtin.module(nvvm-attach-target{chip=sm_90a features=+ptx83},gpu.module(cse,convert-nvgpu-to-nvvm,convert-scf-to-cf,convert-gpu-to-nvvm,tile-finalize-kernel-abi,convert-nvvm-to-llvm,reconcile-unrealized-casts,canonicalize,cse),gpu-module-to-binary{format=isa})' | sed 's/LLVMIRToISATimeInMs = [0-9]*//' > %t.clean-separate.ptx
// RUN: diff %t.clean.ptx %t.clean-separate.ptx
// RUN: FileCheck %s --check-prefix=CLEAN < %t.clean

// A kernel with a loop, thread ids, a tensor-map argument whose address the
// TMA lowering took through a tagged cast, a PTX-builder NVVM op and a
// 64-bit shuffle (one of the in-dialect rewrites).
// CHECK-LABEL: gpu.module @kernels
// CHECK: llvm.func @copy(%{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: i64, %{{.*}}: i64, %{{.*}}: i64, %{{.*}}: i64, %[[MAP:.*]]: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<16 x i64>, nvvm.grid_constant})
// CHECK-SAME: nvvm.kernel
// CHECK-SAME: tile.tensor_maps = [#tile.tensor_map<tiled, arg = 2, param = 6, global_arg = 0
// CHECK: nvvm.read.ptx.sreg.tid.x
// CHECK: llvm.cond_br
// CHECK: nvvm.prefetch tensormap, %[[MAP]]
// CHECK: nvvm.shfl.sync bfly
// CHECK: nvvm.shfl.sync bfly
// CHECK: llvm.call @sink
// CHECK: llvm.inline_asm has_side_effects {{.*}}mbarrier.try_wait.parity.shared.b64
// CHECK-NOT: unrealized_conversion_cast
// CHECK-NOT: scf.
// CHECK-NOT: gpu.thread_id
gpu.module @kernels {
  gpu.func @copy(%p: memref<64xf16>, %n: index, %m: !llvm.array<16 x i64>) kernel
      attributes {tile.tensor_maps = [#tile.tensor_map<tiled, arg = 2, global_arg = 0, map = #tile.tiled_map<"f16", dim = [64], strides = [], box = [64], element_strides = [1], swizzle = "none", interleave = 0, l2_promotion = 2, oob = "zero", base = 0, element_bytes = 2, promoted = false>>]} {
    %tid = gpu.thread_id x
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c1_i32 = arith.constant 1 : i32
    %c32_i32 = arith.constant 32 : i32
    %addr = builtin.unrealized_conversion_cast %m : !llvm.array<16 x i64> to !llvm.ptr {tile.tensor_map_address}
    scf.for %i = %c0 to %n step %c1 {
      nvvm.prefetch tensormap, %addr : !llvm.ptr
      %v = arith.index_cast %i : index to i64
      %s, %ok = gpu.shuffle xor %v, %c1_i32, %c32_i32 : i64
      %b = arith.index_cast %tid : index to i32
      func.call @sink(%s, %b) : (i64, i32) -> ()
      %bar = llvm.mlir.addressof @bar : !llvm.ptr<3>
      nvvm.mbarrier.try_wait.parity %bar, %b, %c1_i32 : !llvm.ptr<3>, i32, i32
    }
    gpu.return
  }
  func.func private @sink(i64, i32)
  llvm.mlir.global internal @bar() {addr_space = 3 : i32} : i64
}

// -----

// The all-reduce rewrite, the module's only in-dialect work: it is rooted
// on the function, which every kernel has, and here finds a gpu.all_reduce
// to expand into shuffles. Then the global-id rewrite.
// CHECK-LABEL: gpu.module @reduce
// CHECK: llvm.func @sum
// CHECK: nvvm.shfl.sync bfly
// CHECK-NOT: gpu.all_reduce
// CHECK-LABEL: gpu.module @global_id
// CHECK: nvvm.read.ptx.sreg.ctaid.x
// CHECK-NOT: gpu.global_id
gpu.module @reduce {
  gpu.func @sum(%out: memref<1024xf32>) kernel {
    %g = gpu.thread_id x
    %x = arith.index_cast %g : index to i32
    %f = arith.sitofp %x : i32 to f32
    %r = gpu.all_reduce add %f uniform {} : (f32) -> f32
    memref.store %r, %out[%g] : memref<1024xf32>
    gpu.return
  }
}

// -----

gpu.module @global_id {
  gpu.func @ids(%out: memref<1024xindex>) kernel {
    %g = gpu.global_id x
    memref.store %g, %out[%g] : memref<1024xindex>
    gpu.return
  }
}

// -----

// An operand of an op lowered to inline PTX that folds to a constant (the
// phase, (0 xor 1) and 1) becomes an immediate, as after upstream's greedy
// sweep.
// PTX: gpu.binary @fold {{.*}}mbarrier.try_wait.parity.shared.b64 P1, [%r{{[0-9]+}}], 1, 1000;
gpu.module @fold {
  gpu.func @wait() kernel {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %flipped = arith.xori %c0, %c1 : i32
    %phase = arith.andi %flipped, %c1 : i32
    %ticks = arith.constant 1000 : i32
    %bar = llvm.mlir.addressof @bar : !llvm.ptr<3>
    nvvm.mbarrier.try_wait.parity %bar, %phase, %ticks : !llvm.ptr<3>, i32, i32
    gpu.return
  }
  llvm.mlir.global internal @bar() {addr_space = 3 : i32} : i64
}

// -----

// A module whose data layout makes index 32 bits wide gets a conversion for
// that width.
// CHECK-LABEL: gpu.module @narrow
// CHECK: llvm.func @ids() -> i32
// CHECK: nvvm.read.ptx.sreg.tid.x : i32
// CHECK-NOT: llvm.sext
gpu.module @narrow attributes {dlti.dl_spec = #dlti.dl_spec<index = 32 : i32>} {
  func.func @ids() -> index {
    %tid = gpu.thread_id x
    return %tid : index
  }
}

// -----

// With cleanup (as the pipeline runs it), the pass also does the nvgpu
// conversion and the cse before and canonicalize, cse after: the same IR as
// the nine separate passes. The kernel repeats a constant (cse) and waits on
// an mbarrier of a group inside an scf.if (the nvgpu conversion runs before
// scf becomes cf).
// CLEAN-LABEL: gpu.module @barriers
// CLEAN: llvm.func @wait
// CLEAN-COUNT-1: llvm.mlir.constant(1 : index)
// CLEAN-NOT: llvm.mlir.constant(1 : index)
// CLEAN: nvvm.mbarrier.init %
// The constant parity stays an immediate ("n"): the nvgpu conversion runs in
// its own step, before the PTX builder sees the operand.
// CLEAN: llvm.inline_asm has_side_effects {{.*}}mbarrier.try_wait.parity.shared.b64 {{.*}}"r,n,r"
// CLEAN-NOT: nvgpu.
// CLEAN-NOT: unrealized_conversion_cast

!barriers = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 2>
gpu.module @barriers {
  gpu.func @wait(%pred: i1) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %one = arith.constant 1 : index
    %ticks = arith.constant 10000000 : index
    %parity = arith.constant false
    %g = nvgpu.mbarrier.create -> !barriers
    scf.if %pred {
      nvgpu.mbarrier.init %g[%c1], %one : !barriers
    }
    nvgpu.mbarrier.try_wait.parity %g[%c1], %parity, %ticks : !barriers
    gpu.return
  }
}

// -----

// An nvgpu op that takes and gives no nvgpu value (a fragment load) still
// gets the nvgpu conversion.
// CHECK-LABEL: gpu.module @ldmatrix
// CHECK: nvvm.ldmatrix
// CHECK-NOT: nvgpu.ldmatrix
// CLEAN-LABEL: gpu.module @ldmatrix
// CLEAN: nvvm.ldmatrix
// CLEAN-NOT: nvgpu.
gpu.module @ldmatrix {
  gpu.func @load_fragment(%out: memref<8xf16>)
      workgroup(%sm : memref<64x64xf16, #gpu.address_space<workgroup>>) kernel {
    %c0 = arith.constant 0 : index
    %r = nvgpu.ldmatrix %sm[%c0, %c0] {numTiles = 4 : i32, transpose = false}
        : memref<64x64xf16, #gpu.address_space<workgroup>> -> vector<4x2xf16>
    %e = vector.extract %r[0, 0] : f16 from vector<4x2xf16>
    memref.store %e, %out[%c0] : memref<8xf16>
    gpu.return
  }
}
