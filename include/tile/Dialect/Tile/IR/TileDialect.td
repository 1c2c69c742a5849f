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
  let useDefaultAttributePrinterParser = 1;
  let hasOperationAttrVerify = 1;
  let extraClassDeclaration = [{
    void registerAttributes();
  }];
  let dependentDialects = ["::mlir::gpu::GPUDialect",
                           "::mlir::nvgpu::NVGPUDialect"];
}

class Tile_Op<string mnemonic, list<Trait> traits = []>
    : Op<Tile_Dialect, mnemonic, traits>;

#endif // TILE_DIALECT_TD
