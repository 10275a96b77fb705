// Where, Xor, BitwiseAnd/Or/Xor/Not, LogicalXor, Axpy and ArithProgression / Arange run as
// kernels on Ascend950PR_9589 and compared byte for byte with the replay of their 3510 files
// (replay_elementwise_3510.h): every type the 3510 file accepts, every operand form, counts
// with tails (0, 1, a register less one, a register, one more, several registers and a tail),
// random bytes (NaN payloads, infinities, signed zeros, subnormals among them), condition and
// bool bytes other than 0 and 1. All four UB buffers are compared after the call: the outputs,
// the sources and what lies past the count (marked before the call), the sharedTmpBuffer too
// (the 950's code never touches it).
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "../aicore/repeat_test_util.h"
#include "../aicore/sanitizer_off.h"
#include "kernel_operator.h"
#include "replay_elementwise_3510.h"

namespace {

using namespace AscendC;
using lngrad::aicore::test::kUbBufBytes;
using lngrad::aicore::test::OnBlock;
using lngrad::aicore::test::Ub;
namespace rp = lngrad_replay;

constexpr const char* k950 = "Ascend950PR_9589";
constexpr uint8_t kMark = 0xa5;

using Bufs = std::array<std::vector<uint8_t>, 4>;

// The four buffers set to `init`, body run on one block of the 950, the buffers after it.
Bufs RunOn950(const Bufs& init, const std::function<void(Ub&)>& body) {
  Bufs out;
  OnBlock(
      [&](Ub& ub) {
        for (int i = 0; i < 4; ++i) ub.Put<uint8_t>(i, init[i]);
        body(ub);
        for (int i = 0; i < 4; ++i) out[i] = ub.Take<uint8_t>(i);
      },
      k950);
  return out;
}

void ExpectSameBytes(const Bufs& got, const Bufs& want, const std::string& what) {
  for (int b = 0; b < 4; ++b) {
    if (got[b].size() != want[b].size()) {
      ADD_FAILURE() << what << ": buffer " << b << " not read back (the launch failed)";
      return;
    }
    for (size_t i = 0; i < want[b].size(); ++i) {
      if (got[b][i] == want[b][i]) continue;
      ADD_FAILURE() << what << ": buffer " << b << " byte " << i << std::hex << ": lngrad 0x"
                    << int(got[b][i]) << ", replay 0x" << int(want[b][i]);
      return;
    }
  }
}

// IEEE NaN test of an element's bits (float: 4 bytes, half: 2).
bool NanBits(const uint8_t* p, size_t bytes) {
  if (bytes == 4) {
    uint32_t b;
    std::memcpy(&b, p, 4);
    return (b & 0x7f800000u) == 0x7f800000u && (b & 0x7fffffu) != 0;
  }
  uint16_t h;
  std::memcpy(&h, p, 2);
  return (h & 0x7c00u) == 0x7c00u && (h & 0x3ffu) != 0;
}

// As ExpectSameBytes, but in buffer `b` (a floating result of `elem` bytes) two NaNs match
// whatever their payloads (docs/ascendc_kernels.md §2: NaN payloads are not promised).
void ExpectSameNanAware(const Bufs& got, const Bufs& want, int b, size_t elem,
                        const std::string& what) {
  Bufs g = got, w = want;
  if (g[b].size() == w[b].size()) {
    for (size_t i = 0; i + elem <= w[b].size(); i += elem) {
      if (NanBits(&g[b][i], elem) && NanBits(&w[b][i], elem)) {
        std::memcpy(&g[b][i], &w[b][i], elem);
      }
    }
  }
  ExpectSameBytes(g, w, what);
}

std::vector<uint8_t> Marked() { return std::vector<uint8_t>(kUbBufBytes, kMark); }

// Special element patterns of a floating type of `bytes` bytes (0: none).
std::vector<uint64_t> SpecialBits(int kind) {
  if (kind == 4) {  // float
    return {0x0,        0x80000000, 0x7f800000, 0xff800000, 0x7fc00000, 0xffc00001,
            0x7f800001, 0x00000001, 0x807fffff, 0x3f800000, 0xbf800000, 0x7f7fffff};
  }
  if (kind == 2) {  // half
    return {0x0, 0x8000, 0x7c00, 0xfc00, 0x7e00, 0xfe01, 0x7c01, 0x0001, 0x83ff, 0x3c00, 0x7bff};
  }
  if (kind == 3) {  // bfloat16
    return {0x0, 0x8000, 0x7f80, 0xff80, 0x7fc0, 0xffc1, 0x7f81, 0x0001, 0x807f, 0x3f80, 0x7f7f};
  }
  return {};
}

// A buffer of random elements of T's size: random bytes, every fourth element zero, specials
// (kind: 4 float, 2 half, 3 bfloat16, 0 integer) sprinkled, so compares and selects meet them.
template <typename T>
std::vector<uint8_t> Elems(uint32_t seed, int kind) {
  std::mt19937_64 gen(seed);
  const std::vector<uint64_t> sp = SpecialBits(kind);
  std::vector<uint8_t> v(kUbBufBytes);
  for (size_t e = 0; e < kUbBufBytes / sizeof(T); ++e) {
    uint64_t bits = gen();
    const uint64_t pick = gen() % 8;
    if (pick == 0) bits = 0;
    if (pick == 1 && !sp.empty()) bits = sp[gen() % sp.size()];
    std::memcpy(&v[e * sizeof(T)], &bits, sizeof(T));
  }
  return v;
}

// Condition / bool bytes: mostly 0 and 1, some 2, 0x80 and 0xff (true for the device's NE 0).
std::vector<uint8_t> BoolBytes(uint32_t seed) {
  std::mt19937 gen(seed);
  const uint8_t pool[] = {0, 1, 0, 1, 0, 1, 2, 0x80, 0xff};
  std::vector<uint8_t> v(kUbBufBytes);
  for (auto& b : v) b = pool[gen() % sizeof(pool)];
  return v;
}

// A bool scalar is a C++ bool (0 or 1; any other byte is no bool value): a nonzero byte is true.
template <typename T>
T FromBytes(const uint8_t* p) {
  if constexpr (std::is_same_v<T, bool>) {
    return *p != 0;
  } else {
    T v;
    std::memcpy(&v, p, sizeof(T));
    return v;
  }
}

template <typename T>
constexpr int KindOf() {
  if constexpr (std::is_same_v<T, float>) return 4;
  if constexpr (std::is_same_v<T, half>) return 2;
  if constexpr (std::is_same_v<T, bfloat16_t>) return 3;
  return 0;
}

// Counts with tails for elements of `bytes` bytes (lanes per repeat: 256 / bytes, 64 for 8).
std::vector<uint32_t> Counts(uint32_t bytes) {
  const uint32_t lanes = bytes == 8 ? 64 : 256 / bytes;
  const uint32_t most = kUbBufBytes / bytes;
  return {0,        1,   lanes - 1, lanes, lanes + 1, 2 * lanes, 3 * lanes + 7, 4 * lanes + 5,
          most - 3, most};
}

// ---- Where --------------------------------------------------------------------------------

template <typename T>
void WhereCases() {
  for (int form = 0; form < 4; ++form) {
    for (uint32_t count : Counts(sizeof(T))) {
      const uint32_t seed = 100 * form + count;
      Bufs init = {Elems<T>(seed, KindOf<T>()), Elems<T>(seed + 1, KindOf<T>()),
                   BoolBytes(seed + 2), Marked()};
      if constexpr (std::is_same_v<T, bool>) {  // bool data: every byte value, as the condition
        init[0] = BoolBytes(seed);
        init[1] = BoolBytes(seed + 1);
      }
      T sc0 = FromBytes<T>(&init[0][8 * sizeof(T)]);
      T sc1 = FromBytes<T>(&init[1][9 * sizeof(T)]);
      if constexpr (std::is_same_v<T, bool>) {  // a bool scalar holds 0 or 1
        sc0 = init[0][8] != 0;
        sc1 = init[1][9] != 0;
      }
      const Bufs got = RunOn950(init, [&](Ub& ub) {
        const LocalTensor<T> d = ub.Get<T>(3), s0 = ub.Get<T>(0), s1 = ub.Get<T>(1);
        const LocalTensor<bool> c = ub.Get<bool>(2);
        if (form == 0) Where(d, s0, s1, c, count);
        if (form == 1) Where<T>(d, sc0, s1, c, count);
        if (form == 2) Where<T>(d, s0, sc1, c, count);
        if (form == 3) Where<T>(d, sc0, sc1, c, count);
      });
      Bufs want = init;
      const bool scalar0 = form == 1 || form == 3, scalar1 = form == 2 || form == 3;
      uint8_t b0[sizeof(T)], b1[sizeof(T)];
      std::memcpy(b0, &sc0, sizeof(T));
      std::memcpy(b1, &sc1, sizeof(T));
      rp::ReplayWhere3510(want[3].data(), scalar0 ? b0 : want[0].data(), scalar0,
                          scalar1 ? b1 : want[1].data(), scalar1, want[2].data(), count, sizeof(T));
      ExpectSameBytes(got, want,
                      "Where size " + std::to_string(sizeof(T)) + " kind " +
                          std::to_string(KindOf<T>()) + " form " + std::to_string(form) +
                          " count " + std::to_string(count));
    }
  }
}

TEST(ElementwiseReplay3510, WhereEveryTypeAndForm) {
  WhereCases<bool>();
  WhereCases<int8_t>();
  WhereCases<uint8_t>();
  WhereCases<int16_t>();
  WhereCases<uint16_t>();
  WhereCases<half>();
  WhereCases<bfloat16_t>();
  WhereCases<int32_t>();
  WhereCases<uint32_t>();
  WhereCases<float>();
  WhereCases<int64_t>();
  WhereCases<uint64_t>();
}

// ---- Xor ----------------------------------------------------------------------------------

template <typename T>
void XorCases() {
  constexpr uint32_t kAll = kUbBufBytes / sizeof(T);
  for (int overload = 0; overload < 4; ++overload) {
    for (uint32_t count : Counts(sizeof(T))) {
      if (count == 0 && (overload == 1 || overload == 3)) continue;  // whole-tensor forms
      const Bufs init = {Elems<T>(count, 0), Elems<T>(count + 7, 0), Marked(), Marked()};
      const Bufs got = RunOn950(init, [&](Ub& ub) {
        LocalTensor<T> s0 = ub.Get<T>(0), s1 = ub.Get<T>(1);
        s0.SetSize(count);  // the whole-tensor forms take src0's size
        s1.SetSize(count);
        if (overload == 0 || overload == 2) {
          s0.SetSize(kAll);
          s1.SetSize(kAll);
        }
        const LocalTensor<T> d = ub.Get<T>(2);
        const LocalTensor<uint8_t> tmp = ub.Get<uint8_t>(3);
        if (overload == 0) Xor(d, s0, s1, tmp, count);
        if (overload == 1) Xor(d, s0, s1, tmp);
        if (overload == 2) Xor(d, s0, s1, count);
        if (overload == 3) Xor<T, false>(d, s0, s1);
      });
      Bufs want = init;
      rp::ReplayXor3510(reinterpret_cast<uint16_t*>(want[2].data()),
                        reinterpret_cast<const uint16_t*>(want[0].data()),
                        reinterpret_cast<const uint16_t*>(want[1].data()), count);
      ExpectSameBytes(
          got, want,
          "Xor overload " + std::to_string(overload) + " count " + std::to_string(count));
    }
  }
}

TEST(ElementwiseReplay3510, XorEveryOverload) {
  XorCases<int16_t>();
  XorCases<uint16_t>();
}

// ---- BitwiseAnd / Or / Xor / Not ----------------------------------------------------------

template <typename T>
void BitwiseCases() {
  using U = std::make_unsigned_t<T>;
  for (rp::BitOp op : {rp::BitOp::kAnd, rp::BitOp::kOr, rp::BitOp::kXor, rp::BitOp::kNot}) {
    for (uint32_t count : Counts(sizeof(T))) {
      const Bufs init = {Elems<T>(count, 0), Elems<T>(count + 3, 0), Marked(), Marked()};
      const Bufs got = RunOn950(init, [&](Ub& ub) {
        const LocalTensor<T> s0 = ub.Get<T>(0), s1 = ub.Get<T>(1), d = ub.Get<T>(2);
        if (op == rp::BitOp::kAnd) BitwiseAnd(d, s0, s1, count);
        if (op == rp::BitOp::kOr) BitwiseOr(d, s0, s1, count);
        if (op == rp::BitOp::kXor) BitwiseXor(d, s0, s1, count);
        if (op == rp::BitOp::kNot) BitwiseNot(d, s0, count);
      });
      Bufs want = init;
      rp::ReplayBitwise3510<U>(op, reinterpret_cast<U*>(want[2].data()),
                               reinterpret_cast<const U*>(want[0].data()),
                               reinterpret_cast<const U*>(want[1].data()), count);
      ExpectSameBytes(got, want,
                      "Bitwise op " + std::to_string(int(op)) + " size " +
                          std::to_string(sizeof(T)) + " count " + std::to_string(count));
    }
  }
}

TEST(ElementwiseReplay3510, BitwiseEveryOpAndType) {
  BitwiseCases<int8_t>();
  BitwiseCases<uint8_t>();
  BitwiseCases<int16_t>();
  BitwiseCases<uint16_t>();
  BitwiseCases<int32_t>();
  BitwiseCases<uint32_t>();
  BitwiseCases<int64_t>();
  BitwiseCases<uint64_t>();
}

// ---- LogicalXor ---------------------------------------------------------------------------

// T: lngrad's element type; R: the replay's (bool -> uint8_t, half -> Half, bfloat16 -> Bf16).
template <typename T, typename R>
void LogicalXorCases() {
  for (uint32_t count : Counts(sizeof(T))) {
    Bufs init;
    if constexpr (std::is_same_v<T, bool>) {  // bytes 0, 1 and others (true for NE 0)
      init = {BoolBytes(count), BoolBytes(count + 5), Marked(), Marked()};
    } else {
      init = {Elems<T>(count, KindOf<T>()), Elems<T>(count + 5, KindOf<T>()), Marked(), Marked()};
    }
    const Bufs got = RunOn950(init, [&](Ub& ub) {
      const LocalTensor<T> s0 = ub.Get<T>(0), s1 = ub.Get<T>(1);
      LogicalXor(ub.Get<bool>(2), s0, s1, count);
    });
    Bufs want = init;
    rp::ReplayLogicalXor3510<R>(want[2].data(), reinterpret_cast<const R*>(want[0].data()),
                                reinterpret_cast<const R*>(want[1].data()), count);
    ExpectSameBytes(got, want,
                    "LogicalXor size " + std::to_string(sizeof(T)) + " kind " +
                        std::to_string(KindOf<T>()) + " count " + std::to_string(count));
  }
}

TEST(ElementwiseReplay3510, LogicalXorEverySourceType) {
  LogicalXorCases<bool, uint8_t>();
  LogicalXorCases<uint8_t, uint8_t>();
  LogicalXorCases<int8_t, int8_t>();
  LogicalXorCases<half, rp::Half>();
  LogicalXorCases<bfloat16_t, rp::Bf16>();
  LogicalXorCases<uint16_t, uint16_t>();
  LogicalXorCases<int16_t, int16_t>();
  LogicalXorCases<float, float>();
  LogicalXorCases<uint32_t, uint32_t>();
  LogicalXorCases<int32_t, int32_t>();
  LogicalXorCases<uint64_t, uint64_t>();
  LogicalXorCases<int64_t, int64_t>();
}

// ---- Axpy ---------------------------------------------------------------------------------

// Floating values for Axpy: mostly finite values of a few magnitudes (so products and sums
// round), some specials and subnormals.
template <typename T>
std::vector<uint8_t> AxpyValues(uint32_t seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> u(-4.0f, 4.0f);
  std::uniform_int_distribution<int> e(-20, 12);
  const std::vector<uint64_t> sp = SpecialBits(KindOf<T>());
  std::vector<uint8_t> v(kUbBufBytes);
  for (size_t i = 0; i < kUbBufBytes / sizeof(T); ++i) {
    const float f = std::ldexp(u(gen), e(gen));
    T x = T(f);
    if (gen() % 16 == 0) {
      const uint64_t bits = sp[gen() % sp.size()];
      std::memcpy(&x, &bits, sizeof(T));
    }
    std::memcpy(&v[i * sizeof(T)], &x, sizeof(T));
  }
  return v;
}

template <typename T, typename U, typename RT, typename RU>
void AxpyCases(const std::vector<float>& scalars) {
  for (float sf : scalars) {
    for (uint32_t count : Counts(sizeof(T))) {
      if (count > kUbBufBytes / sizeof(U)) continue;
      const U s = U(sf);
      const Bufs init = {AxpyValues<U>(count), AxpyValues<T>(count + 1), Marked(), Marked()};
      const Bufs got = RunOn950(init, [&](Ub& ub) {
        Axpy<T, U, false>(ub.Get<T>(1), ub.Get<U>(0), s, ub.Get<uint8_t>(2), count);
      });
      Bufs want = init;
      RU rs;
      std::memcpy(&rs, &s, sizeof(U));
      rp::ReplayAxpy3510(reinterpret_cast<RT*>(want[1].data()),
                         reinterpret_cast<const RU*>(want[0].data()), rs, count);
      ExpectSameNanAware(got, want, 1, sizeof(T),
                         "Axpy dst size " + std::to_string(sizeof(T)) + " src size " +
                             std::to_string(sizeof(U)) + " scalar " + std::to_string(sf) +
                             " count " + std::to_string(count));
    }
  }
}

const std::vector<float> kAxpyScalars = {
    1.0f / 3.0f, -2.75f, 1e-3f,
    0.0f,        -0.0f,  1e30f,
    6e-8f,       -7.1f,  std::numeric_limits<float>::infinity()};

TEST(ElementwiseReplay3510, AxpyEveryTypePair) {
  AxpyCases<float, float, float, float>(kAxpyScalars);
  AxpyCases<float, half, float, rp::Half>(kAxpyScalars);
  AxpyCases<half, half, rp::Half, rp::Half>(kAxpyScalars);
}

// Half operands whose exact x·s + d rounds differently once (the register Axpy) and through a
// float sum first (2201's sequence): the replay's single rounding must be what lngrad gives.
TEST(ElementwiseReplay3510, AxpyHalfRoundsOnceWhereTheFloatPathDoesNot) {
  const uint16_t cases[][3] = {{0x18d0, 0x237b, 0x2125},
                               {0x4142, 0x3184, 0x5264},
                               {0x61d0, 0x3240, 0x0037},
                               {0x69a0, 0x4990, 0x1172}};
  for (const auto& c : cases) {
    const rp::Half x{c[0]}, s{c[1]}, d{c[2]};
    const float viaFloat = rp::HalfToFloat(x) * rp::HalfToFloat(s) + rp::HalfToFloat(d);
    Bufs init = {Marked(), Marked(), Marked(), Marked()};
    std::memcpy(init[0].data(), &x, 2);
    std::memcpy(init[1].data(), &d, 2);
    half hs;
    std::memcpy(&hs, &s, 2);
    const Bufs got = RunOn950(init, [&](Ub& ub) {
      Axpy<half, half, false>(ub.Get<half>(1), ub.Get<half>(0), hs, ub.Get<uint8_t>(2), 1);
    });
    Bufs want = init;
    rp::ReplayAxpy3510(reinterpret_cast<rp::Half*>(want[1].data()),
                       reinterpret_cast<const rp::Half*>(want[0].data()), s, 1);
    rp::Half replayed;
    std::memcpy(&replayed, want[1].data(), 2);
    EXPECT_NE(replayed.bits, rp::FloatToHalf(viaFloat).bits) << "not a double-rounding case";
    ExpectSameBytes(got, want, "Axpy half once, x " + std::to_string(c[0]));
  }
}

// Every binary16 source against a few scalars and random half destinations.
TEST(ElementwiseReplay3510, AxpyHalfEveryBinary16Source) {
  constexpr uint32_t kSlice = 16384;
  for (float sf : {0.3330078125f, -1.5f, 1000.0f}) {
    for (uint32_t start = 0; start < 65536; start += kSlice) {
      Bufs init = {Marked(), AxpyValues<half>(start + 11), Marked(), Marked()};
      for (uint32_t i = 0; i < kSlice; ++i) {
        const uint16_t bits = static_cast<uint16_t>(start + i);
        std::memcpy(&init[0][2 * i], &bits, 2);
      }
      const half s = half(sf);
      const Bufs got = RunOn950(init, [&](Ub& ub) {
        Axpy<half, half, false>(ub.Get<half>(1), ub.Get<half>(0), s, ub.Get<uint8_t>(2), kSlice);
      });
      Bufs want = init;
      rp::Half rs;
      std::memcpy(&rs, &s, 2);
      rp::ReplayAxpy3510(reinterpret_cast<rp::Half*>(want[1].data()),
                         reinterpret_cast<const rp::Half*>(want[0].data()), rs, kSlice);
      ExpectSameNanAware(got, want, 1, 2, "Axpy half every source, slice " + std::to_string(start));
      // The float destination with half sources, on the same sources.
      Bufs initF = {init[0], AxpyValues<float>(start + 12), Marked(), Marked()};
      const Bufs gotF = RunOn950(initF, [&](Ub& ub) {
        Axpy<float, half, false>(ub.Get<float>(1), ub.Get<half>(0), s, ub.Get<uint8_t>(2),
                                 kUbBufBytes / 4);
      });
      Bufs wantF = initF;
      rp::ReplayAxpy3510(reinterpret_cast<float*>(wantF[1].data()),
                         reinterpret_cast<const rp::Half*>(wantF[0].data()), rs, kUbBufBytes / 4);
      ExpectSameNanAware(gotF, wantF, 1, 4, "Axpy float<-half, slice " + std::to_string(start));
    }
  }
}

// ---- ArithProgression / Arange ------------------------------------------------------------

template <typename T, typename R>
void ArithCases(const std::vector<std::pair<double, double>>& firstDiff) {
  for (const auto& [f, df] : firstDiff) {
    for (uint32_t count : Counts(sizeof(T))) {
      for (int api = 0; api < 2; ++api) {
        const Bufs init = {Marked(), Marked(), Marked(), Marked()};
        const T first = T(f), diff = T(df);
        const Bufs got = RunOn950(init, [&](Ub& ub) {
          const LocalTensor<T> d = ub.Get<T>(0);
          if (api == 0) ArithProgression<T>(d, first, diff, static_cast<int32_t>(count));
          if (api == 1) Arange<T>(d, first, diff, static_cast<int32_t>(count));
        });
        Bufs want = init;
        R rf, rd;
        std::memcpy(&rf, &first, sizeof(T));
        std::memcpy(&rd, &diff, sizeof(T));
        rp::ReplayArithProgression3510<R>(reinterpret_cast<R*>(want[0].data()), rf, rd,
                                          static_cast<int32_t>(count));
        ExpectSameBytes(got, want,
                        "ArithProgression size " + std::to_string(sizeof(T)) + " kind " +
                            std::to_string(KindOf<T>()) + " first " + std::to_string(f) + " diff " +
                            std::to_string(df) + " count " + std::to_string(count) + " api " +
                            std::to_string(api));
      }
    }
  }
}

TEST(ElementwiseReplay3510, ArithProgressionEveryType) {
  const std::vector<std::pair<double, double>> fp = {{0.1, 0.3},  {-1000.5, 0.0078125}, {3.0, 1.0},
                                                     {-0.0, 0.0}, {1e6, 12.375},        {2.5, 0.1}};
  ArithCases<float, float>(fp);
  ArithCases<half, rp::Half>(
      {{0.1, 0.3}, {-100.5, 0.0078125}, {3.0, 1.0}, {-0.0, 0.0}, {1.0, 0.0999755859375}});
  const std::vector<std::pair<double, double>> ints = {
      {0, 1}, {-7, 3}, {1000, 257}, {-30000, 700}, {5, 0}};
  ArithCases<int16_t, int16_t>(ints);
  ArithCases<int32_t, int32_t>({{0, 1}, {-7, 3}, {2000000000, 123457}, {5, 0}});
  ArithCases<int64_t, int64_t>({{0, 1}, {-7, 3}, {9000000000000000000.0, 1e15}, {5, 0}});
}

}  // namespace
