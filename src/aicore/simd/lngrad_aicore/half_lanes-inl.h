// Half <-> float conversion of one vector, bit-exact with HalfBitsToFloat / FloatToHalfBits
// (lngrad/half.h), for the F16C targets (x86 AVX2 and AVX-512). Included once per Highway target
// through instructions-inl.h, by the instruction set (src/aicore/instructions.cpp) and by the
// high-level APIs' row kernels (src/adv/row_kernels.cpp, casts fused into the rows), so both
// convert with the same instructions. LNGRAD_HALF_F16C says whether this target has them;
// without F16C there is nothing here and the callers convert element by element (Highway's
// emulation on those targets truncates).

// Per-target include guard (Highway's toggle idiom): re-included for every target.
#if defined(LNGRAD_AICORE_HALF_LANES_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef LNGRAD_AICORE_HALF_LANES_INL_H_
#undef LNGRAD_AICORE_HALF_LANES_INL_H_
#else
#define LNGRAD_AICORE_HALF_LANES_INL_H_
#endif

#include "hwy/highway.h"
#include "lngrad/half.h"

#undef LNGRAD_HALF_F16C
// _MM_FROUND_NO_EXC selects round to nearest even, independent of MXCSR, and overflow gives
// infinity, as FloatToHalfBits.
#if HWY_ARCH_X86 && HWY_TARGET <= HWY_AVX2 && !defined(HWY_DISABLE_F16C)
#define LNGRAD_HALF_F16C 1
#endif

HWY_BEFORE_NAMESPACE();
namespace lngrad::aicore {
namespace HWY_NAMESPACE {

#ifdef LNGRAD_HALF_F16C
// Lanes(float) halves at src, widened.
HWY_INLINE hwy::HWY_NAMESPACE::Vec<hwy::HWY_NAMESPACE::ScalableTag<float>> LoadHalfAsFloat(
    const Half* src) {
  namespace hn = hwy::HWY_NAMESPACE;
  const hn::ScalableTag<float> df;
  const hn::Rebind<hwy::float16_t, decltype(df)> dh;
  const hn::Rebind<uint16_t, decltype(df)> du16;
  const hn::RebindToUnsigned<decltype(df)> du;
  const auto exp_mask = hn::Set(du, 0x7C00u);
  const auto h16 = hn::LoadU(du16, reinterpret_cast<const uint16_t*>(src));
  auto f = hn::PromoteTo(df, hn::BitCast(dh, h16));
  // vcvtph2ps quiets signalling NaNs; HalfBitsToFloat keeps the payload as it is. Inf and
  // NaN lanes are rebuilt from their bits: sign, all-ones exponent, payload << 13.
  const auto h32 = hn::PromoteTo(du, h16);
  const auto special = (h32 & exp_mask) == exp_mask;
  if (!hn::AllFalse(du, special)) {
    const auto bits = hn::ShiftLeft<16>(h32 & hn::Set(du, 0x8000u)) | hn::Set(du, 0x7F800000u) |
                      hn::ShiftLeft<13>(h32 & hn::Set(du, 0x3FFu));
    f = hn::IfThenElse(hn::RebindMask(df, special), hn::BitCast(df, bits), f);
  }
  return f;
}

// v narrowed (round to nearest even) to Lanes(float) halves at dst.
HWY_INLINE void StoreFloatAsHalf(hwy::HWY_NAMESPACE::Vec<hwy::HWY_NAMESPACE::ScalableTag<float>> v,
                                 Half* dst) {
  namespace hn = hwy::HWY_NAMESPACE;
  const hn::ScalableTag<float> df;
  const hn::Rebind<hwy::float16_t, decltype(df)> dh;
  hn::StoreU(hn::DemoteTo(dh, v), dh, reinterpret_cast<hwy::float16_t*>(dst));
}
#endif  // LNGRAD_HALF_F16C

}  // namespace HWY_NAMESPACE
}  // namespace lngrad::aicore
HWY_AFTER_NAMESPACE();

#endif  // per-target include guard
