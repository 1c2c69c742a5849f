//===- RelaxedAllocation.h - cuMemAlloc that a stream capture allows -*- C++
//-*-===//
//
// Arrays the runtime owns for the process's lifetime (device-map arrays,
// schedule tables) are allocated on a launch's first use, which may come
// while a stream is being captured into a CUDA graph. cuMemAlloc is not
// permitted then in global capture mode, so the allocation runs in relaxed
// mode on the calling thread, the thread's mode restored afterwards.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_LIB_RUNTIME_RELAXEDALLOCATION_H
#define TILE_LIB_RUNTIME_RELAXEDALLOCATION_H

#include "DriverApi.h"

#include <cstdint>

namespace tile::runtime {

/// cuMemAlloc of `bytes` (`requested` is what the caller asked for; the
/// message names `bytes` where they differ) in relaxed capture mode, the
/// thread's mode restored afterwards; records failures after `where`'s text.
/// *array is the new array, or 0 when none was allocated; the status is not
/// TILE_SUCCESS when anything failed (a failed restore leaves an allocated
/// array in *array).
int32_t allocateRelaxed(const DriverApi *api, const char *where,
                        uint64_t requested, uint64_t bytes,
                        cu::DevicePtr *array);

} // namespace tile::runtime

#endif // TILE_LIB_RUNTIME_RELAXEDALLOCATION_H
