// Fixpipe L0C (NZ) -> GM on the FIX pipe: ND, NZ (and the float channel split) or DN output,
// NormReLU, the float -> half/bfloat16 casts (CAST_RINT: to nearest, ties to even) and the
// float -> int8/uint8 quantisation (QF322B8_PRE scalar, VQF322B8_PRE per column) as the vendor's
// model of it computes (fixpipe_l0c2gm/scripts/gen_data_f322s8.py), and int32 -> half (DEQF16
// scalar, VDEQF16 per column: the int32 value as float times M1, rounded once to half; the order
// of the conversions is lngrad's reading, the kit's matmul_quant golden agrees with it).
#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "cube_internal.h"
#include "fixpipe_table.h"
#include "lngrad/half.h"

namespace lngrad::cube {
namespace {
using P = AscendC::TPosition;
using L = AscendC::CO2Layout;

float AsFloat(uint32_t raw) {
  float f;
  std::memcpy(&f, &raw, 4);
  return f;
}
uint32_t Raw(float f) {
  uint32_t r;
  std::memcpy(&r, &f, 4);
  return r;
}

// The quantisation value of QUANT_PRE: M1 (a float of 1 + 8 + 10 bits: bits 13..31), the offset
// (bits 37..45) and the sign flag (bit 46, int8 when set).
struct Quant {
  float m1;
  int32_t offset;
  bool sign;
};
Quant QuantOf(uint64_t pre) {
  return {AsFloat(static_cast<uint32_t>(pre) & 0xFFFFE000u),
          static_cast<int32_t>((pre >> 37) & 0x1FF), ((pre >> 46) & 1u) != 0};
}

// float -> int8/uint8: x times M1 (M2 for x < 0: M1, or 0 with ReLU), clamped to [-256, 255],
// rounded to nearest even, plus the offset, clamped to the type.
uint32_t QuantToB8(float x, const Quant& q, bool relu) {
  const float scaled = x >= 0.0f ? x * q.m1 : x * (relu ? 0.0f : q.m1);
  const float v =
      std::nearbyint(std::clamp(scaled, -256.0f, 255.0f)) + static_cast<float>(q.offset);
  const float r = q.sign ? std::clamp(v, -128.0f, 127.0f) : std::clamp(v, 0.0f, 255.0f);
  return static_cast<uint32_t>(static_cast<int32_t>(r)) & 0xFFu;
}

bool IsB8Quant(int q) { return q == QF322B8_PRE || q == VQF322B8_PRE || q == REQ8 || q == VREQ8; }
bool IsVectorQuant(int q) {
  return q == VQF322B8_PRE || q == VDEQF16 || q == VREQ8 || q == VQF322F16_PRE ||
         q == VQF322BF16_PRE;
}
// The 950's float -> half / bfloat16_t through a quantisation value (M1 only).
bool IsFloatQuant(int q) {
  return q == QF322F16_PRE || q == VQF322F16_PRE || q == QF322BF16_PRE || q == VQF322BF16_PRE;
}

// The quantisation value of column n: the per-column value of the vector modes, else the scalar.
uint64_t PreOf(const FixArgs& a, const std::byte* quant, uint32_t n) {
  uint64_t pre = a.deq_scalar;
  if (quant != nullptr) std::memcpy(&pre, quant + uint64_t{n} * 8, 8);
  return pre;
}

// One output element from the L0C value raw (column n).
uint32_t Convert(uint32_t raw, Elem src, Elem dst, const FixArgs& a, const std::byte* quant,
                 uint32_t n) {
  if (src == Elem::kS32 && (a.quant == DEQF16 || a.quant == VDEQF16)) {
    // int32 -> half: the value as float (nearest even) times M1, then to half (nearest even).
    const uint64_t pre = PreOf(a, quant, n);
    float f = static_cast<float>(static_cast<int32_t>(raw)) * QuantOf(pre).m1;
    if (a.relu && f < 0.0f) f = 0.0f;
    return FloatToHalfBits(f);
  }
  if (src == Elem::kS32 && IsB8Quant(a.quant)) {
    // int32 -> int8/uint8 (REQ8, VREQ8): the value as float (nearest even), then as
    // QF322B8_PRE.
    const uint64_t pre = PreOf(a, quant, n);
    return QuantToB8(static_cast<float>(static_cast<int32_t>(raw)), QuantOf(pre), a.relu);
  }
  if (src == Elem::kS32) {
    const auto v = static_cast<int32_t>(raw);
    return static_cast<uint32_t>(a.relu ? std::max(v, 0) : v);
  }
  float f = AsFloat(raw);
  if (IsFloatQuant(a.quant)) {  // x times M1, then ReLU and the cast, each rounding once
    const uint64_t pre = PreOf(a, quant, n);
    f *= QuantOf(pre).m1;
  }
  if (IsB8Quant(a.quant)) {
    const uint64_t pre = PreOf(a, quant, n);
    return QuantToB8(f, QuantOf(pre), a.relu);
  }
  if (a.relu && f < 0.0f) f = 0.0f;
  if (dst == Elem::kF16) return FloatToHalfBits(f);
  if (dst == Elem::kBf16) return aicore::detail::FloatToBf16BitsRne(f);
  return Raw(f);
}

void CheckTypes(Elem dst, Elem src, const FixArgs& a, bool has_quant_tensor, const char* api) {
  const int q = a.quant;
  bool ok = false;
#define LNGRAD_FIXPIPE_ROW(rs, rd, mode) \
  ok = ok || (src == Elem::rs && dst == Elem::rd && q == mode);
  LNGRAD_FIXPIPE_CONVERSIONS(LNGRAD_FIXPIPE_ROW)
#undef LNGRAD_FIXPIPE_ROW
  if (!ok) {
    Raise(checks::kType, api,
          std::string(ElemName(src)) + " -> " + ElemName(dst) + " with quantPre " +
              std::to_string(q) +
              " is not emulated (float -> float, half, bfloat16_t, int8_t/uint8_t through "
              "QF322B8_PRE/VQF322B8_PRE, half/bfloat16_t through the 950's QF322F16_PRE, "
              "QF322BF16_PRE and their V forms; int32_t -> int32_t, half through DEQF16/VDEQF16, "
              "int8_t/uint8_t through REQ8/VREQ8 are)");
  }
  if (IsVectorQuant(q) != has_quant_tensor) {
    Raise(checks::kParams, api,
          "the vector quantisation modes take their per-column values (a cbufWorkspace, or "
          "SetFixPipeConfig's Fixpipe Buffer tensor for DataCopy), the others none");
  }
}

// The elements one instruction wrote, as runs of consecutive indices, each once (an ndNum
// copy may write an element twice; that is not a race with itself).
void RecordRuns(aicore::san::Instr& in, std::byte* base, std::vector<uint64_t>& idx,
                uint32_t bits) {
  std::sort(idx.begin(), idx.end());
  idx.erase(std::unique(idx.begin(), idx.end()), idx.end());
  for (size_t i = 0; i < idx.size();) {
    size_t j = i + 1;
    while (j < idx.size() && idx[j] == idx[j - 1] + 1) ++j;
    in.Write(base + idx[i] * bits / 8, (j - i) * bits / 8);
    i = j;
  }
}

// The columns of one NZ output block: 16 (8 for float with the channel split, 32 for 8-bit
// outputs, whose blocks merge two of L0C's).
uint32_t NzC0(const FixArgs& a, uint32_t dbits) {
  if (dbits == 8) return 32;
  return a.channel_split ? 8 : 16;
}

// Where column n, row m of matrix i goes (dbits: the output element's bits).
uint64_t DstIndex(const FixArgs& a, uint32_t dbits, uint32_t i, uint32_t m, uint32_t n) {
  const uint64_t base = uint64_t{i} * a.dst_nd_stride;
  if (a.layout == L::ROW_MAJOR) return base + m * a.dst_stride + n;
  if (a.layout == L::COLUMN_MAJOR) return base + n * a.dst_stride + m;
  const uint32_t c0 = NzC0(a, dbits);
  return base + (n / c0) * a.dst_stride + uint64_t{m} * c0 + n % c0;
}

// float to float rows (ND) without quantisation or ReLU: every value's bits as they are.
bool PlainFloatRows(const FixArgs& a, Elem src, Elem dst) {
  return src == Elem::kF32 && dst == Elem::kF32 && a.quant == NoQuant && !a.relu &&
         a.layout == L::ROW_MAJOR;
}
// Run's element loop where PlainFloatRows holds: each row's run of a column block (L0C keeps a
// row's 16 values of a block contiguous) copied whole, in the loop's order.
void CopyFloatRows(std::byte* out, const std::byte* src, const FixArgs& a) {
  for (uint32_t i = 0; i < a.nd_num; ++i) {
    for (uint32_t m = 0; m < a.m; ++m) {
      for (uint32_t n0 = 0; n0 < a.n; n0 += 16) {
        const uint64_t si = i * a.src_nd_stride + (n0 / 16) * a.src_stride + m * 16;
        std::byte* to = out + DstIndex(a, 32, i, m, n0) * 4;
        if (a.n - n0 >= 16) {
          std::memcpy(to, src + si * 4, 64);
        } else {
          std::memcpy(to, src + si * 4, uint64_t{a.n - n0} * 4);
        }
      }
    }
  }
}

// record_dst: the destination is the running block's (GM, its L1), not another core's UB.
void RunBody(const char* fixpipe_api, void* gm, const View& src, const View* quant,
             const FixArgs& a, Elem dst, Elem src_elem, aicore::SrcLoc loc,
             bool record_dst = true) {
  const char* kApi = a.api != nullptr ? a.api : fixpipe_api;
  RequirePosition(src, kApi, "src", {P::CO1});
  // Without a cbufWorkspace the vector modes read the Fixpipe Buffer SetFixPipeConfig named.
  bool from_fb = a.api != nullptr;
  if (quant == nullptr && IsVectorQuant(a.quant) && Registers(kApi).has_quant_tensor) {
    quant = &Registers(kApi).quant_tensor;
    from_fb = true;
  }
  CheckTypes(dst, src_elem, a, quant != nullptr, kApi);
  if (a.n > 0 && a.src_stride < uint64_t{a.m} * 16) {
    Raise(checks::kParams, kApi,
          "srcStride x 16 = " + std::to_string(a.src_stride) +
              " is below mSize x 16 (the L0C column blocks would overlap)");
  }
  if (a.m == 0 || a.n == 0 || a.nd_num == 0) return;
  const uint64_t src_elems = uint64_t{a.nd_num - 1} * a.src_nd_stride +
                             uint64_t{(a.n - 1) / 16} * a.src_stride + uint64_t{a.m} * 16;
  RequireRange(src, kApi, "src", 0, src_elems * 4);
  if (quant != nullptr) {
    const char* name = from_fb ? "SetFixPipeConfig's tensor" : "cbufWorkspace";
    RequirePosition(*quant, kApi, name, {from_fb ? P::C2PIPE2GM : P::C1});
    RequireRange(*quant, kApi, name, 0, uint64_t{a.n} * 8);
  }
  const uint32_t dbits = ElemBits(dst);
  auto* out = static_cast<std::byte*>(gm);
  // The vector modes' values go to the Fixpipe Buffer before any output is written (the vendor's
  // fixpipe_l0c2l1 sample writes its output over them).
  std::vector<std::byte> values;
  if (quant != nullptr) values.assign(quant->ptr, quant->ptr + uint64_t{a.n} * 8);
  aicore::san::Instr in(aicore::Pipe::kFix, kApi, loc);
  if (in) {
    in.Read(src.ptr, src_elems * 4);
    if (quant != nullptr) in.Read(quant->ptr, uint64_t{a.n} * 8);
  }
  if (!in && PlainFloatRows(a, src_elem, dst)) return CopyFloatRows(out, src.ptr, a);
  std::vector<uint64_t> written;  // element indices, for the sanitizer's record
  for (uint32_t i = 0; i < a.nd_num; ++i) {
    for (uint32_t m = 0; m < a.m; ++m) {
      for (uint32_t n = 0; n < a.n; ++n) {
        const uint64_t si = i * a.src_nd_stride + (n / 16) * a.src_stride + m * 16 + n % 16;
        const uint64_t di = DstIndex(a, dbits, i, m, n);
        SetBits(out, di, dbits,
                Convert(GetBits(src.ptr, si, 32), src_elem, dst, a,
                        quant != nullptr ? values.data() : nullptr, n));
        if (in && record_dst) written.push_back(di);
      }
    }
  }
  if (in) RecordRuns(in, out, written, dbits);
}

// RunBody between the unit flags' wait and signal (UnitFlagKey).
void Run(const char* fixpipe_api, void* gm, const View& src, const View* quant, const FixArgs& a,
         Elem dst, Elem src_elem, aicore::SrcLoc loc, bool record_dst = true) {
  if (a.unit_flag == 3) aicore::san::QueueWait(UnitFlagKey(), 0, false);
  RunBody(fixpipe_api, gm, src, quant, a, dst, src_elem, loc, record_dst);
  if (a.unit_flag == 3) aicore::san::QueueSignal(UnitFlagKey(), 0, true, AscendC::HardEvent::FIX_M);
}

// src from its element `elems` on.
View Shifted(const View& v, uint64_t elems) {
  View s = v;
  s.ptr += elems * 4;
  s.size_bytes -= std::min<uint64_t>(s.size_bytes, elems * 4);
  return s;
}

}  // namespace

uint64_t FixpipeExtent(const FixArgs& a, uint32_t dbits) noexcept {
  if (a.m == 0 || a.n == 0 || a.nd_num == 0) return 0;
  return DstIndex(a, dbits, a.nd_num - 1, a.m - 1, a.n - 1) + 1;
}

void FixpipeToL1(const View& dst, const View& src, const View* quant, const FixArgs& a,
                 Elem dst_elem, Elem src_elem, aicore::SrcLoc loc) {
  constexpr const char* kApi = "Fixpipe(CO1->L1)";
  RequirePosition(dst, kApi, "dst", {P::A1, P::B1, P::C1});
  RequireAligned(dst, kApi, "dst", 32);
  // Bounded by the L1 (the batch_matmul sample writes its NZ copy past the tensor it declares).
  View l1 = dst;
  l1.size_bytes = dst.ub_size - static_cast<uint64_t>(dst.ptr - dst.ub);
  RequireRange(l1, kApi, "dst", 0, FixpipeExtent(a, ElemBits(dst_elem)) * ElemBits(dst_elem) / 8);
  Run(kApi, Mutable(dst), src, quant, a, dst_elem, src_elem, loc);
}

void FixpipeToUb(const View& dst, const View& src, const View* quant, const FixArgs& a,
                 Elem dst_elem, Elem src_elem, aicore::SrcLoc loc) {
  constexpr const char* kApi = "Fixpipe(CO1->UB)";
  RequirePosition(dst, kApi, "dst", {P::VECIN, P::VECOUT, P::VECCALC});
  RequireAligned(dst, kApi, "dst", 32);
  const uint64_t offset = static_cast<uint64_t>(dst.ptr - dst.ub);
  // 0: the whole matrix to AIV subBlockId; 1: rows [0, m/2) to AIV 0, the rest to AIV 1;
  // 2: columns [0, n/2) to AIV 0, the rest to AIV 1 (each half at dst in its AIV's UB).
  if (a.dual > 2 || (a.dual == 1 && a.m % 2 != 0) || (a.dual == 2 && a.n % 32 != 0)) {
    Raise(checks::kParams, kApi,
          "dualDstCtl " + std::to_string(a.dual) + " with mSize " + std::to_string(a.m) +
              " and nSize " + std::to_string(a.n) +
              ": it must be 0, 1 (mSize even: M split in halves) or 2 (nSize a multiple of 32: "
              "N split in halves of whole 16-column blocks)");
  }
  FixArgs half = a;
  if (a.dual == 1) half.m = a.m / 2;
  if (a.dual == 2) half.n = a.n / 2;
  const uint32_t dbits = ElemBits(dst_elem);
  for (int32_t part = 0; part < (a.dual == 0 ? 1 : 2); ++part) {
    const int32_t sub = a.dual == 0 ? a.sub_block : part;
    uint32_t bytes = 0;
    std::byte* ub = aicore::SubBlockUb(sub, &bytes, kApi);
    if (offset + FixpipeExtent(half, dbits) * dbits / 8 > bytes) {
      Raise(checks::kBounds, kApi,
            "the output ends past AIV " + std::to_string(sub) + "'s UB of " +
                std::to_string(bytes) + " B");
    }
    const uint64_t skip = part == 0     ? 0
                          : a.dual == 1 ? uint64_t{half.m} * 16
                                        : uint64_t{half.n / 16} * a.src_stride;
    Run(kApi, ub + offset, Shifted(src, skip), quant, half, dst_elem, src_elem, loc, false);
    aicore::NoteSubBlockUbWrite(sub, offset, FixpipeExtent(half, dbits) * dbits / 8);
  }
}

void FixpipeToGm(void* gm, const View& src, const View* quant, const FixArgs& a, Elem dst,
                 Elem src_elem, aicore::SrcLoc loc) {
  Run("Fixpipe(CO1->GM)", gm, src, quant, a, dst, src_elem, loc);
}

FixArgs CopyOutArgs(const AscendC::DataCopyCO12DstParams& p, uint32_t dst_bytes, bool to_gm,
                    const View** quant) {
  const char* api = to_gm ? "DataCopy(CO1->GM, DataCopyCO12DstParams)"
                          : "DataCopy(CO1->L1, DataCopyCO12DstParams)";
  const CubeRegisters& r = Registers(api);
  FixArgs a{};
  a.api = api;
  a.layout = p.nz2ndEn ? L::ROW_MAJOR : L::NZ;
  a.n = p.nSize;
  a.m = p.mSize;
  a.src_stride = uint64_t{p.srcStride} * 16;
  // NZ: dstStride counts 32-byte blocks; ND: elements per row.
  a.dst_stride = p.nz2ndEn ? uint64_t{p.dstStride} : uint64_t{p.dstStride} * 32 / dst_bytes;
  a.nd_num = p.nz2ndEn ? r.nd_num : 1;
  a.src_nd_stride = p.nz2ndEn ? uint64_t{r.src_nd_stride} * kSrcNdUnit : 0;
  a.dst_nd_stride = p.nz2ndEn ? r.dst_nd_stride : 0;
  a.quant = static_cast<int>(p.quantPre);
  a.deq_scalar = r.pre_quant;
  a.relu = p.reluPre != 0;
  a.channel_split = p.channelSplit;
  if (p.reluPre > 1 || p.clipReluPre != 0 || p.eltWiseOp != 0) {
    Raise(checks::kParams, api,
          "reluPre " + std::to_string(p.reluPre) + ", clipReluPre " +
              std::to_string(p.clipReluPre) + ", eltWiseOp " + std::to_string(p.eltWiseOp) +
              ": reluPre is 0 or 1 here; ClipReLU and Elementwise are Atlas 200I/500 A2's");
  }
  *quant = nullptr;
  if (IsVectorQuant(a.quant)) {
    if (!r.has_quant_tensor) {
      Raise(checks::kParams, api,
            "quantPre " + std::to_string(a.quant) +
                " is a vector mode: SetFixPipeConfig must name its Fixpipe Buffer tensor first");
    }
    *quant = &r.quant_tensor;
  }
  return a;
}

void SetPreQuant(uint64_t config) { Registers("SetFixpipePreQuantFlag").pre_quant = config; }

void SetNz2nd(uint16_t nd_num, uint16_t src_nd_stride, uint32_t dst_nd_stride) {
  constexpr const char* kApi = "SetFixpipeNz2ndFlag";
  if (nd_num == 0 || (nd_num > 1 && src_nd_stride == 0)) {
    Raise(checks::kParams, kApi,
          "ndNum " + std::to_string(nd_num) + ", srcNdStride " + std::to_string(src_nd_stride) +
              ": ndNum is at least 1, and srcNdStride at least 1 when ndNum > 1");
  }
  CubeRegisters& r = Registers(kApi);
  r.nd_num = nd_num;
  r.src_nd_stride = src_nd_stride;
  r.dst_nd_stride = dst_nd_stride;
}

void SetQuantTensor(const View& fb) {
  CubeRegisters& r = Registers("SetFixPipeConfig");
  r.quant_tensor = fb;
  r.has_quant_tensor = true;
}

}  // namespace lngrad::cube
