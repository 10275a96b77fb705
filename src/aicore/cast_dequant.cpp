// CastDequant's s162b8 arithmetic, placement and checks (lngrad_aicore/cast_dequant.h).
#include "lngrad_aicore/cast_dequant.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <string>
#include <vector>

#include "lngrad_aicore/data_copy.h"
#include "lngrad_aicore/sys.h"

namespace lngrad::aicore::detail {
namespace {

// The parameter word's fields (SetDeqScale.md's DEQSCALE table).
constexpr uint32_t kScaleKept = 0xffffe000u;  // 1 sign, 8 exponent, 10 mantissa bits
constexpr int kOffsetAt = 37;
constexpr uint32_t kOffsetMask = 0x1ffu;
constexpr int kSignAt = 46;
constexpr int32_t kS9Min = -256;
constexpr int32_t kS9Max = 255;
constexpr uint32_t kVdeqBytes = 16 * sizeof(uint64_t);
constexpr uint32_t kVdeqAddrMask = 0x3fffu;  // bits 0..13: the vdeq address in 32-byte units
constexpr uint32_t kRepeatBytes = 256;       // one repeat of 128 int16_t, 8 blocks of 32 B
constexpr uint32_t kPerRepeat = 128;

// The products of CastDequant.md's tables: int16_t -> b8 on the A2/A3, the 950 and the inference
// AI Core; int32_t -> half on the A2/A3 and the 950.
struct DeqProducts {
  uint32_t archs;
  const char* names;
};
constexpr DeqProducts kS16Products = {
    ArchBit::k2201 | ArchBit::k3510 | ArchBit::k2002,
    "Atlas A2/A3, Ascend 950PR/950DT and the Atlas inference series AI Core"};
constexpr DeqProducts kS32Products = {ArchBit::k2201 | ArchBit::k3510,
                                      "Atlas A2/A3 and Ascend 950PR/950DT"};

const char* FormName(DeqForm f) {
  switch (f) {
    case DeqForm::kHalf:
      return "SetDeqScale(half)";
    case DeqForm::kScalar:
      return "SetDeqScale(float, int16_t, bool)";
    case DeqForm::kVector:
      return "SetDeqScale(vdeq, VdeqInfo)";
    default:
      return "no SetDeqScale";
  }
}

[[noreturn]] void Raise(SrcLoc loc, const std::string& what) {
  RaiseKernelCheck(checks::kCastDequant, WithLoc("CastDequant", loc) + ": " + what);
}

bool Is3510() { return CurrentBlockProduct().arch == NpuArch::k3510; }

}  // namespace

uint8_t DequantS16(int16_t x, uint64_t word, bool vec, bool arch3510) noexcept {
  const float scale = std::bit_cast<float>(static_cast<uint32_t>(word) & kScaleKept);
  int64_t r = FloatToIntSat(static_cast<float>(x) * scale, AscendC::RoundMode::CAST_RINT, INT16_MIN,
                            INT16_MAX);
  r = std::clamp<int64_t>(r, kS9Min, kS9Max);
  const uint32_t field = static_cast<uint32_t>(word >> kOffsetAt) & kOffsetMask;
  // The 950's file zero-extends the field; the page (and so the A2/A3 instruction) signs it.
  const int32_t offset =
      arch3510 || field < 256 ? static_cast<int32_t>(field) : static_cast<int32_t>(field) - 512;
  const int64_t v = r + offset;
  // The sign: bit 46 (A2/A3); the 950 tests (word >> 46) != 0, a vdeq entry's low 16 bits of it
  // against 1 (signed) and 0 (unsigned), another value selecting neither (the lane stays 0).
  const uint64_t sign_bits = word >> kSignAt;
  int kind = static_cast<int>(sign_bits & 1u);
  if (arch3510) {
    kind = !vec ? (sign_bits != 0 ? 1 : 0) : ((sign_bits & 0xffffu) <= 1 ? kind : 2);
  }
  if (kind == 1)
    return static_cast<uint8_t>(static_cast<int8_t>(std::clamp<int64_t>(v, -128, 127)));
  if (kind == 0) return static_cast<uint8_t>(std::clamp<int64_t>(v, 0, 255));
  return 0;
}

void RequireDeqForm(bool s16, bool vec, SrcLoc loc) {
  const DeqProducts& p = s16 ? kS16Products : kS32Products;
  RequireProduct(
      s16 ? "CastDequant (int16_t -> int8_t / uint8_t)" : "CastDequant (int32_t -> half)", p.archs,
      p.names, loc);
  if (!CheckedMode()) return;
  if (!s16 && Is3510()) {  // g_deqValue, which only SetDeqScale(half) writes
    if (DeqValueWritten()) return;
    Raise(loc,
          "int32_t -> half reads the half scale SetDeqScale(half) writes, but no "
          "SetDeqScale(half) ran in this block");
  }
  const DeqForm have = DeqScaleForm();
  const DeqForm need = !s16 ? DeqForm::kHalf : (vec ? DeqForm::kVector : DeqForm::kScalar);
  if (have == need) return;
  Raise(loc, std::string(s16 ? (vec ? "isVecDeq = true" : "isVecDeq = false") : "int32_t -> half") +
                 " reads DEQSCALE as " + FormName(need) + " writes it, but the register holds " +
                 (have == DeqForm::kNone ? "nothing (no SetDeqScale in this block)"
                                         : std::string("what ") + FormName(have) + " wrote"));
}

DeqCtx PrepareCastDequant(bool signed_dst, bool vec, bool half_block, const TensorView& dst,
                          san::Instr& in, SrcLoc loc) {
  RequireDeqForm(true, vec, loc);
  DeqCtx c{};
  c.vec = vec;
  c.half_block = half_block;
  c.arch3510 = Is3510();
  const uint64_t reg = DeqScaleRegister();
  if (!vec) {
    const bool sign = ((reg >> kSignAt) & 1u) != 0;
    if (CheckedMode() && sign != signed_dst) {
      Raise(loc, std::string("the destination is ") + (signed_dst ? "int8_t" : "uint8_t") +
                     " but SetDeqScale's signMode is " + (sign ? "true" : "false") +
                     " (signMode true goes with int8_t, false with uint8_t)");
    }
    std::fill(std::begin(c.words), std::end(c.words), reg);
    return c;
  }
  const uint64_t at = (reg & kVdeqAddrMask) * 32u;
  RequireInsideUb(dst, static_cast<int64_t>(at), kVdeqBytes, "CastDequant (the vdeq tensor)");
  const std::byte* p = dst.ub + at;
  if (in) in.Read(p, kVdeqBytes);
  std::memcpy(c.words, p, kVdeqBytes);
  return c;
}

void CheckDequantMaskLen(int32_t mask, uint32_t elem_size, bool is_set_mask, SrcLoc loc) {
  if (!CheckedMode() || !is_set_mask || mask < 0) return;  // negative: mask.h's vector_mask
  // Counter mode: the kit checks [0, INT32_MAX] only (mask.h, vector_mask).
  if (RequireBlockContext("CastDequant").mask_counter) return;
  const int32_t lanes = static_cast<int32_t>(kRepeatBytes / elem_size);
  if (mask <= lanes) return;
  Raise(loc, "the continuous mask is " + std::to_string(mask) +
                 "; in Normal mask mode it must be "
                 "in [0, " +
                 std::to_string(lanes) + "] (the " + std::to_string(elem_size) +
                 "-byte elements of a repeat; unchecked, a larger mask runs the full repeat)");
}

void CheckVdeqTensor(const TensorView& vdeq) {
  if (!CheckedMode()) return;
  CheckUbAligned(vdeq, "SetDeqScale", "vdeq");
  if (vdeq.size_bytes < kVdeqBytes) {
    RaiseKernelCheck(checks::kCastDequant, "SetDeqScale: the vdeq tensor has " +
                                               std::to_string(vdeq.size_bytes) +
                                               " B; it needs 128 B (16 uint64_t parameter sets)");
  }
}

void DequantRun(std::byte* dst_block, uint32_t place, const int16_t* src, uint64_t n,
                const DeqCtx& c, san::Instr& in) {
  const uint32_t half = c.half_block ? 16u : 0u;
  // The sources are read before any result is stored (one repeat at a time on the device): a
  // destination that is the source itself (in place) reads the inputs, not the results.
  const std::vector<int16_t> x(src, src + n);
  std::byte* seg = nullptr;  // the current block's written bytes, for the sanitizer
  uint64_t seg_len = 0;
  for (uint64_t i = 0; i < n; ++i) {
    const uint64_t pos = place + i;
    std::byte* out = dst_block + (pos / 16u) * 32u + half + pos % 16u;
    *out = static_cast<std::byte>(DequantS16(x[i], c.words[pos % 16u], c.vec, c.arch3510));
    if (!in) continue;
    if (seg != nullptr && out == seg + seg_len) {
      ++seg_len;
    } else {
      if (seg != nullptr) in.Write(seg, seg_len);
      seg = out;
      seg_len = 1;
    }
  }
  if (seg != nullptr) in.Write(seg, seg_len);
}

void DequantCount(const TensorView& dst, const int16_t* src, uint32_t count, const DeqCtx& c,
                  san::Instr& in) {
  std::byte* d = const_cast<std::byte*>(dst.ptr);
  const std::vector<int16_t> x(src, src + count);
  if (c.arch3510 && count != 0) {
    // CastDeqImplVF / CastVecDeqImplVF store every repeat's whole register (the lanes past count
    // and the other half zero); lngrad stops at the UB's end.
    const uint64_t repeats = (uint64_t{count} + kPerRepeat - 1) / kPerRepeat;
    const uint64_t room = static_cast<uint64_t>(dst.ub + dst.ub_size - dst.ptr);
    const uint64_t bytes = std::min<uint64_t>(repeats * kRepeatBytes, room);
    std::memset(d, 0, bytes);
    if (in) in.Write(d, bytes);
  }
  DequantRun(d, 0, x.data(), count, c, in);
}

}  // namespace lngrad::aicore::detail
