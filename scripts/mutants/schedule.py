"""Mutants of the schedules' pure C++ models: split-K, stream-K, the GEMM
choosers' tile-width rule and the causal attention tiles' longest-first
schedule (lib/Schedule, include/tile/Schedule).
"""
from ._catalog import Library

LIBRARY = Library("lib/Schedule", "include/tile/Schedule")
M = LIBRARY.mutant

MUTANTS = [
    # ---- longest-first (causal attention tiles) -----------------------------
    M("lpt-no-cost", "LongestFirst.cpp",
      "least.first += causalTileBlocks(tiles, t.queryBlock) + tileCost;",
      "least.first += causalTileBlocks(tiles, t.queryBlock);",
      "the fixed cost of a tile is left out of a CTA's work: CTAs that take "
      "many short tiles are given more",
      function="longestFirstSchedule", tests=["gtest:TileScheduleTests"]),
    M("lpt-shortest-first", "LongestFirst.cpp",
      "return CausalTile{firstHead + within % width, tiles.queryBlocks - 1 - rank};",
      "return CausalTile{firstHead + within % width, rank};",
      "the order takes the shortest tiles first: the longest are dealt last "
      "and the busiest CTA ends a whole tile above the others",
      function="longestFirstTile", tests=["gtest:TileScheduleTests"]),
    M("lpt-kv-cap", "LongestFirst.cpp",
      "return std::min(tiles.kvBlocks, queryBlock + 1);",
      "return queryBlock + 1;",
      "keys shorter than the queries are ignored: the last query blocks are "
      "costed for KV blocks they do not read",
      function="causalTileBlocks", tests=["gtest:TileScheduleTests"]),
    # ---- stream-K ------------------------------------------------------------
    M("sk-half-wave", "StreamK.cpp",
      "if (2 * shared < ctas)", "if (false)",
      "a last wave of a few tiles is shared alone: every CTA's share is a "
      "sliver of a tile and nearly every piece goes through the workspace",
      function="chooseStreamKTiles", tests=["gtest:TileScheduleTests"]),
    M("sk-workspace-slots", "StreamK.cpp",
      "ctas + shared > workspaceTiles", "shared > workspaceTiles",
      "the workspace is taken to hold the pieces with one partial tile per "
      "shared tile: the pieces' slots run past its end",
      function="chooseStreamKTiles", tests=["gtest:TileScheduleTests"]),
    M("sk-narrow-limit", "StreamK.cpp",
      "(shared + 1) * ksteps * ctas >= kStreamKNarrowLimit",
      "shared * ksteps * ctas >= kStreamKNarrowLimit",
      "the 32-bit bound leaves out the last tile's k-steps: the kernel's "
      "dividends can reach 2^31 and its 32-bit divisions wrap",
      function="chooseStreamKTiles", tests=["gtest:TileScheduleTests"]),
    M("sk-piece-end", "StreamK.cpp",
      "std::min(r.end, start + ksteps) - start", "ksteps",
      "a share's last piece runs to its tile's end: the next CTA computes "
      "those k-steps too and they are added twice",
      function="StreamKSchedule::workTile", tests=["gtest:TileScheduleTests"]),
    M("sk-cta-of", "include/tile/Schedule/StreamK.h",
      "return ((unit + 1) * ctas - 1) / units();",
      "return (unit * ctas) / units();",
      "the CTA of a k-step is rounded down at a share's boundary: a tile's "
      "combination waits for a piece that does not exist, or misses one",
      function="ctaOf", tests=["gtest:TileScheduleTests"]),
    M("sk-slot", "include/tile/Schedule/StreamK.h",
      "static int64_t slot(int64_t cta, int64_t j) { return cta + j; }",
      "static int64_t slot(int64_t cta, int64_t j) { return cta; }",
      "a CTA's two pieces share one workspace slot: the second overwrites "
      "the first's partial before its tile combines it",
      function="StreamKSchedule", tests=["gtest:TileScheduleTests"]),
    # ---- tile width ----------------------------------------------------------
    M("tw-waves", "TileWidth.cpp",
      "return ceilDiv(ceilDiv(m, rows) * ceilDiv(n, columns), ctas);",
      "return ceilDiv(m, rows) * ceilDiv(n, columns) / ctas;",
      "a partial last wave is not counted: the rule cannot see the idle SMs "
      "it exists to avoid",
      function="tileWaves", tests=["gtest:TileScheduleTests"]),
    M("tw-rate", "TileWidth.cpp",
      "if (timeA * b.ratePercent < timeB * a.ratePercent)",
      "if (timeA < timeB)",
      "the narrower tile's slower main loop is ignored: it is taken where "
      "its waves are as long as the wide tile's",
      function="chooseTileShape", tests=["gtest:TileScheduleTests"]),
    M("tw-tie", "TileWidth.cpp",
      "if (timeA * b.ratePercent < timeB * a.ratePercent)",
      "if (timeA * b.ratePercent <= timeB * a.ratePercent)",
      "a tie goes to the later candidate: the choice depends on the order "
      "of equally fast widths",
      function="chooseTileShape", tests=["gtest:TileScheduleTests"]),
]
