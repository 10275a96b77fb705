// Power's floating-point paths on arch 3510 (replay_math.h), re-read from the toolkit's
// impl/adv_api/detail/math/power/power_3510_impl.h: one lane of the register code, the masks of
// ProcessSpecialCaseForPowF kept as the per-lane booleans the source computes (each compare
// under its governing mask, Select / merging Duplicate as written), each register instruction
// one IEEE binary32 operation, Axpy / MulAddDst / FusedMulDstAdd one fused multiply-add (the
// source's own comments name fmaf), the register Exp and Ln in double rounded once to float.
// No code shared with lngrad (include/ascendc/adv/lib/math/power*.h). What DOUBLE_FLOAT_TECH
// leaves in sharedTmpBuffer (ReplayPowerScratch3510): a separate reading of PowImpl's chunk loop
// (GetPowTmpBufferSize), InitTmpBuffer and the stores of ComputePowFBaseLogStepOneImpl /
// StepTwoImpl / ComputePowFExpImpl (mirror commit 82b89a15f), by the helper who also changed
// lngrad to match, written before lngrad's scratch code and only then compared with it (the
// helper had read lngrad's power_3510.h, which had none).
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

#include "replay_math.h"

namespace lngrad_replay {
namespace {

int32_t I(float v) { return std::bit_cast<int32_t>(v); }
float Fl(int32_t b) { return std::bit_cast<float>(b); }

float RegExp(float v) { return static_cast<float>(std::exp(static_cast<double>(v))); }
float RegLn(float v) { return static_cast<float>(std::log(static_cast<double>(v))); }

// GetLogFExtStepOne then GetLogFExtStepTwo on a = |base|: (loghi, loglo), and in `poly` the
// value step two leaves in its tmpRReg (the polynomial times s), which it stores.
void LogExt(float a, float* log_high, float* log_low, float* poly = nullptr) {
  const bool cmp = a < 1.175494351e-38f;
  const float muls = a * 8388608.0f;
  const float ta = cmp ? muls : a;
  float ri = cmp ? -23.0f : 0.0f;
  const auto ue = static_cast<uint32_t>(I(ta)) - static_cast<uint32_t>(I(0.70710678f));
  const int32_t e = static_cast<int32_t>(ue & 0xff800000u);
  float rm = Fl(static_cast<int32_t>(static_cast<uint32_t>(I(ta)) - static_cast<uint32_t>(e)));
  const auto ef = static_cast<float>(e);  // a multiple of 2^23: exact in any rounding
  ri = std::fma(ef, 1.19209290e-7f, ri);  // Axpy
  const float rp = rm + 1.0f;
  rm = rm + -1.0f;
  float rr = 1.0f / rp;
  // step two
  float qhi = rm * rr;
  float tmp = qhi * -2.0f;
  tmp = tmp + rm;
  float tmp2 = -rm;
  tmp2 = std::fma(tmp2, qhi, tmp);  // FusedMulDstAdd: dst * src0 + src1
  float qlo = rr * tmp2;
  const float s = qhi * qhi;
  rr = 0.141957462f;
  rr = std::fma(0.129394531f, s, rr);  // Axpy: scalar * src + dst
  rr = std::fma(rr, s, 0.200015724f);  // FusedMulDstAdd
  rr = std::fma(rr, s, 0.333333254f);
  rr = rr * s;
  if (poly != nullptr) *poly = rr;
  qhi = qhi + qhi;
  qlo = qlo + qlo;
  float fhi = ri * 6.93147182e-1f;
  fhi = fhi + qhi;
  tmp2 = fhi;
  tmp2 = std::fma(-6.93147182e-1f, ri, tmp2);  // Axpy
  const float flo = qhi - tmp2;
  qhi = std::fma(qhi, rr, flo);  // FusedMulDstAdd
  tmp = qlo * 3.0f;
  qlo = std::fma(tmp, rr, qlo);              // MulAddDst: src0 * src1 + dst
  qlo = std::fma(-1.90465421e-9f, ri, qlo);  // Axpy
  qlo = qlo + qhi;
  *log_high = fhi + qlo;
  tmp = fhi - *log_high;
  *log_low = tmp + qlo;
}

// GetExpCore.
float ExpCore(float lhi, float llo, float b) {
  const float phi = lhi * b;
  float plo = -phi;
  plo = std::fma(lhi, b, plo);
  plo = std::fma(llo, b, plo);
  float r = RegExp(phi);
  r = std::fma(plo, r, r);
  const bool cmp1 = phi >= 0.0f;
  const float dup = cmp1 ? Fl(0x7f800000) : 0.0f;  // zeroing Duplicate
  const bool cmp2 = (phi < -104.0f) || (phi >= 88.7228390f);
  return cmp2 ? dup : r;
}

// ProcessSpecialCaseForPowF, mask by mask.
float Special(float dst, float base, float expo) {
  bool cmp1 = expo == 0.0f;
  bool cmp2 = base == 1.0f;
  cmp2 = cmp1 || cmp2;
  if (cmp2) dst = 1.0f;
  bool cur = !cmp2;
  cmp1 = base != base;
  cmp2 = (cmp1 || expo != expo) && cur;
  if (cmp2) dst = Fl(0x7fc00000);
  cur = cmp2 != cur;
  cmp1 = cur && (I(base) & 0x7fffffff) == 0x7f800000;
  cmp2 = cur && base == 0.0f;
  cmp1 = cmp1 || cmp2;
  cmp2 = cmp1 && expo < 0.0f;
  float t = Fl(I(base) ^ 0x7f800000);
  t = cmp2 ? t : base;
  const float t2 = Fl(I(t) & 0x7fffffff);
  float odd = expo * 0.5f;
  odd = std::floor(odd);
  odd = std::fma(odd, -2.0f, expo);
  cmp2 = odd == 1.0f;
  t = cmp2 ? t : t2;
  dst = cmp1 ? t : dst;
  cur = cmp1 != cur;
  t = -dst;
  t = cmp2 ? t : dst;
  const float fl = std::floor(expo);
  cmp1 = cur && expo != fl;
  if (cmp1) t = Fl(0x7fc00000);
  cmp2 = cur && base < 0.0f;
  dst = cmp2 ? t : dst;
  cmp1 = cur && (I(expo) == 0x7f800000 || I(expo) == static_cast<int32_t>(0xff800000u));
  cmp2 = cmp1 && base == -1.0f;
  if (cmp2) dst = 1.0f;
  return dst;
}

}  // namespace

float ReplayPower3510(float base, float expo, bool double_float) {
  float core = 0;
  if (double_float) {
    float hi = 0, lo = 0;
    LogExt(std::fabs(base), &hi, &lo);
    core = ExpCore(hi, lo, expo);
  } else {
    core = RegExp(expo * RegLn(std::fabs(base)));
  }
  return Special(core, base, expo);
}

void ReplayPowerScratch3510(const float* base, uint32_t baseStride, const float* expo,
                            uint32_t expStride, uint32_t n, uint32_t tmpBytes, uint8_t* scratch) {
  // GetPowTmpBufferSize: bytes / (sizeof(float) * 3) aligned up to 32, used as an element count;
  // PowImpl's loop of PowFComputeImpl over chunks of it.
  const uint32_t size = (tmpBytes / 12 + 31) / 32 * 32;
  if (size == 0) return;
  const uint32_t repeats = (n + size - 1) / size;
  for (uint32_t c = 0; c < repeats; ++c) {
    const uint32_t start = c * size, len = n - start < size ? n - start : size;
    const uint32_t align = (len + 31) / 32 * 32;  // InitTmpBuffer: high, low, log arrays
    for (uint32_t j = 0; j < len; ++j) {
      const uint32_t k = start + j;
      float hi = 0, lo = 0, poly = 0;
      LogExt(std::fabs(base[k * baseStride]), &hi, &lo, &poly);
      // Step two leaves (loghi, loglo, poly); the exp pass overwrites the high array (its
      // tmpExpBuffer) with the core's result.
      const float core = ExpCore(hi, lo, expo[k * expStride]);
      std::memcpy(scratch + 4 * j, &core, 4);
      std::memcpy(scratch + 4 * (align + j), &lo, 4);
      std::memcpy(scratch + 4 * (2 * align + j), &poly, 4);
    }
  }
}

int32_t ReplayPowerInt3510(int32_t base, int32_t expo, uint32_t max_loop) {
  // PowIComputeImpl's GetPowICompute: max_loop rounds of (dst *= base where exp & 1; exp >>= 1,
  // arithmetic; base *= base), 32-bit wrapping multiplies; then ProcessSpecialCaseForPowI.
  uint32_t dst = 1, b = static_cast<uint32_t>(base);
  int32_t e = expo;
  for (uint32_t j = 0; j < max_loop; ++j) {
    const uint32_t t = dst * b;
    if ((e & 1) == 1) dst = t;
    e = e >> 1;
    b = b * b;
  }
  auto r = static_cast<int32_t>(dst);
  if (expo == 0 || base == 1) return 1;
  if (base != -1 && expo < 0) return 0;
  if (base == -1 && expo < 0) r = (expo & 1) == 1 ? -1 : 1;
  return r;
}

}  // namespace lngrad_replay
