//===- Passes.td - tile passes -----------------------------*- tablegen -*-===//

#ifndef TILE_TRANSFORMS_PASSES_TD
#define TILE_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def TilePlanCopies : Pass<"tile-plan-copies"> {
  let summary = "Decides how each copy is lowered, once, and records the "
                "decision on the op";
  let description = [{
    Dispatches every `tile.copy_async` and `tile.copy` over the registered
    copy variants (honouring a `dispatch` attribute) and records the outcome
    as discardable attributes of the op:
    - `tile.variant`: the selected variant (absent when none applies);
    - `tile.declined`: `[variant, reason]` of each variant tried before it;
    - what the selected variant records, for `tma` the `#tile.tma_plan`
      (`tile.tma_plan`) with the tensor map and the issue list.

    It also plans every `tile.copy_im2col` and records its
    `#tile.im2col_plan` (`tile.im2col_plan`); the im2col rules
    (`im2col-*`) are errors of this pass, not of the op verifier.

    A TMA plan assumes that a shared buffer whose alignment the IR does not
    show (not a `tile.arena_view`) starts on a 1024-byte boundary; the pass
    makes that true of the buffers declared with an alignment: a kernel's
    workgroup buffer gets `llvm.align = 1024` and a workgroup
    `memref.global` `alignment = 1024` (a larger one is kept).

    A copy whose TMA plan relies on run-time guards is also decided without
    `tma`, as the kernel's fallback version will run it, and that decision
    is recorded beside its own (`tile.fallback_variant`,
    `tile.fallback_declined`) when the fallback variant records no plan.

    This is the only pass that plans (`tile-version-kernels` decides again
    only a fallback copy whose decision is not recorded). `tile-tensor-map-abi`, the
    conversion and the plan report read the record and check first that it
    still describes the copy (through the TMA hardware model where the copy
    changed since), so a pass that changes a copy after planning without
    planning again is an error (`plan-stale`) in the next pass that reads
    it; `tile-check-recorded-plans` checks every record on its own. The op
    verifier, which runs after every pass, does not.

    ```
    tile-opt --tile-plan-copies input.mlir
    ```
  }];
}

def TileCheckRecordedPlans : Pass<"tile-check-recorded-plans"> {
  let summary = "Checks that every recorded TMA plan still describes its copy";
  let description = [{
    For every `tile.copy_async` that carries a `#tile.tma_plan`, checks the
    record against the op as the passes that read it do: the plan's shape
    against the copy, and, where the copy's planner input no longer matches
    the fingerprint recorded with the plan (`tile.plan_input`), the plan
    against the TMA hardware model; and every `#tile.im2col_plan` against
    the plan its `tile.copy_im2col` makes now. A plan that no longer
    describes its copy is an error at the copy (`plan-stale`). Changes nothing; an opt-in check
    for pipelines that rewrite copies between planning and lowering.

    ```
    tile-opt --tile-plan-copies --my-rewrite --tile-check-recorded-plans in.mlir
    ```
  }];
}

def TileVersionKernels : Pass<"tile-version-kernels", "ModuleOp"> {
  let summary = "Gives each kernel with guarded TMA plans a fallback version";
  let description = [{
    A TMA plan for a global buffer with run-time sizes, strides or offset
    relies on guards: facts about those values that the compiler could not
    prove (a row pitch that is a multiple of 16 bytes, an aligned base, ...).
    For every kernel with such a copy this pass adds a fallback version, a
    copy of the kernel named `<kernel>_fallback` in the same `gpu.module`,
    in which each guarded copy takes the fallback decision tile-plan-copies
    recorded for it (decided without the `tma` variant; its `tile.declined`
    names the reason, rule `guard`), or is decided again where none is
    recorded. The kernel records
    its fallback in `tile.fallback`.

    `tile-tensor-map-abi` then makes every launch of the kernel evaluate the
    guards on the host, from the launch's memref descriptors: when they hold
    it launches the kernel, otherwise the fallback version, so a launch never
    fails or writes wrong data because a guard did not hold. Kernels without
    guarded copies are left alone.

    ```
    tile-opt --tile-plan-copies --tile-version-kernels input.mlir
    ```
  }];
  let dependentDialects = ["::mlir::gpu::GPUDialect"];
}

def TileReportCopyPlans : Pass<"tile-report-copy-plans"> {
  let summary = "Writes the dispatch decision and TMA plan of every copy as "
                "JSON Lines";
  let description = [{
    Runs `tile-plan-copies` and writes, from the recorded decisions, one JSON
    object per `tile.copy_async` (in program order) and line:
    its location, direction, the selected variant (or null), the variants
    declined before it with their reasons, the tensor map and issue list
    when the `tma` variant is selected, and the transaction bytes.

    ```
    tile-opt --tile-report-copy-plans="output=plans.jsonl" input.mlir -o /dev/null
    ```
  }];
  let options = [
    Option<"output", "output", "std::string", /*default=*/"\"\"",
           "File to write the JSON Lines to (standard output when empty)">
  ];
}

def TileDrawCopyPlans : Pass<"tile-draw-copy-plans"> {
  let summary = "Draws where every copy's elements land, as SVG pictures";
  let description = [{
    Runs `tile-plan-copies` and writes, from the recorded decisions, one SVG
    picture per `tile.copy_async` into `output-dir`, named by its location
    (`examples/copy_async_tma.mlir:33:9` becomes
    `examples_copy_async_tma.mlir_33_9.svg`), and an `index.html` listing
    every copy with its plan report line and picture.

    A picture shows the shared buffer as its physical bytes (128-byte rows of
    16-byte chunks) with every element at the bytes it occupies after the
    swizzle, coloured by its logical chunk along the innermost dimension and
    each chunk labelled with the index of its first element; each TMA
    instruction's box outlined in its own colour with its coordinates, as the
    hardware model moves it; out-of-bounds elements hatched; beside it the
    copy's region within the global tensor; and the reasons of the variants
    declined. Dynamic offsets are drawn with every run-time value 0.

    ```
    tile-opt --tile-draw-copy-plans="output-dir=pictures" input.mlir -o /dev/null
    ```
  }];
  let options = [
    Option<"outputDir", "output-dir", "std::string", /*default=*/"\"\"",
           "Directory to write the pictures and index.html to (created when "
           "missing)">
  ];
}

def TileCheckPipelineInput : Pass<"tile-check-pipeline-input", "ModuleOp"> {
  let summary = "Rejects programs the GPU pipeline cannot lower, with a "
                "diagnostic at the op";
  let description = [{
    Runs first in `--tile-gpu-pipeline` so that unsupported input is an
    error naming the rule and the op, never an internal failure deep inside
    an upstream conversion:
    - `chip`: the target is one the lowering supports (sm_90, sm_90a,
      sm_100, sm_100a); `format`: isa, bin, fatbin or none; bin and fatbin
      need the CUDA toolkit directory to exist;
    - `placement`: tile ops only inside kernels (`gpu.launch` bodies and
      `gpu.func`), never in host code;
    - `reserved-symbol`: no user symbol takes the name of a runtime entry
      point (`mgpu*`, `tileTensorMap*`, `tileRuntime*`, `tileModule*`,
      `tileLaunch*`, `tileStream*`), which the host lowering calls;
    - `kernel-arg`: values passed from the host into a kernel are ones the
      host lowering can pass: no shared-memory buffers or mbarrier groups,
      global buffers in the default memory space with strided layouts;
    - `host-type`: host functions take and return only such values;
    - `sm100-form`: `cta_group` and the four-row forms (`rows(...)`:
      tile::gather4, tile::scatter4) only when `chip` is sm_100a.
  }];
  let options = [
    Option<"chip", "chip", "std::string", /*default=*/"\"sm_90a\"",
           "Target chip">,
    Option<"format", "format", "std::string", /*default=*/"\"isa\"",
           "gpu.binary format (isa, bin, fatbin, none)">,
    Option<"toolkit", "toolkit", "std::string",
           /*default=*/"\"/usr/local/cuda\"",
           "CUDA toolkit path (checked for bin and fatbin)">
  ];
}

def TileTensorMapABI : Pass<"tile-tensor-map-abi", "ModuleOp"> {
  let summary = "Adds tensor-map kernel arguments and hoists their encoding "
                "into the host";
  let description = [{
    For every kernel (`gpu.func`) whose `tile.copy_async` ops dispatch to the
    `tma` variant: appends one by-value 128-byte tensor-map argument per
    distinct (global buffer, plan) after the user's arguments, in first-use
    order, records each map on the kernel (`tile.tensor_maps`, one typed
    `#tile.tensor_map` per map argument), and
    tags each copy with the argument it uses. At every `gpu.launch_func` of
    such a kernel, encodes the maps on the host before the launch through the
    runtime library's cached encoder (`tileTensorMapGetCached`), hoisted out
    of enclosing loops when the buffer is defined outside them, one call per
    distinct map, and passes them to the launch.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::func::FuncDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::gpu::GPUDialect"];
}

def TileCheckHostArguments : Pass<"tile-check-host-arguments", "ModuleOp"> {
  let summary = "Checks memref arguments against their static types before "
                "any launch";
  let description = [{
    Every public host function that launches kernels (a `gpu.launch_func` in
    its body) first compares each memref argument's descriptor with its
    static type: every static size, static stride and a static offset, in
    that order. The first difference is reported through the runtime's
    `tileRuntimeCheckArgument` (status `TILE_ERROR_INVALID_VALUE`, the message
    names the function, the argument, its type, the field, the value passed
    and the value expected), and the function returns without launching.
    Functions with results are not checked. The fields are read from the
    descriptor itself, so the checks survive canonicalization.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect",
                           "::mlir::cf::ControlFlowDialect",
                           "::mlir::func::FuncDialect"];
}

def TileArenaSize : Pass<"tile-arena-size", "ModuleOp"> {
  let summary = "Records each kernel's arena size and checks its launches";
  let description = [{
    Computes the dynamic shared memory each kernel's `tile.arena_view` ops
    need (the largest `offset + span`), records it on the kernel as
    `tile.arena_bytes`, and at every `gpu.launch_func` of the kernel: sets
    `dynamic_shared_memory_size` when the launch gives none, and rejects a
    launch whose constant size is smaller than the arena.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def TileExpandPipelines : Pass<"tile-expand-pipelines"> {
  let summary = "Writes out each tile.pipeline's barriers, phases, "
                "producer, consumers and epilogue";
  let description = [{
    Replaces every `tile.pipeline` with the protocol it stands for
    (docs/pipelines.md): a full and an empty mbarrier group of S barriers,
    initialised by thread 0 (full: one arrival, the producer's; empty: one
    per consumer warpgroup with `reads = wgmma`, else one per consumer
    thread) before a block barrier; then either the warp-specialized
    producer and consumer warpgroups (`consumers >= 1`, with `setmaxnreg`
    when asked) or the software-pipelined loop (`consumers = 0`). Loads
    complete on `full[k % S]`; the producer announces their bytes with
    `tile.arrive_expect_tx`, which `tile-materialize-expect-tx` counts from
    the loads' plans. The result passes `tile-verify-async`.

    ```
    tile-opt --tile-expand-pipelines input.mlir
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::gpu::GPUDialect",
                           "::mlir::nvgpu::NVGPUDialect",
                           "::mlir::NVVM::NVVMDialect",
                           "::mlir::scf::SCFDialect"];
}

def TileConvertUpstreamCopies : Pass<"tile-convert-upstream-copies"> {
  let summary = "Turns memref.copy and linalg.copy between global and shared "
                "memory inside kernels into CTA-wide tile.copy";
  let description = [{
    Inside a kernel (a `gpu.func` kernel or a `gpu.launch` body) every thread
    executes an upstream `memref.copy` or `linalg.copy` on its own, so each
    thread copies the whole buffer. Between a global and a shared
    (`#gpu.address_space<workgroup>`) buffer this pass replaces the copy with
    `tile.copy %dst[0, ...] [shape], %src[0, ...] [shape] {scope = "cta"}`:
    the threads of the CTA share the work, and every thread sees the whole
    copy when it returns, as before. The copy is then planned and lowered
    like any other `tile.copy`. Any rank and layout the tile ops take are
    converted: strided subviews, `#tile.layout` shared buffers.

    A copy stays as it is, with an `upstream-copy` remark naming the reason,
    when both buffers are in the same memory space, when a shape is dynamic,
    when it sits under control flow that differs between the threads of a
    CTA (a CTA-wide copy needs every thread; block-dependent control is
    fine), or when the `tile.copy` would break one of that op's rules (the
    remark quotes it). Copies in host code are not touched. A transform
    schedule applies the same conversion to the copies it selects with
    `transform.tile.convert_upstream_copy` (docs/TransformOps.md).

    ```
    tile-opt --tile-convert-upstream-copies input.mlir
    ```
  }];
  let dependentDialects = ["::mlir::tile::TileDialect"];
}

def TileMaterializeExpectTx : Pass<"tile-materialize-expect-tx"> {
  let summary = "Replaces tile.arrive_expect_tx with arrive.expect_tx of the "
                "bytes its loads deliver";
  let description = [{
    Replaces every `tile.arrive_expect_tx %bars[%i]` with
    `nvgpu.mbarrier.arrive.expect_tx %bars[%i], %bytes`, where `%bytes` is
    the constant sum of the transaction bytes of the `tile.copy_async` loads
    it covers (see the op): the loads signalling the same barrier in the same
    block and phase, issue loops with constant trip counts included. Declines
    with `async-tx-bytes` where the count cannot be derived.

    ```
    tile-opt --tile-materialize-expect-tx input.mlir
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::nvgpu::NVGPUDialect"];
}

def TileExpandCollectiveCopies : Pass<"tile-expand-collective-copies"> {
  let summary = "Turns each tile.copy decided for the TMA into one thread's "
                "tile.copy_async and its completion";
  let description = [{
    After `tile-plan-copies`: a CTA-wide or warpgroup-wide `tile.copy`
    whose decision carries a tensor-map plan (the `collective_tma` variant)
    becomes a `tile.copy_async` issued by one thread of its scope (thread 0
    of the CTA, or of each warpgroup) and decided by the dispatch, with what
    keeps the copy synchronous for every thread of the scope. Before it,
    every thread fences its shared-memory accesses against the asynchronous
    proxy (`fence.proxy.async.shared::cta`) and the scope synchronises (the
    CTA's barrier, or the warpgroup's named barrier 1 + warpgroup index over
    128 threads, as the element-wise collective copy uses). A load completes
    on an mbarrier of its own per issuing group (one for a CTA-wide load; one
    per warpgroup the kernel's `known_block_size` states, or 8, for a
    warpgroup-wide one), initialised once at kernel entry, `arrive.expect_tx`
    of the plan's bytes, that every thread of the scope waits on at the phase
    a private per-thread counter tracks; a store is committed and waited for
    (`tile.bulk_wait_group 0`, its global writes done), then the scope
    synchronises.

    ```
    tile-opt --tile-plan-copies --tile-expand-collective-copies input.mlir
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::gpu::GPUDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::nvgpu::NVGPUDialect",
                           "::mlir::NVVM::NVVMDialect",
                           "::mlir::scf::SCFDialect"];
}

def TileFenceDeviceMaps : Pass<"tile-fence-device-maps"> {
  let summary = "Inserts the release and acquire fences after each device "
                "map update";
  let description = [{
    A `tile.device_map_update` writes the CTA's slot of a device map through
    the generic proxy; a copy through the map reads the slot through the
    tensor-map proxy, and sees the update only after
    `tile.device_map_release` then `tile.device_map_acquire` of the map
    (docs/async-protocol.md, rule `device-map-fence`). This pass inserts
    that pair right after every update that is not already directly
    followed by it (a release, then an acquire, of the same map), in
    `gpu.launch` bodies and `gpu.func` kernels alike. Running it again
    changes nothing. `--tile-gpu-pipeline` runs it before
    `tile-verify-async`, whatever `verify-async` says.

    ```
    tile-opt --tile-fence-device-maps input.mlir
    ```
  }];
}

def TileVerifyAsync : Pass<"tile-verify-async"> {
  let summary = "Checks the asynchronous protocol around the copies: "
                "transaction bytes, proxy fences, stage reuse, phases, device "
                "maps";
  let description = [{
    Walks every kernel (`gpu.func` kernels and `gpu.launch` bodies) through
    straight-line code, `scf.if` and `scf.for` (loops with constant bounds
    are followed iteration by iteration, so stage indices such as `i % S`
    and phases such as `(i / S) % 2` are known), and reports where it can
    decide, with the rule id and the values (docs/async-protocol.md):
    - `async-tx-bytes`: per mbarrier and phase, the bytes announced by
      `nvgpu.mbarrier.arrive.expect_tx` equal the transaction bytes of the
      `tile.copy_async` loads signalling it (issue loops included);
    - `async-proxy-fence`: shared memory written by generic stores or
      `tile.copy` is fenced (`nvvm.fence.proxy` async) on every path before
      a TMA store reads it;
    - `async-load-wait`: shared memory a TMA load writes is not read or
      rewritten before a wait on its mbarrier;
    - `async-store-reuse`: shared memory a bulk store reads is not written
      again before a `tile.bulk_wait_group` covering the store;
    - `async-phase`: a thread waits on an mbarrier with the parity of the
      next phase it has not waited for;
    - `device-map-fence`: a copy through a device map comes after an update
      of the map, then `tile.device_map_release`, then
      `tile.device_map_acquire`, on every path (loops, including `scf.while`,
      to a fixpoint);
    - `device-map-in-flight`: a device map is not updated while a store
      through it may be pending (until `tile.bulk_wait_group 0` without
      `read` covers it) or a load through it has not been waited for.
    Where it cannot decide (unknown stage index, unknown control flow,
    multicast, calls, buffers other than `tile.arena_view` and
    `tile.stage` views) it says nothing. With `insert-fences`, a missing
    proxy fence is inserted after the generic write instead (before the next
    barrier in the writer's block, or at its end) and not reported.

    ```
    tile-opt --tile-verify-async input.mlir
    ```
  }];
  let options = [
    Option<"insertFences", "insert-fences", "bool", /*default=*/"false",
           "Insert the missing fence.proxy.async instead of reporting "
           "async-proxy-fence">
  ];
  let dependentDialects = ["::mlir::NVVM::NVVMDialect"];
}

#endif // TILE_TRANSFORMS_PASSES_TD
