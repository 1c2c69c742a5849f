//===- TileOps.h - tile dialect operations ----------------------*- C++ -*-===//

#ifndef TILE_DIALECT_TILE_IR_TILEOPS_H
#define TILE_DIALECT_TILE_IR_TILEOPS_H

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "tile/Dialect/Tile/IR/TileDialect.h"
#include "tile/MMA/WgmmaDescriptor.h"

namespace mlir::tile {
/// Dynamic shared memory a kernel may use on sm_90 and sm_100 (227 KiB, the
/// driver's opt-in maximum per block): arena views must end below it.
constexpr int64_t kMaxDynamicSharedBytes = 232448;

/// Threads of a warpgroup, the unit of wgmma and of a tile.pipeline's roles.
constexpr int64_t kWarpgroupThreads = 128;

/// Threads a CTA may hold.
constexpr int64_t kMaxBlockThreads = 1024;

/// The forms of cp.async.bulk.tensor only sm_100a and sm_100f have (LLVM
/// aborts in instruction selection elsewhere).
enum class Sm100Form { None, CtaGroup, Gather4, Scatter4 };

/// The TMA core's name for a copy's reduction.
::tile::tma::ReduceKind toTmaReduceKind(ReduceMode mode);

/// The chip of the first `#nvvm.target` of the gpu.module around `op`, or ""
/// when there is none (yet).
std::string getTargetChip(Operation *op);

/// True for the chips with the cta_group, tile::gather4 and tile::scatter4
/// forms of cp.async.bulk.tensor (sm_100a, sm_100f).
bool chipHasSm100Forms(StringRef chip);

/// The rules of `tile.stage`: `resType` is one stage of the shared buffer
/// `srcType` (its outermost dimension one shard, stages a swizzle repeat
/// apart) and a constant `index` lies inside it. Emits at `op`.
LogicalResult verifyStageView(Operation *op, MemRefType srcType,
                              MemRefType resType,
                              std::optional<int64_t> index = std::nullopt);

/// Whether `op` lies in a region of a `tile.pipeline` whose loads the
/// construct completes on its barriers: `produce` or `tile_loads`.
bool isPipelineLoadOp(Operation *op);

/// The cluster size the kernel around `op` states: the constant cluster
/// sizes of the innermost enclosing gpu.launch (1 x 1 x 1 without clusters)
/// or the known_cluster_size of the enclosing gpu.func; none when it states
/// none (or a size is not a constant).
std::optional<SmallVector<int64_t, 3>> getStatedClusterSize(Operation *op);

/// The block size the kernel at or around `op` states: its gpu.func's
/// known_block_size, or its gpu.launch's sizes where all three are
/// constants; none otherwise.
std::optional<SmallVector<int64_t, 3>> getStatedBlockSize(Operation *op);

/// The thread count of getStatedBlockSize: none where the kernel states no
/// size or the product overflows (an extent below 1 gives a count below 1;
/// one above CUDA's limits is tile-check-pipeline-input's to reject).
std::optional<int64_t> getStatedBlockThreads(Operation *op);
} // namespace mlir::tile

#define GET_OP_CLASSES
#include "tile/Dialect/Tile/IR/TileOps.h.inc"

namespace mlir::tile {
/// The one check of rule `sm100-form`: a copy using an sm_100a form targets
/// a chip that has it. `chip` is "" when none is known; `chipSource` names
/// where the chip comes from in the message ("the pipeline's chip").
LogicalResult verifySm100FormChip(CopyAsyncOp op, StringRef chip,
                                  StringRef chipSource);

/// Rule `device-map-copy`'s structural half, for the copy verifier: a copy
/// through a device map goes through a map its kernel made of the copy's
/// global buffer, and is not a four-row form.
LogicalResult verifyCopyThroughDeviceMap(CopyAsyncOp op);
} // namespace mlir::tile

#endif // TILE_DIALECT_TILE_IR_TILEOPS_H
