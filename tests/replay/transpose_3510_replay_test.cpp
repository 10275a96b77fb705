// lngrad's ConfusionTranspose / Transpose with the 950's ND types (TRANSPOSE_ND2ND_021, _102,
// _210; Ascend950PR_9589), compared bit for bit with a replay of the kit's register code,
// impl/adv_api/detail/transpose/confusion_transpose/confusion_transpose_3510_impl.h (commit
// 82b89a15f): ConfusionTranspose021 / 102 / 210 with their choice of path (a dim of 1: the
// copy, or 210 through 021 with the dims it names; a gathered dim above half a register:
// ConfusionTransposeCommonGather, its B8 form, or for 102 ConfusionTransposeCommonDataCopy;
// otherwise ConfusionTransposeComplexGather and its B8 form), each index register as the source
// builds it (Arange, Muls, Div, Mul, Sub, Add in the index type: uint16_t for 1- and 2-byte T,
// uint32_t for 4-byte T, so the 16-bit indices wrap modulo 65536), the Gathers from the moving
// base address, B8's two half-register gathers and DeInterleave, and the unaligned stores.
// ND2NZ_WITH_INTLV is checked by tests/adv/transform_transpose_test.cpp against the same file.
// Provenance: a separate reading of the kit's source by the helper who then changed
// lib/transpose/confusion_transpose.h (the same person; lngrad's header had been read before).
#include <cstdint>
#include <vector>

#include "transform_3510_replay_util.h"

namespace {

using namespace AscendC;
using namespace lngrad_replay::transform3510;

// ---- The replay (confusion_transpose_3510_impl.h) ----

// The index type U: uint16_t for 1- and 2-byte T, uint32_t for 4-byte T; lane arithmetic keeps
// U's low bits.
template <typename T>
uint32_t Wrap(uint64_t v) {
  return sizeof(T) == 4 ? static_cast<uint32_t>(v) : static_cast<uint32_t>(v & 0xFFFFu);
}

struct Loops {
  uint32_t l0, l1, l2, s0, s1, s2;
};

template <typename T>
void CommonGather(Image<T>& dst, const Image<T>& src, Loops p) {
  constexpr uint32_t vl = Lanes<T>();
  constexpr bool b8 = sizeof(T) == 1;
  constexpr uint32_t idxLanes = b8 ? vl / 2 : vl;
  const uint32_t tail = p.l2 % vl, mainLoop = p.l2 / vl;
  std::vector<uint32_t> idx(idxLanes);  // Arange, then Muls by (U)srcStride2
  for (uint32_t l = 0; l < idxLanes; ++l) idx[l] = Wrap<T>(uint64_t{l} * Wrap<T>(p.s2));
  // One register, its first `lanes` lanes gathered (the mask; the others are not stored): B8
  // gathers its halves from base and base + vl / 2 * srcStride2.
  const auto gather = [&](size_t base, uint32_t lanes) {
    std::vector<T> reg(vl);
    for (uint32_t m = 0; m < lanes; ++m) {
      const size_t half = b8 && m >= idxLanes ? size_t{vl / 2} * p.s2 : 0;
      reg[m] = src.mem.at(base + half + idx[m % idxLanes]);
    }
    return reg;
  };
  for (uint32_t i = 0; i < p.l0; ++i) {
    for (uint32_t j = 0; j < p.l1; ++j) {
      size_t d = (size_t{i} * p.l1 + j) * p.l2;
      for (uint32_t k = 0; k < mainLoop; ++k) {
        const size_t base = size_t{i} * p.s0 + size_t{j} * p.s1 + size_t{k} * vl * p.s2;
        dst.StoreRun(d, gather(base, vl), vl);
      }
      if (tail > 0) {
        const size_t base = size_t{i} * p.s0 + size_t{j} * p.s1 + size_t{mainLoop} * vl * p.s2;
        dst.StoreRun(d, gather(base, tail), tail);
      }
    }
  }
}

template <typename T>
void ComplexGather(Image<T>& dst, const Image<T>& src, Loops p) {
  constexpr uint32_t vl = Lanes<T>();
  const uint32_t factor = vl / p.l2, mainSize = factor * p.l2, mainLoop = p.l1 / factor;
  const uint32_t tail = p.l1 % factor * p.l2;
  // indexReg5 = (k / c) * srcStride1 + (k - k / c * c) * srcStride2, c = forLoop2, for the
  // lanes k of the register (B8: the second half from Arange(halfVlSize)).
  std::vector<uint32_t> idx(vl);
  for (uint32_t k = 0; k < vl; ++k) {
    const uint32_t q = k / p.l2;
    const uint32_t r = Wrap<T>(k - Wrap<T>(uint64_t{q} * Wrap<T>(p.l2)));
    idx[k] = Wrap<T>(uint64_t{Wrap<T>(uint64_t{q} * Wrap<T>(p.s1))} +
                     Wrap<T>(uint64_t{r} * Wrap<T>(p.s2)));
  }
  const auto gather = [&](size_t base, uint32_t lanes) {  // the mask's lanes
    std::vector<T> reg(vl);
    for (uint32_t m = 0; m < lanes; ++m) reg[m] = src.mem.at(base + idx[m]);
    return reg;
  };
  for (uint32_t i = 0; i < p.l0; ++i) {
    size_t d = size_t{i} * p.l1 * p.l2;
    for (uint32_t j = 0; j < mainLoop; ++j) {
      dst.StoreRun(d, gather(size_t{i} * p.s0 + size_t{j} * p.s1 * factor, mainSize), mainSize);
    }
    if (tail > 0) {
      dst.StoreRun(d, gather(size_t{i} * p.s0 + size_t{mainLoop} * p.s1 * factor, tail), tail);
    }
  }
}

template <typename T>
void CommonDataCopy(Image<T>& dst, const Image<T>& src, Loops p) {
  constexpr uint32_t vl = Lanes<T>();
  const uint32_t tail = p.l2 % vl, mainLoop = p.l2 / vl;
  for (uint32_t i = 0; i < p.l0; ++i) {
    for (uint32_t j = 0; j < p.l1; ++j) {
      size_t s = size_t{i} * p.s0 + size_t{j} * p.s1, d = (size_t{i} * p.l1 + j) * p.l2;
      for (uint32_t k = 0; k < mainLoop; ++k, s += vl) dst.StoreRun(d, src.Load(s), vl);
      if (tail > 0) dst.StoreRun(d, src.Load(s), tail);
    }
  }
}

template <typename T>
void CopySrcToDst(Image<T>& dst, const Image<T>& src, uint32_t total) {
  constexpr uint32_t vl = Lanes<T>();
  uint32_t count = total;
  for (uint32_t i = 0; i < (total + vl - 1) / vl; ++i) {
    const std::vector<bool> mask = UpdateMask(count, vl);
    dst.StoreMasked(size_t{i} * vl, src.Load(size_t{i} * vl), mask);
  }
}

template <typename T>
void Replay021(Image<T>& dst, const Image<T>& src, uint32_t d0, uint32_t d1, uint32_t d2) {
  constexpr uint32_t vl = Lanes<T>();
  if (d1 == 1 || d2 == 1) return CopySrcToDst(dst, src, d0 * d1 * d2);
  const Loops p{d0, d2, d1, d1 * d2, 1, d2};
  if (d1 > vl / 2) return CommonGather(dst, src, p);
  ComplexGather(dst, src, p);
}

template <typename T>
void Replay102(Image<T>& dst, const Image<T>& src, uint32_t d0, uint32_t d1, uint32_t d2) {
  constexpr uint32_t vl = Lanes<T>();
  if (d0 == 1 || d1 == 1) return CopySrcToDst(dst, src, d0 * d1 * d2);
  const Loops p{d1, d0, d2, d2, d1 * d2, 1};
  if (d2 > vl / 2) return CommonDataCopy(dst, src, p);
  ComplexGather(dst, src, p);
}

template <typename T>
void Replay210(Image<T>& dst, const Image<T>& src, uint32_t d0, uint32_t d1, uint32_t d2) {
  constexpr uint32_t vl = Lanes<T>();
  if (d0 == 1 || d1 == 1 || d2 == 1) {
    uint32_t t1 = d1, t2 = d2;  // tiling021 = {1, dim1, dim2}, then adjusted
    if (d1 == 1) {
      t1 = d0;
    } else if (d2 == 1) {
      t1 = d0;
      t2 = d1;
    }
    return Replay021(dst, src, 1, t1, t2);
  }
  const Loops p{d2, d1, d0, 1, d2, d1 * d2};
  if (d0 > vl / 2) return CommonGather(dst, src, p);
  ComplexGather(dst, src, p);
}

// ---- lngrad against the replay ----

constexpr uint32_t kBuf = 98304;  // two of them fit the 950's 248 KiB UB

template <typename T>
void Check(TransposeType type, uint32_t d0, uint32_t d1, uint32_t d2, uint32_t seed) {
  SCOPED_TRACE(::testing::Message() << "type " << static_cast<int>(type) << " " << sizeof(T)
                                    << "-byte {" << d0 << ", " << d1 << ", " << d2 << "}");
  const uint32_t n = d0 * d1 * d2;
  ASSERT_LE(n * sizeof(T), kBuf);
  const std::vector<T> srcImg = RandomBits<T>(seed, kBuf / sizeof(T));
  const std::vector<T> dstImg = RandomBits<T>(seed + 1, kBuf / sizeof(T));
  std::vector<T> got;
  On950({kBuf, kBuf, 512}, [&](Bufs& b) {
    b.Put<T>(0, srcImg);
    b.Put<T>(1, dstImg);
    tiling::ConfusionTransposeTiling t;
    t.param0 = d0;
    t.param1 = d1;
    t.param2 = d2;
    ConfusionTranspose(b.Get<T>(1, n), b.Get<T>(0, n), b.Get<uint8_t>(2), type, t);
    got = b.Take<T>(1);
  });
  Image<T> dst{dstImg};
  const Image<T> src{srcImg};
  if (type == TransposeType::TRANSPOSE_ND2ND_021) Replay021(dst, src, d0, d1, d2);
  if (type == TransposeType::TRANSPOSE_ND2ND_102) Replay102(dst, src, d0, d1, d2);
  if (type == TransposeType::TRANSPOSE_ND2ND_210) Replay210(dst, src, d0, d1, d2);
  EXPECT_EQ(FirstDiff(got, dst.mem), "");
}

constexpr TransposeType k021 = TransposeType::TRANSPOSE_ND2ND_021;
constexpr TransposeType k102 = TransposeType::TRANSPOSE_ND2ND_102;
constexpr TransposeType k210 = TransposeType::TRANSPOSE_ND2ND_210;

// Every path of each type (the copy, the common gather or copy, the complex gather) on shapes
// whose indices stay below 65536, for each element size.
template <typename T>
void EveryPath(uint32_t seed) {
  const uint32_t half = Lanes<T>() / 2;
  for (TransposeType type : {k021, k102, k210}) {
    Check<T>(type, 3, 1, 7, ++seed);
    Check<T>(type, 1, 5, 9, ++seed);
    Check<T>(type, 4, 6, 1, ++seed);
    Check<T>(type, 2, 3, 5, ++seed);
    Check<T>(type, 3, 7, half - 1, ++seed);
    Check<T>(type, 2, half + 3, 5, ++seed);
    Check<T>(type, half + 2, 3, 4, ++seed);
    Check<T>(type, 2, 2 * half + 9, 3, ++seed);
    Check<T>(type, 3, 4, 2 * half + 11, ++seed);
  }
}

TEST(TransposeReplay3510, EveryPathOf021And102And210) {
  EveryPath<float>(100);
  EveryPath<int32_t>(200);
  EveryPath<half>(300);
  EveryPath<bfloat16_t>(400);
  EveryPath<int8_t>(500);
  EveryPath<uint8_t>(600);
}

// The 16-bit gather indices wrap: the element the device reads is at the register's base plus
// the index modulo 65536 (the base address itself does not wrap). Only 1-byte T gets there: a
// gather index stays below src's element count, which for 2-byte T is below 65536 whenever src
// and dst both fit the 950's 248 KiB UB (the half and float cases here stay exact).
TEST(TransposeReplay3510, SixteenBitIndicesWrap) {
  Check<int8_t>(k210, 130, 20, 30, 3);   // B8 common gather: lane q < 128 reads q * 600
  Check<uint8_t>(k021, 1, 129, 517, 8);  // B8 common gather: q * 517
  Check<int8_t>(k210, 100, 30, 30, 4);   // B8 complex gather: (k % 100) * 900
  Check<uint8_t>(k021, 1, 100, 800, 5);  // B8 complex gather: (k % 100) * 800
  Check<int8_t>(k102, 4, 400, 60, 6);    // B8 complex gather: (k / 60) * 24000
  Check<half>(k021, 1, 65, 600, 1);      // the largest: 64 * 600
  Check<half>(k102, 4, 200, 60, 2);      // (k / 60) * 12000
  Check<float>(k102, 2, 400, 30, 7);
}

}  // namespace
