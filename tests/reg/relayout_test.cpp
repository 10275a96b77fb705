// Tests of layer reg: the lane rearrangements (gather, squeeze, interleave, pack, histograms),
// the gather/scatter and unaligned UB accesses and the C flavour's named conversions, each
// against the scalar model of reg_model.h (written from the reference, not from lngrad_reg) and
// C++ against C on the same inputs (the same bits: both run lngrad_reg/relayout.h's engines).
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "basic_api/reg_compute/kernel_reg_compute_intf.h"
#include "c_api/asc_simd.h"
#include "capi_test_util.h"
#include "cpp_test_util.h"
#include "lngrad_aicore/check.h"
#include "reg_model.h"

namespace {

namespace Reg = AscendC::Reg;
using namespace lngrad::reg::testing;

template <typename T, typename I>
void CheckGather(std::mt19937& rng) {
  const auto src = RandomLanes<T>(rng, kN<T>);
  std::vector<I> index(kN<I>);
  for (I& v : index) v = static_cast<I>(rng() % (3 * kN<T>));  // some past the lanes
  Reg::RegTensor<T> dst, x = Tensor(src);
  Reg::Gather(dst, x, Tensor(index));
  EXPECT_EQ(Lanes<T>(dst), ModelGather(src, index));
  lngrad::reg::VecReg<T> viaC;
  asc_gather(viaC, Fill(src), Fill(index));
  EXPECT_TRUE(SameRegs<T>(dst, viaC));
}

TEST(RegRelayout, GatherSqueezeAgainstModelAndCFlavour) {
  std::mt19937 rng(3);
  CheckGather<uint8_t, uint8_t>(rng);
  CheckGather<uint16_t, uint16_t>(rng);
  CheckGather<float, uint32_t>(rng);
  for (int round = 0; round < 10; ++round) {
    const auto src = RandomLanes<float>(rng, kN<float>);
    ModelMask mm;
    const auto mask = RandomMask<float>(rng, &mm);
    uint32_t n = 0;
    const auto want = ModelSqueeze(src, mm, &n);
    Reg::RegTensor<float> dst;
    Reg::Squeeze<float, Reg::GatherMaskMode::STORE_REG>(dst, Tensor(src), mask);
    EXPECT_EQ(Lanes<float>(dst), want);
    EXPECT_EQ(lngrad::reg::detail::SqueezedBytes(), 4 * n);
    lngrad::reg::VecReg<float> viaC;
    asc_squeeze(viaC, Fill(src), mask);
    EXPECT_TRUE(SameRegs<float>(dst, viaC));
  }
}

TEST(RegRelayout, InterleavePackHistogramAgainstModelAndCFlavour) {
  std::mt19937 rng(5);
  const auto a = RandomLanes<uint16_t>(rng, kN<uint16_t>),
             b = RandomLanes<uint16_t>(rng, kN<uint16_t>);
  Reg::RegTensor<uint16_t> d0, d1, e0, e1;
  Reg::Interleave(d0, d1, Tensor(a), Tensor(b));
  const auto zip = ModelZip(a, b);
  EXPECT_EQ(Lanes<uint16_t>(d0), std::vector<uint16_t>(zip.begin(), zip.begin() + kN<uint16_t>));
  EXPECT_EQ(Lanes<uint16_t>(d1), std::vector<uint16_t>(zip.begin() + kN<uint16_t>, zip.end()));
  Reg::DeInterleave(e0, e1, d0, d1);  // the inverse
  EXPECT_EQ(Lanes<uint16_t>(e0), a);
  EXPECT_EQ(Lanes<uint16_t>(e1), b);
  vector_uint16_t c0, c1;
  asc_intlv(c0, c1, Fill(a), Fill(b));
  EXPECT_TRUE(SameRegs<uint16_t>(d0, c0) && SameRegs<uint16_t>(d1, c1));
  asc_deintlv(c0, c1, c0, c1);
  EXPECT_TRUE(SameRegs<uint16_t>(e0, c0) && SameRegs<uint16_t>(e1, c1));

  const auto wide = RandomLanes<uint32_t>(rng, kN<uint32_t>);
  Reg::RegTensor<uint16_t> lo, hi;
  Reg::Pack<uint16_t, uint32_t, Reg::HighLowPart::LOWEST>(lo, Tensor(wide));
  Reg::Pack<uint16_t, uint32_t, Reg::HighLowPart::HIGHEST>(hi, Tensor(wide));
  EXPECT_EQ(Lanes<uint16_t>(lo), ModelPackLow(wide, false));
  EXPECT_EQ(Lanes<uint16_t>(hi), ModelPackLow(wide, true));
  asc_pack_to_low(c0, Fill(wide));
  asc_pack_to_high(c1, Fill(wide));
  EXPECT_TRUE(SameRegs<uint16_t>(lo, c0) && SameRegs<uint16_t>(hi, c1));

  const auto bytes = RandomLanes<uint8_t>(rng, kN<uint8_t>);
  const auto start = RandomLanes<uint16_t>(rng, kN<uint16_t>);
  ModelMask mm;
  const auto mask = RandomMask<uint8_t>(rng, &mm);
  Reg::RegTensor<uint16_t> f0 = Tensor(start), c1h = Tensor(start);
  Reg::Histograms<uint8_t, uint16_t, Reg::HistogramsBinType::BIN0, Reg::HistogramsType::FREQUENCY>(
      f0, Tensor(bytes), mask);
  Reg::Histograms<uint8_t, uint16_t, Reg::HistogramsBinType::BIN1, Reg::HistogramsType::ACCUMULATE>(
      c1h, Tensor(bytes), mask);
  EXPECT_EQ(Lanes<uint16_t>(f0), ModelHistogram(bytes, mm, start, 0, false));
  EXPECT_EQ(Lanes<uint16_t>(c1h), ModelHistogram(bytes, mm, start, 1, true));
  vector_uint16_t g0 = Fill(start), g1 = Fill(start);
  asc_frequency_histogram_bin0(g0, Fill(bytes), mask);
  asc_cumulative_histogram_bin1(g1, Fill(bytes), mask);
  EXPECT_TRUE(SameRegs<uint16_t>(f0, g0) && SameRegs<uint16_t>(c1h, g1));
}

// UB: 0.. the source (float i + 0.5), 8192.. the destination (-1).
void FillUb() {
  for (uint32_t i = 0; i < 1024; ++i) Ub<float>(0)[i] = float(i) + 0.5f;
  for (uint32_t i = 0; i < 1024; ++i) Ub<float>(8192)[i] = -1.0f;
}

TEST(RegRelayout, GatherScatterFromUb) {
  std::mt19937 rng(9);
  std::vector<uint32_t> index(kN<uint32_t>);
  for (auto& v : index) v = rng() % 1024;
  std::vector<uint32_t> perm(kN<uint32_t>);
  for (uint32_t i = 0; i < perm.size(); ++i) perm[i] = (i * 7) % perm.size();  // distinct
  ModelMask mm;
  const auto mask = RandomMask<float>(rng, &mm);
  const auto failures = Run950([&] {
    FillUb();
    Reg::RegTensor<float> g;
    Reg::Gather(g, Ub<float>(0), Tensor(index), mask);
    vector_float gc;
    asc_gather(gc, Ub<float>(0), Fill(index), mask);
    EXPECT_TRUE(SameRegs<float>(g, gc));
    for (uint32_t i = 0; i < kN<float>; ++i) {
      EXPECT_EQ(g.lane[i], mm.bit[4 * i] ? float(index[i]) + 0.5f : 0.0f) << i;
    }
    Reg::Scatter(Ub<float>(8192), g, Tensor(perm), mask);
    for (uint32_t i = 0; i < kN<float>; ++i) {
      EXPECT_EQ(Ub<float>(8192)[perm[i]], mm.bit[4 * i] ? g.lane[i] : -1.0f) << i;
    }
    std::vector<uint32_t> blocks = {96, 0, 32, 64, 32, 0, 128, 160};
    blocks.resize(kN<uint32_t>);
    Reg::RegTensor<float> gb;
    Reg::GatherB(gb, Ub<float>(0), Tensor(blocks), Reg::CreateMask<float>());
    for (uint32_t i = 0; i < kN<float>; ++i) {
      EXPECT_EQ(gb.lane[i], float(blocks[i / 8] / 4 + i % 8) + 0.5f) << i;
    }
  });
  EXPECT_TRUE(failures.empty());
}

TEST(RegRelayout, UnalignedLoadsAndStores) {
  const auto failures = Run950([&] {
    FillUb();
    __ubuf__ float* src = Ub<float>(4);  // element 1: not 32-byte aligned
    __ubuf__ float* dst = Ub<float>(8192 + 12);
    Reg::UnalignRegForLoad in;
    Reg::UnalignRegForStore out;
    Reg::RegTensor<float> r;
    Reg::LoadUnAlignPre(in, src);
    for (int k = 0; k < 3; ++k) {
      Reg::LoadUnAlign(r, in, src, 50);
      Reg::StoreUnAlign(dst, r, out, 50);
    }
    EXPECT_NE(Ub<float>(8192)[3 + 149], 149 + 1.5f);  // the tail waits in the register
    Reg::StoreUnAlignPost(dst, out, 0);
    for (uint32_t i = 0; i < 160; ++i) {
      const float want = i >= 3 && i < 153 ? float(i - 3 + 1) + 0.5f : -1.0f;
      EXPECT_EQ(Ub<float>(8192)[i], want) << i;
    }
    // The AR form after a storing Squeeze: the squeezed lanes, one after another.
    for (uint32_t i = 0; i < 256; ++i) Ub<float>(8192)[i] = -1.0f;
    Reg::ClearSpr<AscendC::SpecialPurposeReg::AR>();
    const auto m4 = Reg::CreateMask<float, Reg::MaskPattern::M4>();
    for (int k = 0; k < 2; ++k) {
      Reg::LoadAlign(r, Ub<float>(256 * k));
      Reg::RegTensor<float> y;
      Reg::Squeeze<float, Reg::GatherMaskMode::STORE_REG>(y, r, m4);
      Reg::StoreUnAlign(Ub<float>(8192), y, out);
    }
    Reg::StoreUnAlignPost(Ub<float>(8192), out);
    for (uint32_t i = 0; i < 40; ++i) {
      EXPECT_EQ(Ub<float>(8192)[i], i < 32 ? float(4 * i) + 0.5f : -1.0f) << i;
    }
  });
  EXPECT_TRUE(failures.empty());
}

TEST(RegRelayout, GatherOutsideUbRaises) {
  const auto failures = Run950([&] {
    std::vector<uint32_t> index(kN<uint32_t>, 1u << 30);
    Reg::RegTensor<float> g;
    Reg::Gather(g, Ub<float>(0), Tensor(index), Reg::CreateMask<float>());
  });
  ASSERT_EQ(failures.size(), 1u);
  EXPECT_EQ(failures[0].check, lngrad::aicore::checks::kRegUbBounds);
}

TEST(RegConvert, NamedCastsAgainstModelAndCppCast) {
  std::mt19937 rng(13);
  vector_half h;
  for (uint32_t i = 0; i < kN<half>; ++i) h.lane[i] = half(float(int(rng() % 4001) - 2000) / 16.0f);
  // The mask selects by the source's lanes (docs/ascendc_compat.md): every half lane.
  const vector_bool all = asc_create_mask_b16(PAT_ALL);
  vector_int32_t even, odd;
  asc_half2int32_rd(even, h, all);
  asc_half2int32_rd_v2(odd, h, all);
  static constexpr Reg::CastTrait kFloorOdd = {Reg::RegLayout::ONE, Reg::SatMode::UNKNOWN,
                                               Reg::MaskMergeMode::ZEROING,
                                               AscendC::RoundMode::CAST_FLOOR};
  Reg::RegTensor<int32_t> viaCpp;
  Reg::Cast<int32_t, half, kFloorOdd>(viaCpp, Tensor(Lanes<half>(h)), all);
  EXPECT_TRUE(SameRegs<int32_t>(viaCpp, odd));
  for (uint32_t i = 0; i < kN<int32_t>; ++i) {
    EXPECT_EQ(even.lane[i], int32_t(std::floor(float(h.lane[2 * i])))) << i;
    EXPECT_EQ(odd.lane[i], int32_t(std::floor(float(h.lane[2 * i + 1])))) << i;
  }
  vector_float f;
  for (uint32_t i = 0; i < kN<float>; ++i) f.lane[i] = float(int(rng() % 200001) - 100000) / 2.0f;
  vector_int16_t s;
  asc_float2int16_rna_sat(s, f, asc_create_mask_b32(PAT_ALL));
  for (uint32_t i = 0; i < kN<float>; ++i) {
    const double r = std::round(double(f.lane[i]));  // half away from zero
    EXPECT_EQ(s.lane[2 * i], int16_t(std::fmin(32767.0, std::fmax(-32768.0, r)))) << i;
    EXPECT_EQ(s.lane[2 * i + 1], 0) << i;
  }
}

}  // namespace

namespace {

// RegTraitNumTwo: 64 int64 lanes in two registers, under a b32 mask, as two one-register calls
// would compute them; the reference's integer division truncates toward zero.
TEST(RegTraitTwo, DivLoadStoreAgainstModel) {
  std::mt19937 rng(17);
  const auto failures = Run950([&] {
    for (uint32_t i = 0; i < 128; ++i) {
      Ub<int64_t>(0)[i] = int64_t(rng()) - int64_t(1u << 31);
      Ub<int64_t>(1024)[i] = int64_t(rng() % 1000) + 1;
      Ub<int64_t>(2048)[i] = -1;
    }
    const auto mask = Reg::CreateMask<int64_t, Reg::MaskPattern::VL32, Reg::RegTraitNumTwo>();
    Reg::RegTensor<int64_t, Reg::RegTraitNumTwo> x, y, z;
    __ubuf__ int64_t* dst = Ub<int64_t>(2048);
    Reg::LoadAlign(x, Ub<int64_t>(0));
    Reg::LoadAlign(y, Ub<int64_t>(1024));
    Reg::Div(z, x, y, mask);
    Reg::StoreAlign<int64_t, Reg::PostLiteral::POST_MODE_UPDATE>(dst, z, 64, mask);
    EXPECT_EQ(dst, Ub<int64_t>(2048) + 64);
    for (uint32_t i = 0; i < 64; ++i) {
      const int64_t want = i < 32 ? Ub<int64_t>(0)[i] / Ub<int64_t>(1024)[i] : -1;
      EXPECT_EQ(Ub<int64_t>(2048)[i], want) << i;
    }
  });
  EXPECT_TRUE(failures.empty());
}

// MaskGenWithRegTensor: bit k of the chosen block selects lane k (the reference's broadcast).
TEST(RegRelayout, MaskFromRegisterBits) {
  std::vector<uint32_t> words(kN<uint32_t>);
  for (uint32_t i = 0; i < words.size(); ++i) words[i] = 0x9u * (i + 1);
  lngrad::reg::MaskReg m;
  Reg::MaskGenWithRegTensor<uint32_t, 3>(m, Tensor(words));  // block 3: bytes [24, 32)
  for (uint32_t k = 0; k < kN<uint32_t>; ++k) {
    const uint32_t word = words[6 + k / 32];
    EXPECT_EQ(m.Lane<uint32_t>(k), ((word >> (k % 32)) & 1u) != 0) << k;
  }
}

}  // namespace

namespace {

// RegTraitNumTwo's one-operand rows (Abs, Neg, Not, Adds, Muls on int64_t, the reference's b64
// types): each lane as the reference defines it (two's complement wrap), masked-off lanes 0.
TEST(RegTraitTwo, UnaryAndScalarRowsAgainstModel) {
  std::vector<int64_t> v(64);
  std::mt19937_64 rng(23);
  for (int64_t& x : v) x = static_cast<int64_t>(rng());
  v[3] = std::numeric_limits<int64_t>::min();
  Reg::RegTensor<int64_t, Reg::RegTraitNumTwo> x, a, n, t, s, m;
  for (uint32_t i = 0; i < 64; ++i) x.part[i / 32].lane[i % 32] = v[i];
  const auto mask = Reg::CreateMask<int64_t, Reg::MaskPattern::VL64, Reg::RegTraitNumTwo>();
  const auto half = Reg::CreateMask<int64_t, Reg::MaskPattern::VL32, Reg::RegTraitNumTwo>();
  Reg::Abs(a, x, mask);
  Reg::Neg(n, x, half);
  Reg::Not(t, x, mask);
  Reg::Adds(s, x, int64_t{5}, mask);
  Reg::Muls(m, x, int64_t{-3}, mask);
  for (uint32_t i = 0; i < 64; ++i) {
    const uint64_t u = static_cast<uint64_t>(v[i]);
    const auto lane = [&](const auto& r) { return r.part[i / 32].lane[i % 32]; };
    EXPECT_EQ(lane(a), static_cast<int64_t>(v[i] < 0 ? 0 - u : u)) << i;
    EXPECT_EQ(lane(n), i < 32 ? static_cast<int64_t>(0 - u) : 0) << i;
    EXPECT_EQ(lane(t), static_cast<int64_t>(~u)) << i;
    EXPECT_EQ(lane(s), static_cast<int64_t>(u + 5)) << i;
    EXPECT_EQ(lane(m), static_cast<int64_t>(u * static_cast<uint64_t>(-3))) << i;
  }
}

}  // namespace

namespace {

// RegTraitNumTwo's Compare, Compares, Select and Reduce on int64_t (the reference lists the b64
// types): the comparison's lane i is b32 lane i of the mask; the reduction trees the 64 lanes,
// the two registers' trees combined at the top, an unselected lane taking no part.
TEST(RegTraitTwo, CompareSelectReduceAgainstModel) {
  std::vector<int64_t> v(64), w(64);
  std::mt19937_64 rng(29);
  for (uint32_t i = 0; i < 64; ++i) {
    v[i] = static_cast<int64_t>(rng() % 1000) - 500;
    w[i] = i % 3 == 0 ? v[i] : static_cast<int64_t>(rng() % 1000) - 500;
  }
  Reg::RegTensor<int64_t, Reg::RegTraitNumTwo> x, y, sel, sum, mx;
  for (uint32_t i = 0; i < 64; ++i) {
    x.part[i / 32].lane[i % 32] = v[i];
    y.part[i / 32].lane[i % 32] = w[i];
  }
  const auto all = Reg::CreateMask<int64_t, Reg::MaskPattern::ALL, Reg::RegTraitNumTwo>();
  const auto first32 = Reg::CreateMask<int64_t, Reg::MaskPattern::VL32, Reg::RegTraitNumTwo>();
  Reg::MaskReg eq, gt;
  Reg::Compare<int64_t, AscendC::CMPMODE::EQ>(eq, x, y, all);
  Reg::Compares<int64_t, AscendC::CMPMODE::GT>(gt, x, int64_t{0}, first32);
  Reg::Select(sel, x, y, gt);
  Reg::ReduceSum(sum, x, gt);
  Reg::ReduceMax(mx, x, all);
  int64_t want_sum = 0, want_max = v[0];
  for (uint32_t i = 0; i < 64; ++i) {
    const bool pos = i < 32 && v[i] > 0;
    EXPECT_EQ(eq.Lane<uint32_t>(i), v[i] == w[i]) << i;
    EXPECT_EQ(gt.Lane<uint32_t>(i), pos) << i;
    EXPECT_EQ(sel.part[i / 32].lane[i % 32], pos ? v[i] : w[i]) << i;
    if (pos) want_sum += v[i];
    want_max = std::max(want_max, v[i]);
  }
  EXPECT_EQ(sum.part[0].lane[0], want_sum);
  EXPECT_EQ(mx.part[0].lane[0], want_max);
  for (uint32_t i = 1; i < 64; ++i) EXPECT_EQ(sum.part[i / 32].lane[i % 32], 0) << i;
}

}  // namespace
