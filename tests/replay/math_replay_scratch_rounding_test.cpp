// What the rounding APIs (Ceil, Floor, Trunc, Round, Frac), Sign and ClampMin / ClampMax leave in
// their scratch and dst on arch 2201 (Ascend910B1) and 2002 (Ascend310P1), against the replay of
// the kit's loops (replay_math_scratch_rounding.h): the sharedTmpBuffer overloads and those that
// pop the stack buffer (the TPipe sized so that it leaves exactly the scratch's bytes), scratch
// sizes from the tiling minimum to one chunk for every count (and one no multiple of 32),
// counts 0, 1, tails no multiple of the chunk or of a repeat and a few thousand, inputs with
// NaN, +-inf, +-0, subnormals, ties and values past int32 (every binary16 pattern for half).
// The whole scratch is compared (the bytes the kit's code does not write keep their 0xa5
// fill; two NaNs match, as for dst), dst bit for bit with the elements past the count (the
// sentinel), and the source unchanged.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "kernel_operator.h"
#include "lngrad_aicore/launch.h"
#include "math_replay_test_util.h"
#include "replay_math_scratch_rounding.h"
#include "scratch_test_util.h"
#include "../aicore/sanitizer_off.h"

namespace {

namespace rp = lngrad_replay;
using AscendC::LocalTensor;
using lngrad_replay::scratch_test::Aligned32;
using lngrad_replay::test::IsNan;
using lngrad_replay::test::kInf;
using lngrad_replay::test::kNan;

constexpr uint8_t kFill = 0xa5;
constexpr uint32_t kPast = 128;  // dst and src elements past the count (a half repeat)
const char* const kSocs[] = {"Ascend910B1", "Ascend310P1"};

template <class T>
T Sentinel() {
  const uint32_t bits = sizeof(T) == 2 ? 0x5a5bu : 0x5a5b5c5du;
  T v;
  std::memcpy(&v, &bits, sizeof(T));
  return v;
}

template <class T>
using R = std::conditional_t<sizeof(T) == 2, rp::Half, float>;
template <class T>
using Call = std::function<void(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                                const LocalTensor<uint8_t>& tmp, uint32_t count, bool stack)>;
// The replay: src and dst hold count + kPast elements (dst the sentinel past the count).
template <class T>
using ReplayFn = std::function<bool(bool arch2002, const R<T>* src, R<T>* dst, uint32_t n,
                                    uint8_t* scratch, uint32_t tmpBytes)>;

struct Got {
  std::vector<uint8_t> dst, src, tmp;
};

template <class T>
std::vector<uint8_t> BytesOf(const T* p, size_t n) {
  const auto* b = reinterpret_cast<const uint8_t*>(p);
  return std::vector<uint8_t>(b, b + n * sizeof(T));
}

// One block of soc: src (in, count + kPast elements), dst (the sentinel), the scratch of
// tmpBytes filled with kFill (a TBuf, or the stack buffer with a filler buffer before it).
template <class T>
Got RunKernel(const char* soc, const std::vector<T>& in, uint32_t count, uint32_t tmpBytes,
              bool stack, const Call<T>& call) {
  Got g;
  lngrad::aicore::LaunchOptions opts;
  opts.soc = soc;
  const auto kernel = [&] {
    AscendC::TPipe pipe;
    AscendC::TBuf<> bs, bd, bt, filler;
    const uint32_t ns = static_cast<uint32_t>(in.size());
    pipe.InitBuffer(bs, Aligned32(ns * sizeof(T)));
    pipe.InitBuffer(bd, Aligned32(ns * sizeof(T)));
    LocalTensor<uint8_t> tmp;
    lngrad_replay::scratch_test::TakeScratch(pipe, bt, filler, stack, tmpBytes, &tmp);
    if (::testing::Test::HasFatalFailure()) return;
    LocalTensor<T> s = bs.Get<T>(ns), d = bd.Get<T>(ns);
    std::copy(in.begin(), in.end(), s.HostPtr());
    std::fill(d.HostPtr(), d.HostPtr() + ns, Sentinel<T>());
    std::fill(tmp.HostPtr(), tmp.HostPtr() + tmpBytes, kFill);
    call(d, s, tmp, count, stack);
    g.dst = BytesOf(d.HostPtr(), ns);
    g.src = BytesOf(s.HostPtr(), ns);
    if (stack) {
      ASSERT_TRUE((AscendC::PopStackBuffer<uint8_t, AscendC::TPosition::VECCALC>(tmp)));
    }
    g.tmp.assign(tmp.HostPtr(), tmp.HostPtr() + tmpBytes);
  };
  const lngrad::Status st = lngrad::aicore::Launch(1, kernel, opts);
  EXPECT_TRUE(st.ok()) << st.ToString();
  return g;
}

// got == want as elements of E (two NaNs match), bytes past the last whole element exactly.
template <class E>
void ExpectWords(const std::vector<uint8_t>& got, const std::vector<uint8_t>& want,
                 const std::string& what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  const size_t whole = got.size() / sizeof(E) * sizeof(E);
  for (size_t i = 0; i < got.size(); i += (i < whole ? sizeof(E) : 1)) {
    const size_t len = i < whole ? sizeof(E) : 1;
    if (std::memcmp(&got[i], &want[i], len) == 0) continue;
    if (len == sizeof(E)) {
      E a, b;
      std::memcpy(&a, &got[i], sizeof(E));
      std::memcpy(&b, &want[i], sizeof(E));
      if (IsNan(a) && IsNan(b)) continue;
    }
    uint32_t a = 0, b = 0;
    std::memcpy(&a, &got[i], len);
    std::memcpy(&b, &want[i], len);
    ADD_FAILURE() << what << ": bytes " << i << ".." << i + len - 1 << " of " << got.size()
                  << " differ: lngrad 0x" << std::hex << a << ", replay 0x" << b;
    return;
  }
}

template <class T>
void Compare(const char* soc, const std::string& api, const std::vector<T>& in, uint32_t count,
             uint32_t tmpBytes, bool stack, const Call<T>& call, const ReplayFn<T>& replay) {
  const std::string what = api + (sizeof(T) == 2 ? "<half>" : "<float>") + " on " + soc +
                           ", count " + std::to_string(count) + ", scratch " +
                           std::to_string(tmpBytes) + (stack ? " (stack)" : " (sharedTmpBuffer)");
  std::vector<T> want_dst(in.size(), Sentinel<T>());
  std::vector<uint8_t> want_tmp(tmpBytes, kFill);
  const bool is2002 = std::string(soc) == "Ascend310P1";
  ASSERT_TRUE(replay(is2002, reinterpret_cast<const R<T>*>(in.data()),
                     reinterpret_cast<R<T>*>(want_dst.data()), count, want_tmp.data(), tmpBytes))
      << what;
  const Got got = RunKernel(soc, in, count, tmpBytes, stack, call);
  ExpectWords<T>(got.dst, BytesOf(want_dst.data(), want_dst.size()), what + " dst");
  ExpectWords<T>(got.src, BytesOf(in.data(), in.size()), what + " src");
  ExpectWords<float>(got.tmp, want_tmp, what + " scratch");
}

// n values in [lo, hi) with the specials at random places (about one in 15).
std::vector<float> Mixed(uint32_t seed, size_t n) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> u(-300.0f, 300.0f);
  std::uniform_int_distribution<int> pick(0, 299);
  const float sp[] = {0.0f,    -0.0f,         kInf,           -kInf,   kNan,   1e-40f,
                      -1e-40f, 2.5f,          -2.5f,          0.5f,    -0.5f,  3e9f,
                      -3e9f,   2147483520.0f, -2147483648.0f, 1.5e38f, -7.25f, -0.25f};
  constexpr int kSp = sizeof(sp) / sizeof(sp[0]);
  std::vector<float> v(n);
  for (auto& x : v) {
    const int k = pick(gen);
    x = k < kSp ? sp[k] : u(gen);
  }
  return v;
}

// Every binary16 pattern, from `start`, n of them.
std::vector<half> AllHalves(uint32_t start, uint32_t n) {
  std::vector<half> v(n);
  for (uint32_t i = 0; i < n; ++i) {
    const uint16_t b = static_cast<uint16_t>(start + i);
    std::memcpy(&v[i], &b, 2);
  }
  return v;
}

const std::vector<uint32_t> kCounts = {0, 1, 37, 255, 257, 1000, 1537, 4099};

// The minimum, one block more, six blocks more, odd multiples plus odd blocks, one chunk for
// every count, and (sharedTmpBuffer only) a size that is no multiple of 32.
std::vector<uint32_t> Sizes(uint32_t min, bool stack) {
  std::vector<uint32_t> v = {min, min + 32, min + 192, 3 * min + 96, 5 * min + 160, 49152};
  if (!stack) v.push_back(min + 44);
  return v;
}

// Every count and size, both overloads, on both socs (min2002: the minimum there); float
// inputs Mixed, half ones every binary16 pattern in slices; then every binary16 pattern.
template <class T>
void Sweep(const std::string& api, uint32_t min, uint32_t min2002, const Call<T>& call,
           const ReplayFn<T>& replay) {
  uint32_t seed = 1;
  for (const char* soc : kSocs) {
    const uint32_t m = std::string(soc) == "Ascend310P1" ? min2002 : min;
    for (bool stack : {false, true}) {
      for (uint32_t tmp : Sizes(m, stack)) {
        for (uint32_t n : kCounts) {
          ++seed;
          std::vector<T> in;
          if constexpr (sizeof(T) == 2) {
            in = AllHalves(seed * 4099u % 65536u, n + kPast);
          } else {
            in = Mixed(seed, n + kPast);
          }
          Compare<T>(soc, api, in, n, tmp, stack, call, replay);
        }
      }
    }
  }
  if constexpr (sizeof(T) == 2) {
    for (const char* soc : kSocs) {
      for (uint32_t start = 0; start < 65536; start += 8192) {
        Compare<T>(soc, api, AllHalves(start, 8192 + kPast), 8192, min2002 + 96, false, call,
                   replay);
      }
    }
  }
}

// ---------------------------------------------------------------------------------------------

#define ROUNDING_CALL(Name)                                                                        \
  template <class T>                                                                               \
  void Call##Name(const LocalTensor<T>& d, const LocalTensor<T>& s, const LocalTensor<uint8_t>& t, \
                  uint32_t n, bool stack) {                                                        \
    stack ? AscendC::Name<T, false>(d, s, n) : AscendC::Name<T, false>(d, s, t, n);                \
  }
ROUNDING_CALL(Ceil)
ROUNDING_CALL(Floor)
ROUNDING_CALL(Trunc)
ROUNDING_CALL(Round)
ROUNDING_CALL(Frac)
#undef ROUNDING_CALL

template <class T>
ReplayFn<T> RoundingReplay(rp::RoundingOp op) {
  return [op](bool arch2002, const R<T>* src, R<T>* dst, uint32_t n, uint8_t* scratch,
              uint32_t tmpBytes) {
    return rp::ReplayRoundingScratch(op, arch2002, src, dst, n, scratch, tmpBytes);
  };
}

// The GetXxxMaxMinTmpSize minimums (float 32 bytes where the minimum is 0: the sweep needs a
// buffer; the float paths that take none are then checked to leave it alone).
TEST(MathScratchRounding, Ceil) {
  Sweep<float>("Ceil", 256, 256, CallCeil<float>, RoundingReplay<float>(rp::RoundingOp::kCeil));
  Sweep<half>("Ceil", 512, 512, CallCeil<half>, RoundingReplay<half>(rp::RoundingOp::kCeil));
}

TEST(MathScratchRounding, Floor) {
  Sweep<float>("Floor", 32, 32, CallFloor<float>, RoundingReplay<float>(rp::RoundingOp::kFloor));
  Sweep<half>("Floor", 512, 512, CallFloor<half>, RoundingReplay<half>(rp::RoundingOp::kFloor));
}

TEST(MathScratchRounding, Trunc) {
  Sweep<float>("Trunc", 256, 256, CallTrunc<float>, RoundingReplay<float>(rp::RoundingOp::kTrunc));
  Sweep<half>("Trunc", 512, 512, CallTrunc<half>, RoundingReplay<half>(rp::RoundingOp::kTrunc));
}

TEST(MathScratchRounding, Round) {
  Sweep<float>("Round", 32, 256, CallRound<float>, RoundingReplay<float>(rp::RoundingOp::kRound));
  Sweep<half>("Round", 256, 512, CallRound<half>, RoundingReplay<half>(rp::RoundingOp::kRound));
}

TEST(MathScratchRounding, Frac) {
  Sweep<float>("Frac", 32, 32, CallFrac<float>, RoundingReplay<float>(rp::RoundingOp::kFrac));
  Sweep<half>("Frac", 1024, 1024, CallFrac<half>, RoundingReplay<half>(rp::RoundingOp::kFrac));
}

// ClampMin / ClampMax with a scalar in the sources' range, then +-0 and NaN as the scalar.
template <class T, bool kMax>
void ClampCases() {
  const float scalars[] = {-3.5f, 0.0f, -0.0f, kNan, 100.0f};
  for (const float sf : scalars) {
    const T scalar = T(sf);
    const Call<T> call = [scalar](const LocalTensor<T>& d, const LocalTensor<T>& s,
                                  const LocalTensor<uint8_t>& t, uint32_t n, bool stack) {
      if constexpr (kMax) {
        stack ? AscendC::ClampMax<T, false>(d, s, scalar, n)
              : AscendC::ClampMax<T, false>(d, s, t, scalar, n);
      } else {
        stack ? AscendC::ClampMin<T, false>(d, s, scalar, n)
              : AscendC::ClampMin<T, false>(d, s, t, scalar, n);
      }
    };
    const ReplayFn<T> replay = [scalar](bool, const R<T>* src, R<T>* dst, uint32_t n, uint8_t*,
                                        uint32_t) {
      R<T> rs;
      std::memcpy(&rs, &scalar, sizeof(T));
      rp::ReplayClampScratch(kMax, src, dst, rs, n);
      return true;
    };
    const uint32_t min = sizeof(T) == 4 ? 64 : 128;
    Sweep<T>(kMax ? "ClampMax" : "ClampMin", min, min, call, replay);
  }
}

TEST(MathScratchRounding, ClampMinMax) {
  ClampCases<float, false>();
  ClampCases<float, true>();
  ClampCases<half, false>();
  ClampCases<half, true>();
}

// Sign: the Compares' lanes past the count read the source's and dst's padding (kPast).
template <class T>
void CallSign(const LocalTensor<T>& d, const LocalTensor<T>& s, const LocalTensor<uint8_t>& t,
              uint32_t n, bool stack) {
  stack ? AscendC::Sign<T, false>(d, s, n) : AscendC::Sign<T, false>(d, s, t, n);
}

TEST(MathScratchRounding, Sign) {
  const auto replay = [](bool, const auto* src, auto* dst, uint32_t n, uint8_t* scratch,
                         uint32_t tmpBytes) {
    return rp::ReplaySignScratch(src, dst, n, scratch, tmpBytes);
  };
  Sweep<float>("Sign", 768, 768, CallSign<float>, replay);
  Sweep<half>("Sign", 768, 768, CallSign<half>, replay);
}

}  // namespace
