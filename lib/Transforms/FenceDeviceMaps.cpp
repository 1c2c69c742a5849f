//===- FenceDeviceMaps.cpp - --tile-fence-device-maps ---------------------===//
//
// A tile.device_map_update writes the CTA's slot through the generic proxy;
// copies through the map read it through the tensor-map proxy. After each
// update not already followed by the pair, this pass inserts
// tile.device_map_release (not after a staged update, which releases the
// map itself) then tile.device_map_acquire of the map, which is
// what the device-map-fence rule of tile-verify-async
// (AsyncProtocol/DeviceMapRules.h) asks of every path.
//
//===----------------------------------------------------------------------===//

#include "mlir/IR/Builders.h"
#include "tile/Dialect/Tile/IR/TileOps.h"
#include "tile/Transforms/Passes.h"

namespace mlir::tile {
#define GEN_PASS_DEF_TILEFENCEDEVICEMAPS
#include "tile/Transforms/Passes.h.inc"
} // namespace mlir::tile

using namespace mlir;
using namespace mlir::tile;

/// True where `update` is directly followed by a release (unless staged: its
/// copy to the slot releases the map), then an acquire, of its map.
static bool isFenced(DeviceMapUpdateOp update) {
  Value map = update.getMap();
  Operation *next = update->getNextNode();
  if (!update.isStaged()) {
    auto release = dyn_cast_or_null<DeviceMapReleaseOp>(next);
    if (!release || release.getMap() != map)
      return false;
    next = release->getNextNode();
  }
  auto acquire = dyn_cast_or_null<DeviceMapAcquireOp>(next);
  return acquire && acquire.getMap() == map;
}

namespace {
struct FenceDeviceMapsPass
    : public mlir::tile::impl::TileFenceDeviceMapsBase<FenceDeviceMapsPass> {
  using Base::Base;

  void runOnOperation() override {
    // Every update of the module: gpu.launch bodies before outlining,
    // gpu.func kernels after.
    SmallVector<DeviceMapUpdateOp> updates;
    getOperation()->walk([&](DeviceMapUpdateOp op) {
      if (!isFenced(op))
        updates.push_back(op);
    });
    for (DeviceMapUpdateOp update : updates) {
      OpBuilder b(update);
      b.setInsertionPointAfter(update);
      Value map = update.getMap();
      if (!update.isStaged())
        DeviceMapReleaseOp::create(b, update.getLoc(), map);
      DeviceMapAcquireOp::create(b, update.getLoc(), map);
    }
    if (updates.empty())
      markAllAnalysesPreserved();
  }
};
} // namespace
