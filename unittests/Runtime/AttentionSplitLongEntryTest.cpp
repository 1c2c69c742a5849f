//===- AttentionSplitLongEntryTest.cpp - The long-key split entry from C ===//
//
// The persistent non-causal attention module with the split tail on its
// long-key kernel alone (gen_attention.py --split-tail long), compiled by
// tile-compile and called from C on the fake driver: where the keys fill
// at most 16 blocks of 128 the entry launches the guarded kernel on whole
// tiles and asks for no workspace; beyond, it takes the stream's workspace
// (the partial rows and the cuts' counters, these zeroed once by the
// runtime) and launches the split zero-P kernel.
//
//===----------------------------------------------------------------------===//

#include "FakeEntry.h"

#include "AttentionSplitFixture.h"

extern "C" void *
_mlir_ciface_attention_split_long_async(Descriptor4 *q, Descriptor4 *k,
                                        Descriptor4 *v, Descriptor4 *o,
                                        Descriptor3 *l, void *stream);

using AttentionSplitLongEntry =
    AttentionSplitFixture<_mlir_ciface_attention_split_long_async>;

TEST_F(AttentionSplitLongEntry, ShortKeysTakeWholeTilesAndNoWorkspace) {
  // 16 blocks of keys (2k), 2048 tiles: the guarded kernel, whole tiles.
  EXPECT_EQ(call(8, 16, 2048), TILE_SUCCESS) << tileRuntimeLastError();
  EXPECT_STREQ(fake().launchLog, "attention_split_long (132,1,1)x(384,1,1); ");
  EXPECT_STREQ(fake().memoryLog, "");
  EXPECT_EQ(fake().allocs, 0);
  EXPECT_EQ(fake().memset32s, 0);
}

TEST_F(AttentionSplitLongEntry, LongKeysTakeTheSplitKernel) {
  // 17 blocks of keys, 2176 tiles (16.5 waves): the split zero-P kernel
  // with the stream's workspace, 4 x 132 slots and 2 x 132 counters,
  // zeroed once.
  EXPECT_EQ(call(8, 16, 2176), TILE_SUCCESS) << tileRuntimeLastError();
  EXPECT_STREQ(fake().launchLog,
               "attention_split_long_long (132,1,1)x(384,1,1); ");
  EXPECT_EQ(fake().memoryLog, workspace(4 * 132 * kSlotBytes, "0x60000") +
                                  workspace(2 * 132 * 4, "0x70000"));
  EXPECT_EQ(fake().memset32s, 1);
  // Short keys after it on the stream: whole tiles, the workspace kept.
  fake().launchLog[0] = fake().memoryLog[0] = '\0';
  EXPECT_EQ(call(8, 16, 2048), TILE_SUCCESS) << tileRuntimeLastError();
  EXPECT_STREQ(fake().launchLog, "attention_split_long (132,1,1)x(384,1,1); ");
  EXPECT_STREQ(fake().memoryLog, "");
}

TEST_F(AttentionSplitLongEntry, AnEmptyProblemLaunchesNoSplitKernel) {
  // No rows (short keys): the guarded kernel's one CTA, which finds no
  // tile, in its fallback version (a tensor map of no rows fails the
  // copies' guards); no batch (long keys): the split kernel's entry
  // launches nothing.
  EXPECT_EQ(call(1, 2, 0), TILE_SUCCESS) << tileRuntimeLastError();
  EXPECT_EQ(call(0, 2, 3000), TILE_SUCCESS) << tileRuntimeLastError();
  EXPECT_STREQ(fake().launchLog,
               "attention_split_long_fallback (1,1,1)x(384,1,1); ");
}
