//===- HardwareModel.h - What the TMA does, executed on memory images -*- C++
//-*-===//
//
// A byte-exact model of TMA_FACTS section 2: the box lands in shared memory in
// box order (dim 0 fastest), rows padded to the swizzle span, the swizzle
// XORs the absolute shared address, out-of-bounds load elements are filled,
// element strides drop elements, stores clip at 16-byte granularity of the
// innermost dimension, and the traps (misaligned inner coordinate, negative
// store coordinate, shared address not 128-byte aligned) are errors. The
// model checks the descriptor rules of section 1 independently of the
// planner's rule code.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_TMA_HARDWAREMODEL_H
#define TILE_TMA_HARDWAREMODEL_H

#include "tile/TMA/Plan.h"

#include <functional>

namespace tile::tma {

/// One element of a box as the TMA moves it.
struct BoxElement {
  /// Absolute shared byte address of the element (swizzle applied).
  int64_t sharedAddress = 0;
  /// Loads: read from global memory (else filled). Stores: written to global
  /// memory (in bounds, or inside the 16-byte clip zone past a row's end).
  bool touchesGlobal = false;
  /// Byte offset from the global buffer's start (base offset included).
  int64_t globalByteOffset = 0;
};

/// The row-major index of the `flat`-th element of a box of `sizes`.
std::vector<int64_t> unravelIndex(int64_t flat,
                                  const std::vector<int64_t> &sizes);

/// Checks the descriptor (section 1) and the issue's traps, then visits every
/// element of the box in box order. `sharedBufferAddress` is the absolute
/// address of the shared buffer the issue's offset is relative to.
std::optional<std::string>
walkBox(const TensorMapDesc &map, const TmaIssue &issue, Direction direction,
        const std::vector<int64_t> &symbolValues, int64_t sharedBufferAddress,
        const std::function<void(const BoxElement &)> &visit);

/// Byte-granular memory: cells[i] is the byte at address base + i. Cells are
/// opaque values (byte values for a GPU comparison, unique tags in tests).
struct MemoryImage {
  int64_t base = 0;
  std::vector<uint32_t> cells;
};

/// Cell values written for filled (out-of-bounds) load bytes, per byte of
/// the descriptor element (shorter lists repeat their last value).
struct FillCells {
  std::vector<uint32_t> zero = {0};
  std::vector<uint32_t> nan = {0xFF};
};

/// Executes one issue: loads copy global -> shared (filling out-of-bounds
/// elements), stores copy shared -> global. The global image's base is the
/// global buffer's address (usually 0), the shared image's base the shared
/// buffer's address. *transactionBytes (if given) grows by the box bytes.
std::optional<std::string>
simulateIssue(const TensorMapDesc &map, const TmaIssue &issue,
              Direction direction, const std::vector<int64_t> &symbolValues,
              MemoryImage &global, MemoryImage &shared,
              const FillCells &fill = {}, int64_t *transactionBytes = nullptr);

struct ModelOptions {
  /// Largest image (cells) the check allocates, and largest region (bytes)
  /// it moves; bigger copies are errors (whyTooLargeToModel).
  int64_t maxImageCells = int64_t(1) << 24;
  /// A store's global region may leave the tensor, and the elements outside
  /// it are not written (a run-time-sized tensor's edge tiles; the TMA clips
  /// them). Otherwise such a store is undefined.
  bool storesClip = false;
};

/// The bytes the plan's issues complete on the barrier, each one box of its
/// map (rows past the element strides dropped, out-of-bounds elements
/// counted), INT64_MAX where that overflows; nullopt where the map's rank,
/// element size, box or element strides break the descriptor rules (its
/// global dims and strides are not read: run-time ones are 0). Tiled maps
/// only.
std::optional<int64_t> planTransferBytes(const TmaPlan &plan);

/// Why the model does not simulate this copy: its buffer images or its
/// region exceed options.maxImageCells bytes (the model's work is linear in
/// them). nullopt where it does; verifyPlan reports these as "model: ...".
std::optional<std::string> whyTooLargeToModel(const CopyRequest &request,
                                              const ModelOptions &options = {});

/// Why the copy has no defined result for these symbol values, or nullopt.
/// Dynamic offsets are the caller's promise: the shared region stays inside
/// its buffer, and a store's global region inside the tensor (loads may leave
/// it; the hardware fills). Values that break the promise say nothing about a
/// plan, so verifyPlan reports them as "model: undefined: ..." instead of
/// running the issues.
std::optional<std::string>
whyUndefined(const CopyRequest &request,
             const std::vector<int64_t> &symbolValues, bool storesClip = false);

/// Executes every issue of `plan` on images of the request's buffers (global
/// filled with distinct tags, shared with a sentinel for loads, the shared
/// buffer at an address with exactly the request's assumed alignment) and
/// checks that the copy moved exactly the region's elements to where the
/// layouts say, wrote nothing else, filled out-of-bounds load elements, and
/// completes plan.bytes transaction bytes. nullopt means correct.
std::optional<std::string> verifyPlan(const CopyRequest &request,
                                      const TmaPlan &plan,
                                      const std::vector<int64_t> &symbolValues,
                                      const ModelOptions &options = {});

} // namespace tile::tma

#endif // TILE_TMA_HARDWAREMODEL_H
