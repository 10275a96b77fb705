// Tests of layer reg: what the C-API tests share (registers filled from vectors, random masks
// with the model's view of them, bit comparison, a block on the 950 and its UB). The tests fill
// UB through host pointers, which the sanitizer cannot see: like aicore's instruction tests they
// run without it, whatever LNGRAD_SANITIZE says (tests/aicore/sanitizer_off.h).
#pragma once

#include <cstdint>
#include <cstring>
#include <functional>
#include <random>
#include <vector>

#include "c_api/asc_simd.h"
#include "lngrad_aicore/check.h"
#include "lngrad_aicore/launch.h"
#include "reg_model.h"
#include "../aicore/sanitizer_off.h"

namespace lngrad::reg::testing {

template <typename T>
constexpr uint32_t kN = kVl / sizeof(T);

template <typename T>
VecReg<T> Fill(const std::vector<T>& v) {
  VecReg<T> r;
  std::memcpy(r.lane, v.data(), sizeof(r.lane));
  return r;
}

// A random mask over lanes of T and the model's view of it.
template <typename T>
vector_bool RandomMask(std::mt19937& rng, ModelMask* model) {
  vector_bool m;
  for (uint32_t i = 0; i < kN<T>; ++i) {
    const bool on = rng() % 3 != 0;
    m.SetLane<T>(i, on);
    model->bit[i * sizeof(T)] = on;
  }
  return m;
}

template <typename T>
bool SameBits(T a, T b) {
  return std::memcmp(&a, &b, sizeof(T)) == 0;
}

// Runs body as one block on the 950; returns the failures (empty: it passed).
inline std::vector<aicore::BlockFailure> Run950(const std::function<void()>& body) {
  aicore::LaunchOptions o;
  o.soc = "Ascend950PR_9599";
  std::vector<aicore::BlockFailure> failures;
  (void)aicore::RunBlocks("reg_test", 1, body, o, &failures);
  return failures;
}

// The running block's UB at byte_offset. The tests write through it as plain memory, which the
// runtime does not see: the whole UB counts as written (checked mode's zeroing between blocks).
template <typename T>
__ubuf__ T* Ub(uint32_t byte_offset) {
  aicore::BlockContext* ctx = aicore::CurrentBlockContext();
  aicore::NoteUbWritten(*ctx, ctx->ub_size);
  return reinterpret_cast<T*>(ctx->ub + byte_offset);
}

}  // namespace lngrad::reg::testing
