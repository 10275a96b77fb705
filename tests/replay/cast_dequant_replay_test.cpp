// CastDequant (int16_t -> int8_t / uint8_t) as kernels on Ascend910B1 (A2), Ascend310P3 (the
// inference AI Core) and Ascend950PR_9589, compared byte for byte with the replay of the kit's
// pages and files (replay_cast_dequant.h): the scalar-scale form over every int16_t input for a
// set of parameter words (scales whose low mantissa bits are cut, subnormal, huge, negative, -0;
// offsets over the 9-bit field, both signs; both signModes), the vector form (16 random entries)
// over random inputs, counts with tails, both halfBlock placements, and the mask/repeat forms
// (bit-wise and continuous masks, several repeats, block and repeat strides). The destination
// buffer is marked before each call and compared whole, so bytes a form must not write are
// checked too; the vdeq buffer is compared after SetDeqScale(vdeq, VdeqInfo) wrote it.
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "../aicore/repeat_test_util.h"
#include "../aicore/sanitizer_off.h"
#include "kernel_operator.h"
#include "replay_cast_dequant.h"

namespace {

using namespace AscendC;
using lngrad::aicore::test::kUbBufBytes;
using lngrad::aicore::test::OnBlock;
using lngrad::aicore::test::Ub;
namespace rp = lngrad_replay;

constexpr uint8_t kMark = 0xa5;
constexpr uint32_t kChunk = 16384;  // int16_t elements a call (32 KiB in, 32 KiB out)

struct Soc {
  const char* name;
  rp::CdqArch arch;
};
constexpr Soc kSocs[] = {{"Ascend910B1", rp::CdqArch::k2201},
                         {"Ascend310P3", rp::CdqArch::k2201},
                         {"Ascend950PR_9589", rp::CdqArch::k3510}};

struct Scalar {
  float scale;
  int16_t offset;
  bool sign;
};

float FromBits(uint32_t b) {
  float f;
  std::memcpy(&f, &b, 4);
  return f;
}

std::vector<Scalar> ScalarSets() {
  return {{1.0f, 0, true},
          {1.0f, 0, false},
          {0.0173f, -37, true},
          {3.7f, 100, false},
          {-0.5f, 255, true},
          {-2.25f, -256, false},
          {1e-3f, 5, true},
          {FromBits(0x3f801fffu), 17, true},   // mantissa bits below the kept 10
          {FromBits(0x3fffffffu), -1, false},  // offset field 0x1ff
          {FromBits(0x00000fffu), 3, true},    // subnormal scale, cut to +0
          {FromBits(0x80000000u), 200, false},
          {1e30f, -100, true},  // saturates at int16 before the s9 clamp
          {-7e-3f, 0x7fff, false},
          {0.99951171875f, static_cast<int16_t>(-300), true}};
}

// The kernel's destination bytes after one count-form call.
std::vector<uint8_t> RunCount(const Soc& soc, const std::vector<int16_t>& src, uint32_t count,
                              bool vec, bool halfBlock, const Scalar& s, const VdeqInfo& info,
                              std::vector<uint64_t>* vdeq_out) {
  std::vector<uint8_t> out;
  OnBlock(
      [&](Ub& ub) {
        ub.Put<int16_t>(0, src);
        ub.Put<uint8_t>(1, {}, kMark);
        LocalTensor<int16_t> x = ub.Get<int16_t>(0);
        LocalTensor<uint64_t> vdeq = ub.Get<uint64_t>(2);
        vdeq.SetSize(16);
        const bool sign = vec ? info.vdeqSignMode[0] : s.sign;
        auto run = [&](auto t) {
          using T = decltype(t);
          LocalTensor<T> y = ub.Get<T>(1);
          if (vec) {
            SetDeqScale(vdeq, info);
            if (halfBlock) {
              CastDequant<T, int16_t, true, true>(y, x, count);
            } else {
              CastDequant<T, int16_t, true, false>(y, x, count);
            }
          } else {
            SetDeqScale(s.scale, s.offset, s.sign);
            if (halfBlock) {
              CastDequant<T, int16_t, false, true>(y, x, count);
            } else {
              CastDequant<T, int16_t, false, false>(y, x, count);
            }
          }
        };
        if (sign) {
          run(int8_t{});
        } else {
          run(uint8_t{});
        }
        out = ub.Take<uint8_t>(1);
        if (vdeq_out != nullptr) {
          const std::vector<uint64_t> all = ub.Take<uint64_t>(2);
          vdeq_out->assign(all.begin(), all.begin() + 16);
        }
      },
      soc.name);
  return out;
}

void ExpectSame(const std::vector<uint8_t>& got, const std::vector<uint8_t>& want,
                const std::string& what) {
  ASSERT_EQ(got.size(), want.size()) << what << ": the launch failed";
  for (size_t i = 0; i < want.size(); ++i) {
    if (got[i] != want[i]) {
      ADD_FAILURE() << what << ": byte " << i << ": lngrad " << int(got[i]) << ", replay "
                    << int(want[i]);
      return;
    }
  }
}

TEST(CastDequantReplay, ScalarFormEveryInt16) {
  for (const Soc& soc : kSocs) {
    for (const Scalar& s : ScalarSets()) {
      const uint64_t word = rp::CdqConfig(s.scale, s.offset, s.sign);
      for (bool halfBlock : {true, false}) {
        for (uint32_t c = 0; c < 65536 / kChunk; ++c) {
          std::vector<int16_t> src(kChunk);
          for (uint32_t i = 0; i < kChunk; ++i) src[i] = static_cast<int16_t>(c * kChunk + i);
          std::vector<uint8_t> want(kUbBufBytes, kMark);
          rp::CdqCount(want.data(), src.data(), kChunk, &word, false, halfBlock, soc.arch);
          const auto got = RunCount(soc, src, kChunk, false, halfBlock, s, VdeqInfo{}, nullptr);
          ExpectSame(got, want,
                     std::string(soc.name) + " scale " + std::to_string(s.scale) + " offset " +
                         std::to_string(s.offset) + " sign " + std::to_string(s.sign) +
                         " halfBlock " + std::to_string(halfBlock) + " chunk " + std::to_string(c));
        }
      }
    }
  }
}

VdeqInfo RandomInfo(std::mt19937& g, bool sign) {
  VdeqInfo info;
  std::uniform_int_distribution<int> e(100, 140);  // exponents around 1
  for (int i = 0; i < 16; ++i) {
    const uint32_t bits = (g() & 0x807fffffu) | (static_cast<uint32_t>(e(g)) << 23);
    info.vdeqScale[i] = FromBits(bits);
    info.vdeqOffset[i] = static_cast<int16_t>(g());
    info.vdeqSignMode[i] = (i % 5 == 3) ? !sign : sign;  // mixed signModes, as the form allows
  }
  return info;
}

std::vector<uint64_t> Words(const VdeqInfo& info) {
  std::vector<uint64_t> w(16);
  for (int i = 0; i < 16; ++i) {
    w[i] = rp::CdqConfig(info.vdeqScale[i], info.vdeqOffset[i], info.vdeqSignMode[i]);
  }
  return w;
}

std::vector<int16_t> RandomSrc(std::mt19937& g, size_t n) {
  std::vector<int16_t> v(n);
  for (auto& x : v) {
    const uint32_t r = g();
    // Half small values (inside the s9 range after scaling), half any int16_t.
    x = (r & 1u) != 0 ? static_cast<int16_t>(r >> 16) : static_cast<int16_t>((r >> 16) % 600 - 300);
  }
  return v;
}

TEST(CastDequantReplay, VectorFormRandom) {
  std::mt19937 g(20261206);
  for (const Soc& soc : kSocs) {
    for (uint32_t count : {1u, 15u, 16u, 17u, 127u, 128u, 129u, 300u, 1000u, 8192u}) {
      for (bool halfBlock : {true, false}) {
        for (bool sign : {true, false}) {
          const VdeqInfo info = RandomInfo(g, sign);
          const std::vector<int16_t> src = RandomSrc(g, count);
          const std::vector<uint64_t> words = Words(info);
          std::vector<uint8_t> want(kUbBufBytes, kMark);
          rp::CdqCount(want.data(), src.data(), count, words.data(), true, halfBlock, soc.arch);
          std::vector<uint64_t> vdeq;
          const auto got = RunCount(soc, src, count, true, halfBlock, Scalar{}, info, &vdeq);
          const std::string what = std::string(soc.name) + " count " + std::to_string(count) +
                                   " halfBlock " + std::to_string(halfBlock);
          ExpectSame(got, want, what);
          EXPECT_EQ(vdeq, words) << what << ": the vdeq entries SetDeqScale wrote";
        }
      }
    }
  }
}

// The device reads the vdeq entries when CastDequant runs: entries rewritten after SetDeqScale
// (here with bits above bit 46 set, which no SetDeqScale writes: the A2/A3 read bit 46, the 950
// compares the bits from 46 on with 1 and 0 and leaves a lane that matches neither 0).
TEST(CastDequantReplay, VectorFormReadsTheEntriesWhenItRuns) {
  std::mt19937 g(11);
  for (const Soc& soc : kSocs) {
    for (bool halfBlock : {true, false}) {
      const VdeqInfo info = RandomInfo(g, true);
      std::vector<uint64_t> words = Words(info);
      words[3] |= uint64_t{1} << 47;
      words[4] = (words[4] | (uint64_t{1} << 46)) | (uint64_t{1} << 50);
      words[9] &= ~(uint64_t{1} << 46);
      const std::vector<int16_t> src = RandomSrc(g, 512);
      std::vector<uint8_t> want(kUbBufBytes, kMark);
      rp::CdqCount(want.data(), src.data(), 512, words.data(), true, halfBlock, soc.arch);
      std::vector<uint8_t> got;
      OnBlock(
          [&](Ub& ub) {
            ub.Put<int16_t>(0, src);
            ub.Put<uint8_t>(1, {}, kMark);
            LocalTensor<uint64_t> vdeq = ub.Get<uint64_t>(2);
            SetDeqScale(vdeq, info);
            for (uint32_t i = 0; i < 16; ++i) vdeq.SetValue(i, words[i]);
            if (halfBlock) {
              CastDequant<int8_t, int16_t, true, true>(ub.Get<int8_t>(1), ub.Get<int16_t>(0), 512);
            } else {
              CastDequant<int8_t, int16_t, true, false>(ub.Get<int8_t>(1), ub.Get<int16_t>(0), 512);
            }
            got = ub.Take<uint8_t>(1);
          },
          soc.name);
      ExpectSame(got, want, std::string(soc.name) + " halfBlock " + std::to_string(halfBlock));
    }
  }
}

struct RepeatCase {
  uint64_t bits[2];
  bool continuous;  // the int32_t mask form with bits = the first `len` positions
  int32_t len;
  uint8_t repeat;
  UnaryRepeatParams p;
};

std::vector<RepeatCase> RepeatCases(std::mt19937& g) {
  std::vector<RepeatCase> cs;
  auto params = [](uint16_t db, uint16_t sb, uint8_t dr, uint8_t sr) {
    UnaryRepeatParams p;
    p.dstBlkStride = db;
    p.srcBlkStride = sb;
    p.dstRepStride = dr;
    p.srcRepStride = sr;
    return p;
  };
  const UnaryRepeatParams shapes[] = {params(1, 1, 8, 8),   params(1, 1, 16, 8),
                                      params(2, 1, 16, 8),  params(1, 2, 8, 16),
                                      params(2, 2, 17, 18), params(1, 1, 9, 10)};
  for (const UnaryRepeatParams& p : shapes) {
    for (uint8_t rep : {uint8_t{1}, uint8_t{3}, uint8_t{5}}) {
      cs.push_back({{g() | (uint64_t{g()} << 32), g() | (uint64_t{g()} << 32)}, false, 0, rep, p});
      cs.push_back({{~0ull, ~0ull}, false, 0, rep, p});
      const int32_t len = static_cast<int32_t>(g() % 128 + 1);
      RepeatCase c{{0, 0}, true, len, rep, p};
      for (int32_t i = 0; i < len; ++i) c.bits[i / 64] |= uint64_t{1} << (i % 64);
      cs.push_back(c);
    }
  }
  return cs;
}

std::vector<uint8_t> RunRepeat(const Soc& soc, const std::vector<int16_t>& src,
                               const RepeatCase& rc, bool vec, bool halfBlock, const Scalar& s,
                               const VdeqInfo& info, bool sign) {
  std::vector<uint8_t> out;
  OnBlock(
      [&](Ub& ub) {
        ub.Put<int16_t>(0, src);
        ub.Put<uint8_t>(1, {}, kMark);
        LocalTensor<int16_t> x = ub.Get<int16_t>(0);
        LocalTensor<uint64_t> vdeq = ub.Get<uint64_t>(2);
        if (vec) {
          SetDeqScale(vdeq, info);
        } else {
          SetDeqScale(s.scale, s.offset, s.sign);
        }
        auto run = [&](auto t, auto vq, auto hb) {
          using T = decltype(t);
          constexpr bool kVec = decltype(vq)::value;
          constexpr bool kHb = decltype(hb)::value;
          LocalTensor<T> y = ub.Get<T>(1);
          if (rc.continuous) {
            CastDequant<T, int16_t, true, kVec, kHb>(y, x, rc.len, rc.repeat, rc.p);
          } else {
            CastDequant<T, int16_t, true, kVec, kHb>(y, x, rc.bits, rc.repeat, rc.p);
          }
        };
        using TT = std::true_type;
        using FF = std::false_type;
        auto by_hb = [&](auto t, auto vq) { halfBlock ? run(t, vq, TT{}) : run(t, vq, FF{}); };
        auto by_vec = [&](auto t) { vec ? by_hb(t, TT{}) : by_hb(t, FF{}); };
        sign ? by_vec(int8_t{}) : by_vec(uint8_t{});
        out = ub.Take<uint8_t>(1);
      },
      soc.name);
  return out;
}

TEST(CastDequantReplay, MaskRepeatForms) {
  std::mt19937 g(7);
  const std::vector<RepeatCase> cases = RepeatCases(g);
  const std::vector<int16_t> src = RandomSrc(g, kUbBufBytes / 2);
  for (const Soc& soc : kSocs) {
    for (size_t k = 0; k < cases.size(); ++k) {
      const RepeatCase& rc = cases[k];
      for (bool vec : {false, true}) {
        for (bool halfBlock : {true, false}) {
          const bool sign = (k % 2) == 0;
          const Scalar s{0.37f + static_cast<float>(k), static_cast<int16_t>(k * 37 % 512 - 256),
                         sign};
          const VdeqInfo info = RandomInfo(g, sign);
          const std::vector<uint64_t> words =
              vec ? Words(info) : std::vector<uint64_t>{rp::CdqConfig(s.scale, s.offset, s.sign)};
          std::vector<uint8_t> want(kUbBufBytes, kMark);
          rp::CdqRepeat(want.data(), src.data(), rc.bits, rc.repeat, rc.p.dstBlkStride,
                        rc.p.srcBlkStride, rc.p.dstRepStride, rc.p.srcRepStride, words.data(), vec,
                        halfBlock, soc.arch);
          const auto got = RunRepeat(soc, src, rc, vec, halfBlock, s, info, sign);
          ExpectSame(got, want,
                     std::string(soc.name) + " case " + std::to_string(k) + " vec " +
                         std::to_string(vec) + " halfBlock " + std::to_string(halfBlock));
        }
      }
    }
  }
}

// The mask/repeat form with isSetMask = false in Counter mode (SetMaskCount): count elements over
// repeats with the default strides, only the active elements' bytes written on every product
// (the 950's Level0 VF stores through the mask it derives from the active lanes). Offsets in
// [0, 255], where the products' 9-bit readings agree.
TEST(CastDequantReplay, CounterModeMaskForm) {
  std::mt19937 g(3);
  for (const Soc& soc : kSocs) {
    for (uint32_t count : {1u, 100u, 128u, 300u, 1000u}) {
      const Scalar s{0.8125f, static_cast<int16_t>(count % 256), (count % 2) == 0};
      const uint64_t word = rp::CdqConfig(s.scale, s.offset, s.sign);
      const std::vector<int16_t> src = RandomSrc(g, count);
      std::vector<uint8_t> want(kUbBufBytes, kMark);
      rp::CdqCount(want.data(), src.data(), count, &word, false, false, rp::CdqArch::k2201);
      std::vector<uint8_t> got;
      OnBlock(
          [&](Ub& ub) {
            ub.Put<int16_t>(0, src);
            ub.Put<uint8_t>(1, {}, kMark);
            SetDeqScale(s.scale, s.offset, s.sign);
            SetMaskCount();
            SetVectorMask<int16_t, MaskMode::COUNTER>(0, count);
            if (s.sign) {
              CastDeq<int8_t, int16_t, false, false, false>(ub.Get<int8_t>(1), ub.Get<int16_t>(0),
                                                            MASK_PLACEHOLDER_LIST, 1, {1, 1, 8, 8});
            } else {
              CastDequant<uint8_t, int16_t, false, false, false>(
                  ub.Get<uint8_t>(1), ub.Get<int16_t>(0), MASK_PLACEHOLDER, 1, {1, 1, 8, 8});
            }
            SetMaskNorm();
            ResetMask();
            got = ub.Take<uint8_t>(1);
          },
          soc.name);
      ExpectSame(got, want, std::string(soc.name) + " count " + std::to_string(count));
    }
  }
}

}  // namespace
