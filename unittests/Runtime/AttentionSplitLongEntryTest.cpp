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

#include <gtest/gtest.h>

#include <string>

namespace {

/// The fake's memory log of the runtime's allocation of a stream workspace
/// of `bytes` at `address` (in relaxed capture mode).
std::string workspace(uint64_t bytes, const char *address) {
  return "mode 0 -> 2; alloc " + std::to_string(bytes) + " = " + address +
         "; mode 2 -> 0; ";
}

// A consumer's slot: 128 threads of 64 O values, 2 maxima and 2 sums; 4
// slots per CTA (a head and a tail piece per cut, two consumers).
constexpr uint64_t kSlotBytes = 128 * (64 + 4) * 4;

} // namespace

extern "C" void *
_mlir_ciface_attention_split_long_async(Descriptor4 *q, Descriptor4 *k,
                                        Descriptor4 *v, Descriptor4 *o,
                                        Descriptor3 *l, void *stream);

class AttentionSplitLongEntry : public testing::Test {
protected:
  void SetUp() override {
    ASSERT_EQ(resetFakeRuntime(), TILE_SUCCESS) << tileRuntimeLastError();
    fake().launchLog[0] = '\0';
    fake().memoryLog[0] = '\0';
    fake().allocs = fake().frees = fake().memset32s = 0;
  }
  void TearDown() override { tileRuntimeReleaseStreamWorkspaces(); }
  /// attention_split_long_async on stream 0x10 for (b, h, s); the
  /// runtime's status after it.
  int32_t call(int64_t b, int64_t h, int64_t s) {
    Descriptor4 q = attentionTensor(base(), b, h, s);
    Descriptor3 l = {base(), base(), 0, {b, h, s}, {h * s, s, 1}};
    void *done =
        _mlir_ciface_attention_split_long_async(&q, &q, &q, &q, &l, kStream);
    EXPECT_EQ(done, kStream);
    return tileRuntimeConsumeStatus();
  }
  static char *base() { return alignedStorage(); }
  static inline void *const kStream = reinterpret_cast<void *>(0x10);
};

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
