// lngrad register API: the engines of the register conversions (the C++ flavour's Cast and
// Truncate), shared by both flavours as engine.h's are. One element converts as the vector
// instruction Cast converts it (lngrad_aicore/vector_cast.h, CastElem): a register kernel and a
// basic-API kernel that cast the same value in the same RoundMode give the same bits.
//
// When the two lane types differ in width, one instruction covers the lanes of the wider type
// (the reference's Cast page): with r = wide bytes / narrow bytes, wide lane i pairs with narrow
// lane r * i + layout (layout 0 ... r - 1, the CastTrait's RegLayout). The mask selects by the
// source's lanes; narrow lanes that no wide lane pairs with, like unselected lanes, get 0
// (kZeroing) or keep their value (kMerging).
#pragma once

#include <cstdint>

#include "lngrad_aicore/vector_cast.h"
#include "lngrad_reg/lane_types.h"
#include "lngrad_reg/engine.h"
#include "lngrad_reg/registers.h"

namespace lngrad::reg {

// How a conversion rounds and saturates.
struct ConvertMode {
  AscendC::RoundMode round;
  bool saturate;  // float destinations: an infinite result becomes the largest finite value
};

// dst lanes of D from src lanes of S.
template <typename D, typename S, MaskMode mode>
void Convert(VecReg<D>& dst, const VecReg<S>& src, const MaskReg& mask, uint32_t layout,
             ConvertMode how) {
  const aicore::detail::CastCtx ctx{how.round, how.saturate, 1.0};
  constexpr bool widen = sizeof(D) > sizeof(S);
  constexpr uint32_t ratio = widen ? sizeof(D) / sizeof(S) : sizeof(S) / sizeof(D);
  constexpr uint32_t pairs = widen ? kLanes<D> : kLanes<S>;  // lanes of the wider type
  // A widening conversion reads one selected lane of each group (layout): every lane counted.
  detail::LaneRead(widen ? nullptr : &mask, src);
  detail::LaneWrite(dst);
  VecReg<D> out;
  if constexpr (mode == MaskMode::kMerging) out = dst;
  for (uint32_t i = 0; i < pairs; ++i) {
    const uint32_t s = widen ? ratio * i + layout : i;
    const uint32_t d = widen ? i : ratio * i + layout;
    if (mask.Lane<S>(s)) {
      out.lane[d] = aicore::detail::CastElem<D, S>(src.lane[s], ctx);
    }
  }
  dst = out;
}

// The fused functions with a conversion, both flavours' engines. ExpSub: dst (float) lane i =
// Op(src0, src1) of the source lanes that pair with it (half sources: lane 2i + layout, each
// converted exactly to float first, as the reference's formula; the mask selects by the
// source's lanes, as Convert's). MulsCast: dst (half) lane 2i + layout = src lane i * value, in
// float, rounded to half as CAST_ROUND (the reference's cast_round_to_f16); the other lanes 0
// (kZeroing) or kept.
template <class Op, MaskMode mode, typename S>
void WideningBinary(VecReg<float>& dst, const VecReg<S>& a, const VecReg<S>& b, const MaskReg& mask,
                    uint32_t layout) {
  detail::LaneRead(nullptr, a, b);  // one lane of each pair (layout): every lane counted
  VecReg<float> wa, wb;
  MaskReg wide;
  constexpr uint32_t ratio = sizeof(float) / sizeof(S);
  for (uint32_t i = 0; i < kLanes<float>; ++i) {
    const uint32_t s = ratio * i + (ratio == 1 ? 0 : layout);
    wa.lane[i] = static_cast<float>(a.lane[s]);
    wb.lane[i] = static_cast<float>(b.lane[s]);
    wide.SetLane<float>(i, mask.Lane<S>(s));
  }
  Binary<Op, mode>(dst, wa, wb, wide);
}
template <MaskMode mode>
void MulsCast(VecReg<half>& dst, const VecReg<float>& src, float value, const MaskReg& mask,
              uint32_t layout) {
  VecReg<float> product;
  WithScalar<ops::Mul, MaskMode::kZeroing>(product, src, value, mask);
  Convert<half, float, mode>(dst, product, mask, layout,
                             ConvertMode{AscendC::RoundMode::CAST_ROUND, false});
}

}  // namespace lngrad::reg

// The C flavour's named conversions (asc_half2int32_rd, asc_float2int16_rna_sat_v2, ...), one
// row per type pair: X(source name, destination name, S, D, rounds, sat, parts). rounds: the
// suffixes the pair has (LNGRAD_REG_RND_PLAIN: none, CAST_NONE; LNGRAD_REG_RND5: _rd _ru _rz _rn
// _rna; LNGRAD_REG_RND5_PLAIN: both; LNGRAD_REG_RND6_PLAIN: and _ro); sat: LNGRAD_REG_SAT0
// (none) or LNGRAD_REG_SAT1 (also the _sat names: a float destination saturates); parts:
// LNGRAD_REG_PARTS1/2/4, the layouts of the width ratio (no suffix: RegLayout ZERO, the even
// lanes; _v2: ONE; _v3, _v4: TWO, THREE). The front (c_api/reg_compute/reg_convert.h) expands
// each row into its functions on Convert.
#define LNGRAD_REG_CAST_TABLE(X)                                                                  \
  X(bfloat16, float, bfloat16_t, float, LNGRAD_REG_RND_PLAIN, LNGRAD_REG_SAT0, LNGRAD_REG_PARTS2) \
  X(bfloat16, half, bfloat16_t, half, LNGRAD_REG_RND5, LNGRAD_REG_SAT1, LNGRAD_REG_PARTS1)        \
  X(bfloat16, int32, bfloat16_t, int32_t, LNGRAD_REG_RND5, LNGRAD_REG_SAT1, LNGRAD_REG_PARTS2)    \
  X(float, bfloat16, float, bfloat16_t, LNGRAD_REG_RND5, LNGRAD_REG_SAT1, LNGRAD_REG_PARTS2)      \
  X(float, half, float, half, LNGRAD_REG_RND6_PLAIN, LNGRAD_REG_SAT1, LNGRAD_REG_PARTS2)          \
  X(float, int16, float, int16_t, LNGRAD_REG_RND5, LNGRAD_REG_SAT1, LNGRAD_REG_PARTS2)            \
  X(float, int32, float, int32_t, LNGRAD_REG_RND5, LNGRAD_REG_SAT1, LNGRAD_REG_PARTS1)            \
  X(float, int64, float, int64_t, LNGRAD_REG_RND5, LNGRAD_REG_SAT1, LNGRAD_REG_PARTS2)            \
  X(half, bfloat16, half, bfloat16_t, LNGRAD_REG_RND5, LNGRAD_REG_SAT0, LNGRAD_REG_PARTS1)        \
  X(half, float, half, float, LNGRAD_REG_RND_PLAIN, LNGRAD_REG_SAT0, LNGRAD_REG_PARTS2)           \
  X(half, int16, half, int16_t, LNGRAD_REG_RND5, LNGRAD_REG_SAT1, LNGRAD_REG_PARTS1)              \
  X(half, int32, half, int32_t, LNGRAD_REG_RND5, LNGRAD_REG_SAT0, LNGRAD_REG_PARTS2)              \
  X(half, int8, half, int8_t, LNGRAD_REG_RND5_PLAIN, LNGRAD_REG_SAT1, LNGRAD_REG_PARTS2)          \
  X(half, uint8, half, uint8_t, LNGRAD_REG_RND5, LNGRAD_REG_SAT1, LNGRAD_REG_PARTS2)              \
  X(int16, float, int16_t, float, LNGRAD_REG_RND_PLAIN, LNGRAD_REG_SAT0, LNGRAD_REG_PARTS2)       \
  X(int16, half, int16_t, half, LNGRAD_REG_RND5, LNGRAD_REG_SAT0, LNGRAD_REG_PARTS1)              \
  X(int16, int32, int16_t, int32_t, LNGRAD_REG_RND_PLAIN, LNGRAD_REG_SAT0, LNGRAD_REG_PARTS2)     \
  X(int16, uint32, int16_t, uint32_t, LNGRAD_REG_RND_PLAIN, LNGRAD_REG_SAT0, LNGRAD_REG_PARTS2)   \
  X(int16, uint8, int16_t, uint8_t, LNGRAD_REG_RND_PLAIN, LNGRAD_REG_SAT1, LNGRAD_REG_PARTS2)     \
  X(int32, float, int32_t, float, LNGRAD_REG_RND5_PLAIN, LNGRAD_REG_SAT0, LNGRAD_REG_PARTS1)      \
  X(int32, int16, int32_t, int16_t, LNGRAD_REG_RND_PLAIN, LNGRAD_REG_SAT1, LNGRAD_REG_PARTS2)     \
  X(int32, int64, int32_t, int64_t, LNGRAD_REG_RND_PLAIN, LNGRAD_REG_SAT0, LNGRAD_REG_PARTS2)     \
  X(int32, uint16, int32_t, uint16_t, LNGRAD_REG_RND_PLAIN, LNGRAD_REG_SAT1, LNGRAD_REG_PARTS2)   \
  X(int32, uint8, int32_t, uint8_t, LNGRAD_REG_RND_PLAIN, LNGRAD_REG_SAT1, LNGRAD_REG_PARTS4)     \
  X(int64, float, int64_t, float, LNGRAD_REG_RND5, LNGRAD_REG_SAT0, LNGRAD_REG_PARTS2)            \
  X(int64, int32, int64_t, int32_t, LNGRAD_REG_RND_PLAIN, LNGRAD_REG_SAT1, LNGRAD_REG_PARTS2)     \
  X(int8, half, int8_t, half, LNGRAD_REG_RND_PLAIN, LNGRAD_REG_SAT0, LNGRAD_REG_PARTS2)           \
  X(int8, int16, int8_t, int16_t, LNGRAD_REG_RND_PLAIN, LNGRAD_REG_SAT0, LNGRAD_REG_PARTS2)       \
  X(int8, int32, int8_t, int32_t, LNGRAD_REG_RND_PLAIN, LNGRAD_REG_SAT0, LNGRAD_REG_PARTS4)       \
  X(uint16, uint32, uint16_t, uint32_t, LNGRAD_REG_RND_PLAIN, LNGRAD_REG_SAT0, LNGRAD_REG_PARTS2) \
  X(uint16, uint8, uint16_t, uint8_t, LNGRAD_REG_RND_PLAIN, LNGRAD_REG_SAT1, LNGRAD_REG_PARTS2)   \
  X(uint32, int16, uint32_t, int16_t, LNGRAD_REG_RND_PLAIN, LNGRAD_REG_SAT1, LNGRAD_REG_PARTS2)   \
  X(uint32, uint16, uint32_t, uint16_t, LNGRAD_REG_RND_PLAIN, LNGRAD_REG_SAT1, LNGRAD_REG_PARTS2) \
  X(uint32, uint8, uint32_t, uint8_t, LNGRAD_REG_RND_PLAIN, LNGRAD_REG_SAT1, LNGRAD_REG_PARTS4)   \
  X(uint8, half, uint8_t, half, LNGRAD_REG_RND_PLAIN, LNGRAD_REG_SAT0, LNGRAD_REG_PARTS2)         \
  X(uint8, uint16, uint8_t, uint16_t, LNGRAD_REG_RND_PLAIN, LNGRAD_REG_SAT0, LNGRAD_REG_PARTS2)   \
  X(uint8, uint32, uint8_t, uint32_t, LNGRAD_REG_RND_PLAIN, LNGRAD_REG_SAT0, LNGRAD_REG_PARTS4)
// The suffix sets of a row: Y(suffix, RoundMode, row arguments...).
#define LNGRAD_REG_RND_PLAIN(Y, ...) Y(, CAST_NONE, __VA_ARGS__)
#define LNGRAD_REG_RND5(Y, ...)   \
  Y(_rd, CAST_FLOOR, __VA_ARGS__) \
  Y(_ru, CAST_CEIL, __VA_ARGS__)  \
  Y(_rz, CAST_TRUNC, __VA_ARGS__) Y(_rn, CAST_RINT, __VA_ARGS__) Y(_rna, CAST_ROUND, __VA_ARGS__)
#define LNGRAD_REG_RND5_PLAIN(Y, ...) \
  LNGRAD_REG_RND_PLAIN(Y, __VA_ARGS__) LNGRAD_REG_RND5(Y, __VA_ARGS__)
#define LNGRAD_REG_RND6_PLAIN(Y, ...) \
  LNGRAD_REG_RND5_PLAIN(Y, __VA_ARGS__) Y(_ro, CAST_ODD, __VA_ARGS__)
// W(name, saturate, rest...) for the plain name and, with SAT1, its _sat name.
#define LNGRAD_REG_SAT0(W, name, ...) W(name, false, __VA_ARGS__)
#define LNGRAD_REG_SAT1(W, name, ...) W(name, false, __VA_ARGS__) W(name##_sat, true, __VA_ARGS__)
// Z(name, layout, rest...) per layout of the width ratio.
#define LNGRAD_REG_PARTS1(Z, name, ...) Z(name, 0, __VA_ARGS__)
#define LNGRAD_REG_PARTS2(Z, name, ...) Z(name, 0, __VA_ARGS__) Z(name##_v2, 1, __VA_ARGS__)
#define LNGRAD_REG_PARTS4(Z, name, ...) \
  LNGRAD_REG_PARTS2(Z, name, __VA_ARGS__) Z(name##_v3, 2, __VA_ARGS__) Z(name##_v4, 3, __VA_ARGS__)
