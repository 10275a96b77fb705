// What AscendQuant leaves in its scratch on arch 2201 (Ascend910B1) and 2002 (Ascend310P1)
// against the replay of the kit's loops (replay_quant_scratch.h): per tensor and per channel
// (scalar offset, offset tensor), half and float, the sharedTmpBuffer overloads and those that
// pop the stack buffer (the TPipe sized so that it leaves exactly the scratch's bytes), scratch
// sizes from the minimum to larger than the count (one not a multiple of 32), counts with tails
// that are no multiple of the chunk, and the static AscendQuantConfig forms (the chunk from
// workLocalSize). Compared bit for bit after the call: the whole scratch (bytes the kit does not
// write keep their 0xa5 fill), dst with 40 bytes past the count, the source, the scale and offset
// tensors (a float one holds its halves in its first bytes afterwards).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <utility>
#include <type_traits>
#include <vector>

#include "../aicore/checked_mode_scope.h"
#include "../aicore/repeat_test_util.h"
#include "kernel_operator.h"
#include "lngrad_aicore/launch.h"
#include "math_replay_test_util.h"
#include "replay_quant_scratch.h"
#include "scratch_test_util.h"
#include "../aicore/sanitizer_off.h"

namespace {

namespace qs = lngrad_replay::qscr;
using AscendC::AscendQuantConfig;
using AscendC::LocalTensor;
using lngrad_replay::scratch_test::Aligned32;
using lngrad_replay::test::kInf;
using lngrad_replay::test::kNan;

constexpr uint8_t kFill = 0xa5;
constexpr int8_t kSentinel = 0x5a;
constexpr uint32_t kPast = 40;
constexpr uint32_t kMinTmp = 512;  // GetAscendQuantMaxMinTmpSize's minimum
const char* const kSocs[] = {"Ascend910B1", "Ascend310P1"};

// The operands of one call (T's bytes) and the call itself on the kernel's tensors.
template <class T>
using Call = std::function<void(const LocalTensor<int8_t>& dst, const LocalTensor<T>& src,
                                const LocalTensor<uint8_t>& tmp, const LocalTensor<T>& scale,
                                const LocalTensor<T>& offset, bool stack)>;

// One block of soc running `call`; returns the bytes of every operand after it.
template <class T>
qs::QuantMem RunKernel(const char* soc, const qs::QuantMem& in, uint32_t dstCount, bool stack,
                       const Call<T>& call) {
  qs::QuantMem g;
  lngrad::aicore::LaunchOptions opts;
  opts.soc = soc;
  const uint32_t tmpBytes = static_cast<uint32_t>(in.tmp.size());
  const auto kernel = [&] {
    AscendC::TPipe pipe;
    AscendC::TBuf<> bs, bd, bsc, bof, bt, filler;
    const auto bytes = [](size_t n) {
      return Aligned32(static_cast<uint32_t>(std::max<size_t>(n, 32)));
    };
    pipe.InitBuffer(bs, bytes(in.src.size()));
    pipe.InitBuffer(bd, bytes(dstCount));
    pipe.InitBuffer(bsc, bytes(in.scale.size()));
    pipe.InitBuffer(bof, bytes(in.offset.size()));
    LocalTensor<uint8_t> tmp;
    lngrad_replay::scratch_test::TakeScratch(pipe, bt, filler, stack, tmpBytes, &tmp);
    if (::testing::Test::HasFatalFailure()) return;
    const auto put = [](AscendC::TBuf<>& b, const std::vector<uint8_t>& v) {
      LocalTensor<uint8_t> t = b.Get<uint8_t>();
      if (!v.empty()) std::memcpy(t.HostPtr(), v.data(), v.size());
      return t;
    };
    put(bs, in.src);
    put(bsc, in.scale);
    put(bof, in.offset);
    LocalTensor<int8_t> d = bd.Get<int8_t>(dstCount);
    std::fill(d.HostPtr(), d.HostPtr() + dstCount, kSentinel);
    std::fill(tmp.HostPtr(), tmp.HostPtr() + tmpBytes, kFill);
    const auto n = [](size_t b) {
      return static_cast<uint32_t>(std::max<size_t>(b, 32) / sizeof(T));
    };
    call(d, bs.Get<T>(n(in.src.size())), tmp, bsc.Get<T>(n(in.scale.size())),
         bof.Get<T>(n(in.offset.size())), stack);
    const auto take = [](AscendC::TBuf<>& b, size_t n) {
      const uint8_t* p = b.Get<uint8_t>().HostPtr();
      return std::vector<uint8_t>(p, p + n);
    };
    g.src = take(bs, in.src.size());
    g.scale = take(bsc, in.scale.size());
    g.offset = take(bof, in.offset.size());
    g.dst.assign(d.HostPtr(), d.HostPtr() + dstCount);
    if (stack) {
      ASSERT_TRUE((AscendC::PopStackBuffer<uint8_t, AscendC::TPosition::VECCALC>(tmp)));
    }
    g.tmp.assign(tmp.HostPtr(), tmp.HostPtr() + tmpBytes);
  };
  const lngrad::Status st = lngrad::aicore::Launch(1, kernel, opts);
  EXPECT_TRUE(st.ok()) << st.ToString();
  return g;
}

// The first byte where got and want differ, or "".
template <class V>
std::string FirstDiff(const V& got, const V& want) {
  if (got.size() != want.size()) return "sizes differ";
  for (size_t i = 0; i < got.size(); ++i) {
    if (got[i] != want[i]) {
      return "byte " + std::to_string(i) + " of " + std::to_string(got.size()) + ": lngrad " +
             std::to_string(int{static_cast<uint8_t>(got[i])}) + ", replay " +
             std::to_string(int{static_cast<uint8_t>(want[i])});
    }
  }
  return "";
}

void ExpectSame(const qs::QuantMem& got, const qs::QuantMem& want, const std::string& what) {
  EXPECT_EQ(FirstDiff(got.dst, want.dst), "") << what << " dst";
  EXPECT_EQ(FirstDiff(got.tmp, want.tmp), "") << what << " scratch";
  EXPECT_EQ(FirstDiff(got.src, want.src), "") << what << " src";
  EXPECT_EQ(FirstDiff(got.scale, want.scale), "") << what << " scaleTensor";
  EXPECT_EQ(FirstDiff(got.offset, want.offset), "") << what << " offsetTensor";
}

// n values of T in [-range, range] with NaN, +-inf, +-0, subnormals and out-of-range values
// at random places (about one in 12), as bytes.
template <class T>
std::vector<uint8_t> Bytes(uint32_t seed, uint32_t n, float range) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> u(-range, range);
  std::uniform_int_distribution<int> pick(0, 119);
  const float sp[] = {0.0f, -0.0f, kInf, -kInf, kNan, 1e-40f, -3e-6f, 6e-8f, 1e5f, -7e4f};
  std::vector<uint8_t> b(size_t{n} * sizeof(T));
  for (uint32_t i = 0; i < n; ++i) {
    const int k = pick(gen);
    const T v = T(k < 10 ? sp[k] : u(gen));
    std::memcpy(&b[size_t{i} * sizeof(T)], &v, sizeof(T));
  }
  return b;
}

template <class T>
std::string Name(const char* soc, const qs::QuantCall& c, bool stack) {
  return std::string(sizeof(T) == 2 ? "<half>" : "<float>") + " on " + soc + ", count " +
         std::to_string(c.calCount) + ", scaleCount " + std::to_string(c.scaleCount) +
         ", scratch " + std::to_string(c.tmpBytes) + (stack ? " (stack)" : " (sharedTmpBuffer)");
}

// Per tensor: lngrad's call against ReplayQuantPerTensor.
template <class T, const AscendQuantConfig& cfg = AscendC::ASCEND_QUANT_DEFAULT_CFG>
void PerTensorWith(const char* soc, uint32_t n, uint32_t tmpBytes, bool stack, uint32_t seed,
                   float scale, float offset) {
  qs::QuantCall c{
      std::is_same_v<T, half>, n, 0, tmpBytes, cfg.calcCount, cfg.offsetCount, cfg.scaleCount,
      cfg.workLocalSize};
  const uint32_t count = cfg.calcCount != 0 && cfg.workLocalSize != 0 ? cfg.calcCount : n;
  qs::QuantMem in;
  in.src = Bytes<T>(seed, std::max(n, count), 180.0f);
  in.tmp.assign(tmpBytes, kFill);
  qs::QuantMem want = in;
  want.dst.assign(count + kPast, kSentinel);
  ASSERT_TRUE(qs::ReplayQuantPerTensor(c, scale, offset, want));
  const qs::QuantMem got = RunKernel<T>(
      soc, in, count + kPast, stack,
      [&](const LocalTensor<int8_t>& d, const LocalTensor<T>& s, const LocalTensor<uint8_t>& t,
          const LocalTensor<T>&, const LocalTensor<T>&, bool st) {
        st ? AscendC::AscendQuant<T, false, cfg>(d, s, scale, offset, n)
           : AscendC::AscendQuant<T, false, cfg>(d, s, t, scale, offset, n);
      });
  ExpectSame(got, want,
             "AscendQuant per tensor, scale " + std::to_string(scale) + ", offset " +
                 std::to_string(offset) + Name<T>(soc, c, stack));
}

template <class T, const AscendQuantConfig& cfg = AscendC::ASCEND_QUANT_DEFAULT_CFG>
void PerTensor(const char* soc, uint32_t n, uint32_t tmpBytes, bool stack, uint32_t seed) {
  PerTensorWith<T, cfg>(soc, n, tmpBytes, stack, seed, seed % 2 ? 0.3f : -2.0f,
                        seed % 3 ? 1.25f : -0.7f);
}

// Per channel: scalar offset (withOffsetTensor false) or offset tensor.
template <class T, const AscendQuantConfig& cfg = AscendC::ASCEND_QUANT_DEFAULT_CFG>
void PerChannel(const char* soc, uint32_t sc, uint32_t rows, uint32_t tmpBytes, bool stack,
                bool withOffsetTensor, uint32_t seed, float offScalar = 0.0f) {
  const uint32_t n = sc * rows;
  qs::QuantCall c{
      std::is_same_v<T, half>, n, sc, tmpBytes, cfg.calcCount, cfg.offsetCount, cfg.scaleCount,
      cfg.workLocalSize};
  if (offScalar == 0.0f) offScalar = seed % 2 ? 0.625f : -3.5f;
  // With config.scaleCount and workLocalSize set but calcCount 0 the rows step by sc and run
  // config.scaleCount elements: the tensors hold that many, the last row reaches `ext`.
  const uint32_t rowLen =
      cfg.calcCount == 0 && cfg.scaleCount != 0 && cfg.workLocalSize != 0 ? cfg.scaleCount : sc;
  const uint32_t ext = std::max(n, rows == 0 ? 0 : (rows - 1) * sc + rowLen);
  const uint32_t params = std::max(sc, rowLen);
  qs::QuantMem in;
  in.src = Bytes<T>(seed, ext, 150.0f);
  in.scale = Bytes<T>(seed + 1, params, 3.0f);
  if (withOffsetTensor) in.offset = Bytes<T>(seed + 2, params, 4.0f);
  in.tmp.assign(tmpBytes, kFill);
  qs::QuantMem want = in;
  want.dst.assign(ext + kPast, kSentinel);
  ASSERT_TRUE(qs::ReplayQuantPerChannel(c, offScalar, want));
  const qs::QuantMem got = RunKernel<T>(
      soc, in, ext + kPast, stack,
      [&](const LocalTensor<int8_t>& d, const LocalTensor<T>& s, const LocalTensor<uint8_t>& t,
          const LocalTensor<T>& scl, const LocalTensor<T>& off, bool st) {
        if (withOffsetTensor) {
          st ? AscendC::AscendQuant<T, false, cfg>(d, s, scl, off, sc, sc, n)
             : AscendC::AscendQuant<T, false, cfg>(d, s, t, scl, off, sc, sc, n);
        } else {
          st ? AscendC::AscendQuant<T, false, cfg>(d, s, scl, T(offScalar), sc, n)
             : AscendC::AscendQuant<T, false, cfg>(d, s, t, scl, T(offScalar), sc, n);
        }
      });
  ExpectSame(got, want,
             std::string("AscendQuant per channel") +
                 (withOffsetTensor ? " (offset tensor)" : ", offset " + std::to_string(offScalar)) +
                 Name<T>(soc, c, stack));
}

// Scratch sizes: the minimum, one block more, a size no multiple of 32 (sharedTmpBuffer only),
// and larger ones (one chunk for the smaller counts).
std::vector<uint32_t> Sizes(bool stack) {
  std::vector<uint32_t> v = {kMinTmp, kMinTmp + 32, 1600, 8192};
  if (!stack) v.push_back(kMinTmp + 44);
  return v;
}

TEST(QuantScratchReplay, PerTensorEveryScratchAndCount) {
  uint32_t seed = 7;
  for (const char* soc : kSocs) {
    for (bool stack : {false, true}) {
      for (uint32_t tmp : Sizes(stack)) {
        for (uint32_t n : {0u, 1u, 37u, 255u, 257u, 1000u, 1537u, 4099u}) {
          PerTensor<float>(soc, n, tmp, stack, ++seed);
          PerTensor<half>(soc, n, tmp, stack, ++seed);
        }
      }
    }
  }
}

TEST(QuantScratchReplay, PerChannelEveryScratchAndCount) {
  uint32_t seed = 99;
  const uint32_t shapes[][2] = {{32, 1}, {64, 3}, {96, 7}, {320, 5}, {1024, 3}, {2080, 2}};
  for (const char* soc : kSocs) {
    for (bool stack : {false, true}) {
      for (uint32_t tmp : Sizes(stack)) {
        for (const auto& sh : shapes) {
          for (bool offT : {false, true}) {
            PerChannel<float>(soc, sh[0], sh[1], tmp, stack, offT, ++seed);
            PerChannel<half>(soc, sh[0], sh[1], tmp, stack, offT, ++seed);
          }
        }
      }
    }
  }
}

// The static configs: per tensor, calcCount 1000 in chunks of workLocalSize 544 (256 halves);
// per channel, rows of config.scaleCount in chunks of workLocalSize 704 (352 halves), or (no
// workLocalSize) of the scratch's size.
constexpr AscendQuantConfig kPerTensorCfg = {1000, 0, 0, 544};
constexpr AscendQuantConfig kPerChannelCfg = {3072, 1024, 1024, 704};
constexpr AscendQuantConfig kPerChannelNoWorkCfg = {640, 64, 64, 0};

TEST(QuantScratchReplay, StaticConfigsChunkByWorkLocalSize) {
  uint32_t seed = 555;
  for (const char* soc : kSocs) {
    for (bool stack : {false, true}) {
      for (uint32_t tmp : {1024u, 4096u}) {
        PerTensor<float, kPerTensorCfg>(soc, 1000, tmp, stack, ++seed);
        PerTensor<half, kPerTensorCfg>(soc, 1000, tmp, stack, ++seed);
        for (bool offT : {false, true}) {
          PerChannel<float, kPerChannelCfg>(soc, 1024, 3, tmp, stack, offT, ++seed);
          PerChannel<half, kPerChannelCfg>(soc, 1024, 3, tmp, stack, offT, ++seed);
          PerChannel<float, kPerChannelNoWorkCfg>(soc, 64, 10, tmp, stack, offT, ++seed);
          PerChannel<half, kPerChannelNoWorkCfg>(soc, 64, 10, tmp, stack, offT, ++seed);
        }
      }
    }
  }
}

// Checked mode refuses what the kit's IsQuantValid / IsQuantConfigValid and splitSize asserts
// refuse: config.workLocalSize past sharedTmpBuffer, or below one 32-half block where it sizes
// the chunks (per tensor; per channel with config.scaleCount set), and per channel a
// config.scaleCount that is no multiple of 32.
constexpr AscendQuantConfig kWork2048 = {1000, 0, 0, 2048};
constexpr AscendQuantConfig kWork62 = {1000, 0, 0, 62};
constexpr AscendQuantConfig kChannelWork62 = {128, 64, 64, 62};
constexpr AscendQuantConfig kChannelScale48 = {96, 48, 48, 0};
template <const AscendQuantConfig& cfg>
std::pair<std::string, std::string> RunWithConfig(uint32_t tmpBytes, bool perChannel) {
  lngrad::aicore::test::CheckedModeScope checked(true);
  return lngrad::aicore::test::CheckOf(
      [&](lngrad::aicore::test::Ub& ub) {
        LocalTensor<uint8_t> tmp = ub.Get<uint8_t>(3);
        tmp.SetSize(tmpBytes);
        if (perChannel) {
          AscendC::AscendQuant<half, false, cfg>(ub.Get<int8_t>(0), ub.Get<half>(1), tmp,
                                                 ub.Get<half>(2), half(0.5f), 64, 128);
        } else {
          AscendC::AscendQuant<half, false, cfg>(ub.Get<int8_t>(0), ub.Get<half>(1), tmp, 2.0f,
                                                 0.5f, 1000);
        }
      },
      "Ascend910B1");
}

TEST(QuantScratchReplay, CheckedModeRefusesWorkLocalSizeTheKitAsserts) {
  EXPECT_EQ(RunWithConfig<kWork2048>(2048, false).first, "");
  auto r = RunWithConfig<kWork2048>(1024, false);
  EXPECT_EQ(r.first, "quant_filter_arg") << r.second;
  EXPECT_NE(r.second.find("config.workLocalSize 2048 must not exceed"), std::string::npos)
      << r.second;
  r = RunWithConfig<kWork62>(1024, false);
  EXPECT_EQ(r.first, "quant_filter_arg") << r.second;
  EXPECT_NE(r.second.find("splitSize of 0"), std::string::npos) << r.second;
  r = RunWithConfig<kChannelWork62>(1024, true);
  EXPECT_EQ(r.first, "quant_filter_arg") << r.second;
  EXPECT_NE(r.second.find("splitSize of 0"), std::string::npos) << r.second;
  r = RunWithConfig<kChannelScale48>(1024, true);
  EXPECT_EQ(r.first, "quant_filter_arg") << r.second;
  EXPECT_NE(r.second.find("config.scaleCount 48 must be a multiple of 32"), std::string::npos)
      << r.second;
}

// The scalars past half's range: the kit converts scale and offset with
// static_cast<half> (nearest even: 65519 -> 65504, 65520 and past -> +-inf), not with the
// Cast's saturation; so does the per-channel scalar offset of a float call. The scratch holds
// the halves (inf, or NaN from 0 * inf and inf - inf), dst the int8 of them.
TEST(QuantScratchReplay, ScalarsPastHalfRangeConvertAsStaticCast) {
  uint32_t seed = 4242;
  const float big[][2] = {{7e4f, 0.5f},  {-1e5f, 1.0f},      {65520.0f, 0.0f}, {65519.0f, -2.0f},
                          {1e-3f, 7e4f}, {0.25f, -65520.0f}, {-3e38f, 1e6f},   {2.0f, 65519.0f}};
  for (const char* soc : kSocs) {
    for (bool stack : {false, true}) {
      for (const auto& so : big) {
        PerTensorWith<float>(soc, 300, kMinTmp, stack, ++seed, so[0], so[1]);
        PerTensorWith<half>(soc, 300, kMinTmp, stack, ++seed, so[0], so[1]);
      }
      for (float off : {7e4f, -65520.0f, 65519.0f, -1e9f}) {
        PerChannel<float>(soc, 64, 3, kMinTmp, stack, false, ++seed, off);
      }
    }
  }
}

// config.scaleCount and workLocalSize set, config.calcCount 0: AscendQuantCalc steps the
// rows by the runtime scaleCount, AscendQuantPerChannelImpl runs config.scaleCount elements in
// each (chunks of workLocalSize): rows shorter than the step leave gaps in dst, longer ones
// overlap (the later row wins) and the last runs past calCount.
constexpr AscendQuantConfig kRows64 = {0, 64, 64, 96};
constexpr AscendQuantConfig kRows160 = {0, 160, 160, 256};
TEST(QuantScratchReplay, ConfigScaleCountRowsWithoutCalcCount) {
  uint32_t seed = 9191;
  for (const char* soc : kSocs) {
    for (bool stack : {false, true}) {
      for (uint32_t tmp : {kMinTmp, 1600u}) {
        for (bool offT : {false, true}) {
          PerChannel<float, kRows64>(soc, 96, 3, tmp, stack, offT, ++seed);  // gaps
          PerChannel<half, kRows64>(soc, 96, 3, tmp, stack, offT, ++seed);
          PerChannel<float, kRows64>(soc, 32, 5, tmp, stack, offT, ++seed);  // overlap
          PerChannel<half, kRows64>(soc, 32, 5, tmp, stack, offT, ++seed);
          PerChannel<float, kRows160>(soc, 64, 4, tmp, stack, offT, ++seed);  // overlap
          PerChannel<half, kRows160>(soc, 64, 4, tmp, stack, offT, ++seed);
          PerChannel<half, kRows160>(soc, 160, 2, tmp, stack, offT, ++seed);  // the rows
        }
      }
    }
  }
}

// Checked mode: the last row of config.scaleCount elements must lie within src and dst.
TEST(QuantScratchReplay, CheckedModeRefusesRowsPastTheTensors) {
  lngrad::aicore::test::CheckedModeScope checked(true);
  const auto run = [](uint32_t srcCount) {
    return lngrad::aicore::test::CheckOf(
        [&](lngrad::aicore::test::Ub& ub) {
          LocalTensor<uint8_t> tmp = ub.Get<uint8_t>(3);
          tmp.SetSize(1024);
          LocalTensor<half> src = ub.Get<half>(1);
          src.SetSize(srcCount);
          LocalTensor<half> scale = ub.Get<half>(2);
          scale.SetSize(64);
          AscendC::AscendQuant<half, false, kRows64>(ub.Get<int8_t>(0), src, tmp, scale, half(0.5f),
                                                     32, 128);
        },
        "Ascend910B1");
  };
  EXPECT_EQ(run(160).first, "");  // rows at 0, 32, 64, 96, each 64 long: 160 elements
  const auto r = run(128);
  EXPECT_EQ(r.first, "tensor_bounds") << r.second;
  EXPECT_NE(r.second.find("rows of config.scaleCount"), std::string::npos) << r.second;
}

}  // namespace
