// Mmad's inner product with Highway (compiled once per target by foreach_target, chosen at run
// time): register tiles of up to 4 rows of C by 2 vectors of n, each lane the scalar order of
// mmad.cpp (a fractal's products summed from 0 in k order, then added to C in fractal order).

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "mmad_simd.cpp"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"

#include <algorithm>
#include <cstddef>
#include <cstring>

#include "lngrad/half.h"
#include "lngrad_cube/transpose.h"
#include "mmad_simd.h"

HWY_BEFORE_NAMESPACE();
namespace lngrad::cube::detail {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// part + a x b: a fused multiply-add where every product is exact in T (half operands widened to
// float: 11 x 11 significant bits, exponents well inside float's), which rounds once like the
// addition of the exact product; else a multiplication and an addition, each rounded.
template <bool kExact, class V>
HWY_INLINE V AddProduct(V part, V a, V b) {
  if constexpr (kExact) {
    return hn::MulAdd(a, b, part);
  } else {
    return hn::Add(part, hn::Mul(a, b));
  }
}

// Rows [r0, +MR) of C, vectors [0, NV) from column n0 (a: row r0 of A).
template <size_t MR, size_t NV, bool kExact, class D, typename T = hn::TFromD<D>>
HWY_INLINE void Tile(D d, const T* a, const T* b, T* c, const CLayout& lay, size_t r0, size_t n0,
                     uint32_t k, uint32_t c0) {
  using V = hn::Vec<D>;
  const size_t lanes = hn::Lanes(d), np = lay.np;
  V acc[MR][NV];
  V part[MR][NV];
#pragma GCC unroll 16
  for (size_t r = 0; r < MR; ++r)
#pragma GCC unroll 16
    for (size_t v = 0; v < NV; ++v) acc[r][v] = hn::LoadU(d, c + lay.At(r0 + r, n0 + v * lanes));
  for (uint32_t k0 = 0; k0 < k; k0 += c0) {
#pragma GCC unroll 16
    for (size_t r = 0; r < MR; ++r)
#pragma GCC unroll 16
      for (size_t v = 0; v < NV; ++v) part[r][v] = hn::Zero(d);
    const uint32_t ke = std::min(k, k0 + c0);
    for (uint32_t kk = k0; kk < ke; ++kk) {
      V bv[NV];
#pragma GCC unroll 16
      for (size_t v = 0; v < NV; ++v) bv[v] = hn::LoadU(d, b + size_t{kk} * np + n0 + v * lanes);
#pragma GCC unroll 16
      for (size_t r = 0; r < MR; ++r) {
        const V av = hn::Set(d, a[r * k + kk]);
#pragma GCC unroll 16
        for (size_t v = 0; v < NV; ++v) part[r][v] = AddProduct<kExact>(part[r][v], av, bv[v]);
      }
    }
#pragma GCC unroll 16
    for (size_t r = 0; r < MR; ++r)
#pragma GCC unroll 16
      for (size_t v = 0; v < NV; ++v) acc[r][v] = hn::Add(acc[r][v], part[r][v]);
  }
#pragma GCC unroll 16
  for (size_t r = 0; r < MR; ++r)
#pragma GCC unroll 16
    for (size_t v = 0; v < NV; ++v) hn::StoreU(acc[r][v], d, c + lay.At(r0 + r, n0 + v * lanes));
}

// Rows [r0, +MR) of C across all np columns: tiles of 2 vectors, then one (a: row r0 of A).
template <size_t MR, bool kExact, class D, typename T = hn::TFromD<D>>
HWY_INLINE void RowBand(D d, const T* a, const T* b, T* c, const CLayout& lay, size_t r0,
                        uint32_t k, uint32_t c0) {
  const size_t lanes = hn::Lanes(d);
  size_t n0 = 0;
  for (; n0 + 2 * lanes <= lay.np; n0 += 2 * lanes)
    Tile<MR, 2, kExact>(d, a, b, c, lay, r0, n0, k, c0);
  for (; n0 + lanes <= lay.np; n0 += lanes) Tile<MR, 1, kExact>(d, a, b, c, lay, r0, n0, k, c0);
}

template <bool kExact, typename T>
HWY_INLINE void Rows(const T* a, const T* b, T* c, const CLayout& lay, uint32_t m, uint32_t k,
                     uint32_t c0) {
  // At most 16 lanes, so that they divide np (a multiple of 16) and an L0C block's row.
  const hn::CappedTag<T, 16> d;
  uint32_t r = 0;
  for (; r + 4 <= m; r += 4) RowBand<4, kExact>(d, a + size_t{r} * k, b, c, lay, r, k, c0);
  for (; r < m; ++r) RowBand<1, kExact>(d, a + size_t{r} * k, b, c, lay, r, k, c0);
}

void HalfToFloatLanes(const std::byte* src, uint64_t count, float* dst) {
  const hn::CappedTag<float, 16> df;
  const hn::Rebind<hwy::float16_t, decltype(df)> dh;
  const auto* h = reinterpret_cast<const hwy::float16_t*>(src);
  const size_t lanes = hn::Lanes(df);
  uint64_t i = 0;
  for (; i + lanes <= count; i += lanes)
    hn::StoreU(hn::PromoteTo(df, hn::LoadU(dh, h + i)), df, dst + i);
  for (; i < count; ++i) {
    uint16_t bits;
    std::memcpy(&bits, src + i * 2, 2);
    dst[i] = HalfBitsToFloat(bits);
  }
}

#if HWY_TARGET != HWY_SCALAR && !HWY_HAVE_SCALABLE
// An 8 x 8 block of 16-bit elements transposed in three rounds of interleaves (pairs of 16, 32,
// then 64 bits): dst's row i (dst_ld apart) is src's column i (rows src_ld apart).
HWY_INLINE void Transpose8(const uint16_t* src, size_t src_ld, uint16_t* dst, size_t dst_ld) {
  const hn::Full128<uint16_t> d16;
  const hn::Repartition<uint32_t, decltype(d16)> d32;
  const hn::Repartition<uint64_t, decltype(d16)> d64;
  hn::Vec<decltype(d16)> r[8];
  hn::Vec<decltype(d32)> t[8], u[8];
#pragma GCC unroll 8
  for (size_t i = 0; i < 8; ++i) r[i] = hn::LoadU(d16, src + i * src_ld);
#pragma GCC unroll 4
  for (size_t i = 0; i < 8; i += 2) {  // t[i]: columns 0-3 of rows i, i + 1; t[i + 1]: 4-7
    t[i] = hn::BitCast(d32, hn::InterleaveLower(d16, r[i], r[i + 1]));
    t[i + 1] = hn::BitCast(d32, hn::InterleaveUpper(d16, r[i], r[i + 1]));
  }
#pragma GCC unroll 2
  for (size_t h = 0; h < 8; h += 4) {  // u[h + q]: columns 2q, 2q + 1 of rows h to h + 3
#pragma GCC unroll 2
    for (size_t q = 0; q < 2; ++q) {
      u[h + 2 * q] = hn::InterleaveLower(d32, t[h + q], t[h + 2 + q]);
      u[h + 2 * q + 1] = hn::InterleaveUpper(d32, t[h + q], t[h + 2 + q]);
    }
  }
#pragma GCC unroll 4
  for (size_t q = 0; q < 4; ++q) {  // columns 2q and 2q + 1 of all eight rows
    const auto lo = hn::BitCast(d64, u[q]), hi = hn::BitCast(d64, u[4 + q]);
    hn::StoreU(hn::BitCast(d16, hn::InterleaveLower(d64, lo, hi)), d16, dst + 2 * q * dst_ld);
    hn::StoreU(hn::BitCast(d16, hn::InterleaveUpper(d64, lo, hi)), d16, dst + (2 * q + 1) * dst_ld);
  }
}
#endif

void Transpose16Lanes(const uint16_t* src, size_t src_ld, uint16_t* dst, size_t dst_ld) {
#if HWY_TARGET != HWY_SCALAR && !HWY_HAVE_SCALABLE
  for (size_t i = 0; i < 16; i += 8) {
    for (size_t j = 0; j < 16; j += 8)
      Transpose8(src + i * src_ld + j, src_ld, dst + j * dst_ld + i, dst_ld);
  }
#else
  for (size_t i = 0; i < 16; ++i) {
    for (size_t j = 0; j < 16; ++j) dst[i * dst_ld + j] = src[j * src_ld + i];
  }
#endif
}

void HalfFractalToRowsLanes(const std::byte* src, float* dst, size_t dst_ld) {
  alignas(64) uint16_t t[16 * 16];
  Transpose16Lanes(reinterpret_cast<const uint16_t*>(src), 16, t, 16);
  const hn::CappedTag<float, 16> df;
  const hn::Rebind<hwy::float16_t, decltype(df)> dh;
  const size_t lanes = hn::Lanes(df);
  const auto* h = reinterpret_cast<const hwy::float16_t*>(t);
  for (size_t r = 0; r < 16; ++r) {
    for (size_t i = 0; i < 16; i += lanes)
      hn::StoreU(hn::PromoteTo(df, hn::LoadU(dh, h + r * 16 + i)), df, dst + r * dst_ld + i);
  }
}

void RowsF32(const float* a, const float* b, float* c, const CLayout& lay, uint32_t m, uint32_t k,
             uint32_t c0, bool exact_products) {
  if (exact_products) {
    Rows<true>(a, b, c, lay, m, k, c0);
  } else {
    Rows<false>(a, b, c, lay, m, k, c0);
  }
}
void RowsS32(const int32_t* a, const int32_t* b, int32_t* c, const CLayout& lay, uint32_t m,
             uint32_t k, uint32_t c0) {
  Rows<false>(a, b, c, lay, m, k, c0);
}

}  // namespace HWY_NAMESPACE
}  // namespace lngrad::cube::detail
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace lngrad::cube::detail {
HWY_EXPORT(RowsF32);
HWY_EXPORT(RowsS32);
HWY_EXPORT(HalfToFloatLanes);
HWY_EXPORT(Transpose16Lanes);
HWY_EXPORT(HalfFractalToRowsLanes);

void HalfFractalToRows(const std::byte* src, float* dst, size_t dst_ld) {
  HWY_DYNAMIC_DISPATCH(HalfFractalToRowsLanes)(src, dst, dst_ld);
}

void HalfToFloat(const std::byte* src, uint64_t count, float* dst) {
  HWY_DYNAMIC_DISPATCH(HalfToFloatLanes)(src, count, dst);
}

void MmadRowsF32(const float* a, const float* b, float* c, const CLayout& lay, uint32_t m,
                 uint32_t k, uint32_t c0, bool exact_products) {
  HWY_DYNAMIC_DISPATCH(RowsF32)(a, b, c, lay, m, k, c0, exact_products);
}
void MmadRowsS32(const int32_t* a, const int32_t* b, int32_t* c, const CLayout& lay, uint32_t m,
                 uint32_t k, uint32_t c0) {
  HWY_DYNAMIC_DISPATCH(RowsS32)(a, b, c, lay, m, k, c0);
}
}  // namespace lngrad::cube::detail

namespace lngrad::cube {
void Transpose16x16(const uint16_t* src, size_t src_ld, uint16_t* dst, size_t dst_ld) {
  HWY_DYNAMIC_DISPATCH(detail::Transpose16Lanes)(src, src_ld, dst, dst_ld);
}
}  // namespace lngrad::cube
#endif  // HWY_ONCE
