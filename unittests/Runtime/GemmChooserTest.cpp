//===- GemmChooserTest.cpp - The GEMM chooser's entries from C ------------===//
//
// The clustered bf16 chooser (gen_gemm.py --choose --bf16-out --persistent
// --swizzle-c --by-waves --cluster 2, the command docs/gemm.md gives, with
// --decode-split 8) compiled by tile-compile and called from C on the fake
// driver: where A's or Bt's rows are not 16-byte aligned the entry pads them
// into stream-ordered copies (gemm_pad_k), runs the padded problem's kernel
// on them and frees them on the stream; an allocation the driver refuses is
// an error with nothing launched; decode rows split in shares of K get the
// stream's workspace (tile.stream_workspace), its counters zeroed once.
//
//===----------------------------------------------------------------------===//

#include "FakeEntry.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace {

Descriptor2 matrix(void *data, int64_t rows, int64_t cols) {
  return {data, data, 0, {rows, cols}, {cols, 1}};
}

/// The fake's memory log of a padded call: A's and Bt's copies of `bytes`
/// each allocated on `stream` (at the fake's first two addresses), then
/// freed on it in the same order.
std::string paddedCopies(uint64_t bytes, const char *stream) {
  std::string b = std::to_string(bytes), on = std::string(" on ") + stream;
  return "alloc " + b + on + " = 0x60000; alloc " + b + on +
         " = 0x70000; free 0x60000" + on + "; free 0x70000" + on + "; ";
}

} // namespace

extern "C" void *_mlir_ciface_gemm_async(Descriptor2 *a, Descriptor2 *bt,
                                         Descriptor2 *c, float alpha,
                                         void *stream);
extern "C" void _mlir_ciface_gemm(Descriptor2 *a, Descriptor2 *bt,
                                  Descriptor2 *c, float alpha);

class GemmChooser : public testing::Test {
protected:
  void SetUp() override {
    ASSERT_EQ(resetFakeRuntime(), TILE_SUCCESS) << tileRuntimeLastError();
    fake().launchLog[0] = '\0';
    fake().memoryLog[0] = '\0';
    fake().encodeLog[0] = '\0';
    fake().allocs = fake().asyncAllocs = fake().frees = fake().asyncFrees = 0;
    fake().memset32s = 0;
  }
  void TearDown() override { tileRuntimeReleaseStreamWorkspaces(); }
  /// gemm_async on stream 0x10 for A (m x k at `a`), Bt (n x k at `bt`) and C
  /// (m x n); the runtime's status after it.
  int32_t call(int64_t m, int64_t n, int64_t k, char *a, char *bt) {
    Descriptor2 da = matrix(a, m, k);
    Descriptor2 dbt = matrix(bt, n, k);
    Descriptor2 dc = matrix(base(), m, n);
    EXPECT_EQ(_mlir_ciface_gemm_async(&da, &dbt, &dc, 1.0f, kStream), kStream);
    return tileRuntimeConsumeStatus();
  }
  int32_t call(int64_t m, int64_t n, int64_t k) {
    return call(m, n, k, base(), base());
  }
  /// 256-byte aligned storage; the fake driver never touches it.
  static char *base() {
    static std::vector<char> data(1024);
    auto at = reinterpret_cast<uintptr_t>(data.data());
    return data.data() + ((256 - at % 256) % 256);
  }
  static inline void *const kStream = reinterpret_cast<void *>(0x10);
};

TEST_F(GemmChooser, AlignedRowsRunAsPassed) {
  EXPECT_EQ(call(4096, 4096, 4096), TILE_SUCCESS) << tileRuntimeLastError();
  EXPECT_STREQ(fake().launchLog, "gemm (132,1,1)x(384,1,1); ");
  EXPECT_STREQ(fake().memoryLog, "");
}

TEST_F(GemmChooser, RowsOffSixteenBytesArePadded) {
  // K = 4100: rows of 8200 bytes. Both operands are copied into rows of 4160
  // elements, 8320 bytes, a whole number of 128-byte lines (a block per row,
  // 3 in y for its 520 16-byte groups), the shape's kernel runs on the
  // copies, and the copies are freed after it, all on the caller's stream.
  EXPECT_EQ(call(4096, 4096, 4100), TILE_SUCCESS) << tileRuntimeLastError();
  EXPECT_STREQ(fake().launchLog, "gemm_pad_k (4096,3,1)x(256,1,1); "
                                 "gemm_pad_k (4096,3,1)x(256,1,1); "
                                 "gemm (132,1,1)x(384,1,1); ");
  EXPECT_EQ(fake().memoryLog, paddedCopies(34078720, "0x10"));
  EXPECT_EQ(fake().streamSyncs, 0); // the host never waits
  // The kernel's maps read the copies (A's and Bt's at 0x60000 and 0x70000,
  // 4160 columns in rows of 8320 bytes); C's is the caller's.
  EXPECT_EQ(tileRuntimeLaunchVersionCount(TILE_VERSION_FALLBACK), 0);
  std::string maps = fake().encodeLog;
  EXPECT_NE(maps.find("0x60000 [4160,4096] 8320; "), std::string::npos) << maps;
  EXPECT_NE(maps.find("0x70000 [4160,4096] 8320; "), std::string::npos) << maps;
}

TEST_F(GemmChooser, TheNullStreamIsStreamOrderedToo) {
  // PyTorch's default stream is the legacy stream, handle 0: the copies are
  // stream-ordered on it as on any other (before, a synchronous cuMemFree
  // waited for the device at every call).
  Descriptor2 a = matrix(base(), 256, 100);
  Descriptor2 bt = matrix(base(), 256, 100);
  Descriptor2 c = matrix(base(), 256, 256);
  EXPECT_EQ(_mlir_ciface_gemm_async(&a, &bt, &c, 1.0f, nullptr), nullptr);
  EXPECT_EQ(tileRuntimeConsumeStatus(), TILE_SUCCESS) << tileRuntimeLastError();
  EXPECT_EQ(fake().memoryLog, paddedCopies(65536, "(nil)"));
  EXPECT_EQ(fake().streamSyncs, 0);
}

TEST_F(GemmChooser, AnOffsetBaseIsCopiedAlone) {
  // K = 4096 but Bt 8 bytes off: Bt alone is copied (its rows keep their
  // length), and the kernel reads A where the caller put it.
  EXPECT_EQ(call(4096, 4096, 4096, base(), base() + 8), TILE_SUCCESS)
      << tileRuntimeLastError();
  EXPECT_STREQ(fake().launchLog, "gemm_pad_k (4096,2,1)x(256,1,1); "
                                 "gemm (132,1,1)x(384,1,1); ");
  EXPECT_STREQ(fake().memoryLog, "alloc 33554432 on 0x10 = 0x60000; "
                                 "free 0x60000 on 0x10; ");
  std::string maps = fake().encodeLog;
  EXPECT_NE(maps.find("0x60000 [4096,4096] 8192; "), std::string::npos) << maps;
  char a[32];
  std::snprintf(a, sizeof(a), "%p [4096,4096] 8192; ",
                static_cast<void *>(base()));
  EXPECT_NE(maps.find(a), std::string::npos) << maps;
}

TEST_F(GemmChooser, AnOffsetABaseIsCopiedAlone) {
  EXPECT_EQ(call(256, 256, 4096, base() + 2, base()), TILE_SUCCESS)
      << tileRuntimeLastError();
  EXPECT_STREQ(fake().memoryLog, "alloc 2097152 on 0x10 = 0x60000; "
                                 "free 0x60000 on 0x10; ");
}

TEST_F(GemmChooser, EmptyProblems) {
  // An empty C launches nothing (M = 0 was once a launch the runtime refused:
  // a grid of 0 tile rows), and copies nothing.
  EXPECT_EQ(call(0, 4096, 4100), TILE_SUCCESS) << tileRuntimeLastError();
  EXPECT_EQ(call(4096, 0, 4100), TILE_SUCCESS) << tileRuntimeLastError();
  EXPECT_STREQ(fake().launchLog, "");
  // K = 0 with A 2 bytes off: C is zeros whatever the rows, so nothing is
  // copied; the shape's kernel writes them (its fallback version: no map
  // has a dimension of 0).
  EXPECT_EQ(call(4096, 4096, 0, base() + 2, base()), TILE_SUCCESS)
      << tileRuntimeLastError();
  EXPECT_STREQ(fake().launchLog, "gemm_fallback (132,1,1)x(384,1,1); ");
  EXPECT_STREQ(fake().memoryLog, "");
}

TEST_F(GemmChooser, ARefusedCopyLaunchesNothing) {
  // A's copy would be 2^21 rows of 2^19 + 64 elements (over the fake's 1 TiB):
  // the driver refuses it, Bt's copy is freed, nothing is launched, and the
  // caller gets the driver's error.
  const int64_t m = int64_t(1) << 21, k = (int64_t(1) << 19) + 1;
  EXPECT_EQ(call(m, 256, k), TILE_ERROR_OUT_OF_MEMORY);
  EXPECT_STREQ(tileRuntimeLastError(),
               "tileRuntimeMemAllocAsync: cuMemAllocFromPoolAsync failed: "
               "CUDA_ERROR_OUT_OF_MEMORY (2)");
  EXPECT_STREQ(fake().launchLog, "");
  EXPECT_STREQ(fake().memoryLog, "alloc 2199291691008 on 0x10 = error 2; "
                                 "alloc 268468224 on 0x10 = 0x60000; "
                                 "free 0x60000 on 0x10; ");
}

TEST_F(GemmChooser, TheSynchronousEntryWaitsForItsOwnStream) {
  Descriptor2 a = matrix(base(), 256, 100);
  Descriptor2 bt = matrix(base(), 256, 100);
  Descriptor2 c = matrix(base(), 256, 256);
  int syncs = fake().streamSyncs;
  _mlir_ciface_gemm(&a, &bt, &c, 1.0f);
  EXPECT_EQ(tileRuntimeConsumeStatus(), TILE_SUCCESS) << tileRuntimeLastError();
  EXPECT_EQ(fake().memoryLog, paddedCopies(65536, "0x4000"));
  EXPECT_EQ(fake().streamSyncs, syncs + 1);
}

TEST_F(GemmChooser, DecodeRowsSplitInTheStreamsWorkspace) {
  // M = 8 against a 2048 x 8192 weight: 32 tiles of 64 x 64 fill a quarter of
  // the SMs, so the decode kernel (A's box of 32 rows) runs in 4 shares of
  // K. The first call on the stream gets the runtime's buffers for it: the
  // partial tiles (32 tiles x 4 shares x 64 x 64 f32) and the counters (32),
  // these zeroed once (on a stream of the runtime's own); nothing is freed.
  EXPECT_EQ(call(8, 2048, 8192), TILE_SUCCESS) << tileRuntimeLastError();
  EXPECT_STREQ(fake().launchLog, "gemm_m64n64_a32_split (32,1,4)x(256,1,1); ");
  EXPECT_STREQ(fake().memoryLog,
               "mode 0 -> 2; alloc 2097152 = 0x60000; mode 2 -> 0; "
               "mode 0 -> 2; alloc 128 = 0x70000; mode 2 -> 0; ");
  EXPECT_EQ(fake().memset32s, 1);
  EXPECT_EQ(fake().lastDst, 0x70000u);
  EXPECT_EQ(fake().lastValue, 0u);
  EXPECT_EQ(fake().lastCount, 32u);
  EXPECT_NE(fake().lastMemsetStream, kStream);
  // The next call on the stream allocates, zeroes and frees nothing: the
  // kernel left its counters zero.
  fake().launchLog[0] = fake().memoryLog[0] = '\0';
  EXPECT_EQ(call(8, 2048, 8192), TILE_SUCCESS) << tileRuntimeLastError();
  EXPECT_STREQ(fake().launchLog, "gemm_m64n64_a32_split (32,1,4)x(256,1,1); ");
  EXPECT_STREQ(fake().memoryLog, "");
  EXPECT_EQ(fake().memset32s, 1);
  // M = 8 against 8192 columns fills the SMs unsplit: no workspace.
  EXPECT_EQ(call(8, 8192, 8192), TILE_SUCCESS) << tileRuntimeLastError();
  EXPECT_STREQ(fake().launchLog, "gemm_m64n64_a32_split (32,1,4)x(256,1,1); "
                                 "gemm_m64n64_a32 (128,1,1)x(256,1,1); ");
  EXPECT_STREQ(fake().memoryLog, "");
  // Twice the weight's columns on the stream: 64 tiles in 2 shares, the
  // counters' buffer replaced by one of twice the size, zeroed once.
  EXPECT_EQ(call(8, 4096, 8192), TILE_SUCCESS) << tileRuntimeLastError();
  EXPECT_STREQ(fake().memoryLog,
               "mode 0 -> 2; alloc 256 = 0x80000; mode 2 -> 0; ");
  EXPECT_EQ(fake().memset32s, 2);
  EXPECT_EQ(fake().lastCount, 64u);
}
