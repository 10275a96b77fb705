// The scratch of lngrad's tensor transforms on arch 2201 (Ascend910B1) and 2002 (Ascend310P1)
// against the replays of the kit's sequences (replay_transform_scratch.h): ConfusionTranspose /
// Transpose of the 0213 types (also on the 950, which runs the same 0213 code), UnPad on 2201,
// Pad of unaligned rows. Each case runs one block with src, dst (the elements the call writes
// plus 40 more, a sentinel) and a scratch of a given size filled with 0xa5, either a
// sharedTmpBuffer of its own or the stack buffer the overloads without it pop (the TPipe sized
// so that it leaves exactly those bytes); afterwards dst, src and the whole scratch are compared
// byte for byte with the replay's images.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "kernel_operator.h"
#include "replay_transform_scratch.h"
#include "scratch_ub_harness.h"
#include "transpose_scratch_call.h"
#include "tiling/tiling_api.h"
#include "../aicore/sanitizer_off.h"

namespace {

namespace rs = lngrad_replay::transform_scratch;
namespace st = lngrad_replay::scratch_test;
using AscendC::LocalTensor;
using AscendC::TransposeType;

constexpr uint32_t kPast = 40;  // dst elements past what the call writes

const char* const kSocs[] = {"Ascend910B1", "Ascend310P1"};

// One case's images before the call (`in`: src's bytes, dst of n + kPast elements, the scratch
// of tmpBytes) and the replay's dst and scratch as T values (which it starts from).
template <class T>
struct Want {
  st::UbImages in;
  std::vector<T> dst, tmp;
  Want(const std::vector<T>& src, size_t n, uint32_t tmpBytes)
      : in(st::StartImages(st::BytesOf(src), (n + kPast) * sizeof(T), tmpBytes)),
        dst(st::ValuesOf<T>(in.dst, n + kPast)),
        tmp(st::ValuesOf<T>(in.tmp, (tmpBytes + sizeof(T) - 1) / sizeof(T))) {}
  // The replay's images: src as before, dst and the scratch as the replay left them.
  st::UbImages Out() const {
    st::UbImages w = in;
    st::PutValues(w.dst, dst);
    st::PutValues(w.tmp, tmp);
    return w;
  }
};

// lngrad's images of one case (the call on one block of `soc`) against the replay's `want`.
template <class T, class Call>
void ExpectCall(const char* soc, const st::UbImages& in, const st::UbImages& want, bool stack,
                const std::string& what, const Call& call) {
  st::ExpectUbImages(st::RunOnUb<T>(soc, in, stack, call), want, 1, what);
}

// ----------------------------------------------------------------------------------------------
// ConfusionTranspose / Transpose, TRANSPOSE_NZ2ND_0213 and TRANSPOSE_NZ2NZ_0213.

template <class T>
void Case0213(const char* soc, TransposeType type, uint32_t b, uint32_t a1, uint32_t a2,
              uint32_t a3, uint32_t tmpBytes, bool stack, bool confusion) {
  const std::string what = std::string(st::TypeName<T>()) + " on " + soc + " type " +
                           std::to_string(static_cast<int>(type)) + " [" + std::to_string(b) +
                           ", " + std::to_string(a1) + ", " + std::to_string(a2) + ", " +
                           std::to_string(a3) + "] scratch " + std::to_string(tmpBytes) +
                           (stack ? " (stack)" : "") + (confusion ? "" : " (Transpose)");
  SCOPED_TRACE(what);
  const uint32_t al2 = (a2 + 15) / 16 * 16, al3 = (a3 + 15) / 16 * 16;
  const size_t n = size_t{b} * a1 * al2 * al3;
  const std::vector<T> src = st::RandomBits<T>(n, b * 1000 + a2 * 10 + a3);
  AscendC::tiling::ConfusionTransposeTiling t;
  AscendC::GetTransposeTilingInfo(ge::Shape({b, a1, a2, a3}), tmpBytes, sizeof(T),
                                  static_cast<uint32_t>(type), t);
  // The replay.
  rs::Tiling0213 rt{};
  static_assert(sizeof(rt) == 16 * sizeof(uint32_t));
  std::memcpy(&rt, &t, sizeof(rt));
  Want<T> w(src, n, tmpBytes);
  rs::Replay0213<T>(rt, type == TransposeType::TRANSPOSE_NZ2ND_0213, src.data(), w.dst.data(),
                    w.tmp.data());
  // lngrad.
  ExpectCall<T>(soc, w.in, w.Out(), stack, what,
                [&](LocalTensor<T>& d, LocalTensor<T>& s, LocalTensor<uint8_t>& tmp,
                    bool on_stack) { st::CallTranspose(confusion, d, s, tmp, on_stack, type, t); });
}

template <class T>
void Sweep0213(const char* soc) {
  struct Shape {
    uint32_t b, a1, a2, a3;
  };
  const Shape shapes[] = {{1, 1, 16, 16}, {2, 3, 20, 24}, {1, 2, 33, 16}, {2, 1, 70, 40}};
  for (const TransposeType type :
       {TransposeType::TRANSPOSE_NZ2ND_0213, TransposeType::TRANSPOSE_NZ2NZ_0213}) {
    for (const Shape& s : shapes) {
      const uint32_t al2 = (s.a2 + 15) / 16 * 16;
      const uint32_t min = 256 * sizeof(T), max = al2 * 16 * sizeof(T);
      // The minimum, one not a multiple of 32 (the tiling floors it to whole 16 x 16 cubes),
      // three cubes, the maximum (one pass a column block) and more (mainBlocks 0: the tail
      // alone, with gaps between its rows).
      for (const uint32_t bytes : {min, min + 44, 3 * min, max, max + 3 * min}) {
        for (const bool stack : {false, true}) {
          if (stack && bytes % 32 != 0) continue;
          Case0213<T>(soc, type, s.b, s.a1, s.a2, s.a3, bytes, stack, bytes % 64 == 0);
        }
      }
    }
  }
}

TEST(TransformScratch, ConfusionTranspose0213) {
  for (const char* soc : {"Ascend910B1", "Ascend310P1", "Ascend950PR_9589"}) {
    Sweep0213<half>(soc);
    Sweep0213<float>(soc);
    Sweep0213<int16_t>(soc);
    Sweep0213<uint32_t>(soc);
  }
}

// ----------------------------------------------------------------------------------------------
// UnPad on 2201: GatherMask alone; the scratch (either overload's) is left as it was. On 2002
// (on2002): the v200 sequence through tmp1 and tmp2, dst and the scratch.

template <class T>
void CaseUnPad(bool on2002, uint32_t h, uint32_t w, uint16_t right, uint32_t tmpBytes, bool stack) {
  const char* soc = on2002 ? "Ascend310P1" : "Ascend910B1";
  const std::string what = std::string(st::TypeName<T>()) + (on2002 ? " on 2002 [" : " [") +
                           std::to_string(h) + ", " + std::to_string(w) + "] rightPad " +
                           std::to_string(right) + " scratch " + std::to_string(tmpBytes) +
                           (stack ? " (stack)" : "");
  SCOPED_TRACE(what);
  const std::vector<T> src = st::RandomBits<T>(size_t{h} * w, h * (on2002 ? 31 : 100) + w + right);
  const size_t n = size_t{h} * (w - right);
  AscendC::tiling::UnPadTiling t;
  AscendC::UnPadTilingFunc(ge::Shape({h, w}), on2002 ? tmpBytes : 0, sizeof(T), t);
  Want<T> want(src, n, tmpBytes);
  if (on2002) {
    rs::UnPadTilingR rt{};
    static_assert(sizeof(rt) == sizeof(t));
    std::memcpy(&rt, &t, sizeof(rt));
    rs::ReplayUnPad2002<T>(rt, right, src.data(), want.dst.data(), want.tmp.data());
  } else {
    rs::ReplayUnPad2201<T>(h, w, right, src.data(), want.dst.data());
  }
  ExpectCall<T>(
      soc, want.in, want.Out(), stack, what,
      [&](LocalTensor<T>& d, LocalTensor<T>& s, LocalTensor<uint8_t>& tmp, bool on_stack) {
        AscendC::UnPadParams p(0, right);
        if (on_stack) {
          AscendC::UnPad(d, s, p, t);
        } else {
          AscendC::UnPad(d, s, p, tmp, t);
        }
      });
}

TEST(TransformScratch, UnPadOn2201LeavesTheScratch) {
  for (const uint32_t bytes : {32u, 1000u, 8192u}) {
    for (const bool stack : {false, true}) {
      if (stack && bytes % 32 != 0) continue;
      for (const uint32_t h : {1u, 3u, 17u}) {
        CaseUnPad<half>(false, h, 32, 5, bytes, stack);
        CaseUnPad<half>(false, h, 16, 15, bytes, stack);
        CaseUnPad<float>(false, h, 24, 7, bytes, stack);
        CaseUnPad<int16_t>(false, h, 48, 1, bytes, stack);
        CaseUnPad<uint32_t>(false, h, 8, 3, bytes, stack);
      }
    }
  }
}

// ----------------------------------------------------------------------------------------------
// Pad of unaligned rows on 2201 and 2002: dst and the tiling's two scratch regions.

template <class T>
void CasePad(const char* soc, uint32_t h, uint32_t w, uint16_t left, uint16_t right,
             uint32_t tmpBytes, bool stack) {
  const std::string what = std::string(st::TypeName<T>()) + " on " + soc + " [" +
                           std::to_string(h) + ", " + std::to_string(w) + "] pads " +
                           std::to_string(left) + ", " + std::to_string(right) + " scratch " +
                           std::to_string(tmpBytes) + (stack ? " (stack)" : "");
  SCOPED_TRACE(what);
  const std::vector<T> src = st::RandomBits<T>(size_t{h} * w, h * 7 + w * 3 + left);
  const size_t n = size_t{h} * (w + left + right);
  AscendC::tiling::PadTiling t;
  AscendC::PadTilingFunc(ge::Shape({h, w}), ge::Shape({h, w}), tmpBytes, sizeof(T), t);
  const int32_t padValue = sizeof(T) == 2 ? 0x7C01 : -7;
  rs::PadTilingR rt{};
  static_assert(sizeof(rt) == sizeof(t));
  std::memcpy(&rt, &t, sizeof(rt));
  Want<T> want(src, n, tmpBytes);
  rs::ReplayPadUnaligned<T>(rt, left, right, padValue, std::string(soc) == "Ascend910B1",
                            src.data(), want.dst.data(), want.tmp.data());
  ExpectCall<T>(
      soc, want.in, want.Out(), stack, what,
      [&](LocalTensor<T>& d, LocalTensor<T>& s, LocalTensor<uint8_t>& tmp, bool on_stack) {
        AscendC::PadParams p(left, right, padValue);
        if (on_stack) {
          AscendC::Pad(d, s, p, t);
        } else {
          AscendC::Pad(d, s, p, tmp, t);
        }
      });
}

struct PadShape {
  uint32_t h, w;
  uint16_t left, right;
};

template <class T>
void SweepPad(const char* soc, const std::vector<PadShape>& shapes) {
  const uint32_t min = 16 * 32 * 2;  // GetPadMaxMinTmpSize's minimum (one block of each region)
  for (const PadShape& p : shapes) {
    // The minimum, one not a multiple of 32 (the tiling floors it), three blocks of each
    // region (groups of 48 rows), eight (groups longer than the rows).
    for (const uint32_t bytes : {min, min + 44, 3 * min, 8 * min}) {
      for (const bool stack : {false, true}) {
        if (stack && bytes % 32 != 0) continue;
        CasePad<T>(soc, p.h, p.w, p.left, p.right, bytes, stack);
      }
    }
  }
}

// Rows whose width + leftPad + rightPad is the width rounded up to a block (the shapes whose
// last group the kit's widthFractalTailAlingned sizes right); element counts whose last Brcb
// chunk is no multiple of 8 (2201 then keeps the previous chunk's rows for its last elements).
TEST(TransformScratch, PadUnaligned) {
  for (const char* soc : kSocs) {
    SweepPad<float>(
        soc,
        {{5, 13, 1, 2}, {3, 5, 0, 3}, {17, 30, 1, 1}, {2, 100, 3, 1}, {1, 7, 0, 1}, {40, 9, 7, 0}});
    SweepPad<int32_t>(soc, {{5, 13, 1, 2}, {9, 62, 2, 0}});
    SweepPad<half>(soc,
                   {{5, 13, 1, 2}, {3, 30, 2, 0}, {17, 100, 5, 7}, {2, 1, 7, 8}, {33, 70, 0, 10}});
    SweepPad<uint16_t>(soc, {{4, 21, 11, 0}, {1, 3, 0, 13}});
  }
}

// ----------------------------------------------------------------------------------------------
// UnPad on 2002.

// Element counts h * (w - rightPad) whose last group (modulo 16 * tmpBuffer1BlockNum) is no
// multiple of 16 (half: its last elements are not copied out; float: one block of 8 past or
// short of it), rows longer than a group, one row.
TEST(TransformScratch, UnPadOn2002) {
  const uint32_t min = 16 * 32 * 2;  // GetUnPadMaxMinTmpSize's minimum on 2002
  for (const uint32_t bytes : {min, min + 44, 3 * min, 8 * min}) {
    for (const bool stack : {false, true}) {
      if (stack && bytes % 32 != 0) continue;
      for (const uint32_t h : {1u, 3u, 17u}) {
        CaseUnPad<half>(true, h, 32, 5, bytes, stack);
        CaseUnPad<half>(true, h, 16, 15, bytes, stack);
        CaseUnPad<half>(true, h, 80, 3, bytes, stack);
        CaseUnPad<float>(true, h, 24, 7, bytes, stack);
        CaseUnPad<float>(true, h, 8, 3, bytes, stack);
        CaseUnPad<float>(true, h, 40, 1, bytes, stack);
        CaseUnPad<int16_t>(true, h, 48, 1, bytes, stack);
        CaseUnPad<uint32_t>(true, h, 16, 6, bytes, stack);
      }
    }
  }
}

// ----------------------------------------------------------------------------------------------
// Broadcast<T, 2, 0> on 2201, 2- and 4-byte T: the zero block at the scratch's start.

template <class T>
void CaseBroadcast0(uint32_t rows, uint32_t cols, uint32_t tmpBytes, bool stack) {
  const std::string what = std::string(st::TypeName<T>()) + " Broadcast axis 0 [" +
                           std::to_string(rows) + ", " + std::to_string(cols) + "] scratch " +
                           std::to_string(tmpBytes) + (stack ? " (stack)" : "");
  SCOPED_TRACE(what);
  const std::vector<T> src = st::RandomBits<T>(cols, rows * 13 + cols);
  const size_t n = size_t{rows} * cols;
  Want<T> want(src, n, tmpBytes);
  rs::ReplayBroadcastFirstDim<T>(rows, cols, src.data(), want.dst.data(),
                                 reinterpret_cast<uint8_t*>(want.tmp.data()));
  const uint32_t dstShape[2] = {rows, cols}, srcShape[2] = {1, cols};
  ExpectCall<T>(
      "Ascend910B1", want.in, want.Out(), stack, what,
      [&](LocalTensor<T>& d, LocalTensor<T>& s, LocalTensor<uint8_t>& tmp, bool on_stack) {
        if (on_stack) {
          AscendC::Broadcast<T, 2, 0>(d, s, dstShape, srcShape);
        } else {
          AscendC::Broadcast<T, 2, 0>(d, s, dstShape, srcShape, tmp);
        }
      });
}

TEST(TransformScratch, BroadcastFirstDimOn2201) {
  for (const uint32_t bytes : {32u, 76u, 4096u}) {
    for (const bool stack : {false, true}) {
      if (stack && bytes % 32 != 0) continue;
      for (const uint32_t rows : {2u, 9u, 300u}) {
        CaseBroadcast0<half>(rows, 16, bytes, stack);
        if (rows < 10) CaseBroadcast0<half>(rows, 4096, bytes, stack);  // LoopBroadCast's rows
        CaseBroadcast0<float>(rows, 24, bytes, stack);
        CaseBroadcast0<int16_t>(rows, 48, bytes, stack);
        CaseBroadcast0<uint32_t>(rows, 8, bytes, stack);
      }
    }
  }
}

}  // namespace
