#include "compare.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdio>
#include <limits>
#include <queue>

namespace lngrad::cli {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// Maps the bits of an IEEE value to an integer that counts representable values in order
// (-0 and +0 both map to 0), so that the difference of two images is their ulp distance.
int64_t OrderedImage(uint64_t bits, int sign_bit) {
  const uint64_t sign = uint64_t{1} << sign_bit;
  const int64_t mag = static_cast<int64_t>(bits & (sign - 1));
  return (bits & sign) ? -mag : mag;
}

// a / b for a, b >= 0 with 0/0 = 0 and x/0 = inf: the tolerance ratio of the rule.
double Ratio(double a, double b) {
  if (a == 0) return 0;
  return b == 0 ? kInf : a / b;
}

}  // namespace

std::string RuleText(const CompareRule& rule) {
  char buf[160];
  if (rule.kind == CompareRule::kAscend) {
    std::snprintf(buf, sizeof buf, "rule ascend: wrong if abs err > %g and rel err > %g", rule.atol,
                  rule.rtol);
  } else {
    std::snprintf(buf, sizeof buf, "rule allclose: wrong if abs err > %g + %g * |golden|",
                  rule.atol, rule.rtol);
  }
  return buf;
}

double DefaultTolerance(io::DType dtype) {
  if (dtype == io::DType::kBFloat16) return 4e-3;
  return dtype == io::DType::kFloat16 ? 1e-3 : 1e-4;
}

double Spacing(double v, io::DType dtype) {
  // Significand bits and the exponent of the smallest normal of the dtype.
  const io::DTypeTraits& t = io::TraitsOf(dtype);
  int e = t.min_exp;
  if (v != 0) std::frexp(std::fabs(v), &e);  // |v| = m * 2^e, m in [0.5, 1)
  return std::ldexp(1.0, std::max(e, t.min_exp) - t.digits);
}

namespace {

bool Is16Bit(io::DType t) { return t == io::DType::kFloat16 || t == io::DType::kBFloat16; }

// u_h = 2^-11 for half, 2^-8 for bfloat16: the unit roundoff of a 16-bit output.
double Unit16(io::DType t) { return std::ldexp(1.0, -io::TraitsOf(t).digits); }

}  // namespace

double MagnitudeRule::UnitFactor() const {
  switch (what) {
    case Cancelling::kPdX:
      return 2.0 * static_cast<double>((h + 15) / 16 + 9) + 14;
    case Cancelling::kDgamma:
      return static_cast<double>(rows) + (res_error.empty() ? 7 : 3);
    case Cancelling::kDbeta:
      return static_cast<double>(rows) + 1;
  }
  return 0;
}

double MagnitudeRule::HalfFactor(io::DType out_dtype) const {
  if (!Is16Bit(out_dtype) || what == Cancelling::kPdX) return 0;
  return what == Cancelling::kDgamma && res_error.empty() ? 3 : 1;
}

double MagnitudeRule::Bound(int64_t i, double out, double golden, io::DType out_dtype) const {
  const size_t k = static_cast<size_t>(i);
  const double u16 = Is16Bit(out_dtype) ? Unit16(out_dtype) : 0;
  return (UnitFactor() * 0x1.0p-24 + HalfFactor(out_dtype) * u16) * mag[k] +
         (res_error.empty() ? 0 : res_error[k]) +
         Spacing(std::max(std::fabs(out), std::fabs(golden)), out_dtype);
}

std::string MagnitudeText(const MagnitudeRule& m, io::DType out_dtype) {
  char buf[160];
  const double hf = m.HalfFactor(out_dtype);
  const char* res = m.res_error.empty() ? "" : " + sum|dy * dres|";
  if (hf > 0) {
    const char* u16 = out_dtype == io::DType::kBFloat16 ? "u_bf" : "u_h";
    std::snprintf(buf, sizeof buf, "abs err <= (%g u + %g %s) * mag%s + 1 ulp", m.UnitFactor(), hf,
                  u16, res);
  } else {
    std::snprintf(buf, sizeof buf, "abs err <= %g u * mag%s + 1 ulp", m.UnitFactor(), res);
  }
  return buf;
}

uint64_t UlpDistance(double a, double b, io::DType dtype) {
  int64_t ia = 0, ib = 0;
  switch (dtype) {
    case io::DType::kFloat16:
      ia = OrderedImage(io::DoubleToHalfBits(a), 15);
      ib = OrderedImage(io::DoubleToHalfBits(b), 15);
      break;
    case io::DType::kBFloat16:
      ia = OrderedImage(io::DoubleToBFloat16Bits(a), 15);
      ib = OrderedImage(io::DoubleToBFloat16Bits(b), 15);
      break;
    case io::DType::kFloat32:
      ia = OrderedImage(std::bit_cast<uint32_t>(static_cast<float>(a)), 31);
      ib = OrderedImage(std::bit_cast<uint32_t>(static_cast<float>(b)), 31);
      break;
    case io::DType::kFloat64:
      ia = OrderedImage(std::bit_cast<uint64_t>(a), 63);
      ib = OrderedImage(std::bit_cast<uint64_t>(b), 63);
      break;
  }
  // Both images are within +-2^63 - 1, so the difference fits in uint64.
  return ia >= ib ? static_cast<uint64_t>(ia) - static_cast<uint64_t>(ib)
                  : static_cast<uint64_t>(ib) - static_cast<uint64_t>(ia);
}

std::vector<int64_t> IndexVector(const std::vector<int64_t>& shape, int64_t flat) {
  std::vector<int64_t> idx(shape.size(), 0);
  for (size_t k = shape.size(); k-- > 0;) {
    if (shape[k] > 0) {
      idx[k] = flat % shape[k];
      flat /= shape[k];
    }
  }
  return idx;
}

CompareResult Compare(const io::Tensor& out, const io::Tensor& golden, const CompareRule& rule,
                      size_t worst_count, const MagnitudeRule* magnitude) {
  CompareResult r;
  r.shape = out.shape();
  r.out_dtype = out.dtype();
  r.golden_dtype = golden.dtype();
  r.elements = out.size();
  // Keeps the worst_count worst elements: a min-heap on (badness, rel err, abs err); ties go
  // to the lower index, so the report is deterministic. The error tie-breaks matter when the
  // tolerances are 0 and every differing element has infinite badness.
  auto later = [](const WorstElement& a, const WorstElement& b) {
    if (a.badness != b.badness) return a.badness > b.badness;
    if (a.rel_err != b.rel_err) return a.rel_err > b.rel_err;
    if (a.abs_err != b.abs_err) return a.abs_err > b.abs_err;
    return a.index < b.index;
  };
  std::priority_queue<WorstElement, std::vector<WorstElement>, decltype(later)> heap(later);
  double ulp_sum = 0;
  int64_t ulp_count = 0;
  r.max_abs = -1;
  r.max_rel = -1;
  for (int64_t i = 0; i < r.elements; ++i) {
    const double o = out.Get(i), g = golden.Get(i);
    WorstElement e;
    e.index = i;
    e.out = o;
    e.golden = g;
    const bool finite = std::isfinite(o) && std::isfinite(g);
    if (finite) {
      e.abs_err = std::fabs(o - g);
      e.rel_err = Ratio(e.abs_err, std::fabs(g));
      e.ulp_known = true;
      // The golden rounded to OUT's dtype: what a perfect OUT would hold.
      e.ulp = UlpDistance(o, g, r.out_dtype);
      e.badness = rule.kind == CompareRule::kAscend
                      ? std::min(Ratio(e.abs_err, rule.atol), Ratio(e.rel_err, rule.rtol))
                      : Ratio(e.abs_err, rule.atol + rule.rtol * std::fabs(g));
      if (magnitude != nullptr) {
        e.bound = magnitude->Bound(i, o, g, r.out_dtype);
        const double by_bound = Ratio(e.abs_err, e.bound);
        r.magnitude_accepted += e.badness > 1 && by_bound <= 1;
        e.badness = std::min(e.badness, by_bound);
      }
      e.fails = e.badness > 1;
      ulp_sum += static_cast<double>(e.ulp);
      ++ulp_count;
      r.ulp_max = std::max(r.ulp_max, e.ulp);
      ++r.ulp_hist[e.ulp == 0 ? 0 : e.ulp == 1 ? 1 : e.ulp <= 4 ? 2 : 3];
    } else {
      const bool same = (std::isnan(o) && std::isnan(g)) || o == g;
      e.abs_err = e.rel_err = same ? 0 : kInf;
      e.badness = same ? 0 : kInf;
      e.fails = !same;
      r.non_finite_mismatches += !same;
    }
    r.mismatches += e.fails;
    if (e.abs_err > r.max_abs) {
      r.max_abs = e.abs_err;
      r.max_abs_index = i;
    }
    if (e.rel_err > r.max_rel) {
      r.max_rel = e.rel_err;
      r.max_rel_index = i;
    }
    if (worst_count > 0 && (heap.size() < worst_count || later(e, heap.top()))) {
      heap.push(e);
      if (heap.size() > worst_count) heap.pop();
    }
  }
  r.max_abs = std::max(r.max_abs, 0.0);
  r.max_rel = std::max(r.max_rel, 0.0);
  r.ulp_mean = ulp_count ? ulp_sum / static_cast<double>(ulp_count) : 0;
  while (!heap.empty()) {
    r.worst.push_back(heap.top());
    heap.pop();
  }
  std::reverse(r.worst.begin(), r.worst.end());
  return r;
}

}  // namespace lngrad::cli
