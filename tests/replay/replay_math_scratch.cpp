// The math family's scratch on arch 2201/2002 (replay_math_scratch.h). Provenance: written by
// helper mth1 (session 17) from the toolkit's sources at commit 82b89a15f, read for this file:
// tanh_common_impl.h (TanhImpl, TanhFormulasTmpCalc, TanhCompute, TanhFormulaImpl),
// log_common_impl.h (Log2Impl, Log2Compute) and exp_common_impl.h (ExpImpl, UpdateExpParams,
// GetExpTensorInfo, ExpND, GetExpInputInTmp, GetExpFloorInput with its 2201 and 2002 branches,
// ExpHighPrecisionExec, GetExpCastedResult; this replay written before lngrad's Exp scratch)
// and erf_common_impl.h (ErfImpl, ErfCompute for float and half, ErfClip, ErfComputeP,
// ErfComputeQ, GetErfCastType; written before lngrad's Erf scratch) and erfc_common_impl.h
// (ErfcImpl, ErfcCompute for float and half, ErfcClip, ErfcPreCompute, ErfcPublicSteps,
// ErfcComputeR, ErfcComputeS, ErfcPostCompute; written before lngrad's Erfc scratch) and
// sinh_common_impl.h (SinhImpl, SinhCompute for float and half; before lngrad's Sinh scratch)
// and cosh_common_impl.h, cosh_v220_impl.h, cosh_v200_impl.h (CoshImpl, CoshCompute, CoshCast;
// before lngrad's Cosh scratch). A
// separate reading by the same helper who changed lngrad's scratch (include/ascendc/adv/lib/math/):
// for Tanh and Log2 lngrad's change was written first, from the same reading of those sources, and
// this replay after it, from the sources again; lngrad's per-element steps of these APIs had been
// read before. Each instruction is one binary32 operation per element (replay_math_ops.h's choices:
// Exp and Ln in double rounded once, Mins/Maxs give the scalar for a NaN element); counter mode: an
// instruction touches exactly the round's elements.
#include "replay_math_scratch.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "replay_math.h"
#include "replay_math_ops.h"

namespace lngrad_replay {
namespace {

using math_ops::ExpF;
using math_ops::LnF;
using math_ops::Maxs;
using math_ops::Mins;

// A float temp tensor inside the scratch: `base` words from its start.
class Temp {
 public:
  Temp(uint8_t* scratch, uint32_t base) : p_(scratch + 4 * static_cast<size_t>(base)) {}
  float Get(uint32_t j) const {
    float v;
    std::memcpy(&v, p_ + 4 * static_cast<size_t>(j), 4);
    return v;
  }
  void Set(uint32_t j, float v) const { std::memcpy(p_ + 4 * static_cast<size_t>(j), &v, 4); }

 private:
  uint8_t* p_;
};

// The kit's round loop: rounds of `chunk` elements, then the tail; body(offset, len).
template <class Body>
void Rounds(uint32_t n, uint32_t chunk, Body body) {
  const uint32_t rounds = n / chunk, tail = n % chunk;
  uint32_t offset = 0;
  for (uint32_t r = 0; r < rounds; ++r, offset += chunk) body(offset, chunk);
  if (tail != 0) body(offset, tail);
}

// TanhFormulaImpl on `len` elements: dst and src are float tensors (the half path passes its
// conversion tensor as both), clip the clip tensor.
void TanhFormula(const Temp& dst, const Temp& src, const Temp& clip, uint32_t len) {
  for (uint32_t j = 0; j < len; ++j) clip.Set(j, Mins(src.Get(j), 8.8f));
  for (uint32_t j = 0; j < len; ++j) clip.Set(j, Maxs(clip.Get(j), -8.8f));
  for (uint32_t j = 0; j < len; ++j) clip.Set(j, clip.Get(j) * 2.0f);
  for (uint32_t j = 0; j < len; ++j) clip.Set(j, ExpF(clip.Get(j)));
  for (uint32_t j = 0; j < len; ++j) dst.Set(j, clip.Get(j) + -1.0f);
  for (uint32_t j = 0; j < len; ++j) clip.Set(j, clip.Get(j) + 1.0f);
  for (uint32_t j = 0; j < len; ++j) dst.Set(j, dst.Get(j) / clip.Get(j));
}

// The float to int32 Cast CAST_FLOOR (saturating; NaN gives 0, the convention of the basic
// instruction's replay here), then int32 to float CAST_NONE (to nearest even).
float FloorThroughInt32(float x) {
  if (std::isnan(x)) return 0.0f;
  const double f = std::floor(static_cast<double>(x));
  const double c = std::clamp(f, -2147483648.0, 2147483647.0);
  return static_cast<float>(static_cast<int32_t>(c));
}

// The temp tensors of one Exp call and the round body (GetExpFloorInput, ExpHighPrecisionExec).
struct ExpTemps {
  Temp floorX, pow, res, intPart;
  uint32_t level;
  bool arch2002;
  void Round(uint32_t len) const {
    for (uint32_t j = 0; j < len; ++j) {
      const float x = floorX.Get(j);
      intPart.Set(j, arch2002 ? FloorThroughInt32(x) : std::floor(x));
    }
    for (uint32_t j = 0; j < len; ++j) floorX.Set(j, floorX.Get(j) - intPart.Get(j));
    for (uint32_t j = 0; j < len; ++j) intPart.Set(j, ExpF(intPart.Get(j)));
    for (uint32_t j = 0; j < len; ++j) pow.Set(j, floorX.Get(j) + 0.0f);
    for (uint32_t j = 0; j < len; ++j) res.Set(j, floorX.Get(j) + 0.0f);
    for (uint32_t j = 0; j < len; ++j) res.Set(j, res.Get(j) + 1.0f);
    for (uint32_t i = 2; i < level + 1; ++i) {
      const float c = 1.0f / static_cast<float>(i);
      for (uint32_t j = 0; j < len; ++j) pow.Set(j, floorX.Get(j) * pow.Get(j));
      for (uint32_t j = 0; j < len; ++j) pow.Set(j, pow.Get(j) * c);
      for (uint32_t j = 0; j < len; ++j) res.Set(j, res.Get(j) + pow.Get(j));
    }
    for (uint32_t j = 0; j < len; ++j) res.Set(j, res.Get(j) * intPart.Get(j));
  }
};

uint8_t* Bytes(float* p) { return reinterpret_cast<uint8_t*>(p); }

// ErfClip, ErfComputeP and ErfComputeQ on `len` elements: x the clipped input's tensor (the
// float path's dst, the half path's fourth temp), t1..t3 the temps; afterwards t2 = P, t3 = Q,
// x = ErfComputeQ's last product, t1 = x * x (the clip's Mins went there first).
void ErfClipPQ(const Temp& x, const Temp& in, const Temp& t1, const Temp& t2, const Temp& t3,
               uint32_t len) {
  const float p[] = {0.29639384698e5f, 0.50637915060e4f, 0.13938061484e4f,
                     0.10162808918e3f, 0.75517016694e1f, 0.053443748819f};
  const float q[] = {0.26267224157e5f, 0.13243365831e5f, 0.30231248150e4f, 0.39856963806e3f,
                     0.31212858877e2f};
  for (uint32_t j = 0; j < len; ++j) t1.Set(j, Mins(in.Get(j), 3.92f));
  for (uint32_t j = 0; j < len; ++j) x.Set(j, Maxs(t1.Get(j), -3.92f));
  for (uint32_t j = 0; j < len; ++j) t1.Set(j, x.Get(j) * x.Get(j));
  for (uint32_t j = 0; j < len; ++j) t2.Set(j, t1.Get(j) * p[5]);
  for (uint32_t j = 0; j < len; ++j) t3.Set(j, t2.Get(j) + p[4]);
  for (int k = 3; k >= 0; --k) {
    for (uint32_t j = 0; j < len; ++j) t2.Set(j, t1.Get(j) * t3.Get(j));
    for (uint32_t j = 0; j < len; ++j) t3.Set(j, t2.Get(j) + p[k]);
  }
  for (uint32_t j = 0; j < len; ++j) t2.Set(j, x.Get(j) * t3.Get(j));
  for (uint32_t j = 0; j < len; ++j) t3.Set(j, t1.Get(j) + q[4]);
  for (int k = 3; k >= 0; --k) {
    for (uint32_t j = 0; j < len; ++j) x.Set(j, t1.Get(j) * t3.Get(j));
    for (uint32_t j = 0; j < len; ++j) t3.Set(j, x.Get(j) + q[k]);
  }
}

}  // namespace

// numberOfTmpBuf 3 (float), 2 (float, reuse); oneTmpSize = words / that, down to 8 floats;
// FloorX at 0 (reuse: src), FloorXPow at `second` (0 with reuse, else one), IntPart after it;
// Res is dst at the round's offset.
bool ReplayExpScratch(uint32_t level, bool reuse, bool arch2002, float* src, float* dst, uint32_t n,
                      uint8_t* scratch, uint32_t tmpBytes) {
  const uint32_t one = tmpBytes / 4 / (reuse ? 2 : 3) / 8 * 8;
  if (one == 0) return false;
  const uint32_t second = reuse ? 0 : one;
  const Temp floorX = reuse ? Temp(Bytes(src), 0) : Temp(scratch, 0);
  Rounds(n, one, [&](uint32_t off, uint32_t len) {
    for (uint32_t j = 0; j < len; ++j) floorX.Set(j, src[off + j] + 0.0f);
    const ExpTemps t{floorX,
                     Temp(scratch, second),
                     Temp(Bytes(dst + off), 0),
                     Temp(scratch, second + one),
                     level,
                     arch2002};
    t.Round(len);
  });
  return true;
}

// Half: four tensors of oneTmpSize (words / 4, down to 16): FloorX 0, FloorXPow one, Res 2 one,
// IntPart 3 one; the widened source in FloorX, Res cast to dst.
bool ReplayExpScratch(uint32_t level, bool arch2002, const Half* src, Half* dst, uint32_t n,
                      uint8_t* scratch, uint32_t tmpBytes) {
  const uint32_t one = tmpBytes / 4 / 4 / 16 * 16;
  if (one == 0) return false;
  const ExpTemps t{
      Temp(scratch, 0), Temp(scratch, one), Temp(scratch, 2 * one), Temp(scratch, 3 * one), level,
      arch2002};
  Rounds(n, one, [&](uint32_t off, uint32_t len) {
    for (uint32_t j = 0; j < len; ++j) t.floorX.Set(j, HalfToFloat(src[off + j]));
    t.Round(len);
    for (uint32_t j = 0; j < len; ++j) dst[off + j] = FloatToHalf(t.res.Get(j));
  });
  return true;
}

// ErfcPreCompute, ErfcPublicSteps and ErfcPostCompute on `len` elements: x holds the clipped
// input (the float path's dst, the half path's sixth temp) and ends as the sign s; out gets
// the result (dst, or the half path's first temp); t[0..4] the five temps.
void ErfcSteps(const Temp& out, const Temp& x, const Temp* t, uint32_t len) {
  const float r[] = {0.1735313680e-7f,  -0.9856738394e-6f, 0.2517003236e-4f,
                     -0.3848015171e-3f, 0.5681528564e0f,   0.5245623129e1f,
                     0.2107740710e2f,   0.4212761755e2f,   0.4380524149e2f};
  const float sc[] = {0.9349684299e1f, 0.3756930664e2f, 0.8058268949e2f, 0.9155653738e2f,
                      0.4380524152e2f};
  const Temp &t1 = t[0], &t2 = t[1], &t3 = t[2], &t4 = t[3], &t5 = t[4];
  for (uint32_t j = 0; j < len; ++j) t1.Set(j, std::fabs(x.Get(j)));
  for (uint32_t j = 0; j < len; ++j) t1.Set(j, t1.Get(j) + 2.168404344971009e-19f);
  for (uint32_t j = 0; j < len; ++j) x.Set(j, x.Get(j) / t1.Get(j));
  for (uint32_t j = 0; j < len; ++j) t2.Set(j, Mins(t1.Get(j), 10.0f));
  for (uint32_t j = 0; j < len; ++j) t3.Set(j, t1.Get(j) * r[0]);
  for (uint32_t j = 0; j < len; ++j) t4.Set(j, t3.Get(j) + r[1]);
  for (int k = 2; k <= 8; ++k) {
    for (uint32_t j = 0; j < len; ++j) t3.Set(j, t1.Get(j) * t4.Get(j));
    for (uint32_t j = 0; j < len; ++j) t4.Set(j, t3.Get(j) + r[k]);
  }
  for (uint32_t j = 0; j < len; ++j) t3.Set(j, t1.Get(j) + sc[0]);
  for (int k = 1; k <= 4; ++k) {
    for (uint32_t j = 0; j < len; ++j) t5.Set(j, t1.Get(j) * t3.Get(j));
    for (uint32_t j = 0; j < len; ++j) t3.Set(j, t5.Get(j) + sc[k]);
  }
  for (uint32_t j = 0; j < len; ++j) t3.Set(j, t4.Get(j) / t3.Get(j));
  for (uint32_t j = 0; j < len; ++j) t1.Set(j, t1.Get(j) * t1.Get(j));
  for (uint32_t j = 0; j < len; ++j) t1.Set(j, t1.Get(j) * -1.0f);
  for (uint32_t j = 0; j < len; ++j) t1.Set(j, ExpF(t1.Get(j)));
  for (uint32_t j = 0; j < len; ++j) t3.Set(j, t1.Get(j) * t3.Get(j));
  for (uint32_t j = 0; j < len; ++j) t2.Set(j, x.Get(j) * -1.0f);
  for (uint32_t j = 0; j < len; ++j) t2.Set(j, t2.Get(j) + 1.0f);
  for (uint32_t j = 0; j < len; ++j) t3.Set(j, t3.Get(j) * x.Get(j));
  for (uint32_t j = 0; j < len; ++j) out.Set(j, t3.Get(j) + t2.Get(j));
}

bool ReplayErfcScratch(const float* src, float* dst, uint32_t n, uint8_t* scratch,
                       uint32_t tmpBytes) {
  const uint32_t cal = tmpBytes / 4 / 5 / 32 * 32;
  if (cal == 0) return false;
  const Temp t[] = {Temp(scratch, 0), Temp(scratch, cal), Temp(scratch, 2 * cal),
                    Temp(scratch, 3 * cal), Temp(scratch, 4 * cal)};
  Rounds(n, cal, [&](uint32_t off, uint32_t len) {
    const Temp d(Bytes(dst + off), 0);
    for (uint32_t j = 0; j < len; ++j) d.Set(j, Mins(src[off + j], 10.0f));
    for (uint32_t j = 0; j < len; ++j) d.Set(j, Maxs(d.Get(j), -10.0f));
    ErfcSteps(d, d, t, len);
  });
  return true;
}

bool ReplayErfcScratch(const Half* src, Half* dst, uint32_t n, uint8_t* scratch, uint32_t tmpBytes,
                       bool castRound) {
  const uint32_t cal = tmpBytes / 2 / 12 / 32 * 32;
  if (cal == 0) return false;
  const Temp t[] = {Temp(scratch, 0), Temp(scratch, cal), Temp(scratch, 2 * cal),
                    Temp(scratch, 3 * cal), Temp(scratch, 4 * cal)};
  const Temp t6(scratch, 5 * cal);
  Rounds(n, cal, [&](uint32_t off, uint32_t len) {
    for (uint32_t j = 0; j < len; ++j) t6.Set(j, HalfToFloat(src[off + j]));
    for (uint32_t j = 0; j < len; ++j) t[0].Set(j, Mins(t6.Get(j), 10.0f));
    for (uint32_t j = 0; j < len; ++j) t6.Set(j, Maxs(t[0].Get(j), -10.0f));
    ErfcSteps(t[0], t6, t, len);
    for (uint32_t j = 0; j < len; ++j) {
      dst[off + j] = castRound ? DoubleToHalf(t[0].Get(j), true) : FloatToHalf(t[0].Get(j));
    }
  });
  return true;
}

// SINH_NEG_LN_TWO (and Cosh's SCALAR_LN2, the same digits): the double constant's float.
constexpr float kSinhNegLn2 = static_cast<float>(-0.69314718055994530941723212145818);

bool ReplaySinhScratch(const float* src, float* dst, uint32_t n, uint8_t* scratch,
                       uint32_t tmpBytes) {
  const uint32_t split = tmpBytes / 4 / 1 / 32 * 32;
  if (split == 0) return false;
  const Temp t1(scratch, 0);
  Rounds(n, split, [&](uint32_t off, uint32_t len) {
    const float* x = src + off;
    float* d = dst + off;
    for (uint32_t j = 0; j < len; ++j) t1.Set(j, x[j] * -1.0f);
    for (uint32_t j = 0; j < len; ++j) t1.Set(j, t1.Get(j) + kSinhNegLn2);
    for (uint32_t j = 0; j < len; ++j) t1.Set(j, ExpF(t1.Get(j)));
    for (uint32_t j = 0; j < len; ++j) d[j] = x[j] + kSinhNegLn2;
    for (uint32_t j = 0; j < len; ++j) d[j] = ExpF(d[j]);
    for (uint32_t j = 0; j < len; ++j) d[j] = d[j] - t1.Get(j);
  });
  return true;
}

bool ReplaySinhScratch(const Half* src, Half* dst, uint32_t n, uint8_t* scratch,
                       uint32_t tmpBytes) {
  const uint32_t split = tmpBytes / 2 / 4 / 32 * 32;
  if (split == 0) return false;
  const Temp t1(scratch, 0), t2(scratch, split);
  Rounds(n, split, [&](uint32_t off, uint32_t len) {
    for (uint32_t j = 0; j < len; ++j) t1.Set(j, HalfToFloat(src[off + j]));
    for (uint32_t j = 0; j < len; ++j) t2.Set(j, t1.Get(j) + kSinhNegLn2);
    for (uint32_t j = 0; j < len; ++j) t2.Set(j, ExpF(t2.Get(j)));
    for (uint32_t j = 0; j < len; ++j) t1.Set(j, t1.Get(j) * -1.0f);
    for (uint32_t j = 0; j < len; ++j) t1.Set(j, t1.Get(j) + kSinhNegLn2);
    for (uint32_t j = 0; j < len; ++j) t1.Set(j, ExpF(t1.Get(j)));
    for (uint32_t j = 0; j < len; ++j) t2.Set(j, t2.Get(j) - t1.Get(j));
    for (uint32_t j = 0; j < len; ++j) dst[off + j] = FloatToHalf(t2.Get(j));
  });
  return true;
}

bool ReplayCoshScratch(const float* src, float* dst, uint32_t n, uint8_t* scratch,
                       uint32_t tmpBytes) {
  const uint32_t cal = tmpBytes / 4 / 2 / 32 * 32;
  if (cal == 0) return false;
  const Temp t1(scratch, 0), t2(scratch, cal);
  Rounds(n, cal, [&](uint32_t off, uint32_t len) {
    float* d = dst + off;
    for (uint32_t j = 0; j < len; ++j) t2.Set(j, src[off + j] + kSinhNegLn2);
    for (uint32_t j = 0; j < len; ++j) t1.Set(j, ExpF(t2.Get(j)));
    for (uint32_t j = 0; j < len; ++j) d[j] = 0.25f;
    for (uint32_t j = 0; j < len; ++j) t2.Set(j, d[j] / t1.Get(j));
    for (uint32_t j = 0; j < len; ++j) d[j] = t1.Get(j) + t2.Get(j);
  });
  return true;
}

bool ReplayCoshScratch(const Half* src, Half* dst, uint32_t n, uint8_t* scratch, uint32_t tmpBytes,
                       bool castRound) {
  const uint32_t cal = tmpBytes / 2 / 6 / 32 * 32;
  if (cal == 0) return false;
  const Temp t1(scratch, 0), t2(scratch, cal), t3(scratch, 2 * cal);
  Rounds(n, cal, [&](uint32_t off, uint32_t len) {
    for (uint32_t j = 0; j < len; ++j) t3.Set(j, HalfToFloat(src[off + j]));
    for (uint32_t j = 0; j < len; ++j) t2.Set(j, t3.Get(j) + kSinhNegLn2);
    for (uint32_t j = 0; j < len; ++j) t1.Set(j, ExpF(t2.Get(j)));
    for (uint32_t j = 0; j < len; ++j) t3.Set(j, 0.25f);
    for (uint32_t j = 0; j < len; ++j) t2.Set(j, t3.Get(j) / t1.Get(j));
    for (uint32_t j = 0; j < len; ++j) t3.Set(j, t1.Get(j) + t2.Get(j));
    for (uint32_t j = 0; j < len; ++j) {
      dst[off + j] = castRound ? DoubleToHalf(t3.Get(j), true) : FloatToHalf(t3.Get(j));
    }
  });
  return true;
}

bool ReplayErfScratch(const float* src, float* dst, uint32_t n, uint8_t* scratch,
                      uint32_t tmpBytes) {
  const uint32_t cal = tmpBytes / 4 / 3 / 32 * 32;
  if (cal == 0) return false;
  const Temp t1(scratch, 0), t2(scratch, cal), t3(scratch, 2 * cal);
  Rounds(n, cal, [&](uint32_t off, uint32_t len) {
    const Temp d(Bytes(dst + off), 0);
    const Temp s(Bytes(const_cast<float*>(src + off)), 0);
    ErfClipPQ(d, s, t1, t2, t3, len);
    for (uint32_t j = 0; j < len; ++j) d.Set(j, t2.Get(j) / t3.Get(j));
  });
  return true;
}

bool ReplayErfScratch(const Half* src, Half* dst, uint32_t n, uint8_t* scratch, uint32_t tmpBytes,
                      bool castRound) {
  const uint32_t cal = tmpBytes / 2 / 8 / 32 * 32;
  if (cal == 0) return false;
  const Temp t1(scratch, 0), t2(scratch, cal), t3(scratch, 2 * cal), t4(scratch, 3 * cal);
  Rounds(n, cal, [&](uint32_t off, uint32_t len) {
    for (uint32_t j = 0; j < len; ++j) t4.Set(j, HalfToFloat(src[off + j]));
    ErfClipPQ(t4, t4, t1, t2, t3, len);
    for (uint32_t j = 0; j < len; ++j) t1.Set(j, t2.Get(j) / t3.Get(j));
    for (uint32_t j = 0; j < len; ++j) {
      dst[off + j] = castRound ? DoubleToHalf(t1.Get(j), true) : FloatToHalf(t1.Get(j));
    }
  });
  return true;
}

// stackSize = (tmpBytes / 4) / procedures (1 float, 2 half), down to a multiple of 32 floats;
// half: tempTensorConv at 0, tmpClip at stackSize; float: tmpClip at 0.
bool ReplayTanhScratch(const float* src, float* dst, uint32_t n, uint8_t* scratch,
                       uint32_t tmpBytes) {
  const uint32_t stack = tmpBytes / 4 / 1 / 32 * 32;
  if (stack == 0) return false;
  const Temp clip(scratch, 0);
  Rounds(n, stack, [&](uint32_t off, uint32_t len) {
    // dst and src as float tensors over plain arrays: copy through a Temp-shaped view.
    const Temp d(reinterpret_cast<uint8_t*>(dst + off), 0);
    const Temp s(reinterpret_cast<uint8_t*>(const_cast<float*>(src + off)), 0);
    TanhFormula(d, s, clip, len);
  });
  return true;
}

bool ReplayTanhScratch(const Half* src, Half* dst, uint32_t n, uint8_t* scratch,
                       uint32_t tmpBytes) {
  const uint32_t stack = tmpBytes / 4 / 2 / 32 * 32;
  if (stack == 0) return false;
  const Temp conv(scratch, 0), clip(scratch, stack);
  Rounds(n, stack, [&](uint32_t off, uint32_t len) {
    for (uint32_t j = 0; j < len; ++j) conv.Set(j, HalfToFloat(src[off + j]));
    TanhFormula(conv, conv, clip, len);
    for (uint32_t j = 0; j < len; ++j) dst[off + j] = FloatToHalf(conv.Get(j));
  });
  return true;
}

// splitSize = tmpBytes / 4 down to a multiple of 32 floats; the tmpTensor at 0: the widened
// source, Ln in place, Muls by (float) 1.4426950408889634 in place, cast to dst.
bool ReplayLog2HalfScratch(const Half* src, Half* dst, uint32_t n, uint8_t* scratch,
                           uint32_t tmpBytes) {
  const uint32_t split = tmpBytes / 4 / 32 * 32;
  if (split == 0) return false;
  const Temp t(scratch, 0);
  const float c = static_cast<float>(1.4426950408889634);
  Rounds(n, split, [&](uint32_t off, uint32_t len) {
    for (uint32_t j = 0; j < len; ++j) t.Set(j, HalfToFloat(src[off + j]));
    for (uint32_t j = 0; j < len; ++j) t.Set(j, LnF(t.Get(j)));
    for (uint32_t j = 0; j < len; ++j) t.Set(j, t.Get(j) * c);
    for (uint32_t j = 0; j < len; ++j) dst[off + j] = FloatToHalf(t.Get(j));
  });
  return true;
}

}  // namespace lngrad_replay
