// lngrad: what RmsNorm, DeepNorm, WelfordUpdate and WelfordFinalize (issue 28) share: the
// device's steps as float passes over UB memory, each step one instruction of the simulated
// core's instruction set (lngrad_aicore/instructions.h: SIMD by default, the scalar reference
// loops under LNGRAD_IMPL=scalar, the same bits either way: one IEEE float operation per element,
// Exp and Ln computed in double and rounded once, no FMA), the reduction trees of RepeatReduceSum /
// WholeReduceSum / Reg::ReduceSum (the 64-lane adjacent-pair tree, masked lanes +0), the
// operand-size and scratch checks, and the sanitizer record. Namespace lngrad::adv::ext (`ne::` in
// the API headers).
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <string>
#include <type_traits>
#include <vector>

#include "lngrad_adv/checks.h"
#include "lngrad_aicore/instructions.h"
#include "lngrad_aicore/sanitizer.h"

namespace lngrad::adv::ext {

using lngrad::aicore::Ops;
inline constexpr uint32_t kLanes = 64;  // floats per repeat / vector register

// The instruction set as the kernel API's instructions run it (LNGRAD_IMPL: SIMD unless
// "scalar"): the device's steps one pass at a time.
inline const Ops& StepOps() {
  static const Ops ops = lngrad::aicore::MakeOps(lngrad::aicore::Impl::kAuto);
  return ops;
}

template <typename T>
using Dev = lngrad::adv::detail::DevType<T>;

template <typename T>
Dev<T>* Ptr(const AscendC::LocalTensor<T>& t) {
  return reinterpret_cast<Dev<T>*>(t.HostPtr());
}

// Cast<float, T> of n elements (half widens exactly; float copies).
template <typename D>
void ToFloat(float* dst, const D* src, uint64_t n) {
  if constexpr (std::is_same_v<D, float>) {
    if (dst != src) std::memmove(dst, src, n * sizeof(float));
  } else {
    StepOps().CastHalfToFloat(dst, src, n);
  }
}

// Cast<T, float> of n elements, CAST_NONE / CAST_RINT (round to nearest even, overflow to inf).
template <typename D>
void FromFloat(D* dst, const float* src, uint64_t n) {
  if constexpr (std::is_same_v<D, float>) {
    if (dst != src) std::memmove(dst, src, n * sizeof(float));
  } else {
    StepOps().CastFloatToHalf(dst, src, n);
  }
}

// One scalar's value in float (the scalar unit's conversion of a half scalar is exact).
template <typename T>
float ScalarOf(T v) {
  return static_cast<float>(v);
}

// The 64-lane tree of one repeat over src[0..n), n <= 64, masked lanes +0.
inline float Tree(const float* src, uint32_t n) { return lngrad::aicore::ScalarTree64(src, n); }

// RepeatReduceSum repeated until one value is left (RmsNorm's and DeepNorm's general reduce):
// each pass writes the trees of the 64-value groups of row[0..n) to row[0..ceil(n/64)) in place.
// n == 1 returns row[0] (the device runs no pass and leaves the slot as it was).
inline float PassTrees(float* row, uint32_t n) {
  while (n > kLanes) {
    const uint32_t groups = (n + kLanes - 1) / kLanes;
    for (uint32_t g = 0; g < groups; ++g) {
      row[g] = Tree(row + uint64_t{g} * kLanes, std::min(kLanes, n - g * kLanes));
    }
    n = groups;
  }
  return n == 1 ? row[0] : Tree(row, n);
}

// The level-2 ReduceSum(dst, src, work, count) with the rounds lngrad's basic instruction
// computes (lngrad_aicore/reduce_ops.h, docs/ascendc_compat.md): below 64 values one tree; else
// one tree per full 64-value repeat, trees over groups of 64 repeat sums, one tree over those,
// and the tree of the count % 64 tail added to that body sum.
inline float Level2SumTrees(const float* src, uint32_t n) {
  if (n < kLanes) return Tree(src, n);
  const uint32_t reps = n / kLanes, tail = n % kLanes;
  std::vector<float> sums(reps);
  for (uint32_t r = 0; r < reps; ++r) sums[r] = Tree(src + uint64_t{r} * kLanes, kLanes);
  float body = sums[0];
  if (reps > 1) {
    const uint32_t groups = (reps + kLanes - 1) / kLanes;
    for (uint32_t j = 0; j < groups; ++j) {
      sums[j] = Tree(sums.data() + uint64_t{j} * kLanes, std::min(kLanes, reps - j * kLanes));
    }
    body = groups == 1 ? sums[0] : Tree(sums.data(), groups);
  }
  return tail == 0 ? body : body + Tree(src + uint64_t{reps} * kLanes, tail);
}

// The basic-block reduce: the row's 64-column blocks added onto block 0 (block0 = block0 +
// block k, k = 1..), then one tree of 64 lanes.
inline float BlockFoldTree(float* row, uint32_t h) {
  for (uint32_t k = 1; k < h / kLanes; ++k) {
    StepOps().Add(row, row, row + uint64_t{k} * kLanes, kLanes);
  }
  return Tree(row, std::min(h, kLanes));
}

// LayerNormReduceSumImpl over one row of h values (WelfordFinalize): the full 64-column blocks
// after the first added onto it (acc = block k + acc), then the last h % 64 columns onto the
// first ones, then one tree of min(h, 64) lanes.
inline float FoldTree(float* row, uint32_t h) {
  if (h > kLanes) {
    for (uint32_t k = 1; k < h / kLanes; ++k) {
      StepOps().Add(row, row + uint64_t{k} * kLanes, row, kLanes);
    }
    const uint32_t tail = h % kLanes;
    if (tail > 0) StepOps().Add(row, row + (h - tail), row, tail);
  }
  return Tree(row, std::min(h, kLanes));
}

// Row-wise dst[r*h + j] = a[r*h + j] op s[r] (Muls / Adds with a per-row scalar).
inline void RowScalar(lngrad::aicore::ScalarOp op, float* dst, const float* a, const float* s,
                      uint64_t rows, uint32_t h) {
  for (uint64_t r = 0; r < rows; ++r) StepOps().Scalar(op, dst + r * h, a + r * h, s[r], h);
}

// Row-wise dst[r*h + j] = a[r*h + j] op v[j] (a [rows, h] tensor with an [h] vector).
inline void RowVector(lngrad::aicore::BinaryOp op, float* dst, const float* a, const float* v,
                      uint64_t rows, uint32_t h) {
  for (uint64_t r = 0; r < rows; ++r) StepOps().Binary(op, dst + r * h, a + r * h, v, h);
}

// ---- checks -------------------------------------------------------------------------------

// `<api>.operand_bounds` when `name` holds fewer than `need` elements (always checked: the
// simulated UB must not be read or written beyond an operand).
template <typename T>
void CheckHolds(const char* api, const char* name, const AscendC::LocalTensor<T>& t,
                uint64_t need) {
  const uint64_t have = t.GetSize();
  if (need <= have) return;
  lngrad::aicore::RaiseKernelCheck(std::string(api) + ".operand_bounds",
                                   std::string(api) + ": " + name + " holds " +
                                       std::to_string(have) + " elements; the call uses " +
                                       std::to_string(need));
}

// `<api>.tmp_buffer` when the scratch holds fewer than `bytes` bytes (always checked).
inline void CheckScratch(const char* api, const AscendC::LocalTensor<uint8_t>& tmp, uint64_t bytes,
                         const char* rule) {
  if (bytes <= tmp.GetSize()) return;
  lngrad::aicore::RaiseKernelCheck(std::string(api) + ".tmp_buffer",
                                   std::string(api) + ": sharedTmpBuffer holds " +
                                       std::to_string(tmp.GetSize()) + " bytes; " + rule +
                                       " needs " + std::to_string(bytes));
}

// `<api>.<what>` with `message` unless ok (always checked: a parameter the algorithm depends on).
inline void Require(bool ok, const char* api, const char* what, const std::string& message) {
  if (!ok) {
    lngrad::aicore::RaiseKernelCheck(std::string(api) + "." + what,
                                     std::string(api) + ": " + message);
  }
}

// ---- sanitizer ----------------------------------------------------------------------------

struct Access {
  const void* ptr;
  uint64_t bytes;
  bool write;
};

// Records the call as one vector-pipe instruction with its reads and writes.
inline void Record(const char* api, lngrad::aicore::SrcLoc loc, std::initializer_list<Access> all) {
  lngrad::aicore::san::Instr in(lngrad::aicore::Pipe::kV, api, loc);
  if (!in) return;
  for (const Access& a : all) {
    if (a.bytes == 0 || a.ptr == nullptr) continue;
    if (a.write) {
      in.Write(a.ptr, a.bytes);
    } else {
      in.Read(a.ptr, a.bytes);
    }
  }
}

// "<api>.unsupported_product" on the products the API's page marks unsupported (Atlas training,
// arch 1001; Atlas 200I/500 A2, arch 3002). GroupNorm would also refuse arch 2002.
inline void RequireProduct(const char* api) {
  const lngrad::Product& p = lngrad::aicore::CurrentBlockProduct();
  if (p.arch == lngrad::NpuArch::k1001 || p.arch == lngrad::NpuArch::k3002) {
    lngrad::adv::detail::RaiseUnsupported(api, p);
  }
}

inline bool RegBase() { return lngrad::IsRegBaseArch(lngrad::aicore::CurrentBlockProduct().arch); }

}  // namespace lngrad::adv::ext
