// lngrad's DropOut and SelectWithBytesMask on the 950 (Ascend950PR_9589, arch 3510) run as
// kernels and compared bit for bit with the independent replay of dropout_3510_impl.h and
// selectwithbytesmask_3510_impl.h (replay_filter_select_3510.h): DropOut in every mode (the
// template's 1 to 4 and 0, which infers it), half, float and bfloat16_t, keepProb values whose
// 1/keepProb rounds or overflows the type, sources with NaN, +-inf, +-0 and subnormals, mask bytes
// other than 0 and 1, counts that leave partial registers (float's odd last register of the bit
// mode included), in place; Select in both operand orders, every mask type the 3510 code takes,
// padded mask rows, isReuseMask both ways. Nothing past the count is written; the sources, the
// mask and the scratch are kept. Also the checks the 3510 code asserts.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <limits>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "../aicore/repeat_test_util.h"
#include "../aicore/sanitizer_off.h"
#include "activation_replay_test_util.h"
#include "kernel_operator.h"
#include "replay_filter_select_3510.h"

namespace {

using namespace activation_replay_test;  // NOLINT(google-build-using-namespace)
using AscendC::LocalTensor;
using lngrad::aicore::test::kUbBufBytes;
using lngrad::aicore::test::Ub;

constexpr const char* kSoc = "Ascend950PR_9589";

template <class T>
const char* TypeName() {
  if constexpr (std::is_same_v<T, half>) return "half";
  if constexpr (std::is_same_v<T, bfloat16_t>) return "bfloat16_t";
  return "float";
}

// The specials and random values (Inputs); for float every fourth a random bit pattern.
template <class T>
std::vector<T> Operands(uint32_t seed, uint32_t count) {
  std::vector<T> v = Inputs<T>(seed, count, 50.0f);
  if constexpr (std::is_same_v<T, float>) {
    std::mt19937 gen(seed + 12345);
    for (size_t i = Specials().size(); i < v.size(); i += 4)
      v[i] = std::bit_cast<float>(static_cast<uint32_t>(gen()));
  }
  return v;
}

// Bytes: a third 0, a third 1, a third any byte (the byte modes multiply by the byte's value).
std::vector<uint8_t> MaskBytes(uint32_t seed, size_t n) {
  std::mt19937 gen(seed);
  std::vector<uint8_t> m(n);
  for (uint8_t& b : m) {
    const uint32_t k = gen() % 3;
    b = static_cast<uint8_t>(k == 2 ? gen() % 256 : k);
  }
  return m;
}

std::vector<uint8_t> Pattern(uint32_t seed) {
  std::mt19937 gen(seed);
  std::vector<uint8_t> v(kUbBufBytes);
  for (uint8_t& b : v) b = static_cast<uint8_t>(gen());
  return v;
}

// ---------------------------------------------------------------------------------------------
// DropOut

std::string Num(float v) {
  char b[32];
  std::snprintf(b, sizeof b, "%g", static_cast<double>(v));
  return b;
}

struct DropCase {
  uint32_t rows, srcLast, maskLast, mode;  // mode: the template's dropOutMode
};

template <class T, uint32_t M>
void CallDropOut(const LocalTensor<T>& d, const LocalTensor<T>& s, const LocalTensor<uint8_t>& m,
                 const LocalTensor<uint8_t>& t, float keep, const AscendC::DropOutShapeInfo& info,
                 bool withTmp) {
  if (withTmp) {
    AscendC::DropOut<T, false, M>(d, s, m, t, keep, info);
  } else {
    AscendC::DropOut<T, false, M>(d, s, m, keep, info);
  }
}

template <class T>
void CallDropOutMode(uint32_t mode, const LocalTensor<T>& d, const LocalTensor<T>& s,
                     const LocalTensor<uint8_t>& m, const LocalTensor<uint8_t>& t, float keep,
                     const AscendC::DropOutShapeInfo& info, bool withTmp) {
  switch (mode) {
    case 0:
      return CallDropOut<T, 0>(d, s, m, t, keep, info, withTmp);
    case 1:
      return CallDropOut<T, 1>(d, s, m, t, keep, info, withTmp);
    case 2:
      return CallDropOut<T, 2>(d, s, m, t, keep, info, withTmp);
    case 3:
      return CallDropOut<T, 3>(d, s, m, t, keep, info, withTmp);
    default:
      return CallDropOut<T, 4>(d, s, m, t, keep, info, withTmp);
  }
}

AscendC::DropOutShapeInfo DropInfo(const DropCase& c) {
  AscendC::DropOutShapeInfo info;
  info.firstAxis = c.rows;
  info.srcLastAxis = c.srcLast;
  info.maskLastAxis = c.maskLast;
  return info;
}

template <class T>
void CheckDropOut(const DropCase& c, float keep, bool withTmp, bool inPlace, uint32_t seed) {
  const uint32_t n = c.rows * c.srcLast;
  const std::vector<T> src = Operands<T>(seed, n);
  const std::vector<uint8_t> mask = MaskBytes(seed + 1, kUbBufBytes);
  const std::vector<uint8_t> tmp = Pattern(seed + 2);
  std::vector<T> dst, srcAfter;
  std::vector<uint8_t> maskAfter, tmpAfter;
  lngrad::aicore::test::OnBlock(
      [&](Ub& ub) {
        ub.Put<T>(0, {}, Sentinel<T>());
        ub.Put<T>(1, src, Sentinel<T>());
        ub.Put<uint8_t>(2, mask);
        ub.Put<uint8_t>(3, tmp);
        const LocalTensor<T> s = ub.Get<T>(1);
        CallDropOutMode<T>(c.mode, inPlace ? s : ub.Get<T>(0), s, ub.Get<uint8_t>(2),
                           ub.Get<uint8_t>(3), keep, DropInfo(c), withTmp);
        dst = ub.Take<T>(inPlace ? 1 : 0);
        srcAfter = ub.Take<T>(1);
        maskAfter = ub.Take<uint8_t>(2);
        tmpAfter = ub.Take<uint8_t>(3);
      },
      kSoc);
  std::vector<T> want(kUbBufBytes / sizeof(T), Sentinel<T>());
  const rp::DropOutShape shape{c.rows, c.srcLast, c.maskLast};
  rp::ReplayDropOut3510(shape, c.mode, reinterpret_cast<const R<T>*>(src.data()), mask.data(), keep,
                        reinterpret_cast<R<T>*>(want.data()));
  const std::string what =
      std::string("DropOut<") + TypeName<T>() + ", mode " + std::to_string(c.mode) + " (runs " +
      std::to_string(rp::DropOutMode3510(shape, c.mode)) + ")> [" + std::to_string(c.rows) + ", " +
      std::to_string(c.srcLast) + "] mask row " + std::to_string(c.maskLast) + " keepProb " +
      Num(keep) + (withTmp ? " tmp" : "") + (inPlace ? " in place" : "");
  ExpectBits(dst, want, n, what);
  if (!inPlace) {
    EXPECT_EQ(std::memcmp(srcAfter.data(), src.data(), n * sizeof(T)), 0) << what;
  }
  EXPECT_EQ(maskAfter, mask) << what << ": the mask changed";
  EXPECT_EQ(tmpAfter, tmp) << what << ": the scratch changed";
}

// {rows, srcLast, maskLast, mode}: byte dense (2), byte padded (1), bit dense (3), bit padded (4),
// from the shape (0) or named; float's bit mode with an even and an odd number of registers.
const DropCase kDropCases[] = {
    {1, 1000, 1000, 0}, {3, 200, 200, 2},  {4, 48, 64, 0},  {3, 144, 160, 1},
    {2, 272, 288, 1},   {1, 1000, 125, 0}, {2, 264, 33, 3}, {1, 136, 17, 0},
    {3, 144, 32, 0},    {4, 272, 64, 4},   {3, 16, 32, 4},  {2, 512, 64, 4},
};

// 0.3: 1/keepProb rounds in every type; 1e-5: it overflows half; 1e-39: it overflows float.
const float kKeeps[] = {0.5f, 0.3f, 0.9f, 1e-5f, 1e-39f};

template <class T>
void CheckDropOutType() {
  uint32_t seed = 100;
  for (const DropCase& c : kDropCases) {
    for (float keep : kKeeps) {
      ++seed;
      CheckDropOut<T>(c, keep, seed % 2 == 0, false, seed);
    }
    CheckDropOut<T>(c, 0.7f, true, true, ++seed);
  }
}

TEST(FilterSelectReplay3510, DropOutFloatBitwise) { CheckDropOutType<float>(); }
TEST(FilterSelectReplay3510, DropOutHalfBitwise) { CheckDropOutType<half>(); }
TEST(FilterSelectReplay3510, DropOutBfloat16Bitwise) { CheckDropOutType<bfloat16_t>(); }

// The kit's own example (DropOut.md): byte mask, keepProb 0.5, src 0..31.
TEST(FilterSelectReplay3510, DropOutDocumentationExample) {
  const uint8_t m[32] = {0, 1, 0, 0, 0, 0, 0, 0, 1, 0, 1, 1, 1, 0, 1, 1,
                         0, 0, 1, 0, 0, 1, 1, 1, 1, 0, 1, 0, 1, 1, 1, 0};
  std::vector<float> src(32), want(32, -7.25f);
  for (int i = 0; i < 32; ++i) src[i] = static_cast<float>(i);
  rp::ReplayDropOut3510<float>({1, 32, 32}, 0, src.data(), m, 0.5f, want.data());
  for (int i = 0; i < 32; ++i) EXPECT_EQ(want[i], m[i] != 0 ? 2.0f * i : 0.0f) << i;
}

// Bit mode on the 950: a cleared bit gives +0 by the masked Mul, whatever 1/keepProb is (an
// infinite one included); the byte mode multiplies a dropped element by 0 (so -0, or NaN for
// an infinite source).
TEST(FilterSelectReplay3510, DropOutDroppedElementsOn950) {
  const std::vector<float> src = {
      -3.0f, std::numeric_limits<float>::infinity(), 2.0f, -0.0f, 5.0f, -1.0f, 7.0f, 8.0f};
  const uint8_t bits[1] = {0x14};  // elements 2 and 4 kept
  std::vector<float> got(8);
  rp::ReplayDropOut3510<float>({1, 8, 1}, 0, src.data(), bits, 1e-39f, got.data());
  for (int i = 0; i < 8; ++i) {
    if (i == 2 || i == 4) {
      EXPECT_EQ(got[i], std::numeric_limits<float>::infinity()) << i;
    } else {
      EXPECT_EQ(std::bit_cast<uint32_t>(got[i]), 0u) << i;
    }
  }
  const uint8_t bytes[8] = {0, 0, 1, 0, 1, 0, 0, 0};
  rp::ReplayDropOut3510<float>({1, 8, 8}, 0, src.data(), bytes, 0.5f, got.data());
  EXPECT_EQ(std::bit_cast<uint32_t>(got[0]), 0x80000000u);
  EXPECT_TRUE(std::isnan(got[1]));
  EXPECT_EQ(got[2], 4.0f);
}

// The checks dropout_3510_impl.h asserts: keepProb in (0, 1) (1 itself refused on the 950) and
// firstAxis > 0.
TEST(FilterSelectReplay3510, DropOutChecksOn950) {
  using lngrad::aicore::test::ExpectCheck;
  const auto call = [](float keep, uint32_t rows) {
    return [=](Ub& ub) {
      AscendC::DropOut(ub.Get<float>(0), ub.Get<float>(1), ub.Get<uint8_t>(2), ub.Get<uint8_t>(3),
                       keep, DropInfo({rows, 64, 64, 0}));
    };
  };
  ExpectCheck(call(1.0f, 2), "quant_filter_arg", "keepProb", kSoc);
  ExpectCheck(call(0.0f, 2), "quant_filter_arg", "keepProb", kSoc);
  ExpectCheck(call(0.5f, 0), "quant_filter_arg", "firstAxis", kSoc);
  ExpectCheck(call(0.5f, 2), "", "", kSoc);
  ExpectCheck(call(1.0f, 2), "", "", "Ascend910B1");  // 2201 keeps its (0, 1]
}

// ---------------------------------------------------------------------------------------------
// SelectWithBytesMask

struct SelCase {
  uint32_t rows, srcLast, maskLast;
};

// The host storage of a mask element type (bool as its byte).
template <class U>
using MaskStorage = std::conditional_t<std::is_same_v<U, bool>, uint8_t, U>;

// Mask elements: zeros, ones, and nonzero values whose low byte is 0 or whose sign bit alone is
// set (bool: 0 and 1).
template <class U>
std::vector<MaskStorage<U>> SelectMask(uint32_t seed, size_t n) {
  std::mt19937 gen(seed);
  std::vector<MaskStorage<U>> m(n);
  for (auto& v : m) {
    const uint32_t k = gen() % 6;
    uint32_t bits = k < 3 ? 0u : (k == 3 ? 1u : static_cast<uint32_t>(gen()));
    if constexpr (sizeof(U) > 1) {
      if (k == 5) bits = (gen() % 2 == 0) ? 0x100u : (1u << (8 * sizeof(U) - 1));
    }
    if constexpr (std::is_same_v<U, bool>) bits &= 1u;
    std::memcpy(&v, &bits, sizeof(v));  // little-endian: the low bytes
  }
  return m;
}

template <class T, class U, bool reuse>
void CallSelect(bool scalarFirst, const LocalTensor<T>& d, const LocalTensor<T>& s, T scalar,
                const LocalTensor<U>& m, const LocalTensor<uint8_t>& t,
                const AscendC::SelectWithBytesMaskShapeInfo& info) {
  if (scalarFirst) {
    AscendC::Select<T, U, reuse>(d, scalar, s, m, t, info);
  } else {
    AscendC::SelectWithBytesMask<T, U, reuse>(d, s, scalar, m, t, info);
  }
}

template <class T, class U>
void CheckSelect(const SelCase& c, bool scalarFirst, bool reuse, T scalar, uint32_t seed) {
  const uint32_t n = c.rows * c.srcLast;
  const std::vector<T> src = Operands<T>(seed, n);
  using S = MaskStorage<U>;
  const std::vector<S> mask = SelectMask<U>(seed + 1, kUbBufBytes / sizeof(U));
  const std::vector<uint8_t> tmp = Pattern(seed + 2);
  std::vector<T> dst, srcAfter;
  std::vector<S> maskAfter;
  std::vector<uint8_t> tmpAfter;
  lngrad::aicore::test::OnBlock(
      [&](Ub& ub) {
        ub.Put<T>(0, {}, Sentinel<T>());
        ub.Put<T>(1, src, Sentinel<T>());
        ub.Put<S>(2, mask);
        ub.Put<uint8_t>(3, tmp);
        LocalTensor<T> s = ub.Get<T>(1);
        s.SetSize(n);
        LocalTensor<U> m = ub.Get<U>(2);
        m.SetSize(c.rows * c.maskLast);
        AscendC::SelectWithBytesMaskShapeInfo info;
        info.firstAxis = c.rows;
        info.srcLastAxis = c.srcLast;
        info.maskLastAxis = c.maskLast;
        if (reuse) {
          CallSelect<T, U, true>(scalarFirst, ub.Get<T>(0), s, scalar, m, ub.Get<uint8_t>(3), info);
        } else {
          CallSelect<T, U, false>(scalarFirst, ub.Get<T>(0), s, scalar, m, ub.Get<uint8_t>(3),
                                  info);
        }
        dst = ub.Take<T>(0);
        srcAfter = ub.Take<T>(1);
        maskAfter = ub.Take<S>(2);
        tmpAfter = ub.Take<uint8_t>(3);
      },
      kSoc);
  std::vector<T> want(kUbBufBytes / sizeof(T), Sentinel<T>());
  R<T> rs;
  std::memcpy(&rs, &scalar, sizeof(T));
  rp::ReplaySelectWithBytesMask3510(c.rows, c.srcLast, c.maskLast,
                                    reinterpret_cast<const R<T>*>(src.data()), rs, mask.data(),
                                    scalarFirst, reinterpret_cast<R<T>*>(want.data()));
  const std::string what =
      std::string("Select<") + TypeName<T>() + ", " + std::to_string(sizeof(U)) + "-byte mask" +
      (std::is_signed_v<U> ? " signed" : "") + "> [" + std::to_string(c.rows) + ", " +
      std::to_string(c.srcLast) + "] mask row " + std::to_string(c.maskLast) +
      (scalarFirst ? " (scalar, tensor)" : " (tensor, scalar)") + (reuse ? " isReuseMask" : "");
  // A select copies bits: NaN payloads too.
  EXPECT_EQ(std::memcmp(dst.data(), want.data(), dst.size() * sizeof(T)), 0) << what;
  ExpectBits(dst, want, n, what);
  EXPECT_EQ(std::memcmp(srcAfter.data(), src.data(), n * sizeof(T)), 0) << what;
  EXPECT_EQ(std::memcmp(maskAfter.data(), mask.data(), mask.size() * sizeof(U)), 0)
      << what << ": the mask changed";
  EXPECT_EQ(tmpAfter, tmp) << what << ": the scratch changed";
}

template <class T, class U>
void CheckSelectTypes() {
  // Rows 32-byte aligned in T and in U, mask rows a multiple of 16 and at least srcLast.
  constexpr uint32_t kUnitT = 32 / sizeof(T);
  constexpr uint32_t kUnitM = std::max<uint32_t>(16, 32 / sizeof(U));
  const SelCase cases[] = {
      {4, 2 * kUnitM, 2 * kUnitM},
      {3, 160, 160},
      {2, 3 * kUnitT, 4 * kUnitM},
      {5, 272, 288},
      {1, 1024, 1024},
      {3, kUnitT, kUnitM},
  };
  const T scalars[] = {Make<T>(-1.5f), Make<T>(std::numeric_limits<float>::quiet_NaN()),
                       Make<T>(-0.0f)};
  uint32_t seed = 500 + sizeof(U) * 7 + sizeof(T);
  for (const SelCase& c : cases) {
    for (int order = 0; order < 2; ++order) {
      for (int reuse = 0; reuse < 2; ++reuse) {
        ++seed;
        CheckSelect<T, U>(c, order != 0, reuse != 0, scalars[seed % 3], seed);
      }
    }
  }
}

template <class T>
void CheckSelectEveryMask() {
  CheckSelectTypes<T, bool>();
  CheckSelectTypes<T, uint8_t>();
  CheckSelectTypes<T, int8_t>();
  CheckSelectTypes<T, uint16_t>();
  CheckSelectTypes<T, int16_t>();
  CheckSelectTypes<T, uint32_t>();
  CheckSelectTypes<T, int32_t>();
}

TEST(FilterSelectReplay3510, SelectFloatBitwise) { CheckSelectEveryMask<float>(); }
TEST(FilterSelectReplay3510, SelectHalfBitwise) { CheckSelectEveryMask<half>(); }

// What selectwithbytesmask_3510_impl.h asserts (and its static_assert on the mask type).
template <class T, class U>
std::function<void(Ub&)> SelectCall(uint32_t rows, uint32_t s, uint32_t m, uint32_t srcSize,
                                    uint32_t maskSize) {
  return [=](Ub& ub) {
    LocalTensor<T> src = ub.Get<T>(1);
    src.SetSize(srcSize);
    LocalTensor<U> mask = ub.Get<U>(2);
    mask.SetSize(maskSize);
    AscendC::SelectWithBytesMaskShapeInfo info;
    info.firstAxis = rows;
    info.srcLastAxis = s;
    info.maskLastAxis = m;
    AscendC::Select(ub.Get<T>(0), src, Make<T>(1.0f), mask, ub.Get<uint8_t>(3), info);
  };
}

TEST(FilterSelectReplay3510, SelectChecksOn950) {
  using lngrad::aicore::test::ExpectCheck;
  constexpr const char* kArg = "quant_filter_arg";
  ExpectCheck(SelectCall<half, uint16_t>(2, 32, 32, 64, 64), "", "", kSoc);
  ExpectCheck(SelectCall<half, uint16_t>(2, 24, 32, 48, 64), kArg, "srcLastAxis 24", kSoc);
  ExpectCheck(SelectCall<half, uint16_t>(2, 32, 40, 64, 80), kArg, "maskLastAxis 40", kSoc);
  ExpectCheck(SelectCall<float, int32_t>(2, 8, 8, 16, 16), kArg, "multiple of 16", kSoc);
  ExpectCheck(SelectCall<half, uint16_t>(2, 32, 32, 128, 64), kArg, "tensor source", kSoc);
  ExpectCheck(SelectCall<half, uint16_t>(2, 32, 32, 64, 128), kArg, "the mask holds", kSoc);
  ExpectCheck(SelectCall<half, uint16_t>(2, 64, 48, 128, 96), kArg, "at least srcLastAxis", kSoc);
  ExpectCheck(SelectCall<float, float>(2, 32, 32, 64, 64), kArg, "mask type", kSoc);
  // 2201/2002 assert the same rules (selectwithbytesmaskcheck_common.h, the kit's kernel check
  // there): a float mask and a larger source are refused there too.
  ExpectCheck(SelectCall<float, float>(2, 32, 32, 64, 64), kArg, "mask type", "Ascend910B1");
  ExpectCheck(SelectCall<half, uint16_t>(2, 32, 32, 128, 128), kArg, "tensor source",
              "Ascend910B1");
}

}  // namespace
