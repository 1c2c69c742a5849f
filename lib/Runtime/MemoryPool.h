//===- MemoryPool.h - The runtime's stream-ordered memory pools -*- C++ -*-===//
//
// Stream-ordered allocations (tileRuntimeMemAllocAsync) come from a pool the
// runtime creates for each device on first use and keeps for the process.
// Its release threshold (tileRuntimeMemPoolKeep; 256 MiB unless set) is what
// the pool holds on to across stream, event and context synchronizations: a
// device's default pool keeps nothing (threshold 0), so a caller that
// synchronizes between calls would map a kernel's workspace afresh on every
// call.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_LIB_RUNTIME_MEMORYPOOL_H
#define TILE_LIB_RUNTIME_MEMORYPOOL_H

#include "DriverApi.h"

namespace tile::runtime {

/// The runtime's pool for the device of the current context, created with
/// the current release threshold on first use (after that, a lock-free
/// read); false after recording an error under `where` (cuCtxGetDevice's,
/// cuMemPoolCreate's or cuMemPoolSetAttribute's failure).
bool currentDevicePool(const char *where, const DriverApi &api,
                       cu::MemoryPool *pool);

} // namespace tile::runtime

#endif // TILE_LIB_RUNTIME_MEMORYPOOL_H
