//===- AttentionSplitEntryTest.cpp - The split-tail attention entry from C ===//
//
// The persistent non-causal attention kernel with the split tail
// (gen_attention.py --split-tail on), compiled by tile-compile and called
// from C on the fake driver: the entry takes the stream's workspace
// (tile.stream_workspace: the partial rows and the cuts' counters, these
// zeroed once by the runtime, where a tile is split; one element each
// elsewhere), launches one CTA per SM (at most one per tile) with the
// by-length kernel, frees nothing, and launches nothing for an empty
// problem.
//
//===----------------------------------------------------------------------===//

#include "FakeEntry.h"

#include "AttentionSplitFixture.h"

extern "C" void *
_mlir_ciface_attention_split_async(Descriptor4 *q, Descriptor4 *k,
                                   Descriptor4 *v, Descriptor4 *o,
                                   Descriptor3 *l, void *stream);

using AttentionSplitEntry =
    AttentionSplitFixture<_mlir_ciface_attention_split_async>;

TEST_F(AttentionSplitEntry, SixteenKTokensAtTwoK) {
  // 2048 tiles of 16 KV blocks on 132 CTAs (15.5 waves): split. The
  // stream's workspace holds 4 x 132 slots and 2 x 132 counters, which the
  // runtime zeroes once when it allocates them, before the guarded kernel
  // (16 blocks: short keys) runs.
  EXPECT_EQ(call(8, 16, 2048), TILE_SUCCESS) << tileRuntimeLastError();
  EXPECT_STREQ(fake().launchLog, "attention_split (132,1,1)x(384,1,1); ");
  EXPECT_EQ(fake().memoryLog, workspace(4 * 132 * kSlotBytes, "0x60000") +
                                  workspace(2 * 132 * 4, "0x70000"));
  EXPECT_EQ(fake().memset32s, 1);
  EXPECT_EQ(fake().lastDst, 0x70000u);
  EXPECT_EQ(fake().lastValue, 0u);
  EXPECT_EQ(fake().lastCount, 264u);
  EXPECT_EQ(fake().streamSyncs, 1); // the runtime's own stream, once
  // The next call on the stream: no allocation, memset or free (the kernel
  // left its counters zero), and the host does not wait.
  fake().launchLog[0] = fake().memoryLog[0] = '\0';
  EXPECT_EQ(call(8, 16, 2048), TILE_SUCCESS) << tileRuntimeLastError();
  EXPECT_STREQ(fake().launchLog, "attention_split (132,1,1)x(384,1,1); ");
  EXPECT_STREQ(fake().memoryLog, "");
  EXPECT_EQ(fake().memset32s, 1);
  EXPECT_EQ(fake().streamSyncs, 1);
}

TEST_F(AttentionSplitEntry, LongKeysTakeTheZeroPKernel) {
  // 64 blocks of keys: the zero-P kernel; 1024 tiles (7.8 waves): split.
  EXPECT_EQ(call(1, 16, 8192), TILE_SUCCESS) << tileRuntimeLastError();
  EXPECT_STREQ(fake().launchLog, "attention_split_long (132,1,1)x(384,1,1); ");
  EXPECT_EQ(fake().memset32s, 1);
}

TEST_F(AttentionSplitEntry, WholeWavesSplitNothing) {
  // 33 x 4 heads of 16 query blocks: 2112 tiles, 16 whole waves. Nothing is
  // split: one element each (the counter's zeroed all the same).
  EXPECT_EQ(call(33, 4, 2048), TILE_SUCCESS) << tileRuntimeLastError();
  EXPECT_STREQ(fake().launchLog, "attention_split (132,1,1)x(384,1,1); ");
  EXPECT_EQ(fake().memoryLog,
            workspace(4, "0x60000") + workspace(4, "0x70000"));
}

TEST_F(AttentionSplitEntry, UnderAWaveSplitsNothing) {
  // 300 rows of 2 heads: 6 tiles, a CTA each.
  EXPECT_EQ(call(1, 2, 300), TILE_SUCCESS) << tileRuntimeLastError();
  EXPECT_STREQ(fake().launchLog, "attention_split (6,1,1)x(384,1,1); ");
}

TEST_F(AttentionSplitEntry, AnEmptyProblemLaunchesNothing) {
  EXPECT_EQ(call(1, 2, 0), TILE_SUCCESS) << tileRuntimeLastError();
  EXPECT_EQ(call(0, 2, 300), TILE_SUCCESS) << tileRuntimeLastError();
  EXPECT_STREQ(fake().launchLog, "");
}
