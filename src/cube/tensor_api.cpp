// The tensor API (AscendC::Te, include/ascendc/cube/tensor_api/): the layouts' index maps, the
// Slice check, which memory a pointer lies in (LocateLocal), the atoms' checks and parameters, and
// the half bias widened into the BiasTable.
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <string>
#include <string_view>

#include "cube_internal.h"
#include "lngrad/half.h"
#include "lngrad_aicore/check.h"
#include "tensor_api/tensor/layout.h"
#include "lngrad_aicore/local_memory.h"
#include "lngrad_cube/local_array.h"
#include "tensor_api/atom/atom.h"
#include "tensor_api/atom/mx_atom.h"
#include "tensor_api/tensor/tensor.h"

namespace AscendC::Te {

const char* PatternName(Pattern p) noexcept {
#define LNGRAD_TE_PATTERN_NAME(name) #name,
  constexpr const char* kNames[] = {LNGRAD_TE_PATTERN_KINDS(LNGRAD_TE_PATTERN_NAME) "none"};
#undef LNGRAD_TE_PATTERN_NAME
  return kNames[static_cast<int>(p)];
}

uint64_t FrameLayout::Capacity() const {
  switch (pattern) {
    case Pattern::kNZ:
    case Pattern::kZZ:
      return Align(rows, 16) * Align(cols, c0);
    case Pattern::kZN:
      return Align(rows, c0) * Align(cols, 16);
    case Pattern::kNN:
      return uint64_t{rows} * Align(cols, 16);
    default:
      return uint64_t{rows} * cols;
  }
}

uint64_t FrameLayout::Index(uint32_t r, uint32_t c) const {
  switch (pattern) {
    case Pattern::kND:
    case Pattern::kScaleAND:
    case Pattern::kNHWC:
      return uint64_t{r} * cols + c;
    case Pattern::kDN:
    case Pattern::kScaleBDN:
    case Pattern::kNCHW:
      return r + uint64_t{c} * rows;
    case Pattern::kNN:
      return r % c0 + uint64_t{r / c0} * c0 * 16 + uint64_t{c % 16} * c0 +
             uint64_t{c / 16} * rows * 16;
    case Pattern::kScaleADN:
      return uint64_t{r} * c0 + c % c0 + uint64_t{c / c0} * c0 * rows;
    case Pattern::kScaleBND:
      return r % c0 + uint64_t{r / c0} * c0 * cols + uint64_t{c} * c0;
    case Pattern::kNZ:
      return uint64_t{r} * c0 + c % c0 + uint64_t{c / c0} * c0 * Align(rows, 16);
    case Pattern::kNC1HWC0:
      return uint64_t{r} * c0 + c % c0 + uint64_t{c / c0} * c0 * rows;
    case Pattern::kZN:
      return r % c0 + uint64_t{r / c0} * c0 * Align(cols, 16) + uint64_t{c} * c0;
    case Pattern::kZZ:
      return uint64_t{r % 16} * c0 + uint64_t{r / 16} * 16 * Align(cols, c0) + c % c0 +
             uint64_t{c / c0} * c0 * 16;
    case Pattern::kNone:
      break;
  }
  return 0;
}

}  // namespace AscendC::Te

namespace AscendC::Te::detail {

void RequireSliceInside(const Triple& at, const Triple& extent, const Triple& size) {
  if (!lngrad::aicore::CheckedMode()) return;
  const auto inside = [](uint32_t a, uint32_t e, uint32_t s) { return uint64_t{a} + e <= s; };
  if (inside(at.b, extent.b, size.b) && inside(at.r, extent.r, size.r) &&
      inside(at.c, extent.c, size.c)) {
    return;
  }
  const auto text = [](const Triple& t) {
    return "(" + std::to_string(t.b) + ", " + std::to_string(t.r) + ", " + std::to_string(t.c) +
           ")";
  };
  lngrad::aicore::RaiseKernelCheck(
      kSliceCheck, "Slice: coord " + text(at) + " + shape " + text(extent) +
                       " (batch, row, column) passes the tensor's extent " + text(size));
}

}  // namespace AscendC::Te::detail

namespace lngrad::cube {

bool LocateLocal(const void* p, AscendC::TPosition* pos, uint32_t* addr) noexcept {
  using P = AscendC::TPosition;
  aicore::BlockContext* ctx = aicore::CurrentBlockContext();
  if (ctx == nullptr) return false;
  const auto* b = static_cast<const std::byte*>(p);
  for (const P candidate : {P::VECCALC, P::A1, P::A2, P::B2, P::CO1, P::C2, P::C2PIPE2GM}) {
    aicore::LocalMemory mem;
    if (!aicore::FindMemory(*ctx, candidate, &mem)) continue;
    if (b >= mem.base && b < mem.base + mem.size) {
      *pos = candidate;
      *addr = static_cast<uint32_t>(b - mem.base);
      return true;
    }
  }
  return false;
}

}  // namespace lngrad::cube

namespace AscendC::Te::detail {

Where WhereOf(const void* p) noexcept {
  Where w;
  w.local = lngrad::cube::LocateLocal(p, &w.pos, &w.addr);
  return w;
}

void RequireMemory(const char* api, const char* operand, const Where& w,
                   std::initializer_list<AscendC::TPosition> allowed) {
  std::string names;
  for (const AscendC::TPosition pos : allowed) {
    const bool gm = pos == AscendC::TPosition::GM;
    if (gm ? !w.local
           : (w.local &&
              lngrad::cube::MemoryName(w.pos) == std::string_view(lngrad::cube::MemoryName(pos)))) {
      return;
    }
    names += std::string(names.empty() ? "" : " or ") + lngrad::cube::MemoryName(pos);
  }
  lngrad::aicore::RaiseKernelCheck(
      kPositionCheck, std::string(api) + ": " + operand + " is in " +
                          (w.local ? lngrad::cube::MemoryName(w.pos) : "GM") + "; it must be in " +
                          names);
}

void RaiseLayout(const char* api, Pattern dst, Pattern src) {
  lngrad::aicore::RaiseKernelCheck(kLayoutCheck, std::string(api) + ": no copy from " +
                                                     PatternName(src) + " to " + PatternName(dst));
}

void RequireGrid(const char* api, const char* operand, uint32_t r, uint32_t c, uint32_t rows,
                 uint32_t cols) {
  if (!lngrad::aicore::CheckedMode() || (r % rows == 0 && c % cols == 0)) return;
  lngrad::aicore::RaiseKernelCheck(
      kAlignmentCheck, std::string(api) + ": " + operand + "'s origin (" + std::to_string(r) +
                           ", " + std::to_string(c) + ") is off its " + std::to_string(rows) +
                           " x " + std::to_string(cols) + " fractal grid");
}

GridMove GmToL1Move(const FrameLayout& dst, const FrameLayout& src, const Triple& extent,
                    const char* api) {
  GridMove m{};
  switch (dst.pattern) {
    case Pattern::kNZ:
      m.dst_rows = static_cast<uint32_t>(FrameLayout::Align(dst.rows, 16));
      break;
    case Pattern::kNC1HWC0:
      m.dst_rows = dst.rows;
      break;
    case Pattern::kZN:
      m.transposed = true;
      m.dst_rows = static_cast<uint32_t>(FrameLayout::Align(dst.cols, 16));
      break;
    default:
      RaiseLayout(api, dst.pattern, src.pattern);
  }
  bool row_major = false;
  switch (src.pattern) {
    case Pattern::kND:
    case Pattern::kNHWC:
      row_major = true;
      m.src_ld = src.cols;
      break;
    case Pattern::kDN:
    case Pattern::kNCHW:
      m.src_ld = src.rows;
      break;
    default:
      RaiseLayout(api, dst.pattern, src.pattern);
  }
  m.src_row_major = row_major != m.transposed;
  m.n = m.transposed ? extent.c : extent.r;
  m.d = m.transposed ? extent.r : extent.c;
  return m;
}

AscendC::LoadData2DParamsV2 L1ToL0Params(const FrameLayout& dst, const FrameLayout& src,
                                         const Triple& origin, const Triple& extent, bool to_b,
                                         const char* api) {
  const Pattern want = to_b ? Pattern::kZN : Pattern::kNZ;
  if (dst.pattern != want || (src.pattern != Pattern::kNZ && src.pattern != Pattern::kZN)) {
    RaiseLayout(api, dst.pattern, src.pattern);
  }
  const auto ceil = [](uint32_t x, uint32_t a) { return (x + a - 1) / a; };
  const uint32_t c0 = src.c0;
  // An NZ source's grid is the matrix's, a ZN source's its transpose's.
  const bool direct = src.pattern == Pattern::kNZ;
  const uint32_t gr = direct ? origin.r : origin.c, gc = direct ? origin.c : origin.r;
  const uint32_t nr = direct ? extent.r : extent.c, nc = direct ? extent.c : extent.r;
  RequireGrid(api, "src", gr, gc, 16, c0);
  AscendC::LoadData2DParamsV2 p;
  p.mStartPosition = gr / 16;
  p.kStartPosition = gc / c0;
  p.mStep = static_cast<uint16_t>(ceil(nr, 16));
  // Transposed, the destination's 16-row blocks set the columns read (the vendor's kStep: its
  // 16-aligned extent over c0; for float an even count, as the V2 transpose needs).
  const bool transpose = direct == to_b;
  p.kStep = static_cast<uint16_t>(ceil(transpose ? (nc + 15) / 16 * 16 : nc, c0));
  p.srcStride = static_cast<int32_t>(ceil(direct ? src.rows : src.cols, 16));
  p.dstStride = static_cast<uint16_t>(ceil(to_b ? dst.cols : dst.rows, 16));
  p.ifTranspose = transpose;
  return p;
}

}  // namespace AscendC::Te::detail

namespace AscendC::Te::detail {

void CopyL1ToBtHalf(const View& dst, const View& src, uint32_t count, lngrad::aicore::SrcLoc loc) {
  constexpr const char* kApi = "Copy(CopyL12BT, half -> float)";
  namespace cube = lngrad::cube;
  cube::RequirePosition(dst, kApi, "dst", {AscendC::TPosition::C2});
  cube::RequirePosition(src, kApi, "src", {AscendC::TPosition::C1});
  cube::RequireAligned(dst, kApi, "dst", 64);
  cube::RequireAligned(src, kApi, "src", 32);
  cube::RequireRange(src, kApi, "src", 0, uint64_t{count} * 2);
  cube::RequireRange(dst, kApi, "dst", 0, uint64_t{count} * 4);
  lngrad::aicore::san::Instr in(lngrad::aicore::Pipe::kMte1, kApi, loc);
  if (in) {
    in.Read(src.ptr, uint64_t{count} * 2);
    in.Write(dst.ptr, uint64_t{count} * 4);
  }
  for (uint32_t i = 0; i < count; ++i) {
    const float v = lngrad::HalfBitsToFloat(static_cast<uint16_t>(cube::GetBits(src.ptr, i, 16)));
    std::memcpy(cube::Mutable(dst) + uint64_t{i} * 4, &v, 4);
  }
}

}  // namespace AscendC::Te::detail

namespace AscendC::Te::detail {

namespace {

[[noreturn]] void RaiseScaleLayout(const char* api, const std::string& why) {
  lngrad::aicore::RaiseKernelCheck(kLayoutCheck, std::string(api) + ": " + why);
}

// Raises tensor_api.alignment (checked mode) unless the K scales' origin, extent and the
// layout's K size are whole b16 pairs.
void RequirePairs(const char* api, uint32_t at, uint32_t extent, uint32_t size) {
  if (!lngrad::aicore::CheckedMode() || (at % 2 == 0 && extent % 2 == 0 && size % 2 == 0)) return;
  lngrad::aicore::RaiseKernelCheck(
      kAlignmentCheck, std::string(api) + ": the K scales' origin " + std::to_string(at) +
                           ", extent " + std::to_string(extent) + " and layout size " +
                           std::to_string(size) + " must be even (they move as b16 pairs)");
}

}  // namespace

ScaleMove GmToL1ScaleMove(const FrameLayout& dst, const FrameLayout& src, const Triple& origin,
                          const Triple& extent, const char* api) {
  const bool a = dst.pattern == Pattern::kZZ;  // A's scales (M x K/32), else B's (K/32 x N)
  ScaleMove m{};
  if (a && src.pattern == Pattern::kScaleAND) {
    m = {true, extent.c / 2, extent.r, src.cols / 2u, 0};
  } else if (a && src.pattern == Pattern::kScaleADN) {
    m = {false, extent.c / 2, extent.r, src.rows, 0};
  } else if (!a && src.pattern == Pattern::kScaleBDN) {
    m = {true, extent.r / 2, extent.c, src.rows / 2u, 0};
  } else if (!a && src.pattern == Pattern::kScaleBND) {
    m = {false, extent.r / 2, extent.c, src.cols, 0};
  } else {
    RaiseLayout(api, dst.pattern, src.pattern);
  }
  if (dst.c0 != 2 || src.c0 != 2) {
    RaiseScaleLayout(api, "the scales' layouts take c0 2 (pairs of K scales), not " +
                              std::to_string(dst.c0 != 2 ? dst.c0 : src.c0));
  }
  RequirePairs(api, a ? origin.c : origin.r, a ? extent.c : extent.r, a ? src.cols : src.rows);
  if (!a && dst.rows % 2 != 0) RaiseScaleLayout(api, "an NN destination has an even row count");
  m.dst_c0_stride = a ? static_cast<uint32_t>(FrameLayout::Align(dst.cols, 2) / 2) : dst.rows / 2;
  return m;
}

AscendC::LoadData2DMxParams L1ToL0ScaleParams(const FrameLayout& dst, const FrameLayout& src,
                                              const Triple& src_origin, const Triple& dst_origin,
                                              const Triple& dst_extent, int side, const char* api) {
  const bool a = side == 0;
  const Pattern want = a ? Pattern::kZZ : Pattern::kNN;
  if (dst.pattern != want || src.pattern != want) RaiseLayout(api, dst.pattern, src.pattern);
  if (dst.c0 != 2 || src.c0 != 2 || (!a && (src.rows % 2 != 0 || dst.rows % 2 != 0))) {
    RaiseScaleLayout(api, "the scales' fractals are 16 x 2 (c0 2, an NN layout's rows even)");
  }
  // A: fractals of 16 rows x 2 K scales; B: of 2 K scales x 16 columns.
  RequireGrid(api, "src", src_origin.r, src_origin.c, a ? 16 : 2, a ? 2 : 16);
  RequireGrid(api, "dst", dst_origin.r, dst_origin.c, a ? 16 : 2, a ? 2 : 16);
  const uint32_t blocks = ((a ? dst_extent.r : dst_extent.c) + 15) / 16;
  const uint32_t pairs = ((a ? dst_extent.c : dst_extent.r) + 1) / 2;
  if (blocks > 255 || pairs > 255) {
    RaiseScaleLayout(api, std::to_string(blocks) + " x " + std::to_string(pairs) +
                              " fractals: one load moves at most 255 x 255");
  }
  const auto src_stride =
      static_cast<uint16_t>(a ? FrameLayout::Align(src.cols, 2) / 2 : src.rows / 2);
  // The destination's fractals one K row after another, as the vendor's (dstStride = its kStep).
  return AscendC::LoadData2DMxParams(0, 0, static_cast<uint8_t>(blocks),
                                     static_cast<uint8_t>(pairs), src_stride,
                                     static_cast<uint16_t>(pairs));
}

void RaiseScalePosition(const char* api, const char* operand, int side, const void* p, int want) {
  const auto name = [](int s) { return s == 0 ? "L0ScaleA" : "L0ScaleB"; };
  const Where w = WhereOf(p);
  const char* is = side >= 0 ? name(side) : w.local ? lngrad::cube::MemoryName(w.pos) : "GM";
  lngrad::aicore::RaiseKernelCheck(kPositionCheck, std::string(api) + ": " + operand + " is in " +
                                                       is + "; it must be in " +
                                                       (want < 0 ? "L1" : name(want)));
}

}  // namespace AscendC::Te::detail
