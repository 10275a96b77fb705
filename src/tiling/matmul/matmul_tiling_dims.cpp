// How MultiCoreMatmulTiling splits a Matmul over the cores: the vendor's multi-core search
// (its host tiling's GetDims and, for ScheduleType::N_BUFFER_33, its compute-intensity sort of the
// N splits), written for lngrad from the facts of the reference implementation: the candidate
// factors, the cost model (L1 load size, loops to L0, the "big package" rule), the tie-breaks and
// the single-core shapes that follow. The kit's kernels that hard-code their core offsets rely on
// this split. docs/ascendc_kernels.md, "The Matmul API", says what it keeps and leaves out.
#include <algorithm>
#include <climits>
#include <cmath>
#include <vector>

#include "tiling/matmul/matmul_tiling.h"

namespace lngrad::tiling {
namespace {

int64_t Ceil(int64_t a, int64_t b) { return b == 0 ? 0 : (a + b - 1) / b; }

// 16 .. 1024 onto the power of two at or above it (doubled when round_up); 1024 past that.
int32_t MapShape(int32_t shape, bool round_up) {
  if (shape < 16) return shape;
  int32_t seed = 16;
  while (seed < 1024 && !(seed < shape && 2 * seed >= shape)) seed *= 2;
  return round_up ? 2 * seed : seed;
}

// How many of start .. end divide `shape` (stopping past `shape`).
int32_t FactorCount(int32_t shape, int32_t start, int32_t end) {
  int32_t count = 0;
  for (int32_t i = start; i <= end && i <= shape; ++i) count += shape % i == 0 ? 1 : 0;
  return count;
}

// The most divisors that one divisor of `shape` in start .. end has.
int32_t FactorLayerCount(int32_t shape, int32_t start, int32_t end) {
  int32_t most = 0;
  for (int32_t f = end; f >= start; --f) {
    if (shape % f == 0) most = std::max(most, FactorCount(f, 1, f + 1));
  }
  return most;
}

// Whether a per-core extent (in fractals) has enough divisors for the L0/L1 splits.
bool EnoughFactors(int32_t dim) {
  if (dim <= 8) return true;
  const int32_t l0 = FactorLayerCount(dim, 1, 64);
  const int32_t l1 = dim > 128 ? FactorLayerCount(dim, 65, 128) : 0;
  return !(l0 <= 2 || (dim > 128 && l0 + l1 <= 4));
}

// The per-core extent (in fractals) for `cores` cores: from ceil(ori / cores) toward
// ceil(mapped / cores), the first with enough divisors.
int32_t BestSingleCore(int32_t ori, int32_t mapped, int32_t cores, bool is_k) {
  if (is_k) return static_cast<int32_t>(Ceil(ori % cores == 0 ? ori : mapped, cores));
  if (cores == 1 && EnoughFactors(ori)) return ori;
  int32_t best = static_cast<int32_t>(Ceil(ori, cores));
  const int32_t target = static_cast<int32_t>(Ceil(mapped, cores));
  while (best != target) {
    if (EnoughFactors(best)) return best;
    best += best < target ? 1 : -1;
  }
  return best;
}

// The shape in fractals: M and N in 16 rows, K in 32 bytes of A.
struct Params {
  int32_t m32 = 1, n32 = 1, k32 = 1, m_mapped = 1, n_mapped = 1, k_mapped = 1;
};

Params ParamsOf(const MatmulTilingRequest& r) {
  Params p;
  p.m32 = static_cast<int32_t>(Ceil(r.m, 16));
  p.n32 = static_cast<int32_t>(Ceil(r.n, 16));
  p.k32 = static_cast<int32_t>(Ceil(r.k, 256 / r.a_bits));
  p.m_mapped = r.split_k ? p.m32 : MapShape(p.m32, true);
  p.n_mapped = r.split_k ? p.n32 : MapShape(p.n32, true);
  p.k_mapped = p.k32;
  if (r.split_k &&
      ((p.k32 > 64 && FactorCount(p.k32, 1, 64) <= 2) ||
       (p.k32 > 128 && FactorCount(p.k32, 1, 64) + FactorCount(p.k32, 65, 128) <= 4))) {
    p.k_mapped = MapShape(p.k32, false);
  }
  return p;
}

struct Factor {
  int32_t m = 1, n = 1, k = 1;
  int32_t Cores() const { return m * n * k; }
};

// The search's state: the best factors so far and what they cost.
struct Search {
  Factor best;
  int64_t min_load = INT_MAX;
  int32_t core_use = 1;
  int64_t loops = INT_MAX;
  bool big_package = false;
};

// One candidate's per-core extents in fractals.
struct Core {
  int32_t m = 1, n = 1, k = 1;
};

// The L1 load size of a candidate: A and B loaded once per core (or per L1 pass when they do
// not fit the L1), in fractal rows.
int64_t LoadSize(const Factor& f, const Core& c, const Params& p, int64_t kb, int64_t l1) {
  const int64_t n0 = std::min(16, c.n);
  const int64_t m0 = std::min<int64_t>(16, n0 == 0 ? 0 : std::min<int64_t>(c.m, 128 / n0));
  const int64_t k0 = (m0 != 0 && n0 != 0) ? std::min<int64_t>({64 / m0, 64 / n0, c.k}) : c.k;
  const int64_t frac = m0 * k0 * 512, nfrac = n0 * k0 * 512;  // k0 fractals of 16 x 32 bytes
  if ((c.m + n0 * 2) * kb <= l1 || (c.n + m0 * 2) * kb <= l1 || (c.m + c.n) * kb <= l1) {
    return int64_t{p.m32} * f.n + int64_t{p.n32} * f.m;
  }
  if ((n0 * kb + frac) * 2 > l1 && (m0 * kb + nfrac) * 2 > l1) {
    return p.m32 * Ceil(p.n32, n0) + p.n32 * Ceil(p.m32, m0);
  }
  if ((m0 + n0) * kb * 2 <= l1) {
    const int64_t m1 = Ceil(l1 - n0 * kb * 2, kb * 2 * m0) * m0;
    const int64_t n1 = Ceil(l1 - m0 * kb * 2, kb * 2 * n0) * n0;
    return std::min(int64_t{p.m32} * f.n + p.n32 * Ceil(p.m32, m1),
                    int64_t{p.n32} * f.m + p.m32 * Ceil(p.n32, n1));
  }
  int64_t load = INT_MAX;
  if (c.m * kb + nfrac * 2 <= l1 || m0 * kb * 2 + nfrac * 2 <= l1) {
    load = std::min(load, int64_t{p.m32} * f.n + p.n32 * Ceil(p.m32, m0));
  }
  if (c.n * kb + frac * 2 <= l1 || n0 * kb * 2 + frac * 2 <= l1) {
    load = std::min(load, int64_t{p.n32} * f.m + p.m32 * Ceil(p.n32, n0));
  }
  return load;
}

// Base-block loops from one core's extents down to L0 (a 16 x 16 x 64 estimate).
int64_t LoopsToL0(const Core& c) {
  int32_t n0 = std::min(16, c.n);
  int32_t m0 = std::min({c.m, 128 / n0, 64});
  n0 = std::min({c.n, 128 / m0, 64});
  m0 = std::min({c.m, 128 / n0, 64});
  const int32_t k0 = std::min({64 / m0, 64 / n0, c.k});
  return Ceil(c.m, m0) * Ceil(c.n, n0) * Ceil(c.k, k0);
}

// 2: a candidate may replace the best; 1 or 0: only by its cost (the "big package" rule: once
// the best gives each core at least 16 fractals of B's N, a candidate must earn its place).
int32_t PackageFlag(const MatmulTilingRequest& r, const Core& c, const Params& p, bool big) {
  if (r.b_trans && !r.a_trans) return 0;
  bool flag = true;
  if (!r.b_trans && p.n32 >= 16 && c.n < 16) flag = false;
  if (r.a_trans && p.m32 >= 16 && c.m < 16) flag = false;
  if (!big) return flag ? 2 : 0;
  return flag ? 0 : 1;
}

void Consider(const MatmulTilingRequest& r, const Params& p, const Factor& f, Search& s) {
  Core c{static_cast<int32_t>(Ceil(p.m32, f.m)), static_cast<int32_t>(Ceil(p.n32, f.n)),
         p.k32 / f.k};
  int64_t k_num = int64_t{p.k32} / f.k * 256;
  if (r.split_k && p.k_mapped != p.k32) {
    k_num = int64_t{p.k_mapped} / f.k * 2 * 256;
    c.k = p.k_mapped / f.k * 2;
  }
  int64_t load = LoadSize(f, c, p, k_num * 2, r.l1);
  if (r.split_k) load *= c.k;
  const int32_t flag = PackageFlag(r, c, p, s.big_package);
  const int64_t loops = LoopsToL0(c);
  const bool by_loops =
      flag == 0 && (loops < s.loops || (f.Cores() > s.core_use && loops == s.loops));
  const bool same_cores = !by_loops && f.Cores() == s.core_use;
  const bool by_load = same_cores && load < s.min_load;
  const bool by_spread = same_cores && load == s.min_load && s.best.n * s.best.m < f.m * f.n;
  if ((flag == 2 || by_loops || by_load || by_spread) && flag != 1) {
    s = {f, load, f.Cores(), loops,
         (r.b_trans || c.n >= 16) && (!r.a_trans || c.m >= 16) && f.Cores() > 1};
  }
}

// Small problems that fit L0 whole: one core per 32 fractals of M and of N.
bool MiniShape(const MatmulTilingRequest& r, const Params& p, Factor* out) {
  bool special = false;
  if (p.n32 > 32) special = special || (r.split_k && (p.n_mapped & 31) != 0);
  if (p.m32 > 32) special = special || (r.split_k && (p.m_mapped & 31) != 0);
  const int64_t l0ab = r.l0a / 512, l0c = r.l0c / 256 / 4;
  if (int64_t{p.n32} * p.m32 > r.cores || int64_t{p.m32} * p.k32 > l0ab ||
      int64_t{p.n32} * p.k32 > l0ab || int64_t{p.m32} * p.n32 > l0c || special) {
    return false;
  }
  const int32_t nd = p.n32 <= 32 ? 1 : p.n_mapped / 32, md = p.m32 <= 32 ? 1 : p.m_mapped / 32;
  int32_t kd = 1;
  if (p.k32 > 32 && r.split_k) {  // the smallest divisor of K above 1 within the cores
    kd = 0;
    for (int32_t up = 2; up <= r.cores && up <= p.k32 && kd == 0; ++up) kd = p.k32 % up ? 0 : up;
    kd = std::max(kd, 1);
  }
  const int64_t cn = nd == 1 ? p.n32 : Ceil(p.n_mapped, nd);
  const int64_t cm = md == 1 ? p.m32 : Ceil(p.m_mapped, md);
  const int64_t ck = kd == 1 ? p.k32 : Ceil(p.k_mapped, kd);
  *out = {static_cast<int32_t>(Ceil(p.m32, cm)), static_cast<int32_t>(Ceil(p.n32, cn)),
          static_cast<int32_t>(Ceil(p.k32, ck))};
  return true;
}

// 1 .. max that divide the extent, its mapped extent or the core count.
std::vector<int32_t> BlockFactors(int32_t ori, int32_t mapped, int32_t cores, int32_t max) {
  std::vector<int32_t> out;
  for (int32_t i = 1; i <= max; ++i) {
    if (ori % i == 0 || mapped % i == 0 || cores % i == 0) out.push_back(i);
  }
  return out;
}

void AddFactor(std::vector<int32_t>& v, int32_t f) {
  v.push_back(f);
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
}

Factor SearchDims(const MatmulTilingRequest& r, const Params& p) {
  const int32_t cores = r.cores;
  std::vector<int32_t> mf = BlockFactors(p.m32, p.m_mapped, cores, std::min(cores, p.m32));
  std::vector<int32_t> nf = BlockFactors(p.n32, p.n_mapped, cores, std::min(cores, p.n32));
  std::vector<int32_t> kf{1};
  if (r.split_k) kf = BlockFactors(p.k32, p.k_mapped, cores, cores);
  if (cores > 1) {  // the factors around the square-load optimum
    const float opt = std::sqrt((p.m32 + 0.0F) / p.n32 * cores);
    const auto md = static_cast<int32_t>(std::ceil(opt));
    const auto nd = static_cast<int32_t>(std::ceil(cores / opt));
    AddFactor(mf, md);
    AddFactor(mf, nd == 0 ? 1 : cores / nd);
    AddFactor(nf, nd);
    AddFactor(nf, md == 0 ? 1 : cores / md);
  }
  Search s;
  for (int32_t n : nf) {
    for (int32_t m : mf) {
      for (int32_t k : kf) {
        if (n <= 0 || m <= 0 || k <= 0 || int64_t{n} * m * k > cores) continue;
        if ((r.a_whole && m > 1) || (r.b_whole && n > 1)) continue;  // lngrad's TSCM rule
        Consider(r, p, {m, n, k}, s);
      }
    }
  }
  return s.best;
}

// GetDims: the factors, then per-core extents with enough divisors, then the cores they need.
Factor GeneralDims(const MatmulTilingRequest& r, const Params& p) {
  Factor mini;
  if (MiniShape(r, p, &mini)) return mini;
  const Factor f = SearchDims(r, p);
  int64_t cm = Ceil(p.m32, f.m), cn = Ceil(p.n32, f.n), ck = Ceil(p.k32, f.k);
  const int32_t n = BestSingleCore(p.n32, p.n_mapped, f.n, false);
  const int32_t m = BestSingleCore(p.m32, p.m_mapped, f.m, false);
  const int32_t k = BestSingleCore(p.k32, p.k_mapped, f.k, true);
  const int64_t need = Ceil(p.n32, n) * Ceil(p.m32, m) * Ceil(p.k32, k);
  if (need > 0 && need <= r.cores) {
    cm = m;
    cn = n;
    ck = k;
  }
  const auto dim = [&](int64_t extent, int64_t per) {
    return static_cast<int32_t>(std::min<int64_t>(Ceil(extent, per), r.cores));
  };
  return {dim(p.m32, cm), dim(p.n32, cn), r.split_k ? dim(p.k32, ck) : f.k};
}

// ceil(extent / factor), rounded up to `align` when asked and when that still needs `factor`
// pieces; `ok` says whether it was (or needed no rounding).
int64_t AlignedSingle(bool need, int64_t extent, int64_t factor, int64_t align, bool* ok) {
  const int64_t single = Ceil(extent, factor);
  *ok = true;
  if (!need || align == 0 || factor <= 1) return single;
  const int64_t aligned = Ceil(single, align) * align;
  if (aligned >= Ceil(extent, factor - 1)) {
    *ok = false;
    return single;
  }
  return aligned;
}

struct Intensity {
  int32_t n = 1;
  float cycles = 0, bytes = 0, intensity = 0, band = 0;
};

// The cube cycles and the bytes that one core's base blocks take, for the split (md, nd).
Intensity IntensityOf(const MatmulTilingRequest& r, const int64_t base[3], int32_t md, int32_t nd) {
  const int64_t a_align = 256 * 8 / r.a_bits, b_align = 256 * 8 / r.b_bits;
  bool ok_a = true, ok_b = true;
  const int64_t sm =
      AlignedSingle(r.a_trans && r.org_m % a_align == 0, r.org_m, md, a_align, &ok_a);
  const int64_t sn =
      AlignedSingle(!r.b_trans && r.org_n % b_align == 0, r.org_n, nd, b_align, &ok_b);
  const float ratio = ok_a && ok_b ? 1.0F : 2.0F;
  const float reduce = 256.0F / static_cast<float>(r.a_bits);
  Intensity in{nd};
  const auto add = [&](int64_t bm, int64_t bn, int64_t count) {
    if (count <= 0) return;
    in.cycles += static_cast<float>(bm * bn * base[2]) / (16 * 16 * reduce) * count;
    in.bytes += ratio *
                static_cast<float>(bm * base[2] * r.a_bits / 8 + bn * base[2] * r.b_bits / 8) *
                count;
  };
  const int64_t mm = sm / base[0], tm = sm % base[0], mn = sn / base[1], tn = sn % base[1];
  add(base[0], base[1], mm * mn);
  add(base[0], tn, tn > 0 ? mm : 0);
  add(tm, base[1], tm > 0 ? mn : 0);
  add(tm, tn, tm > 0 && tn > 0 ? 1 : 0);
  in.intensity = in.bytes > 0 ? in.cycles / in.bytes : 0;
  const float cores = static_cast<float>(r.cores);
  in.band = ((cores - md) * base[0] + (cores - nd) * base[1]) / ((base[0] + base[1]) * cores);
  return in;
}

// Higher intensity first; equal ones (within 1e-4): fewer cycles, and within 1 % of the cycles
// the higher band ratio.
bool Before(const Intensity& a, const Intensity& b) {
  if (std::fabs(a.intensity - b.intensity) > 1.0e-4F) return a.intensity > b.intensity;
  if (std::fabs(a.cycles - b.cycles) < 0.01F * b.cycles) return a.band > b.band;
  return a.cycles < b.cycles;
}

// ScheduleType::N_BUFFER_33: M in pieces of three base blocks, K whole (or in pieces of three
// with split K), N over the split whose base blocks keep the cube busiest.
Status NBuffer33Dims(const MatmulTilingRequest& r, Factor* out) {
  int64_t base[3] = {r.l0c == 262144 ? 256 : 128, 256, 128 * 8 / r.a_bits};
  if (r.fix_base[0] > 0) base[0] = r.fix_base[0];
  if (r.fix_base[1] > 0) base[1] = r.fix_base[1];
  if (r.a_trans && r.b_trans) {
    base[0] = r.fix_base[0] > 0 ? r.fix_base[0] : 256;
    base[1] = r.fix_base[1] > 0 ? r.fix_base[1] : 128;
  }
  Factor f{static_cast<int32_t>(Ceil(r.m, base[0] * 3)), 1, 1};
  if (r.split_k) {
    f.k = static_cast<int32_t>(Ceil(r.k, base[2] * 3));
  } else if (Ceil(r.k, base[2]) > 3) {
    return Status::InvalidArgument("[Matmul][GetTiling] N_BUFFER_33: K " + std::to_string(r.k) +
                                   " needs more than 3 " + "base blocks of " +
                                   std::to_string(base[2]) + " (EnableMultiCoreSplitK splits it)");
  }
  std::vector<Intensity> all{IntensityOf(r, base, f.m, 1)};
  const int64_t n_max = std::min<int64_t>(r.n / base[1], r.cores / (int64_t{f.m} * f.k));
  for (int32_t n = 2; n <= n_max + 1; ++n) all.push_back(IntensityOf(r, base, f.m, n));
  std::stable_sort(all.begin(), all.end(), Before);
  f.n = all.front().n;
  *out = f;
  return Status::Ok();
}

}  // namespace

Status VendorCoreSplit(const MatmulTilingRequest& r, CoreSplit* out) {
  const Params p = ParamsOf(r);
  Factor f;
  if (r.cores > 1 && r.n_buffer_33) {
    if (Status st = NBuffer33Dims(r, &f); !st.ok()) return st;
  } else if (r.cores > 1) {
    f = GeneralDims(r, p);
  }
  // lngrad keeps an operand in TSCM whole in each core's L1: its M (N) is not split (the search
  // above leaves out such splits; here for the mini shapes and N_BUFFER_33).
  if (r.a_whole) f.m = 1;
  if (r.b_whole) f.n = 1;
  // The single-core shape from the fractal-rounded extents (never past the extents themselves).
  const int64_t c_bits = 32;
  const bool nz = r.a_nz || r.b_nz;
  bool ok = true;
  int64_t sm = Ceil(r.m, f.m), sn = Ceil(r.n, f.n), sk = Ceil(r.k, f.k);
  if (r.cores > 1) {
    const bool out_align = sn * sm * 2 * c_bits > sn * sk * r.a_bits + sm * sk * r.b_bits;
    sn = AlignedSingle((nz && (!r.b_trans || out_align)) || r.c_nz, int64_t{p.n32} * 16, f.n,
                       256 * 8 / r.b_bits, &ok);
    sm = AlignedSingle((nz && r.a_trans) || r.c_nz, int64_t{p.m32} * 16, f.m, 256 * 8 / r.a_bits,
                       &ok);
    if (r.split_k) sk = Ceil(p.k32, f.k) * (256 / r.a_bits);
  }
  out->m = std::min<int64_t>(sm, r.m);
  out->n = std::min<int64_t>(sn, r.n);
  out->k = std::min<int64_t>(sk, r.k);
  out->cores = int64_t{f.m} * f.n * f.k;
  return Status::Ok();
}

}  // namespace lngrad::tiling
