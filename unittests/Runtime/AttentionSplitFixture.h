//===- AttentionSplitFixture.h - Split-tail attention entries ---*- C++ -*-===//
//
// What the tests of the split-tail attention entries share: the fake's log
// of a stream workspace's allocation, the partial rows' slot size, and a
// fixture that calls an entry's asynchronous C interface on a stream for
// (batch, heads, seq) problems. Include it after FakeEntry.h.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_UNITTESTS_RUNTIME_ATTENTIONSPLITFIXTURE_H
#define TILE_UNITTESTS_RUNTIME_ATTENTIONSPLITFIXTURE_H

#include <gtest/gtest.h>

#include <string>

namespace {

/// The fake's memory log of the runtime's allocation of a stream workspace
/// of `bytes` at `address` (in relaxed capture mode).
inline std::string workspace(uint64_t bytes, const char *address) {
  return "mode 0 -> 2; alloc " + std::to_string(bytes) + " = " + address +
         "; mode 2 -> 0; ";
}

// A consumer's slot: 128 threads of 64 O values, 2 maxima and 2 sums; 4
// slots per CTA (a head and a tail piece per cut, two consumers).
constexpr uint64_t kSlotBytes = 128 * (64 + 4) * 4;

/// An attention entry's asynchronous C interface.
using AttentionAsyncEntry = void *(*)(Descriptor4 *, Descriptor4 *,
                                      Descriptor4 *, Descriptor4 *,
                                      Descriptor3 *, void *);

/// A fresh runtime on the fake driver per test, `Entry` called on stream
/// 0x10, and the stream's workspaces released after.
template <AttentionAsyncEntry Entry>
class AttentionSplitFixture : public testing::Test {
protected:
  void SetUp() override {
    ASSERT_EQ(resetFakeRuntime(), TILE_SUCCESS) << tileRuntimeLastError();
    fake().launchLog[0] = '\0';
    fake().memoryLog[0] = '\0';
    fake().allocs = fake().frees = fake().memset32s = 0;
    fake().lastDst = fake().lastValue = fake().lastCount = 0;
  }
  void TearDown() override { tileRuntimeReleaseStreamWorkspaces(); }
  /// The entry on stream 0x10 for (b, h, s); the runtime's status after it.
  int32_t call(int64_t b, int64_t h, int64_t s) {
    Descriptor4 q = attentionTensor(alignedStorage(), b, h, s);
    Descriptor3 l = {
        alignedStorage(), alignedStorage(), 0, {b, h, s}, {h * s, s, 1}};
    void *done = Entry(&q, &q, &q, &q, &l, kStream);
    EXPECT_EQ(done, kStream);
    return tileRuntimeConsumeStatus();
  }
  static inline void *const kStream = reinterpret_cast<void *>(0x10);
};

} // namespace

#endif // TILE_UNITTESTS_RUNTIME_ATTENTIONSPLITFIXTURE_H
