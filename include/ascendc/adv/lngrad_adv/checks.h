// lngrad: what the high-level API headers of lib/normalization/ share (namespace
// lngrad::adv::detail, `nd::` in those headers): the CPU-debug checks every API applies to its
// operands (CheckTensor, CheckNotSame, CheckLengthAligned, ...), the checked-mode checks of the
// tiling against the operands (CheckFootprints, CheckScratch, CheckPaddedH*), the storage-H
// opt-in SetReproducePaddedH, and the adapters from LocalTensor to lngrad_adv's buffers
// (UbBuffer, ScratchBuffer, DevScalar) and from lngrad_adv's Status to kernel checks.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <string>
#include <type_traits>

#include "kernel_tiling/kernel_tiling.h"
#include "lngrad_aicore/check.h"
#include "lngrad_aicore/defs.h"
#include "lngrad_aicore/half.h"
#include "lngrad_aicore/pipe.h"
#include "lngrad_aicore/tensor.h"
#include "lngrad/product.h"
#include "lngrad_adv/normalization.h"

namespace lngrad::adv {

namespace detail {
inline std::atomic<int>& ReproducePaddedHFlag() {
  // -1: not decided yet (read LNGRAD_REPRODUCE_PADDED_H once), 0 / 1: off / on.
  static std::atomic<int> flag{-1};
  return flag;
}
}  // namespace detail

// Opt-in for storage H != original H (spec §1.11): when on, LayerNormGrad and
// LayerNormGradBeta reproduce the device's (biased) result in checked mode too instead of
// raising "<api>.padded_h". Off by default; LNGRAD_REPRODUCE_PADDED_H=1 in the environment
// turns it on at first use. Process-wide.
inline void SetReproducePaddedH(bool on) { detail::ReproducePaddedHFlag().store(on ? 1 : 0); }
inline bool ReproducePaddedH() {
  auto& flag = detail::ReproducePaddedHFlag();
  int v = flag.load();
  if (v < 0) {
    const char* env = std::getenv("LNGRAD_REPRODUCE_PADDED_H");
    v = (env != nullptr && std::strcmp(env, "1") == 0) ? 1 : 0;
    int expected = -1;
    flag.compare_exchange_strong(expected, v);
    v = flag.load();
  }
  return v == 1;
}

namespace detail {

// Elements of T from the tensor's first element to the end of the block's UB: what the device
// can reach through it.
template <typename T>
uint64_t UbCapacity(const AscendC::LocalTensor<T>& t) {
  const auto v = t.View();
  if (v.ptr == nullptr || v.ub == nullptr) return 0;
  const std::byte* end = v.ub + v.ub_size;
  return v.ptr < end ? static_cast<uint64_t>(end - v.ptr) / sizeof(T) : 0;
}

// The device element type of T inside lngrad_adv.
template <typename T>
using DevType =
    std::conditional_t<std::is_same_v<T, half>, lngrad::Half,
                       std::conditional_t<std::is_same_v<T, bfloat16_t>, lngrad::BFloat16, float>>;

// U is DevType<T>, or const DevType<T> for an input.
template <typename U, typename T>
lngrad::adv::Buffer<U> UbBuffer(const AscendC::LocalTensor<T>& t) {
  static_assert(sizeof(U) == sizeof(T));
  return {reinterpret_cast<U*>(t.HostPtr()), UbCapacity(t)};
}

// The kernel's scalar (float, or AscendC half) as lngrad_adv takes it.
template <typename T>
auto DevScalar(T v) {
  if constexpr (std::is_same_v<T, half>) {
    return v.ToLngrad();
  } else {
    return v;
  }
}

inline lngrad::adv::Buffer<float> ScratchBuffer(const AscendC::LocalTensor<uint8_t>& t) {
  return {reinterpret_cast<float*>(t.HostPtr()), UbCapacity(t) / sizeof(float)};
}

inline lngrad::adv::Algorithm AlgorithmFor(const Product& p) {
  return IsRegBaseArch(p.arch) ? lngrad::adv::Algorithm::kRegBase : lngrad::adv::Algorithm::kVector;
}

inline std::string ProductText(const Product& p) {
  return std::string(p.soc) + " (" + std::string(p.product_line) + ", __NPU_ARCH__ " +
         NpuArchName(p.arch) + ")";
}

[[noreturn]] inline void RaiseUnsupported(const char* api, const Product& p) {
  lngrad::aicore::RaiseKernelCheck(
      std::string(api) + ".unsupported_product",
      std::string(api) + " is not supported on " + ProductText(p) +
          ": the device compiles the call to nothing. Select a product that has it "
          "(e.g. Ascend910B1, Ascend310P1, Ascend950PR_9599).");
}

// The running block's algorithm for the API, or "<api>.unsupported_product" when the block's
// product does not have the API (`supports` names its Product flag).
inline lngrad::adv::Algorithm SupportedAlgorithm(const char* api, bool Product::*supports) {
  const Product& p = lngrad::aicore::CurrentBlockProduct();
  if (!(p.*supports)) RaiseUnsupported(api, p);
  return AlgorithmFor(p);
}

// PopStackBuffer<uint8_t, TPosition::LCM> for the prototypes without sharedTmpBuffer.
inline AscendC::LocalTensor<uint8_t> PopStackBufferFor(const char* api) {
  AscendC::LocalTensor<uint8_t> stackBuffer;
  if (!AscendC::PopStackBuffer<uint8_t, AscendC::TPosition::LCM>(stackBuffer)) {
    lngrad::aicore::RaiseKernelCheck(std::string(api) + ".stack_buffer", "PopStackBuffer Error!");
  }
  return stackBuffer;
}

// PopStackBufferFor for an API whose register path (arch 3510) uses no scratch and does not pop
// the stack: there an empty tensor.
inline AscendC::LocalTensor<uint8_t> PopStackBufferUnlessRegBase(const char* api) {
  if (IsRegBaseArch(lngrad::aicore::CurrentBlockProduct().arch)) return {};
  return PopStackBufferFor(api);
}

// `message` is a string or a callable returning one; a callable is only called on failure, so
// checked mode builds no strings for checks that pass.
template <class Message>
void Check(bool ok, const char* api, const char* what, Message&& message) {
  if (ok) return;
  if constexpr (std::is_invocable_v<Message>) {
    lngrad::aicore::RaiseKernelCheck(std::string(api) + "." + what, std::string(message()));
  } else {
    lngrad::aicore::RaiseKernelCheck(std::string(api) + "." + what, std::string(message));
  }
}

// The CPU-debug checks every high-level API applies to each tensor operand (S6
// single_tensor_check): UB position, 0 < size < UB size, 32-byte aligned address.
template <typename T>
void CheckTensor(const char* api, const char* name, const AscendC::LocalTensor<T>& t) {
  const auto pos = static_cast<AscendC::TPosition>(t.GetPosition());
  Check(AscendC::IsUbPosition(pos), api, "position", [&] {
    return std::string("[") + api + "] Failed to check tensor position of " + name +
           ", current api support positions are UB(VECIN/VECOUT/VECCALC), current position is " +
           AscendC::PositionName(pos) + ".";
  });
  const uint64_t ub_elems = lngrad::aicore::CurrentBlockProduct().ub_bytes / sizeof(T);
  Check(t.GetSize() > 0 && t.GetSize() < ub_elems, api, "tensor_size", [&] {
    return std::string("[") + api + "] Failed to check tensor size of " + name +
           ", current tensor size is " + std::to_string(t.GetSize()) +
           ", should be greater than 0 and less than the hardware memory size.";
  });
  Check(t.GetPhyAddr() % 32 == 0, api, "address_alignment", [&] {
    return std::string("[") + api + "] Failed to check " + name +
           " physical address, address must be 32-byte aligned, current physical address is " +
           std::to_string(t.GetPhyAddr()) + ".";
  });
}

// CheckTensor over (name, tensor) pairs, in order.
inline void CheckTensors(const char*) {}
template <typename T, typename... Rest>
void CheckTensors(const char* api, const char* name, const AscendC::LocalTensor<T>& t,
                  const Rest&... rest) {
  CheckTensor(api, name, t);
  CheckTensors(api, rest...);
}

// The tensor's length in bytes must be a multiple of 32 ("<api>.<what>").
template <typename T>
void CheckLengthAligned(const char* api, const char* what, const char* name,
                        const AscendC::LocalTensor<T>& t) {
  const uint64_t bytes = uint64_t{t.GetSize()} * sizeof(T);
  Check(bytes % 32 == 0, api, what, [&] {
    return std::string("[") + api + "] The " + name + " length is " + std::to_string(bytes) +
           ", should be 32B aligned.";
  });
}

// The device's float of an operand element (half widens exactly, spec §1.10). Read from the
// host pointer: a checked-mode check is no device access.
template <typename T>
float DevFloat(const AscendC::LocalTensor<T>& t, uint64_t i) {
  return static_cast<float>(t.HostPtr()[i]);
}

// A float in a message: 9 significant digits read back the same float ("0.5", "-nan").
inline std::string FloatText(float v) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.9g", static_cast<double>(v));
  return buf;
}

inline std::string PaddedHText(const char* api, uint32_t hLength, uint32_t originalHLength) {
  return std::string("[") + api + "] tiling.hLength (storage H) is " + std::to_string(hLength) +
         " but tiling.originalHLength is " + std::to_string(originalHLength);
}

inline std::string ReproduceHint() {
  return " Call lngrad::adv::SetReproducePaddedH(true) to get the device's result anyway.";
}

// "<api>.padded_h" when storage H is shorter than the real row: no padding can make up for it.
inline void CheckStorageNotShorter(const char* api, uint32_t hLength, uint32_t originalHLength) {
  Check(hLength >= originalHLength || ReproducePaddedH(), api, "padded_h", [&] {
    return PaddedHText(api, hLength, originalHLength) +
           ": a row's storage cannot be shorter than the row." + ReproduceHint();
  });
}

// LayerNormGrad with storage H > original H (spec §1.11): every loop, stride and sum runs over
// hLength, so the padded columns enter each row's sums. A padded column adds exactly 0 to all
// of them when dy*gamma == 0 there (x1, x3 and the pd_var term vanish) and x == the row's mean
// (x - mean and the -2*(x - mean) term vanish), as in an operator that pads dy or gamma with 0
// and x with its row's mean; the padded output columns then hold values nobody copies out, and
// the 1/N and 2/N constants already use originalHLength. "<api>.padded_h" names the first row
// (of the call) and column where that does not hold, evaluated in float as the device does.
// `rows`: the rows the tiling makes the call process (inside the operands: CheckFootprints ran).
template <typename T>
void CheckPaddedH(const char* api, uint32_t hLength, uint32_t originalHLength, uint64_t rows,
                  const AscendC::LocalTensor<T>& inputDy, const AscendC::LocalTensor<T>& inputX,
                  const AscendC::LocalTensor<T>& inputMean,
                  const AscendC::LocalTensor<T>& inputGamma) {
  CheckStorageNotShorter(api, hLength, originalHLength);
  if (hLength <= originalHLength || ReproducePaddedH()) return;
  auto fail = [&](uint64_t r, uint32_t c, const std::string& what) {
    lngrad::aicore::RaiseKernelCheck(
        std::string(api) + ".padded_h",
        PaddedHText(api, hLength, originalHLength) + ", and in row " + std::to_string(r) +
            ", padded column " + std::to_string(c) + " " + what +
            ": the padded columns take part in every sum (spec §1.11), so they must add 0 "
            "(pad dy or gamma with 0 and x with its row's mean)." +
            ReproduceHint());
  };
  for (uint64_t r = 0; r < rows; ++r) {
    const float mean = DevFloat(inputMean, r);
    for (uint32_t c = originalHLength; c < hLength; ++c) {
      const uint64_t k = r * hLength + c;
      const float dy = DevFloat(inputDy, k);
      const float gamma = DevFloat(inputGamma, c);
      if (!(dy * gamma == 0.0f)) {
        fail(r, c,
             "dy*gamma is " + FloatText(dy * gamma) + " (dy " + FloatText(dy) + ", gamma " +
                 FloatText(gamma) + "), not 0");
      }
      const float x = DevFloat(inputX, k);
      if (!(x - mean == 0.0f)) {
        fail(r, c, "x is " + FloatText(x) + ", not the row's mean " + FloatText(mean));
      }
    }
  }
}

// LayerNormGradBeta's vector path with storage H > original H (spec §3.3): it sums only the
// first originalHLength columns, so the padded columns of dy and resForGamma never reach a real
// output column and their values do not matter; but it also strides rows by originalHLength.
// Only a chunk's first row, at the chunk's offset, is read where it is stored, so the padding
// is harmless exactly when every chunk starts on a row and sums at most one row.
// "<api>.padded_h" names the first row the device misreads otherwise.
inline void CheckPaddedHBeta(const char* api, const LayerNormGradBetaTiling& t) {
  CheckStorageNotShorter(api, t.hLength, t.originalHLength);
  if (t.hLength <= t.originalHLength || ReproducePaddedH()) return;
  auto check_chunk = [&](uint64_t offset, uint32_t bs) {
    const bool misplaced = offset % t.hLength != 0;
    if (!misplaced && bs <= 1) return;
    const uint64_t chunk_row = misplaced ? 0 : 1;
    const uint64_t row = offset / t.hLength + (misplaced ? 0 : 1);
    const uint64_t read = offset + chunk_row * t.originalHLength;
    lngrad::aicore::RaiseKernelCheck(
        std::string(api) + ".padded_h",
        PaddedHText(api, t.hLength, t.originalHLength) + ", and the device takes storage element " +
            std::to_string(read) + " (row " + std::to_string(read / t.hLength) + ", column " +
            std::to_string(read % t.hLength) + ") as row " + std::to_string(row) +
            ", column 0: the vector path strides rows by originalHLength (spec §3.3), so a "
            "chunk may sum only its first row (bsCurLength and bsTailSize at most 1, oneCalSize "
            "a multiple of hLength)." +
            ReproduceHint());
  };
  check_chunk(0, t.bsCurLength);
  for (uint32_t k = 1; k < t.loopRound; ++k) check_chunk(uint64_t{k} * t.oneCalSize, t.bsCurLength);
  if (t.inputTailSize > 0) check_chunk(t.inputTailPos, t.bsTailSize);
}

// A tensor operand as the reuse checks see it: its name, UB address and byte size.
struct NamedTensor {
  template <typename T>
  NamedTensor(const char* n, const AscendC::LocalTensor<T>& t)
      : name(n), addr(t.GetPhyAddr()), length(t.GetLength()) {}
  const char* name;
  uint64_t addr;
  uint32_t length;
};

// Two operands that must not be the same tensor (same address and same byte size).
inline void CheckNotSame(const char* api, const NamedTensor& a, const NamedTensor& b) {
  Check(!(a.addr == b.addr && a.length == b.length), api, "tensor_reuse", [&] {
    return std::string("[") + api + "] " + a.name + " and " + b.name +
           " are the same tensor (same address " + std::to_string(a.addr) + " and size " +
           std::to_string(a.length) + " B); they must be different.";
  });
}

template <typename A, typename B>
void CheckNotSame(const char* api, const char* name_a, const AscendC::LocalTensor<A>& a,
                  const char* name_b, const AscendC::LocalTensor<B>& b) {
  CheckNotSame(api, NamedTensor(name_a, a), NamedTensor(name_b, b));
}

// CheckNotSame(api, o, t) for each o of `others`, in order.
inline void CheckNotSameAsAny(const char* api, std::initializer_list<NamedTensor> others,
                              const NamedTensor& t) {
  for (const NamedTensor& o : others) CheckNotSame(api, o, t);
}

// The toolkit's reuse groups of the [A, R] APIs (LayerNorm with rstd output, Normalize): each
// output against the outputs before it, then each input against every output.
inline void CheckOutputsNotReused(const char* api, std::initializer_list<NamedTensor> outputs,
                                  std::initializer_list<NamedTensor> inputs) {
  for (auto out = outputs.begin(); out != outputs.end(); ++out) {
    for (auto before = outputs.begin(); before != out; ++before) CheckNotSame(api, *before, *out);
  }
  for (const NamedTensor& in : inputs) CheckNotSameAsAny(api, outputs, in);
}

inline void WarnReuseIgnoredForHalf(const char* api) {
  std::fprintf(stderr, "[WARNING] [%s] isReuseSource is true, may not be effective for half.\n",
               api);
}

// One operand in checked mode: the elements the footprint touches and the tensor's size.
struct FootprintUse {
  const char* name;
  uint64_t need;
  uint64_t have;
};

// Checked mode: every operand's footprint must lie inside its tensor ("<api>.operand_bounds",
// the first operand that does not, in order).
inline void CheckFootprints(const char* api, std::initializer_list<FootprintUse> uses) {
  for (const FootprintUse& u : uses) {
    Check(u.need <= u.have, api, "operand_bounds", [&] {
      return std::string("[") + api + "] the tiling makes the API access " +
             std::to_string(u.need) + " elements of " + u.name + ", which has only " +
             std::to_string(u.have) + "; the device would read or write the UB that follows it.";
    });
  }
}

// One operand tensor of a high-level API call, read or written by it: its name, host address,
// element size, the elements the footprint touches (counted from its first element) and the
// tensor's size. One table of these per call feeds both CheckFootprints and SanRecord.
struct Operand {
  const char* name;
  bool written;
  const void* host;
  uint64_t elem_bytes;
  uint64_t need;
  uint64_t have;
};
template <typename T>
Operand ReadOperand(const char* name, const AscendC::LocalTensor<T>& t, uint64_t need) {
  return {name, false, t.HostPtr(), sizeof(T), need, t.GetSize()};
}
template <typename T>
Operand WrittenOperand(const char* name, const AscendC::LocalTensor<T>& t, uint64_t need) {
  return {name, true, t.HostPtr(), sizeof(T), need, t.GetSize()};
}

// CheckFootprints over an operand table, in its order.
template <size_t N>
void CheckFootprints(const char* api, const Operand (&ops)[N]) {
  for (const Operand& o : ops) CheckFootprints(api, {{o.name, o.need, o.have}});
}

inline void CheckScratch(const char* api, uint64_t need_floats, uint64_t have_bytes) {
  Check(need_floats * sizeof(float) <= have_bytes, api, "scratch_overrun", [&] {
    return std::string("[") + api + "] the tiling's scratch layout ends at byte " +
           std::to_string(need_floats * sizeof(float)) + " but sharedTmpBuffer has " +
           std::to_string(have_bytes) +
           " bytes; the device would overwrite the UB that follows it (spec §2.8: nohCalSize is "
           "rounded up after sizing from stackBufferSize). Pass a larger buffer or the max tmp "
           "size.";
  });
}

// The device's checks of a tiling's scratch layout, in floats ("<api>.stack_buffer"): the last
// buffer's end, "<end_text> is (end) should <= <limit_text> is (limit)".
inline void CheckLayoutEnd(const char* api, const char* end_text, uint64_t end,
                           const char* limit_text, uint64_t limit) {
  Check(end <= limit, api, "stack_buffer", [&] {
    return std::string(end_text) + " is (" + std::to_string(end) + ") should <= " + limit_text +
           " is (" + std::to_string(limit) + ")";
  });
}

// sharedTmpBuffer holds at least `limit` floats: "stackBuffer.GetSize is (floats) <relation>
// is (limit)", `relation` as the API's message words it.
inline void CheckStackFloats(const char* api, uint64_t floats, const char* relation,
                             uint64_t limit) {
  Check(floats >= limit, api, "stack_buffer", [&] {
    return "stackBuffer.GetSize is (" + std::to_string(floats) + ") " + relation + " is (" +
           std::to_string(limit) + ")";
  });
}

// Both LayerNorm families: the layout's last buffer (ending at `end`, named by `end_text`)
// within tiling.tmpBufSize, and sharedTmpBuffer (`floats`) at least tmpBufSize floats.
inline void CheckTmpBufSize(const char* api, const char* end_text, uint64_t end, uint64_t floats,
                            uint64_t tmpBufSize) {
  CheckLayoutEnd(api, end_text, end, "tmpBufSize", tmpBufSize);
  CheckStackFloats(api, floats, "should >= tiling.tmpBufSize", tmpBufSize);
}

// The sanitizer's record of a high-level API call (pipe V) over its operand table: the read
// operands in table order, then the written ones, each as far as its footprint reaches.
template <size_t N>
void SanRecord(lngrad::aicore::san::Instr& in, const Operand (&ops)[N]) {
  for (const Operand& o : ops)
    if (!o.written) in.Read(o.host, o.need * o.elem_bytes);
  for (const Operand& o : ops)
    if (o.written) in.Write(o.host, o.need * o.elem_bytes);
}

// A lngrad_adv error: the access would leave the simulated UB ("<api>.ub_bounds"), or the
// tiling is one lngrad does not model ("<api>.unsupported_shape").
inline void RaiseIfError(const char* api, const lngrad::Status& st) {
  if (st.ok()) return;
  const bool bounds = st.code() == lngrad::StatusCode::kOutOfRange;
  lngrad::aicore::RaiseKernelCheck(
      std::string(api) + (bounds ? ".ub_bounds" : ".unsupported_shape"),
      st.message() + (bounds ? " (the access would leave the block's UB)" : ""));
}

// Checked mode, after an API's own checks: the tiling's plan, then its scratch layout against
// sharedTmpBuffer and every operand's footprint against its tensor.
template <size_t N>
void CheckPlan(const char* api, const lngrad::Status& plan, uint64_t scratch_floats,
               const AscendC::LocalTensor<uint8_t>& sharedTmpBuffer, const Operand (&ops)[N]) {
  RaiseIfError(api, plan);
  CheckScratch(api, scratch_floats, sharedTmpBuffer.GetSize());
  CheckFootprints(api, ops);
}

// SanRecord, then the scratch layout written in sharedTmpBuffer.
template <size_t N>
void SanRecord(lngrad::aicore::san::Instr& in, const Operand (&ops)[N],
               const AscendC::LocalTensor<uint8_t>& sharedTmpBuffer, uint64_t scratch_floats) {
  SanRecord(in, ops);
  in.Write(sharedTmpBuffer.HostPtr(), scratch_floats * sizeof(float));
}

}  // namespace detail
}  // namespace lngrad::adv
