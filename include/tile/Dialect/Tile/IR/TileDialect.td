//===- TileDialect.td - The tile dialect -------------------*- tablegen -*-===//

#ifndef TILE_DIALECT_TD
#define TILE_DIALECT_TD

include "mlir/IR/OpBase.td"

def Tile_Dialect : Dialect {
  let name = "tile";
  let cppNamespace = "::mlir::tile";
  let summary = "Layout-annotated tile copies lowered to the Tensor Memory "
                "Accelerator";
  let description = [{
    The `tile` dialect describes copies between global and shared GPU memory
    whose buffers carry an explicit shard layout (`#tile.layout`). The
    `tile.copy_async` op is lowered to Hopper's Tensor Memory Accelerator
    (`cp.async.bulk.tensor`) when a legal tensor-map descriptor exists, and to
    per-thread loads and stores otherwise. Shared buffers with a
    `#tile.layout` are carved out of dynamic shared memory by
    `tile.arena_view`; `tile.stage` selects one stage of a multi-stage buffer.
  }];
  // The attributes passes leave on ops for later passes: the recorded copy
  // decision (tile-plan-copies), the kernel ABI of tensor maps
  // (tile-tensor-map-abi, convert-tile-to-nvvm, tile-finalize-kernel-abi)
  // and the arena size (tile-arena-size). Their C++ names are in
  // DiscardableAttrs.h.
  let discardableAttrs = (ins
    // Copies: the selected variant (absent when none applies).
    "::mlir::StringAttr":$variant,
    // Copies: [[variant, reason], ...] declined before the selection.
    "::mlir::ArrayAttr":$declined,
    // tile.copy_async: the #tile.tma_plan of a variant that needs a map.
    "::mlir::Attribute":$tma_plan,
    // Copies whose plan has guards: the decision of the kernel's fallback
    // version (variant, and [[variant, reason], ...] declined before it).
    "::mlir::StringAttr":$fallback_variant,
    "::mlir::ArrayAttr":$fallback_declined,
    // tile.copy_im2col: its #tile.im2col_plan.
    "::mlir::Attribute":$im2col_plan,
    // tile.wgmma_descriptor: its #tile.wgmma_plan.
    "::mlir::Attribute":$wgmma_plan,
    // tile.copy_async: fingerprint (i64) of the request the plan is for.
    "::mlir::IntegerAttr":$plan_input,
    // TMA copies in kernels: the kernel argument holding the tensor map.
    "::mlir::IntegerAttr":$tensor_map_arg,
    // Kernels: the maps their launches encode, one per map argument.
    "::mlir::ArrayAttr":$tensor_maps,
    // Kernels: the fallback version a launch runs when a guard of one of
    // the kernel's TMA plans fails at run time.
    "::mlir::FlatSymbolRefAttr":$fallback,
    // Host: the #tile.tensor_map an encode call produces (the record of the
    // first launch that needs it).
    "::mlir::Attribute":$tensor_map,
    // Kernels: the cast that takes a map argument's address.
    "::mlir::UnitAttr":$tensor_map_address,
    // Kernels: the dynamic shared memory their arena views need.
    "::mlir::IntegerAttr":$arena_bytes,
    // tile.device_map in kernels: the map's slot among the CTA's slots.
    "::mlir::IntegerAttr":$device_map_slot,
    // Kernels with device maps: the argument holding the slot array and
    // the number of slots per CTA.
    "::mlir::IntegerAttr":$device_map_array_arg,
    "::mlir::IntegerAttr":$device_map_slots
  );
  let useDefaultAttributePrinterParser = 1;
  let useDefaultTypePrinterParser = 1;
  let hasOperationAttrVerify = 1;
  // Folded index results (tile.grouped_tile) become arith constants.
  let hasConstantMaterializer = 1;
  let extraClassDeclaration = [{
    void registerAttributes();
    void registerTypes();
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::gpu::GPUDialect",
                           "::mlir::nvgpu::NVGPUDialect"];
}

class Tile_Op<string mnemonic, list<Trait> traits = []>
    : Op<Tile_Dialect, mnemonic, traits>;

#endif // TILE_DIALECT_TD
