//===- TileTypes.td - tile dialect types -------------------*- tablegen -*-===//

#ifndef TILE_TYPES_TD
#define TILE_TYPES_TD

include "tile/Dialect/Tile/IR/TileDialect.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/BuiltinTypes.td"

def Tile_DeviceMapType : TypeDef<Tile_Dialect, "DeviceMap"> {
  let mnemonic = "device_map";
  let summary = "A tensor map a kernel holds in global memory and updates";
  let description = [{
    A CTA's own copy of the tensor map of a global buffer (the template),
    kept in device memory the runtime owns, which the kernel points at other
    tensors of the template's type with `tile.device_map_update`. The
    parameter is the template's memref type: every view the map is pointed
    at has that type's rank, element type and memory space, and the sizes
    and strides it fixes (the plan of the copies through the map was made
    for them).

    ```mlir
    !tile.device_map<memref<?x4096xbf16>>
    ```
  }];
  let parameters = (ins "::mlir::MemRefType":$template_type);
  let assemblyFormat = "`<` $template_type `>`";
}

#endif // TILE_TYPES_TD
