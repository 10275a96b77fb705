// lngrad_replay, the scratch of the inverse trigonometric and hyperbolic math APIs on arch
// 2201/2002: what Atan, Asin, Acos, Acosh, Asinh and Atanh
// (impl/adv_api/detail/math/<api>/<api>_common_impl.h, one file for both arches) leave in
// sharedTmpBuffer (or the stack buffer), written from those sources with no code shared with
// include/ or src/ (replay_math_scratch_inverse.cpp says what was read).
//
// As replay_math_scratch.h: the scratch cut into the temp tensors the source places, the count
// in rounds of the chunk then a tail (counter mode: an instruction touches exactly the round's
// elements), every instruction applied over the round's elements in the source's order on the
// scratch's bytes; bytes no instruction stores to are left as they are. dst gets the results
// (half: CAST_NONE, to nearest even). They return false where the kit's code would assert (a
// chunk of 0).
#pragma once

#include <cstdint>

#include "replay.h"

namespace lngrad_replay {

// Atan (AtanImpl, AtanCompute, AtanFormulaImpl, TaylorExpand, AtanTransform, Sign): calSize =
// tmpBytes / 4 / (5 float, 6 half) down to 32; float tensors tmp, clip, abs, tmp2, square at
// k * calSize, half the conversion tensor sixth.
bool ReplayAtanScratch(const float* src, float* dst, uint32_t n, uint8_t* scratch,
                       uint32_t tmpBytes);
bool ReplayAtanScratch(const Half* src, Half* dst, uint32_t n, uint8_t* scratch, uint32_t tmpBytes);

// Asin (AsinImpl, AsinCompute, AsinFp16Compute, AsinTaylorCompute,
// AsinTaylorComputeBySquareValue, GetSign) and Acos (AcosImpl, AcosCompute): calSize = tmpBytes /
// sizeof(T) / (4 float, 6 half) down to 32; float: two float tensors at 0 and calSize; half: two
// float tensors at 0 and calSize floats, two half tensors at 4 calSize and 5 calSize halves.
bool ReplayAsinScratch(const float* src, float* dst, uint32_t n, uint8_t* scratch,
                       uint32_t tmpBytes);
bool ReplayAsinScratch(const Half* src, Half* dst, uint32_t n, uint8_t* scratch, uint32_t tmpBytes);
bool ReplayAcosScratch(const float* src, float* dst, uint32_t n, uint8_t* scratch,
                       uint32_t tmpBytes);
bool ReplayAcosScratch(const Half* src, Half* dst, uint32_t n, uint8_t* scratch, uint32_t tmpBytes);

// Acosh (AcoshImpl, AcoshCompute): splitCount = tmpBytes / 4 / (1 float, 2 half) down to 32;
// one float tensor (half: two, the second at the round's length, the tail's rounded up to 32).
bool ReplayAcoshScratch(const float* src, float* dst, uint32_t n, uint8_t* scratch,
                        uint32_t tmpBytes);
bool ReplayAcoshScratch(const Half* src, Half* dst, uint32_t n, uint8_t* scratch,
                        uint32_t tmpBytes);

// Asinh (AsinhImpl, AsinhCompute, AsinhGetSign): splitCount = tmpBytes / 4 / 3 down to 32; three
// float tensors at 0, L and 2 L, L the round's length (the tail's rounded up to 32).
bool ReplayAsinhScratch(const float* src, float* dst, uint32_t n, uint8_t* scratch,
                        uint32_t tmpBytes);
bool ReplayAsinhScratch(const Half* src, Half* dst, uint32_t n, uint8_t* scratch,
                        uint32_t tmpBytes);

// Atanh (AtanhImpl, AtanhCompute): splitCount = tmpBytes / sizeof(T) / (1 float, 4 half) down to
// 32; float one tensor, half two (the second at L, as Asinh's).
bool ReplayAtanhScratch(const float* src, float* dst, uint32_t n, uint8_t* scratch,
                        uint32_t tmpBytes);
bool ReplayAtanhScratch(const Half* src, Half* dst, uint32_t n, uint8_t* scratch,
                        uint32_t tmpBytes);

}  // namespace lngrad_replay
