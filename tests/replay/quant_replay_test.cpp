// AscendQuant and AscendDequant run as kernels on Ascend910B1 (dav-2201), compared bit for bit
// with the replay of replay_reduce_quant.h (written from ascend_quant_pre_impl.h and
// ascend_dequant_common_impl.h).
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "reduce_quant_test_util.h"
#include "replay_antiquant_3510.h"

namespace {

using namespace AscendC;
using namespace lngrad_replay::testing;
namespace rp = lngrad_replay;

template <typename T>
std::vector<T> Values(uint32_t seed, size_t n, float range) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> d(-range, range);
  const float specials[] = {0.0f,
                            -0.0f,
                            0.5f,
                            -2.5f,
                            3.5f,
                            std::numeric_limits<float>::quiet_NaN(),
                            1e9f,
                            -1e9f,
                            std::numeric_limits<float>::infinity(),
                            -std::numeric_limits<float>::infinity()};
  std::vector<T> v(n);
  for (size_t i = 0; i < n; ++i) {
    float f = i < std::size(specials) ? specials[i] : d(gen);
    if constexpr (std::is_same_v<T, half>) {
      if (std::fabs(f) > 60000.0f && std::isfinite(f)) f = f > 0 ? 70000.0f : -70000.0f;
    }
    v[i] = T(f);
  }
  return v;
}

std::string Int8Mismatch(const std::vector<int8_t>& got, const std::vector<int8_t>& want) {
  for (size_t i = 0; i < want.size(); ++i) {
    if (got[i] != want[i]) {
      std::ostringstream s;
      s << "element " << i << ": lngrad " << int{got[i]} << ", replay " << int{want[i]};
      return s.str();
    }
  }
  return "";
}

// ---- AscendQuant, per tensor ----

template <typename T>
void CheckQuantPerTensor(uint32_t count, float scale, float offset, bool withTmp, uint32_t seed) {
  const std::vector<T> in = Values<T>(seed, count, 200.0f);
  std::vector<int8_t> got;
  OnBlock(
      [&](Ub& ub) {
        ub.Put<T>(1, in);
        if (withTmp) {
          AscendQuant<T>(ub.Get<int8_t>(0), ub.Get<T>(1), ub.Get<uint8_t>(2), scale, offset, count);
        } else {
          AscendQuant<T>(ub.Get<int8_t>(0), ub.Get<T>(1), scale, offset, count);
        }
        got = ub.Take<int8_t>(0);
      },
      k910B);
  got.resize(count);
  const auto want = rp::ReplayAscendQuant(
      std::is_same_v<T, half>, std::vector<float>(in.begin(), in.end()), scale, offset, count);
  EXPECT_EQ(Int8Mismatch(got, want), "")
      << count << (std::is_same_v<T, half> ? " half" : " float") << " scale " << scale << " offset "
      << offset << (withTmp ? " tmp" : " stack");
}

TEST(QuantReplay, AscendQuantPerTensor) {
  uint32_t seed = 1;
  for (bool withTmp : {true, false}) {
    for (uint32_t count : {1u, 37u, 256u, 1000u, 5000u}) {
      // 0.1 and 0.3 are not halves: the half scale's rounding shows; 2.0 doubles the ties.
      for (float s : {0.1f, 2.0f, -0.3f}) {
        CheckQuantPerTensor<float>(count, s, 0.75f, withTmp, ++seed);
        CheckQuantPerTensor<half>(count, s, -1.25f, withTmp, ++seed);
      }
    }
  }
}

// ---- AscendQuant, per channel ----

template <typename T>
void CheckQuantPerChannel(uint32_t scaleCount, uint32_t rows, bool offsetTensor, bool withTmp,
                          uint32_t seed) {
  const uint32_t count = scaleCount * rows;
  const std::vector<T> in = Values<T>(seed, count, 150.0f);
  const std::vector<T> scale = Values<T>(seed + 1, scaleCount, 3.0f);
  const std::vector<T> offset = Values<T>(seed + 2, scaleCount, 4.0f);
  constexpr uint32_t kOffsetAt = 4096;  // the offset tensor in buffer 2, after the scales
  std::vector<int8_t> got;
  std::vector<T> scaleAfter;
  OnBlock(
      [&](Ub& ub) {
        ub.Put<T>(1, in);
        std::vector<T> both(kOffsetAt + scaleCount);
        std::copy(scale.begin(), scale.end(), both.begin());
        std::copy(offset.begin(), offset.end(), both.begin() + kOffsetAt);
        ub.Put<T>(2, both);
        LocalTensor<T> sc = ub.Get<T>(2);
        LocalTensor<T> of = sc[kOffsetAt];
        LocalTensor<uint8_t> tmp = ub.Get<uint8_t>(3);
        if (offsetTensor) {
          AscendQuant<T>(ub.Get<int8_t>(0), ub.Get<T>(1), tmp, sc, of, scaleCount, scaleCount,
                         count);
        } else if (withTmp) {
          AscendQuant<T>(ub.Get<int8_t>(0), ub.Get<T>(1), tmp, sc, T(0.625f), scaleCount, count);
        } else {
          AscendQuant<T>(ub.Get<int8_t>(0), ub.Get<T>(1), sc, T(0.625f), scaleCount, count);
        }
        got = ub.Take<int8_t>(0);
        scaleAfter = ub.Take<T>(2);
      },
      k910B);
  got.resize(count);
  rp::QuantChannelCall c{std::is_same_v<T, half>,
                         scaleCount,
                         count,
                         std::vector<float>(scale.begin(), scale.end()),
                         {},
                         0.625f};
  if (offsetTensor) c.offset.assign(offset.begin(), offset.end());
  std::vector<float> scaleHalf, offsetHalf;
  const auto want = rp::ReplayAscendQuantPerChannel(c, std::vector<float>(in.begin(), in.end()),
                                                    &scaleHalf, &offsetHalf);
  const std::string what =
      std::to_string(rows) + "x" + std::to_string(scaleCount) + (c.isHalf ? " half" : " float") +
      (offsetTensor ? " offset tensor" : " offset scalar") + (withTmp ? " tmp" : " stack");
  EXPECT_EQ(Int8Mismatch(got, want), "") << what;
  if (!c.isHalf) {  // the float scale (offset) tensor now starts with its halves
    const half* h = reinterpret_cast<const half*>(scaleAfter.data());
    for (uint32_t j = 0; j < scaleCount; ++j) {
      ASSERT_EQ(Bits(h[j]), rp::FloatToHalf(scaleHalf[j]).bits) << what << " scale " << j;
      if (offsetTensor) {
        ASSERT_EQ(Bits(h[2 * kOffsetAt + j]), rp::FloatToHalf(offsetHalf[j]).bits)
            << what << " offset " << j;
      }
    }
  }
}

TEST(QuantReplay, AscendQuantPerChannel) {
  uint32_t seed = 500;
  for (uint32_t scaleCount : {32u, 64u, 96u}) {
    for (uint32_t rows : {1u, 3u, 17u}) {
      for (int form = 0; form < 3; ++form) {
        const bool offsetTensor = form == 0, withTmp = form != 2;
        CheckQuantPerChannel<float>(scaleCount, rows, offsetTensor, withTmp, seed += 3);
        CheckQuantPerChannel<half>(scaleCount, rows, offsetTensor, withTmp, seed += 3);
      }
    }
  }
}

// ---- AscendDequant ----

std::vector<int32_t> Ints(uint32_t seed, size_t n) {
  std::mt19937 gen(seed);
  std::uniform_int_distribution<int32_t> d(-(1 << 26), 1 << 26);  // beyond 2^24: rounded
  std::vector<int32_t> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = i < 3 ? static_cast<int32_t>(i) - 1 : d(gen);
  v[n / 2] = 0;
  return v;
}

std::vector<float> Scales(uint32_t seed, uint32_t n) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> d(-2e-3f, 2e-3f);
  std::vector<float> v(n);
  for (auto& x : v) x = d(gen);
  v[0] = -0.0f;            // -0 scale: 0 * -0 shows whether the scale was copied with + 0
  if (n > 1) v[1] = 3e4f;  // a product beyond the half range: the saturation of the Cast
  return v;
}

// float -> float with float scales (the DequantParams forms, with and without tmp).
void CheckDequantFloat(uint32_t m, uint32_t n, uint32_t cal, bool withTmp, uint32_t seed) {
  const std::vector<int32_t> x = Ints(seed, size_t{m} * n);
  const std::vector<float> s = Scales(seed + 1, n);
  std::vector<float> got;
  OnBlock(
      [&](Ub& ub) {
        ub.Put<int32_t>(1, x);
        ub.Put<float>(2, s);
        if (withTmp) {
          AscendDequant(ub.Get<float>(0), ub.Get<int32_t>(1), ub.Get<float>(2), ub.Get<uint8_t>(3),
                        DequantParams{m, n, cal});
        } else {
          AscendDequant(ub.Get<float>(0), ub.Get<int32_t>(1), ub.Get<float>(2),
                        DequantParams{m, n, cal});
        }
        got = ub.Take<float>(0);
      },
      k910B);
  const auto want = rp::ReplayAscendDequant({false, true, true, m, n, cal}, x, s);
  for (size_t e = 0; e < want.size(); ++e) {
    ASSERT_EQ(Bits(got[e]), Bits(want[e])) << m << "x" << n << " cal " << cal << " element " << e
                                           << ": lngrad " << got[e] << ", replay " << want[e];
  }
}

TEST(QuantReplay, AscendDequantFloat) {
  uint32_t seed = 800;
  for (bool withTmp : {true, false}) {
    CheckDequantFloat(7, 40, 24, withTmp, ++seed);
    CheckDequantFloat(3, 64, 64, withTmp, ++seed);
    CheckDequantFloat(1, 96, 32, withTmp, ++seed);  // one row: reshaped into 3 rows of 32
    CheckDequantFloat(1, 96, 40, withTmp, ++seed);  // 40 does not divide 96: not reshaped
    CheckDequantFloat(40, 200, 136, withTmp, ++seed);
  }
}

// The calCount forms (params {src size / n, n, n} from the tensors' sizes): calCount elements,
// a partial last row scaled too, the rest of dst untouched.
TEST(QuantReplay, AscendDequantCalCountForms) {
  uint32_t seed = 850;
  for (const auto& dims : {std::array<uint32_t, 3>{5, 40, 100}, {3, 64, 192}, {4, 24, 7}}) {
    const uint32_t m = dims[0], n = dims[1], count = dims[2];
    const std::vector<int32_t> x = Ints(++seed, size_t{m} * n);
    const std::vector<float> s = Scales(++seed, n);
    for (bool withTmp : {true, false}) {
      std::vector<float> got;
      OnBlock(
          [&](Ub& ub) {
            ub.Put<int32_t>(1, x);
            ub.Put<float>(2, s);
            LocalTensor<int32_t> src = ub.Get<int32_t>(1);
            LocalTensor<float> sc = ub.Get<float>(2);
            src.SetSize(m * n);
            sc.SetSize(n);
            if (withTmp) {
              AscendDequant(ub.Get<float>(0), src, sc, ub.Get<uint8_t>(3), count);
            } else {
              AscendDequant(ub.Get<float>(0), src, sc, count);
            }
            got = ub.Take<float>(0);
          },
          k910B);
      rp::DequantCall c{false, true, true, m, n, n};
      c.total = count;
      const auto want = rp::ReplayAscendDequant(c, x, s);
      for (size_t e = 0; e < want.size(); ++e) {
        ASSERT_EQ(Bits(got[e]), Bits(want[e]))
            << m << "x" << n << " count " << count << " element " << e << ": lngrad " << got[e]
            << ", replay " << want[e];
      }
    }
  }
}

// A 2-byte destination (half or bfloat16) against the replay: rows of the (reshaped) row
// length padded to 16 elements.
template <typename D>
void ExpectPaddedRows(const std::vector<D>& got, const std::vector<float>& want, uint32_t m,
                      uint32_t n, uint32_t cal) {
  const bool reshaped = m == 1 && cal % 16 == 0 && n % cal == 0;
  const uint32_t rows = reshaped ? n / cal : m, cols = reshaped ? cal : n;
  const uint32_t stride = (cols + 15) / 16 * 16;
  for (uint32_t r = 0; r < rows; ++r) {
    for (uint32_t j = 0; j < cols; ++j) {
      const float w = want[size_t{r} * cols + j];
      const uint32_t wantBits =
          std::is_same_v<D, half> ? uint32_t{rp::FloatToHalf(w).bits} : Bits(w) >> 16;
      ASSERT_EQ(Bits(got[size_t{r} * stride + j]), wantBits)
          << m << "x" << n << " cal " << cal << " row " << r << " col " << j << ": lngrad "
          << static_cast<float>(got[size_t{r} * stride + j]) << ", replay " << w;
    }
  }
}

// float scales to bfloat16: the scale's + 0 copy, the product, the saturating CAST_RINT.
TEST(QuantReplay, AscendDequantBf16FromFloatScales) {
  uint32_t seed = 870;
  for (const auto& dims : {std::array<uint32_t, 3>{3, 24, 24}, {5, 40, 8}, {1, 64, 32}}) {
    const uint32_t m = dims[0], n = dims[1], cal = dims[2];
    const std::vector<int32_t> x = Ints(++seed, size_t{m} * n);
    std::vector<float> s = Scales(++seed, n);
    s[1] = 1e34f;  // products beyond the bfloat16 range: the saturation
    std::vector<bfloat16_t> got;
    OnBlock(
        [&](Ub& ub) {
          ub.Put<int32_t>(1, x);
          ub.Put<float>(2, s);
          AscendDequant(ub.Get<bfloat16_t>(0), ub.Get<int32_t>(1), ub.Get<float>(2),
                        ub.Get<uint8_t>(3), DequantParams{m, n, cal});
          got = ub.Take<bfloat16_t>(0);
        },
        k910B);
    rp::DequantCall c{false, true, true, m, n, cal};
    c.dstBf16 = true;
    ExpectPaddedRows(got, rp::ReplayAscendDequant(c, x, s), m, n, cal);
  }
}

// bfloat16 scales (ascend_dequant_common_impl.h: the scale tensor Cast to float, exact, with no
// + 0 copy, so a -0 scale stays -0) to float and to bfloat16 (its saturating CAST_RINT).
TEST(QuantReplay, AscendDequantFromBf16Scales) {
  uint32_t seed = 890;
  for (const auto& dims : {std::array<uint32_t, 3>{3, 32, 32}, {5, 48, 16}, {1, 64, 32}}) {
    const uint32_t m = dims[0], n = dims[1], cal = dims[2];
    const std::vector<int32_t> x = Ints(++seed, size_t{m} * n);
    std::vector<float> s = Scales(++seed, n);
    s[1] = 1e34f;  // products beyond the bfloat16 range: the saturation
    std::vector<bfloat16_t> sb(n);
    for (uint32_t j = 0; j < n; ++j) {
      sb[j] = bfloat16_t(s[j]);
      s[j] = static_cast<float>(sb[j]);  // the replay's scales: the bfloat16 values
    }
    std::vector<bfloat16_t> gotBf;
    std::vector<float> gotF;
    OnBlock(
        [&](Ub& ub) {
          ub.Put<int32_t>(1, x);
          ub.Put<bfloat16_t>(2, sb);
          AscendDequant(ub.Get<bfloat16_t>(0), ub.Get<int32_t>(1), ub.Get<bfloat16_t>(2),
                        ub.Get<uint8_t>(3), DequantParams{m, n, cal});
          gotBf = ub.Take<bfloat16_t>(0);
          AscendDequant(ub.Get<float>(0), ub.Get<int32_t>(1), ub.Get<bfloat16_t>(2),
                        DequantParams{m, n, cal});
          gotF = ub.Take<float>(0);
        },
        k910B);
    rp::DequantCall c{false, true, false, m, n, cal};
    const auto wantF = rp::ReplayAscendDequant(c, x, s);
    for (size_t e = 0; e < wantF.size(); ++e) {
      ASSERT_EQ(Bits(gotF[e]), Bits(wantF[e])) << m << "x" << n << " cal " << cal << " " << e;
    }
    c.dstBf16 = true;
    ExpectPaddedRows(gotBf, rp::ReplayAscendDequant(c, x, s), m, n, cal);
  }
}

// uint64 scales (the float in the low word) to half, rows padded to 16 halves.
TEST(QuantReplay, AscendDequantHalfFromUint64Scales) {
  uint32_t seed = 900;
  for (const auto& dims :
       {std::array<uint32_t, 3>{3, 24, 24}, {5, 40, 8}, {1, 64, 32}, {9, 8, 8}}) {
    const uint32_t m = dims[0], n = dims[1], cal = dims[2];
    const std::vector<int32_t> x = Ints(++seed, size_t{m} * n);
    const std::vector<float> s = Scales(++seed, n);
    std::vector<uint64_t> s64(n);
    for (uint32_t j = 0; j < n; ++j) s64[j] = (uint64_t{0xABCD} << 32) | Bits(s[j]);
    std::vector<half> got;
    OnBlock(
        [&](Ub& ub) {
          ub.Put<int32_t>(1, x);
          ub.Put<uint64_t>(2, s64);
          AscendDequant(ub.Get<half>(0), ub.Get<int32_t>(1), ub.Get<uint64_t>(2),
                        ub.Get<uint8_t>(3), DequantParams{m, n, cal});
          got = ub.Take<half>(0);
        },
        k910B);
    ExpectPaddedRows(got, rp::ReplayAscendDequant({true, true, false, m, n, cal}, x, s), m, n, cal);
  }
}

// ---- AscendAntiQuant, int8 -> half ----

enum class AqForm { kTensors, kScaleTensor, kScalars, kScaleScalar };

// One call; offset and scale tensors in buffer 2 (scale at kScaleAt), tmp in buffer 3; x: the
// source's bytes (S int8_t or int4b_t, K * N elements).
template <typename D, typename S = int8_t>
std::vector<D> RunAntiQuant(AqForm form, bool transpose, bool withTmp, uint32_t tmpBytes,
                            uint32_t K, uint32_t N, uint32_t groups, const std::vector<uint8_t>& x,
                            const std::vector<D>& off, const std::vector<D>& scl) {
  constexpr uint32_t kScaleAt = 8192;
  std::vector<D> got;
  OnBlock(
      [&](Ub& ub) {
        std::memcpy(ub.Get<uint8_t>(1).HostPtr(), x.data(), x.size());
        LocalTensor<D> o = ub.Get<D>(2), s = ub.Get<D>(2)[kScaleAt];
        std::copy(off.begin(), off.end(), o.HostPtr());
        std::copy(scl.begin(), scl.end(), s.HostPtr());
        o.SetSize(groups * N);  // the bf16 path's scratch test reads the scale's size
        s.SetSize(groups * N);
        LocalTensor<S> src = ub.Get<S>(1);
        src.SetSize(K * N);
        LocalTensor<D> dst = ub.Get<D>(0);
        LocalTensor<uint8_t> tmp = ub.Get<uint8_t>(3);
        tmp.SetSize(tmpBytes);
        const uint32_t rowsOf = transpose ? N : groups, colsOf = transpose ? groups : N;
        const AntiQuantShapeInfo info{rowsOf, colsOf, rowsOf, colsOf};
#define LNGRAD_RP_AQ(...)                                \
  if (transpose) {                                       \
    AscendAntiQuant<S, D, true>(dst, src, __VA_ARGS__);  \
  } else {                                               \
    AscendAntiQuant<S, D, false>(dst, src, __VA_ARGS__); \
  }
        switch (form) {
          case AqForm::kTensors:
            if (withTmp) {
              LNGRAD_RP_AQ(o, s, tmp, K, info)
            } else {
              LNGRAD_RP_AQ(o, s, K, info)
            }
            break;
          case AqForm::kScaleTensor:
            LNGRAD_RP_AQ(s, tmp, K, info)
            break;
          case AqForm::kScalars:
            if (withTmp) {
              LNGRAD_RP_AQ(D(1.3f), D(-0.7f), tmp, K)
            } else {
              LNGRAD_RP_AQ(D(1.3f), D(-0.7f), K)
            }
            break;
          case AqForm::kScaleScalar:
            LNGRAD_RP_AQ(D(-2.9f), tmp, K)
            break;
        }
#undef LNGRAD_RP_AQ
        got = ub.Take<D>(0);
      },
      k910B);
  got.resize(size_t{K} * N);
  return got;
}

// tmpBytes: the sharedTmpBuffer's size (small: the transposed forms' scalar fallback). S
// int4b_t: random bytes, decoded by the replay's own reading (aq3510::DecodeInt4).
template <typename D = half, typename S = int8_t>
void CheckAntiQuant(AqForm form, bool transpose, bool withTmp, uint32_t K, uint32_t N,
                    uint32_t groups, uint32_t seed, uint32_t tmpBytes = kUbBufBytes) {
  constexpr bool kInt4 = std::is_same_v<S, AscendC::int4b_t>;
  std::vector<uint8_t> bytes(kInt4 ? (size_t{K} * N + 1) / 2 : size_t{K} * N);
  std::mt19937 gen(seed);
  for (uint8_t& v : bytes) v = static_cast<uint8_t>(gen());
  std::vector<int8_t> x;
  if constexpr (kInt4) {
    x = rp::aq3510::DecodeInt4(bytes, size_t{K} * N);
  } else {
    x.assign(bytes.begin(), bytes.end());
  }
  const size_t params = size_t{groups} * N;
  const std::vector<D> off = Values<D>(seed + 1, params, 300.0f);
  const std::vector<D> scl = Values<D>(seed + 2, params, 40.0f);
  const std::vector<D> got =
      RunAntiQuant<D, S>(form, transpose, withTmp, tmpBytes, K, N, groups, bytes, off, scl);
  constexpr bool kBf16 = std::is_same_v<D, bfloat16_t>;
  const bool tensors = form == AqForm::kTensors || form == AqForm::kScaleTensor;
  const bool hasOffset = form == AqForm::kTensors || form == AqForm::kScalars;
  // The Brcb path: 32 bytes per scale row (64 with an offset) of tmp; the framework's buffer
  // (32 KiB here) holds them for these shapes.
  const bool brcb = !withTmp || tmpBytes >= 32u * N * (hasOffset ? 2 : 1);
  // int4b_t, half, transposed off the Brcb path (AntiQuantImplScalar, with or without an offset
  // tensor: calls src[i K + j groupSize] of groupSize elements): a call at an odd element
  // starts at the nibble before it, as aq3510::Int4AsRead reads it (session 16, helper aqn4).
  if constexpr (kInt4 && std::is_same_v<D, half>) {
    if (transpose && tensors && !brcb) {
      rp::aq3510::ScaleOnlyCall sc;
      sc.transpose = true;
      sc.k = K;
      sc.srcSize = K * N;
      sc.scaleRows = N;
      sc.scaleCols = groups;
      sc.tmpBytes = tmpBytes;
      sc.scale.assign(params, 1.0f);
      x = rp::aq3510::Int4AsRead(sc, bytes);
    }
  }
  rp::AntiQuantCall c{transpose,
                      hasOffset,
                      brcb,
                      kBf16,
                      K,
                      N,
                      groups,
                      {},
                      {},
                      static_cast<float>(D(1.3f)),
                      static_cast<float>(D(form == AqForm::kScalars ? -0.7f : -2.9f))};
  if (tensors) {
    c.scale.assign(scl.begin(), scl.end());
    if (hasOffset) c.offset.assign(off.begin(), off.end());
  }
  const std::vector<float> want = rp::ReplayAscendAntiQuant(c, x);
  std::vector<float> gotF(got.begin(), got.end());
  for (size_t e = 0; e < want.size(); ++e) {
    if (std::isnan(want[e]) && std::isnan(gotF[e])) continue;
    const uint32_t wantBits = kBf16 ? Bits(want[e]) >> 16 : rp::FloatToHalf(want[e]).bits;
    ASSERT_EQ(Bits(got[e]), wantBits)
        << (kInt4 ? "int4 " : "") << "form " << static_cast<int>(form)
        << (transpose ? " transposed " : " ") << K << "x" << N << " groups " << groups
        << (withTmp ? " tmp" : " stack") << " element " << e << ": lngrad " << gotF[e]
        << ", replay " << want[e];
  }
}

TEST(QuantReplay, AscendAntiQuantHalfPerChannelAndScalars) {
  uint32_t seed = 1200;
  for (bool transpose : {false, true}) {
    for (const auto& [K, N] : {std::array<uint32_t, 2>{64, 48}, {200, 32}, {33, 160}}) {
      if (transpose && K % 16 != 0) continue;  // rows of 32-byte blocks
      CheckAntiQuant(AqForm::kTensors, transpose, true, K, N, 1, seed += 3);
      CheckAntiQuant(AqForm::kTensors, transpose, false, K, N, 1, seed += 3);
      CheckAntiQuant(AqForm::kScaleTensor, transpose, true, K, N, 1, seed += 3);
      CheckAntiQuant(AqForm::kScalars, transpose, true, K, N, 1, seed += 3);
      CheckAntiQuant(AqForm::kScalars, transpose, false, K, N, 1, seed += 3);
      CheckAntiQuant(AqForm::kScaleScalar, transpose, true, K, N, 1, seed += 3);
    }
  }
}

// Without transpose and without offset, the scale rows are groups along K.
TEST(QuantReplay, AscendAntiQuantHalfScaleGroupsAlongK) {
  CheckAntiQuant(AqForm::kScaleTensor, false, true, 64, 48, 4, 1300);
  CheckAntiQuant(AqForm::kScaleTensor, false, true, 200, 32, 2, 1301);
}

// With an offset tensor the performance path (not transposed) and the Brcb path (transposed)
// take element n whatever the groups; the transposed scalar fallback (a small tmp) groups.
// bfloat16 output, not transposed: the float sequence; with an offset the performance path
// (column n adds offset[n] and, with groups, multiplies by offset[N + n]: the scale's floats
// follow the offset's whole size), the scale-only form by groups.
// N 96, not 48: the performance path's int8_t source stride N / 32 blocks truncates for N not a
// multiple of 32 (checked mode refuses it; AntiQuantFallbackReplay.
// CheckedModeRefusesRowStridesThatTruncate).
TEST(QuantReplay, AscendAntiQuantBf16NotTransposed) {
  uint32_t seed = 1500;
  for (const auto& [K, N] : {std::array<uint32_t, 2>{64, 96}, {33, 160}}) {
    for (uint32_t groups : {1u, 3u}) {
      if (K % groups != 0) continue;
      CheckAntiQuant<bfloat16_t>(AqForm::kTensors, false, true, K, N, groups, seed += 3);
      CheckAntiQuant<bfloat16_t>(AqForm::kScaleTensor, false, true, K, N, groups, seed += 3);
    }
    CheckAntiQuant<bfloat16_t>(AqForm::kScalars, false, true, K, N, 1, seed += 3);
    CheckAntiQuant<bfloat16_t>(AqForm::kScalars, false, false, K, N, 1, seed += 3);
    CheckAntiQuant<bfloat16_t>(AqForm::kScaleScalar, false, true, K, N, 1, seed += 3);
  }
}

// bfloat16 output, transposed (ascend_antiquant_c220_impl.h, AscendAntiQuantBF16Transpose): K a
// multiple of 64 takes the Brcb sequence (row n: float offset[n] and scale[n], float Add and
// Mul, CAST_RINT), other K the scalar fallback; with one group both read element n.
TEST(QuantReplay, AscendAntiQuantBf16Transposed) {
  uint32_t seed = 1600;
  for (const auto& [K, N] : {std::array<uint32_t, 2>{64, 48}, {128, 16}, {32, 40}}) {
    CheckAntiQuant<bfloat16_t>(AqForm::kTensors, true, true, K, N, 1, seed += 3);
    CheckAntiQuant<bfloat16_t>(AqForm::kTensors, true, false, K, N, 1, seed += 3);
    CheckAntiQuant<bfloat16_t>(AqForm::kScaleTensor, true, true, K, N, 1, seed += 3);
    CheckAntiQuant<bfloat16_t>(AqForm::kScalars, true, true, K, N, 1, seed += 3);
    CheckAntiQuant<bfloat16_t>(AqForm::kScaleScalar, true, true, K, N, 1, seed += 3);
  }
}

// int4b_t sources (Atlas A2 / A3; session 14, helper aqn): the same paths as int8 with the
// source decoded from its nibbles, low nibble first (replay_antiquant_3510.h DecodeInt4): half
// and bfloat16 output, every form, transposed and not, the performance, Brcb, chunked and
// scalar paths; rows of whole 32-byte blocks of int4 (N, or K transposed, a multiple of 64).
TEST(QuantReplay, AscendAntiQuantInt4Sources) {
  using AscendC::int4b_t;
  uint32_t seed = 1700;
  for (bool transpose : {false, true}) {
    const uint32_t K = transpose ? 128 : 33, N = transpose ? 48 : 64;
    CheckAntiQuant<half, int4b_t>(AqForm::kTensors, transpose, true, K, N, 1, seed += 3);
    CheckAntiQuant<half, int4b_t>(AqForm::kTensors, transpose, false, K, N, 1, seed += 3);
    CheckAntiQuant<half, int4b_t>(AqForm::kScaleTensor, transpose, true, K, N, 1, seed += 3);
    CheckAntiQuant<half, int4b_t>(AqForm::kScalars, transpose, true, K, N, 1, seed += 3);
    CheckAntiQuant<half, int4b_t>(AqForm::kScaleScalar, transpose, true, K, N, 1, seed += 3);
    CheckAntiQuant<bfloat16_t, int4b_t>(AqForm::kTensors, transpose, true, K, N, 1, seed += 3);
    CheckAntiQuant<bfloat16_t, int4b_t>(AqForm::kScaleTensor, transpose, true, K, N, 1, seed += 3);
    CheckAntiQuant<bfloat16_t, int4b_t>(AqForm::kScalars, transpose, true, K, N, 1, seed += 3);
  }
  CheckAntiQuant<half, int4b_t>(AqForm::kScaleTensor, false, true, 64, 64, 4, seed += 3);
  CheckAntiQuant<half, int4b_t>(AqForm::kTensors, true, true, 64, 48, 2, seed += 3, 1024);
}

// Session 16 (helper aqn4): int4b_t, half, transposed with a small sharedTmpBuffer (1024 bytes:
// AntiQuantImplScalar, not the Brcb path), groups of an odd size (k 96 and 160 in 32 groups; 3
// groups of 32 as the control), with an offset tensor and scale-only: each group's call at an
// odd element reads from the nibble before it (lngrad had read the element itself with an
// offset).
TEST(QuantReplay, AscendAntiQuantInt4TransposedFallbackOddGroups) {
  using AscendC::int4b_t;
  uint32_t seed = 1800;
  for (const auto& [K, groups] : {std::array<uint32_t, 2>{96, 32}, {160, 32}, {96, 3}}) {
    CheckAntiQuant<half, int4b_t>(AqForm::kTensors, true, true, K, 48, groups, seed += 3, 1024);
    CheckAntiQuant<half, int4b_t>(AqForm::kScaleTensor, true, true, K, 48, groups, seed += 3, 1024);
  }
}

TEST(QuantReplay, AscendAntiQuantHalfGroupsOnlyWhereThePathReadsThem) {
  CheckAntiQuant(AqForm::kTensors, false, true, 64, 48, 2, 1400);
  CheckAntiQuant(AqForm::kTensors, true, true, 64, 48, 2, 1401);
  CheckAntiQuant(AqForm::kTensors, true, true, 64, 48, 2, 1402, 1024);
  CheckAntiQuant(AqForm::kScaleTensor, true, true, 64, 48, 4, 1403, 1024);
  CheckAntiQuant(AqForm::kTensors, true, true, 64, 48, 1, 1404, 1024);
}

}  // namespace
