//===- RelaxedAllocation.h - Driver calls a stream capture allows -*- C++
//-*-===//
//
// Arrays the runtime owns for the process's lifetime (device-map arrays,
// schedule tables) are made on a launch's first use, which may come while
// a stream is being captured into a CUDA graph. cuMemAlloc (and a copy and
// wait on a stream of the runtime's own) is not permitted then in global
// capture mode, so such calls run in relaxed mode on the calling thread,
// the thread's mode restored afterwards.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_LIB_RUNTIME_RELAXEDALLOCATION_H
#define TILE_LIB_RUNTIME_RELAXEDALLOCATION_H

#include "DriverApi.h"
#include "Error.h"

#include <cstdint>

namespace tile::runtime {

/// Runs `body` (returning a status) with the calling thread in relaxed
/// capture mode, and restores the thread's mode; failures of the exchanges
/// are recorded after `where`'s text. The status is body's, or the first
/// exchange's failure (body not run), or the restore's failure.
template <typename Body>
int32_t inRelaxedCaptureMode(const DriverApi *api, const char *where,
                             Body body) {
  int mode = cu::kStreamCaptureModeRelaxed;
  cu::Result result = api->cuThreadExchangeStreamCaptureMode(&mode);
  if (result != cu::kSuccess)
    return setDriverError(where, "cuThreadExchangeStreamCaptureMode", result);
  int32_t status = body();
  // `mode` holds the previous mode now; exchanging again puts it back.
  result = api->cuThreadExchangeStreamCaptureMode(&mode);
  if (result != cu::kSuccess)
    status = setDriverError(
        where, "cuThreadExchangeStreamCaptureMode (restoring the mode)",
        result);
  return status;
}

/// cuMemAlloc of `bytes` (`requested` is what the caller asked for; the
/// message names `bytes` where they differ), recording failures after
/// `where`'s text. *array is the new array, or 0 when none was allocated.
/// Call in relaxed capture mode.
int32_t allocateArray(const DriverApi *api, const char *where,
                      uint64_t requested, uint64_t bytes, cu::DevicePtr *array);

/// allocateArray in relaxed capture mode (inRelaxedCaptureMode); the status
/// is not TILE_SUCCESS when anything failed (a failed restore leaves an
/// allocated array in *array).
int32_t allocateRelaxed(const DriverApi *api, const char *where,
                        uint64_t requested, uint64_t bytes,
                        cu::DevicePtr *array);

/// Enqueues `call` (the driver call's name) through `enqueue(stream)` on a
/// stream of its own (non-blocking: it waits for no other stream's work, nor
/// they for it), waits for it and destroys the stream, recording failures
/// after `where`'s text. Call in relaxed capture mode.
template <typename Enqueue>
int32_t onStreamOfItsOwn(const DriverApi *api, const char *where,
                         const char *call, Enqueue enqueue) {
  cu::Stream stream = nullptr;
  cu::Result result = api->cuStreamCreate(&stream, cu::kStreamNonBlocking);
  if (result != cu::kSuccess)
    return setDriverError(where, "cuStreamCreate", result);
  int32_t status = TILE_SUCCESS;
  if ((result = enqueue(stream)) != cu::kSuccess)
    status = setDriverError(where, call, result);
  else if ((result = api->cuStreamSynchronize(stream)) != cu::kSuccess)
    status = setDriverError(where, "cuStreamSynchronize", result);
  result = api->cuStreamDestroy(stream);
  if (result != cu::kSuccess && status == TILE_SUCCESS)
    status = setDriverError(where, "cuStreamDestroy", result);
  return status;
}

/// Zeroes the first `bytes` (a multiple of 4) of `array` on a stream of its
/// own (onStreamOfItsOwn). Call in relaxed capture mode.
int32_t zeroArray(const DriverApi *api, const char *where, cu::DevicePtr array,
                  uint64_t bytes);

/// cuMemFree of `array` (nothing for 0), recording a failure after `where`
/// (the message names the array). With `context` and `current` (the
/// context current now), `context` is made current first where it is not,
/// and *current follows.
void freeArray(const DriverApi *api, const char *where, cu::DevicePtr array,
               cu::Context context = nullptr, cu::Context *current = nullptr);

} // namespace tile::runtime

#endif // TILE_LIB_RUNTIME_RELAXEDALLOCATION_H
