// A transform schedule: every linalg.copy and memref.copy of the payload
// becomes a tile.copy (transform.tile.convert_upstream_copy), which the tile
// pipeline then plans and carries through the TMA. Used with
//   tile-opt --transform-preload-library=transform-library-paths=THIS_FILE
//            --transform-interpreter PAYLOAD
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %copies = transform.structured.match ops{["linalg.copy", "memref.copy"]} in %root
        : (!transform.any_op) -> !transform.any_op
    %tile_copies = transform.tile.convert_upstream_copy %copies
        : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
