// The 950's reduce stores into src and sharedTmpBuffer: lngrad's ReduceSum / Mean / Max / Min /
// Prod / Any / All, Sum and Mean run on Ascend950PR_9589 against the second reading
// (replay_reduce_mem950b.h), byte for byte over the whole UB but dst. The UB is one TBuf of its
// 248 KiB filled with random bytes; the operands are placed in it with GetWithOffset, so what
// the device would store past an operand's end is compared too.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "kernel_operator.h"
#include "replay_reduce_mem950b.h"
#include "../aicore/checked_mode_scope.h"
#include "../aicore/sanitizer_off.h"

namespace {

using namespace AscendC;
namespace rm = lngrad_replay::rm950b;
using lngrad::aicore::test::CheckedModeScope;

constexpr const char* k950 = "Ascend950PR_9589";
constexpr uint32_t kUb = 248 * 1024;
constexpr size_t kDst = 0, kDstBytes = 8192, kSrc = 8192, kGuard = 4096;

template <typename T>
constexpr rm::Ty TyOf() {
  if constexpr (std::is_same_v<T, float>) return rm::Ty::kF32;
  if constexpr (std::is_same_v<T, half>) return rm::Ty::kF16;
  if constexpr (std::is_same_v<T, bfloat16_t>) return rm::Ty::kBf16;
  if constexpr (std::is_same_v<T, int8_t>) return rm::Ty::kI8;
  if constexpr (std::is_same_v<T, uint8_t>) return rm::Ty::kU8;
  if constexpr (std::is_same_v<T, int16_t>) return rm::Ty::kI16;
  if constexpr (std::is_same_v<T, uint16_t>) return rm::Ty::kU16;
  if constexpr (std::is_same_v<T, int32_t>) return rm::Ty::kI32;
  if constexpr (std::is_same_v<T, uint32_t>) return rm::Ty::kU32;
  if constexpr (std::is_same_v<T, int64_t>) return rm::Ty::kI64;
  return rm::Ty::kU64;
}

enum class Fn { kSum, kMean, kMax, kMin, kProd, kAny, kAll };

rm::Op OpOf(Fn f) {
  switch (f) {
    case Fn::kSum:
    case Fn::kMean:
      return rm::Op::kSum;
    case Fn::kMax:
    case Fn::kAny:
      return rm::Op::kMax;
    case Fn::kMin:
    case Fn::kAll:
      return rm::Op::kMin;
    case Fn::kProd:
      return rm::Op::kProd;
  }
  return rm::Op::kSum;
}

rm::Api ApiOf(Fn f) {
  if (f == Fn::kProd) return rm::Api::kProd;
  if (f == Fn::kAny || f == Fn::kAll) return rm::Api::kAnyAll;
  return rm::Api::kSumMaxMin;  // ReduceMean runs ReduceSum's code
}

// Random element bits: a third anything, a third specials (zeros, infinities, NaNs with
// payloads, subnormals, extremes), a third ordinary values.
template <typename T>
void FillElems(std::mt19937_64& g, uint8_t* p, size_t n) {
  constexpr size_t es = sizeof(T);
  for (size_t i = 0; i < n; ++i) {
    uint64_t b = g();
    const int kind = static_cast<int>(g() % 3);
    if (kind == 1) {
      if constexpr (std::is_same_v<T, float>) {
        const uint32_t sp[] = {0u,          0x80000000u, 0x7F800000u, 0xFF800000u, 0x7FC00000u,
                               0xFFC00123u, 0x7F800001u, 0x00000001u, 0x807FFFFFu, 0x7F7FFFFFu};
        b = sp[g() % 10];
      } else if constexpr (std::is_same_v<T, half> || std::is_same_v<T, bfloat16_t>) {
        const bool h = std::is_same_v<T, half>;
        const uint16_t sh[] = {0,      0x8000, 0x7C00, 0xFC00, 0x7E00,
                               0xFE01, 0x7C01, 0x0001, 0x83FF, 0x7BFF};
        const uint16_t sb[] = {0,      0x8000, 0x7F80, 0xFF80, 0x7FC0,
                               0xFFC1, 0x7F81, 0x0001, 0x807F, 0x7F7F};
        b = h ? sh[g() % 10] : sb[g() % 10];
      } else {
        const uint64_t top = uint64_t{1} << (8 * es - 1);
        const uint64_t si[] = {0, 1, top - 1, top, ~uint64_t{0}, top + 1};
        b = si[g() % 6];
      }
    } else if (kind == 2) {
      if constexpr (std::is_same_v<T, float>) {
        const float f = static_cast<float>(static_cast<int64_t>(g() % 2001) - 1000) / 64.0f;
        std::memcpy(&b, &f, 4);
      } else if constexpr (std::is_same_v<T, half> || std::is_same_v<T, bfloat16_t>) {
        const T v(static_cast<float>(static_cast<int64_t>(g() % 2001) - 1000) / 64.0f);
        uint16_t u;
        std::memcpy(&u, &v, 2);
        b = u;
      } else {
        b = static_cast<uint64_t>(static_cast<int64_t>(g() % 201) - 100);
      }
    }
    std::memcpy(p + i * es, &b, es);
  }
}

template <typename T, class P, bool reuse>
void CallReduce(Fn f, const LocalTensor<T>& d, const LocalTensor<T>& s,
                const LocalTensor<uint8_t>& t, const uint32_t shape[]) {
  constexpr bool kF = std::is_same_v<T, float>;
  constexpr bool kSumT = kF || std::is_same_v<T, int32_t> || std::is_same_v<T, uint32_t> ||
                         std::is_same_v<T, int64_t> || std::is_same_v<T, uint64_t>;
  switch (f) {
    case Fn::kSum:
      if constexpr (kSumT) ReduceSum<T, P, reuse>(d, s, t, shape, true);
      break;
    case Fn::kMean:
      if constexpr (kF) ReduceMean<T, P, reuse>(d, s, t, shape, true);
      break;
    case Fn::kProd:
      if constexpr (kF) ReduceProd<T, P, reuse>(d, s, t, shape, true);
      break;
    case Fn::kAny:
      if constexpr (kF || std::is_same_v<T, uint8_t>) ReduceAny<T, P, reuse>(d, s, t, shape, true);
      break;
    case Fn::kAll:
      if constexpr (kF || std::is_same_v<T, uint8_t>) ReduceAll<T, P, reuse>(d, s, t, shape, true);
      break;
    case Fn::kMax:
      ReduceMax<T, P, reuse>(d, s, t, shape, true);
      break;
    case Fn::kMin:
      ReduceMin<T, P, reuse>(d, s, t, shape, true);
      break;
  }
}

size_t Align32(size_t n) { return (n + 31) / 32 * 32; }

// The first differing byte outside dst ("" when the images agree there).
// With `nan_eq` (the float sums and products) two NaNs of any payload agree: lngrad promises
// NaN-ness there, not the payload (docs/ascendc_kernels.md §2).
bool IsNan(const uint8_t* p, rm::Ty t) {
  if (t == rm::Ty::kF32) {
    uint32_t u;
    std::memcpy(&u, p, 4);
    return (u & 0x7F800000u) == 0x7F800000u && (u & 0x7FFFFFu) != 0;
  }
  uint16_t u;
  std::memcpy(&u, p, 2);
  if (t == rm::Ty::kF16) return (u & 0x7C00u) == 0x7C00u && (u & 0x3FFu) != 0;
  return (u & 0x7F80u) == 0x7F80u && (u & 0x7Fu) != 0;
}

std::string Diff(const std::vector<uint8_t>& got, const std::vector<uint8_t>& want, size_t src,
                 size_t tmp, rm::Ty t = rm::Ty::kU8, bool nan_eq = false) {
  size_t n = 0, first = 0;
  const size_t w = rm::SizeOf(t);
  for (size_t i = kDstBytes; i + w <= got.size(); i += w) {
    if (std::memcmp(&got[i], &want[i], w) == 0) continue;
    if (nan_eq && IsNan(&got[i], t) && IsNan(&want[i], t)) continue;
    if (n++ == 0) first = i;
  }
  if (n == 0) return "";
  const char* where = first >= tmp ? "scratch" : (first >= src ? "src" : "?");
  std::string r = std::to_string(n) + " elements differ, the first at UB byte " +
                  std::to_string(first) + " (" + where + " + " +
                  std::to_string(first - (first >= tmp ? tmp : src)) + ")";
  if (std::getenv("RM950B_DUMP") != nullptr) {
    const size_t w = std::stoul(std::getenv("RM950B_DUMP"));
    int shown = 0;
    for (size_t i = first / w * w; i + w <= got.size() && shown < 6; i += w) {
      if (std::memcmp(&got[i], &want[i], w) == 0) continue;
      uint64_t a = 0, b = 0;
      std::memcpy(&a, &got[i], w);
      std::memcpy(&b, &want[i], w);
      char buf[96];
      std::snprintf(buf, sizeof buf, "\n  @%zu lngrad %llx replay %llx", i, (unsigned long long)a,
                    (unsigned long long)b);
      r += buf;
      ++shown;
    }
  }
  return r;
}

struct Shape {
  uint32_t first, last;
};

// Operand sizes other than those the replay's reach asks for (0: the reach, or src's data), and
// sharedTmpBuffer at the UB's end (ending ub_gap bytes before it).
struct Sizes {
  size_t src = 0, tmp = 0;
  bool tmp_at_ub_end = false;
  size_t ub_gap = 0;
};

// One call: lngrad (unchecked, or checked when `checked`) against the replay over the UB image.
template <typename T, bool ra, bool reuse>
std::string RunOne(Fn f, Shape sh, uint64_t seed, bool checked, Sizes z = {}) {
  using P = std::conditional_t<ra, Pattern::Reduce::RA, Pattern::Reduce::AR>;
  constexpr size_t es = sizeof(T);
  const rm::ReduceCall proto{ApiOf(f), OpOf(f), TyOf<T>(), ra, reuse, sh.first, sh.last, 0, 0};
  const rm::Reach reach = rm::ReduceReach(proto);
  const size_t elems = size_t{sh.first} * sh.last;
  const size_t srcBytes = z.src != 0 ? z.src : Align32(elems * es);
  const size_t tmpBytes = z.tmp != 0 ? z.tmp : std::max<size_t>(32, Align32(reach.tmpEnd));
  const size_t tmp = z.tmp_at_ub_end ? kUb - tmpBytes - z.ub_gap
                                     : kSrc + Align32(std::max(srcBytes, reach.srcEnd)) + kGuard;
  if (tmp + tmpBytes + (z.tmp_at_ub_end ? z.ub_gap : kGuard) > kUb) {
    return "case too large for the UB";
  }
  std::vector<uint8_t> before(kUb), after;
  std::mt19937_64 g(seed);
  FillElems<uint8_t>(g, before.data(), kUb);
  FillElems<T>(g, before.data() + kSrc, elems);
  CheckedModeScope mode(checked);
  std::string refused;
  lngrad::aicore::LaunchOptions o;
  o.soc = k950;
  const lngrad::Status st = lngrad::aicore::Launch(
      1,
      [&] {
        TPipe pipe;
        TBuf<> all;
        pipe.InitBuffer(all, kUb);
        uint8_t* img = all.Get<uint8_t>().HostPtr();
        std::memcpy(img, before.data(), kUb);
        const uint32_t shape[] = {sh.first, sh.last};
        try {
          CallReduce<T, P, reuse>(f, all.GetWithOffset<T>(kDstBytes / es, kDst),
                                  all.GetWithOffset<T>(static_cast<uint32_t>(srcBytes / es), kSrc),
                                  all.GetWithOffset<uint8_t>(static_cast<uint32_t>(tmpBytes), tmp),
                                  shape);
        } catch (const lngrad::aicore::KernelCheckError& e) {
          lngrad::aicore::DismissKernelCheck(e);
          refused = e.check() + ": " + e.message();
        }
        after.assign(img, img + kUb);
      },
      o);
  if (!st.ok()) return "launch: " + st.ToString();
  if (!refused.empty()) return "refused: " + refused;
  std::vector<uint8_t> want = before;
  rm::ReduceCall c = proto;
  c.src = kSrc;
  c.tmp = tmp;
  if (!rm::ReplayReduce(want.data(), want.size(), c)) return "the replay stores past the UB's end";
  const bool arith = f == Fn::kSum || f == Fn::kMean || f == Fn::kProd;
  return Diff(after, want, kSrc, tmp, TyOf<T>(), arith && es <= 4 && TyOf<T>() == rm::Ty::kF32);
}

// Sum (mean false) or Mean<T, Acc>: lngrad against the replay's level sums.
template <typename T, typename Acc>
std::string RunSumMean(bool mean, uint32_t outter, uint32_t n, uint64_t seed, bool checked,
                       size_t tmp_bytes = 0) {
  constexpr size_t es = sizeof(T);
  const uint32_t inner = static_cast<uint32_t>(Align32(n * es) / es);
  const rm::SumCall proto{mean, TyOf<T>(), TyOf<Acc>(), outter, inner, n, 0, 0};
  const rm::Reach reach = rm::SumMeanReach(proto);
  const size_t srcBytes = size_t{outter} * inner * es;
  const size_t tmp = kSrc + srcBytes + kGuard;
  const size_t tmpBytes = tmp_bytes != 0 ? tmp_bytes : std::max<size_t>(32, Align32(reach.tmpEnd));
  if (tmp + tmpBytes + kGuard > kUb) return "case too large for the UB";
  std::vector<uint8_t> before(kUb), after;
  std::mt19937_64 g(seed);
  FillElems<uint8_t>(g, before.data(), kUb);
  FillElems<T>(g, before.data() + kSrc, srcBytes / es);
  CheckedModeScope mode(checked);
  std::string refused;
  lngrad::aicore::LaunchOptions o;
  o.soc = k950;
  const lngrad::Status st = lngrad::aicore::Launch(
      1,
      [&] {
        TPipe pipe;
        TBuf<> all;
        pipe.InitBuffer(all, kUb);
        uint8_t* img = all.Get<uint8_t>().HostPtr();
        std::memcpy(img, before.data(), kUb);
        const auto d = all.GetWithOffset<T>(kDstBytes / es, kDst);
        const auto s = all.GetWithOffset<T>(static_cast<uint32_t>(srcBytes / es), kSrc);
        const auto t = all.GetWithOffset<uint8_t>(static_cast<uint32_t>(tmpBytes), tmp);
        try {
          if (mean) {
            Mean<T, Acc>(d, s, t, MeanParams{outter, inner, n});
          } else {
            Sum(d, s, t, SumParams{outter, inner, n});
          }
        } catch (const lngrad::aicore::KernelCheckError& e) {
          lngrad::aicore::DismissKernelCheck(e);
          refused = e.check() + ": " + e.message();
        }
        after.assign(img, img + kUb);
      },
      o);
  if (!st.ok()) return "launch: " + st.ToString();
  if (!refused.empty()) return "refused: " + refused;
  std::vector<uint8_t> want = before;
  rm::SumCall c = proto;
  c.src = kSrc;
  c.tmp = tmp;
  if (!rm::ReplaySumMean(want.data(), want.size(), c)) return "the replay stores past the UB";
  return Diff(after, want, kSrc, tmp, TyOf<Acc>(), true);
}

// AR row lengths for V lanes (blk elements a block): rows of 1, below a register (whole blocks
// and not), a register, a power of two (halved without isReuseSource), a tail shorter and
// longer than a register, one and two 16- (8-) register folds, and rows that are not whole blocks
// above a register (the in-place paths).
std::vector<Shape> ArShapes(uint32_t V, uint32_t es) {
  const uint32_t blk = 32 / es;
  std::vector<Shape> v;
  for (uint32_t first : {1u, 3u}) {
    for (uint32_t last :
         {1u, blk, V / 2 + 3, V, V + blk, 2 * V, 3 * V + 2 * blk, 4 * V + blk, 8 * V, 16 * V,
          16 * V + blk, 33 * V + blk, V + 3, 5 * V + 7, 16 * V + 5, 17 * V + 1, 64 * V + 3}) {
      if (size_t{first} * last * es <= 64 * 1024) v.push_back({first, last});
    }
  }
  // Two 16-register folds (8-byte types: two 8-register folds from 64 registers on).
  for (Shape sh : {Shape{1, 64 * V + blk}, Shape{1, 256 * V}, Shape{1, 256 * V + 3 * blk},
                   Shape{2, 128 * V + 1}}) {
    if (size_t{sh.first} * sh.last * es <= 64 * 1024) v.push_back(sh);
  }
  return v;
}

// RA shapes {R, A}: A of a block, half a register (concatenated), just above half a register,
// a register, above one, and columns that are not whole blocks; R of 1, 2, powers of two, tails,
// 16 rows and 256 rows (16-row folds), 8 and 64 rows (the 8-row folds).
std::vector<Shape> RaShapes(uint32_t V, uint32_t es) {
  const uint32_t blk = 32 / es;
  std::vector<Shape> v;
  for (uint32_t a : {blk, V / 2, V / 2 + blk, V, V + blk, 3 * V, 3u, V + 5, 2 * V + 1}) {
    for (uint32_t r : {1u, 2u, 3u, 4u, 5u, 8u, 16u, 17u, 19u, 33u, 64u, 67u, 256u, 259u, 600u}) {
      if (size_t{r} * a * es <= 96 * 1024) v.push_back({r, a});
    }
  }
  return v;
}

uint32_t LanesOf(uint32_t es) { return es == 8 ? 64 : 256 / es; }

template <typename T>
void CompareAll(const std::vector<Fn>& fns, bool checked) {
  constexpr uint32_t es = sizeof(T);
  const uint32_t V = LanesOf(es);
  uint64_t seed = 1;
  int n = 0;
  for (Fn f : fns) {
    for (Shape sh : ArShapes(V, es)) {
      for (int reuse = 0; reuse < 2; ++reuse) {
        const std::string d = reuse ? RunOne<T, false, true>(f, sh, seed++, checked)
                                    : RunOne<T, false, false>(f, sh, seed++, checked);
        EXPECT_EQ(d, "") << "fn " << static_cast<int>(f) << " AR {" << sh.first << ", " << sh.last
                         << "} reuse " << reuse;
        ++n;
      }
    }
    for (Shape sh : RaShapes(V, es)) {
      for (int reuse = 0; reuse < 2; ++reuse) {
        const std::string d = reuse ? RunOne<T, true, true>(f, sh, seed++, checked)
                                    : RunOne<T, true, false>(f, sh, seed++, checked);
        EXPECT_EQ(d, "") << "fn " << static_cast<int>(f) << " RA {" << sh.first << ", " << sh.last
                         << "} reuse " << reuse;
        ++n;
      }
    }
  }
  EXPECT_GT(n, 0);
}

const std::vector<Fn> kMaxMin = {Fn::kMax, Fn::kMin};

TEST(ReduceMem950bReplay, Float) {
  CompareAll<float>({Fn::kSum, Fn::kMean, Fn::kMax, Fn::kMin, Fn::kProd, Fn::kAny, Fn::kAll},
                    false);
}
TEST(ReduceMem950bReplay, HalfMaxMin) { CompareAll<half>(kMaxMin, false); }
TEST(ReduceMem950bReplay, Bfloat16MaxMin) { CompareAll<bfloat16_t>(kMaxMin, false); }
TEST(ReduceMem950bReplay, Int8MaxMin) { CompareAll<int8_t>(kMaxMin, false); }
TEST(ReduceMem950bReplay, Uint8MaxMinAnyAll) {
  CompareAll<uint8_t>({Fn::kMax, Fn::kMin, Fn::kAny, Fn::kAll}, false);
}
TEST(ReduceMem950bReplay, Int16MaxMin) { CompareAll<int16_t>(kMaxMin, false); }
TEST(ReduceMem950bReplay, Uint16MaxMin) { CompareAll<uint16_t>(kMaxMin, false); }
TEST(ReduceMem950bReplay, Int32SumMaxMin) {
  CompareAll<int32_t>({Fn::kSum, Fn::kMax, Fn::kMin}, false);
}
TEST(ReduceMem950bReplay, Uint32SumMaxMin) {
  CompareAll<uint32_t>({Fn::kSum, Fn::kMax, Fn::kMin}, false);
}
TEST(ReduceMem950bReplay, Int64SumMaxMin) {
  CompareAll<int64_t>({Fn::kSum, Fn::kMax, Fn::kMin}, false);
}
TEST(ReduceMem950bReplay, Uint64SumMaxMin) {
  CompareAll<uint64_t>({Fn::kSum, Fn::kMax, Fn::kMin}, false);
}

template <typename T, typename Acc>
void CompareSumMean(bool mean, bool checked) {
  uint64_t seed = 7;
  for (uint32_t outter : {1u, 2u, 5u}) {
    for (uint32_t n : {1u, 63u, 64u, 65u, 128u, 129u, 200u, 1000u, 4096u, 4097u, 8200u}) {
      if (size_t{outter} * n * sizeof(T) > 96 * 1024) continue;
      EXPECT_EQ((RunSumMean<T, Acc>(mean, outter, n, seed++, checked)), "")
          << (mean ? "Mean" : "Sum") << " outter " << outter << " n " << n;
    }
  }
}

TEST(ReduceMem950bReplay, SumLevels) {
  CompareSumMean<float, float>(false, false);
  CompareSumMean<half, half>(false, false);
}
TEST(ReduceMem950bReplay, MeanLevels) {
  CompareSumMean<float, float>(true, false);
  CompareSumMean<half, half>(true, false);
  CompareSumMean<half, float>(true, false);
}

// ---- Stores past an operand's end (docs/ascendc_kernels.md, Reduce: the kit's host minimum
// scratch on 3510 is smaller than its own 950 layout). In both modes lngrad stores into the UB
// after the operand as the device does (compared with the replay: the kit's own samples size the
// scratch with that minimum, and the device runs them); past the UB's end every mode refuses. ----

// ReduceMax AR without isReuseSource, rows of 64 floats or more: the kit's host minimum is
// first * 256 bytes (GetReduceCommonMaxMinTmpSize), the 950's rows sit at a * m in the scratch
// (m = 128 for rows of 200: 3 * 512 bytes).
TEST(ReduceMem950bReplay, ArScratchRowsPastTheHostMinimum) {
  EXPECT_EQ((RunOne<float, false, false>(Fn::kMax, {3, 200}, 11, true, {0, 768})), "");
  EXPECT_EQ((RunOne<float, false, false>(Fn::kMax, {3, 200}, 12, true, {0, 1536})), "");
  EXPECT_EQ((RunOne<float, false, false>(Fn::kMax, {3, 200}, 13, false, {0, 768})), "");
  // bfloat16_t: the kit's host function counts 1 byte an element (GetTypeSize), so 256 bytes
  // for a row of 512 whose 950 scratch row holds 256 elements (512 bytes).
  EXPECT_EQ((RunOne<bfloat16_t, false, false>(Fn::kMax, {1, 512}, 14, true, {0, 256})), "");
  EXPECT_EQ((RunOne<bfloat16_t, false, false>(Fn::kMax, {1, 512}, 15, false, {0, 256})), "");
}

// ReduceProd AR without isReuseSource, 3 rows of 200 floats: the kit's host minimum
// (GetReduceProdMaxMinTmpSize, reduce_tiling.cpp: (max(8, k) + first * 8) * 4 + 256 bytes, k = 128
// the largest power of two <= 200) is 864 bytes
// (adv.ReduceTiling.ScratchSizesAreTheToolkitsFormulas pins lngrad's host function to it); the
// 950's scratch rows sit at a * 128 floats (1536 bytes), so rows 1 and 2 pass it. The whole UB
// after the call, both modes, against the replay; one row (800 bytes for the 950's 512) and the
// size that holds the layout as controls.
TEST(ReduceMem950bReplay, ProdArScratchRowsPastTheHostMinimum) {
  constexpr size_t kHostMin = (128 + 3 * 8) * 4 + 256;
  static_assert(kHostMin == 864);
  EXPECT_EQ((RunOne<float, false, false>(Fn::kProd, {3, 200}, 16, true, {0, kHostMin})), "");
  EXPECT_EQ((RunOne<float, false, false>(Fn::kProd, {3, 200}, 17, false, {0, kHostMin})), "");
  EXPECT_EQ((RunOne<float, false, false>(Fn::kProd, {3, 200}, 18, true, {0, 1536})), "");
  EXPECT_EQ((RunOne<float, false, false>(Fn::kProd, {1, 200}, 19, true, {0, 800})), "");
  // Its longer rows too: 2 rows of 1000 (k = 512): the minimum (512 + 16) * 4 + 256 = 2368 bytes,
  // the 950's rows 2 * 512 floats (4096 bytes).
  EXPECT_EQ((RunOne<float, false, false>(Fn::kProd, {2, 1000}, 20, true, {0, 2368})), "");
}

// RA, 8 columns (the concatenated form): the halvings store whole registers, 64 floats, where
// the host minimum holds the 4 main rows (128 bytes); with isReuseSource the same stores land
// past src's 32 floats.
TEST(ReduceMem950bReplay, RaConcatenatedHalvingsPastTheOperand) {
  EXPECT_EQ((RunOne<float, true, false>(Fn::kMax, {5, 8}, 21, true, {0, 128})), "");
  EXPECT_EQ((RunOne<float, true, false>(Fn::kMax, {5, 8}, 22, false, {0, 128})), "");
  EXPECT_EQ((RunOne<float, true, true>(Fn::kMax, {4, 8}, 23, true, {128, 32})), "");
  EXPECT_EQ((RunOne<float, true, true>(Fn::kMax, {4, 8}, 24, false, {128, 32})), "");
  EXPECT_EQ((RunOne<float, true, true>(Fn::kMax, {4, 8}, 25, true, {256, 32})), "");
}

// Sum over 2 rows of 1000 floats: the host minimum holds one row's 16 sums (64 bytes); the 950
// puts row 1's at 32 floats (offset = ceil(1000 / 64) rounded up to 32 elements).
TEST(ReduceMem950bReplay, SumRowsPastTheHostMinimum) {
  EXPECT_EQ((RunSumMean<float, float>(false, 2, 1000, 31, true, 64)), "");
  EXPECT_EQ((RunSumMean<float, float>(false, 2, 1000, 32, false, 64)), "");
  EXPECT_EQ((RunSumMean<float, float>(false, 2, 1000, 33, true, 192)), "");
}

// Mean<float> over one row of 1024: GetMeanMaxMinTmpSize rounds the 16 repeat sums up to 32 and
// counts them as bytes (32 bytes), the 950 stores the 16 floats (64 bytes).
TEST(ReduceMem950bReplay, MeanLevelsPastTheHostMinimum) {
  EXPECT_EQ((RunSumMean<float, float>(true, 1, 1024, 51, true, 32)), "");
  EXPECT_EQ((RunSumMean<float, float>(true, 1, 1024, 52, false, 32)), "");
  EXPECT_EQ((RunSumMean<float, float>(true, 1, 1024, 53, true, 64)), "");
}

// A scratch near the UB's end: the 950 stores 768 bytes past it (ReduceMax AR, 3 rows of 200
// floats, 768 bytes of scratch). Stores past the operand but inside the UB run in every mode,
// compared with the replay (the scratch ends exactly 768 bytes before the UB's end); where some
// would leave the UB (256 bytes of room, none) every mode refuses, naming the bytes beyond it.
TEST(ReduceMem950bReplay, StoresPastTheUbEndAreRefused) {
  for (bool checked : {false, true}) {
    EXPECT_EQ((RunOne<float, false, false>(Fn::kMax, {3, 200}, 40, checked, {0, 768, true, 768})),
              "");
    for (size_t gap : {size_t{256}, size_t{0}}) {
      const std::string r =
          RunOne<float, false, false>(Fn::kMax, {3, 200}, 41, checked, {0, 768, true, gap});
      const std::string want =
          "refused: ub_bounds: ReduceMax: the 950 would write 768 bytes "
          "past sharedTmpBuffer, " +
          std::to_string(768 - gap) + " of them beyond the UB's end";
      EXPECT_EQ(r.rfind(want, 0), 0u) << r << "\nroom " << gap;
    }
  }
}

// Found beside the replay (valgrind on the first Int64SumMaxMin run, when the 8-byte integers
// still ran the 2201 model): the 2201 AR sum row of 33 to 64 8-byte elements copied them into a
// buffer of 32 lanes (kLanes) and summed 32 of them. Unchecked (the 2201 page takes float only),
// an int64 row now sums exactly (wrapping), on 2201 as on the 950.
TEST(ReduceMem950bReplay, Int64SumRowsOf33To64AreExactOn2201) {
  CheckedModeScope mode(false);
  for (uint32_t last : {33u, 40u, 64u}) {
    std::vector<int64_t> x(2 * last), got(2);
    std::mt19937_64 g(last);
    for (auto& v : x) v = static_cast<int64_t>(g());
    lngrad::aicore::LaunchOptions o;
    o.soc = "Ascend910B1";
    const lngrad::Status st = lngrad::aicore::Launch(
        1,
        [&] {
          TPipe pipe;
          TBuf<> b;
          pipe.InitBuffer(b, 4096);
          const auto d = b.GetWithOffset<int64_t>(4, 0);
          const auto s = b.GetWithOffset<int64_t>(2 * last, 1024);
          const auto t = b.GetWithOffset<uint8_t>(1024, 3072);
          std::copy(x.begin(), x.end(), s.HostPtr());
          const uint32_t shape[] = {2, last};
          ReduceSum<int64_t, Pattern::Reduce::AR>(d, s, t, shape, false);  // rows unpadded
          got.assign(d.HostPtr(), d.HostPtr() + 2);
        },
        o);
    ASSERT_TRUE(st.ok()) << st.ToString();
    for (uint32_t r = 0; r < 2; ++r) {
      uint64_t want = 0;
      for (uint32_t j = 0; j < last; ++j) want += static_cast<uint64_t>(x[r * last + j]);
      EXPECT_EQ(static_cast<uint64_t>(got[r]), want) << "last " << last << " row " << r;
    }
  }
}

}  // namespace
