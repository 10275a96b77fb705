// The sanitizer's strided records (src/aicore/sanitizer_strided.h): a strided copy is one record,
// not one per burst, and must find exactly what the bursts one by one would: a race or an
// uninitialised read on one burst, named with that burst's bytes, and nothing in the bytes
// between the bursts.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "kernel_operator.h"
#include "san_test_util.h"
#include "sanitizer_strided.h"  // src/aicore: the strided records themselves

namespace {

namespace san = lngrad::aicore::san;
using namespace lngrad::aicore::san_test;

// GM: kRows rows of kRow floats (1 KiB); a strided copy takes the first 128 bytes of each row.
constexpr uint32_t kRows = 8;
constexpr uint32_t kRow = 256;
constexpr uint16_t kBurstBlocks = 4;                // 128 bytes
constexpr uint16_t kGapBlocks = (1024 - 128) / 32;  // to the next row
constexpr uint32_t kBurst = 32;                     // floats per burst

Result Launch(uint32_t blocks, const std::function<void()>& kernel) {
  return LaunchSanitized({.blocks = blocks}, kernel);
}

std::string Bytes(const float* b, const float* e) {
  return "[" + std::to_string(reinterpret_cast<uintptr_t>(b)) + ", " +
         std::to_string(reinterpret_cast<uintptr_t>(e)) + ")";
}
std::string Address(const void* p) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "0x%llx",
                static_cast<unsigned long long>(reinterpret_cast<uintptr_t>(p)));
  return buf;
}

// The kRows rows at x as one GlobalTensor.
AscendC::GlobalTensor<float> Rows(float* x) {
  AscendC::GlobalTensor<float> g;
  g.SetGlobalBuffer(x, kRows * kRow);
  return g;
}

// The strided copy-in (MTE2) of the first 128 bytes of each row into UB [0, 1 KiB).
void StridedRead(const AscendC::GlobalTensor<float>& g) {
  AscendC::LocalTensor<float> a(AscendC::TPosition::VECIN, 0, kRows * kBurst);
  AscendC::DataCopy(a, g, AscendC::DataCopyParams(kRows, kBurstBlocks, kGapBlocks, 0));
}

// A UB tile at 4 KiB filled with v on V, ready for MTE3.
AscendC::LocalTensor<float> Filled(uint32_t floats, float v) {
  AscendC::LocalTensor<float> b(AscendC::TPosition::VECOUT, 4096, floats);
  AscendC::Duplicate(b, v, floats);
  AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
  AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
  return b;
}

// An MTE3 write of `floats` floats at GM float offset `at`, after the strided read, with no
// MTE2 -> MTE3 order unless `synced`.
Result ReadThenWrite(float* x, uint32_t at, uint32_t floats, bool synced) {
  return Launch(1, [&] {
    const AscendC::GlobalTensor<float> g = Rows(x);
    StridedRead(g);
    if (synced) {
      AscendC::SetFlag<AscendC::HardEvent::MTE2_MTE3>(EVENT_ID1);
      AscendC::WaitFlag<AscendC::HardEvent::MTE2_MTE3>(EVENT_ID1);
    }
    AscendC::DataCopy(g[at], Filled(floats, 1.0f), floats);
  });
}

TEST(Strided, RaceOnOneBurstNamesItsBytes) {
  Gm x(kRows * kRow);
  const Result r = ReadThenWrite(x.p, 3 * kRow, kBurst, false);
  ASSERT_EQ(r.failures.size(), 1u) << r.AllText();
  const std::string want = "write-after-read hazard on GM bytes " +
                           Bytes(x.p + 3 * kRow, x.p + 3 * kRow + kBurst) +
                           ": MTE2 DataCopy(GM->UB, DataCopyParams)";
  EXPECT_NE(r.failures[0].message.find(want), std::string::npos) << want << "\n" << r.AllText();
  ExpectClean(ReadThenWrite(x.p, 3 * kRow, kBurst, true));
}

// A write of a burst's tail and the gap after it: the hazard is on the burst's bytes only.
TEST(Strided, RaceOnPartOfABurst) {
  Gm x(kRows * kRow);
  const Result r = ReadThenWrite(x.p, 5 * kRow + 24, kRow - 24, false);
  ASSERT_EQ(r.failures.size(), 1u) << r.AllText();
  const std::string want =
      "hazard on GM bytes " + Bytes(x.p + 5 * kRow + 24, x.p + 5 * kRow + kBurst) + ":";
  EXPECT_NE(r.failures[0].message.find(want), std::string::npos) << want << "\n" << r.AllText();
}

TEST(Strided, BytesBetweenBurstsAreNotTouched) {
  Gm x(kRows * kRow);
  // Every gap, one at a time, whole: no burst meets it.
  for (uint32_t row = 0; row < kRows; ++row) {
    ExpectClean(ReadThenWrite(x.p, row * kRow + kBurst, kRow - kBurst, false));
  }
}

// A strided write with another pitch (every other row) that meets the second half of the read's
// odd bursts: one finding, on the first of them.
TEST(Strided, OtherPitchMeetsOneBurst) {
  Gm x(kRows * kRow);
  auto kernel = [&](uint32_t first_row, uint32_t column) {
    return Launch(1, [&] {
      const AscendC::GlobalTensor<float> g = Rows(x.p);
      StridedRead(g);
      // Four bursts of 128 bytes, 2 KiB apart: every other row.
      AscendC::DataCopy(g[first_row * kRow + column], Filled(4 * kBurst, 2.0f),
                        AscendC::DataCopyParams(4, kBurstBlocks, 0, (2048 - 128) / 32));
    });
  };
  const Result r = kernel(1, 16);
  ASSERT_EQ(r.failures.size(), 1u) << r.AllText();
  const std::string want =
      "hazard on GM bytes " + Bytes(x.p + kRow + 16, x.p + kRow + kBurst) + ":";
  EXPECT_NE(r.failures[0].message.find(want), std::string::npos) << want << "\n" << r.AllText();
  ExpectClean(kernel(0, kBurst));  // beside the read's bursts, in the gaps
}

// The same bursts written back without an MTE2 -> MTE3 order: one finding, on the first burst.
TEST(Strided, SameBurstsWrittenBack) {
  Gm x(kRows * kRow);
  auto kernel = [&](bool synced) {
    return Launch(1, [&] {
      const AscendC::GlobalTensor<float> g = Rows(x.p);
      StridedRead(g);
      if (synced) {
        AscendC::SetFlag<AscendC::HardEvent::MTE2_MTE3>(EVENT_ID1);
        AscendC::WaitFlag<AscendC::HardEvent::MTE2_MTE3>(EVENT_ID1);
      }
      AscendC::DataCopy(g, Filled(kRows * kBurst, 3.0f),
                        AscendC::DataCopyParams(kRows, kBurstBlocks, 0, kGapBlocks));
    });
  };
  const Result r = kernel(false);
  ASSERT_EQ(r.failures.size(), 1u) << r.AllText();
  const std::string want = "write-after-read hazard on GM bytes " + Bytes(x.p, x.p + kBurst);
  EXPECT_NE(r.failures[0].message.find(want), std::string::npos) << want << "\n" << r.AllText();
  ExpectClean(kernel(true));
  EXPECT_EQ(x.p[7 * kRow + 5], 3.0f);
  EXPECT_EQ(x.p[7 * kRow + kBurst], static_cast<float>((7 * kRow + kBurst) % 17));
}

// Device memory nobody wrote under one burst, or only in the gaps: the strided copy carries it
// into UB, where the instruction that reads it is reported.
TEST(Strided, UninitialisedReadOfOneBurst) {
  Gm x(kRows * kRow);
  auto kernel = [&] {
    const AscendC::GlobalTensor<float> g = Rows(x.p);
    StridedRead(g);
    AscendC::LocalTensor<float> a(AscendC::TPosition::VECIN, 0, kRows * kBurst);
    AscendC::SetFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
    AscendC::Adds(a, a, 1.0f, kRows * kBurst);
  };
  san::GmMarkUninitialised(x.p + 5 * kRow + 8, 8 * sizeof(float));
  const Result r = Launch(1, kernel);
  ASSERT_EQ(r.failures.size(), 1u) << r.AllText();
  EXPECT_EQ(r.failures[0].check, "initcheck");
  // Burst 5 lands at UB float 5 * kBurst; its floats 8..16 are the unwritten ones.
  const std::string want = "reads UB bytes [672, 704) that a copy brought in from device memory";
  EXPECT_NE(r.failures[0].message.find(want), std::string::npos) << want << "\n" << r.AllText();
  san::GmMarkWritten(x.p, kRows * kRow * sizeof(float));
  for (uint32_t row = 0; row < kRows; ++row) {
    san::GmMarkUninitialised(x.p + row * kRow + kBurst, (kRow - kBurst) * sizeof(float));
  }
  ExpectClean(Launch(1, kernel));
  san::GmMarkWritten(x.p, kRows * kRow * sizeof(float));
}

// A strided write initialises its bursts and not the gaps: a read of a whole row finds the gap.
TEST(Strided, WriteInitialisesOnlyItsBursts) {
  int line = 0;
  Gm x(kRows * kRow);
  san::GmMarkUninitialised(x.p, kRows * kRow * sizeof(float));
  const Result r = Launch(1, [&] {
    const AscendC::GlobalTensor<float> g = Rows(x.p);
    AscendC::DataCopy(g, Filled(kRows * kBurst, 4.0f),
                      AscendC::DataCopyParams(kRows, kBurstBlocks, 0, kGapBlocks));
    AscendC::SetFlag<AscendC::HardEvent::MTE3_MTE2>(EVENT_ID1);
    AscendC::WaitFlag<AscendC::HardEvent::MTE3_MTE2>(EVENT_ID1);
    AscendC::LocalTensor<float> a(AscendC::TPosition::VECIN, 0, kBurst);
    AscendC::LocalTensor<float> b(AscendC::TPosition::VECIN, 1024, kRow);
    AscendC::DataCopy(a, g[2 * kRow], kBurst);  // a burst: written
    AscendC::DataCopy(b, g[3 * kRow], kRow);    // a row: its gap is not
    AscendC::SetFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
    AscendC::Adds(a, a, 1.0f, kBurst);
    AscendC::Adds(b, b, 1.0f, kRow);
    line = __LINE__ - 1;
  });
  ASSERT_EQ(r.failures.size(), 1u) << r.AllText();
  EXPECT_EQ(r.failures[0].check, "initcheck");
  // b's floats kBurst.. (UB bytes 1024 + 128 ..) came from the row's unwritten gap.
  const std::string want = "V Adds at strided_test.cpp:" + std::to_string(line) +
                           " reads UB bytes [1152, 2048) that a copy brought in";
  EXPECT_NE(r.failures[0].message.find(want), std::string::npos) << want << "\n" << r.AllText();
  san::GmMarkWritten(x.p, kRows * kRow * sizeof(float));
}

// Two blocks writing strided columns: their own columns are clean; one burst of block 0 that
// block 1 also writes, with other bytes, is a cross-block hazard at that burst's address.
TEST(Strided, CrossBlockOnOneBurst) {
  Gm x(kRows * kRow);
  auto kernel = [&](uint32_t column1, int differ_at_burst) {
    return Launch(2, [&] {
      const AscendC::GlobalTensor<float> g = Rows(x.p);
      const bool one = AscendC::GetBlockIdx() == 1;
      AscendC::LocalTensor<float> b(AscendC::TPosition::VECOUT, 4096, kRows * kBurst);
      AscendC::Duplicate(b, 1.0f, kRows * kBurst);
      if (one && differ_at_burst >= 0) {
        AscendC::Duplicate(b[static_cast<uint32_t>(differ_at_burst) * kBurst], 2.0f, kBurst);
      }
      AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
      AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
      AscendC::DataCopy(g[one ? column1 : 0], b,
                        AscendC::DataCopyParams(kRows, kBurstBlocks, 0, kGapBlocks));
    });
  };
  ExpectClean(kernel(kBurst, -1));  // interleaved columns
  ExpectClean(kernel(0, -1));       // the same bursts, the same bytes
  const Result r = kernel(0, 5);    // the same bursts, burst 5 differs
  ASSERT_EQ(r.failures.size(), 1u) << r.AllText();
  const std::string want = "the same 128 bytes (address " + Address(x.p + 5 * kRow) + ")";
  EXPECT_NE(r.failures[0].message.find("cross-block hazard on GM: block 0"), std::string::npos)
      << r.AllText();
  EXPECT_NE(r.failures[0].message.find(want), std::string::npos) << want << "\n" << r.AllText();
  const Result half = kernel(16, -1);  // overlapping halves of every burst
  ASSERT_EQ(half.failures.size(), 1u) << half.AllText();
  const std::string want_half = "the same 64 bytes (address " + Address(x.p + 16) + ")";
  EXPECT_NE(half.failures[0].message.find(want_half), std::string::npos) << want_half << "\n"
                                                                         << half.AllText();
}

// --- The records against the bursts one by one (random sets, exhaustive comparison). ----------

using san::Cell;
using san::Strided;

Strided RandomSet(std::mt19937& rng) {
  std::uniform_int_distribution<uint64_t> begin(0, 600), len(1, 40), gap(1, 60), count(1, 9);
  Strided s{begin(rng), len(rng), 0, count(rng)};
  s.pitch = s.count == 1 ? s.len : s.len + gap(rng);
  return s;
}

TEST(StridedRecords, FirstOverlapIsTheLowestMeetingOfTheBursts) {
  std::mt19937 rng(27);
  for (int n = 0; n < 20000; ++n) {
    const Strided a = RandomSet(rng);
    Strided b = RandomSet(rng);
    if (n % 3 == 0 && b.count > 1 && a.count > 1) b.pitch = a.pitch;  // the same-pitch path
    if (n % 3 == 0 && b.count > 1) b.len = std::min(b.len, b.pitch - 1);
    std::vector<uint8_t> in_a(2000), in_b(2000);
    for (uint64_t i = 0; i < a.count; ++i) std::fill_n(in_a.begin() + a.At(i), a.len, 1);
    for (uint64_t i = 0; i < b.count; ++i) std::fill_n(in_b.begin() + b.At(i), b.len, 1);
    uint64_t want_b = 0, want_e = 0;
    bool want = false;
    for (uint64_t x = 0; x < in_a.size(); ++x) {
      const bool both = in_a[x] != 0 && in_b[x] != 0;
      if (both && !want) want_b = x, want = true;
      if (want && !both) {
        want_e = x;
        break;
      }
    }
    uint64_t ob = 0, oe = 0;
    const bool got = san::FirstOverlap(a, b, &ob, &oe);
    ASSERT_EQ(got, want) << n;
    if (!got) continue;
    // The first meeting of two bursts; the bytes after it may belong to the next pair.
    ASSERT_EQ(ob, want_b) << n;
    ASSERT_LE(oe, want_e) << n;
    ASSERT_TRUE(oe == want_e || (in_a[oe] != 0 && in_b[oe] != 0)) << n;
  }
}

// Random reads and writes through GmShadow and through a ShadowMap burst by burst: the same Cell
// for every byte afterwards, and in each access the same Cells met, in the same order, first at
// the same bytes (the findings' dedup keeps the first).
TEST(StridedRecords, GmShadowIsTheBurstsOneByOne) {
  std::mt19937 rng(2027);
  for (int round = 0; round < 300; ++round) {
    san::GmShadow fast;
    san::ShadowMap slow;
    for (uint32_t step = 1; step <= 40; ++step) {
      Strided s = RandomSet(rng);
      if (step % 4 == 0 && round % 2 == 0) s = Strided{100, 16, 64, 5};  // repeated bursts
      const bool write = rng() % 2 == 0;
      using Met = std::vector<std::pair<Cell, std::pair<uint64_t, uint64_t>>>;
      auto visitor = [&](Met* met) {
        return [=](uint64_t sb, uint64_t se, Cell& c) {
          const bool seen =
              std::any_of(met->begin(), met->end(), [&](const auto& m) { return m.first == c; });
          if (!seen) met->push_back({c, {sb, se}});
          if (write) {
            c.write.epoch = step;
            c.reads[0] = {};
          } else {
            c.reads[0].epoch = step;
          }
        };
      };
      Met met_fast, met_slow;
      fast.Visit(s, visitor(&met_fast));
      for (uint64_t i = 0; i < s.count; ++i)
        slow.Visit(s.At(i), s.At(i) + s.len, visitor(&met_slow));
      ASSERT_EQ(met_fast.size(), met_slow.size()) << round << " " << step;
      for (size_t i = 0; i < met_fast.size(); ++i) {
        ASSERT_EQ(met_fast[i].first, met_slow[i].first) << round << " " << step;
        ASSERT_EQ(met_fast[i].second, met_slow[i].second) << round << " " << step;
      }
    }
    for (uint64_t x = 0; x < 2000; ++x) {
      Cell a{}, b{};
      fast.Visit(Strided{x, 1, 1, 1}, [&](uint64_t, uint64_t, Cell& c) { a = c; });
      slow.Visit(x, x + 1, [&](uint64_t, uint64_t, Cell& c) { b = c; });
      ASSERT_EQ(a, b) << round << " byte " << x;
    }
  }
}

}  // namespace
