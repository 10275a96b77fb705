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

using Split = CoreSplit;

Status Bad(const std::string& what) {
  return Status::InvalidArgument("[Matmul][GetTiling] " + what);
}

Status CheckRequest(const MatmulTilingRequest& r) {
  if (r.m <= 0 || r.n <= 0 || r.k <= 0) return Bad("m, n and k must be greater than 0");
  if (r.org_m < r.m || r.org_n < r.n || r.org_ka < r.k || r.org_kb < r.k) {
    return Bad("the original shape (SetOrgShape) is smaller than the shape (SetShape)");
  }
  if (r.a_bits == 0 || r.b_bits == 0 || r.a_bits != r.b_bits) {
    return Bad("A and B must be half, bfloat16, float, int8, int4, fp8 or fp4, of one size");
  }
  if (r.cores < 1) return Bad("the core count (SetDim) must be at least 1");
  if (r.l0a == 0 || r.l0c == 0 || r.l1 == 0) return Bad("the product has no cube");
  return Status::Ok();
}

// baseM and baseN: 16-aligned, at most 128 x 256, within L0C and (with a bias) the BiasTable.
Status ChooseBaseMn(const MatmulTilingRequest& r, const Split& s, int64_t* bm, int64_t* bn) {
  *bm = r.fix_base[0] > 0 ? r.fix_base[0] : std::min<int64_t>(AlignUp(s.m, 16), 128);
  *bn = r.fix_base[1] > 0 ? r.fix_base[1] : std::min<int64_t>(AlignUp(s.n, 16), 256);
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
  *bk = r.fix_base[2] > 0 ? r.fix_base[2] : std::min(AlignUp(s.k, kal), limit);
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
  t.singleCoreM = static_cast<int32_t>(s.m);
  t.singleCoreN = static_cast<int32_t>(s.n);
  t.singleCoreK = static_cast<int32_t>(s.k);
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
  Split s;
  if (Status st = VendorCoreSplit(r, &s); !st.ok()) return st;
  if (r.fix_single[0] > 0 || r.fix_single[1] > 0 || r.fix_single[2] > 0) {
    s.m = r.fix_single[0] > 0 ? r.fix_single[0] : s.m;
    s.n = r.fix_single[1] > 0 ? r.fix_single[1] : s.n;
    s.k = r.fix_single[2] > 0 ? r.fix_single[2] : s.k;
    s.cores = CeilDiv(r.m, s.m) * CeilDiv(r.n, s.n) * CeilDiv(r.k, s.k);
    // More pieces than cores: each core loops over several (the kit's L2-cache tilings).
    s.cores = std::min<int64_t>(s.cores, r.cores);
  }
  int64_t base[3] = {0, 0, 0};
  if (Status st = ChooseBaseMn(r, s, &base[0], &base[1]); !st.ok()) return st;
  if (Status st = ChooseBaseK(r, s, base[0], base[1], kal, &base[2]); !st.ok()) return st;
  // L1: depth base blocks of A and of B (double-buffered steps when they fit) and the bias.
  const int64_t per_k = base[2] * (base[0] * r.a_bits + base[1] * r.b_bits) / 8;
  const int64_t bias = r.bias ? base[1] * 4 : 0;
  for (int64_t step = std::min<int64_t>(CeilDiv(s.k, base[2]), 8); step >= 1; --step) {
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
