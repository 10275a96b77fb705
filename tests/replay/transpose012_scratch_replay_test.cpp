// The NZ 012 types of ConfusionTranspose / Transpose (TRANSPOSE_NZ2NZ_012_WITH_N,
// TRANSPOSE_NZ2ND_012_WITH_N, TRANSPOSE_NZ2ND_012_WITHOUT_N, TRANSPOSE_NZ2NZ_012_WITHOUT_N) on
// Ascend910B1 (2201), Ascend310P1 (2002) and the 950 (which runs the same code) against the
// replay of the kit's sequences (replay_transpose012_scratch.h): dst with 40 elements past it,
// src and the whole scratch byte for byte, with a sharedTmpBuffer or the stack buffer (left at
// exactly the scratch's bytes), scratch sizes from the minimum (512 elements) to large and one
// not a multiple of 32, {B, N, S, H/N} with H/N below, at and above 16 and S with tails, half,
// float, int16_t, uint16_t, int32_t and uint32_t, random bits with NaN, infinities, zeros and
// subnormals.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "kernel_operator.h"
#include "replay_transpose012_scratch.h"
#include "scratch_ub_harness.h"
#include "transpose_scratch_call.h"
#include "tiling/tiling_api.h"
#include "../aicore/sanitizer_off.h"

namespace {

namespace rt = lngrad_replay::transpose012_scratch;
namespace st = lngrad_replay::scratch_test;
using AscendC::LocalTensor;
using AscendC::TransposeType;

constexpr uint32_t kPast = 40;

struct Dims {
  uint32_t b, n, s, hn;
};

// The element counts the tiling lays out: src (B * srcBatchOffset) and dst (B * dstBatchOffset).
struct Sizes {
  size_t src, dst;
};

template <class T>
bool Replay(TransposeType type, const AscendC::tiling::ConfusionTransposeTiling& t,
            const std::vector<T>& src, std::vector<T>& dst, std::vector<T>& tmp, Sizes* sz) {
  const uint32_t* p = &t.param0;
  rt::Buf<T> s{const_cast<T*>(src.data()), src.size()}, d{dst.data(), dst.size()},
      m{tmp.data(), tmp.size()};
  if (type == TransposeType::TRANSPOSE_NZ2NZ_012_WITH_N) {
    rt::TilingNz012N r{};
    std::memcpy(&r, p, sizeof(r));
    if (sz != nullptr)
      *sz = {size_t{r.shapeB} * r.srcBatchOffset, size_t{r.shapeB} * r.dstBatchOffset};
    return sz != nullptr || rt::ReplayNz012N<T>(r, s, d, m);
  }
  if (type == TransposeType::TRANSPOSE_NZ2ND_012_WITH_N) {
    rt::TilingNd012N r{};
    std::memcpy(&r, p, sizeof(r));
    if (sz != nullptr)
      *sz = {size_t{r.shapeB} * r.srcBatchOffset, size_t{r.shapeB} * r.dstBatchOffset};
    return sz != nullptr || rt::ReplayNd012N<T>(r, s, d, m);
  }
  rt::Tiling012 r{};
  std::memcpy(&r, p, sizeof(r));
  if (sz != nullptr)
    *sz = {size_t{r.shapeB} * r.srcBatchOffset, size_t{r.shapeB} * r.dstBatchOffset};
  return sz != nullptr ||
         rt::Replay012<T>(r, type == TransposeType::TRANSPOSE_NZ2ND_012_WITHOUT_N, s, d, m);
}

template <class T>
void Case(const char* soc, TransposeType type, const Dims& dm, uint32_t tmpBytes, bool stack,
          bool confusion) {
  const std::string what = std::string(st::TypeName<T>()) + " on " + soc + " type " +
                           std::to_string(static_cast<int>(type)) + " [" + std::to_string(dm.b) +
                           ", " + std::to_string(dm.n) + ", " + std::to_string(dm.s) + ", " +
                           std::to_string(dm.hn) + "] scratch " + std::to_string(tmpBytes) +
                           (stack ? " (stack)" : "") + (confusion ? "" : " (Transpose)");
  SCOPED_TRACE(what);
  AscendC::tiling::ConfusionTransposeTiling t;
  AscendC::GetTransposeTilingInfo(ge::Shape({dm.b, dm.n, dm.s, dm.hn}), tmpBytes, sizeof(T),
                                  static_cast<uint32_t>(type), t);
  std::vector<T> none;
  Sizes sz{};
  Replay<T>(type, t, none, none, none, &sz);
  const std::vector<T> src = st::RandomBits<T>(sz.src, dm.b * 1000 + dm.s * 31 + dm.hn + tmpBytes);
  const st::UbImages in = st::StartImages(st::BytesOf(src), (sz.dst + kPast) * sizeof(T), tmpBytes);
  std::vector<T> rdst = st::ValuesOf<T>(in.dst, sz.dst);
  std::vector<T> rtmp = st::ValuesOf<T>(in.tmp, tmpBytes / sizeof(T));
  ASSERT_TRUE(Replay<T>(type, t, src, rdst, rtmp, nullptr)) << "the replay left its buffers";
  st::UbImages want = in;
  st::PutValues(want.dst, rdst);
  st::PutValues(want.tmp, rtmp);
  const st::UbImages got = st::RunOnUb<T>(
      soc, in, stack,
      [&](LocalTensor<T>& d, LocalTensor<T>& s, LocalTensor<uint8_t>& tmp, bool on_stack) {
        st::CallTranspose(confusion, d, s, tmp, on_stack, type, t);
      });
  st::ExpectUbImages(got, want, 1, what);
}

// {B, N, S, H/N}: H/N below, at and above 16 (not multiples of 16 too), S with tails, H below
// 16, several batches.
const Dims kShapes[] = {{2, 3, 20, 10}, {1, 2, 33, 24}, {1, 3, 17, 5},  {1, 2, 16, 16},
                        {1, 2, 18, 40}, {2, 1, 20, 7},  {1, 4, 31, 32}, {1, 3, 17, 6},
                        {1, 1, 16, 16}, {3, 2, 50, 48}};

const TransposeType kTypes[] = {
    TransposeType::TRANSPOSE_NZ2NZ_012_WITH_N, TransposeType::TRANSPOSE_NZ2ND_012_WITH_N,
    TransposeType::TRANSPOSE_NZ2ND_012_WITHOUT_N, TransposeType::TRANSPOSE_NZ2NZ_012_WITHOUT_N};

template <class T>
void Sweep(const char* soc) {
  const uint32_t min = 512 * sizeof(T);
  for (const TransposeType type : kTypes) {
    for (const Dims& d : kShapes) {
      // The minimum, one not a multiple of 32, large.
      for (const uint32_t bytes : {min, min + 44, 8192u}) {
        for (const bool stack : {false, true}) {
          if (stack && bytes % 32 != 0) continue;
          Case<T>(soc, type, d, bytes, stack, bytes != min || !stack);
          if (::testing::Test::HasFatalFailure()) return;
        }
      }
    }
  }
}

const char* const kSocs[] = {"Ascend910B1", "Ascend310P1", "Ascend950PR_9589"};

TEST(Transpose012Scratch, HalfAndFloat) {
  for (const char* soc : kSocs) {
    Sweep<half>(soc);
    Sweep<float>(soc);
  }
}

TEST(Transpose012Scratch, OtherTwoAndFourByteTypes) {
  for (const char* soc : kSocs) {
    Sweep<int16_t>(soc);
    Sweep<uint16_t>(soc);
    Sweep<int32_t>(soc);
    Sweep<uint32_t>(soc);
  }
}

}  // namespace
