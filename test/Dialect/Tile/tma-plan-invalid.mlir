// RUN: tile-opt %s -split-input-file --tile-check-recorded-plans -verify-diagnostics

// The recorded decision is checked wherever it is read (here by
// tile-check-recorded-plans, which checks every record as the reading passes
// do), also in IR written by hand: a plan must describe the copy it is
// attached to. Malformed records are errors of the verifier itself.

!bars = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 1>
!tile = memref<64x64xf16, #tile.layout<(64, 64), swizzle = 128B>, #gpu.address_space<workgroup>>

gpu.module @kernels {
  gpu.func @rows_0_to_64_recorded_for_64_to_128(%g: memref<256x64xf16>) kernel {
    %c0 = arith.constant 0 : index
    %bar = nvgpu.mbarrier.create -> !bars
    %a = tile.arena_view [0] : !tile
    // expected-error @+1 {{'tile.copy_async' op plan-stale: the recorded TMA plan no longer describes this copy (re-run tile-plan-copies after changing copies): the hardware model finds shared byte at 1024 holds global byte 0, expected global byte 8192}}
    tile.copy_async %a[0, 0] [64, 64], %g[64, 0] [64, 64] barrier(%bar[%c0])
        {tile.tma_plan = #tile.tma_plan<"f16", dim = [64, 256], strides = [128], box = [64, 64], element_strides = [1, 1], swizzle = "128B", interleave = 0, l2_promotion = 2, oob = "zero", base = 0, element_bytes = 2, promoted = false, issues = [{smem = 0, coords = [0, 0]}], bytes = 8192>, tile.variant = "tma"}
        : !tile, memref<256x64xf16>, !bars
    gpu.return
  }
}

// -----

!bars = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 1>
!tile = memref<64x64xf16, #tile.layout<(64, 64), swizzle = 128B>, #gpu.address_space<workgroup>>

gpu.module @kernels {
  gpu.func @issue_rank(%g: memref<256x64xf16>) kernel {
    %c0 = arith.constant 0 : index
    %bar = nvgpu.mbarrier.create -> !bars
    %a = tile.arena_view [0] : !tile
    // expected-error @+1 {{'tile.copy_async' op plan-stale: the recorded TMA plan no longer describes this copy (re-run tile-plan-copies after changing copies): an issue has 3 coordinates for a rank-2 map}}
    tile.copy_async %a[0, 0] [64, 64], %g[0, 0] [64, 64] barrier(%bar[%c0])
        {tile.tma_plan = #tile.tma_plan<"f16", dim = [64, 256], strides = [128], box = [64, 64], element_strides = [1, 1], swizzle = "128B", interleave = 0, l2_promotion = 2, oob = "zero", base = 0, element_bytes = 2, promoted = false, issues = [{smem = 0, coords = [0, 0, 0]}], bytes = 8192>}
        : !tile, memref<256x64xf16>, !bars
    gpu.return
  }
}

// -----

!bars = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 1>
!tile = memref<64x64xf16, #tile.layout<(64, 64), swizzle = 128B>, #gpu.address_space<workgroup>>

gpu.module @kernels {
  gpu.func @unknown_symbol(%g: memref<256x64xf16>, %k: index) kernel {
    %c0 = arith.constant 0 : index
    %bar = nvgpu.mbarrier.create -> !bars
    %a = tile.arena_view [0] : !tile
    // expected-error @+1 {{'tile.copy_async' op plan-stale: the recorded TMA plan no longer describes this copy (re-run tile-plan-copies after changing copies): it uses symbol s1 but the copy has 1 dynamic offset(s)}}
    tile.copy_async %a[0, 0] [64, 64], %g[%k, 0] [64, 64] barrier(%bar[%c0])
        {tile.tma_plan = #tile.tma_plan<"f16", dim = [64, 256], strides = [128], box = [64, 64], element_strides = [1, 1], swizzle = "128B", interleave = 0, l2_promotion = 2, oob = "zero", base = 0, element_bytes = 2, promoted = false, issues = [{smem = 0, coords = [0, s1]}], bytes = 8192>}
        : !tile, memref<256x64xf16>, !bars
    gpu.return
  }
}

// -----

!bars = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 1>
!tile = memref<64x64xf16, #tile.layout<(64, 64), swizzle = 128B>, #gpu.address_space<workgroup>>

gpu.module @kernels {
  gpu.func @bytes(%g: memref<256x64xf16>) kernel {
    %c0 = arith.constant 0 : index
    %bar = nvgpu.mbarrier.create -> !bars
    %a = tile.arena_view [0] : !tile
    // expected-error @+1 {{'tile.copy_async' op plan-stale: the recorded TMA plan no longer describes this copy (re-run tile-plan-copies after changing copies): it moves 4096 bytes, the copy 8192}}
    tile.copy_async %a[0, 0] [64, 64], %g[0, 0] [64, 64] barrier(%bar[%c0])
        {tile.tma_plan = #tile.tma_plan<"f16", dim = [64, 256], strides = [128], box = [64, 32], element_strides = [1, 1], swizzle = "128B", interleave = 0, l2_promotion = 2, oob = "zero", base = 0, element_bytes = 2, promoted = false, issues = [{smem = 0, coords = [0, 0]}], bytes = 4096>}
        : !tile, memref<256x64xf16>, !bars
    gpu.return
  }
}

// -----

!bars = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 1>
!tile = memref<64x64xf16, #tile.layout<(64, 64), swizzle = 128B>, #gpu.address_space<workgroup>>

gpu.module @kernels {
  gpu.func @map_fields(%g: memref<256x64xf16>) kernel {
    %c0 = arith.constant 0 : index
    %bar = nvgpu.mbarrier.create -> !bars
    %a = tile.arena_view [0] : !tile
    // expected-error @+1 {{'tile.copy_async' op plan-stale: the recorded TMA plan no longer describes this copy (re-run tile-plan-copies after changing copies): its tensor map has rank 2 but 2 dims, 1 box dims, 2 element strides and 1 strides}}
    tile.copy_async %a[0, 0] [64, 64], %g[0, 0] [64, 64] barrier(%bar[%c0])
        {tile.tma_plan = #tile.tma_plan<"f16", dim = [64, 256], strides = [128], box = [64], element_strides = [1, 1], swizzle = "128B", interleave = 0, l2_promotion = 2, oob = "zero", base = 0, element_bytes = 2, promoted = false, issues = [{smem = 0, coords = [0, 0]}], bytes = 8192>}
        : !tile, memref<256x64xf16>, !bars
    gpu.return
  }
}

// -----

!bars = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 1>
!tile = memref<64x64xf16, #tile.layout<(64, 64), swizzle = 128B>, #gpu.address_space<workgroup>>

gpu.module @kernels {
  gpu.func @variant_not_a_string(%g: memref<256x64xf16>) kernel {
    %c0 = arith.constant 0 : index
    %bar = nvgpu.mbarrier.create -> !bars
    %a = tile.arena_view [0] : !tile
    // expected-error @+1 {{'tile.copy_async' op plan-stale: 'tile.variant' must be a string on a tile copy}}
    tile.copy_async %a[0, 0] [64, 64], %g[0, 0] [64, 64] barrier(%bar[%c0])
        {tile.variant = 3 : i64} : !tile, memref<256x64xf16>, !bars
    gpu.return
  }
}

// -----

!bars = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 1>
!tile = memref<64x64xf16, #tile.layout<(64, 64), swizzle = 128B>, #gpu.address_space<workgroup>>

gpu.module @kernels {
  gpu.func @declined_not_pairs(%g: memref<256x64xf16>) kernel {
    %c0 = arith.constant 0 : index
    %bar = nvgpu.mbarrier.create -> !bars
    %a = tile.arena_view [0] : !tile
    // expected-error @+1 {{'tile.copy_async' op plan-stale: 'tile.declined' must be a list of [variant, reason] pairs}}
    tile.copy_async %a[0, 0] [64, 64], %g[0, 0] [64, 64] barrier(%bar[%c0])
        {tile.declined = ["tma"]} : !tile, memref<256x64xf16>, !bars
    gpu.return
  }
}

// -----

!bars = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 1>
!tile = memref<64x64xf16, #tile.layout<(64, 64), swizzle = 128B>, #gpu.address_space<workgroup>>

gpu.module @kernels {
  gpu.func @plan_on_another_op(%g: memref<256x64xf16>) kernel {
    %c0 = arith.constant 0 : index
    %bar = nvgpu.mbarrier.create -> !bars
    %a = tile.arena_view [0] : !tile
    // expected-error @+1 {{'arith.constant' op plan-stale: 'tile.tma_plan' must be a #tile.tma_plan on a tile copy}}
    %c1 = arith.constant {tile.tma_plan = 1 : i64} 1 : index
    gpu.return
  }
}

// -----

// expected-error @+1 {{unknown tensor-map data type 'f8'}}
#p0 = #tile.tma_plan<"f8", dim = [64], strides = [], box = [64], element_strides = [1], swizzle = "none", interleave = 0, l2_promotion = 2, oob = "zero", base = 0, element_bytes = 1, promoted = false, issues = [], bytes = 64>

// -----

// expected-error @+1 {{unknown swizzle '16B'}}
#p1 = #tile.tma_plan<"u8", dim = [64], strides = [], box = [64], element_strides = [1], swizzle = "16B", interleave = 0, l2_promotion = 2, oob = "zero", base = 0, element_bytes = 1, promoted = false, issues = [], bytes = 64>

// -----

// expected-error @+1 {{oob is "zero" or "nan", not 'one'}}
#p2 = #tile.tma_plan<"u8", dim = [64], strides = [], box = [64], element_strides = [1], swizzle = "none", interleave = 0, l2_promotion = 2, oob = "one", base = 0, element_bytes = 1, promoted = false, issues = [], bytes = 64>

// -----

// expected-error @+1 {{expected a symbol s0..s64}}
#p3 = #tile.tma_plan<"u8", dim = [64], strides = [], box = [64], element_strides = [1], swizzle = "none", interleave = 0, l2_promotion = 2, oob = "zero", base = 0, element_bytes = 1, promoted = false, issues = [{smem = 2*x, coords = [0]}], bytes = 64>

// -----

// expected-error @+1 {{value out of range}}
#p4 = #tile.tma_plan<"u8", dim = [-1], strides = [], box = [64], element_strides = [1], swizzle = "none", interleave = 0, l2_promotion = 2, oob = "zero", base = 0, element_bytes = 1, promoted = false, issues = [], bytes = 64>

// -----

// expected-error @+1 {{scale and divisor must be positive}}
#p5 = #tile.tma_plan<"u8", dim = [size(0)/0], strides = [], box = [64], element_strides = [1], swizzle = "none", interleave = 0, l2_promotion = 2, oob = "zero", base = 0, element_bytes = 1, promoted = false, issues = [], bytes = 64>

// -----

// expected-error @+1 {{memref dimension out of range}}
#p6 = #tile.tma_plan<"u8", dim = [size(99)], strides = [], box = [64], element_strides = [1], swizzle = "none", interleave = 0, l2_promotion = 2, oob = "zero", base = 0, element_bytes = 1, promoted = false, issues = [], bytes = 64>

// -----

!bars = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 1>
!tile = memref<64x64xf16, #tile.layout<(64, 64), swizzle = 128B>, #gpu.address_space<workgroup>>

// A run-time plan is checked at small run-time values its guards allow: here
// the row stride is recorded in elements instead of bytes.
gpu.module @kernels {
  gpu.func @stride_in_elements(%g: memref<?x?xf16>) kernel {
    %c0 = arith.constant 0 : index
    %bar = nvgpu.mbarrier.create -> !bars
    %a = tile.arena_view [0] : !tile
    // expected-error @+1 {{'tile.copy_async' op plan-stale: the recorded TMA plan no longer describes this copy (re-run tile-plan-copies after changing copies): the hardware model finds}}
    tile.copy_async %a[0, 0] [64, 64], %g[0, 0] [64, 64] barrier(%bar[%c0])
        {tile.tma_plan = #tile.tma_plan<"f16", dim = [size(1), size(0)], strides = [stride(0)*1], box = [64, 64], element_strides = [1, 1], swizzle = "128B", interleave = 0, l2_promotion = 2, oob = "zero", base = 0, element_bytes = 2, promoted = false, issues = [{smem = 0, coords = [0, 0]}], bytes = 8192>, tile.variant = "tma"}
        : !tile, memref<?x?xf16>, !bars
    gpu.return
  }
}

// -----

!bars = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 1>
!tile = memref<64x64xf16, #tile.layout<(64, 64), swizzle = 128B>, #gpu.address_space<workgroup>>

gpu.module @kernels {
  gpu.func @field_past_rank(%g: memref<?x?xf16>) kernel {
    %c0 = arith.constant 0 : index
    %bar = nvgpu.mbarrier.create -> !bars
    %a = tile.arena_view [0] : !tile
    // expected-error @+1 {{'tile.copy_async' op plan-stale: the recorded TMA plan no longer describes this copy (re-run tile-plan-copies after changing copies): a run-time field reads size[5] of a rank-2 buffer}}
    tile.copy_async %a[0, 0] [64, 64], %g[0, 0] [64, 64] barrier(%bar[%c0])
        {tile.tma_plan = #tile.tma_plan<"f16", dim = [size(5), size(0)], strides = [stride(0)*2], box = [64, 64], element_strides = [1, 1], swizzle = "128B", interleave = 0, l2_promotion = 2, oob = "zero", base = 0, element_bytes = 2, promoted = false, issues = [{smem = 0, coords = [0, 0]}], bytes = 8192>, tile.variant = "tma"}
        : !tile, memref<?x?xf16>, !bars
    gpu.return
  }
}

// -----

!bars = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 1>
!tile = memref<64x64xf16, #tile.layout<(64, 64), swizzle = 128B>, #gpu.address_space<workgroup>>

gpu.module @kernels {
  gpu.func @runtime_field_on_static_type(%g: memref<64x64xf16>) kernel {
    %c0 = arith.constant 0 : index
    %bar = nvgpu.mbarrier.create -> !bars
    %a = tile.arena_view [0] : !tile
    // expected-error @+1 {{'tile.copy_async' op plan-stale: the recorded TMA plan no longer describes this copy (re-run tile-plan-copies after changing copies): it reads sizes or strides at run time, but the global buffer's type is static}}
    tile.copy_async %a[0, 0] [64, 64], %g[0, 0] [64, 64] barrier(%bar[%c0])
        {tile.tma_plan = #tile.tma_plan<"f16", dim = [size(1), 64], strides = [128], box = [64, 64], element_strides = [1, 1], swizzle = "128B", interleave = 0, l2_promotion = 2, oob = "zero", base = 0, element_bytes = 2, promoted = false, issues = [{smem = 0, coords = [0, 0]}], bytes = 8192>, tile.variant = "tma"}
        : !tile, memref<64x64xf16>, !bars
    gpu.return
  }
}

// -----

// Offsets are bounded like the ops' (2^52), so their sums cannot overflow.
// expected-error @+1 {{value out of range (|value| <= 2^52)}}
#p7 = #tile.tma_plan<"u8", dim = [64], strides = [], box = [64], element_strides = [1], swizzle = "none", interleave = 0, l2_promotion = 2, oob = "zero", base = 0, element_bytes = 1, promoted = false, issues = [{smem = 64*s0 - -9223372036854775808 + s1, coords = [0]}], bytes = 64>

// -----

// expected-error @+1 {{element_bytes is 1, 2, 4, 8 or 16, not 9223372036854775800}}
#p8 = #tile.tma_plan<"u8", dim = [64], strides = [], box = [64], element_strides = [1], swizzle = "none", interleave = 0, l2_promotion = 2, oob = "zero", base = 0, element_bytes = 9223372036854775800, promoted = false, issues = [], bytes = 64>

// -----

// A box of 256^4 rows for an 8 KiB copy: found from the box alone, before
// the hardware model (which would walk the box) runs.
!bars = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 1>
!tile = memref<1x1x1x64x64xf16, #tile.layout<(1, 1, 1, 64, 64), swizzle = 128B>, #gpu.address_space<workgroup>>

gpu.module @kernels {
  gpu.func @box_of_256_to_the_fourth_rows(%g: memref<256x256x256x256x64xf16>) kernel {
    %c0 = arith.constant 0 : index
    %bar = nvgpu.mbarrier.create -> !bars
    %a = tile.arena_view [0] : !tile
    // expected-error @+1 {{'tile.copy_async' op plan-stale: the recorded TMA plan no longer describes this copy (re-run tile-plan-copies after changing copies): its 1 issue(s) move 549755813888 bytes, it says 8192}}
    tile.copy_async %a[0, 0, 0, 0, 0] [1, 1, 1, 64, 64], %g[0, 0, 0, 0, 0] [1, 1, 1, 64, 64] barrier(%bar[%c0])
        {tile.tma_plan = #tile.tma_plan<"f16", dim = [64, 256, 256, 256, 256], strides = [128, 32768, 8388608, 2147483648], box = [64, 256, 256, 256, 256], element_strides = [1, 1, 1, 1, 1], swizzle = "128B", interleave = 0, l2_promotion = 2, oob = "zero", base = 0, element_bytes = 2, promoted = false, issues = [{smem = 0, coords = [0, 0, 0, 0, 0]}], bytes = 8192>}
        : !tile, memref<256x256x256x256x64xf16>, !bars
    gpu.return
  }
}

// -----

// The same for a buffer with run-time sizes (its map's run-time dims are 0).
!bars = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 1>
!tile = memref<64x64xf16, #tile.layout<(64, 64), swizzle = 128B>, #gpu.address_space<workgroup>>

gpu.module @kernels {
  gpu.func @run_time_sized_box_of_256_rows(%g: memref<?x?xf16>) kernel {
    %c0 = arith.constant 0 : index
    %bar = nvgpu.mbarrier.create -> !bars
    %a = tile.arena_view [0] : !tile
    // expected-error @+1 {{'tile.copy_async' op plan-stale: the recorded TMA plan no longer describes this copy (re-run tile-plan-copies after changing copies): its 1 issue(s) move 32768 bytes, it says 8192}}
    tile.copy_async %a[0, 0] [64, 64], %g[0, 0] [64, 64] barrier(%bar[%c0])
        {tile.tma_plan = #tile.tma_plan<"f16", dim = [size(1), size(0)], strides = [stride(0)*2], box = [64, 256], element_strides = [1, 1], swizzle = "128B", interleave = 0, l2_promotion = 2, oob = "zero", base = 0, element_bytes = 2, promoted = false, issues = [{smem = 0, coords = [0, 0]}], bytes = 8192>}
        : !tile, memref<?x?xf16>, !bars
    gpu.return
  }
}
