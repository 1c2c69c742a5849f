//===- WorkedCases.h - Named copies shared by tests and the benchmark -*- C++
//-*-===//

#ifndef TILE_UNITTESTS_TMA_WORKEDCASES_H
#define TILE_UNITTESTS_TMA_WORKEDCASES_H

#include "TestUtil.h"

namespace tile::tma::test {

/// The reference demo: 8x256 f16 into the 128B-swizzled MMA layout.
inline CopyRequest referenceDemo() {
  return load(f16(), Layout::rowMajor({8, 256}), {8, 256},
              parse("(8, 4, 64) : (64, 512, 1), swizzle = 128B"), {8, 256});
}

/// A rank-5 padded global tile whose shared layout puts the 64B swizzle
/// atoms of the inner dimension outermost: one box would need rank 6, so the
/// atoms become an issue axis (4 instructions of rank 5).
inline CopyRequest rank5MultiIssue() {
  return load(f16(),
              Layout::strided({2, 3, 4, 8, 128}, {14080, 4672, 1152, 136, 1}),
              {2, 3, 4, 8, 128},
              parse("(2, 3, 4, 8, 4, 32) : (3072, 1024, 256, 32, 6144, 1), "
                    "swizzle = 64B"),
              {2, 3, 4, 8, 128});
}

} // namespace tile::tma::test

#endif // TILE_UNITTESTS_TMA_WORKEDCASES_H
