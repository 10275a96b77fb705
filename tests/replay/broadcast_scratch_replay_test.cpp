// Broadcast<T, dim, axis> on arch 2201 (Ascend910B1): dst, src and the whole scratch against the
// replay of the kit's sequence (replay_broadcast_scratch.h), byte for byte. Each case runs one
// block with src followed by 64 bytes of known filler (Brcb reads up to 7 elements past a chunk),
// dst (the elements the call writes plus 40 more, a sentinel) and a scratch of a given size
// filled with 0xa5, either a sharedTmpBuffer of its own or the stack buffer the overload without
// it pops (the TPipe sized so that it leaves exactly those bytes).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "kernel_operator.h"
#include "lngrad_aicore/launch.h"
#include "replay_broadcast_scratch.h"
#include "scratch_ub_harness.h"
#include "../aicore/sanitizer_off.h"

namespace {

namespace rb = lngrad_replay::broadcast_scratch;
namespace st = lngrad_replay::scratch_test;
using AscendC::LocalTensor;
using lngrad_replay::scratch_test::Aligned32;

constexpr uint32_t kPast = 40;          // dst elements past what the call writes
constexpr uint32_t kSrcPast = 64;       // bytes after src (known filler)
constexpr uint64_t kMaxBytes = 150000;  // dst and scratch bytes a case may take

uint32_t g_cases = 0;  // cases compared by the running test

// Random bytes, with NaN, +-inf, +-0 and subnormal patterns of the float types at the start.
std::vector<uint8_t> Bits(size_t bytes, uint32_t size, uint32_t seed) {
  std::mt19937 gen(seed);
  std::vector<uint8_t> v(bytes);
  for (uint8_t& b : v) b = static_cast<uint8_t>(gen());
  const uint32_t s2[] = {0x7E00, 0xFC00, 0x7C00, 0x8000, 0x0000, 0x0001, 0x83FF, 0x7C01};
  const uint32_t s4[] = {0x7FC00000, 0xFF800000, 0x7F800000, 0x80000000,
                         0x00000000, 0x00000001, 0x807FFFFF, 0x7F800001};
  for (size_t i = 0; size > 1 && i < 8 && (i + 1) * size <= bytes; ++i) {
    std::memcpy(v.data() + i * size, size == 2 ? &s2[i] : &s4[i], size);
  }
  return v;
}

// The element size the sequence works in (*ts: 1-byte T as halves) and the bytes of the half
// copies at the scratch's start (src and dst rounded up to 16 halves; none for other T).
uint32_t CastBytes(uint32_t size, uint64_t srcN, uint64_t dstN, uint32_t* ts) {
  *ts = size == 1 ? 2 : size;
  return size == 1 ? static_cast<uint32_t>(((srcN + 15) / 16 + (dstN + 15) / 16) * 16 * 2) : 0;
}

// GetBroadCastMaxMinTmpSize's minimum on 2201 (broadcast_tiling.cpp), from the shapes.
uint32_t MinBytes(uint32_t size, int axis, uint64_t srcN, uint64_t dstN, uint32_t cols) {
  uint32_t ts = 0;
  const uint32_t cast = CastBytes(size, srcN, dstN, &ts);
  if (srcN == dstN || srcN == 1) return size == 1 ? cast + 32 : 0;
  if (axis == 0) return 32 + cast;
  const uint32_t e = 32 / ts;
  if (cols % e == 0) return e * e * ts + cast;
  return e * e * ts + e * ((cols + e - 1) / e * e) * ts + cast;
}

// The scratch the 2002 sequence writes in whole (GetBroadCastMaxMinTmpSize's maximum there:
// the zero block, the half copies, rows * cols elements); smaller ones pass its end (chunks).
uint32_t FitBytes2002(uint32_t size, int axis, uint64_t srcN, uint64_t dstN) {
  uint32_t ts = 0;
  const uint32_t cast = CastBytes(size, srcN, dstN, &ts);
  if (srcN == dstN || srcN == 1) return size == 1 ? cast + 32 : 0;
  if (axis == 0) return 32 + cast;
  return static_cast<uint32_t>(32 + cast + dstN * ts);
}

// One case: the shapes, the scratch (the minimum plus `extra` bytes) and one overload; cases
// whose buffers would not fit the UB are skipped.
template <class T, int dim, int axis>
void Case(const uint32_t* dstShape, const uint32_t* srcShape, uint32_t extra, bool stack,
          bool on2002 = false) {
  uint64_t srcN = 1, dstN = 1;
  for (int i = 0; i < dim; ++i) {
    srcN *= srcShape[i];
    dstN *= dstShape[i];
  }
  const uint32_t cols = dim == 2 ? dstShape[1] : 1;
  const uint32_t base = on2002 ? FitBytes2002(sizeof(T), axis, srcN, dstN)
                               : MinBytes(sizeof(T), axis, srcN, dstN, cols);
  const uint32_t tmpBytes = base + extra;
  if (tmpBytes == 0 || (stack && tmpBytes % 32 != 0)) return;
  if ((dstN + srcN) * sizeof(T) + tmpBytes > kMaxBytes) return;
  std::string what = std::string(on2002 ? "2002 " : "2201 ") + st::TypeName<T>() + " dim " +
                     std::to_string(dim) + " axis " + std::to_string(axis) + " dst [" +
                     std::to_string(dstShape[0]);
  if (dim == 2) what += ", " + std::to_string(dstShape[1]);
  what += "] src [" + std::to_string(srcShape[0]);
  if (dim == 2) what += ", " + std::to_string(srcShape[1]);
  what += "] scratch " + std::to_string(tmpBytes) + (stack ? " (stack)" : "");
  SCOPED_TRACE(what);
  const std::vector<uint8_t> srcImage =
      Bits(srcN * sizeof(T) + kSrcPast, sizeof(T), static_cast<uint32_t>(dstN * 7 + extra));
  const st::UbImages in = st::StartImages(srcImage, (dstN + kPast) * sizeof(T), tmpBytes);
  st::UbImages want = in;
  const rb::Mem m{want.src.data(), want.dst.data(), want.tmp.data(), tmpBytes};
  if (on2002) {
    rb::Broadcast2002<sizeof(T)>(m, dim, axis, dstShape, srcShape, std::is_signed_v<T>);
  } else {
    rb::Broadcast2201<sizeof(T)>(m, dim, axis, dstShape, srcShape, std::is_signed_v<T>);
  }
  const st::UbImages got = st::RunOnUb<T>(
      on2002 ? "Ascend310P1" : "Ascend910B1", in, stack,
      [&](LocalTensor<T>& d, LocalTensor<T>& s, LocalTensor<uint8_t>& tmp, bool on_stack) {
        if (on_stack) {
          AscendC::Broadcast<T, dim, axis>(d, s, dstShape, srcShape);
        } else {
          AscendC::Broadcast<T, dim, axis>(d, s, dstShape, srcShape, tmp);
        }
      },
      srcN);
  ASSERT_TRUE(got.ran);
  ++g_cases;
  st::ExpectUbImages(got, want, 1, what);
}

const uint32_t kExtras[] = {0, 44, 4096, 40000};

// Axis 1 of every 2- and 4-byte type: rows below, at and past a Brcb repeat, past a chunk of the
// minimum scratch, a few thousand; columns of whole blocks and not (one column: equal sizes).
template <class T>
void LastDimCases() {
  constexpr uint32_t e = 32 / sizeof(T);
  const uint32_t rowsList[] = {1, 2, 7, 9, 16, 17, 300, 2001};
  const uint32_t colsList[] = {1, 3, e - 1, e, e + 1, 2 * e, 3 * e + 5, 10 * e};
  for (const uint32_t extra : kExtras) {
    for (const bool stack : {false, true}) {
      for (const uint32_t rows : rowsList) {
        for (const uint32_t cols : colsList) {
          const uint32_t dstShape[2] = {rows, cols}, srcShape[2] = {rows, 1};
          Case<T, 2, 1>(dstShape, srcShape, extra, stack);
        }
      }
    }
  }
}

TEST(BroadcastScratch2201, LastDimTwoAndFourByte) {
  g_cases = 0;
  LastDimCases<half>();
  LastDimCases<float>();
  LastDimCases<int16_t>();
  LastDimCases<uint32_t>();
  EXPECT_GT(g_cases, 1000u);
}

TEST(BroadcastScratch2201, LastDimOtherTwoAndFourByteTypes) {
  LastDimCases<bfloat16_t>();
  LastDimCases<uint16_t>();
  LastDimCases<int32_t>();
}

// 1-byte T: the half copies at the scratch's start, then the half sequence behind them: every
// path (equal sizes, one src element, axis 0, axis 1 aligned and not), dim 1 and 2.
template <class T>
void OneByteCases() {
  for (const uint32_t extra : kExtras) {
    for (const bool stack : {false, true}) {
      for (const uint32_t rows : {1u, 2u, 7u, 9u, 17u, 300u, 1001u}) {
        for (const uint32_t cols : {1u, 3u, 15u, 16u, 17u, 32u, 45u, 64u}) {
          const uint32_t dstShape[2] = {rows, cols}, lastSrc[2] = {rows, 1};
          Case<T, 2, 1>(dstShape, lastSrc, extra, stack);
          if (cols % 32 == 0) {
            const uint32_t firstSrc[2] = {1, cols};
            Case<T, 2, 0>(dstShape, firstSrc, extra, stack);
          }
          const uint32_t one[2] = {1, 1};
          if (rows == 9) Case<T, 2, 1>(dstShape, one, extra, stack);
          if (rows == 9) Case<T, 2, 0>(dstShape, dstShape, extra, stack);
        }
        const uint32_t d1[1] = {rows}, s1[1] = {1};
        Case<T, 1, 0>(d1, s1, extra, stack);
        Case<T, 1, 0>(d1, d1, extra, stack);
      }
    }
  }
}

TEST(BroadcastScratch2201, OneByte) {
  OneByteCases<int8_t>();
  OneByteCases<uint8_t>();
}

// 2- and 4-byte T on the paths that do not use the scratch (equal sizes, one src element, dim 1)
// and axis 0 (the zero block): the scratch as before but those bytes.
template <class T>
void OtherPathCases() {
  for (const uint32_t extra : {0u, 44u, 4096u}) {
    for (const bool stack : {false, true}) {
      for (const uint32_t rows : {1u, 9u, 300u}) {
        const uint32_t d1[1] = {rows}, s1[1] = {1};
        Case<T, 1, 0>(d1, s1, extra + 32, stack);
        Case<T, 1, 0>(d1, d1, extra + 32, stack);
        const uint32_t dstShape[2] = {rows, 64}, one[2] = {1, 1}, firstSrc[2] = {1, 64};
        Case<T, 2, 1>(dstShape, one, extra + 32, stack);
        Case<T, 2, 0>(dstShape, dstShape, extra + 32, stack);
        Case<T, 2, 0>(dstShape, firstSrc, extra, stack);
      }
    }
  }
}

TEST(BroadcastScratch2201, OtherPaths) {
  OtherPathCases<half>();
  OtherPathCases<float>();
  OtherPathCases<int16_t>();
  OtherPathCases<uint32_t>();
}

// ---- arch 2002 (Ascend310P1) ----

// Axis 1, rows of whole blocks (the kit asserts them there): one chunk (the scratch holds the
// whole matrix, or more), LoopBroadCast's rows (>= 255 blocks' worth); axis 0; equal sizes of
// whole blocks; one src element (dim 1); every type.
template <class T>
void Cases2002() {
  constexpr uint32_t e = 32 / sizeof(T) < 16 ? 32 / sizeof(T) : 16;  // 1-byte: the half stage
  const uint32_t r32 = 32 / sizeof(T);  // srcShape[0] * sizeof(T) a multiple of 32
  for (const uint32_t extra : {0u, 44u, 4096u}) {
    for (const bool stack : {false, true}) {
      for (const uint32_t rows : {r32, 2 * r32, 5 * r32}) {
        for (const uint32_t cols : {1u, 3u, 8u, 9u, 17u, 64u}) {
          const uint32_t d[2] = {rows, cols}, s1[2] = {rows, 1}, s0[2] = {1, cols};
          Case<T, 2, 1>(d, s1, extra, stack, true);
          if (cols * sizeof(T) % 32 == 0) Case<T, 2, 0>(d, s0, extra, stack, true);
        }
      }
      const uint32_t loopRows = (255 * e + r32 - 1) / r32 * r32;
      const uint32_t d[2] = {loopRows, 3}, s1[2] = {loopRows, 1};
      Case<T, 2, 1>(d, s1, extra, stack, true);
      // (dim 2 with one src element: the kit's checks refuse either axis there)
      const uint32_t eq[2] = {3 * r32, 5}, d1[1] = {7 * r32}, o1[1] = {1};
      Case<T, 2, 1>(eq, eq, extra + 32, stack, true);
      Case<T, 1, 0>(d1, d1, extra + 32, stack, true);
      Case<T, 1, 0>(d1, o1, extra + 32, stack, true);
    }
  }
}

TEST(BroadcastScratch2002, EveryPathAndType) {
  g_cases = 0;
  Cases2002<half>();
  Cases2002<float>();
  Cases2002<int16_t>();
  Cases2002<uint32_t>();
  Cases2002<int8_t>();
  Cases2002<uint8_t>();
  Cases2002<bfloat16_t>();
  EXPECT_GT(g_cases, 500u);
}

// What checked mode refuses on 2002 (the kit's assertions there, and a sequence that writes
// past the scratch): the message of the refused launch.
template <class T, int dim, int axis>
std::string Refusal(const uint32_t* dstShape, const uint32_t* srcShape, uint32_t tmpBytes) {
  lngrad::aicore::LaunchOptions opts;
  opts.soc = "Ascend310P1";
  opts.sequential = true;
  const auto kernel = [&] {
    AscendC::TPipe pipe;
    AscendC::TBuf<> bs, bd, bt;
    pipe.InitBuffer(bs, 8192);
    pipe.InitBuffer(bd, 65536);
    pipe.InitBuffer(bt, Aligned32(tmpBytes));
    LocalTensor<uint8_t> tmp = bt.Get<uint8_t>(tmpBytes);
    AscendC::Broadcast<T, dim, axis>(bd.Get<T>(), bs.Get<T>(), dstShape, srcShape, tmp);
  };
  const lngrad::Status st = lngrad::aicore::Launch(1, kernel, opts);
  return st.ok() ? std::string("(not refused)") : st.ToString();
}

TEST(BroadcastScratch2002, CheckedModeRefusesWhatTheKitAsserts) {
  const bool was = lngrad::aicore::CheckedMode();
  lngrad::aicore::SetCheckedMode(true);
  const auto expect = [](const std::string& got, const std::string& needle) {
    EXPECT_NE(got.find("transform_params"), std::string::npos) << got;
    EXPECT_NE(got.find(needle), std::string::npos) << got;
  };
  const uint32_t d9[2] = {9, 16}, s9[2] = {9, 1};  // 9 halves: rows not whole blocks
  expect(Refusal<half, 2, 1>(d9, s9, 4096), "srcShape[0] * sizeof(T)");
  const uint32_t e13[1] = {13};  // 13 floats: DataCopy would copy 8
  expect(Refusal<float, 1, 0>(e13, e13, 64), "whole 32-byte blocks");
  const uint32_t e24[1] = {24};  // int8_t: the half copies, 24 halves
  expect(Refusal<int8_t, 1, 0>(e24, e24, 256), "whole 32-byte blocks");
  // [32, 8] half: the tiling's minimum (32 + 16 * 1 * 2 bytes) fails the kit's assertion;
  // 32 + 64 bytes passes it and runs chunks of 32 rows, whose [8, 32] matrix (512 bytes)
  // passes the scratch's end.
  const uint32_t d32[2] = {32, 8}, s32[2] = {32, 1};
  expect(Refusal<half, 2, 1>(d32, s32, 64), "divisor");
  expect(Refusal<half, 2, 1>(d32, s32, 96), "past the");
  EXPECT_EQ((Refusal<half, 2, 1>(d32, s32, 32 + 512)), "(not refused)");
  lngrad::aicore::SetCheckedMode(was);
}

// Unchecked, lngrad writes the device's dst where the kit only asserts: equal sizes copy whole
// blocks (DataCopy rounds down), unaligned axis-1 rows write no dst (a log), the zero block
// still at the scratch's start.
TEST(BroadcastScratch2002, UncheckedDstIsTheDevices) {
  const bool was = lngrad::aicore::CheckedMode();
  lngrad::aicore::SetCheckedMode(false);
  g_cases = 0;
  const uint32_t e13[1] = {13}, e5[2] = {3, 5}, d9[2] = {9, 16}, s9[2] = {9, 1};
  const uint32_t d3[2] = {3, 8}, s3[2] = {3, 1};
  for (const bool stack : {false, true}) {
    Case<float, 1, 0>(e13, e13, 64, stack, true);
    Case<half, 2, 1>(e5, e5, 64, stack, true);
    Case<int16_t, 2, 0>(e5, e5, 64, stack, true);
    Case<half, 2, 1>(d9, s9, 4096, stack, true);
    Case<float, 2, 1>(d3, s3, 4096, stack, true);
  }
  EXPECT_EQ(g_cases, 10u);
  lngrad::aicore::SetCheckedMode(was);
}

}  // namespace
