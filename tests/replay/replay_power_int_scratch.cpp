// Power<int32_t>'s dst and scratch on arch 2201/2002 (replay_power_int.h,
// ReplayPowerIntScratch). Provenance: written by helper pw (session 22) from the toolkit's
// sources (asc-devkit, the mirror's HEAD), read for this file: power/power_common_impl.h (the
// int32_t PowerImpl overloads: splitSize = bytes / 4 / factor down to 32, the scalar forms'
// Duplicate of the scalar over splitSize words at the buffer's base and PowerIParamsCalc after
// them, the rounds), power_int_impl.h (InitBulkPowerI, BulkProcessPowerI, InitFinePowerI,
// FineProcessPowerI, HandleNegativeExpPowerI, CommonPowerI's two loops on the float sums),
// power_common_utils.h (VselPowerTensorTensor: the device branch Duplicates the mask's UB
// address, 32 bits, into tmpScalar's first word, one element, before the Select; sel bit 1
// takes src0), power_v220_impl.h (factors 6 / 7; PowerIParamsCalc: five int32 tensors, then
// negMask, mask, tmpScalar, no tmpTensor3; CompareIntZero / CompareZeroPositive: int32 == 0;
// ShiftRightOneBit: ShiftRight by 1; ReduceSumCount: ReduceSum<float, false> with a count, which
// on 2201 (kernel_operator_vec_reduce_intf_impl.h, dav_c220 ReduceSumImpl) is one vcadd in
// counter mode and the acc register's sum stored to dst[0], no work area), power_v200_impl.h
// (factors 7 / 8; tmpTensor3 after tmpTensor2; CompareIntZero: Adds 0x3f800000 into the temp,
// then float == 1.0f; CompareZeroPositive: the bits as a float == 0.0f; ShiftRightOneBit:
// Duplicate 0xfffffffe into the temp, And on 16-bit halves, Cast to float, Muls 0.5f, Cast back
// CAST_RINT; ReduceSumCount: ReduceSum<float, false> in normal mode with tmpTensor3 as its work
// area, whose "other version" (dav_m200 ReduceImpl) writes the per-repeat sums to the work area,
// and for a count past 64 with a tail the body's and the tail's sums to its words 0 and 1).
// Written before lngrad's Power<int32_t> scratch code (power_int_work.h), without reading it; a
// separate reading by the same helper who then changed lngrad.
//
// What the sources leave open, and this replay's choice: the order of the vcadd sums (only
// their being 0 steers the loops; their values are overwritten); whether 2201's accumulating
// vcadd also stores its per-repeat sums past dst[0] (not modelled: dst[0] only); CompareScalar
// reading lanes of its own destination (chunk 32 on 2002): every lane is read before any bit is
// written.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "replay_power_int.h"

namespace lngrad_replay {
namespace {

float AsF(uint32_t b) {
  float f;
  std::memcpy(&f, &b, 4);
  return f;
}
uint32_t BitsF(float f) {
  uint32_t b;
  std::memcpy(&b, &f, 4);
  return b;
}

// float -> int32 in a mode (true: CAST_TRUNC, false: CAST_RINT), saturating, NaN -> 0.
int32_t ToInt(float f, bool trunc) {
  if (std::isnan(f)) return 0;
  const double d =
      trunc ? std::trunc(static_cast<double>(f)) : std::nearbyint(static_cast<double>(f));
  if (d >= 2147483647.0) return std::numeric_limits<int32_t>::max();
  if (d <= -2147483648.0) return std::numeric_limits<int32_t>::min();
  return static_cast<int32_t>(d);
}

// A tensor: a region (its bytes) and a byte offset into it.
struct T {
  uint8_t* base;
  size_t bytes;
  size_t off;
  T At(size_t words) const { return {base, bytes, off + 4 * words}; }
  bool Has(size_t k) const { return off + 4 * k + 4 <= bytes; }
  uint32_t W(size_t k) const {
    uint32_t v;
    std::memcpy(&v, base + off + 4 * k, 4);
    return v;
  }
  void Set(size_t k, uint32_t v) const { std::memcpy(base + off + 4 * k, &v, 4); }
  bool Bit(size_t k) const { return ((base[off + k / 8] >> (k % 8)) & 1u) != 0; }
};

class Seq {
 public:
  Seq(bool v200, uint32_t len) : v200_(v200), len_(len), rep_((len * 4 + 255) / 256) {}

  template <class F>
  void Each(const T& d, F f) const {
    for (uint32_t j = 0; j < len_; ++j) d.Set(j, f(j));
  }
  // CompareScalar over every lane of rep_ repeats (the counter ignored): all lanes read first.
  template <class P>
  void Cmp(const T& m, const T& s, P pred) const {
    std::vector<uint8_t> bits(rep_ * 8, 0);
    for (uint32_t k = 0; k < rep_ * 64; ++k) {
      if (s.Has(k) && pred(s.W(k)))
        bits[k / 8] = static_cast<uint8_t>(bits[k / 8] | (1u << (k % 8)));
    }
    std::memcpy(m.base + m.off, bits.data(), bits.size());
  }
  // VselPowerTensorTensor: tmpScalar's word 0 = the mask's UB address, then the Select.
  void Vsel(const T& d, const T& m, uint32_t m_addr, const T& s0, const T& s1, const T& sc) const {
    sc.Set(0, m_addr);
    Each(d, [&](uint32_t j) { return m.Bit(j) ? s0.W(j) : s1.W(j); });
  }
  void CastF(const T& d, const T& s) const {
    Each(d, [&](uint32_t j) { return BitsF(static_cast<float>(static_cast<int32_t>(s.W(j)))); });
  }
  // ReduceSumCount of float(src) into tmpScalar[0]; 2002: the work area's per-repeat sums.
  float Sum(const T& sc, const T& s, const T& work) const {
    const uint32_t body = len_ < 64 ? 1 : len_ / 64, tail = len_ < 64 ? 0 : len_ % 64;
    float total = 0.0f;
    std::vector<float> parts;
    for (uint32_t r = 0; r < body + (tail != 0 ? 1 : 0); ++r) {
      float p = 0.0f;
      for (uint32_t k = r * 64; k < std::min(len_, r * 64 + 64); ++k) p += AsF(s.W(k));
      parts.push_back(p);
    }
    for (uint32_t r = 0; r < body; ++r) total += parts[r];
    if (v200_) {
      for (uint32_t r = 0; r < body; ++r) work.Set(r, BitsF(parts[r]));
      if (tail != 0) {
        work.Set(0, BitsF(total));
        work.Set(1, BitsF(parts[body]));
      }
    }
    if (tail != 0) total += parts[body];
    if (v200_ && (body > 1 || tail != 0)) work.Set(0, BitsF(total));
    sc.Set(0, BitsF(total));
    return total;
  }
  void ShiftRightOne(const T& e, const T& t3) const {
    if (!v200_) {
      Each(e, [&](uint32_t j) { return static_cast<uint32_t>(static_cast<int32_t>(e.W(j)) >> 1); });
      return;
    }
    Each(t3, [](uint32_t) { return 0xfffffffeu; });
    Each(t3, [&](uint32_t j) { return e.W(j) & t3.W(j); });  // And on the two 16-bit halves
    CastF(t3, t3);
    Each(t3, [&](uint32_t j) { return BitsF(AsF(t3.W(j)) * 0.5f); });
    Each(e, [&](uint32_t j) { return static_cast<uint32_t>(ToInt(AsF(t3.W(j)), false)); });
  }
  void ZeroPositive(const T& m, const T& s) const {
    if (v200_) {
      Cmp(m, s, [](uint32_t w) { return AsF(w) == 0.0f; });
    } else {
      Cmp(m, s, [](uint32_t w) { return w == 0u; });
    }
  }
  void IntZero(const T& m, const T& s, const T& t3) const {
    if (v200_) {
      Each(t3, [&](uint32_t j) { return s.W(j) + 0x3f800000u; });
      Cmp(m, t3, [](uint32_t w) { return AsF(w) == 1.0f; });
    } else {
      Cmp(m, s, [](uint32_t w) { return w == 0u; });
    }
  }

 private:
  bool v200_;
  uint32_t len_, rep_;
};

struct Params {
  T e, o, rec, t1, t2, t3, neg, mask, sc;
  uint32_t neg_addr, mask_addr;
};

// CommonPowerI on one round of len elements.
void CommonPowerI(bool v200, const T& dst, const T& x, const T& y, const Params& p, uint32_t len) {
  const Seq s(v200, len);
  // InitBulkPowerI
  s.CastF(p.t1, y);
  s.Cmp(p.neg, p.t1, [](uint32_t w) { return AsF(w) < 0.0f; });
  s.Each(p.t1,
         [&](uint32_t j) { return static_cast<uint32_t>(static_cast<int32_t>(y.W(j)) * -1LL); });
  s.Vsel(p.e, p.neg, p.neg_addr, p.t1, y, p.sc);
  s.Each(p.o, [&](uint32_t j) { return p.e.W(j); });
  s.ZeroPositive(p.mask, p.o);
  s.Each(p.rec, [](uint32_t) { return 0u; });
  s.Each(p.t2, [](uint32_t) { return 1u; });
  s.Vsel(p.rec, p.mask, p.mask_addr, p.rec, p.t2, p.sc);
  s.Vsel(dst, p.mask, p.mask_addr, p.t2, x, p.sc);
  s.ShiftRightOne(p.e, p.t3);
  s.ZeroPositive(p.mask, p.e);
  // BulkProcessPowerI until the float sum of expUBIterate is 0
  for (;;) {
    s.CastF(p.t1, p.e);
    if (s.Sum(p.sc, p.t1, p.t3) == 0.0f) break;
    s.Each(p.t1, [&](uint32_t j) { return dst.W(j) * dst.W(j); });
    s.Each(p.t2, [&](uint32_t j) { return p.rec.W(j) * 2u; });
    s.Vsel(dst, p.mask, p.mask_addr, dst, p.t1, p.sc);
    s.Vsel(p.rec, p.mask, p.mask_addr, p.rec, p.t2, p.sc);
    s.ShiftRightOne(p.e, p.t3);
    s.IntZero(p.mask, p.e, p.t3);
  }
  // InitFinePowerI, FineProcessPowerI until the float sum of recordExpNode is 0
  s.Each(p.rec, [&](uint32_t j) { return p.o.W(j) - p.rec.W(j); });
  s.ZeroPositive(p.mask, p.rec);
  for (;;) {
    s.CastF(p.t1, p.rec);
    if (s.Sum(p.sc, p.t1, p.t3) == 0.0f) break;
    s.Each(p.t1, [&](uint32_t j) { return dst.W(j) * x.W(j); });
    s.Each(p.t2, [&](uint32_t j) { return p.rec.W(j) - 1u; });
    s.Vsel(dst, p.mask, p.mask_addr, dst, p.t1, p.sc);
    s.Vsel(p.rec, p.mask, p.mask_addr, p.rec, p.t2, p.sc);
    s.ZeroPositive(p.mask, p.rec);
  }
  // HandleNegativeExpPowerI
  s.IntZero(p.mask, dst, p.t3);
  s.CastF(p.o, dst);
  s.Each(p.e, [](uint32_t) { return BitsF(1.0f); });
  s.Each(p.o, [&](uint32_t j) {
    const volatile float q = AsF(p.e.W(j)) / AsF(p.o.W(j));
    return BitsF(q);
  });
  s.Each(p.t1, [&](uint32_t j) { return static_cast<uint32_t>(ToInt(AsF(p.o.W(j)), true)); });
  s.Vsel(dst, p.neg, p.neg_addr, p.t1, dst, p.sc);
  s.Each(p.t2, [](uint32_t) { return 0u; });
  s.Vsel(dst, p.mask, p.mask_addr, p.t2, dst, p.sc);
}

}  // namespace

bool ReplayPowerIntScratch(bool arch2002, int form, const int32_t* x, const int32_t* y,
                           int32_t* dst, uint32_t n, uint32_t dstElems, uint8_t* scratch,
                           uint32_t tmpBytes, uint32_t scratchAddr) {
  const bool scalar = form != 0;
  const uint32_t factor = (arch2002 ? 7 : 6) + (scalar ? 1 : 0);
  const uint32_t chunk = tmpBytes / 4 / factor / 32 * 32;
  if (chunk == 0) return false;  // CheckTmpBufferSize
  const T sc0{scratch, tmpBytes, 0};
  const T base = scalar ? sc0.At(chunk) : sc0;
  Params p;
  p.e = base;
  p.o = p.e.At(chunk);
  p.rec = p.o.At(chunk);
  p.t1 = p.rec.At(chunk);
  p.t2 = p.t1.At(chunk);
  p.t3 = arch2002 ? p.t2.At(chunk) : T{nullptr, 0, 0};  // 2201: unassigned, never used
  p.neg = (arch2002 ? p.t3 : p.t2).At(chunk);
  p.mask = T{scratch, tmpBytes, p.neg.off + chunk};
  p.sc = T{scratch, tmpBytes, p.mask.off + chunk};
  p.neg_addr = scratchAddr + static_cast<uint32_t>(p.neg.off);
  p.mask_addr = scratchAddr + static_cast<uint32_t>(p.mask.off);
  // The scalar forms: Duplicate of the scalar over splitSize words (stackSrc1 / stackSrc0).
  if (scalar) {
    const int32_t v = form == 1 ? y[0] : x[0];
    for (uint32_t j = 0; j < chunk; ++j) sc0.Set(j, static_cast<uint32_t>(v));
  }
  auto* xd = const_cast<int32_t*>(x);
  auto* yd = const_cast<int32_t*>(y);
  const T xs{reinterpret_cast<uint8_t*>(xd), size_t{n} * 4, 0};
  const T ys{reinterpret_cast<uint8_t*>(yd), size_t{n} * 4, 0};
  const T ds{reinterpret_cast<uint8_t*>(dst), size_t{dstElems} * 4, 0};
  for (uint32_t off = 0; off < n; off += chunk) {
    const uint32_t len = std::min(chunk, n - off);
    CommonPowerI(arch2002, ds.At(off), form == 2 ? sc0 : xs.At(off), form == 1 ? sc0 : ys.At(off),
                 p, len);
  }
  return true;
}

}  // namespace lngrad_replay
