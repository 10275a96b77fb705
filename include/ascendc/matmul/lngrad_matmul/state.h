// lngrad Ascend C Matmul: the non-template pieces of AscendC::Matmul's state (layer matmul, issue
// 29): the tiling's shape, the operands as set, the block cursor, the 950's split of a block
// between its AIVs and the batch layouts' geometry (lngrad_matmul/matmul.h uses them).
#pragma once

#include <algorithm>
#include <cstdint>

#include "lngrad_matmul/config.h"
#include "lngrad_matmul/engine.h"
namespace lngrad::matmul {

constexpr Fmt FmtOf(CubeFormat f) {
  return f == CubeFormat::NZ             ? Fmt::kNz
         : f == CubeFormat::ND_ALIGN     ? Fmt::kNdAlign
         : f == CubeFormat::COLUMN_MAJOR ? Fmt::kColumn
                                         : Fmt::kNd;
}
// The MatmulConfig a Matmul's configuration parameter names: a MatmulConfig, or a constant
// tiling's (MatmulApiStaticTiling::cfg).
template <class C>
constexpr const MatmulConfig& ConfigOf(const C& c) {
  if constexpr (requires { c.cfg; }) {
    return c.cfg;
  } else {
    return c;
  }
}
inline uint32_t AlignUp(uint32_t a, uint32_t b) { return (a + b - 1) / b * b; }
inline uint32_t CeilDiv(uint32_t a, uint32_t b) { return (a + b - 1) / b; }

// The tiling fields a Matmul runs from (TCubeTiling's, or SetOrgShape/SetSingleShape/SetTail's).
struct Shape {
  uint32_t org_m = 0, org_n = 0, org_ka = 0, org_kb = 0;
  uint32_t single_m = 0, single_n = 0, single_k = 0;
  uint32_t base_m = 0, base_n = 0, base_k = 0;
  int32_t iterate_order = 0;
  bool bias = false;
  int32_t axes[3][5] = {};  // batch Matmul: A's, B's and C's layout axes (B, S, N, G, D)
};
template <class Tiling>
Shape ShapeOf(const Tiling& t) {
  Shape s;
  s.org_m = static_cast<uint32_t>(t.M);
  s.org_n = static_cast<uint32_t>(t.N);
  s.org_ka = static_cast<uint32_t>(t.Ka);
  s.org_kb = static_cast<uint32_t>(t.Kb);
  s.single_m = static_cast<uint32_t>(t.singleCoreM);
  s.single_n = static_cast<uint32_t>(t.singleCoreN);
  s.single_k = static_cast<uint32_t>(t.singleCoreK);
  s.base_m = static_cast<uint32_t>(t.baseM);
  s.base_n = static_cast<uint32_t>(t.baseN);
  s.base_k = static_cast<uint32_t>(t.baseK);
  s.iterate_order = t.iterateOrder;
  s.bias = t.isBias != 0;
  if constexpr (requires { t.ALayoutInfoB; }) {
    const int32_t axes[3][5] = {
        {t.ALayoutInfoB, t.ALayoutInfoS, t.ALayoutInfoN, t.ALayoutInfoG, t.ALayoutInfoD},
        {t.BLayoutInfoB, t.BLayoutInfoS, t.BLayoutInfoN, t.BLayoutInfoG, t.BLayoutInfoD},
        {t.CLayoutInfoB, t.CLayoutInfoS1, t.CLayoutInfoN, t.CLayoutInfoG, t.CLayoutInfoS2}};
    std::copy(&axes[0][0], &axes[0][0] + 15, &s.axes[0][0]);
  }
  return s;
}
// One matrix of a batch Matmul in its layout: where batch q's matrix starts and its stored
// rows' pitch (0: from its shape). Batch q counts (b, n, g) with g fastest. NORMAL (and NONE):
// matrices `elems` apart (or `user_stride`); BSNGD: q's (n, g) D apart within rows of N*G*D
// elements, its b S*N*G*D apart; SBNGD: the same in rows of B*N*G*D, b N*G*D apart; BNGS1S2:
// matrices S*D apart in rows of D.
struct BatchStep {
  uint64_t stride = 0, ld = 0;
  uint64_t groups = 0, group_stride = 0;  // N*G batches to a b, and the b's stride
  uint64_t Offset(uint64_t q) const {
    return groups != 0 ? q / groups * group_stride + q % groups * stride : q * stride;
  }
};
BatchStep BatchStepOf(LayoutMode layout, const int32_t (&axes)[5], uint64_t elems,
                      uint32_t user_stride);
// The batch of A or B that batch c of C (of batch_c) takes: batches broadcast in blocks.
uint32_t BatchSource(uint32_t c, uint32_t batch_c, uint32_t batch, const char* api);
// Raises matmul.usage unless the tiling's blocks are usable and its shapes consistent.
void CheckShape(const Shape& s, const char* api);

// Whether the running block's product copies UB operands to L1 row by row from 32-byte blocks
// and moves L0C straight to UB (the 950).
bool UbRowsAligned();
// The running AIV's share of a base block of m rows split between the two AIVs of its AI core
// (a 1:2 kernel on the 950, SplitMMatmulPolicy or A and B both IBSHARE, C to UB): its first row
// and its rows; {0, m} elsewhere.
struct RowShare {
  uint32_t first = 0, rows = 0;
};
RowShare SplitMShare(uint32_t m);
// Whether the running core is AIV 1 of a 1:2 AI core of the 950: with A and B both IBSHARE its
// cube serves AIV 0's requests only, so AIV 1's writes of C to GM do not happen.
bool SecondAivOf950();
// A stored matrix's ld (elements between rows, or NZ rows per column block).
inline uint64_t LdOf(Fmt f, uint32_t rows, uint32_t cols) {
  return f == Fmt::kNz ? AlignUp(rows, 16) : cols;
}

// A or B as set: its first element and the elements from there (0: unknown); local: in a
// UB tensor, which holds the single-core shape only (a TSCM one holds the original shape).
struct Operand {
  const std::byte* data = nullptr;
  uint64_t elems = 0;
  bool local = false;
  uint64_t ld = 0;  // the stored rows' pitch when a batch layout sets it (0: from the shape)
  // The operand `elems_from` elements further on.
  Operand At(uint64_t elems_from, uint32_t elem_bytes) const {
    return {data + elems_from * elem_bytes, elems > elems_from ? elems - elems_from : 0, local, ld};
  }
};

// The iteration state: the current block of C among single_m x single_n.
struct Cursor {
  uint32_t m_iter = 0, n_iter = 0, index = 0;
  uint32_t mi = 0, ni = 0;
  bool started = false;
  bool Next(const Shape& s);
};

}  // namespace lngrad::matmul
