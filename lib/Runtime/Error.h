//===- Error.h - Thread-local last-error channel ----------------*- C++ -*-===//
//
// Every failing entry point records a status and a message here; nothing in
// the runtime throws or aborts. Messages live in a fixed thread-local buffer,
// so recording an error never allocates.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_LIB_RUNTIME_ERROR_H
#define TILE_LIB_RUNTIME_ERROR_H

#include "CudaTypes.h"

#include <cstdint>

namespace tile::runtime {

/// Records status and a printf-style message; returns status.
int32_t setError(int32_t status, const char *format, ...)
    __attribute__((format(printf, 2, 3)));

/// Records TILE_ERROR_DRIVER (TILE_ERROR_OUT_OF_MEMORY for
/// CUDA_ERROR_OUT_OF_MEMORY) as "<where>: <call> failed: <NAME> (<number>)".
int32_t setDriverError(const char *where, const char *call, cu::Result result);

/// Name of a CUresult: the driver's cuGetErrorName when loaded, else a small
/// built-in table, else "CUDA_ERROR_UNKNOWN_CODE".
const char *driverErrorName(cu::Result result);

} // namespace tile::runtime

#endif // TILE_LIB_RUNTIME_ERROR_H
