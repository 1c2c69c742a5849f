//===- AttentionTableEntryTest.cpp - The table-walk attention entry from C
//-===//
//
// The persistent causal attention kernel that walks the longest-first table
// (gen_attention.py --causal --causal-walk table), compiled by tile-compile
// and called from C on the fake driver: the entry asks the runtime for the
// problem's table (built and uploaded on the first call, looked up after),
// launches one CTA per SM (at most one per tile) with it, launches nothing
// for an empty problem, and nothing where the table cannot be had.
//
//===----------------------------------------------------------------------===//

#include "FakeEntry.h"

#include "tile/Schedule/LongestFirst.h"

#include <gtest/gtest.h>

#include <cstring>
#include <vector>

namespace {

/// The table the fake's last upload copied.
std::vector<int32_t> uploaded() {
  std::vector<int32_t> values(fake().copiedBytes / sizeof(int32_t));
  memcpy(values.data(), fake().copied, values.size() * sizeof(int32_t));
  return values;
}

} // namespace

extern "C" void *
_mlir_ciface_attention_table_async(Descriptor4 *q, Descriptor4 *k,
                                   Descriptor4 *v, Descriptor4 *o,
                                   Descriptor3 *l, void *stream);

class AttentionTableEntry : public testing::Test {
protected:
  void SetUp() override {
    ASSERT_EQ(resetFakeRuntime(), TILE_SUCCESS) << tileRuntimeLastError();
    tileRuntimeReleaseLongestFirstTables();
    fake().launchLog[0] = '\0';
    fake().memoryLog[0] = '\0';
    fake().allocs = fake().memcpys = fake().streamSyncs = 0;
    fake().exchangeResult = 0;
    fake().keepCopies = 1;
  }
  void TearDown() override {
    fake().keepCopies = 0;
    fake().exchangeResult = 0;
    tileRuntimeReleaseLongestFirstTables();
    tileRuntimeClearError();
  }
  /// attention_table_async on stream 0x10 for (b, h, s) with as many K/V
  /// heads and `skv` keys (`s` where 0); the runtime's status after it.
  int32_t call(int64_t b, int64_t h, int64_t s, int64_t skv = 0) {
    Descriptor4 q = attentionTensor(base(), b, h, s);
    Descriptor4 kv = attentionTensor(base(), b, h, skv ? skv : s);
    Descriptor3 l = {base(), base(), 0, {b, h, s}, {h * s, s, 1}};
    void *done =
        _mlir_ciface_attention_table_async(&q, &kv, &kv, &q, &l, kStream);
    EXPECT_EQ(done, kStream);
    return tileRuntimeConsumeStatus();
  }
  static char *base() { return alignedStorage(); }
  static inline void *const kStream = reinterpret_cast<void *>(0x10);
};

TEST_F(AttentionTableEntry, SixteenKTokensAtTwoK) {
  // 8 x 16 heads of 16 query blocks: 2048 tiles on 132 CTAs, sections of 32
  // heads (32 MiB of L2 over 1 MiB of K and V per head). The table is 133
  // offsets and 2048 tiles, uploaded once and waited for.
  EXPECT_EQ(call(8, 16, 2048), TILE_SUCCESS) << tileRuntimeLastError();
  EXPECT_STREQ(fake().launchLog, "attention_table (132,1,1)x(384,1,1); ");
  EXPECT_STREQ(fake().memoryLog,
               "mode 0 -> 2; alloc 8724 = 0x60000; mode 2 -> 0; ");
  EXPECT_EQ(fake().memcpys, 1);
  EXPECT_EQ(fake().streamSyncs, 1);
  std::optional<tile::schedule::CtaSchedule> expected =
      tile::schedule::longestFirstSchedule({16, 16, 128, 32}, 132, 1);
  ASSERT_TRUE(expected);
  EXPECT_EQ(uploaded(), expected->table);

  // The second call looks the table up.
  EXPECT_EQ(call(8, 16, 2048), TILE_SUCCESS) << tileRuntimeLastError();
  EXPECT_EQ(fake().allocs, 1);
  EXPECT_EQ(fake().memcpys, 1);
  EXPECT_STREQ(fake().launchLog, "attention_table (132,1,1)x(384,1,1); "
                                 "attention_table (132,1,1)x(384,1,1); ");
}

TEST_F(AttentionTableEntry, FewerTilesThanSms) {
  // 300 rows: 3 query blocks of 2 heads, one CTA per tile; the table is 7
  // offsets and 6 tiles, one each.
  EXPECT_EQ(call(1, 2, 300), TILE_SUCCESS) << tileRuntimeLastError();
  EXPECT_STREQ(fake().launchLog, "attention_table (6,1,1)x(384,1,1); ");
  ASSERT_EQ(fake().copiedBytes, 52u);
  std::vector<int32_t> table(13);
  memcpy(table.data(), fake().copied, 52);
  // Longest first, the heads fastest: (head 0, block 2), (1, 2), (0, 1), ...
  EXPECT_EQ(table,
            (std::vector<int32_t>{0, 1, 2, 3, 4, 5, 6, 2, 5, 1, 4, 0, 3}));
}

TEST_F(AttentionTableEntry, LongKeysNarrowSections) {
  // 300 queries (3 blocks) over 16384 keys (128 blocks) of 2 x 4 heads:
  // sections of 4 heads (8 MiB of K and V each), 24 tiles on 24 CTAs. The
  // host passes the query blocks, the KV blocks, the heads and the section
  // each in its place.
  EXPECT_EQ(call(2, 4, 300, 16384), TILE_SUCCESS) << tileRuntimeLastError();
  EXPECT_STREQ(fake().launchLog, "attention_table (24,1,1)x(384,1,1); ");
  std::optional<tile::schedule::CtaSchedule> expected =
      tile::schedule::longestFirstSchedule({3, 128, 8, 4}, 24, 1);
  ASSERT_TRUE(expected);
  EXPECT_EQ(uploaded(), expected->table);
}

TEST_F(AttentionTableEntry, EmptyProblemLaunchesNothing) {
  EXPECT_EQ(call(2, 4, 0), TILE_SUCCESS) << tileRuntimeLastError();
  EXPECT_STREQ(fake().launchLog, "");
  EXPECT_STREQ(fake().memoryLog, "");
}

TEST_F(AttentionTableEntry, NoTableNoLaunch) {
  // The driver refuses the capture-mode exchange the allocation needs: the
  // error names the table's problem, and nothing is launched.
  fake().exchangeResult = 1;
  EXPECT_EQ(call(1, 2, 300), TILE_ERROR_DRIVER);
  EXPECT_STREQ(tileRuntimeLastError(),
               "tileRuntimeLongestFirstTable: 3 query blocks, 3 KV blocks, 2 "
               "heads in sections of 2, 6 CTAs, tile cost 1: "
               "cuThreadExchangeStreamCaptureMode failed: "
               "CUDA_ERROR_INVALID_VALUE (1)");
  EXPECT_STREQ(fake().launchLog, "");
}
