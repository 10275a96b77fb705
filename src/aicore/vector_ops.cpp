// Out-of-line checks of the kernel API's vector instructions (vector_ops.h).
#include "lngrad_aicore/vector_ops.h"

#include <cfloat>
#include <cmath>
#include <cstddef>
#include <iterator>
#include <span>
#include <string>

#include "lngrad/half.h"
#include "lngrad/product.h"
#include "lngrad_aicore/ctrl.h"
#include "lngrad_aicore/sys.h"

namespace lngrad::aicore::detail {

void CheckCastMode(const char* pair, uint32_t allowed, AscendC::RoundMode mode) {
  if ((allowed >> static_cast<int>(mode)) & 1u) return;
  std::string list;
  for (int m = 0; m <= static_cast<int>(AscendC::RoundMode::CAST_HYBRID); ++m) {
    if (((allowed >> m) & 1u) == 0) continue;
    if (!list.empty()) list += ", ";
    list += RoundModeName(static_cast<AscendC::RoundMode>(m));
  }
  RaiseKernelCheck(checks::kCastRoundMode,
                   std::string("Cast ") + pair + ": roundMode " + RoundModeName(mode) +
                       " is not in the vendor's Cast table for this pair (allowed: " + list + ")");
}

namespace {

using AscendC::RoundMode;
using CT = CastType;

constexpr uint32_t Bit(RoundMode m) { return 1u << static_cast<int>(m); }
constexpr uint32_t kN = Bit(RoundMode::CAST_NONE);
constexpr uint32_t kR = Bit(RoundMode::CAST_RINT);
constexpr uint32_t kDirected = Bit(RoundMode::CAST_FLOOR) | Bit(RoundMode::CAST_CEIL) |
                               Bit(RoundMode::CAST_ROUND) | Bit(RoundMode::CAST_TRUNC);
constexpr uint32_t k5 = kR | kDirected;  // RINT, FLOOR, CEIL, ROUND, TRUNC
constexpr uint32_t kO = Bit(RoundMode::CAST_ODD);
constexpr uint32_t kHif8Modes = Bit(RoundMode::CAST_ROUND) | Bit(RoundMode::CAST_HYBRID);
// int32_t -> half with SetDeqScale: roundMode has no effect, any value is accepted.
constexpr uint32_t kDeq = 1u << 8;

// The vendor's Cast tables ("支持的数据类型组合情况"), restricted to the types lngrad has: one
// row a pair, one column a table (kTableArchs), the round modes that table allows, 0 where it
// lacks the pair. Atlas 200I/500 A2 has no int4b_t, and its int32_t -> half is a plain CAST_NONE
// (no SetDeqScale). The 950's table omits CAST_NONE for half -> int8_t / uint8_t / int4b_t,
// int16_t -> half and int32_t -> float, but its implementation (dav_3510
// kernel_operator_vec_vconv_impl.h) runs CAST_NONE there as CAST_RINT, so the 950 column accepts
// it (the kit's add_broadcast sample casts half -> int8_t with CAST_NONE on dav-3510).
constexpr NpuArch kTableArchs[] = {NpuArch::k1001, NpuArch::k2002, NpuArch::k2201, NpuArch::k3002,
                                   NpuArch::k3510};
constexpr size_t kTables = std::size(kTableArchs);
constexpr size_t kDefaultTable = 2;  // Atlas A2/A3 (any other product)

struct CastRow {
  CT src;
  CT dst;
  uint32_t modes[kTables];  // training, inference AI Core, A2/A3, 200I/500 A2, 950
};
constexpr CastRow kCastRows[] = {
    {CT::kHalf, CT::kFloat, {kN, kN, kN, kN, kN}},
    {CT::kHalf, CT::kBf16, {0, 0, 0, 0, k5}},
    {CT::kHalf, CT::kInt4, {0, kN, k5 | kN, 0, k5 | kN}},
    {CT::kHalf, CT::kInt8, {kDirected | kN, kDirected | kN, k5 | kN, k5 | kN, k5 | kN}},
    {CT::kHalf, CT::kUint8, {kDirected | kN, kDirected | kN, k5 | kN, k5 | kN, k5 | kN}},
    {CT::kHalf, CT::kInt16, {0, kR, k5, k5, k5}},
    {CT::kHalf, CT::kInt32, {k5, k5, k5, k5, k5}},
    {CT::kFloat, CT::kHalf, {kO | kN, kO | kN, k5 | kO | kN, k5 | kO | kN, k5 | kO | kN}},
    {CT::kFloat, CT::kFloat, {0, 0, k5, k5, k5}},
    {CT::kFloat, CT::kBf16, {0, 0, k5, k5, k5}},
    {CT::kFloat, CT::kInt16, {0, 0, k5, k5, k5}},
    {CT::kFloat, CT::kInt32, {0, 0, k5, k5, k5}},
    {CT::kFloat, CT::kInt64, {k5, k5, k5, k5, k5}},
    {CT::kBf16, CT::kHalf, {0, 0, 0, 0, k5}},
    {CT::kBf16, CT::kFloat, {0, 0, kN, kN, kN}},
    {CT::kBf16, CT::kInt32, {0, 0, k5, k5, k5}},
    {CT::kInt4, CT::kHalf, {0, 0, kN, 0, kN}},
    {CT::kInt4, CT::kBf16, {0, 0, 0, 0, kN}},
    {CT::kInt4, CT::kInt16, {0, 0, 0, 0, kN}},
    {CT::kInt8, CT::kHalf, {kN, kN, kN, kN, kN}},
    {CT::kInt8, CT::kInt16, {0, 0, 0, 0, kN}},
    {CT::kInt8, CT::kInt32, {0, 0, 0, 0, kN}},
    {CT::kUint8, CT::kHalf, {kN, kN, kN, kN, kN}},
    {CT::kUint8, CT::kUint16, {0, 0, 0, 0, kN}},
    {CT::kUint8, CT::kUint32, {0, 0, 0, 0, kN}},
    {CT::kInt16, CT::kHalf, {kN, kN, k5 | kN, k5 | kN, k5 | kN}},
    {CT::kInt16, CT::kFloat, {0, 0, kN, kN, kN}},
    {CT::kInt16, CT::kInt4, {0, 0, 0, 0, kN}},
    {CT::kInt16, CT::kUint8, {0, 0, 0, 0, kN}},
    {CT::kInt16, CT::kInt32, {0, 0, 0, 0, kN}},
    {CT::kInt16, CT::kUint32, {0, 0, 0, 0, kN}},
    {CT::kUint16, CT::kUint8, {0, 0, 0, 0, kN}},
    {CT::kUint16, CT::kUint32, {0, 0, 0, 0, kN}},
    {CT::kInt32, CT::kHalf, {0, kDeq, kDeq, kN, kDeq}},
    {CT::kInt32, CT::kFloat, {kN, kN, k5 | kN, k5 | kN, k5 | kN}},
    {CT::kInt32, CT::kUint8, {0, 0, 0, 0, kN}},
    {CT::kInt32, CT::kInt16, {0, kN, kN, kN, kN}},
    {CT::kInt32, CT::kUint16, {0, 0, 0, 0, kN}},
    {CT::kInt32, CT::kInt64, {0, 0, kN, kN, kN}},
    {CT::kUint32, CT::kUint8, {0, 0, 0, 0, kN}},
    {CT::kUint32, CT::kInt16, {0, 0, 0, 0, kN}},
    {CT::kUint32, CT::kUint16, {0, 0, 0, 0, kN}},
    {CT::kInt64, CT::kFloat, {0, 0, k5, k5, k5}},
    {CT::kInt64, CT::kInt32, {0, 0, kN, kN, kN}},
    {CT::kHif8, CT::kHalf, {0, 0, 0, 0, kN}},
    {CT::kHif8, CT::kFloat, {0, 0, 0, 0, kN}},
    {CT::kE5m2, CT::kFloat, {0, 0, 0, 0, kN}},
    {CT::kE4m3, CT::kFloat, {0, 0, 0, 0, kN}},
    {CT::kHalf, CT::kHif8, {0, 0, 0, 0, kHif8Modes}},
    {CT::kFloat, CT::kHif8, {0, 0, 0, 0, kHif8Modes}},
    {CT::kFloat, CT::kE5m2, {0, 0, 0, 0, kR}},
    {CT::kFloat, CT::kE4m3, {0, 0, 0, 0, kR}},
    {CT::kFp4E2m1, CT::kBf16, {0, 0, 0, 0, kN}},
    {CT::kFp4E1m2, CT::kBf16, {0, 0, 0, 0, kN}},
    {CT::kBf16, CT::kFp4E2m1, {0, 0, 0, 0, k5}},
    {CT::kBf16, CT::kFp4E1m2, {0, 0, 0, 0, k5}},
};

size_t TableOf(NpuArch arch) {
  for (size_t t = 0; t < kTables; ++t) {
    if (kTableArchs[t] == arch) return t;
  }
  return kDefaultTable;
}
// The modes of the pair in table t; 0 when the table has no such pair.
uint32_t FindCast(size_t t, CT src, CT dst) {
  for (const CastRow& r : kCastRows) {
    if (r.src == src && r.dst == dst) return r.modes[t];
  }
  return 0;
}

}  // namespace

const char* CastTypeName(CastType t) noexcept {
  static constexpr const char* kNames[] = {
      "half",       "float",        "bfloat16_t",   "int4b_t",      "int8_t",  "uint8_t",
      "int16_t",    "uint16_t",     "int32_t",      "uint32_t",     "int64_t", "hifloat8_t",
      "fp8_e5m2_t", "fp8_e4m3fn_t", "fp4x2_e2m1_t", "fp4x2_e1m2_t", "?"};
  return kNames[static_cast<int>(t)];
}

bool CastPairExists(CastType src, CastType dst) noexcept {
  for (size_t t = 0; t < kTables; ++t) {
    if (FindCast(t, src, dst) != 0) return true;
  }
  return false;
}

// The 950's g_deqValue before a TPipe, InitSocState or SetDeqScale(half) set it: the kit gives it
// no initial value, so checked mode names the read (ctrl.h DeqValueDefined; unchecked: 1).
static void RequireDeqValueDefined(const char* api) {
  if (!CheckedMode() || DeqValueDefined()) return;
  RaiseKernelCheck(checks::kCastDequant,
                   std::string(api) +
                       " on the 950 reads the half scale g_deqValue, which nothing has set in "
                       "this block (no TPipe, InitSocState or SetDeqScale(half) before it; the "
                       "kit gives it no initial value)");
}

CastCtx PrepareCast(CastType src, CastType dst, AscendC::RoundMode mode) {
  const Product& p = *RequireBlockContext("Cast").product;
  const uint32_t modes = FindCast(TableOf(p.arch), src, dst);
  const std::string pair = std::string(CastTypeName(src)) + "->" + CastTypeName(dst);
  if (CheckedMode()) {
    if (modes == 0) {
      RaiseKernelCheck(checks::kCastPair, "Cast " + pair + ": the vendor's Cast table for " +
                                              std::string(p.soc) + " (" +
                                              std::string(p.product_line) + ", __NPU_ARCH__ " +
                                              NpuArchName(p.arch) + ") has no such pair");
    }
    if ((modes & kDeq) == 0) CheckCastMode(pair.c_str(), modes, mode);
  }
  CastCtx c{mode, FloatSaturation(), 1.0};
  if ((modes & kDeq) != 0 && p.arch == NpuArch::k3510) {
    // dav_3510: g_deqValue and the float steps; the output Cast's trait is NO_SAT, which rules
    // only where CTRL[60] is clear (else the block's overflow mode, as for every Reg Cast).
    RequireDeqValueDefined("Cast int32_t->half");
    c.deq_scale = HalfBitsToFloat(DeqValueBits());
    c.deq_float_steps = true;
    if ((CurrentBlockSys().ctrl >> 60 & 1u) == 0) c.saturate = false;
  } else if ((modes & kDeq) != 0) {
    c.deq_scale = HalfBitsToFloat(static_cast<uint16_t>(DeqScaleRegister() & 0xFFFFu));
  }
  return c;
}

void SaturateHalfRun(Half* d, uint64_t n) {
  for (uint64_t i = 0; i < n; ++i) {
    const uint16_t b = d[i].bits;
    if ((b & 0x7C00u) != 0x7C00u) continue;
    d[i] = Half::FromBits((b & 0x3FFu) != 0 ? 0 : static_cast<uint16_t>((b & 0x8000u) | 0x7BFFu));
  }
}
void SaturateFloatRun(float* d, uint64_t n) {
  for (uint64_t i = 0; i < n; ++i) {
    if (std::isnan(d[i])) {
      d[i] = 0.0f;
    } else if (std::isinf(d[i])) {
      d[i] = d[i] > 0 ? FLT_MAX : -FLT_MAX;
    }
  }
}

void CheckInt4Count(uint64_t count) {
  if (CheckedMode() && count % 2 != 0) {
    RaiseKernelCheck(checks::kCastInt4, "Cast with a 4-bit type (int4b_t, fp4x2_*): count is " +
                                            std::to_string(count) +
                                            ", which must be even (two elements per byte)");
  }
}

RepeatPlan PairPlan(const RepeatPlan& plan) {
  RepeatPlan r = plan;
  r.lanes = plan.lanes / 2;
  if (plan.counter) {
    if (CheckedMode() && plan.count % 2 != 0) {
      RaiseKernelCheck(
          checks::kCastInt4,
          "Cast with a 4-bit type (int4b_t, fp4x2_*): the mask (Counter mode count) is " +
              std::to_string(plan.count) + ", which must be even");
    }
    r.count = plan.count / 2;
    return r;
  }
  r.bits[0] = r.bits[1] = 0;
  for (uint32_t k = 0; k < r.lanes; ++k) {
    const uint32_t p = 2 * k;
    const bool a = (plan.bits[p >> 6] >> (p & 63)) & 1u;
    const bool b = (plan.bits[(p + 1) >> 6] >> ((p + 1) & 63)) & 1u;
    if (a != b && CheckedMode()) {
      RaiseKernelCheck(checks::kCastInt4, "Cast with a 4-bit type (int4b_t, fp4x2_*): mask bits " +
                                              std::to_string(p) + " and " + std::to_string(p + 1) +
                                              " differ; the two elements of a byte run together");
    }
    if (a) r.bits[k >> 6] |= uint64_t{1} << (k & 63);
  }
  return r;
}

void RequireWideTypeProduct(const char* api, uint32_t elem_size) {
  if (!CheckedMode()) return;
  const Product& p = *RequireBlockContext(api).product;
  if (p.arch == NpuArch::k3510) return;
  RaiseKernelCheck(checks::kVectorType,
                   std::string(api) + ": a " + std::to_string(elem_size) +
                       "-byte element type exists on Ascend 950PR/950DT (__NPU_ARCH__ 3510) "
                       "only, not on " +
                       std::string(p.soc) + " (" + std::string(p.product_line) + ")");
}

}  // namespace lngrad::aicore::detail
