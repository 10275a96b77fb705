// What lngrad's reduce APIs leave in src and sharedTmpBuffer on the 950 (Ascend950PR_9589,
// dav-3510), compared over every byte of both buffers (each a whole 40 KiB UB buffer filled with
// random bits first, so the bytes the kit's code writes past the rows show too) with the
// independent replay of the kit's stores (replay_reduce_mem_3510.h, written from the kit's
// source). dst is compared with the dst replays of replay_reduce_3510.h and
// replay_reduce_maxmin_3510.h. NaN equals NaN (payloads are not promised, §2).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <random>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "../aicore/checked_mode_scope.h"
#include "reduce_quant_test_util.h"
#include "replay_reduce_3510.h"
#include "replay_reduce_maxmin_3510.h"
#include "replay_reduce_mem_3510.h"

namespace {

using namespace AscendC;
using namespace lngrad_replay::testing;
namespace rp = lngrad_replay;
using lngrad::aicore::test::CheckedModeScope;

// Random element bits: finite values of either sign, +-0, +-inf, subnormals and quiet NaNs with
// payloads (half: its own encodings).
std::vector<uint32_t> RandomWords(uint32_t seed, size_t n, bool half) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> d(-4.0f, 4.0f);
  std::uniform_int_distribution<int> pick(0, 19);
  std::vector<uint32_t> v(n);
  for (auto& w : v) {
    const int p = pick(gen);
    const float f = d(gen);
    const uint32_t sign = (gen() & 1u) ? (half ? 0x8000u : 0x80000000u) : 0u;
    if (half) {
      w = p == 0   ? sign
          : p == 1 ? (sign | 0x7C00u)
          : p == 2 ? (sign | 0x7E01u)
          : p == 3 ? (sign | (gen() & 0x3FFu))
                   : rp::FloatToHalf(f).bits;
    } else {
      uint32_t b;
      std::memcpy(&b, &f, 4);
      w = p == 0   ? sign
          : p == 1 ? (sign | 0x7F800000u)
          : p == 2 ? (sign | 0x7FC00001u)
          : p == 3 ? (sign | (gen() & 0x7FFFFFu))
                   : b;
    }
  }
  return v;
}

bool IsNan(uint32_t w, bool half) {
  return half ? (w & 0x7C00u) == 0x7C00u && (w & 0x3FFu) != 0
              : (w & 0x7F800000u) == 0x7F800000u && (w & 0x7FFFFFu) != 0;
}

std::string FirstWordMismatch(const std::vector<uint32_t>& got, const std::vector<uint32_t>& want,
                              bool half) {
  for (size_t i = 0; i < want.size(); ++i) {
    if (got[i] == want[i] || (IsNan(got[i], half) && IsNan(want[i], half))) continue;
    std::ostringstream s;
    s << "element " << i << ": lngrad 0x" << std::hex << got[i] << ", replay 0x" << want[i];
    return s.str();
  }
  return "";
}

template <typename W>
std::vector<W> Narrow(const std::vector<uint32_t>& v) {
  return std::vector<W>(v.begin(), v.end());
}
template <typename W>
std::vector<uint32_t> Widen(const std::vector<W>& v) {
  return std::vector<uint32_t>(v.begin(), v.end());
}

std::vector<float> WordsToFloats(const std::vector<uint32_t>& w, size_t n, bool half) {
  std::vector<float> f(n);
  for (size_t i = 0; i < n; ++i) {
    if (half) {
      f[i] = rp::HalfToFloat(rp::Half{static_cast<uint16_t>(w[i])});
    } else {
      std::memcpy(&f[i], &w[i], 4);
    }
  }
  return f;
}

// dst of the call by the earlier replays (values only).
std::vector<float> WantDst(const rp::MemCall& c, const std::vector<float>& x) {
  if (c.op == rp::RedOp::kSum || c.op == rp::RedOp::kMean || c.op == rp::RedOp::kProd) {
    const rp::RedCall r{c.op, false, c.reuse, c.first, c.last};
    return c.ar ? rp::ReplayReduceAR3510(r, x) : rp::ReplayReduceRA3510(r, x);
  }
  const rp::MaxMinCall m{c.op, c.half ? rp::MmLane::kHalf : rp::MmLane::kFloat, c.reuse, c.first,
                         c.last};
  return c.ar ? rp::ReplayMaxMinAR3510(m, x) : rp::ReplayMaxMinRA3510(m, x);
}

template <typename T, class P, bool reuse>
void CheckMem(rp::RedOp op, uint32_t first, uint32_t last, bool withTmp, uint32_t seed) {
  constexpr bool kHalf = std::is_same_v<T, half>;
  using W = std::conditional_t<kHalf, uint16_t, uint32_t>;
  const size_t n = kUbBufBytes / sizeof(T);
  rp::MemCall c{op, kHalf, std::is_same_v<P, Pattern::Reduce::AR>, reuse, first, last};
  rp::MemState m;
  m.src = RandomWords(seed, n, kHalf);
  m.tmp = RandomWords(seed + 7777, n, kHalf);
  const std::vector<float> x = WordsToFloats(m.src, size_t{first} * last, kHalf);
  std::vector<uint32_t> src, tmp;
  std::vector<T> dst;
  {
    const uint32_t blk = 32 / sizeof(T);
    const bool free_rows = op == rp::RedOp::kSum || op == rp::RedOp::kMax || op == rp::RedOp::kMin;
    CheckedModeScope checked(last % blk == 0 || free_rows);
    OnBlock(
        [&](Ub& ub) {
          ub.Put<W>(1, Narrow<W>(m.src));
          ub.Put<W>(2, Narrow<W>(m.tmp));
          const uint32_t shape[2] = {first, last};
          CallReduce<T, P, reuse>(op, ub, shape, withTmp);
          dst = ub.Take<T>(0);
          src = Widen(ub.Take<W>(1));
          tmp = Widen(ub.Take<W>(2));
        },
        k950);
  }
  std::ostringstream what;
  what << (c.ar ? "AR" : "RA") << " op " << static_cast<int>(op) << (kHalf ? " half" : "")
       << (reuse ? " reuse" : "") << (withTmp ? " tmp " : " stack ") << first << "x" << last;
  const std::vector<uint32_t> tmp_before = m.tmp;
  rp::ReplayReduceMem3510(c, m);
  ASSERT_FALSE(m.outside) << what.str() << ": the kit's code reaches past a 40 KiB buffer";
  EXPECT_EQ(FirstWordMismatch(src, m.src, kHalf), "") << what.str() << " (src)";
  // Without sharedTmpBuffer the scratch is the stack buffer: buffer 2 is left as it was.
  EXPECT_EQ(FirstWordMismatch(tmp, withTmp ? m.tmp : tmp_before, kHalf), "")
      << what.str() << " (sharedTmpBuffer)";
  const std::vector<float> want = WantDst(c, x);
  dst.resize(want.size());
  EXPECT_EQ(FirstMismatch(dst, want), "") << what.str() << " (dst)";
}

struct Case {
  uint32_t first, last;
};

// AR: copies, rows up to a register, past it with and without a tail (whole and partial
// vectors), powers of two (halved without isReuseSource), 16-vector folds; rows not of whole
// blocks below and past a register (the unaligned paths write src; ReduceProd/Any/All take the
// aligned paths there).
const Case kArFloat[] = {{3, 1},   {4, 8},    {3, 40},   {2, 64},   {3, 72},   {2, 128},
                         {2, 200}, {1, 1024}, {1, 2056}, {2, 1000}, {1, 4104}, {1, 8192},
                         {3, 5},   {2, 63},   {2, 70},   {2, 129},  {1, 1003}, {1, 4101}};
// RA: the concatenated form (<= 32 columns; its whole-register halvings write past the rows
// left), 33..64 columns (rows folded 16 in a row), wider (strided), 1, 2, 3 rows, powers of two,
// 16 and 256 rows; columns not of whole blocks.
const Case kRaFloat[] = {{1, 8},    {2, 16},   {3, 24},   {4, 8},   {8, 8},   {16, 32},
                         {33, 8},   {300, 8},  {256, 32}, {2, 40},  {3, 56},  {16, 64},
                         {17, 40},  {32, 64},  {2, 72},   {5, 136}, {16, 72}, {32, 80},
                         {33, 96},  {64, 128}, {3, 5},    {9, 12},  {33, 70}, {300, 7},
                         {17, 100}, {256, 13}, {40, 45},  {2, 1},   {5, 1}};
const Case kArHalf[] = {{3, 1},    {4, 16},   {2, 128}, {3, 144}, {2, 256},  {1, 2048},
                        {1, 4112}, {1, 8192}, {3, 5},   {2, 130}, {1, 1003}, {1, 4101}};
const Case kRaHalf[] = {{3, 16},  {4, 16},   {8, 64}, {33, 16}, {2, 80},   {17, 96}, {16, 128},
                        {5, 272}, {33, 192}, {3, 5},  {33, 70}, {256, 13}, {2, 1},   {300, 16}};

template <typename T, class P>
void CheckOp(rp::RedOp op, const Case* cases, size_t count, uint32_t seed) {
  for (size_t i = 0; i < count; ++i) {
    for (bool withTmp : {true, false}) {
      CheckMem<T, P, false>(op, cases[i].first, cases[i].last, withTmp, ++seed);
      CheckMem<T, P, true>(op, cases[i].first, cases[i].last, withTmp, ++seed);
    }
  }
}

const rp::RedOp kFloatOps[] = {rp::RedOp::kSum, rp::RedOp::kMean, rp::RedOp::kProd, rp::RedOp::kMax,
                               rp::RedOp::kMin, rp::RedOp::kAny,  rp::RedOp::kAll};

TEST(ReduceMem950Replay, FloatAr) {
  uint32_t seed = 41000;
  for (rp::RedOp op : kFloatOps) {
    CheckOp<float, Pattern::Reduce::AR>(op, kArFloat, std::size(kArFloat), seed += 100);
  }
}

TEST(ReduceMem950Replay, FloatRa) {
  uint32_t seed = 42000;
  for (rp::RedOp op : kFloatOps) {
    CheckOp<float, Pattern::Reduce::RA>(op, kRaFloat, std::size(kRaFloat), seed += 100);
  }
}

TEST(ReduceMem950Replay, HalfMaxMin) {
  uint32_t seed = 43000;
  for (rp::RedOp op : {rp::RedOp::kMax, rp::RedOp::kMin}) {
    CheckOp<half, Pattern::Reduce::AR>(op, kArHalf, std::size(kArHalf), seed += 100);
    CheckOp<half, Pattern::Reduce::RA>(op, kRaHalf, std::size(kRaHalf), seed += 100);
  }
}

// ---- Integer types (1, 2 and 4 bytes): the float code's stores, registers of 256 / bytes ----

template <typename T, class P, bool reuse>
void CallIntReduce(rp::RedOp op, Ub& ub, const uint32_t shape[2], bool withTmp) {
  LocalTensor<T> d = ub.Get<T>(0), x = ub.Get<T>(1);
  LocalTensor<uint8_t> t = ub.Get<uint8_t>(2);
#define LNGRAD_RP_INT(NAME) \
  withTmp ? NAME<T, P, reuse>(d, x, t, shape, true) : NAME<T, P, reuse>(d, x, shape, true)
  if (op == rp::RedOp::kMax) LNGRAD_RP_INT(ReduceMax);
  if (op == rp::RedOp::kMin) LNGRAD_RP_INT(ReduceMin);
  if constexpr (sizeof(T) == 4) {
    if (op == rp::RedOp::kSum) LNGRAD_RP_INT(ReduceSum);
  }
  if constexpr (std::is_same_v<T, uint8_t>) {
    if (op == rp::RedOp::kAny) LNGRAD_RP_INT(ReduceAny);
    if (op == rp::RedOp::kAll) LNGRAD_RP_INT(ReduceAll);
  }
#undef LNGRAD_RP_INT
}

// The exact reduction of an integer row or column (Sum wraps).
template <typename T>
T IntFold(rp::RedOp op, const std::vector<T>& v) {
  T acc = v[0];
  for (size_t i = 1; i < v.size(); ++i) {
    if (op == rp::RedOp::kSum) {
      using U = std::make_unsigned_t<T>;
      acc = static_cast<T>(static_cast<U>(static_cast<U>(acc) + static_cast<U>(v[i])));
    } else if (op == rp::RedOp::kMax || op == rp::RedOp::kAny) {
      acc = std::max(acc, v[i]);
    } else {
      acc = std::min(acc, v[i]);
    }
  }
  return acc;
}

template <typename T, class P, bool reuse>
void CheckIntMem(rp::RedOp op, uint32_t first, uint32_t last, bool withTmp, uint32_t seed) {
  using W = std::make_unsigned_t<T>;
  constexpr bool kAr = std::is_same_v<P, Pattern::Reduce::AR>;
  const size_t n = kUbBufBytes / sizeof(T);
  if (size_t{first} * last + 3 * 256 / sizeof(T) > n) return;
  rp::MemCall c{op, false, kAr, reuse, first, last};
  c.integer = true;
  c.isSigned = std::is_signed_v<T>;
  c.bytes = sizeof(T);
  std::mt19937 gen(seed);
  rp::MemState m;
  m.src.resize(n);
  m.tmp.resize(n);
  for (auto& w : m.src) w = static_cast<W>(gen());
  for (auto& w : m.tmp) w = static_cast<W>(gen());
  std::vector<uint32_t> src, tmp;
  std::vector<T> dst;
  {
    const bool free_rows = op == rp::RedOp::kSum || op == rp::RedOp::kMax || op == rp::RedOp::kMin;
    CheckedModeScope checked(last % (32 / sizeof(T)) == 0 || free_rows);
    OnBlock(
        [&](Ub& ub) {
          ub.Put<W>(1, Narrow<W>(m.src));
          ub.Put<W>(2, Narrow<W>(m.tmp));
          const uint32_t shape[2] = {first, last};
          CallIntReduce<T, P, reuse>(op, ub, shape, withTmp);
          dst = ub.Take<T>(0);
          src = Widen(ub.Take<W>(1));
          tmp = Widen(ub.Take<W>(2));
        },
        k950);
  }
  std::ostringstream what;
  what << (kAr ? "AR" : "RA") << " op " << static_cast<int>(op) << " int" << 8 * sizeof(T)
       << (std::is_signed_v<T> ? "" : "u") << (reuse ? " reuse" : "")
       << (withTmp ? " tmp " : " stack ") << first << "x" << last;
  const std::vector<uint32_t> tmp_before = m.tmp;
  std::vector<T> x(size_t{first} * last);
  for (size_t k = 0; k < x.size(); ++k) x[k] = static_cast<T>(static_cast<W>(m.src[k]));
  rp::ReplayReduceMem3510(c, m);
  ASSERT_FALSE(m.outside) << what.str();
  EXPECT_EQ(FirstWordMismatch(src, m.src, false), "") << what.str() << " (src)";
  EXPECT_EQ(FirstWordMismatch(tmp, withTmp ? m.tmp : tmp_before, false), "")
      << what.str() << " (sharedTmpBuffer)";
  const uint32_t outs = kAr ? first : last, len = kAr ? last : first;
  for (uint32_t o = 0; o < outs; ++o) {
    std::vector<T> v(len);
    for (uint32_t i = 0; i < len; ++i)
      v[i] = kAr ? x[size_t{o} * last + i] : x[size_t{i} * last + o];
    ASSERT_EQ(dst[o], IntFold(op, v)) << what.str() << " (dst " << o << ")";
  }
}

const Case kArInt[] = {{3, 1},     {4, 32}, {3, 300}, {2, 1024}, {1, 5000},
                       {1, 16400}, {3, 5},  {2, 257}, {1, 4101}, {2, 64}};
const Case kRaInt[] = {{1, 32},  {3, 32},   {4, 32}, {33, 96}, {300, 32}, {2, 200}, {17, 256},
                       {5, 288}, {16, 512}, {3, 5},  {33, 70}, {256, 13}, {2, 1},   {40, 64}};

template <typename T>
void CheckIntOp(rp::RedOp op, uint32_t seed) {
  for (const Case& k : kArInt) {
    for (bool withTmp : {true, false}) {
      CheckIntMem<T, Pattern::Reduce::AR, false>(op, k.first, k.last, withTmp, ++seed);
      CheckIntMem<T, Pattern::Reduce::AR, true>(op, k.first, k.last, withTmp, ++seed);
    }
  }
  for (const Case& k : kRaInt) {
    for (bool withTmp : {true, false}) {
      CheckIntMem<T, Pattern::Reduce::RA, false>(op, k.first, k.last, withTmp, ++seed);
      CheckIntMem<T, Pattern::Reduce::RA, true>(op, k.first, k.last, withTmp, ++seed);
    }
  }
}

TEST(ReduceMem950Replay, Integers) {
  uint32_t seed = 45000;
  for (rp::RedOp op : {rp::RedOp::kMax, rp::RedOp::kMin}) {
    CheckIntOp<int8_t>(op, seed += 1000);
    CheckIntOp<uint8_t>(op, seed += 1000);
    CheckIntOp<int16_t>(op, seed += 1000);
    CheckIntOp<uint16_t>(op, seed += 1000);
    CheckIntOp<int32_t>(op, seed += 1000);
    CheckIntOp<uint32_t>(op, seed += 1000);
  }
  CheckIntOp<int32_t>(rp::RedOp::kSum, seed += 1000);
  CheckIntOp<uint32_t>(rp::RedOp::kSum, seed += 1000);
  CheckIntOp<uint8_t>(rp::RedOp::kAny, seed += 1000);
  CheckIntOp<uint8_t>(rp::RedOp::kAll, seed += 1000);
}

// ---- Sum and Mean: the level sums in sharedTmpBuffer ----

// Sum or Mean<T, Acc> over `outter` rows of n with sharedTmpBuffer (buffer 2, random bits of the
// accumulation type first): the whole buffer against ReplaySumMeanScratch3510.
template <typename T, typename Acc = T>
void CheckSumMeanScratch(bool mean, uint32_t outter, uint32_t n, uint32_t seed) {
  constexpr bool kConvHalf = std::is_same_v<T, half> && std::is_same_v<Acc, half>;
  using W = std::conditional_t<kConvHalf, uint16_t, uint32_t>;
  const uint32_t inner = (n + 32 / sizeof(T) - 1) / (32 / sizeof(T)) * (32 / sizeof(T));
  const std::vector<T> in = Data<T>(seed, outter, inner, 3.0f, true);
  std::vector<uint32_t> tmp_words = RandomWords(seed + 1, kUbBufBytes / sizeof(W), kConvHalf);
  std::vector<uint32_t> got;
  OnBlock(
      [&](Ub& ub) {
        ub.Put<T>(1, in);
        ub.Put<W>(2, Narrow<W>(tmp_words));
        LocalTensor<T> d = ub.Get<T>(0), x = ub.Get<T>(1);
        LocalTensor<uint8_t> tmp = ub.Get<uint8_t>(2);
        if (mean) {
          Mean<T, Acc>(d, x, tmp, MeanParams{outter, inner, n});
        } else {
          Sum(d, x, tmp, SumParams{outter, inner, n});
        }
        got = Widen(ub.Take<W>(2));
      },
      k950);
  const rp::RowsCall c{std::is_same_v<T, half>, !std::is_same_v<Acc, T>, outter, inner, n};
  rp::ReplaySumMeanScratch3510(c, Floats(in), tmp_words);
  EXPECT_EQ(FirstWordMismatch(got, tmp_words, kConvHalf), "")
      << (mean ? "Mean " : "Sum ") << outter << "x" << n << (c.isHalf ? " half" : " float")
      << (c.accFloat ? " (float acc)" : "");
}

// Rows of one register (nothing stored), of several (one level), of more than a register of
// sums (two levels: the second overwrites the first's start).
TEST(ReduceMem950Replay, SumMeanLevelSums) {
  uint32_t seed = 44000;
  for (bool mean : {false, true}) {
    for (uint32_t n : {64u, 65u, 200u, 1000u, 3000u}) {
      CheckSumMeanScratch<float>(mean, 3, n, ++seed);
      CheckSumMeanScratch<half>(mean, 3, n, ++seed);
    }
    CheckSumMeanScratch<float>(mean, 1, 8000, ++seed);
    CheckSumMeanScratch<half>(mean, 1, 16400, ++seed);
    for (uint32_t n : {128u, 129u, 1000u, 9000u}) {
      if (mean) CheckSumMeanScratch<half, float>(true, 2, n, ++seed);
    }
  }
}

}  // namespace
