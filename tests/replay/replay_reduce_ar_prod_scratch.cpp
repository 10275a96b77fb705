// ReduceProd<float> over the last axis on 2201 with what it leaves in dst, src and
// sharedTmpBuffer (replay_reduce_ar_scratch.h). Provenance: a separate reading, by the helper
// (rar) who then changed lngrad to match, written before lngrad's code for it, of the toolkit's
// (mirror commit 82b89a15f) impl/adv_api/detail/reduce/reduce_prod/reduce_prod_v220_impl.h
// (ReduceProdImpl, ReduceProdByLastAxis, PreProcessReduceForAR) and FindClosestPowerOfTwo
// (reduce_common_util_impl.h). What the source does, float (B = 8 floats a block, R = 64 a
// repeat), padLast = last rounded up to B, splitK = the largest power of two <= last, remain =
// last - splitK; per row j in order, with cur = the scratch + R + 8j (reusing: src row j) and
// out = the scratch + R + 8j (reusing: src + 8j):
// - not reusing: last >= B and remain: cur[0..splitK) = row + 0 (Adds), cur[i] *= row[splitK + i]
//   for i < remain; else splitK > B: splitK halves, cur[i] = row[i] * row[splitK + i] for i <
//   splitK; else cur[0..last) = row + 0. Reusing: last >= B and remain: cur[i] *= cur[splitK + i].
// - while splitK > B: it halves, cur[i] *= cur[splitK + i] for i < splitK.
// - Brcb of cur[0..8) into the scratch's first repeat (block b all cur[b]); f = splitK when last <
//   B, else B; when splitK != last and f < B: scratch[i] *= scratch[splitK * 8 + i] for i <
//   remain * 8; while f > 1: f halves, scratch[i] *= scratch[f * 8 + i] for i < f * 8;
//   out[0..8) = scratch[0..8) + 0.
// Then Duplicate(the scratch's first R words as uint32, 1) and GatherMask (reduce mode, 8
// elements a repeat, `first` repeats, pattern word 1: element 0 of each, src repeat stride one
// block) of the outs (reusing: of src) into dst[0..first).
// Instructions: every Mul and Adds one float rounding (nearest even, Adds of 0 turns -0 to +0);
// counter-mode instructions run in 64-lane repeats in order, a repeat reading before it stores;
// Brcb, Duplicate and GatherMask move bits.
#include <cstdint>
#include <cstring>
#include <vector>

#include "replay_reduce_ar_scratch.h"

namespace lngrad_replay {
namespace {

constexpr uint32_t kB = 8, kR = 64;

struct Buf {
  float* p;
  uint64_t n;
  bool* bad;
  float& operator[](uint64_t i) const {
    static float sink;
    if (i >= n) {
      *bad = true;
      return sink;
    }
    return p[i];
  }
};

// w[d + i] = m[a + i] * m[b + i] for i < n (w: the part of the address space the store may
// reach), in 64-lane repeats (each reads its lanes before it stores).
void Mul(const Buf& w, const Buf& m, uint64_t d, uint64_t a, uint64_t b, uint32_t n) {
  float v[kR];
  for (uint32_t base = 0; base < n; base += kR) {
    const uint32_t lanes = n - base < kR ? n - base : kR;
    for (uint32_t l = 0; l < lanes; ++l) v[l] = m[a + base + l] * m[b + base + l];
    for (uint32_t l = 0; l < lanes; ++l) w[d + base + l] = v[l];
  }
}

}  // namespace

bool ReplayReduceProdArScratch(bool reuse, float* src, float* dst, uint32_t first, uint32_t last,
                               uint8_t* scratch, uint32_t tmpBytes) {
  if (last == 0) return false;  // FindClosestPowerOfTwo asserts n != 0
  bool bad = false;
  const uint32_t pad = (last + kB - 1) / kB * kB;
  uint32_t lg = 0;
  while ((uint64_t{2} << lg) <= last) ++lg;
  const uint32_t splitK = 1u << lg, remain = last - splitK;
  // One address space: the scratch's floats at [0, nt), src's at [kSrc, kSrc + ns).
  const uint64_t nt = tmpBytes / 4, ns = uint64_t{first} * pad, kSrc = nt;
  std::vector<float> mem(nt + ns);
  std::memcpy(mem.data(), scratch, nt * 4);
  std::memcpy(mem.data() + kSrc, src, ns * 4);
  const Buf m{mem.data(), mem.size(), &bad};
  // The scratch's part of mem ends at nt: a store there past it is the replay's failure.
  const Buf t{mem.data(), nt, &bad};
  const Buf& w = reuse ? m : t;  // where a row's work is stored
  for (uint32_t j = 0; j < first; ++j) {
    uint32_t k = splitK;
    const uint64_t row = kSrc + uint64_t{j} * pad;
    const uint64_t cur = reuse ? row : kR + uint64_t{j} * kB;
    const uint64_t out = reuse ? kSrc + uint64_t{j} * kB : kR + uint64_t{j} * kB;
    if (!reuse) {
      if (last >= kB && remain != 0) {
        for (uint32_t i = 0; i < splitK; ++i) t[cur + i] = m[row + i] + 0.0f;
        Mul(w, m, cur, cur, row + splitK, remain);
      } else if (splitK > kB) {
        k >>= 1;
        Mul(w, m, cur, row, row + k, k);
      } else {
        for (uint32_t i = 0; i < last; ++i) t[cur + i] = m[row + i] + 0.0f;
      }
    } else if (last >= kB && remain != 0) {
      Mul(w, m, cur, cur, cur + splitK, remain);
    }
    while (k > kB) {
      k >>= 1;
      Mul(w, m, cur, cur, cur + k, k);
    }
    float lanes[kB];
    for (uint32_t b = 0; b < kB; ++b) lanes[b] = m[cur + b];
    for (uint32_t b = 0; b < kB; ++b) {
      for (uint32_t l = 0; l < kB; ++l) t[b * kB + l] = lanes[b];
    }
    uint32_t f = last < kB ? splitK : kB;
    if (splitK != last && f < kB) Mul(t, m, 0, 0, uint64_t{splitK} * kB, remain * kB);
    while (f > 1) {
      f >>= 1;
      Mul(t, m, 0, 0, uint64_t{f} * kB, f * kB);
    }
    for (uint32_t l = 0; l < kB; ++l) w[out + l] = t[l] + 0.0f;
  }
  const uint32_t one = 1;
  for (uint32_t i = 0; i < kR; ++i) std::memcpy(&t[i], &one, 4);
  const uint64_t res = reuse ? kSrc : kR;
  for (uint32_t r = 0; r < first; ++r) dst[r] = m[res + uint64_t{r} * kB];
  if (!bad) {
    std::memcpy(scratch, mem.data(), nt * 4);
    std::memcpy(src, mem.data() + kSrc, ns * 4);
  }
  return !bad;
}

}  // namespace lngrad_replay
