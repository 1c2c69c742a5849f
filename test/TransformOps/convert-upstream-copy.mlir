// RUN: tile-opt %s -split-input-file -verify-diagnostics --transform-interpreter | FileCheck %s

// transform.tile.convert_upstream_copy turns each selected upstream copy into
// one CTA-wide tile.copy over the same regions (a unit-stride subview becomes
// a region of its source) and returns the new ops, in the targets' order: the
// schedule below tags them, so the CHECK lines see which op each handle holds.

// CHECK-LABEL: gpu.func @converted
// CHECK-SAME: (%[[A:.*]]: memref<64x256xf16>, %[[S:.*]]: memref<8x256xf16, #gpu.address_space<workgroup>>, %[[ROW:.*]]: index)
// CHECK: tile.copy %[[S]][0, 0] [8, 256], %[[A]][%[[ROW]], 0] [8, 256] {converted, scope = "cta"}
// CHECK: tile.copy %[[A]][0, 0] [8, 256], %[[S]][0, 0] [8, 256] {converted, scope = "cta"}
// CHECK-NOT: memref.copy %
// CHECK-NOT: linalg.copy ins
// CHECK: gpu.return
!smem = memref<8x256xf16, #gpu.address_space<workgroup>>
module attributes {transform.with_named_sequence} {
  gpu.module @kernels {
    gpu.func @converted(%A: memref<64x256xf16>, %S: !smem, %row: index) kernel {
      %v = memref.subview %A[%row, 0] [8, 256] [1, 1]
          : memref<64x256xf16> to memref<8x256xf16, strided<[256, 1], offset: ?>>
      linalg.copy ins(%v : memref<8x256xf16, strided<[256, 1], offset: ?>>) outs(%S : !smem)
      %w = memref.subview %A[0, 0] [8, 256] [1, 1]
          : memref<64x256xf16> to memref<8x256xf16, strided<[256, 1]>>
      memref.copy %S, %w : !smem to memref<8x256xf16, strided<[256, 1]>>
      gpu.return
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %copies = transform.structured.match ops{["linalg.copy", "memref.copy"]} in %root
        : (!transform.any_op) -> !transform.any_op
    %tile = transform.tile.convert_upstream_copy %copies
        : (!transform.any_op) -> !transform.any_op
    transform.annotate %tile "converted" : !transform.any_op
    transform.yield
  }
}

// -----

// A copy between two shared buffers: a silenceable failure naming the rule
// and the memory spaces; the copy stays.
!smem = memref<8x256xf16, #gpu.address_space<workgroup>>
module attributes {transform.with_named_sequence} {
  gpu.module @kernels {
    gpu.func @shared_to_shared(%S: !smem, %T: !smem) kernel {
      // expected-note @below {{the copy}}
      memref.copy %S, %T : !smem to !smem
      gpu.return
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %copies = transform.structured.match ops{["memref.copy"]} in %root
        : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{upstream-copy: memref.copy stays per-thread: it copies shared to shared memory; only copies between global and shared memory become tile.copy}}
    %tile = transform.tile.convert_upstream_copy %copies
        : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// Under control flow that differs between a CTA's threads.
!smem = memref<8x256xf16, #gpu.address_space<workgroup>>
module attributes {transform.with_named_sequence} {
  gpu.module @kernels {
    gpu.func @divergent(%A: memref<8x256xf16>, %S: !smem) kernel {
      %c0 = arith.constant 0 : index
      %tx = gpu.thread_id x
      %first = arith.cmpi eq, %tx, %c0 : index
      scf.if %first {
        // expected-note @below {{the copy}}
        memref.copy %A, %S : memref<8x256xf16> to !smem
      }
      gpu.return
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %copies = transform.structured.match ops{["memref.copy"]} in %root
        : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{upstream-copy: memref.copy stays per-thread: it sits under control flow that differs between the threads of a CTA (scf.if), and a CTA-wide tile.copy needs every thread}}
    %tile = transform.tile.convert_upstream_copy %copies
        : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// Outside a kernel: host code has no threads to share the copy.
!smem = memref<8x256xf16, #gpu.address_space<workgroup>>
module attributes {transform.with_named_sequence} {
  func.func @host(%A: memref<8x256xf16>, %S: !smem) {
    // expected-note @below {{the copy}}
    memref.copy %A, %S : memref<8x256xf16> to !smem
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %copies = transform.structured.match ops{["memref.copy"]} in %root
        : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{upstream-copy: memref.copy stays per-thread: it is not inside a GPU kernel (a gpu.launch body or a kernel gpu.func), so no threads share it}}
    %tile = transform.tile.convert_upstream_copy %copies
        : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// A pair tile.copy itself rejects: the message quotes its rule.
!smem = memref<8x256xi1, #gpu.address_space<workgroup>>
module attributes {transform.with_named_sequence} {
  gpu.module @kernels {
    gpu.func @bits(%A: memref<8x256xi1>, %S: !smem) kernel {
      // expected-note @below {{the copy}}
      memref.copy %A, %S : memref<8x256xi1> to !smem
      gpu.return
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %copies = transform.structured.match ops{["memref.copy"]} in %root
        : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{upstream-copy: memref.copy stays per-thread: tile.copy would break its rule: 'tile.copy' op element-type: destination element type 'i1' is 1 bits wide}}
    %tile = transform.tile.convert_upstream_copy %copies
        : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// A target that is not a copy at all is a definite failure.
module attributes {transform.with_named_sequence} {
  gpu.module @kernels {
    gpu.func @not_a_copy() kernel {
      gpu.return
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %ret = transform.structured.match ops{["gpu.return"]} in %root
        : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{expected a memref.copy or a linalg.copy of buffers, got gpu.return}}
    %tile = transform.tile.convert_upstream_copy %ret
        : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
