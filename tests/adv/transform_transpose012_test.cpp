// ConfusionTranspose / Transpose, the NZ 012 types (TRANSPOSE_NZ2NZ_012_WITH_N,
// TRANSPOSE_NZ2ND_012_WITH_N, TRANSPOSE_NZ2ND_012_WITHOUT_N, TRANSPOSE_NZ2NZ_012_WITHOUT_N), on
// Ascend910B1 and Ascend950PR: the real elements against maps written here from the formats'
// definitions (bit for bit), the padding of the outputs, the tiling fields the kernel reads, and
// the checked-mode refusal of a too-small scratch.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "../aicore/repeat_test_util.h"
#include "kernel_operator.h"
#include "math_api_test_util.h"
#include "tiling/tiling_api.h"
#include "transform_test_util.h"
#include "../aicore/sanitizer_off.h"

namespace {

using namespace AscendC;
using namespace lngrad::adv::testing;
using lngrad::aicore::test::ExpectCheck;

uint32_t Align16(uint32_t v) { return (v + 15) / 16 * 16; }

// The call's dims {B, N, S, H/N} and the offsets of the formats.
struct Dims {
  uint32_t b, n, s, hn;
  uint32_t H() const { return n * hn; }
  uint32_t AS() const { return Align16(s); }
  uint32_t AH() const { return Align16(H()); }
  uint32_t AHn() const { return Align16(hn); }
  // NZ [.., cols / 16, alignS / 16, 16, 16] of a [S, cols] matrix: element (s, c).
  size_t Nz(uint32_t s_, uint32_t c) const { return size_t{c / 16} * AS() * 16 + s_ * 16 + c % 16; }
  // The NZ [B, H/16, S/16, 16, 16] of [B, S, H] (the WITH_N source, the NZ2NZ_WITHOUT_N output).
  size_t BatchSh() const { return size_t{AH()} * AS(); }
  // The NZ [B, N, H/N/16, S/16, 16, 16] of [B, N, S, H/N] (and its ND [B, N, alignS, alignHn]).
  size_t BatchNshn() const { return size_t{n} * AHn() * AS(); }
};

enum class Kind { kNzWithN = 3, kNdWithN = 4, kNdWithoutN = 5, kNzWithoutN = 6 };

// Where the output puts logical element (b, head, s, c) (c < H/N), and the output's size.
size_t DstAt(Kind kind, const Dims& d, uint32_t b, uint32_t head, uint32_t s, uint32_t c) {
  switch (kind) {
    case Kind::kNzWithN:
      return b * d.BatchNshn() + size_t{head} * d.AHn() * d.AS() + d.Nz(s, c);
    case Kind::kNdWithN:
      return b * d.BatchNshn() + (size_t{head} * d.AS() + s) * d.AHn() + c;
    case Kind::kNdWithoutN:
      return b * d.BatchSh() + size_t{s} * d.AH() + head * d.hn + c;
    default:
      return b * d.BatchSh() + d.Nz(s, head * d.hn + c);
  }
}
size_t DstSize(Kind kind, const Dims& d) {
  return size_t{d.b} *
         (kind == Kind::kNzWithN || kind == Kind::kNdWithN ? d.BatchNshn() : d.BatchSh());
}
// Where the source holds logical element (b, head, s, c).
size_t SrcAt(Kind kind, const Dims& d, uint32_t b, uint32_t head, uint32_t s, uint32_t c) {
  if (kind == Kind::kNzWithN || kind == Kind::kNdWithN) {
    return b * d.BatchSh() + d.Nz(s, head * d.hn + c);
  }
  return b * d.BatchNshn() + size_t{head} * d.AHn() * d.AS() + d.Nz(s, c);
}
size_t SrcSize(Kind kind, const Dims& d) {
  return size_t{d.b} *
         (kind == Kind::kNzWithN || kind == Kind::kNdWithN ? d.BatchSh() : d.BatchNshn());
}

constexpr float kSentinel = -7.0f;  // what dst holds before the call
bool WithN(Kind k) { return k == Kind::kNzWithN || k == Kind::kNdWithN; }

// Runs the call; `scratch` (with_tmp) is what sharedTmpBuffer holds before it.
template <typename T>
std::vector<T> RunCall(const char* soc, Kind kind, const Dims& d, const std::vector<T>& src,
                       const std::vector<T>* scratch) {
  uint32_t mx = 0, mn = 0;
  const ge::Shape shape({d.b, d.n, d.s, d.hn});
  const uint32_t type = static_cast<uint32_t>(kind);
  GetTransposeMaxMinTmpSize(shape, sizeof(T), type, mx, mn);
  EXPECT_EQ(mn, 2 * 256 * sizeof(T));
  EXPECT_EQ(mx, mn);
  tiling::ConfusionTransposeTiling t;
  GetTransposeTilingInfo(shape, mn, sizeof(T), type, t);
  std::vector<T> got;
  OnBlock(
      [&](Ub& ub) {
        ub.Put<T>(0, src);
        ub.Put<T>(1, {}, static_cast<T>(kSentinel));
        if (scratch != nullptr) {
          ub.Put<T>(2, *scratch);
          ConfusionTranspose(ub.Get<T>(1), ub.Get<T>(0), ub.Get<uint8_t>(2),
                             static_cast<TransposeType>(type), t);
        } else {
          Transpose(ub.Get<T>(1), ub.Get<T>(0), static_cast<TransposeType>(type), t);
        }
        got = Prefix(ub.Take<T>(1), DstSize(kind, d));
      },
      soc);
  return got;
}

// The real elements and the source's padding rows (s in [S, alignS)) move by the formats' map:
// the device transposes whole 16 x 16 source fractals, padding rows with them.
template <typename T>
void ExpectMoved(Kind kind, const Dims& d, const std::vector<T>& src, const std::vector<T>& got,
                 std::vector<bool>& seen) {
  for (uint32_t b = 0; b < d.b; ++b) {
    for (uint32_t h = 0; h < d.n; ++h) {
      for (uint32_t s = 0; s < d.AS(); ++s) {
        for (uint32_t c = 0; c < d.hn; ++c) {
          const size_t to = DstAt(kind, d, b, h, s, c);
          seen[to] = true;
          ASSERT_EQ(Bits(got[to]), Bits(src[SrcAt(kind, d, b, h, s, c)]))
              << "b " << b << " head " << h << " s " << s << " c " << c;
        }
      }
    }
  }
}

// The padding columns. The store of a 16-column block whose last columns are padding takes
// only the real columns' rows into tmp2 (the second scratch cube); its other rows are stale:
// - WITH_N, H/N < 16: no step ever fills tmp2 rows [H/N, 16), so column c of each head holds
//   the scratch's element 256 + 16 c + s % 16 from before the call (transposed like a row);
// - WITH_N, H/N > 16: the block before (the same head's previous 16 columns) left them: column c
//   repeats column c - 16;
// - WITHOUT_N (H > 16): column h in [H, alignH) repeats column h - 16 likewise.
template <typename T>
void ExpectPadColumns(Kind kind, const Dims& d, const std::vector<T>& got,
                      const std::vector<T>* scratch, std::vector<bool>& seen) {
  const bool with_n = WithN(kind);
  const uint32_t heads = with_n ? d.n : 1, real = with_n ? d.hn : d.H();
  const uint32_t cols = with_n ? d.AHn() : d.AH();
  for (uint32_t b = 0; b < d.b; ++b) {
    for (uint32_t h = 0; h < heads; ++h) {
      for (uint32_t s = 0; s < d.AS(); ++s) {
        for (uint32_t c = real; c < cols; ++c) {
          const size_t at = DstAt(kind, d, b, h, s, c);
          if (real < 16) {
            if (scratch == nullptr) continue;  // the stack buffer's content: not asserted
            ASSERT_EQ(Bits(got[at]), Bits((*scratch)[256 + 16 * c + s % 16])) << c << " " << s;
          } else {
            ASSERT_EQ(Bits(got[at]), Bits(got[DstAt(kind, d, b, h, s, c - 16)])) << c << " " << s;
          }
          seen[at] = true;
        }
      }
    }
  }
}

// WITHOUT_N with H < 16: the sequence starts with tmp2 needing 16 rows (its H < 16 setting is
// overwritten at once) and asks 16 after every store, so the rows of the fractals (for b, for
// s-block j, for head: columns 0..H/N-1, each 16 s values) stream through tmp2 without regard
// to batch or s-block: every 16 streamed rows are stored at the s-block j and batch b of the
// last one, columns 16 q.. (q: the stores so far in that s-block); the rest of dst is not
// written, and the last rows (fewer than 16) are never stored.
template <typename T>
void ExpectShortH(Kind kind, const Dims& d, const std::vector<T>& src, const std::vector<T>& got) {
  struct Row {
    uint32_t b, j, head, c;
  };
  std::vector<Row> stream;
  for (uint32_t b = 0; b < d.b; ++b) {
    for (uint32_t j = 0; j < d.AS() / 16; ++j) {
      for (uint32_t h = 0; h < d.n; ++h) {
        for (uint32_t c = 0; c < d.hn; ++c) stream.push_back({b, j, h, c});
      }
    }
  }
  std::vector<T> want(got.size(), static_cast<T>(kSentinel));
  uint32_t q = 0, last_j = 0, last_b = 0;
  for (size_t g = 0; g + 16 <= stream.size(); g += 16) {
    const Row& end = stream[g + 15];
    q = end.j == last_j && end.b == last_b ? q : 0;
    for (uint32_t r = 0; r < 16; ++r) {
      const Row& row = stream[g + r];
      for (uint32_t e = 0; e < 16; ++e) {
        want[DstAt(kind, d, end.b, 0, end.j * 16 + e, q * 16 + r)] =
            src[SrcAt(kind, d, row.b, row.head, row.j * 16 + e, row.c)];
      }
    }
    ++q;
    last_j = end.j;
    last_b = end.b;
  }
  for (size_t i = 0; i < got.size(); ++i) ASSERT_EQ(Bits(got[i]), Bits(want[i])) << i;
}

template <typename T>
void Check(const char* soc, Kind kind, Dims d, bool with_tmp) {
  SCOPED_TRACE(::testing::Message()
               << soc << " type " << static_cast<int>(kind) << " T" << sizeof(T) << " " << d.b
               << "x" << d.n << "x" << d.s << "x" << d.hn << (with_tmp ? " tmp" : " stack"));
  const std::vector<T> src = Iota<T>(SrcSize(kind, d));
  const std::vector<T> scratch = Iota<T>(512, 1000);
  const std::vector<T> got = RunCall<T>(soc, kind, d, src, with_tmp ? &scratch : nullptr);
  ASSERT_EQ(got.size(), DstSize(kind, d));
  if (!WithN(kind) && d.H() < 16) {
    ExpectShortH(kind, d, src, got);
    return;
  }
  std::vector<bool> seen(got.size(), false);
  ExpectMoved(kind, d, src, got, seen);
  ExpectPadColumns(kind, d, got, with_tmp ? &scratch : nullptr, seen);
  const bool all_asserted = with_tmp || (WithN(kind) ? d.hn >= 16 : true);
  if (all_asserted) {
    for (size_t i = 0; i < seen.size(); ++i) ASSERT_TRUE(seen[i]) << "dst element " << i;
  }
}

// {B, N, S, H/N}: H/N below, at and above 16, not multiples of 16; S with tails; H below 16.
const Dims kShapes[] = {{2, 3, 20, 10}, {1, 2, 33, 24}, {1, 3, 17, 5},  {1, 2, 16, 16},
                        {1, 2, 18, 40}, {2, 1, 20, 7},  {1, 4, 31, 32}, {1, 3, 17, 6}};
const Kind kKinds[] = {Kind::kNzWithN, Kind::kNdWithN, Kind::kNdWithoutN, Kind::kNzWithoutN};

// Every type, shape and product, with sharedTmpBuffer and with the stack buffer.
template <typename T>
void CheckAll() {
  for (const char* soc : kTransformSocs) {
    for (Kind k : kKinds) {
      for (const Dims& d : kShapes) {
        Check<T>(soc, k, d, true);
        Check<T>(soc, k, d, false);
      }
    }
  }
}

TEST(TransformTranspose012, HalfWithAndWithoutScratch) { CheckAll<half>(); }

TEST(TransformTranspose012, FloatWithAndWithoutScratch) { CheckAll<float>(); }

// The page's other 2- and 4-byte types take the same paths (by size).
TEST(TransformTranspose012, Int16AndInt32) {
  CheckAll<int16_t>();
  CheckAll<int32_t>();
}

TEST(TransformTranspose012, CheckedModeRefusesSmallScratch) {
  for (Kind k : kKinds) {
    tiling::ConfusionTransposeTiling t;
    GetTransposeTilingInfo(ge::Shape({1, 2, 16, 16}), 2048, 4, static_cast<uint32_t>(k), t);
    ExpectCheck(
        [&](Ub& ub) {
          LocalTensor<uint8_t> tmp = ub.Get<uint8_t>(2);
          tmp.SetSize(2048 - 32);
          ConfusionTranspose(ub.Get<float>(1), ub.Get<float>(0), tmp, static_cast<TransposeType>(k),
                             t);
        },
        "transform_params", "two 16 x 16 cubes");
  }
}

// GetTransposeTilingInfo's fields for types 3 and 5/6, from the toolkit's formulas
// (confusion_transpose_tiling_impl.cpp; type 4 is pinned in transform_transpose_test.cpp).
TEST(TransformTranspose012, TilingFields) {
  tiling::ConfusionTransposeTiling t;
  const uint32_t* got = &t.param0;
  GetTransposeTilingInfo(ge::Shape({2, 4, 40, 24}), 0, 4, 3, t);
  // blockSize, B, N, H/N, blockNum, H, hBlocks, sBlocks, alignH, alignS, hnBlocks, alignHn, gap,
  // alignS * 16, N * hnBlocks, N * alignHn * alignS, alignH * alignS
  const uint32_t w3[] = {8, 2, 4, 24, 2, 96, 6, 3, 96, 48, 2, 32, 8, 768, 8, 6144, 4608};
  for (size_t i = 0; i < 17; ++i) EXPECT_EQ(got[i], w3[i]) << i;
  for (uint32_t type : {5u, 6u}) {
    GetTransposeTilingInfo(ge::Shape({2, 3, 20, 10}), 0, 2, type, t);
    // blockSize, B, N, H/N, H, hBlocks, sBlocks, hnBlocks, alignH, sBlocks * 256, alignH * 16,
    // blockSize * alignH, N * hnBlocks * 16 * alignS, alignH * alignS, blockNum
    const uint32_t w5[] = {16, 2, 3, 10, 30, 2, 2, 1, 32, 512, 512, 512, 1536, 1024, 1};
    for (size_t i = 0; i < 15; ++i) EXPECT_EQ(got[i], w5[i]) << type << " " << i;
  }
  // GetConfusionTransposeTilingInfo is the same function under its older name.
  for (uint32_t type = 3; type <= 6; ++type) {
    tiling::ConfusionTransposeTiling a, b;
    GetTransposeTilingInfo(ge::Shape({2, 3, 20, 10}), 0, 4, type, a);
    GetConfusionTransposeTilingInfo(ge::Shape({2, 3, 20, 10}), 0, 4, type, b);
    const uint32_t* pa = &a.param0;
    const uint32_t* pb = &b.param0;
    for (size_t i = 0; i < 18; ++i) EXPECT_EQ(pa[i], pb[i]) << type << " " << i;
  }
}

// ----------------------------------------------------------------------------------------------
// TRANSPOSE_ND2NZ_WITH_INTLV (arch 3510, int8_t / uint8_t): {H, W} ND to 16-column blocks of
// interleaved row pairs, [W / 16, H / 2, 16, 2]. The toolkit's host tiling sets no field for it
// (the kernel reads H and W from params 1 and 2, which the caller fills).

template <typename T>
void CheckIntlv(uint32_t h, uint32_t w) {
  SCOPED_TRACE(::testing::Message() << "INTLV " << h << "x" << w << " T" << sizeof(T));
  std::vector<T> src(size_t{h} * w);
  for (size_t i = 0; i < src.size(); ++i) src[i] = static_cast<T>(i * 7 + i / 251);
  const uint32_t pairs = h / 2;
  std::vector<T> want(size_t{w} * pairs * 2);
  for (uint32_t r = 0; r < 2 * pairs; ++r) {
    for (uint32_t c = 0; c < w; ++c) {
      want[(size_t{c / 16} * pairs + r / 2) * 32 + (c % 16) * 2 + r % 2] = src[size_t{r} * w + c];
    }
  }
  tiling::ConfusionTransposeTiling t;
  t.param0 = 99;
  GetTransposeTilingInfo(ge::Shape({h, w}), 0, 1, 16, t);
  EXPECT_EQ(t.param0, 0u);
  t.param1 = h;
  t.param2 = w;
  OnBlock(
      [&](Ub& ub) {
        ub.Put<T>(0, src);
        ub.Put<T>(1, {}, static_cast<T>(0x5a));
        Transpose(ub.Get<T>(1), ub.Get<T>(0), ub.Get<uint8_t>(2),
                  TransposeType::TRANSPOSE_ND2NZ_WITH_INTLV, t);
        const std::vector<T> got = ub.Take<T>(1);
        ExpectSame(Prefix(got, want.size()), want, "ND2NZ_WITH_INTLV");
        EXPECT_EQ(got[want.size()], static_cast<T>(0x5a));  // nothing past the output
      },
      k950);
}

TEST(TransformTranspose012, Nd2NzWithInterleave) {
  CheckIntlv<int8_t>(6, 64);    // one masked tail step
  CheckIntlv<uint8_t>(7, 288);  // a 256-column step and a tail; the odd last row is not read
  CheckIntlv<int8_t>(4, 416);   // a tail of 160 (> 128): both interleaved halves stored
  CheckIntlv<uint8_t>(2, 512);  // two full steps
  tiling::ConfusionTransposeTiling t;
  t.param1 = 4;
  t.param2 = 48;
  ExpectCheck(
      [&](Ub& ub) {
        Transpose(ub.Get<int8_t>(1), ub.Get<int8_t>(0), ub.Get<uint8_t>(2),
                  TransposeType::TRANSPOSE_ND2NZ_WITH_INTLV, t);
      },
      "transform_params", "arch 3510 only");
  t.param2 = 48;
  ExpectCheck(
      [&](Ub& ub) {
        Transpose(ub.Get<int8_t>(1), ub.Get<int8_t>(0), ub.Get<uint8_t>(2),
                  TransposeType::TRANSPOSE_ND2NZ_WITH_INTLV, t);
      },
      "transform_params", "multiple of 32", k950);
}

}  // namespace
