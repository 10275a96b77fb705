// lngrad: what the element-wise high-level math APIs (lib/math/*.h, lib/index/arithprogression.h)
// share: operand checks, the product rule, the sanitizer record and the element loop.
//
// These APIs have results the vendor defines exactly (rounding to integers, bit and logic
// operations, selections, classifications) or by a fixed sequence of IEEE operations (Fmod,
// Axpy, Fma); each runs as one pass over the elements on the vector pipe. The device's scratch
// use (sharedTmpBuffer, the stack buffer of the overloads without it) is checked, not
// modelled: its contents after a call are not promised (docs/ascendc_compat.md, "Advanced math
// APIs").
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <string>
#include <type_traits>

#include "lngrad_aicore/check.h"
#include "lngrad_aicore/data_copy.h"
#include "lngrad_aicore/mask.h"
#include "lngrad_aicore/pipe.h"
#include "lngrad_aicore/reduce_ops.h"
#include "lngrad_aicore/sanitizer.h"
#include "lngrad_aicore/tensor.h"

namespace lngrad::aicore::checks {
// A high-level API called on a product the vendor documents it is not supported on.
inline constexpr const char* kProduct = "product";
// sharedTmpBuffer smaller than the API's documented minimum (GetXxxMaxMinTmpSize).
inline constexpr const char* kTmpBuffer = "tmp_buffer";
// Fill called after the TPipe handed out UB (the vendor allows it only before InitBuffer).
inline constexpr const char* kFillOrder = "fill_order";
// A scalar argument of a high-level math or index API outside what the kit's code asserts
// (ArithProgression's diffValue below 0).
inline constexpr const char* kMathArg = "math_arg";
}  // namespace lngrad::aicore::checks

// The config struct most of these APIs take as a template argument, with its default.
#define LNGRAD_MATH_CONFIG(Type, Default) \
  struct Type {                           \
    bool isReuseSource;                   \
  };                                      \
  constexpr Type Default = {false};

namespace lngrad::aicore::math_detail {

// One LocalTensor operand of an element-wise API: `count` elements of elem_size bytes.
struct Operand {
  detail::TensorView view;
  uint32_t elem_size;
  const char* name;
};

template <typename T>
Operand Op(const AscendC::LocalTensor<T>& t, const char* name) {
  return {t.View(), static_cast<uint32_t>(sizeof(T)), name};
}

// Which operands may share bytes with the destination (the vendor's 约束说明 per API).
enum class Overlap {
  kNone,  // 不支持源操作数与目的操作数地址重叠: no byte in common, not even identical
  kIdentical,  // 支持地址重叠 (Trunc, Round): identical ranges allowed, partial overlap not
};

// The products an API exists on (the 产品支持情况 table of its page).
enum class Products {
  kAll,       // Ascend 950, Atlas A2/A3, Atlas inference AI Core
  kOnly3510,  // Ascend 950PR/950DT only
};

inline bool Overlaps(const detail::TensorView& a, uint64_t a_bytes, const detail::TensorView& b,
                     uint64_t b_bytes) {
  return a_bytes != 0 && b_bytes != 0 && a.ptr < b.ptr + b_bytes && b.ptr < a.ptr + a_bytes;
}

[[noreturn]] inline void RaiseOverlap(const char* api, const char* a, const char* b) {
  RaiseKernelCheck(checks::kAddressOverlap, std::string(api) + ": " + a + " and " + b +
                                                " overlap, which the API does not support");
}

// The destination, then the sources (at most three), copied: callers pass braced lists.
struct Operands {
  std::array<Operand, 4> ops{};
  size_t n = 0;
  Operands(std::initializer_list<Operand> il) {
    for (const Operand& o : il) ops[n++] = o;
  }
  const Operand* first() const { return ops.data(); }
  const Operand* last() const { return ops.data() + n; }
};

// Checks the destination and the sources for `count` elements: the count against every
// operand's size (always), 32-byte alignment, the overlap rule and the product (checked mode).
inline void CheckElementwise(const char* api, int64_t count, Products products, Overlap overlap,
                             Operands ops) {
  if (count < 0) {
    RaiseKernelCheck(checks::kInvalidCount, std::string(api) + ": count is " +
                                                std::to_string(count) + ", which must be >= 0");
  }
  const uint64_t n = static_cast<uint64_t>(count);
  for (const Operand* op = ops.first(); op != ops.last(); ++op) {
    if (n * op->elem_size > op->view.size_bytes || op->view.ptr == nullptr) {
      const std::string where = std::string(api) + " " + op->name;
      detail::OnTensorOverrun(op->view, 0, n, op->elem_size, where.c_str());
    }
  }
  if (!CheckedMode()) return;
  if (products == Products::kOnly3510 && detail::rep::RunningArch() != NpuArch::k3510) {
    RaiseKernelCheck(checks::kProduct,
                     std::string(api) +
                         ": exists on Ascend 950 (arch 3510) only; this block runs arch " +
                         std::to_string(static_cast<uint32_t>(detail::rep::RunningArch())));
  }
  for (const Operand* op = ops.first(); op != ops.last(); ++op) {
    detail::CheckUbAligned(op->view, api, op->name);
  }
  const Operand& dst = *ops.first();
  for (const Operand* it = ops.first() + 1; it != ops.last(); ++it) {
    const uint64_t db = n * dst.elem_size, sb = n * it->elem_size;
    if (!Overlaps(dst.view, db, it->view, sb)) continue;
    const bool identical = dst.view.ptr == it->view.ptr && db == sb;
    if (overlap == Overlap::kNone || !identical) RaiseOverlap(api, dst.name, it->name);
  }
}

// Checked mode: sharedTmpBuffer holds at least min_bytes and shares no byte with the operands'
// `count`-element ranges (不支持sharedTmpBuffer与源操作数和目的操作数地址重叠).
inline void CheckTmpBuffer(const char* api, const detail::TensorView& tmp, uint64_t min_bytes,
                           int64_t count, Operands ops) {
  if (!CheckedMode()) return;
  if (tmp.size_bytes < min_bytes) {
    RaiseKernelCheck(checks::kTmpBuffer, std::string(api) + ": sharedTmpBuffer holds " +
                                             std::to_string(tmp.size_bytes) +
                                             " bytes, less than the " + std::to_string(min_bytes) +
                                             " the API needs (its GetXxxMaxMinTmpSize minimum)");
  }
  if (tmp.size_bytes != 0) detail::CheckUbAligned(tmp, api, "sharedTmpBuffer");
  for (const Operand* op = ops.first(); op != ops.last(); ++op) {
    if (Overlaps(tmp, tmp.size_bytes, op->view, static_cast<uint64_t>(count) * op->elem_size)) {
      RaiseOverlap(api, "sharedTmpBuffer", op->name);
    }
  }
}

// Records the pass for the sanitizer on the vector pipe: the sources read, the destination
// written, `n` elements each.
inline void Record(const char* api, SrcLoc loc, uint64_t n, Operands ops) {
  san::Instr in(Pipe::kV, api, loc);
  if (!in) return;
  for (const Operand* it = ops.first() + 1; it != ops.last(); ++it) {
    in.Read(it->view.ptr, n * it->elem_size);
  }
  in.Write(ops.first()->view.ptr, n * ops.first()->elem_size);
}

// True when the running block is arch 3510 (the 950's register code).
inline bool On3510() { return detail::rep::RunningArch() == NpuArch::k3510; }

// The call at `loc` left scratch bytes [0, min(bytes, the tensor's size)) holding what the
// device's sequence leaves there (its intermediates), which lngrad does not model: initcheck
// reports a later read of them, naming `api` (san::LeaveScratchUnmodelled; no cost without an
// active sanitizer tool). The one helper of every API whose scratch is checked, not modelled.
inline void LeaveScratch(const char* api, SrcLoc loc, const detail::TensorView& tmp,
                         uint64_t bytes = UINT64_MAX) {
  if (tmp.ptr == nullptr) return;
  san::LeaveScratchUnmodelled(api, loc, tmp.ptr, std::min<uint64_t>(bytes, tmp.size_bytes));
}

// The element-wise passes' scratch (UnaryPass, BinaryPass): the 2201/2002 sequences with a
// nonzero minimum size their chunks by sharedTmpBuffer (or the stack buffer) and lay their
// intermediates out over all of it; the 950's register code of these APIs leaves it alone
// (where it does store into it, the API writes what it stores after the pass: Exp, Sin/Cos,
// Power, Digamma, Lgamma).
inline void LeavePassScratch(const char* api, SrcLoc loc, const AscendC::LocalTensor<uint8_t>* tmp,
                             uint64_t tmp_min) {
  if (tmp != nullptr && tmp_min != 0 && !On3510()) LeaveScratch(api, loc, tmp->View());
}

// The minimum scratch of the 2201/2002 sequences that size their chunks by the buffer:
// k * 256 bytes (k = the API's "calc factor" of its tiling function); 0 on 3510, whose
// register-based implementations use none.
inline uint64_t TmpMinBytes(uint32_t factor) {
  return detail::rep::RunningArch() == NpuArch::k3510 ? 0 : uint64_t{factor} * 256;
}

// The scratch the overloads without sharedTmpBuffer take: the block's stack buffer (what the
// TPipe left of the UB), as the device's PopStackBuffer.
inline AscendC::LocalTensor<uint8_t> StackTmp() {
  AscendC::LocalTensor<uint8_t> tmp;
  AscendC::PopStackBuffer<uint8_t, AscendC::TPosition::VECCALC>(tmp);
  return tmp;
}

// True when F has a member Batch(D* out, const S* in, uint64_t n) -> uint64_t: it writes
// out[0..k) as f would, element by element, and returns k (the rest runs element by element).
template <typename F, typename = void>
inline constexpr bool kHasBatch = false;
template <typename F>
inline constexpr bool kHasBatch<F, std::void_t<decltype(&std::decay_t<F>::Batch)>> = true;

// What a pass loads from and stores to an element: a bool element is its byte (the 950 tests a
// bool's byte NE 0 or copies it whole; loading a byte other than 0 or 1 as a C++ bool would be
// undefined), any other type itself.
template <typename T>
using Loaded = std::conditional_t<std::is_same_v<T, bool>, uint8_t, T>;

template <typename T>
Loaded<T> LoadElem(const T* p, uint64_t i) {
  if constexpr (std::is_same_v<T, bool>) {
    uint8_t byte = 0;
    std::memcpy(&byte, p + i, 1);
    return byte;
  } else {
    return p[i];
  }
}

template <typename T>
void StoreElem(T* p, uint64_t i, Loaded<T> v) {
  if constexpr (std::is_same_v<T, bool>) {
    std::memcpy(p + i, &v, 1);
  } else {
    p[i] = v;
  }
}

// Whether the API itself writes what the device leaves in its scratch (kModelled: the pass
// leaves the scratch alone) or not (kUnmodelled: LeavePassScratch marks it for initcheck).
enum class PassScratch { kUnmodelled, kModelled };

// Checks, records and runs dst[i] = f(src[i]) for i < count. `tmp` null: no scratch involved.
template <PassScratch kScratch = PassScratch::kUnmodelled, typename D, typename S, typename F>
void UnaryPass(const char* api, Products products, Overlap overlap,
               const AscendC::LocalTensor<D>& dst, const AscendC::LocalTensor<S>& src,
               const AscendC::LocalTensor<uint8_t>* tmp, uint64_t tmp_min, int64_t count,
               SrcLoc loc, F&& f) {
  const Operand d = Op(dst, "dst"), s = Op(src, "src");
  CheckElementwise(api, count, products, overlap, {d, s});
  if (tmp != nullptr) CheckTmpBuffer(api, tmp->View(), tmp_min, count, {d, s});
  detail::RestoreMaskAfterCount(detail::MaskContext(api));
  const uint64_t n = static_cast<uint64_t>(count);
  Record(api, loc, n, {d, s});
  if constexpr (kScratch == PassScratch::kUnmodelled) LeavePassScratch(api, loc, tmp, tmp_min);
  D* out = dst.HostPtr();
  const S* in = src.HostPtr();
  uint64_t i = 0;
  if constexpr (kHasBatch<F>) i = f.Batch(out, in, n);
  for (; i < n; ++i) StoreElem(out, i, f(LoadElem(in, i)));
}

// The same for dst[i] = f(src0[i], src1[i]).
template <PassScratch kScratch = PassScratch::kUnmodelled, typename D, typename S, typename F>
void BinaryPass(const char* api, Products products, Overlap overlap,
                const AscendC::LocalTensor<D>& dst, const AscendC::LocalTensor<S>& src0,
                const AscendC::LocalTensor<S>& src1, const AscendC::LocalTensor<uint8_t>* tmp,
                uint64_t tmp_min, int64_t count, SrcLoc loc, F&& f) {
  const Operand d = Op(dst, "dst"), a = Op(src0, "src0"), b = Op(src1, "src1");
  CheckElementwise(api, count, products, overlap, {d, a, b});
  if (tmp != nullptr) CheckTmpBuffer(api, tmp->View(), tmp_min, count, {d, a, b});
  detail::RestoreMaskAfterCount(detail::MaskContext(api));
  const uint64_t n = static_cast<uint64_t>(count);
  Record(api, loc, n, {d, a, b});
  if constexpr (kScratch == PassScratch::kUnmodelled) LeavePassScratch(api, loc, tmp, tmp_min);
  D* out = dst.HostPtr();
  const S* x = src0.HostPtr();
  const S* y = src1.HostPtr();
  for (uint64_t i = 0; i < n; ++i) StoreElem(out, i, f(LoadElem(x, i), LoadElem(y, i)));
}

// Truthiness of the logical APIs: zero (either sign) is false, anything else (NaN too) true;
// a bool element arrives as its byte (LoadElem), any nonzero byte true (the 950 compares the
// bytes NE 0).
template <typename T>
bool Truthy(T x) {
  if constexpr (std::is_same_v<T, half> || std::is_same_v<T, bfloat16_t>) {
    return static_cast<float>(x) != 0.0f;
  } else {
    return x != T{0};
  }
}

// The device's Max/Min convention (lngrad_aicore/instructions.h): a NaN operand gives b.
template <typename T>
T MaxOf(T a, T b) {
  if constexpr (std::is_same_v<T, half>) {
    return static_cast<float>(a) > static_cast<float>(b) ? a : b;
  } else {
    return a > b ? a : b;
  }
}
template <typename T>
T MinOf(T a, T b) {
  if constexpr (std::is_same_v<T, half>) {
    return static_cast<float>(a) < static_cast<float>(b) ? a : b;
  } else {
    return a < b ? a : b;
  }
}

// The 950's register Max/Min (and Maxs/Mins) as lngrad's register API defines them
// (lngrad_reg/element_ops.h): a NaN operand gives that NaN (a's first), else b where it is
// strictly larger (smaller), a otherwise (so a +-0 tie keeps a).
template <bool kMax, typename T>
T RegPick(T a, T b) {
  if constexpr (!std::is_integral_v<T>) {
    const float fa = static_cast<float>(a), fb = static_cast<float>(b);
    if (fa != fa) return a;
    if (fb != fb) return b;
    return (kMax ? fa < fb : fb < fa) ? b : a;
  } else {
    return (kMax ? a < b : b < a) ? b : a;
  }
}
template <typename T>
T RegMaxOf(T a, T b) {
  return RegPick<true>(a, b);
}
template <typename T>
T RegMinOf(T a, T b) {
  return RegPick<false>(a, b);
}
// ClampMin / ClampMax's Maxs / Mins: the register forms on the 950, the vector forms elsewhere.
template <typename T>
T ClampMaxOf(T a, T b) {
  return detail::rep::RunningArch() == NpuArch::k3510 ? RegMaxOf(a, b) : MaxOf(a, b);
}
template <typename T>
T ClampMinOf(T a, T b) {
  return detail::rep::RunningArch() == NpuArch::k3510 ? RegMinOf(a, b) : MinOf(a, b);
}

template <typename T>
inline constexpr bool kHalfOrFloat = std::is_same_v<T, half> || std::is_same_v<T, float>;

// The source types of the logical APIs (logical_template.h's static_asserts).
template <typename T>
inline constexpr bool kLogicalSource =
    std::is_same_v<T, bool> || std::is_same_v<T, uint8_t> || std::is_same_v<T, int8_t> ||
    std::is_same_v<T, half> || std::is_same_v<T, bfloat16_t> || std::is_same_v<T, uint16_t> ||
    std::is_same_v<T, int16_t> || std::is_same_v<T, float> || std::is_same_v<T, uint32_t> ||
    std::is_same_v<T, int32_t> || std::is_same_v<T, uint64_t> || std::is_same_v<T, int64_t>;

template <typename T>
inline constexpr bool kBitwiseInt =
    std::is_same_v<T, int8_t> || std::is_same_v<T, uint8_t> || std::is_same_v<T, int16_t> ||
    std::is_same_v<T, uint16_t> || std::is_same_v<T, int32_t> || std::is_same_v<T, uint32_t> ||
    std::is_same_v<T, int64_t> || std::is_same_v<T, uint64_t>;

}  // namespace lngrad::aicore::math_detail
