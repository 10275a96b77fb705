// The Matmul engine: one base block of C through L0A, L0B, Mmad and L0C (lngrad_matmul/engine.h).
//
// K order: the block's K runs in slices of base_k (a multiple of one K fractal, C0 elements),
// each an Mmad onto L0C: the first from 0 (or the bias), the others accumulating. The cube sums
// each K fractal in k order and adds the fractal sums in k order, so the slices add up to the
// one order "fractal sums in k order from k = 0" whatever baseK, baseM or baseN: a tiling or a
// core split over M and N never changes a bit of C (docs/ascendc_kernels.md).
#include "lngrad_matmul/engine.h"

#include <algorithm>
#include <cstring>
#include <mutex>
#include <string>
#include <utility>

#include "lngrad/half.h"
#include "lngrad_aicore/atomic.h"
#include "lngrad_aicore/sanitizer.h"
#include "lngrad_cube/mx.h"
#include "lngrad_cube/transpose.h"

namespace lngrad::matmul {
namespace {

uint32_t CeilDiv(uint32_t a, uint32_t b) { return (a + b - 1) / b; }

// The stored element (r, c) of m, as raw bits.
uint32_t StoredAt(const Matrix& m, uint64_t r, uint64_t c, uint32_t bits) {
  const uint64_t c0 = 256 / bits;
  const uint64_t i = m.fmt == Fmt::kNz ? (c / c0) * m.ld * c0 + r * c0 + c % c0 : r * m.ld + c;
  uint32_t v = 0;
  std::memcpy(&v, m.data + i * (bits / 8), bits / 8);
  return v;
}
void Put(std::byte* base, uint64_t i, uint32_t bits, uint32_t v) {
  std::memcpy(base + i * (bits / 8), &v, bits / 8);
}

// Element (r, c) of m as stored, for elements of U (8, 16 or 32 bits; C0 = 32 bytes of them).
template <typename U>
U StoredOf(const Matrix& m, uint64_t r, uint64_t c) {
  constexpr uint64_t kC0 = 32 / sizeof(U);
  const uint64_t i = m.fmt == Fmt::kNz ? (c / kC0) * m.ld * kC0 + r * kC0 + c % kC0 : r * m.ld + c;
  U v;
  std::memcpy(&v, m.data + i * sizeof(U), sizeof(U));
  return v;
}
template <typename U>
U LogicalOf(const Matrix& m, uint64_t r, uint64_t c) {
  return m.trans ? StoredOf<U>(m, c, r) : StoredOf<U>(m, r, c);
}

// bytes (at most 32: one fractal row) from src to dst; a whole row as one fixed-size copy.
void CopyRun(std::byte* dst, const std::byte* src, size_t bytes) {
  if (bytes == 32) {
    std::memcpy(dst, src, 32);
  } else {
    std::memcpy(dst, src, bytes);
  }
}
// One whole fractal of B from its ND rows (C0 k rows from src, ld elements apart, 16 n values
// each) into its 16 n rows of C0 k values at dst.
template <typename U>
void TransposeToFractal(std::byte* dst, const std::byte* src, uint64_t ld) {
  constexpr uint32_t kC0 = 32 / sizeof(U);
  if constexpr (sizeof(U) == 2) {  // 16 x 16: the cube's Highway transpose
    cube::Transpose16x16(reinterpret_cast<const uint16_t*>(src), ld,
                         reinterpret_cast<uint16_t*>(dst), kC0);
  } else {
    U in[kC0][16];
    for (uint32_t j = 0; j < kC0; ++j) std::memcpy(in[j], src + j * ld * sizeof(U), sizeof(in[j]));
    U out[16][kC0];
    for (uint32_t i = 0; i < 16; ++i) {
      for (uint32_t j = 0; j < kC0; ++j) out[i][j] = in[j][i];
    }
    std::memcpy(dst, out, sizeof(out));
  }
}

// The rows of A a load asks the cache for ahead of copying them (each row's run lies in its own
// lines, ld elements apart, which the hardware's prefetchers do not follow).
constexpr uint32_t kRowsAhead = 8;
void PrefetchRun(const std::byte* p, uint64_t bytes) {
  for (uint64_t off = 0; off < bytes; off += 64) __builtin_prefetch(p + off);
}

// A's [m0, +m) x [k0, +k) into L0A in Mmad's layout (ZZ on Atlas A2/A3, NZ on the 950).
template <typename U>
void LoadAOf(std::byte* dst, const Matrix& a, uint32_t m0, uint32_t k0, uint32_t m, uint32_t k,
             bool nz) {
  constexpr uint32_t kC0 = 32 / sizeof(U), kFrac = 512 / sizeof(U);
  const uint32_t mb = CeilDiv(m, 16), kf = CeilDiv(k, kC0);
  const bool rows = !a.trans && a.fmt != Fmt::kNz;  // A's rows hold k contiguously
  for (uint32_t i = 0; i < m; ++i) {
    if (rows && i + kRowsAhead < m) {
      PrefetchRun(a.data + ((m0 + i + kRowsAhead) * a.ld + k0) * sizeof(U), k * sizeof(U));
    }
    for (uint32_t j = 0; j < k && rows; j += kC0) {
      const uint64_t frac = nz ? uint64_t{j / kC0} * mb + i / 16 : uint64_t{i / 16} * kf + j / kC0;
      CopyRun(dst + (frac * kFrac + (i % 16) * kC0) * sizeof(U),
              a.data + ((m0 + i) * a.ld + k0 + j) * sizeof(U), std::min(kC0, k - j) * sizeof(U));
    }
    for (uint32_t j = 0; j < k && !rows; ++j) {
      const uint64_t frac = nz ? uint64_t{j / kC0} * mb + i / 16 : uint64_t{i / 16} * kf + j / kC0;
      const U v = LogicalOf<U>(a, m0 + i, k0 + j);
      std::memcpy(dst + (frac * kFrac + (i % 16) * kC0 + j % kC0) * sizeof(U), &v, sizeof(U));
    }
  }
}
// B's [k0, +k) x [n0, +n) into L0B (fractals of 16 n-rows x C0 k-columns, n inner).
template <typename U>
void LoadBOf(std::byte* dst, const Matrix& b, uint32_t k0, uint32_t n0, uint32_t k, uint32_t n) {
  constexpr uint32_t kC0 = 32 / sizeof(U), kFrac = 512 / sizeof(U);
  const uint32_t nb = CeilDiv(n, 16);
  if (b.trans && b.fmt != Fmt::kNz) {  // B stored n x k: each column's k values contiguous
    for (uint32_t i = 0; i < n; ++i) {
      for (uint32_t j = 0; j < k; j += kC0) {
        const uint64_t frac = uint64_t{j / kC0} * nb + i / 16;
        std::memcpy(dst + (frac * kFrac + (i % 16) * kC0) * sizeof(U),
                    b.data + ((n0 + i) * b.ld + k0 + j) * sizeof(U),
                    std::min(kC0, k - j) * sizeof(U));
      }
    }
    return;
  }
  if (!b.trans && b.fmt != Fmt::kNz) {  // B's rows hold n contiguously: a transpose per fractal
    if (k % kC0 == 0 && n % 16 == 0) {
      for (uint32_t j = 0; j < k; j += kC0) {
        for (uint32_t i = 0; i < n; i += 16) {
          TransposeToFractal<U>(dst + (uint64_t{j / kC0} * nb + i / 16) * kFrac * sizeof(U),
                                b.data + ((k0 + j) * b.ld + n0 + i) * sizeof(U), b.ld);
        }
      }
      return;
    }
    for (uint32_t j = 0; j < k; ++j) {
      const std::byte* src = b.data + ((k0 + j) * b.ld + n0) * sizeof(U);
      std::byte* row = dst + (uint64_t{j / kC0} * nb * kFrac + j % kC0) * sizeof(U);
      for (uint32_t i = 0; i < n; ++i) {
        std::memcpy(row + (uint64_t{i / 16} * kFrac + (i % 16) * kC0) * sizeof(U),
                    src + uint64_t{i} * sizeof(U), sizeof(U));
      }
    }
    return;
  }
  for (uint32_t j = 0; j < k; ++j) {
    for (uint32_t i = 0; i < n; ++i) {
      const uint64_t frac = uint64_t{j / kC0} * nb + i / 16;
      const U v = LogicalOf<U>(b, k0 + j, n0 + i);
      std::memcpy(dst + (frac * kFrac + (i % 16) * kC0 + j % kC0) * sizeof(U), &v, sizeof(U));
    }
  }
}
// 4-bit elements, two to a byte (the even one in the low nibble), C0 = 64.
uint8_t NibbleAt(const std::byte* base, uint64_t i) {
  const auto b = std::to_integer<uint8_t>(base[i / 2]);
  return i % 2 == 0 ? b & 0xFu : b >> 4;
}
void PutNibble(std::byte* base, uint64_t i, uint8_t v) {
  const auto old = std::to_integer<uint8_t>(base[i / 2]);
  base[i / 2] = static_cast<std::byte>(i % 2 == 0 ? (old & 0xF0u) | (v & 0xFu)
                                                  : (old & 0x0Fu) | ((v & 0xFu) << 4));
}
uint8_t LogicalNibble(const Matrix& m, uint64_t r, uint64_t c) {
  if (m.trans) std::swap(r, c);
  return NibbleAt(m.data,
                  m.fmt == Fmt::kNz ? (c / 64) * m.ld * 64 + r * 64 + c % 64 : r * m.ld + c);
}
// A's (or B's, b_side) [r0, +rows) x [c0, +cols) into L0A (L0B) as LoadAOf (LoadBOf) places
// 8-bit and wider elements: fractals of 16 rows (B: n) x 64 K nibbles.
void Load4(std::byte* dst, const Matrix& x, uint32_t r0, uint32_t c0, uint32_t rows, uint32_t cols,
           bool nz, bool b_side) {
  const uint32_t blocks = CeilDiv(b_side ? cols : rows, 16), kf = CeilDiv(b_side ? rows : cols, 64);
  for (uint32_t r = 0; r < rows; ++r) {
    for (uint32_t c = 0; c < cols; ++c) {
      const uint32_t i = b_side ? c : r, j = b_side ? r : c;  // i: the M (N) row, j: k
      const uint64_t frac =
          nz || b_side ? uint64_t{j / 64} * blocks + i / 16 : uint64_t{i / 16} * kf + j / 64;
      PutNibble(dst, frac * 1024 + (i % 16) * 64 + j % 64, LogicalNibble(x, r0 + r, c0 + c));
    }
  }
}

void LoadA(const View& l0a, const Matrix& a, uint32_t m0, uint32_t k0, uint32_t m, uint32_t k) {
  const bool nz = IsRegBaseArch(aicore::CurrentBlockProduct().arch);
  auto* dst = const_cast<std::byte*>(l0a.ptr);
  switch (cube::ElemBits(a.elem)) {
    case 8:
      return LoadAOf<uint8_t>(dst, a, m0, k0, m, k, nz);
    case 16:
      return LoadAOf<uint16_t>(dst, a, m0, k0, m, k, nz);
    case 32:
      return LoadAOf<uint32_t>(dst, a, m0, k0, m, k, nz);
    default:
      return Load4(dst, a, m0, k0, m, k, nz, false);
  }
}
void LoadB(const View& l0b, const Matrix& b, uint32_t k0, uint32_t n0, uint32_t k, uint32_t n) {
  auto* dst = const_cast<std::byte*>(l0b.ptr);
  switch (cube::ElemBits(b.elem)) {
    case 8:
      return LoadBOf<uint8_t>(dst, b, k0, n0, k, n);
    case 16:
      return LoadBOf<uint16_t>(dst, b, k0, n0, k, n);
    case 32:
      return LoadBOf<uint32_t>(dst, b, k0, n0, k, n);
    default:
      return Load4(dst, b, k0, n0, k, n, false, true);
  }
}

float ToFloat(uint32_t raw, Elem e) {
  if (e == Elem::kF16) return HalfBitsToFloat(static_cast<uint16_t>(raw));
  if (e == Elem::kBf16) return aicore::detail::Bf16BitsToFloat(static_cast<uint16_t>(raw));
  float f;
  std::memcpy(&f, &raw, 4);
  return f;
}

// The bias row's n values from n0 into the BiasTable as the accumulator's type.
void LoadBias(const View& bt, const Matrix& bias, Elem acc, uint32_t n0, uint32_t n) {
  const uint32_t bits = cube::ElemBits(bias.elem);
  if (uint64_t{n} * 4 > bt.size_bytes) Fail("SetBias", "the bias block exceeds the BiasTable");
  auto* dst = const_cast<std::byte*>(bt.ptr);
  for (uint32_t i = 0; i < n; ++i) {
    const uint32_t raw = StoredAt(bias, 0, n0 + i, bits);
    if (acc == Elem::kF32) {
      const float f = ToFloat(raw, bias.elem);
      std::memcpy(dst + uint64_t{i} * 4, &f, 4);
    } else {
      std::memcpy(dst + uint64_t{i} * 4, &raw, 4);
    }
  }
}

// The scales of rows [r0, +rows) and K groups [g0, + kp / 32) into the L1 stage as the MX
// buffer's 32-byte fractals (16 rows x 2 groups, row blocks outer), then LoadData's MX form into
// the MX buffer of l0 (docs/ascendc_kernels.md, "The MX forms").
void LoadScales(const View& l0, const View& l1, const MxScale& s, uint32_t r0, uint32_t rows,
                uint32_t g0, uint32_t kp, aicore::SrcLoc loc) {
  const uint32_t rb = CeilDiv(rows, 16), kb = kp / 64;
  if (uint64_t{rb} * kb * 32 > l1.size_bytes)
    Fail("Iterate", "the block's MX scales exceed their L1 stage");
  auto* dst = const_cast<std::byte*>(l1.ptr);
  for (uint32_t f = 0; f < rb * kb; ++f) {
    for (uint32_t i = 0; i < 32; ++i) {
      const uint32_t r = f / kb * 16 + i / 2, g = g0 + f % kb * 2 + i % 2;
      dst[f * 32 + i] = std::byte{r < rows ? s.At(r0 + r, g) : uint8_t{127}};
    }
  }
  const AscendC::LoadData2DMxParams p(0, 0, static_cast<uint8_t>(rb), static_cast<uint8_t>(kb),
                                      static_cast<uint16_t>(kb), static_cast<uint16_t>(kb));
  cube::LoadMxScales(l0, l1, p, loc);
}

}  // namespace

uint8_t MxScale::At(uint64_t r, uint64_t g) const {
  if (data == nullptr || g >= groups) return 127;
  const uint64_t at = layout == MxLayout::kRows ? r * ld + g
                      : layout == MxLayout::kPairs
                          ? (g / 2 * ld + r) * 2 + g % 2
                          : ((r / 16 * (ld / 2) + g / 2) * 16 + r % 16) * 2 + g % 2;
  return std::to_integer<uint8_t>(data[at]);
}

void Fail(const char* api, const std::string& what) {
  aicore::RaiseKernelCheck("matmul.usage", std::string("Matmul::") + api + ": " + what);
}

void ComputeBlock(const Buffers& b, const Matrix& a, const Matrix& bmat, const Matrix* bias,
                  Elem acc, const Block& blk, aicore::SrcLoc loc, const SliceTile* tile_a,
                  const SliceTile* tile_b, const MxScales* mx) {
  if (bias != nullptr) LoadBias(b.bt, *bias, acc, blk.n0, blk.n);
  for (uint32_t k0 = 0; k0 < blk.k; k0 += blk.base_k) {
    const uint32_t k = std::min(blk.base_k, blk.k - k0), kk = blk.k_begin + k0;
    const uint32_t kp = mx != nullptr ? (k + 63) / 64 * 64 : k;  // MmadMx: K in 64s
    if (kp != k) {                                               // the padding's values are zeros
      std::memset(const_cast<std::byte*>(b.l0a.ptr), 0,
                  uint64_t{CeilDiv(blk.m, 16)} * 16 * kp * cube::ElemBits(a.elem) / 8);
      std::memset(const_cast<std::byte*>(b.l0b.ptr), 0,
                  uint64_t{CeilDiv(blk.n, 16)} * 16 * kp * cube::ElemBits(bmat.elem) / 8);
    }
    if (tile_a != nullptr) {
      LoadA(b.l0a, (*tile_a)(kk, k), 0, 0, blk.m, k);
    } else {
      LoadA(b.l0a, a, blk.m0, kk, blk.m, k);
    }
    if (tile_b != nullptr) {
      LoadB(b.l0b, (*tile_b)(kk, k), 0, 0, k, blk.n);
    } else {
      LoadB(b.l0b, bmat, kk, blk.n0, k, blk.n);
    }
    AscendC::MmadParams p;
    p.m = static_cast<uint16_t>(blk.m);
    p.n = static_cast<uint16_t>(blk.n);
    p.k = static_cast<uint16_t>(kp);
    p.cmatrixInitVal = k0 == 0 && bias == nullptr;
    const View* init = k0 == 0 ? (bias != nullptr ? &b.bt : nullptr) : nullptr;
    if (mx == nullptr) {
      cube::Mmad(b.l0c, b.l0a, b.l0b, init, p, false, a.elem, bmat.elem, acc, loc);
      continue;
    }
    LoadScales(b.l0a, b.l1mx, mx->a, blk.m0, blk.m, kk / 32, kp, loc);
    LoadScales(b.l0b, b.l1mx, mx->b, blk.n0, blk.n, kk / 32, kp, loc);
    cube::MmadMx(b.l0c, b.l0a, b.l0b, init, p, a.elem, bmat.elem, acc, loc);
  }
}

void ComputeSparseBlock(const Buffers& b, const Matrix& a, const Matrix& bdense,
                        const std::byte* index, uint64_t index_ld, const Matrix* bias,
                        const Block& blk) {
  const uint32_t mb = CeilDiv(blk.m, 16);
  auto* l0c = const_cast<std::byte*>(b.l0c.ptr);
  for (uint32_t j = 0; j < blk.n; ++j) {
    const uint64_t n = blk.n0 + j;
    for (uint32_t i = 0; i < blk.m; ++i) {
      int32_t sum = bias != nullptr ? static_cast<int32_t>(StoredAt(*bias, 0, n, 32)) : 0;
      for (uint32_t kd = 0; kd < blk.k / 2; ++kd) {  // the dense K: value t of group q
        const uint64_t kk = blk.k_begin / 2 + kd, q = kk / 2, t = kk % 2, byte = kk / 4;
        const auto code = std::to_integer<uint8_t>(index[(byte / 8 * index_ld + n) * 8 + byte % 8]);
        const uint64_t col = q * 4 + ((code >> (2 * (kk % 4))) & 3u) + t;  // 2nd: 1 + its index
        sum += int32_t{LogicalOf<int8_t>(a, blk.m0 + i, col)} *
               int32_t{LogicalOf<int8_t>(bdense, kk, n)};
      }
      std::memcpy(l0c + ((uint64_t{j / 16} * mb + i / 16) * 256 + (i % 16) * 16 + j % 16) * 4, &sum,
                  4);
    }
  }
}

uint64_t OutputExtent(const Output& out, uint32_t m, uint32_t n) noexcept {
  const uint32_t c0 = out.nz_c0;
  if (out.fmt == Fmt::kNz) return uint64_t{CeilDiv(n, c0) - 1} * out.ld * c0 + uint64_t{m} * c0;
  if (out.fmt == Fmt::kColumn) return uint64_t{n - 1} * out.ld + m;
  return uint64_t{m - 1} * out.ld + n;
}

namespace {

// Element (i, j) of out's block, as an index from out.data.
uint64_t OutIndex(const Output& out, uint32_t i, uint32_t j) {
  const uint32_t c0 = out.nz_c0;
  if (out.fmt == Fmt::kNz) return uint64_t{j / c0} * out.ld * c0 + uint64_t{i} * c0 + j % c0;
  if (out.fmt == Fmt::kColumn) return uint64_t{j} * out.ld + i;
  return uint64_t{i} * out.ld + j;
}

uint32_t Convert(uint32_t raw, Elem acc, Elem dst) {
  if (acc != Elem::kF32) return raw;  // int32 stays int32
  float f;
  std::memcpy(&f, &raw, 4);
  if (dst == Elem::kF16) return FloatToHalfBits(f);
  if (dst == Elem::kBf16) return aicore::detail::FloatToBf16BitsRne(f);
  return raw;
}

// Element by element: to a local tensor, or added to GM (enAtomic) under one lock.
void WriteByElement(const View& l0c, Elem acc, const Output& out, uint32_t m, uint32_t n) {
  static std::mutex atomic_lock;
  std::unique_lock<std::mutex> lock(atomic_lock, std::defer_lock);
  if (out.atomic) lock.lock();
  const uint32_t mb = CeilDiv(out.l0c_m != 0 ? out.l0c_m : m, 16), bits = cube::ElemBits(out.elem);
  for (uint32_t j = 0; j < n; ++j) {
    for (uint32_t i = 0; i < m; ++i) {
      const uint32_t r = out.l0c_row0 + i;  // the row in L0C
      uint32_t raw;
      std::memcpy(
          &raw, l0c.ptr + ((uint64_t{j / 16} * mb + r / 16) * 256 + (r % 16) * 16 + j % 16) * 4, 4);
      const uint64_t at = OutIndex(out, i, j);
      if (out.atomic) {
        uint32_t old = 0;
        std::memcpy(&old, out.data + at * (bits / 8), bits / 8);
        if (acc == Elem::kF32) {
          const float s = ToFloat(old, out.elem) + ToFloat(raw, Elem::kF32);
          std::memcpy(&raw, &s, 4);
        } else {
          raw += old;
        }
      }
      Put(out.data, at, bits, Convert(raw, acc, out.elem));
    }
  }
}

// The block written element by element, recorded for the sanitizer as one instruction of `pipe`
// writing the runs the layout keeps contiguous (rows (ND), columns, or NZ column blocks).
void WriteRecorded(const View& l0c, Elem acc, const Output& out, uint32_t m, uint32_t n,
                   aicore::Pipe pipe, aicore::SrcLoc loc) {
  aicore::san::Instr in(pipe, "Matmul::GetTensorC", loc);
  if (in) {
    const uint32_t bytes = cube::ElemBits(out.elem) / 8;
    const bool nz = out.fmt == Fmt::kNz, col = out.fmt == Fmt::kColumn;
    const uint32_t runs = nz ? CeilDiv(n, out.nz_c0) : col ? n : m;
    const uint64_t len = nz ? uint64_t{m} * out.nz_c0 : col ? m : n;
    for (uint32_t r = 0; r < runs; ++r) {
      const uint64_t at = nz    ? OutIndex(out, 0, r * out.nz_c0)
                          : col ? OutIndex(out, 0, r)
                                : OutIndex(out, r, 0);
      in.Write(out.data + at * bytes, len * bytes);
    }
  }
  WriteByElement(l0c, acc, out, m, n);
}

// The atomic add of a block to GM, recorded as the FIX pipe's write in the DMA atomic add mode
// (the vendor's Matmul sets SetAtomicAdd around its Fixpipe), so that racecheck orders it with
// the other blocks' adds and not with their plain writes.
void WriteAtomic(const View& l0c, Elem acc, const Output& out, uint32_t m, uint32_t n,
                 aicore::SrcLoc loc) {
  namespace d = aicore::detail;
  const d::DmaAtomic saved = d::CurrentDmaAtomic();
  d::SetDmaAtomic({out.elem == Elem::kF32    ? d::AtomicType::kFloat
                   : out.elem == Elem::kF16  ? d::AtomicType::kHalf
                   : out.elem == Elem::kBf16 ? d::AtomicType::kBf16
                                             : d::AtomicType::kInt32,
                   d::AtomicOp::kAdd});
  WriteRecorded(l0c, acc, out, m, n, aicore::Pipe::kFix, loc);
  d::SetDmaAtomic(saved);
}

}  // namespace

void WriteBlock(const Buffers& b, Elem acc, const Output& out, uint32_t m, uint32_t n,
                aicore::SrcLoc loc) {
  if (out.atomic && out.gm) {
    WriteAtomic(b.l0c, acc, out, m, n, loc);
    return;
  }
  if (!out.gm) {
    // C to a local tensor (GetTensorC(LocalTensor), the vendor's path through its workspace and
    // MTE2 into VECIN): recorded, so that initcheck sees the bytes written.
    WriteRecorded(b.l0c, acc, out, m, n, aicore::Pipe::kMte2, loc);
    return;
  }
  cube::FixArgs f{};
  f.layout = out.fmt == Fmt::kNz       ? AscendC::CO2Layout::NZ
             : out.fmt == Fmt::kColumn ? AscendC::CO2Layout::COLUMN_MAJOR
                                       : AscendC::CO2Layout::ROW_MAJOR;
  f.n = n;
  f.m = m;
  f.src_stride = uint64_t{CeilDiv(m, 16)} * 16 * 16;
  f.dst_stride = out.fmt == Fmt::kNz ? out.ld * out.nz_c0 : out.ld;
  f.channel_split = out.fmt == Fmt::kNz && out.nz_c0 == 8;
  f.nd_num = 1;
  f.quant = out.elem == Elem::kF16 ? F322F16 : out.elem == Elem::kBf16 ? F322BF16 : NoQuant;
  if (acc == Elem::kS32 && out.elem == Elem::kF16) {
    f.quant = out.deq_vector != nullptr ? VDEQF16 : DEQF16;
    f.deq_scalar = out.deq_scalar;
  }
  cube::FixpipeToGm(out.data, b.l0c, out.deq_vector, f, out.elem, acc, loc);
}

}  // namespace lngrad::matmul
