// lngrad's TopK with the default TopKConfig (MERGE_SORT) on the 950 (Ascend950PR_9589), compared
// with a replay of the kit's 3510 sequence, impl/adv_api/detail/sort/topk/topk_3510_impl.h
// (commit 82b89a15f) outside the radix select: TopKNormal (CreateVecIndex at srcIndexOffset,
// src negated in place by Muls(-1) for the smallest, per row TmpLocalSort32's Sort<T, true> into
// tmp[innerDataSize] with tmp as its scratch, GatherDstValAndDstIdx's GatherMask passes,
// isHasfinish's Duplicate of n, dstValue's maskOffset elements and src negated back) and
// TopKNSmall (the index row copied to every row, one Sort32 over the outter rows into tmp,
// TopKNSmallGetTopKValue's GatherMask repeats); Sort<T, true> as
// impl/basic_api/dav_3510/kernel_operator_proposal_impl.h runs it (Sort32, DoFullSort with
// FullSortInnerLoop / FullSortInnerLoopTail, its queue counters and tail rule). Sort32 and MrgSort
// follow the instruction rules sort_ops.h states (the device's NaN order is not documented): a
// structure moves before its neighbour only when its score is greater; a merge keeps the first
// queue's head and switches to a later head only when its score is greater. Muls(-1) flips the
// sign of a number; a NaN stays a NaN (compared as any NaN).
// Compared: the whole dstValue, dstIndex, src and scratch buffers (scores with NaN equal to any
// NaN, everything else bit for bit), on rows with ties, +0 and -0, infinities and NaNs of both
// signs, largest and smallest, isInitIndex and isHasfinish both ways, float and half.
// Provenance: written from the kit's files by the helper who changed lib/sort/topk.h to run that
// sequence (the same person; topk.h had been read before). The 2201 sequence (topk_v220_impl.h)
// differs: it negates into the scratch, not src, and merges with lengths capped at k.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include "tiling/tiling_api.h"
#include "transform_3510_replay_util.h"

namespace {

using namespace AscendC;
using namespace lngrad_replay::transform3510;

// ---- The replay ----

float HalfBitsToFloat(uint16_t h) {
  const uint32_t sign = (h >> 15) & 1u, e = (h >> 10) & 0x1Fu, m = h & 0x3FFu;
  float v;
  if (e == 0) {
    v = std::ldexp(static_cast<float>(m), -24);
  } else if (e == 31) {
    v = m != 0 ? NAN : INFINITY;
  } else {
    v = std::ldexp(static_cast<float>(m | 0x400u), static_cast<int>(e) - 25);
  }
  return sign != 0 ? -v : v;
}

// Memory as bytes; T elements and 8-byte structures (score at 0, index word at 4) in it.
struct Mem {
  std::vector<uint8_t> b;
  uint32_t W(uint64_t at) const {
    uint32_t w;
    std::memcpy(&w, b.data() + at, 4);
    return w;
  }
  void PutW(uint64_t at, uint32_t w) { std::memcpy(b.data() + at, &w, 4); }
};

template <typename T>
float Score(const Mem& m, uint64_t at) {
  if constexpr (sizeof(T) == 4) {
    return std::bit_cast<float>(m.W(at));
  } else {
    uint16_t h;
    std::memcpy(&h, m.b.data() + at, 2);
    return HalfBitsToFloat(h);
  }
}

// Muls(x, T(-1)) over `count` elements of T from byte `at`.
template <typename T>
void Negate(Mem& m, uint64_t at, uint64_t count) {
  for (uint64_t i = 0; i < count; ++i) {
    const uint64_t p = at + i * sizeof(T);
    if (std::isnan(Score<T>(m, p))) continue;
    m.b[p + sizeof(T) - 1] ^= 0x80;
  }
}

// Sort32: `repeat` runs of 32 structures from scores at `src` and index words at `idx`, into
// `dst`, each run ordered by the insertion rule.
template <typename T>
void Sort32(Mem& dm, uint64_t dst, const Mem& sm, uint64_t src, const Mem& im, uint64_t idx,
            uint32_t repeat) {
  for (uint32_t r = 0; r < repeat; ++r) {
    Mem run{std::vector<uint8_t>(256, 0)};
    for (uint32_t i = 0; i < 32; ++i) {
      std::memcpy(run.b.data() + i * 8, sm.b.data() + src + (r * 32 + i) * sizeof(T), sizeof(T));
      run.PutW(i * 8 + 4, im.W(idx + (r * 32 + i) * 4));
    }
    std::vector<uint32_t> order;
    for (uint32_t i = 0; i < 32; ++i) {
      auto at = order.end();
      while (at != order.begin() && Score<T>(run, i * 8) > Score<T>(run, *(at - 1) * 8)) --at;
      order.insert(at, i);
    }
    for (uint32_t i = 0; i < 32; ++i) {
      std::memcpy(dm.b.data() + dst + r * 256 + i * 8, run.b.data() + order[i] * 8, 8);
    }
  }
}

// MrgSort: `repeat` times the queues validBit names (structure offsets q[] from byte `base`,
// advancing by the lengths' sum), merged into dst from byte `out`.
template <typename T>
void MrgSort(Mem& m, uint64_t out, uint64_t base, const uint64_t q[4], const uint16_t len[4],
             uint16_t validBit, int32_t repeat, const Mem& src) {
  const uint64_t total = uint64_t{len[0]} + len[1] + len[2] + len[3];
  for (int32_t r = 0; r < repeat; ++r) {
    uint32_t pos[4] = {0, 0, 0, 0};
    for (;;) {
      int kept = -1;
      for (int k = 0; k < 4; ++k) {
        if ((validBit >> k & 1) == 0 || pos[k] >= len[k]) continue;
        const uint64_t at = base + (q[k] + r * total + pos[k]) * 8;
        if (kept < 0 ||
            Score<T>(src, at) > Score<T>(src, base + (q[kept] + r * total + pos[kept]) * 8)) {
          kept = k;
        }
      }
      if (kept < 0) break;
      std::memcpy(m.b.data() + out, src.b.data() + base + (q[kept] + r * total + pos[kept]) * 8, 8);
      out += 8;
      ++pos[kept];
    }
  }
}

// DoFullSort(dst at byte d, tmp at byte t) of `repeat` runs of 32, as the dav_3510 file.
template <typename T>
void DoFullSort(Mem& m, uint64_t d, uint64_t t, int32_t repeat) {
  const uint32_t srcCount = repeat * 32;
  uint32_t loops = 0;
  for (int32_t n = repeat; n > 1; n = (n + 3) / 4) ++loops;
  uint16_t single = 32;
  int32_t totalQue = repeat, tailQue = repeat % 4, mergeRepeat = repeat / 4;
  std::memmove(m.b.data() + t, m.b.data() + d, srcCount * 8);
  for (uint32_t i = 0; i < loops; ++i) {
    const Mem src = m;  // each merge reads tmp, written only by the copies
    if (mergeRepeat > 0) {
      const uint64_t q[4] = {0, single, 2u * single, 3u * single};
      const uint16_t len[4] = {single, single, single, single};
      MrgSort<T>(m, d, t, q, len, 0b1111, mergeRepeat, src);
    }
    const uint16_t tail = srcCount % single != 0 ? srcCount % single : single;
    if (tailQue > 0) {
      const uint64_t o0 = 4ull * single * mergeRepeat;
      uint64_t q[4] = {o0, 0, 0, 0};
      uint16_t len[4] = {single, single, single, single};
      uint16_t valid = 0b1111;
      if (tailQue == 2) {
        q[1] = o0 + single;
        len[1] = tail;
        len[2] = len[3] = 0;
        valid = 0b0011;
      } else if (tailQue == 3) {
        q[1] = o0 + single;
        q[2] = o0 + 2u * single;
        len[2] = tail;
        len[3] = 0;
        valid = 0b0111;
      } else {
        q[1] = o0 + single;
        q[2] = o0 + 2u * single;
        q[3] = o0 + 3u * single;
        len[3] = tail;
      }
      if (tailQue > 1) {
        MrgSort<T>(m, d + o0 * 8, t, q, len, valid, 1, src);
      } else {
        std::memmove(m.b.data() + d + o0 * 8, m.b.data() + t + o0 * 8, uint64_t{tail} * 8);
      }
    }
    std::memmove(m.b.data() + t, m.b.data() + d, srcCount * 8);
    single *= 4;
    totalQue = totalQue % 4 != 0 ? totalQue / 4 + 1 : totalQue / 4;
    tailQue = totalQue % 4;
    if (tailQue == 0 && tail != single) tailQue = 4;
    mergeRepeat = (totalQue - tailQue) / 4;
  }
}

struct Tiles {
  uint32_t innerDataSize, srcIndexOffset, sortRepeat, kAlignFourBytes, kAlignTwoBytes, maskOffset;
};

struct Io {
  Mem src, idx, tmp, dv, di;
  std::vector<uint8_t> fin;
};

// TopKNormal / TopKNSmall of topk_3510_impl.h on the images (tmp as T elements at byte 0).
template <typename T, bool init, bool finish, bool nsmall>
void ReplayTopK(Io& io, uint32_t outter, uint32_t inner, uint32_t n, uint32_t k, bool largest,
                const Tiles& t) {
  const uint64_t made = uint64_t{nsmall ? t.innerDataSize : t.srcIndexOffset} * sizeof(T);
  if (!init) {
    for (uint32_t i = 0; i < inner; ++i) io.tmp.PutW(made + i * 4, i);  // CreateVecIndex
    for (uint32_t r = 1; nsmall && r < outter; ++r) {                   // Copy, one row per repeat
      for (uint32_t i = 0; i < inner; ++i) io.tmp.PutW(made + (r * inner + i) * 4, i);
    }
  }
  const Mem& im = init ? io.idx : io.tmp;
  const uint64_t ib = init ? 0 : made;
  if (!largest) Negate<T>(io.src, 0, uint64_t{outter} * inner);
  if (nsmall) {
    Sort32<T>(io.tmp, 0, io.src, 0, im, ib, outter);
    for (uint32_t r = 0; r < outter; ++r) {
      for (uint32_t i = 0; i < k; ++i) {
        std::memcpy(io.dv.b.data() + (r * k + i) * sizeof(T), io.tmp.b.data() + r * 256 + i * 8,
                    sizeof(T));
        io.di.PutW((r * k + i) * 4, io.tmp.W(r * 256 + i * 8 + 4));
      }
    }
  } else {
    const uint64_t sorted = uint64_t{t.innerDataSize} * sizeof(T);
    for (uint32_t j = 0; j < outter; ++j) {
      Sort32<T>(io.tmp, sorted, io.src, uint64_t{j} * inner * sizeof(T), im, ib, t.sortRepeat);
      DoFullSort<T>(io.tmp, sorted, 0, static_cast<int32_t>(t.sortRepeat));
      const uint32_t four = j * t.kAlignFourBytes,
                     vOff = sizeof(T) == 4 ? four : j * t.kAlignTwoBytes;
      for (uint32_t i = 0; i < k; ++i) {
        std::memcpy(io.dv.b.data() + (vOff + i) * sizeof(T), io.tmp.b.data() + sorted + i * 8,
                    sizeof(T));
        io.di.PutW((four + i) * 4, finish && io.fin[j] ? n : io.tmp.W(sorted + i * 8 + 4));
      }
    }
  }
  if (!largest) {
    Negate<T>(io.dv, 0, t.maskOffset);
    Negate<T>(io.src, 0, uint64_t{outter} * inner);
  }
}

// ---- lngrad against the replay ----

constexpr uint32_t kBuf = 40960;  // six buffers in the 950's UB

// Scores with NaN equal to any NaN, the rest bit for bit ("" if equal).
template <typename T>
std::string DiffScores(const Mem& got, const Mem& want, const char* what) {
  for (uint64_t p = 0; p + sizeof(T) <= got.b.size(); p += sizeof(T)) {
    if (std::memcmp(got.b.data() + p, want.b.data() + p, sizeof(T)) == 0) continue;
    if (std::isnan(Score<T>(got, p)) && std::isnan(Score<T>(want, p))) continue;
    return std::string(what) + ": byte " + std::to_string(p) + " differs";
  }
  return "";
}

template <typename T>
std::vector<uint8_t> Row(uint32_t seed, uint32_t count) {
  std::mt19937 gen(seed);
  std::uniform_int_distribution<int> pick(0, 15);
  std::uniform_real_distribution<float> d(-100.0f, 100.0f);
  std::vector<T> v(count);
  for (T& x : v) {
    const int p = pick(gen);
    x = T(static_cast<float>(p % 4));
    if (p == 4) x = T(0.0f);
    if (p == 5) x = T(-0.0f);
    if (p == 6) x = FromBits<T>(sizeof(T) == 4 ? 0x7FC00000u : 0x7E00u);
    if (p == 7) x = FromBits<T>(sizeof(T) == 4 ? 0xFFC00000u : 0xFE00u);
    if (p == 8) x = T(INFINITY);
    if (p == 9) x = T(-INFINITY);
    if (p >= 10) x = T(d(gen));
  }
  std::vector<uint8_t> b(count * sizeof(T));
  std::memcpy(b.data(), v.data(), b.size());
  return b;
}

template <typename T, bool init, bool finish, TopKMode mode>
void Check(uint32_t outter, uint32_t inner, uint32_t n, uint32_t k, bool largest, uint32_t seed) {
  constexpr bool nsmall = mode == TopKMode::TOPK_NSMALL;
  SCOPED_TRACE(::testing::Message()
               << sizeof(T) << "-byte " << (nsmall ? "NSMALL " : "NORMAL ") << outter << "x"
               << inner << " n " << n << " k " << k << (largest ? " largest" : " smallest")
               << " init " << init << " finish " << finish);
  TopkTiling tiling;
  auto* platform = platform_ascendc::PlatformAscendCManager::GetInstance(k950);
  ASSERT_TRUE(TopKTilingFunc(*platform, inner, outter, k, sizeof(T), init, mode, largest, tiling));
  Io want;
  want.src.b = Row<T>(seed, kBuf / sizeof(T));
  want.idx.b = std::vector<uint8_t>(kBuf);
  for (uint32_t i = 0; i < kBuf / 4; ++i) want.idx.PutW(i * 4, 5000 + 3 * i);
  want.tmp.b = RandomBits<uint8_t>(seed + 1, kBuf);
  want.dv.b = RandomBits<uint8_t>(seed + 2, kBuf);
  want.di.b = RandomBits<uint8_t>(seed + 3, kBuf);
  want.fin = std::vector<uint8_t>(32);
  for (uint32_t j = 0; j < 32; ++j) want.fin[j] = j % 3 == 1 ? (j % 2 ? 1 : 0x80) : 0;  // NE 0
  Io got = want;
  On950({kBuf, kBuf, kBuf, kBuf, kBuf, 32}, [&](Bufs& b) {
    b.Put<uint8_t>(0, got.src.b);
    b.Put<uint8_t>(1, got.idx.b);
    b.Put<uint8_t>(2, got.tmp.b);
    b.Put<uint8_t>(3, got.dv.b);
    b.Put<uint8_t>(4, got.di.b);
    b.Put<uint8_t>(5, got.fin);
    const TopKInfo info{static_cast<int32_t>(outter), static_cast<int32_t>(inner),
                        static_cast<int32_t>(n)};
    LocalTensor<uint8_t> tmp = b.Get<uint8_t>(2, tiling.tmpLocalSize * sizeof(T));
    TopK<T, init, finish, false, mode>(b.Get<T>(3), b.Get<int32_t>(4), b.Get<T>(0),
                                       b.Get<int32_t>(1), b.Get<bool>(5), tmp,
                                       static_cast<int32_t>(k), tiling, info, largest);
    got.src.b = b.Take<uint8_t>(0);
    got.tmp.b = b.Take<uint8_t>(2);
    got.dv.b = b.Take<uint8_t>(3);
    got.di.b = b.Take<uint8_t>(4);
  });
  const auto u = [](int64_t v) { return static_cast<uint32_t>(v); };
  const Tiles t{u(tiling.innerDataSize),   u(tiling.srcIndexOffset), u(tiling.sortRepeat),
                u(tiling.kAlignFourBytes), u(tiling.kAlignTwoBytes), u(tiling.maskOffset)};
  ReplayTopK<T, init, finish, nsmall>(want, outter, inner, n, k, largest, t);
  EXPECT_EQ(got.di.b == want.di.b, true) << "dstIndex";
  EXPECT_EQ(DiffScores<T>(got.dv, want.dv, "dstValue"), "");
  EXPECT_EQ(DiffScores<T>(got.src, want.src, "src"), "");
  EXPECT_EQ(DiffScores<T>(got.tmp, want.tmp, "the scratch"), "");
}

template <typename T>
void EveryForm(uint32_t seed) {
  for (bool largest : {true, false}) {
    Check<T, false, false, TopKMode::TOPK_NORMAL>(3, 96, 90, 13, largest, ++seed);
    Check<T, true, true, TopKMode::TOPK_NORMAL>(4, 64, 50, 7, largest, ++seed);
    Check<T, false, true, TopKMode::TOPK_NORMAL>(2, 32, 32, 1, largest, ++seed);
    Check<T, true, false, TopKMode::TOPK_NORMAL>(2, 800, 800, 100, largest, ++seed);
    Check<T, false, false, TopKMode::TOPK_NORMAL>(1, 1024, 1000, 64, largest, ++seed);
    Check<T, false, false, TopKMode::TOPK_NSMALL>(5, 32, 32, 3, largest, ++seed);
    Check<T, true, false, TopKMode::TOPK_NSMALL>(4, 32, 32, 17, largest, ++seed);
  }
}

TEST(TopKMergeReplay3510, EveryFormWithTiesZerosInfinitiesAndNaNs) {
  EveryForm<float>(100);
  EveryForm<half>(200);
}

// The sequence under every sanitizer tool: the instructions ordered as the kit orders them on
// one pipe. dstValue is written first (its padding up to maskOffset is read by the Muls that
// negates it back), src by a Duplicate.
std::string Findings(bool nsmall) {
  using namespace lngrad::aicore;
  LaunchOptions o;
  o.sanitize = san::kAllTools;
  o.soc = k950;
  const int32_t inner = nsmall ? 32 : 96, outter = 3, k = 5;
  TopkTiling tiling;
  auto* platform = platform_ascendc::PlatformAscendCManager::GetInstance(k950);
  const TopKMode mode = nsmall ? TopKMode::TOPK_NSMALL : TopKMode::TOPK_NORMAL;
  EXPECT_TRUE(TopKTilingFunc(*platform, inner, outter, k, 4, false, mode, false, tiling));
  std::vector<BlockFailure> failures;
  (void)detail::RunBlocks(
      "kernel", 1,
      [&] {
        TPipe pipe;
        TBuf<> s, d, i, t, f;
        pipe.InitBuffer(s, 4096);
        pipe.InitBuffer(d, 1024);
        pipe.InitBuffer(i, 1024);
        pipe.InitBuffer(t, 8192);
        pipe.InitBuffer(f, 32);
        Duplicate(s.Get<float>(), 2.0f, inner * outter);
        Duplicate(d.Get<float>(), 0.0f, 256);
        PipeBarrier<PIPE_V>();
        const TopKInfo info{outter, inner, inner};
        LocalTensor<uint8_t> tmp = t.Get<uint8_t>(tiling.tmpLocalSize * 4);
        if (nsmall) {
          TopK<float, false, false, false, TopKMode::TOPK_NSMALL>(
              d.Get<float>(), i.Get<int32_t>(), s.Get<float>(), i.Get<int32_t>(), f.Get<bool>(),
              tmp, k, tiling, info, false);
        } else {
          TopK<float>(d.Get<float>(), i.Get<int32_t>(), s.Get<float>(), i.Get<int32_t>(),
                      f.Get<bool>(), tmp, k, tiling, info, false);
        }
      },
      o, &failures);
  std::string r;
  for (const BlockFailure& b : failures) r += "[" + b.check + "] " + b.message + "\n";
  return r;
}

TEST(TopKMergeReplay3510, CleanUnderTheSanitizer) {
  EXPECT_EQ(Findings(false), "");
  EXPECT_EQ(Findings(true), "");
}

}  // namespace
