//===- TileTransformOps.td - Transform dialect ops of the tile dialect ----===//
//
// Operations of the transform dialect that apply the tile dialect's rewrites
// to the payload ops a schedule selects.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_TRANSFORMOPS_TILETRANSFORMOPS
#define TILE_TRANSFORMOPS_TILETRANSFORMOPS

include "mlir/Dialect/Transform/IR/TransformDialect.td"
include "mlir/Dialect/Transform/Interfaces/TransformInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def ConvertUpstreamCopyOp : Op<Transform_Dialect, "tile.convert_upstream_copy",
    [FunctionalStyleTransformOpTrait, MemoryEffectsOpInterface,
     TransformEachOpTrait, TransformOpInterface,
     ReportTrackingListenerFailuresOpTrait]> {
  let summary = "Turns the selected memref.copy / linalg.copy ops into tile.copy";
  let description = [{
    The schedule-driven form of `tile-convert-upstream-copies`: each
    targeted `memref.copy` or `linalg.copy` between a global and a workgroup
    memref, executed by every thread of a GPU kernel, becomes one CTA-wide
    `tile.copy` over the same regions (a unit-stride `memref.subview`
    becomes a region of its source), which `tile-plan-copies` then carries
    through the tensor memory accelerator where the plan allows. The result
    holds the new `tile.copy` ops, in the order of the targets.

    The transformation is definite where a target is not a copy. A copy it
    cannot convert (outside a kernel, another pair of memory spaces, a
    dynamic shape, control flow that differs between the threads, a region
    `tile.copy` rejects) is a silenceable failure whose message gives the
    `upstream-copy` rule's reason; the copy is left as it was.

    This is the counterpart of upstream's `transform.nvgpu.rewrite_copy_as_tma`
    (2-D `linalg.copy` without swizzle, one descriptor per call): any rank,
    any layout the planner accepts, `#tile.layout` shared buffers, and the
    whole pipeline's checks, hoisted cached descriptors and guards.

    ```mlir
    %copies = transform.structured.match ops{["linalg.copy"]} in %root
        : (!transform.any_op) -> !transform.any_op
    %tile_copies = transform.tile.convert_upstream_copy %copies
        : (!transform.any_op) -> !transform.any_op
    ```
  }];

  // The class lives with the tile dialect's C++, whatever dialect it joins.
  let cppNamespace = "::mlir::tile";
  let arguments = (ins TransformHandleTypeInterface:$target);
  let results = (outs TransformHandleTypeInterface:$result);
  let assemblyFormat =
      "$target attr-dict `:` functional-type(operands, results)";

  let extraClassDeclaration = [{
    ::mlir::DiagnosedSilenceableFailure applyToOne(
        ::mlir::transform::TransformRewriter &rewriter,
        ::mlir::Operation *target,
        ::mlir::transform::ApplyToEachResultList &results,
        ::mlir::transform::TransformState &state);
  }];
}

#endif // TILE_TRANSFORMOPS_TILETRANSFORMOPS
