//===- ArgumentCheck.cpp - Memref arguments against their static types ----===//
//
// A compiled entry takes memref descriptors from its caller; one whose sizes,
// strides or offset differ from the entry's static type would make the
// kernels read and write outside the buffer. The entry compares the fields
// and reports a mismatch here.
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
