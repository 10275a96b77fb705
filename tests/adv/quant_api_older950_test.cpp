// The older forms of AscendQuant, AscendDequant and AscendAntiQuant on the 950 (arch 3510), and
// AntiQuantize's 8-bit float sources, bit for bit against a replay.
//
// The replay (Rq* below) is a separate reading of the kit's 3510 sources, written as their
// vector-function loops (repeats of 64 / 128 lanes under a count mask, the lanes past the count
// not stored) rather than element formulas: ascend_quant_3510_impl.h (QuantPertensorForB8VF,
// QuantPertensorForFp8VF, QuantPerchannelForB8VF / ForFp8VF, the T forms calling them with an
// int8_t destination and config.calcCount when nonzero), ascend_dequant_3510_impl.h
// (DequantPerchannelVFImpl / DequantPertensorVFImpl, reached from ascend_dequant_common_impl.h
// after UpdateDequantParams; the calCount forms pass {size / scaleSize, scaleSize, scaleSize}
// and not calCount), ascend_antiquant_3510_impl.h (AntiQuantPertensorImpl,
// AntiQuantPerchannelImpl: the aligned, unaligned and transposed VFs) and
// antiquantize_3510_impl.h (the fp8 source Cast to float, + offset, * scale, SatS Cast). Its
// conversions are its own: bfloat16 rounding on the float's bits, the int32 -> float ties-away
// rounding by shifting, the 8-bit codes by searching their 256 values (quant_api_test_util.h).
// It is written by the session that changed lngrad's paths (q950), after them, from the source.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "quant_api_test_util.h"

namespace lngrad::adv::testing {
namespace {

constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr float kNan = std::numeric_limits<float>::quiet_NaN();
constexpr uint8_t kSentinel = 0x5A;

template <typename T>
float Fl(T v) {
  return static_cast<float>(v);
}

// ---- the replay's conversions -------------------------------------------------------------

// float -> bfloat16 to nearest even on the bits; sat: SatS (NaN 0, past the range the largest).
float RqBf16(float v, bool sat) {
  if (std::isnan(v)) return sat ? 0.0f : v;
  const uint32_t b = std::bit_cast<uint32_t>(v);
  const uint32_t sign = b & 0x80000000u;
  if ((b & 0x7FFFFFFFu) == 0x7F800000u) {
    return sat ? std::bit_cast<float>(sign | 0x7F7F0000u) : v;
  }
  uint32_t r = b + 0x7FFFu + ((b >> 16) & 1u);
  if (sat && (r & 0x7FFFFFFFu) >= 0x7F800000u) r = sign | 0x7F7F0000u;
  return std::bit_cast<float>(r & 0xFFFF0000u);
}

// float -> half SatS (the register Cast's LayoutZMrgZRndRSatS).
float RqHalfSat(float v) {
  if (std::isnan(v)) return 0.0f;
  const float h = Fl(half(v));
  return std::isinf(h) ? std::copysign(65504.0f, v) : h;
}

// One half / bfloat16 vector operation: the exact float result rounded once (IEEE).
float RqH(float v) { return Fl(half(v)); }
float RqB(float v) { return RqBf16(v, false); }

// int32 -> float rounding ties away from zero (MrgZRndA).
float RqAway(int32_t x) {
  int64_t a = x < 0 ? -int64_t{x} : int64_t{x};
  int sh = 0;
  while ((a >> sh) >= (int64_t{1} << 24)) ++sh;
  int64_t q = a >> sh;
  if (sh > 0 && (a & ((int64_t{1} << sh) - 1)) >= (int64_t{1} << (sh - 1))) ++q;
  const float m = std::ldexp(static_cast<float>(q), sh);
  return x < 0 ? -m : m;
}

// The 8-bit destinations of the quant sequences from a half value (int8 CAST_RINT, hifloat8
// CAST_ROUND) or a float value (fp8 CAST_RINT), saturating.
template <typename D>
uint8_t RqCode(float v) {
  if constexpr (std::is_same_v<D, int8_t>) {
    return static_cast<uint8_t>(Sat8(std::isnan(v) ? 0.0 : Rint(v)));
  } else {
    return NearestCode<D>(v, std::is_same_v<D, hifloat8_t>);
  }
}

template <typename T>
uint32_t OutBits(T v) {
  if constexpr (sizeof(T) == 2) {
    uint16_t b;
    std::memcpy(&b, &v, 2);
    return b;
  } else {
    return std::bit_cast<uint32_t>(v);
  }
}

// A float value as D (the expected element), for the 16- and 32-bit outputs.
template <typename D>
uint32_t WantBits(float v) {
  return OutBits(D(v));
}

// ---- AscendQuant --------------------------------------------------------------------------

template <typename S>
std::vector<S> QuantSource(uint32_t count) {
  std::vector<float> v = Uniform(71, count, -300.0f, 300.0f);
  const float specials[] = {kNan, kInf, -kInf, 70000.0f, -1e30f, 127.5f, -128.5f, 0.0f};
  for (uint32_t i = 0; i < 8 && i * 37 < count; ++i) v[i * 37] = specials[i];
  return As<S>(v);
}

// QuantPertensorFor{B8,Fp8}VF and QuantPerchannelFor{B8,Fp8}VF as lanes: element idx of
// channel c = idx % sc (per tensor: sc = 0, scale and offset the scalars).
template <typename D, typename S>
uint8_t RqQuantLane(S x, float scale, float offset, const S* scT, const S* ofT, uint32_t c) {
  constexpr bool kFp8 = std::is_same_v<D, fp8_e4m3fn_t> || std::is_same_v<D, fp8_e5m2_t>;
  if constexpr (kFp8) {
    float f = Fl(x);
    f = f * (scT ? Fl(scT[c]) : scale);
    f = f + (ofT ? Fl(ofT[c]) : offset);
    return RqCode<D>(f);
  } else {
    const auto toHalf = [](S v) { return std::is_same_v<S, half> ? Fl(v) : RqHalfSat(Fl(v)); };
    float h = toHalf(x);
    h = RqH(h * (scT ? toHalf(scT[c]) : RqH(scale)));
    h = RqH(h + (ofT ? toHalf(ofT[c]) : RqH(offset)));
    return RqCode<D>(h);
  }
}

template <typename D, typename S>
std::vector<uint8_t> RqQuant(const std::vector<S>& x, uint32_t count, uint32_t sc, const S* scT,
                             const S* ofT, float scale, float offset) {
  std::vector<uint8_t> out(count + 64, kSentinel);
  const uint32_t lanes =
      sizeof(S) == 2 && !std::is_same_v<D, fp8_e4m3fn_t> && !std::is_same_v<D, fp8_e5m2_t> ? 128
                                                                                           : 64;
  const uint32_t rows = sc == 0 ? 1 : count / sc, width = sc == 0 ? count : sc;
  for (uint32_t r = 0; r < rows; ++r) {
    for (uint32_t rep = 0; rep * lanes < width; ++rep) {
      for (uint32_t l = 0; l < lanes && rep * lanes + l < width; ++l) {
        const uint32_t c = rep * lanes + l, idx = r * width + c;
        out[idx] = RqQuantLane<D>(x[idx], scale, offset, scT, ofT, c);
      }
    }
  }
  return out;
}

enum class QForm { kTensor, kChannelScalarOffset, kChannelTensorOffset };

constexpr AscendC::AscendQuantConfig kQuantCfg200 = {200, 0, 0, 0};

// One form of AscendQuant<dstT, srcT> (tOld: the T form with an int8 destination).
template <typename D, typename S, bool tOld>
void QuantCase(QForm form, uint32_t count, uint32_t sc) {
  const std::vector<S> x = QuantSource<S>(count);
  const std::vector<S> scales = As<S>(Uniform(72, sc, -3.0f, 3.0f));
  std::vector<S> offs = As<S>(Uniform(73, sc, -20.0f, 20.0f));
  if (sc > 3) offs[3] = S(kNan);
  const float scale = 0.37f, offset = -5.5f;
  const S offS = S(3.25f);
  std::vector<uint8_t> got;
  OnBlock(
      [&](Ub& ub) {
        ub.Put<S>(1, x);
        ub.Put<S>(2, scales);
        ub.Put<S>(3, offs);
        ub.Put<uint8_t>(0, {}, kSentinel);
        auto dst = ub.Get<D>(0);
        auto src = ub.Get<S>(1);
        if (form == QForm::kTensor) {
          if constexpr (tOld) {
            AscendC::AscendQuant<S>(dst, src, scale, offset, count);
          } else {
            AscendC::AscendQuant<D, S>(dst, src, scale, offset, count);
          }
        } else if (form == QForm::kChannelScalarOffset) {
          if constexpr (tOld) {
            AscendC::AscendQuant<S>(dst, src, ub.Get<S>(2), offS, sc, count);
          } else {
            AscendC::AscendQuant<D, S>(dst, src, ub.Get<S>(2), offS, sc, count);
          }
        } else {
          if constexpr (tOld) {
            AscendC::AscendQuant<S>(dst, src, ub.Get<S>(2), ub.Get<S>(3), sc, sc, count);
          } else {
            AscendC::AscendQuant<D, S>(dst, src, ub.Get<S>(2), ub.Get<S>(3), sc, sc, count);
          }
        }
        got = ub.Take<uint8_t>(0);
      },
      k950);
  const bool channel = form != QForm::kTensor;
  const std::vector<uint8_t> want =
      RqQuant<D>(x, count, channel ? sc : 0, channel ? scales.data() : nullptr,
                 form == QForm::kChannelTensorOffset ? offs.data() : nullptr, scale,
                 form == QForm::kChannelScalarOffset ? Fl(offS) : offset);
  for (uint32_t i = 0; i < want.size(); ++i) {
    ASSERT_EQ(got[i], want[i]) << "form " << static_cast<int>(form) << " element " << i;
  }
}

template <typename D, typename S>
void QuantEveryForm() {
  QuantCase<D, S, false>(QForm::kTensor, 200, 0);
  QuantCase<D, S, false>(QForm::kChannelScalarOffset, 288, 96);
  QuantCase<D, S, false>(QForm::kChannelTensorOffset, 288, 96);
}

TEST(QuantAscendQuant950, DstSrcFormsEveryTypePairAgainstTheReplay) {
  QuantEveryForm<int8_t, half>();
  QuantEveryForm<int8_t, bfloat16_t>();
  QuantEveryForm<int8_t, float>();
  QuantEveryForm<hifloat8_t, half>();
  QuantEveryForm<hifloat8_t, bfloat16_t>();
  QuantEveryForm<hifloat8_t, float>();
  QuantEveryForm<fp8_e4m3fn_t, half>();
  QuantEveryForm<fp8_e4m3fn_t, bfloat16_t>();
  QuantEveryForm<fp8_e4m3fn_t, float>();
  QuantEveryForm<fp8_e5m2_t, half>();
  QuantEveryForm<fp8_e5m2_t, bfloat16_t>();
  QuantEveryForm<fp8_e5m2_t, float>();
}

// The T forms run QuantPer{tensor,channel}ForB8 with an int8_t destination (bfloat16_t too);
// per tensor, config.calcCount (nonzero) replaces calCount.
TEST(QuantAscendQuant950, TFormsAgainstTheReplay) {
  QuantCase<int8_t, half, true>(QForm::kTensor, 200, 0);
  QuantCase<int8_t, float, true>(QForm::kTensor, 200, 0);
  QuantCase<int8_t, bfloat16_t, true>(QForm::kTensor, 200, 0);
  QuantCase<int8_t, half, true>(QForm::kChannelScalarOffset, 288, 96);
  QuantCase<int8_t, float, true>(QForm::kChannelScalarOffset, 288, 96);
  QuantCase<int8_t, float, true>(QForm::kChannelTensorOffset, 288, 96);
  QuantCase<int8_t, bfloat16_t, true>(QForm::kChannelTensorOffset, 288, 96);
  const std::vector<float> x = QuantSource<float>(256);
  std::vector<uint8_t> got;
  OnBlock(
      [&](Ub& ub) {
        ub.Put<float>(1, x);
        ub.Put<uint8_t>(0, {}, kSentinel);
        AscendC::AscendQuant<float, false, kQuantCfg200>(ub.Get<int8_t>(0), ub.Get<float>(1), 2.0f,
                                                         1.0f, 256);
        got = ub.Take<uint8_t>(0);
      },
      k950);
  const std::vector<uint8_t> want = RqQuant<int8_t, float>(x, 200, 0, nullptr, nullptr, 2.0f, 1.0f);
  for (uint32_t i = 0; i < want.size(); ++i) ASSERT_EQ(got[i], want[i]) << i;
}

// ---- AscendDequant ------------------------------------------------------------------------

template <typename Sc>
float RqScale(Sc s) {
  if constexpr (std::is_same_v<Sc, uint64_t>) {
    return std::bit_cast<float>(static_cast<uint32_t>(s));  // the even word of DIST_DINTLV_B32
  } else {
    return Fl(s);
  }
}

template <typename D>
D RqDequantOut(float v) {
  if constexpr (std::is_same_v<D, half>) {
    return half(RqHalfSat(v));
  } else if constexpr (std::is_same_v<D, bfloat16_t>) {
    return bfloat16_t(RqBf16(v, true));
  } else {
    return v;
  }
}

// DequantPerchannelVFImpl / DequantPertensorVFImpl: rows m, the first calCount columns in
// repeats of 64 lanes, the destination rows n rounded up to 32 bytes; scaleAt(c) the float
// scale of column c.
template <typename D, typename ScaleAt>
std::vector<D> RqDequant(const std::vector<int32_t>& x, uint32_t m, uint32_t n, uint32_t cal,
                         ScaleAt&& scaleAt) {
  const uint32_t per = 32 / sizeof(D), inner = (n + per - 1) / per * per;
  D sentinel;
  std::memset(&sentinel, kSentinel, sizeof(D));
  std::vector<D> out(m * inner + per, sentinel);
  for (uint32_t i = 0; i < m; ++i) {
    for (uint32_t j = 0; j * 64 < cal; ++j) {
      for (uint32_t l = 0; l < 64 && j * 64 + l < cal; ++l) {
        const uint32_t c = j * 64 + l;
        out[i * inner + c] = RqDequantOut<D>(RqAway(x[i * n + c]) * scaleAt(c));
      }
    }
  }
  return out;
}

std::vector<int32_t> DequantSource(uint32_t count) {
  std::vector<int32_t> x(count);
  for (uint32_t e = 0; e < count; ++e) x[e] = static_cast<int32_t>(e * 2654435761u) >> (e % 9);
  const int32_t specials[] = {16777217, -16777219, 2147483647, -2147483647 - 1, 33554438, 0};
  for (uint32_t i = 0; i < 6 && i * 11 < count; ++i) x[i * 11] = specials[i];
  return x;
}

template <typename Sc>
std::vector<Sc> DequantScales(uint32_t count) {
  const std::vector<float> f = Uniform(74, count, -2e-3f, 2e-3f);
  std::vector<Sc> s(count);
  for (uint32_t c = 0; c < count; ++c) {
    const float v = c == 5 ? 1e6f : (c == 7 ? kNan : f[c]);
    if constexpr (std::is_same_v<Sc, uint64_t>) {
      s[c] = std::bit_cast<uint32_t>(v) | (uint64_t{0xDEADBEEF} << 32);
    } else {
      s[c] = Sc(v);
    }
  }
  return s;
}

template <typename D>
void ExpectDequant(const std::vector<D>& got, const std::vector<D>& want, const std::string& what) {
  for (uint32_t i = 0; i < want.size(); ++i) {
    ASSERT_EQ(OutBits(got[i]), OutBits(want[i])) << what << " element " << i;
  }
}

// The DequantParams form (tensor scale; mode single-row reshape when m is 1) and the calCount
// form, which on this arch converts the whole [size / scaleSize, scaleSize] source.
template <typename D, typename Sc>
void DequantTensorCase(uint32_t m, uint32_t n, uint32_t cal) {
  const std::vector<int32_t> x = DequantSource(m * n);
  const std::vector<Sc> sc = DequantScales<Sc>(n);
  std::vector<D> gotParams, gotCount;
  OnBlock(
      [&](Ub& ub) {
        ub.Put<int32_t>(1, x);
        ub.Put<Sc>(2, sc);
        ub.Put<uint8_t>(0, {}, kSentinel);
        AscendC::AscendDequant(ub.Get<D>(0), ub.Get<int32_t>(1), ub.Get<Sc>(2),
                               AscendC::DequantParams{m, n, cal});
        gotParams = ub.Take<D>(0);
        ub.Put<uint8_t>(0, {}, kSentinel);
        AscendC::LocalTensor<int32_t> src = ub.Get<int32_t>(1);
        src.SetSize(m * n);
        AscendC::LocalTensor<Sc> scale = ub.Get<Sc>(2);
        scale.SetSize(n);
        AscendC::AscendDequant(ub.Get<D>(0), src, scale, cal);
        gotCount = ub.Take<D>(0);
      },
      k950);
  uint32_t rm = m, rn = n, rc = cal;
  if (m == 1 && cal % (32 / sizeof(D)) == 0 && n % cal == 0) {  // UpdateDequantParams
    rm = n / cal;
    rn = cal;
  }
  const auto at = [&](uint32_t c) { return RqScale(sc[c]); };
  ExpectDequant(gotParams, RqDequant<D>(x, rm, rn, rc, at), "DequantParams");
  ExpectDequant(gotCount, RqDequant<D>(x, m, n, n, at), "calCount form");
}

template <typename D, typename Sc>
void DequantScalarCase(uint32_t m, uint32_t n, uint32_t cal, float scale) {
  const std::vector<int32_t> x = DequantSource(m * n);
  std::vector<D> got;
  OnBlock(
      [&](Ub& ub) {
        ub.Put<int32_t>(1, x);
        ub.Put<uint8_t>(0, {}, kSentinel);
        AscendC::AscendDequant(ub.Get<D>(0), ub.Get<int32_t>(1), Sc(scale),
                               AscendC::DequantParams{m, n, cal});
        got = ub.Take<D>(0);
      },
      k950);
  const float s = Fl(Sc(scale));
  ExpectDequant(got, RqDequant<D>(x, m, n, cal, [&](uint32_t) { return s; }), "scalar");
}

TEST(QuantAscendDequant950, OlderFormsEveryTypePairAgainstTheReplay) {
  DequantTensorCase<half, uint64_t>(3, 136, 100);
  DequantTensorCase<float, float>(3, 136, 100);
  DequantTensorCase<float, bfloat16_t>(3, 136, 100);
  DequantTensorCase<bfloat16_t, bfloat16_t>(3, 136, 100);
  DequantTensorCase<bfloat16_t, float>(3, 136, 100);
  DequantTensorCase<float, float>(1, 256, 64);  // the single-row reshape to {4, 64, 64}
  DequantTensorCase<half, uint64_t>(2, 200, 200);
  DequantScalarCase<bfloat16_t, bfloat16_t>(3, 136, 100, 3e-3f);
  DequantScalarCase<float, bfloat16_t>(3, 136, 100, -7e-4f);
  DequantScalarCase<float, float>(3, 136, 100, 1e30f);
  DequantScalarCase<bfloat16_t, float>(3, 136, 100, 1e30f);
}

// ---- AscendAntiQuant with an offset, AntiQuantize's 8-bit float sources --------------------

template <typename S>
inline constexpr bool kFp8 = std::is_same_v<S, fp8_e4m3fn_t> || std::is_same_v<S, fp8_e5m2_t>;

template <typename S>
std::vector<uint8_t> AqSource(uint32_t count) {
  std::vector<uint8_t> x(count);
  for (uint32_t e = 0; e < count; ++e) x[e] = static_cast<uint8_t>((e * 89 + 7) % 256);
  return x;
}

template <typename S>
float AqValue(uint8_t code) {
  S v;
  std::memcpy(&v, &code, 1);
  return Fl(v);
}

template <typename D>
std::vector<D> AqParams(uint32_t seed, uint32_t count, float lo, float hi) {
  std::vector<float> v = Uniform(seed, count, lo, hi);
  if (count > 2) v[2] = kNan;
  if (count > 4) v[4] = std::is_same_v<D, half> ? 60000.0f : 3e38f;
  return As<D>(v);
}

enum class AqSeq { kHalf, kBf16, kFloat };

// One element of the sequences: kHalf half(x) + o, * s in half; kBf16 the same in bfloat16;
// kFloat in float with the SatS Cast to D.
template <typename D>
uint32_t RqAqElem(float x, float o, float s, AqSeq seq) {
  if (seq == AqSeq::kHalf) return WantBits<half>(RqH(RqH(RqH(x) + o) * s));
  if (seq == AqSeq::kBf16) return WantBits<bfloat16_t>(RqB(RqB(RqB(x) + o) * s));
  const float f = (x + o) * s;
  return std::is_same_v<D, half> ? WantBits<half>(RqHalfSat(f))
                                 : WantBits<bfloat16_t>(RqBf16(f, true));
}

// The sequence of a source / output / path: fp8 sources in float; b8 half output in half; b8
// bfloat16 output in bfloat16 not transposed (aligned and unaligned), in float otherwise.
template <typename S, typename D>
AqSeq RqSeq(bool bf16Arith) {
  if (kFp8<S>) return AqSeq::kFloat;
  if (std::is_same_v<D, half>) return AqSeq::kHalf;
  return bf16Arith ? AqSeq::kBf16 : AqSeq::kFloat;
}

enum class AqForm { kAligned, kUnaligned, kTransposed, kScalar };

// PerchannelNoTransposeFor* (columns in repeats, K rows each), PerchannelUnalignedFor* (N * K
// lanes, offset lane % 16), PerchannelTransposeFor* (N rows of K, offset of the row) and
// PerTensorProcessFor* (the source size, the scalars), as the element index each lane takes.
template <typename S, typename D>
std::vector<uint32_t> RqAntiQuant(const std::vector<uint8_t>& x, AqForm form, uint32_t k,
                                  uint32_t n, const std::vector<D>& of, const std::vector<D>& sc,
                                  uint32_t count) {
  std::vector<uint32_t> out(count + 64, 0x5A5Au);
  const uint32_t lanes = kFp8<S> || (std::is_same_v<D, bfloat16_t> && form != AqForm::kAligned &&
                                     form != AqForm::kUnaligned)
                             ? 64
                             : 128;
  const auto put = [&](uint32_t e, uint32_t p, bool bf16Arith) {
    out[e] = RqAqElem<D>(AqValue<S>(x[e]), Fl(of[p]), Fl(sc[p]), RqSeq<S, D>(bf16Arith));
  };
  if (form == AqForm::kAligned) {
    for (uint32_t i = 0; i * lanes < n; ++i) {
      for (uint32_t j = 0; j < k; ++j) {
        for (uint32_t l = 0; l < lanes && i * lanes + l < n; ++l)
          put(j * n + i * lanes + l, i * lanes + l, true);
      }
    }
  } else if (form == AqForm::kTransposed) {
    for (uint32_t i = 0; i < n; ++i) {
      for (uint32_t j = 0; j * lanes < k; ++j) {
        for (uint32_t l = 0; l < lanes && j * lanes + l < k; ++l)
          put(i * k + j * lanes + l, i, false);
      }
    }
  } else {
    const uint32_t total = form == AqForm::kScalar ? count : n * k;
    for (uint32_t e = 0; e < total; ++e) {
      put(e, form == AqForm::kScalar ? 0 : e % 16, form == AqForm::kUnaligned);
    }
  }
  return out;
}

template <typename S, typename D>
void AntiQuantCase(AqForm form, uint32_t k, uint32_t n) {
  const uint32_t count = form == AqForm::kScalar ? 200 : n * k;
  const std::vector<uint8_t> x = AqSource<S>(count);
  const uint32_t params = std::max<uint32_t>(n, 16);
  const std::vector<D> of = AqParams<D>(75, params, -20.0f, 20.0f);
  const std::vector<D> sc = AqParams<D>(76, params, -3.0f, 3.0f);
  std::vector<uint8_t> got;
  OnBlock(
      [&](Ub& ub) {
        ub.Put<uint8_t>(1, x);
        ub.Put<D>(2, of);
        ub.Put<D>(3, sc);
        ub.Put<uint8_t>(0, {}, kSentinel);
        AscendC::LocalTensor<S> src = ub.Get<S>(1);
        src.SetSize(count);
        const bool tr = form == AqForm::kTransposed;
        // offsetWidth is N both ways (AntiQuantPerchannelImpl reads it for the transposed form
        // too).
        const AscendC::AntiQuantShapeInfo info{tr ? n : 1, n, tr ? n : 1, tr ? 1 : n};
        if (form == AqForm::kScalar) {
          AscendC::AscendAntiQuant<S, D, false>(ub.Get<D>(0), src, of[0], sc[0], k, info);
        } else if (tr) {
          AscendC::AscendAntiQuant<S, D, true>(ub.Get<D>(0), src, ub.Get<D>(2), ub.Get<D>(3), k,
                                               info);
        } else {
          AscendC::AscendAntiQuant<S, D, false>(ub.Get<D>(0), src, ub.Get<D>(2), ub.Get<D>(3), k,
                                                info);
        }
        got = ub.Take<uint8_t>(0);
      },
      k950);
  const std::vector<uint32_t> want = RqAntiQuant<S, D>(x, form, k, n, of, sc, count);
  for (uint32_t e = 0; e < want.size(); ++e) {
    uint16_t g;
    std::memcpy(&g, got.data() + 2 * e, 2);
    ASSERT_EQ(g, want[e]) << "form " << static_cast<int>(form) << " element " << e;
  }
}

template <typename S, typename D>
void AntiQuantEveryForm() {
  AntiQuantCase<S, D>(AqForm::kAligned, 5, 96);
  AntiQuantCase<S, D>(AqForm::kAligned, 3, 200);
  AntiQuantCase<S, D>(AqForm::kUnaligned, 6, 16);
  AntiQuantCase<S, D>(AqForm::kUnaligned, 4, 8);
  AntiQuantCase<S, D>(AqForm::kTransposed, 96, 3);
  AntiQuantCase<S, D>(AqForm::kScalar, 8, 0);
}

TEST(QuantAscendAntiQuant950, OffsetFormsEverySourceAndOutputAgainstTheReplay) {
  AntiQuantEveryForm<int8_t, half>();
  AntiQuantEveryForm<int8_t, bfloat16_t>();
  AntiQuantEveryForm<hifloat8_t, half>();
  AntiQuantEveryForm<hifloat8_t, bfloat16_t>();
  AntiQuantEveryForm<fp8_e4m3fn_t, half>();
  AntiQuantEveryForm<fp8_e4m3fn_t, bfloat16_t>();
  AntiQuantEveryForm<fp8_e5m2_t, half>();
  AntiQuantEveryForm<fp8_e5m2_t, bfloat16_t>();
}

// AntiQuantize from fp8 (antiquantize_3510_impl.h: Cast to float, + offset, * scale in float,
// the SatS Cast; a float destination as is), per channel (parameters of D) and per token (float).
template <typename S, typename D, typename P, const AscendC::AntiQuantizeConfig& cfg>
void AntiQuantizeFp8Case(uint32_t m, uint32_t n) {
  const bool token = cfg.policy == AscendC::AntiQuantizePolicy::PER_TOKEN;
  const uint32_t np = token ? m : n;
  const std::vector<uint8_t> x = AqSource<S>(m * n);
  const std::vector<P> of = AqParams<P>(77, np, -20.0f, 20.0f);
  const std::vector<P> sc = AqParams<P>(78, np, -3.0f, 3.0f);
  std::vector<D> got;
  OnBlock(
      [&](Ub& ub) {
        ub.Put<uint8_t>(1, x);
        ub.Put<P>(2, of);
        ub.Put<P>(3, sc);
        AscendC::AntiQuantize<cfg>(ub.Get<D>(0), ub.Get<S>(1), ub.Get<P>(3), ub.Get<P>(2),
                                   AscendC::AntiQuantizeParams{m, n, 0});
        got = ub.Take<D>(0);
      },
      k950);
  for (uint32_t e = 0; e < m * n; ++e) {
    const uint32_t p = token ? e / n : e % n;
    const float f = (AqValue<S>(x[e]) + Fl(of[p])) * Fl(sc[p]);
    const uint32_t want = std::is_same_v<D, float>  ? std::bit_cast<uint32_t>(f)
                          : std::is_same_v<D, half> ? WantBits<half>(RqHalfSat(f))
                                                    : WantBits<bfloat16_t>(RqBf16(f, true));
    if (std::is_same_v<D, float> && std::isnan(f)) {
      ASSERT_TRUE(std::isnan(Fl(got[e]))) << e;
      continue;
    }
    ASSERT_EQ(OutBits(got[e]), want) << "element " << e;
  }
}

constexpr AscendC::AntiQuantizeConfig kAqzChannel = {AscendC::AntiQuantizePolicy::PER_CHANNEL, true,
                                                     -1};
constexpr AscendC::AntiQuantizeConfig kAqzToken = {AscendC::AntiQuantizePolicy::PER_TOKEN, true, 1};

TEST(QuantAntiQuantize950, Fp8SourcesAgainstTheReplay) {
  AntiQuantizeFp8Case<fp8_e4m3fn_t, half, half, kAqzChannel>(4, 96);
  AntiQuantizeFp8Case<fp8_e5m2_t, bfloat16_t, bfloat16_t, kAqzChannel>(4, 96);
  AntiQuantizeFp8Case<fp8_e4m3fn_t, float, float, kAqzToken>(6, 64);
  AntiQuantizeFp8Case<fp8_e5m2_t, half, float, kAqzToken>(6, 64);
  AntiQuantizeFp8Case<fp8_e4m3fn_t, bfloat16_t, float, kAqzToken>(6, 64);
}

}  // namespace
}  // namespace lngrad::adv::testing
