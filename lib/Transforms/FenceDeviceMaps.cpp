//===- FenceDeviceMaps.cpp - --tile-fence-device-maps ---------------------===//
//
// A tile.device_map_update writes the CTA's slot through the generic proxy;
// copies through the map read it through the tensor-map proxy. After each
// update not already followed by the pair, this pass inserts
// tile.device_map_release then tile.device_map_acquire of the map, which is
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

/// True where `update` is directly followed by a release, then an acquire,
/// of its map.
static bool isFenced(DeviceMapUpdateOp update) {
  Value map = update.getMap();
  auto release = dyn_cast_or_null<DeviceMapReleaseOp>(update->getNextNode());
  if (!release || release.getMap() != map)
    return false;
  auto acquire = dyn_cast_or_null<DeviceMapAcquireOp>(release->getNextNode());
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
      auto release = DeviceMapReleaseOp::create(b, update.getLoc(), map);
      b.setInsertionPointAfter(release);
      DeviceMapAcquireOp::create(b, update.getLoc(), map);
    }
    if (updates.empty())
      markAllAnalysesPreserved();
  }
};
} // namespace
