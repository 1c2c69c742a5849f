//===- DeviceMapRules.h - Device map fences, copies in flight ---*- C++ -*-===//
//
// Part of the checks of the asynchronous protocol (docs/async-protocol.md):
// the rules of device maps (tile.device_map), which a thread updates through
// the generic proxy and copies read through the tensor-map proxy.
//
//  * device-map-fence: per device map, the state of its slot in the thread's
//    program order: unset (nothing valid yet), updated
//    (tile.device_map_update), released (tile.device_map_release after an
//    update) or acquired (tile.device_map_acquire after a release). A
//    tile.copy_async through the map needs it acquired on every path.
//    A staged update (built in shared memory and copied by
//    tensormap.cp_fenceproxy) leaves the map released.
//  * device-map-stage: a staged update, a warp's collective, sits under no
//    control that differs between the lanes of a warp (PositionDependence's
//    Position::Lane).
//  * device-map-in-flight: a map is not updated while a copy through it may
//    still read it: a store until a tile.bulk_wait_group 0 (without `read`:
//    the store reads its map until it has written global memory) covers its
//    bulk group, a load until a wait on its mbarrier (the walk's notion:
//    BarrierIdentity.h, as async-load-wait ends its pending loads).
//
// Unlike the walk of AsyncWalker.h, which unrolls loops, this one is a
// dataflow over a small lattice: scf.if joins both branches (the worse
// state), scf.for and scf.while iterate to a fixpoint (the state at the loop
// head joins the entry and the back edge), then the body is walked once more
// to report. Region ops it does not know, and regions of several blocks,
// make the maps they update, release or acquire unknown (no reports until
// the next update) and drop the pending copies where they could complete
// them.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_LIB_TRANSFORMS_ASYNCPROTOCOL_DEVICEMAPRULES_H
#define TILE_LIB_TRANSFORMS_ASYNCPROTOCOL_DEVICEMAPRULES_H

#include "mlir/IR/Region.h"

namespace mlir::tile::async_protocol {

/// Reports device-map-fence, device-map-stage and device-map-in-flight in
/// the kernel `body`,
/// naming each map by its slot number (the order of the kernel's
/// tile.device_map ops). Returns false where it reported.
bool checkDeviceMapRules(Region &body);

} // namespace mlir::tile::async_protocol

#endif // TILE_LIB_TRANSFORMS_ASYNCPROTOCOL_DEVICEMAPRULES_H
