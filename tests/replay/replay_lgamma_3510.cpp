// Lgamma on arch 3510 (replay_math.h, ReplayLgamma3510): a second reading of the toolkit's
// impl/adv_api/detail/math/lgamma/lgamma_3510_impl.h and lgamma_common_utils.h, replayed the way
// the source runs it: 64-lane float registers, the compare masks and their Xor/And, Select into
// a destination register that starts at 0, the first pass storing to the work buffer and the
// second reading it back. One IEEE binary32 operation per instruction, Ln in double rounded
// once, Truncate CAST_FLOOR exact; the NaN test compares the raw exponent and mantissa fields
// (no flushing of the subnormal patterns it compares as floats). No code shared with lngrad.
#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <functional>
#include <vector>

#include "replay_math.h"

namespace lngrad_replay {
namespace {

constexpr int kLanes = 64;
using Reg = std::array<float, kLanes>;
using Mask = std::array<bool, kLanes>;

float Bits(uint32_t b) { return std::bit_cast<float>(b); }
uint32_t Raw(float f) { return std::bit_cast<uint32_t>(f); }

// One instruction over the lanes of `m` (the others keep what dst held: the source's results
// there are never selected).
Reg Map(const Reg& a, const std::function<float(float)>& f) {
  Reg r{};
  for (int i = 0; i < kLanes; ++i) r[i] = f(a[i]);
  return r;
}
Reg Zip(const Reg& a, const Reg& b, const std::function<float(float, float)>& f) {
  Reg r{};
  for (int i = 0; i < kLanes; ++i) r[i] = f(a[i], b[i]);
  return r;
}
Reg Dup(float v) {
  Reg r;
  r.fill(v);
  return r;
}
Reg Muls(const Reg& a, float s) {
  return Map(a, [s](float v) { return v * s; });
}
Reg Adds(const Reg& a, float s) {
  return Map(a, [s](float v) { return v + s; });
}
Reg Mul(const Reg& a, const Reg& b) {
  return Zip(a, b, [](float x, float y) { return x * y; });
}
Reg Add(const Reg& a, const Reg& b) {
  return Zip(a, b, [](float x, float y) { return x + y; });
}
Reg Sub(const Reg& a, const Reg& b) {
  return Zip(a, b, [](float x, float y) { return x - y; });
}
Reg Div(const Reg& a, const Reg& b) {
  return Zip(a, b, [](float x, float y) { return x / y; });
}
Reg Ln(const Reg& a) {
  return Map(a, [](float v) { return static_cast<float>(std::log(static_cast<double>(v))); });
}
Reg Abs(const Reg& a) {
  return Map(a, [](float v) { return std::fabs(v); });
}
Reg Floor(const Reg& a) {
  return Map(a, [](float v) { return std::floor(v); });
}
Mask Cmp(const Reg& a, const std::function<bool(float)>& p) {
  Mask m{};
  for (int i = 0; i < kLanes; ++i) m[i] = p(a[i]);
  return m;
}
Mask Xor(const Mask& a, const Mask& b) {
  Mask m{};
  for (int i = 0; i < kLanes; ++i) m[i] = a[i] != b[i];
  return m;
}
Reg Select(const Reg& a, const Reg& b, const Mask& m) {
  Reg r{};
  for (int i = 0; i < kLanes; ++i) r[i] = m[i] ? a[i] : b[i];
  return r;
}

float F(double d) { return static_cast<float>(d); }

// LGammaCalcMulAdd: Muls by p[0], then Adds p[1], Mul x, Adds p[2], ... Adds p[4].
Reg MulAdd(const Reg& x, const double (&p)[5]) {
  Reg r = Adds(Muls(x, F(p[0])), F(p[1]));
  for (int k = 2; k < 5; ++k) r = Adds(Mul(r, x), F(p[k]));
  return r;
}

// GetConstantsPow70To023 / V2 and LgammaCalPow70To023.
Reg Pow70To023(const Reg& t) {
  const double pa[5] = {1.33810918536787660377e-02, 2.28963728064692451092e-01,
                        9.77717527963372745603e-01, 1.45492250137234768737e+00,
                        6.32827064025093366517e-01};
  const double pb[5] = {3.21709242282423911810e-03, 1.04222645593369134254e-01,
                        7.69285150456672783825e-01, 2.12848976379893395361e+00,
                        2.45597793713041134822e+00};
  Reg a = Mul(Adds(Mul(MulAdd(t, pa), t), F(-7.72156649015328655494e-02)), t);
  Reg b = Adds(Mul(MulAdd(t, pb), t), 1.0f);
  return Add(Div(a, b), Muls(t, -0.5f));
}

Reg Cal023To073(const Reg& x) {
  const Reg a = Adds(x, F(-1.0348905219959115));
  const Reg b = Div(Dup(F(0.20700451798849123)), x);
  const Reg c = Adds(b, F(-0.3808607740435038));
  const Reg d = Sub(Dup(F(-0.3713263607336305)), b);
  const Reg e = Adds(b, F(1.8253839945289898));
  const Reg f = Div(Dup(F(-0.577911391162728)), d);
  Reg r = Div(Dup(F(-1.7736742652812825)), Sub(f, e));
  r = Mul(Add(r, f), a);
  r = Mul(Sub(Dup(F(0.10589227895856956)), r), c);
  return Sub(r, a);
}

Reg Cal123To173(const Reg& x) {
  const double p0[5] = {1.08704044e-07, -6.47978282e-07, 1.45738871e-06, -1.47723704e-06,
                        5.73642027e-07};
  const double p1[5] = {3.15632070903625950361e-04, -1.40346469989232843813e-03,
                        6.10053870246291332635e-03, -3.27885410759859649565e-02,
                        4.83836122723810047042e-01};
  const double p2[5] = {-3.12754168375120860518e-04, 8.81081882437654011382e-04,
                        -3.68452016781138256760e-03, 1.79706750811820387126e-02,
                        -1.47587722994593911752e-01};
  const double p3[5] = {3.35529192635519073543e-04, -5.38595305356740546715e-04,
                        2.25964780900612472250e-03, -1.03142241298341437450e-02,
                        6.46249402391333854778e-02};
  const Reg a = MulAdd(x, p0);
  Reg y = Adds(x, F(-1.46163214496836224576e+00));
  const Reg z = Mul(y, y);
  const Reg w = Mul(z, y);
  const Reg b = MulAdd(w, p1), c = MulAdd(w, p2), d = MulAdd(w, p3);
  Reg r = Mul(z, b);
  y = Mul(Add(Mul(y, d), c), w);
  y = Sub(Dup(F(-3.63867699703950536541e-18)), y);
  r = Sub(r, y);
  return Add(Adds(r, F(-1.21486290535849611461e-01)), a);
}

Reg Cal173To2(const Reg& x) {
  const Reg a = Adds(x, F(-2.000000000156967));
  const Reg b = Adds(x, F(1.5704527182920263));
  const Reg c = Div(x, Dup(F(-2.351768784938553)));
  const Reg d = Div(Dup(F(11.072315459770081)), a);
  Reg r = Add(Sub(Dup(F(4.56346777685429)), c), d);
  r = Adds(Div(b, r), F(0.422784325282832));
  return Mul(a, r);
}

Reg Cal2To22(const Reg& x) {
  const Reg a = Adds(x, F(-0.9987077407790342));
  const Reg b = Adds(a, F(-1.0012922592272755));
  Reg c = Div(Dup(F(1.7427676919841077)), Div(a, b));
  Reg r = Div(Dup(F(0.18634242386907246)), Sub(Dup(F(2.2595210499965988)), c));
  r = Sub(Dup(F(2.4477420497054303)), Add(c, r));
  return Div(b, r);
}

Reg Cal22To25(const Reg& x) {
  const Reg a = Adds(x, F(-2.0000069063575214));
  Reg r = Adds(Muls(x, -1.0f), F(-1.7452430203554998));
  r = Div(Dup(F(-0.7681154946764155)), r);
  const Reg b = Sub(Dup(F(-0.08525477083158943)), r);
  r = Mul(b, Add(b, a));
  return Mul(a, Sub(Dup(F(0.5071375856257216)), r));
}

Reg Cal25To3(const Reg& x) {
  const float r0 = F(-2.225444571099429), r1 = F(-2.7949471270267456);
  const Reg a = Adds(x, r0);
  const Reg b = Adds(Muls(x, -1.0f), F(0.2566236573575009));
  Reg c = Add(x, Adds(a, r1));
  Reg d = Adds(Div(Dup(F(0.14449865133660186)), Adds(b, r0)), F(-0.017787316457839795));
  c = Add(d, c);
  const Reg e = Mul(c, d);
  d = Adds(c, r1);
  return Sub(a, Mul(e, d));
}

Reg Cal3To8(const Reg& x) {
  const double pa[5] = {3.19475326584100867617e-05, 1.84028451407337715652e-03,
                        2.66422703033638609560e-02, 1.46350472652464452805e-01,
                        3.25778796408930981787e-01};
  const double pb[5] = {7.32668430744625636189e-06, 7.77942496381893596434e-04,
                        1.86459191715652901344e-02, 1.71933865632803078993e-01,
                        7.21935547567138069525e-01};
  const Reg i = Floor(x);
  const Reg y = Sub(x, i);
  Reg a = Mul(Adds(Mul(MulAdd(y, pa), y), F(2.14982415960608852501e-01)), y);
  a = Mul(Adds(a, F(-7.72156649015328655494e-02)), y);
  Reg b = Adds(Mul(MulAdd(y, pb), y), F(1.39200533467621045958e+00));
  b = Adds(Mul(b, y), 1.0f);
  const Reg res = Add(Muls(y, 0.5f), Div(a, b));
  Reg prod = Dup(1.0f);
  for (int k = 3; k <= 7; ++k) {
    const float kf = static_cast<float>(k);
    const Mask m = Cmp(i, [kf](float v) { return v >= kf; });
    prod = Select(Mul(prod, Adds(y, kf - 1.0f)), prod, m);
  }
  return Add(res, Ln(prod));
}

Reg Cal8ToPow58(const Reg& x) {
  const double p[5] = {-1.63092934096575273989e-03, 8.36339918996282139126e-04,
                       -5.95187557450339963135e-04, 7.93650558643019558500e-04,
                       -2.77777777728775536470e-03};
  Reg l = Ln(x);
  const Reg b = Div(Dup(1.0f), x);
  const Reg y = Mul(b, b);
  Reg r = Adds(Mul(MulAdd(y, p), y), F(8.33333333333329678849e-02));
  r = Adds(Mul(r, b), F(4.18938533204672725052e-01));
  l = Mul(Adds(l, -1.0f), Adds(x, -0.5f));
  return Add(r, l);
}

Reg SearchSinPi(const Reg& x) {
  const float r0 = F(0.9452154240716536);
  const Reg a = Mul(x, x);
  const Reg b = Muls(a, F(0.27798021173736565));
  const Reg c = Sub(b, Dup(r0));
  Reg r = Muls(Adds(Mul(Adds(c, F(0.96602443393936)), c), F(-0.01134864151666764)),
               F(-3.605483266634817));
  r = Mul(Adds(Add(r, b), F(-5.189778155221027)), a);
  r = Mul(Adds(r, F(1.323678940948241)), c);
  r = Adds(Sub(Dup(r0), r), r0);
  return Mul(r, x);
}

Reg SinPi(const Reg& x) {
  const Reg ax = Abs(x);
  const Reg y = Sub(ax, Floor(ax));
  Reg r = Dup(0.0f);
  r = Select(SearchSinPi(Sub(Dup(1.0f), y)), r, Cmp(y, [](float v) { return v >= 0.5f; }));
  r = Select(SearchSinPi(y), r, Cmp(y, [](float v) { return v < 0.5f; }));
  Reg sign = Dup(0.0f);
  sign = Select(Dup(-1.0f), sign, Cmp(x, [](float v) { return v < 0.0f; }));
  sign = Select(Dup(1.0f), sign, Cmp(x, [](float v) { return v > 0.0f; }));
  return Mul(r, sign);
}

// LgammaCompute1: the interval chain with its alternating masks m1/m2 and their Xor.
Reg Compute1(const Reg& ax) {
  Reg dst = Dup(0.0f);
  const Reg lnx = Ln(ax);
  const auto lt = [&ax](float bound) { return Cmp(ax, [bound](float v) { return v < bound; }); };
  Mask m = Cmp(ax, [](float v) { return v <= Bits(0x1c800000u); });
  dst = Select(Muls(lnx, -1.0f), dst, m);
  Mask m1 = lt(Bits(0x3e6d3308u));
  dst = Select(Sub(Pow70To023(ax), lnx), dst, Xor(m1, m));
  Mask m2 = lt(Bits(0x3f333333u));
  dst = Select(Cal023To073(ax), dst, Xor(m1, m2));
  m1 = lt(Bits(0x3f9da620u));
  m = Xor(m1, m2);
  const Mask not_one = Cmp(ax, [](float v) { return v != 1.0f; });
  for (int i = 0; i < kLanes; ++i) m[i] = m[i] && not_one[i];
  dst = Select(Pow70To023(Adds(ax, -1.0f)), dst, m);
  using Piece = Reg (*)(const Reg&);
  const struct {
    uint32_t bound;
    Piece piece;
  } rest[] = {{0x3fdda618u, Cal123To173}, {0x40000000u, Cal173To2}, {0x400ccccdu, Cal2To22},
              {0x40200000u, Cal22To25},   {0x40400000u, Cal25To3},  {0x41000000u, Cal3To8},
              {0x5c800000u, Cal8ToPow58}};
  bool second = true;  // which of m1/m2 takes the new bound (they alternate in the source)
  for (const auto& r : rest) {
    (second ? m2 : m1) = lt(Bits(r.bound));
    dst = Select(r.piece(ax), dst, Xor(m1, m2));
    second = !second;
  }
  return dst;
}

// LgammaCompute2 over the first pass's value.
Reg Compute2(const Reg& x, Reg dst) {
  Reg t = Abs(x);
  Mask m = Cmp(t, [](float v) { return v >= Bits(0x5c800000u); });
  dst = Select(Mul(Adds(Ln(t), -1.0f), x), dst, m);
  m = Cmp(x, [](float v) { return v < Bits(0x9c800000u); });
  Reg r = Sub(Dup(F(1.14472988584940016388e+00)), Ln(Abs(SinPi(x))));
  r = Sub(Sub(r, Ln(Muls(x, -1.0f))), dst);
  dst = Select(r, dst, m);
  m = Cmp(x, [](float v) { return Raw(v) == 0xff800000u; });
  dst = Select(Dup(Bits(0x7f800000u)), dst, m);
  for (int i = 0; i < kLanes; ++i) {
    const uint32_t b = Raw(x[i]);
    if (((b >> 23) & 0xffu) == 0xffu && (b & 0x7fffffu) != 0) dst[i] = Bits(0x7fc00000u);
  }
  return dst;
}

// The work buffer the first pass stores to: StoreAlign of each 64-lane register under the
// UpdateMask of calCount, so floats [0, n) and nothing past them; `work_out` gets them.
template <class T, class Store>
void Run(const T* src, size_t n, Store store, float* work_out) {
  std::vector<float> work((n + kLanes - 1) / kLanes * kLanes);
  const auto load = [&](size_t base) {
    Reg x{};
    for (size_t i = 0; i < kLanes; ++i) x[i] = base + i < n ? ToFloat(src[base + i]) : 0.0f;
    return x;
  };
  for (size_t base = 0; base < n; base += kLanes) {
    const Reg d = Compute1(Abs(load(base)));
    for (size_t i = 0; i < kLanes && base + i < n; ++i) work[base + i] = d[i];
  }
  for (size_t base = 0; base < n; base += kLanes) {
    Reg d{};
    for (size_t i = 0; i < kLanes && base + i < n; ++i) d[i] = work[base + i];
    d = Compute2(load(base), d);
    for (size_t i = 0; i < kLanes && base + i < n; ++i) store(base + i, d[i]);
  }
  if (work_out != nullptr) std::copy(work.begin(), work.begin() + n, work_out);
}

}  // namespace

void ReplayLgamma3510(const float* src, float* dst, size_t n, float* work) {
  Run(
      src, n, [dst](size_t i, float v) { dst[i] = v; }, work);
}

void ReplayLgamma3510(const Half* src, Half* dst, size_t n, float* work) {
  Run(
      src, n, [dst](size_t i, float v) { dst[i] = FloatToHalfSaturate(v); }, work);
}

}  // namespace lngrad_replay
