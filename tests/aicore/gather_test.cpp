// Gather, Gatherb and GatherMask (lngrad_aicore/gather_ops.h) against scalar models written
// here from Gather.md, Gatherb(ISASI).md and GatherMask.md: byte offsets from srcBaseAddr, the
// repeat form's dst layout and mask, Gatherb's block strides, GatherMask's built-in and tensor
// patterns in Normal and Counter mode with rsvdCnt, and each checked-mode rule.
#include <gtest/gtest.h>

#include <cstring>
#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "kernel_operator.h"
#include "sanitizer_off.h"

#include "repeat_test_util.h"

namespace {

using namespace AscendC;
using namespace lngrad::aicore::test;

constexpr uint32_t kBytes = kUbBufBytes;

template <typename T>
std::vector<T> Iota(size_t n) {
  std::vector<T> v(n);
  for (size_t i = 0; i < n; ++i) {
    if constexpr (std::is_same_v<T, half>) {
      v[i] = half::FromBits(static_cast<uint16_t>(0x1000 + i));
    } else {
      v[i] = static_cast<T>(1000 + i);
    }
  }
  return v;
}

template <typename T>
void CheckGather() {
  constexpr uint32_t L = 256 / sizeof(T);
  const auto src = Iota<T>(kBytes / sizeof(T));
  std::mt19937 gen(3);
  std::vector<uint32_t> off(kBytes / 4);
  for (auto& o : off) o = static_cast<uint32_t>(gen() % 4000) * sizeof(T);
  const T fill = src[7];
  for (uint32_t base : {0u, 64u}) {
    for (uint32_t count : {1u, 17u, L, 3 * L + 5}) {
      std::vector<T> want(kBytes / sizeof(T), fill);
      for (uint32_t i = 0; i < count; ++i) want[i] = src[(base + off[i]) / sizeof(T)];
      std::vector<T> got;
      OnBlock([&](Ub& ub) {
        ub.Put<T>(0, src);
        ub.Put<uint32_t>(1, off);
        ub.Put<T>(2, {}, fill);
        Gather(ub.Get<T>(2), ub.Get<T>(0), ub.Get<uint32_t>(1), base, count);
        got = ub.Take<T>(2);
      });
      ExpectSameBits(got, want, "Gather count " + std::to_string(count));
    }
  }
  // Repeat form: a bit mask, dstRepStride 10 blocks.
  const uint64_t mask[2] = {0xF00F0000FFFF1234ull, L > 64 ? 0x00000000000000FFull : 0};
  std::vector<T> want(kBytes / sizeof(T), fill);
  for (uint32_t r = 0; r < 3; ++r) {
    for (uint32_t p = 0; p < L; ++p) {
      if (((mask[p / 64] >> (p % 64)) & 1) == 0) continue;
      want[size_t{r} * 10 * (32 / sizeof(T)) + p] = src[(32 + off[r * L + p]) / sizeof(T)];
    }
  }
  std::vector<T> got;
  OnBlock([&](Ub& ub) {
    ub.Put<T>(0, src);
    ub.Put<uint32_t>(1, off);
    ub.Put<T>(2, {}, fill);
    Gather(ub.Get<T>(2), ub.Get<T>(0), ub.Get<uint32_t>(1), 32u, mask, 3, 10);
    got = ub.Take<T>(2);
  });
  ExpectSameBits(got, want, "Gather repeat form");
}

TEST(GatherOps, GatherFloat) { CheckGather<float>(); }
TEST(GatherOps, GatherHalf) { CheckGather<half>(); }
TEST(GatherOps, GatherInt16) { CheckGather<int16_t>(); }

template <typename T>
void CheckGatherb() {
  const auto src = Iota<T>(kBytes / sizeof(T));
  std::mt19937 gen(5);
  std::vector<uint32_t> off(kBytes / 4);
  for (auto& o : off) o = static_cast<uint32_t>(gen() % 1000) * 32;
  constexpr uint32_t E = 32 / sizeof(T);
  const T fill = src[3];
  for (const auto& t : {std::tuple{1, 1, 8}, {4, 2, 16}, {3, 0, 8}, {2, 1, 0}}) {
    // Plain variables: clang 14 cannot capture structured bindings in lambdas.
    const int repeat = std::get<0>(t), blk = std::get<1>(t), rep = std::get<2>(t);
    std::vector<T> want(kBytes / sizeof(T), fill);
    const int b = blk == 0 ? 1 : blk;
    for (int i = 0; i < repeat; ++i) {
      for (int j = 0; j < 8; ++j) {
        for (uint32_t k = 0; k < E; ++k) {
          want[(size_t(i) * rep + size_t(j) * b) * E + k] = src[off[i * 8 + j] / sizeof(T) + k];
        }
      }
    }
    std::vector<T> got;
    OnBlock([&](Ub& ub) {
      ub.Put<T>(0, src);
      ub.Put<uint32_t>(1, off);
      ub.Put<T>(2, {}, fill);
      Gatherb(ub.Get<T>(2), ub.Get<T>(0), ub.Get<uint32_t>(1), static_cast<uint8_t>(repeat),
              GatherRepeatParams(static_cast<uint8_t>(blk), static_cast<uint8_t>(rep)));
      got = ub.Take<T>(2);
    });
    ExpectSameBits(got, want, "Gatherb repeat " + std::to_string(repeat));
  }
}

TEST(GatherOps, GatherbUint16) { CheckGatherb<uint16_t>(); }
TEST(GatherOps, GatherbUint32) { CheckGatherb<uint32_t>(); }

bool BuiltinModel(uint8_t pattern, uint32_t p) {
  switch (pattern) {
    case 1:
      return p % 2 == 0;
    case 2:
      return p % 2 == 1;
    case 7:
      return true;
    default:
      return p % 4 == static_cast<uint32_t>(pattern) - 3u;
  }
}

template <typename T, typename U>
void CheckGatherMask() {
  constexpr uint32_t L = 256 / sizeof(T);
  constexpr uint32_t E = 32 / sizeof(T);
  const auto src = Iota<T>(kBytes / sizeof(T));
  std::mt19937 gen(8);
  std::vector<uint8_t> pat(kBytes);
  for (auto& x : pat) x = static_cast<uint8_t>(gen());
  const T fill = src[1];
  for (bool counter : {false, true}) {
    for (uint8_t builtin : {0, 1, 2, 3, 4, 5, 6, 7}) {  // 0: the tensor pattern
      // Counter mode: more elements per repeat than a repeat's lanes run on into the next blocks.
      const uint32_t mask = counter ? L + 6 : 0;
      const GatherMaskParams gp(2, 3, 20, 1);
      std::vector<T> want(kBytes / sizeof(T), fill);
      uint64_t kept = 0;
      for (uint32_t r = 0; r < gp.repeatTimes; ++r) {
        for (uint32_t p = 0; p < (counter ? mask : L); ++p) {
          const size_t byte = size_t{r} * gp.src1RepeatStride * 32 + p / 8;
          const bool on =
              builtin == 0 ? ((pat[byte] >> (p % 8)) & 1) != 0 : BuiltinModel(builtin, p);
          if (!on) continue;
          want[kept++] =
              src[(size_t{r} * gp.src0RepeatStride + size_t{p / E} * gp.src0BlockStride) * E +
                  p % E];
        }
      }
      // Normal mode zeroes the rest of the processed range.
      if (!counter) {
        for (size_t i = kept; i < size_t{gp.repeatTimes} * L; ++i) want[i] = T{};
      }
      std::vector<T> got;
      uint64_t rsvd = 0;
      uint64_t mask_low = 1;
      bool mask_counter = true;
      OnBlock([&](Ub& ub) {
        ub.Put<T>(0, src);
        ub.Put<uint8_t>(1, pat);
        ub.Put<T>(2, {}, fill);
        if (builtin == 0) {
          GatherMask(ub.Get<T>(2), ub.Get<T>(0), ub.Get<U>(1), counter, mask, gp, rsvd);
        } else {
          GatherMask(ub.Get<T>(2), ub.Get<T>(0), builtin, counter, mask, gp, rsvd);
        }
        got = ub.Take<T>(2);
        const auto* ctx = lngrad::aicore::CurrentBlockContext();
        mask_low = ctx->mask_low;
        mask_counter = ctx->mask_counter;
      });
      const std::string what = std::string("GatherMask pattern ") + std::to_string(builtin) +
                               (counter ? " counter" : " normal");
      EXPECT_EQ(rsvd, kept) << what;
      ExpectSameBits(got, want, what);
      EXPECT_EQ(mask_low, mask) << what;
      EXPECT_FALSE(mask_counter) << what;
    }
  }
}

// In place, as the vendor's sample runs it: dst == src0.
TEST(GatherOps, GatherMaskInPlace) {
  std::vector<uint32_t> v(256);
  for (uint32_t i = 0; i < 256; ++i) v[i] = i + 1;
  std::vector<uint32_t> got;
  uint64_t n = 0;
  OnBlock([&](Ub& ub) {
    ub.Put<uint32_t>(0, v);
    GatherMask(ub.Get<uint32_t>(0), ub.Get<uint32_t>(0), static_cast<uint8_t>(2), false, 0u,
               GatherMaskParams(1, 4, 8, 0), n);
    got = ub.Take<uint32_t>(0);
  });
  EXPECT_EQ(n, 128u);
  for (uint32_t i = 0; i < 256; ++i) EXPECT_EQ(got[i], i < 128 ? 2 * (i + 1) : 0u) << i;
}

TEST(GatherOps, GatherMaskHalf) { CheckGatherMask<half, uint16_t>(); }
TEST(GatherOps, GatherMaskFloat) { CheckGatherMask<float, uint32_t>(); }

// Scatter: src element i goes to byte base + off[i] of dst (a permutation of distinct offsets).
template <typename T>
void CheckScatter(const char* soc) {
  constexpr uint32_t L = 256 / sizeof(T);
  const auto src = Iota<T>(kBytes / sizeof(T));
  const uint32_t slots = 4000;
  std::vector<uint32_t> perm(slots);
  for (uint32_t i = 0; i < slots; ++i) perm[i] = i;
  std::shuffle(perm.begin(), perm.end(), std::mt19937(11));
  std::vector<uint32_t> off(kBytes / 4);
  for (uint32_t i = 0; i < slots; ++i) off[i] = perm[i] * sizeof(T);
  const T fill = src[9];
  // dst (filled with `fill`) after scatter(dst, src, offsets) on a block of `soc`.
  auto scattered = [&](auto scatter) {
    std::vector<T> got;
    OnBlock(
        [&](Ub& ub) {
          ub.Put<T>(0, src);
          ub.Put<uint32_t>(1, off);
          ub.Put<T>(2, {}, fill);
          scatter(ub.Get<T>(2), ub.Get<T>(0), ub.Get<uint32_t>(1));
          got = ub.Take<T>(2);
        },
        soc);
    return got;
  };
  for (uint32_t base : {0u, 64u}) {
    for (uint32_t count : {1u, 17u, L, 3 * L + 5}) {
      std::vector<T> want(kBytes / sizeof(T), fill);
      for (uint32_t i = 0; i < count; ++i) want[(base + off[i]) / sizeof(T)] = src[i];
      const std::vector<T> got = scattered(
          [&](const auto& dst, const auto& s, const auto& o) { Scatter(dst, s, o, base, count); });
      ExpectSameBits(got, want, "Scatter count " + std::to_string(count));
    }
  }
  if constexpr (sizeof(T) > 1) {
    // Repeat form: a bit mask, srcRepStride 10 blocks; offsets are consumed r * L + p.
    const uint64_t mask[2] = {0xF00F0000FFFF1234ull, L > 64 ? 0x00000000000000FFull : 0};
    std::vector<T> want(kBytes / sizeof(T), fill);
    for (uint32_t r = 0; r < 3; ++r) {
      for (uint32_t p = 0; p < L; ++p) {
        if (((mask[p / 64] >> (p % 64)) & 1) == 0) continue;
        want[(32 + off[r * L + p]) / sizeof(T)] = src[size_t{r} * 10 * (32 / sizeof(T)) + p];
      }
    }
    const std::vector<T> got = scattered([&](const auto& dst, const auto& s, const auto& o) {
      Scatter(dst, s, o, 32u, mask, 3, 10);
    });
    ExpectSameBits(got, want, "Scatter repeat form");
  }
}

TEST(GatherOps, ScatterHalf950) { CheckScatter<half>("Ascend950PR_9599"); }
TEST(GatherOps, ScatterFloat950) { CheckScatter<float>("Ascend950PR_9599"); }
TEST(GatherOps, ScatterUint16On310P) { CheckScatter<uint16_t>("Ascend310P1"); }
TEST(GatherOps, ScatterInt8950) { CheckScatter<int8_t>("Ascend950PR_9599"); }

TEST(GatherChecks, ScatterRules) {
  const char* k950 = "Ascend950PR_9599";
  ExpectCheck(
      [](Ub& ub) { Scatter(ub.Get<half>(2), ub.Get<half>(0), ub.Get<uint32_t>(1), 0u, 8u); },
      "unsupported_on_product", "not available on Ascend910B1");
  ExpectCheck(
      [](Ub& ub) {
        ub.Put<uint32_t>(1, {0, 2, 4, 2});
        Scatter(ub.Get<half>(2), ub.Get<half>(0), ub.Get<uint32_t>(1), 0u, 4u);
      },
      "gather_offset", "elements 1 and 3 are both 2 B", k950);
  ExpectCheck(
      [](Ub& ub) {
        ub.Put<uint32_t>(1, {3});
        Scatter(ub.Get<half>(2), ub.Get<half>(0), ub.Get<uint32_t>(1), 0u, 1u);
      },
      "gather_offset", "is 3 B, which must be a multiple of 2", k950);
  ExpectCheck(
      [](Ub& ub) {
        ub.Put<uint32_t>(1, {1u << 17});
        Scatter(ub.Get<half>(2), ub.Get<half>(0), ub.Get<uint32_t>(1), 0u, 1u);
      },
      "gather_offset", "must be below 131072", k950);
  ExpectCheck(
      [](Ub& ub) {
        ub.Put<uint32_t>(1, {4096});
        Scatter(ub.buf[2].Get<float>(1024), ub.Get<float>(0), ub.Get<uint32_t>(1), 0u, 1u);
      },
      "gather_offset", "reaches past", k950);
}

// GatherMask with built-in pattern `pattern` (rsvdCnt discarded).
void BuiltInGatherMask(const LocalTensor<float>& dst, const LocalTensor<float>& src,
                       uint8_t pattern, bool reduceMode, const GatherMaskParams& params) {
  uint64_t n = 0;
  GatherMask(dst, src, pattern, reduceMode, 0u, params, n);
}

TEST(GatherChecks, Rules) {
  ExpectCheck(
      [](Ub& ub) {
        ub.Put<uint32_t>(1, {6});
        Gather(ub.Get<float>(2), ub.Get<float>(0), ub.Get<uint32_t>(1), 0u, 1u);
      },
      "gather_offset", "is 6 B, which must be a multiple of 4");
  ExpectCheck(
      [](Ub& ub) {
        ub.Put<uint32_t>(1, {4096});
        Gather(ub.Get<float>(2), ub.buf[0].Get<float>(1024), ub.Get<uint32_t>(1), 0u, 1u);
      },
      "gather_offset", "reaches past src's 4096 B");
  ExpectCheck(
      [](Ub& ub) { Gather(ub.Get<float>(0), ub.Get<float>(0), ub.Get<uint32_t>(1), 0u, 8u); },
      "address_overlap", "same tensor");
  ExpectCheck(
      [](Ub& ub) {
        ub.Put<uint32_t>(1, {16});
        Gatherb(ub.Get<uint32_t>(2), ub.Get<uint32_t>(0), ub.Get<uint32_t>(1), 1,
                GatherRepeatParams(1, 8));
      },
      "gather_offset", "multiple of 32");
  ExpectCheck(
      [](Ub& ub) {
        BuiltInGatherMask(ub.Get<float>(2), ub.Get<float>(0), 9, false,
                          GatherMaskParams(1, 1, 8, 0));
      },
      "gather_pattern", "src1Pattern is 9");
  ExpectCheck(
      [](Ub& ub) {
        BuiltInGatherMask(ub.Get<float>(2), ub.Get<float>(0), 7, true,
                          GatherMaskParams(1, 1, 8, 0));
      },
      "vector_mask", "mask is 0");
  ExpectCheck(
      [](Ub& ub) {
        BuiltInGatherMask(ub.buf[2].Get<float>(100), ub.Get<float>(0), 7, false,
                          GatherMaskParams(1, 2, 8, 0));
      },
      "tensor_bounds", "dst is accessed up to byte 512");
  ExpectCheck(
      [](Ub& ub) {
        uint64_t n = 0;
        LocalTensor<float> x = ub.Get<float>(0);
        GatherMask(x[8], x, static_cast<uint8_t>(7), false, 0u, GatherMaskParams(1, 1, 8, 0), n);
      },
      "address_overlap", "overlaps src0");
}

TEST(GatherSanitizer, GatherReadsTheOffsetsItUses) {
  // Only src[0..8) is written; offsets into it are clean, one offset past it is not.
  for (uint32_t last : {28u, 32u}) {
    const std::string f = lngrad::aicore::test::SanitizerFindings(
        [&] {
          LocalTensor<float> src(TPosition::VECCALC, 0, 64);
          LocalTensor<uint32_t> off(TPosition::VECCALC, 256, 8);
          LocalTensor<float> d(TPosition::VECCALC, 1024, 64);
          Duplicate(src, 3.0f, 8);
          Duplicate(off, 4u, 8);
          off.SetValue(7, last);
          Gather(d, src, off, 0u, 8u);
        },
        lngrad::aicore::san::kInitcheck);
    if (last == 28) {
      EXPECT_EQ(f, "");
    } else {
      EXPECT_NE(f.find("initcheck"), std::string::npos) << f;
    }
  }
}

}  // namespace
