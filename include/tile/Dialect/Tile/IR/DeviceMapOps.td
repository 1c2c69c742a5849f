//===- DeviceMapOps.td - tensor maps held and updated on the device -------===//
//
// Included by TileOps.td (one op library for the dialect).
//
//===----------------------------------------------------------------------===//

#ifndef TILE_DEVICE_MAP_OPS_TD
#define TILE_DEVICE_MAP_OPS_TD

def Tile_DeviceMapOp : Tile_Op<"device_map", [
    TypesMatchWith<"the map's template type is the buffer's type",
                   "buffer", "map",
                   "::mlir::tile::DeviceMapType::get($_ctxt, "
                   "::llvm::cast<::mlir::MemRefType>($_self))">,
    MemoryEffects<[MemAlloc]>]> {
  let summary = "A CTA's own device-side copy of a buffer's tensor map";
  let description = [{
    Gives the CTA a slot of 128 bytes in device memory the runtime owns (one
    per CTA and device map, allocated per launch site) for the tensor map
    of `%buffer` (the template), a global buffer argument of the kernel. The host encodes
    the template's map once (hoisted and cached like every map); the kernel
    points the slot at a tensor with `tile.device_map_update` and copies
    through it with `tile.copy_async ... through(%m : ...)`. The op sits in
    the body of its kernel (`gpu.launch` or a kernel `gpu.func`), outside
    any loop or branch, so each slot has one owner.

    Two `tile.device_map` ops of one buffer are two slots: a kernel can keep
    a map per operand or double-buffer one.

    ```mlir
    %m = tile.device_map %C : memref<?x4096xbf16>
    ```
  }];
  let arguments = (ins AnyMemRef:$buffer);
  let results = (outs Tile_DeviceMapType:$map);
  let assemblyFormat = "$buffer attr-dict `:` type($buffer)";
  let hasVerifier = 1;
}

def Tile_DeviceMapUpdateOp : Tile_Op<"device_map_update", [
    MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "Points a device map at a tensor of its template's type";
  let description = [{
    Rewrites the CTA's slot of `%map`: the template's map with the global
    address of `%view` and the sizes and strides of `%view` that the
    template's type leaves to run time (`?`). The view has the template's
    rank, element type and memory space, and every size and stride the
    template's type fixes (those fixed the plan of the copies through the
    map); its offset is free. Returns false, and leaves the slot as it was,
    where the view breaks a guard of the template's plan (a run-time size or
    stride the map cannot hold) or its address is not 16-byte aligned.

    The update is a write through the generic proxy: copies (the tensor-map
    proxy) see it after `tile.device_map_release` and
    `tile.device_map_acquire`, which `tile-fence-device-maps` inserts, and
    it must not overwrite a map a copy issued earlier may still read
    (`tile-verify-async` proves both). Issue it from the thread that issues
    the copies through the map.

    ```mlir
    %ok = tile.device_map_update %m to %group_c
        : !tile.device_map<memref<?x4096xbf16>>,
          memref<?x4096xbf16, strided<[4096, 1], offset: ?>>
    ```

    **Staged in shared memory** (`staged in %stage`): the map is built in
    `%stage`, 128 contiguous bytes of shared memory on a 128-byte boundary,
    then copied to the slot by `tensormap.cp_fenceproxy`, which also
    releases it: the update is then followed by `tile.device_map_acquire`
    alone. This form is a warp's collective: every lane of one warp executes
    it, with the same view (lane 0's is used; the result is the same in every
    lane), and no enclosing branch may split the warp (rule
    `device-map-stage`, which `tile-verify-async` checks). Lane 0 writes the
    map in shared memory; the warp's `tensormap.cp_fenceproxy` copies it.
    The result is also false where `%stage` is not on a 128-byte boundary.

    ```mlir
    %ok = tile.device_map_update %m to %group_c staged in %stage
        : !tile.device_map<memref<?x4096xbf16>>,
          memref<?x4096xbf16, strided<[4096, 1], offset: ?>>,
          memref<128xi8, #gpu.address_space<workgroup>>
    ```
  }];
  let arguments = (ins Tile_DeviceMapType:$map, AnyMemRef:$view,
                   Optional<AnyMemRef>:$stage);
  let results = (outs I1:$ok);
  let assemblyFormat =
      "$map `to` $view (`staged` `in` $stage^)? attr-dict `:` "
      "qualified(type($map)) `,` type($view) (`,` type($stage)^)?";
  let extraClassDeclaration = [{
    /// Whether the map is built in shared memory and copied to its slot by
    /// the warp (the update then also releases it).
    bool isStaged() { return static_cast<bool>(getStage()); }
    /// The stage's own rules (device-map-stage): shared memory, 128
    /// contiguous bytes, a 128-byte boundary where the op can see it.
    ::mlir::LogicalResult verifyStage();
  }];
  let hasVerifier = 1;
}

def Tile_DeviceMapReleaseOp : Tile_Op<"device_map_release", [
    MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "Releases a device map's update to the tensor-map proxy";
  let description = [{
    `fence.proxy.tensormap::generic.release.gpu`: orders the thread's
    earlier generic-proxy writes of device maps (`tile.device_map_update`)
    before a later `tile.device_map_acquire` of the map.

    ```mlir
    tile.device_map_release %m : !tile.device_map<memref<?x4096xbf16>>
    ```
  }];
  let arguments = (ins Tile_DeviceMapType:$map);
  let assemblyFormat = "$map attr-dict `:` qualified(type($map))";
}

def Tile_DeviceMapAcquireOp : Tile_Op<"device_map_acquire", [
    MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "Acquires a released device map for copies through it";
  let description = [{
    `fence.proxy.tensormap::generic.acquire.gpu [slot], 128`: copies through
    `%map` issued after it read the map as released.

    ```mlir
    tile.device_map_acquire %m : !tile.device_map<memref<?x4096xbf16>>
    ```
  }];
  let arguments = (ins Tile_DeviceMapType:$map);
  let assemblyFormat = "$map attr-dict `:` qualified(type($map))";
}

#endif // TILE_DEVICE_MAP_OPS_TD
