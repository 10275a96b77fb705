// The Matmul API's host tiling: lngrad's plan (MatmulTilingPlan) and the vendor-named classes
// that gather its request. The plan, its invariants and why: docs/ascendc_kernels.md, "The
// Matmul API".
#include "tiling/matmul/matmul_tiling.h"

#include <algorithm>
#include <string>

#include "../tiling_common.h"

namespace lngrad::tiling {
namespace {

int64_t CeilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }
int64_t AlignUp(int64_t a, int64_t b) { return CeilDiv(a, b) * b; }

// The cores' split of the shape: per-core extents and how many cores each direction uses.
struct Split {
  int64_t sm = 0, sn = 0, sk = 0;
  int64_t cores = 0;
};

// One direction's per-core extent over `dim` cores, aligned to `align` (never past the extent).
int64_t Piece(int64_t extent, int64_t dim, int64_t align) {
  return std::min(extent, AlignUp(CeilDiv(extent, dim), align));
}

Split SplitOf(const MatmulTilingRequest& r, int64_t md, int64_t nd, int64_t kd, int64_t kal) {
  Split s{Piece(r.m, md, 16), Piece(r.n, nd, 16), Piece(r.k, kd, kal), 0};
  s.cores = CeilDiv(r.m, s.sm) * CeilDiv(r.n, s.sn) * CeilDiv(r.k, s.sk);
  return s;
}

// Less work per core first, then less data per core, then fewer cores, then M split over more
// cores (the kit's samples that hard-code their offsets, 00_introduction's matmul_advanced_api,
// expect a square problem split along M).
bool Better(const Split& a, const Split& b) {
  const int64_t wa = a.sm * a.sn * a.sk, wb = b.sm * b.sn * b.sk;
  if (wa != wb) return wa < wb;
  const int64_t da = (a.sm + a.sn) * a.sk, db = (b.sm + b.sn) * b.sk;
  if (da != db) return da < db;
  if (a.cores != b.cores) return a.cores < b.cores;
  return a.sm < b.sm;
}

// Every (mDim, nDim, kDim) whose product fits the cores (kDim 1 unless split_k).
Split ChooseSplit(const MatmulTilingRequest& r, int64_t kal) {
  const int64_t cores = std::min<int64_t>(r.cores, 4096);
  Split best = SplitOf(r, 1, 1, 1, kal);
  // An operand in TSCM is whole in each core's L1: its M (N) is not split.
  const int64_t max_md = r.a_whole ? 1 : std::min(cores, CeilDiv(r.m, 16));
  const int64_t max_nd = r.b_whole ? 1 : CeilDiv(r.n, 16);
  for (int64_t md = 1; md <= max_md; ++md) {
    for (int64_t nd = 1; md * nd <= cores && nd <= max_nd; ++nd) {
      const int64_t kmax = r.split_k ? std::min(cores / (md * nd), CeilDiv(r.k, kal)) : 1;
      for (int64_t kd = 1; kd <= kmax; ++kd) {
        // K splits into equal pieces only: the kit's samples give no core a K tail.
        if (kd > 1 && (r.k % kd != 0 || (r.k / kd) % kal != 0)) continue;
        const Split s = SplitOf(r, md, nd, kd, kal);
        if (Better(s, best)) best = s;
      }
    }
  }
  return best;
}

Status Bad(const std::string& what) {
  return Status::InvalidArgument("[Matmul][GetTiling] " + what);
}

Status CheckRequest(const MatmulTilingRequest& r) {
  if (r.m <= 0 || r.n <= 0 || r.k <= 0) return Bad("m, n and k must be greater than 0");
  if (r.org_m < r.m || r.org_n < r.n || r.org_ka < r.k || r.org_kb < r.k) {
    return Bad("the original shape (SetOrgShape) is smaller than the shape (SetShape)");
  }
  if (r.a_bits == 0 || r.b_bits == 0 || r.a_bits != r.b_bits) {
    return Bad("A and B must be half, bfloat16, float, int8 or int4, of one size");
  }
  if (r.cores < 1) return Bad("the core count (SetDim) must be at least 1");
  if (r.l0a == 0 || r.l0c == 0 || r.l1 == 0) return Bad("the product has no cube");
  return Status::Ok();
}

// baseM and baseN: 16-aligned, at most 128 x 256, within L0C and (with a bias) the BiasTable.
Status ChooseBaseMn(const MatmulTilingRequest& r, const Split& s, int64_t* bm, int64_t* bn) {
  *bm = r.fix_base[0] > 0 ? r.fix_base[0] : std::min<int64_t>(AlignUp(s.sm, 16), 128);
  *bn = r.fix_base[1] > 0 ? r.fix_base[1] : std::min<int64_t>(AlignUp(s.sn, 16), 256);
  if (r.bias && r.fix_base[1] <= 0) *bn = std::min<int64_t>(*bn, r.bt / 4 / 16 * 16);
  while (*bm * *bn * 4 > r.l0c && r.fix_base[0] <= 0 && r.fix_base[1] <= 0 && *bn > 16) {
    *bn = AlignUp(*bn / 2, 16);
  }
  if (*bm % 16 != 0 || *bn % 16 != 0 || *bm <= 0 || *bn <= 0) {
    return Bad("baseM and baseN must be multiples of 16");
  }
  if (*bm * *bn * 4 > r.l0c || (r.bias && *bn * 4 > r.bt)) {
    return Bad("baseM x baseN does not fit L0C (or baseN the BiasTable)");
  }
  return Status::Ok();
}

// baseK: a multiple of one K fractal (kal elements), half of L0A and of L0B at most.
Status ChooseBaseK(const MatmulTilingRequest& r, const Split& s, int64_t bm, int64_t bn,
                   int64_t kal, int64_t* bk) {
  const int64_t limit =
      std::min(int64_t{r.l0a} * 4 / (bm * r.a_bits), int64_t{r.l0b} * 4 / (bn * r.b_bits)) / kal *
      kal;
  *bk = r.fix_base[2] > 0 ? r.fix_base[2] : std::min(AlignUp(s.sk, kal), limit);
  if (*bk <= 0 || *bk % kal != 0) {
    return Bad("baseK must be a positive multiple of " + std::to_string(kal));
  }
  if (*bk * bm * r.a_bits > int64_t{r.l0a} * 8 || *bk * bn * r.b_bits > int64_t{r.l0b} * 8) {
    return Bad("the base blocks do not fit L0A and L0B");
  }
  return Status::Ok();
}

void Fill(const MatmulTilingRequest& r, const Split& s, const int64_t base[3], int64_t step,
          int64_t depth, AscendC::tiling::TCubeTiling& t) {
  t = {};
  t.usedCoreNum = static_cast<int32_t>(s.cores);
  t.M = r.org_m;
  t.N = r.org_n;
  t.Ka = r.org_ka;
  t.Kb = r.org_kb;
  t.singleCoreM = static_cast<int32_t>(s.sm);
  t.singleCoreN = static_cast<int32_t>(s.sn);
  t.singleCoreK = static_cast<int32_t>(s.sk);
  t.baseM = static_cast<int32_t>(base[0]);
  t.baseN = static_cast<int32_t>(base[1]);
  t.baseK = static_cast<int32_t>(base[2]);
  t.depthA1 = t.depthB1 = static_cast<int32_t>(depth);
  t.stepM = t.stepN = 1;
  t.stepKa = t.stepKb = static_cast<int32_t>(step);
  t.isBias = r.bias ? 1 : 0;
  t.iterateOrder = r.traverse_n ? 1 : 0;
  const int64_t kb = base[2] * (base[0] * r.a_bits + base[1] * r.b_bits) / 8;
  t.shareL1Size = static_cast<int32_t>(depth * kb + (r.bias ? base[1] * 4 : 0));
  t.shareL0CSize = static_cast<int32_t>(base[0] * base[1] * 4);
  t.dbL0A = t.dbL0B = 2;
  t.dbL0C = 1;
}

}  // namespace

Status MatmulTilingPlan(const MatmulTilingRequest& r, AscendC::tiling::TCubeTiling* out) {
  if (Status st = CheckRequest(r); !st.ok()) return st;
  const int64_t kal = 256 / r.a_bits;  // one K fractal: 32 bytes of A
  Split s = ChooseSplit(r, kal);
  if (r.fix_single[0] > 0 || r.fix_single[1] > 0 || r.fix_single[2] > 0) {
    s.sm = r.fix_single[0] > 0 ? r.fix_single[0] : s.sm;
    s.sn = r.fix_single[1] > 0 ? r.fix_single[1] : s.sn;
    s.sk = r.fix_single[2] > 0 ? r.fix_single[2] : s.sk;
    s.cores = CeilDiv(r.m, s.sm) * CeilDiv(r.n, s.sn) * CeilDiv(r.k, s.sk);
    // More pieces than cores: each core loops over several (the kit's L2-cache tilings).
    s.cores = std::min<int64_t>(s.cores, r.cores);
  }
  int64_t base[3] = {0, 0, 0};
  if (Status st = ChooseBaseMn(r, s, &base[0], &base[1]); !st.ok()) return st;
  if (Status st = ChooseBaseK(r, s, base[0], base[1], kal, &base[2]); !st.ok()) return st;
  // L1: depth base blocks of A and of B (double-buffered steps when they fit) and the bias.
  const int64_t per_k = base[2] * (base[0] * r.a_bits + base[1] * r.b_bits) / 8;
  const int64_t bias = r.bias ? base[1] * 4 : 0;
  for (int64_t step = std::min<int64_t>(CeilDiv(s.sk, base[2]), 8); step >= 1; --step) {
    for (int64_t depth : {2 * step, step}) {
      if (depth * per_k + bias <= r.l1) {
        Fill(r, s, base, step, depth, *out);
        return Status::Ok();
      }
    }
  }
  return Bad("one base block of A and of B does not fit the L1");
}

}  // namespace lngrad::tiling
