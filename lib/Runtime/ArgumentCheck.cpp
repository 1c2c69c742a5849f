//===- ArgumentCheck.cpp - Launch preconditions the host code checks ------===//
//
// A compiled entry takes memref descriptors from its caller; one whose sizes,
// strides or offset differ from the entry's static type would make the
// kernels read and write outside the buffer. The entry compares the fields
// and reports a mismatch here. A launch of a kernel whose guards must hold (it
// has no fallback version) is skipped where one fails, and reported here.
//
//===----------------------------------------------------------------------===//

#include "tile/Runtime/TileRuntime.h"

#include "Error.h"

using namespace tile::runtime;

extern "C" int32_t tileRuntimeCheckArgument(const char *function,
                                            int32_t argument, const char *type,
                                            const char *field, int64_t expected,
                                            int64_t received) {
  if (expected == received)
    return TILE_SUCCESS;
  return setError(TILE_ERROR_INVALID_VALUE,
                  "%s: argument #%d (%s): %s is %lld, expected %lld; nothing "
                  "was launched",
                  function ? function : "?", argument, type ? type : "?",
                  field ? field : "?", static_cast<long long>(received),
                  static_cast<long long>(expected));
}

extern "C" void tileRuntimeRefuseLaunch(const char *site,
                                        const char *failedGuard) {
  setError(TILE_ERROR_INVALID_VALUE,
           "%s: guard failed (%s) and the kernel has no fallback version; "
           "nothing was launched",
           site ? site : "<unknown>", failedGuard ? failedGuard : "<unknown>");
}
