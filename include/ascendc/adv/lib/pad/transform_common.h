// lngrad: what the tensor-transform high-level APIs (Pad, UnPad, Broadcast, ConfusionTranspose)
// share: the named check, operand range checks and the sanitizer record of a data movement.
//
// These APIs move elements without arithmetic, so their results are exact; each runs as one pass
// on the vector pipe. Their scratch (sharedTmpBuffer, or the stack buffer of the overloads without
// it) is checked against what the tiling lays out, not modelled: its contents after a call are
// not promised (docs/ascendc_kernels.md, "Tensor transform").
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>

#include "lngrad_aicore/check.h"
#include "lngrad_aicore/data_copy.h"
#include "lngrad_aicore/pipe.h"
#include "lngrad_aicore/sanitizer.h"
#include "lngrad_aicore/tensor.h"

namespace lngrad::aicore::checks {
// A transform API's parameters outside what its page allows (pads, shapes, tiling fields).
inline constexpr const char* kTransformParams = "transform_params";
}  // namespace lngrad::aicore::checks

namespace lngrad::aicore::transform_detail {

// The bytes an API reads or writes: `rows` blocks of `bytes` bytes, block i at ptr + i * pitch
// (one contiguous range by default).
struct Span {
  const void* ptr;
  uint64_t bytes;
  uint64_t rows = 1;
  uint64_t pitch = 0;
};

// Refuses (checked mode) when `ok` is false: "<api>: <rule>".
inline void Require(bool ok, const char* api, const std::string& rule) {
  if (ok || !CheckedMode()) return;
  RaiseKernelCheck(checks::kTransformParams, std::string(api) + ": " + rule);
}

// Always: `t` holds `n` elements (the access would run past it otherwise); checked mode: it
// starts 32-byte aligned.
template <typename T>
void RequireElems(const AscendC::LocalTensor<T>& t, uint64_t n, const char* api, const char* name) {
  if (n * sizeof(T) > t.View().size_bytes || t.View().ptr == nullptr) {
    const std::string where = std::string(api) + " " + name;
    detail::OnTensorOverrun(t.View(), 0, n, sizeof(T), where.c_str());
  }
  if (CheckedMode()) detail::CheckUbAligned(t.View(), api, name);
}

// Records the pass for the sanitizer on the vector pipe.
inline void RecordMove(const char* api, SrcLoc loc, std::initializer_list<Span> reads,
                       std::initializer_list<Span> writes) {
  san::Instr in(Pipe::kV, api, loc);
  if (!in) return;
  for (const Span& s : reads) in.ReadBlocks(s.ptr, s.rows, s.bytes, s.pitch);
  for (const Span& s : writes) in.WriteBlocks(s.ptr, s.rows, s.bytes, s.pitch);
}

}  // namespace lngrad::aicore::transform_detail
