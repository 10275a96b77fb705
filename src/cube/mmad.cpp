// Mmad: C (L0C, NZ) = A (L0A, ZZ) x B (L0B, ZN) + the initial matrix, on the M pipe.
//
// Accumulation order (docs/ascendc_kernels.md, "The cube"): for each C element, the products of
// one K fractal (C0 elements: 16 half/bf16, 8 float, 32 int8, 64 int4) are summed in float in k
// order from 0, then that fractal's sum is added to the running value (initial C first) in k
// fractal order. Integer inputs sum exactly in int32 (wrapping).
#include <algorithm>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "cube_internal.h"
#include "mmad_simd.h"
#include "mmad_table.h"
#include "lngrad/half.h"

namespace lngrad::cube {
namespace {
using P = AscendC::TPosition;

// Mmad's m, n and k ranges: [0, 4095].
constexpr uint32_t kMaxMnk = 4095;

uint32_t CeilDiv(uint32_t a, uint32_t b) { return (a + b - 1) / b; }

float ToFloat(uint32_t raw, Elem e) {
  switch (e) {
    case Elem::kF16:
      return HalfBitsToFloat(static_cast<uint16_t>(raw));
    case Elem::kBf16:
      return aicore::detail::Bf16BitsToFloat(static_cast<uint16_t>(raw));
    default: {
      float f;
      std::memcpy(&f, &raw, 4);
      return f;
    }
  }
}

int32_t ToInt(uint32_t raw, Elem e) {
  switch (e) {
    case Elem::kS4:
      return (raw & 0x8u) != 0 ? static_cast<int32_t>(raw | 0xFFFFFFF0u)
                               : static_cast<int32_t>(raw);
    case Elem::kS8:
      return static_cast<int8_t>(raw);
    default:
      return static_cast<int32_t>(raw & 0xFFu);
  }
}

// The documented combinations (mmad_table.h): half/bf16/float -> float (A and B of one type),
// int8/uint8 -> int32 (A uint8 with B int8 too), int4 -> int32.
void CheckTypes(Elem a, Elem b, Elem out, bool mx, const char* api) {
  bool ok = false;
#define LNGRAD_MMAD_ROW(ra, rb, rc) ok = ok || (a == Elem::ra && b == Elem::rb && out == Elem::rc);
  if (mx) {
    LNGRAD_MMAD_MX_TYPES(LNGRAD_MMAD_ROW)
  } else {
    LNGRAD_MMAD_TYPES(LNGRAD_MMAD_ROW)
  }
#undef LNGRAD_MMAD_ROW
  if (!ok) {
    Raise(checks::kType, api,
          std::string("A ") + ElemName(a) + ", B " + ElemName(b) + " -> C " + ElemName(out) +
              " is not a documented type combination");
  }
}

struct Geometry {
  uint32_t c0;      // elements per fractal row (32 bytes)
  uint32_t mb, nb;  // 16-row and 16-column blocks
  uint32_t ka, kb;  // K fractals of A (per m block) and of B
  bool a_nz;        // A in L0A as NZ (the 950: m blocks inner), else ZZ (k fractals inner)
  bool gemv;        // A is one row, k contiguous
};

Geometry GeometryOf(const AscendC::MmadParams& p, Elem a) {
  const uint32_t bits = ElemBits(a);
  const bool nz = IsRegBaseArch(aicore::CurrentBlockProduct().arch);
  Geometry g{256 / bits, CeilDiv(p.m, 16), CeilDiv(p.n, 16), 0, 0, nz, false};
  g.kb = CeilDiv(p.k, g.c0);
  g.ka = (p.kDirectionAlign && a == Elem::kF32) ? CeilDiv(p.k, 16) * 2 : g.kb;
  return g;
}

// The element indices of A's (m, k) in L0A and B's (k, n) in L0B (bits: the element's size).
uint64_t AIndex(const Geometry& g, uint32_t m, uint32_t k, uint32_t bits) {
  if (g.gemv) return k;
  const uint64_t frac =
      g.a_nz ? uint64_t{k / g.c0} * g.mb + m / 16 : uint64_t{m / 16} * g.ka + k / g.c0;
  return frac * (4096 / bits) + (m % 16) * g.c0 + k % g.c0;
}
uint64_t BIndex(const Geometry& g, uint32_t k, uint32_t n, uint32_t bits) {
  return (uint64_t{k / g.c0} * g.nb + n / 16) * (4096 / bits) + (n % 16) * g.c0 + k % g.c0;
}
// The bytes up to the last element read (its largest index: m, n and k at their ends). The
// vendor's samples size L0 tensors by the elements, not by whole fractals.
uint64_t ReadBytes(uint64_t last_index, uint32_t bits) { return ((last_index + 1) * bits + 7) / 8; }

void CheckMmad(const View& c, const View& a, const View& b, const AscendC::MmadParams& p,
               const Geometry& g, uint32_t abits, uint32_t bbits, const char* api) {
  RequirePosition(c, api, "dst", {P::CO1});
  RequirePosition(a, api, "fm", {P::A2});
  RequirePosition(b, api, "filter", {P::B2});
  RequireAligned(a, api, "fm", kFractalBytes);
  RequireAligned(b, api, "filter", kFractalBytes);
  RequireAligned(c, api, "dst", 1024);
  if (p.m > kMaxMnk || p.n > kMaxMnk || p.k > kMaxMnk) {
    Raise(checks::kParams, api,
          "m " + std::to_string(p.m) + ", n " + std::to_string(p.n) + ", k " + std::to_string(p.k) +
              ": each must be in [0, 4095]");
  }
  if (p.m == 0 || p.n == 0 || p.k == 0) return;
  RequireRange(a, api, "fm", 0, ReadBytes(AIndex(g, p.m - 1, p.k - 1, abits), abits));
  RequireRange(b, api, "filter", 0, ReadBytes(BIndex(g, p.k - 1, p.n - 1, bbits), bbits));
  // Mmad writes whole 16 x 16 blocks of n columns (the vendor's mmad sample pads n past its CO1
  // tensor; RequireRange bounds L0 accesses by the buffer).
  RequireRange(c, api, "dst", 0, uint64_t{g.mb} * g.nb * 256 * 4);
}

struct Operands {
  const std::byte* a;
  const std::byte* b;
  std::byte* c;
  const std::byte* init;  // per-column initial values (BiasTable), or nullptr
  bool from_c;            // accumulate onto L0C
  // MmadMx: A's and B's e8m0 scales (their L0A_MX/L0B_MX bytes, MxScaleIndex), else nullptr.
  const std::byte* scale_a = nullptr;
  const std::byte* scale_b = nullptr;
};

uint64_t CIndex(const Geometry& g, uint32_t m, uint32_t n) {
  return (uint64_t{n / 16} * g.mb + m / 16) * 256 + (m % 16) * 16 + n % 16;
}

// count consecutive elements from element i0 of base (raw type U), as Acc through value, to
// out[j * stride].
template <typename Acc, typename U, typename F>
void DecodeRunOf(const std::byte* base, uint64_t i0, uint32_t count, Acc* out, size_t stride,
                 F value) {
  for (uint32_t j = 0; j < count; ++j) {
    U raw;
    std::memcpy(&raw, base + (i0 + j) * sizeof(U), sizeof(U));
    out[j * stride] = value(raw);
  }
}
// The element type is chosen once per run, not per element.
template <typename Acc>
void DecodeRun(const std::byte* base, uint64_t i0, uint32_t count, uint32_t bits, Elem e, Acc* out,
               size_t stride) {
  if constexpr (std::is_same_v<Acc, float>) {
    if (IsMxData(e) || e == Elem::kHif8) {  // the 8-bit floats: decoded one by one
      for (uint32_t j = 0; j < count; ++j)
        out[j * stride] = MxValue(e, GetBits(base, i0 + j, bits));
      return;
    }
    if (e == Elem::kF16) {
      return DecodeRunOf<Acc, uint16_t>(base, i0, count, out, stride, HalfBitsToFloat);
    }
    if (e == Elem::kBf16) {
      return DecodeRunOf<Acc, uint16_t>(base, i0, count, out, stride,
                                        aicore::detail::Bf16BitsToFloat);
    }
    if (stride == 1) {  // float to float in place: the bytes as they are
      std::memcpy(out, base + i0 * 4, size_t{count} * 4);
      return;
    }
    return DecodeRunOf<Acc, uint32_t>(base, i0, count, out, stride,
                                      [](uint32_t r) { return ToFloat(r, Elem::kF32); });
  } else {
    if (bits == 8) {
      return DecodeRunOf<Acc, uint8_t>(base, i0, count, out, stride,
                                       [e](uint8_t r) { return ToInt(r, e); });
    }
    for (uint32_t j = 0; j < count; ++j) out[j * stride] = ToInt(GetBits(base, i0 + j, bits), e);
  }
}

// A as m rows of k values and B as k rows of np values (zero past n), each K fractal's run of
// up to C0 elements at a time (contiguous in L0A and L0B).
// A half operand's first `count` elements widened to float at once (detail::HalfToFloat, exact),
// so that its runs are then read as float; other operands as they are.
const std::byte* Widened(const std::byte* base, uint64_t count, Elem* e, uint32_t* bits,
                         std::vector<float>* image) {
  if (*e != Elem::kF16) return base;
  image->resize(count);
  detail::HalfToFloat(base, count, image->data());
  *e = Elem::kF32;
  *bits = 32;
  return reinterpret_cast<const std::byte*>(image->data());
}

// MmadMx: each decoded value times its 32-value group's scale (a power of two: exact unless the
// product leaves float's range).
void ApplyScales(const Operands& o, const AscendC::MmadParams& p, uint32_t np, float* av,
                 float* bv) {
  for (uint32_t m = 0; m < p.m; ++m) {
    for (uint32_t k = 0; k < p.k; ++k) {
      av[size_t{m} * p.k + k] *=
          MxValue(Elem::kE8M0, static_cast<uint32_t>(o.scale_a[MxScaleIndex(m, k, p.k)]));
    }
  }
  for (uint32_t k = 0; k < p.k; ++k) {
    for (uint32_t n = 0; n < p.n; ++n) {
      bv[size_t{k} * np + n] *=
          MxValue(Elem::kE8M0, static_cast<uint32_t>(o.scale_b[MxScaleIndex(n, k, p.k)]));
    }
  }
}

// A whole fractal of float B (16 n rows of c0 k values from element `at`; k_left and n_left:
// the values left from its first k and n) as c0 rows of 16 values at dst, rows np apart; false
// where the fractal is not whole (the caller decodes its runs).
template <uint32_t C0>
void TransposeOf(const float* f, size_t np, float* dst) {
  for (uint32_t kk = 0; kk < C0; ++kk) {
    for (uint32_t nn = 0; nn < 16; ++nn) dst[kk * np + nn] = f[nn * C0 + kk];
  }
}
bool TransposeFractal(const std::byte* base, uint64_t at, uint32_t c0, uint32_t k_left,
                      uint32_t n_left, size_t np, float* dst) {
  if (k_left < c0 || n_left < 16) return false;
  const auto* f = reinterpret_cast<const float*>(base) + at;
  if (c0 == 16) {
    TransposeOf<16>(f, np, dst);
  } else {
    TransposeOf<8>(f, np, dst);
  }
  return true;
}

template <typename Acc>
void Decode(const Operands& o, const Geometry& g, const AscendC::MmadParams& p, Elem a, Elem b,
            uint32_t np, std::vector<Acc>* av, std::vector<Acc>* bv) {
  uint32_t abits = ElemBits(a), bbits = ElemBits(b);
  // The element indices are the stored type's: take them before widening.
  const uint64_t a_count = AIndex(g, p.m - 1, p.k - 1, abits) + 1;
  const uint64_t b_count = BIndex(g, p.k - 1, p.n - 1, bbits) + 1;
  const uint32_t a_stored = abits, b_stored = bbits;
  // Half B of whole fractals: each widened and transposed at once (HalfFractalToRows).
  const bool half_b = b == Elem::kF16 && p.k % g.c0 == 0 && p.n % 16 == 0;
  thread_local std::vector<float> a_image, b_image;
  const std::byte* pa = Widened(o.a, a_count, &a, &abits, &a_image);
  const std::byte* pb = half_b ? o.b : Widened(o.b, b_count, &b, &bbits, &b_image);
  for (uint32_t m = 0; m < p.m; ++m) {
    for (uint32_t k0 = 0; k0 < p.k; k0 += g.c0) {
      DecodeRun(pa, AIndex(g, m, k0, a_stored), std::min(g.c0, p.k - k0), abits, a,
                av->data() + size_t{m} * p.k + k0, 1);
    }
  }
  for (uint32_t k0 = 0; k0 < p.k; k0 += g.c0) {
    for (uint32_t n0 = 0; n0 < p.n; n0 += 16) {
      Acc* dst = bv->data() + size_t{k0} * np + n0;
      const uint64_t at = BIndex(g, k0, n0, b_stored);
      if constexpr (std::is_same_v<Acc, float>) {
        if (half_b) {
          detail::HalfFractalToRows(o.b + at * 2, dst, np);
          continue;
        }
        if (b == Elem::kF32 && TransposeFractal(pb, at, g.c0, p.k - k0, p.n - n0, np, dst)) {
          continue;
        }
      }
      for (uint32_t n = n0; n < std::min<uint32_t>(p.n, n0 + 16); ++n) {
        DecodeRun(pb, at + (n - n0) * g.c0, std::min(g.c0, p.k - k0), bbits, b, dst + (n - n0), np);
      }
    }
  }
  if constexpr (std::is_same_v<Acc, float>) {
    if (o.scale_a != nullptr) ApplyScales(o, p, np, av->data(), bv->data());
  }
}

// count (at most 16) values of one row of an L0C block: a whole row as one fixed-size copy.
template <typename Acc>
void CopyBlockRow(Acc* dst, const Acc* src, uint32_t count) {
  if (count == 16) {
    std::memcpy(dst, src, 16 * sizeof(Acc));
  } else {
    std::memcpy(dst, src, count * sizeof(Acc));
  }
}

// C's initial values for rows [0, m) into dst as lay places them: the bias row, zeros, or
// L0C's own values (nothing to do where dst is L0C itself).
template <typename Acc>
void InitialC(const Operands& o, const Geometry& g, const AscendC::MmadParams& p, Acc* dst,
              const detail::CLayout& lay) {
  const auto* c = reinterpret_cast<const Acc*>(o.c);
  if (o.from_c && lay.blocks != 0) return;
  for (uint32_t m = 0; m < p.m; ++m) {
    for (uint32_t n0 = 0; n0 < p.n; n0 += 16) {
      const uint32_t count = std::min<uint32_t>(16, p.n - n0);
      Acc* row = dst + lay.At(m, n0);
      if (o.from_c) {
        CopyBlockRow(row, c + CIndex(g, m, n0), count);
      } else if (o.init != nullptr) {
        std::memcpy(row, o.init + uint64_t{n0} * 4, count * sizeof(Acc));
      } else {
        std::fill_n(row, count, Acc{});
      }
    }
  }
}

// Every C element: the initial value, then each K fractal's sum (in k order, from 0) added in
// k order. The operands are decoded once into rows (A: m x k, B: k x n padded to 16 columns)
// and the products summed by MmadRowsF32/S32 (mmad_simd.cpp), lanes across n: each lane does
// the scalar order's operations in that order. Where n is a multiple of 16 (no padding lanes)
// the sums go straight into L0C (its NZ blocks' rows are the lanes' runs); else into rows of
// np values, copied into L0C after.
template <typename Acc>
void Run(const Operands& o, const Geometry& g, const AscendC::MmadParams& p, Elem a, Elem b) {
  const uint32_t np = g.nb * 16;
  const bool in_place = p.n == np;
  const detail::CLayout lay{np, in_place ? g.mb : 0};
  thread_local std::vector<Acc> av, bv, cv;
  av.resize(size_t{p.m} * p.k);
  bv.resize(size_t{p.k} * np);
  if (!in_place) cv.resize(size_t{p.m} * np);
  // The padding columns [n, np) take part in the lanes: zero them (the others are written).
  for (uint32_t k = 0; k < p.k && !in_place; ++k)
    std::fill(bv.begin() + size_t{k} * np + p.n, bv.begin() + size_t{k + 1} * np, Acc{});
  for (uint32_t m = 0; m < p.m && !in_place; ++m)
    std::fill(cv.begin() + size_t{m} * np + p.n, cv.begin() + size_t{m + 1} * np, Acc{});
  Decode(o, g, p, a, b, np, &av, &bv);
  auto* c = reinterpret_cast<Acc*>(o.c);
  Acc* sums = in_place ? c : cv.data();
  InitialC(o, g, p, sums, lay);
  if constexpr (std::is_same_v<Acc, float>) {
    // half x half is exact in float (22 significant bits, exponents from -48 to 32); bfloat16
    // products can fall below float's subnormals, and float products round.
    const bool exact = a == Elem::kF16 && b == Elem::kF16;
    detail::MmadRowsF32(av.data(), bv.data(), sums, lay, p.m, p.k, g.c0, exact);
  } else {
    detail::MmadRowsS32(av.data(), bv.data(), sums, lay, p.m, p.k, g.c0);
  }
  for (uint32_t m = 0; m < p.m && !in_place; ++m) {
    for (uint32_t n0 = 0; n0 < p.n; n0 += 16) {
      CopyBlockRow(c + CIndex(g, m, n0), cv.data() + size_t{m} * np + n0,
                   std::min<uint32_t>(16, p.n - n0));
    }
  }
}

// The BiasTable's bytes from address 0 (cmatrixSource without a bias tensor).
const std::byte* BiasTableStart(uint32_t n, const char* api) {
  aicore::BlockContext& ctx = aicore::RequireBlockContext(api);
  const aicore::LocalMemory bt = aicore::MemoryOf(ctx, P::C2, api);
  if (uint64_t{n} * 4 > bt.capacity) {
    Raise(checks::kBounds, api, "n " + std::to_string(n) + " values of 4 B exceed the BiasTable");
  }
  return bt.base;
}

// The initial matrix of C: a bias tensor, the BiasTable (cmatrixSource), L0C or zero.
void SetInitial(Operands* o, const View* bias, const AscendC::MmadParams& p, const char* api) {
  if (bias != nullptr) {
    RequirePosition(*bias, api, "bias", {P::C2});
    RequireRange(*bias, api, "bias", 0, uint64_t{p.n} * 4);
    o->init = bias->ptr;
  } else if (!p.cmatrixInitVal) {
    if (p.cmatrixSource) {
      o->init = BiasTableStart(p.n, api);
    } else {
      o->from_c = true;
    }
  }
}

// Mmad and MmadMx after their own checks (o: the operands, the scales of MmadMx).
void ComputeBody(const char* api, const View& c, const View& a, const View& b, Operands o,
                 const AscendC::MmadParams& p, const Geometry& g, Elem a_elem, Elem b_elem,
                 Elem out, aicore::SrcLoc loc) {
  const uint32_t abits = ElemBits(a_elem), bbits = ElemBits(b_elem);
  aicore::san::Instr in(aicore::Pipe::kM, api, loc);
  if (in) {
    in.Read(a.ptr, ReadBytes(AIndex(g, p.m - 1, p.k - 1, abits), abits));
    in.Read(b.ptr, ReadBytes(BIndex(g, p.k - 1, p.n - 1, bbits), bbits));
    if (o.init != nullptr) in.Read(o.init, uint64_t{p.n} * 4);
    if (o.from_c) in.Read(c.ptr, uint64_t{g.mb} * g.nb * 1024);
    in.Write(c.ptr, uint64_t{g.mb} * g.nb * 1024);
  }
  if (out == Elem::kF32) {
    Run<float>(o, g, p, a_elem, b_elem);
  } else {
    Run<int32_t>(o, g, p, a_elem, b_elem);
  }
}

// ComputeBody between the unit flags' waits and signals (UnitFlagKey).
void Compute(const char* api, const View& c, const View& a, const View& b, Operands o,
             const AscendC::MmadParams& p, const Geometry& g, Elem a_elem, Elem b_elem, Elem out,
             aicore::SrcLoc loc) {
  if (p.unitFlag >= 2) aicore::san::QueueWait(UnitFlagKey(), 0, true);
  ComputeBody(api, c, a, b, o, p, g, a_elem, b_elem, out, loc);
  if (p.unitFlag == 3) {
    aicore::san::QueueSignal(UnitFlagKey(), 0, false, AscendC::HardEvent::M_FIX);
  }
}

// The scales of an MmadMx operand: its MX buffer from the L0 address / 16, blocks 16-row blocks.
const std::byte* MxOperandScales(const View& l0, uint32_t blocks, uint32_t k, const char* api,
                                 const char* operand) {
  uint64_t base = 0;
  const std::byte* mx = MxScales(l0, api, &base);
  const uint64_t end = base + uint64_t{blocks} * (k / 64) * 32;
  if (end > kMxBytes) {
    Raise(checks::kBounds, api,
          std::string(operand) + "'s scales end at byte " + std::to_string(end) +
              " of its 4 KiB MX buffer (the L0 address / 16 is " + std::to_string(base) + ")");
  }
  return mx + base;
}

}  // namespace

void Mmad(const View& c, const View& a, const View& b, const View* bias,
          const AscendC::MmadParams& p, bool gemv, Elem a_elem, Elem b_elem, Elem out,
          aicore::SrcLoc loc) {
  constexpr const char* kApi = "Mmad";
  CheckTypes(a_elem, b_elem, out, false, kApi);
  Geometry g = GeometryOf(p, a_elem);
  g.gemv = gemv;
  CheckMmad(c, a, b, p, g, ElemBits(a_elem), ElemBits(b_elem), kApi);
  if (p.m == 0 || p.n == 0 || p.k == 0) return;  // a NOP
  Operands o{a.ptr, b.ptr, Mutable(c), nullptr, false};
  SetInitial(&o, bias, p, kApi);
  Compute(kApi, c, a, b, o, p, g, a_elem, b_elem, out, loc);
}

void MmadMx(const View& c, const View& a, const View& b, const View* bias,
            const AscendC::MmadParams& p, Elem a_elem, Elem b_elem, Elem out, aicore::SrcLoc loc) {
  constexpr const char* kApi = "MmadMx";
  CheckTypes(a_elem, b_elem, out, true, kApi);
  const Geometry g = GeometryOf(p, a_elem);
  const uint32_t align = ElemBits(a_elem) == 4 ? 512 : 1024;
  RequireAligned(a, kApi, "fm", align);
  RequireAligned(b, kApi, "filter", align);
  CheckMmad(c, a, b, p, g, ElemBits(a_elem), ElemBits(b_elem), kApi);
  if (p.k % 64 != 0) {
    Raise(checks::kParams, kApi, "k " + std::to_string(p.k) + " must be a multiple of 64");
  }
  if (p.m == 0 || p.n == 0 || p.k == 0) return;  // a NOP
  Operands o{a.ptr, b.ptr, Mutable(c), nullptr, false};
  o.scale_a = MxOperandScales(a, g.mb, p.k, kApi, "fm");
  o.scale_b = MxOperandScales(b, g.nb, p.k, kApi, "filter");
  SetInitial(&o, bias, p, kApi);
  Compute(kApi, c, a, b, o, p, g, a_elem, b_elem, out, loc);
}

}  // namespace lngrad::cube
