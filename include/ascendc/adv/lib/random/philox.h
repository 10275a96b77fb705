// lngrad: the Ascend C high-level API PhiloxRandom (the vendor's adv_api/math/philox.h), Ascend
// 950 only, int32_t / uint32_t / float output, 7 or 10 rounds.
//
// Philox4x32 (Salmon et al., "Parallel random numbers: as easy as 1, 2, 3"), as
// philox_3510_impl.h computes it: per round, with multipliers 0xD2511F53 and 0xCD9E8D57,
// (hi0, lo0) = M0 * c0, (hi1, lo1) = M1 * c2, c = {hi1 ^ c1 ^ k0, lo1, hi0 ^ c3 ^ k1, lo0}, then
// the key is bumped by {0x9E3779B9, 0xBB67AE85}. Counter i of a call is the 128-bit counter
// plus i (carry across the four words, word 0 lowest); its four outputs are elements 4i .. 4i+3.
// Count form: elements [0, count). Stride form: `row` rows of `column` outputs each, written
// contiguously, row r starting at counter r * stride / 4 (stride and column multiples of 4,
// stride >= column); one row or stride == column is the count form with count = row * column
// (a uint16_t, as on the device). float: the low 23 bits under exponent 127, minus 1.0f - a
// value in [0, 1).
//
// Checked mode: arch 3510, the written elements within dst, dst 32-byte aligned, the stride
// form's rules (stride % 4 == 0, column % 4 == 0, stride >= column, row and column > 0).
#pragma once

#include <array>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>

#include "lib/quantization/quant_common.h"

namespace AscendC {

constexpr uint16_t PHILOX_KEY_SIZE = 2;
constexpr uint16_t PHILOX_COUNTER_SIZE = 4;
using PhiloxKey = uint32_t[PHILOX_KEY_SIZE];
using PhiloxCounter = uint32_t[PHILOX_COUNTER_SIZE];

struct PhiloxRandomParams {
  uint32_t stride;
  uint32_t row;
  uint32_t column;
};

}  // namespace AscendC

namespace lngrad::aicore::quant_detail {

using Philox4 = std::array<uint32_t, 4>;

// The block of Rounds rounds for one counter value.
template <uint16_t Rounds>
Philox4 PhiloxBlock(Philox4 c, uint32_t k0, uint32_t k1) {
  for (uint16_t r = 0; r < Rounds; ++r) {
    const uint64_t p0 = uint64_t{0xD2511F53u} * c[0];
    const uint64_t p1 = uint64_t{0xCD9E8D57u} * c[2];
    const uint32_t hi0 = static_cast<uint32_t>(p0 >> 32), lo0 = static_cast<uint32_t>(p0);
    const uint32_t hi1 = static_cast<uint32_t>(p1 >> 32), lo1 = static_cast<uint32_t>(p1);
    c = {hi1 ^ c[1] ^ k0, lo1, hi0 ^ c[3] ^ k1, lo0};
    k0 += 0x9E3779B9u;
    k1 += 0xBB67AE85u;
  }
  return c;
}

// The 128-bit counter plus i.
inline Philox4 CounterPlus(const Philox4& c, uint64_t i) {
  Philox4 r = c;
  uint64_t carry = i;
  for (uint32_t& w : r) {
    const uint64_t s = uint64_t{w} + carry;
    w = static_cast<uint32_t>(s);
    carry = s >> 32;
  }
  return r;
}

template <typename T>
T PhiloxOut(uint32_t bits) {
  if constexpr (std::is_same_v<T, float>) {
    const uint32_t b = (bits & 0x7FFFFFu) | (127u << 23);
    float f;
    std::memcpy(&f, &b, sizeof(f));
    return f - 1.0f;
  } else {
    return static_cast<T>(bits);
  }
}

// Writes `per` outputs of counters base + [0, per / 4) to out[0, per) (per a multiple of 4, or
// the count form's last partial counter).
template <uint16_t Rounds, typename T>
void PhiloxRun(T* out, const Philox4& ctr, uint64_t base, uint64_t count, uint32_t k0,
               uint32_t k1) {
  for (uint64_t i = 0; i < count; i += 4) {
    const Philox4 v = PhiloxBlock<Rounds>(CounterPlus(ctr, base + i / 4), k0, k1);
    for (uint64_t j = 0; j < 4 && i + j < count; ++j) out[i + j] = PhiloxOut<T>(v[j]);
  }
}

template <typename T>
void CheckPhilox(const AscendC::LocalTensor<T>& dst, uint64_t n) {
  static_assert(
      std::is_same_v<T, int32_t> || std::is_same_v<T, uint32_t> || std::is_same_v<T, float>,
      "PhiloxRandom: T must be int32_t, uint32_t or float");
  CheckProduct("PhiloxRandom", true);
  CheckCount("PhiloxRandom", dst, n, "dstLocal");
}

}  // namespace lngrad::aicore::quant_detail

namespace AscendC {

template <uint16_t Rounds = 7, typename T>
void PhiloxRandom(const LocalTensor<T>& dstLocal, const PhiloxKey& philoxKey,
                  const PhiloxCounter& philoxCounter, uint16_t count,
                  lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  namespace q = lngrad::aicore::quant_detail;
  static_assert(Rounds == 7 || Rounds == 10, "PhiloxRandom: Rounds must be 7 or 10");
  q::CheckPhilox(dstLocal, count);
  q::Record("PhiloxRandom", loc, {}, {q::SpanOf(dstLocal, count)});
  const q::Philox4 ctr = {philoxCounter[0], philoxCounter[1], philoxCounter[2], philoxCounter[3]};
  q::PhiloxRun<Rounds>(dstLocal.HostPtr(), ctr, 0, count, philoxKey[0], philoxKey[1]);
}

template <uint16_t Rounds = 7, typename T>
void PhiloxRandom(const LocalTensor<T>& dstLocal, const PhiloxKey& philoxKey,
                  const PhiloxCounter& philoxCounter, const PhiloxRandomParams& params,
                  lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  namespace q = lngrad::aicore::quant_detail;
  static_assert(Rounds == 7 || Rounds == 10, "PhiloxRandom: Rounds must be 7 or 10");
  const char* kApi = "PhiloxRandom";
  q::Require(params.stride % 4 == 0 && params.column % 4 == 0, kApi,
             "stride and column must be multiples of 4");
  q::Require(params.stride >= params.column, kApi, "stride must be >= column");
  q::Require(params.row > 0 && params.column > 0, kApi, "row and column must be > 0");
  if (params.row == 1 || params.stride == params.column) {
    PhiloxRandom<Rounds>(dstLocal, philoxKey, philoxCounter,
                         static_cast<uint16_t>(params.row * params.column), loc);
    return;
  }
  const uint64_t n = uint64_t{params.row} * params.column;
  q::CheckPhilox(dstLocal, n);
  q::Record(kApi, loc, {}, {q::SpanOf(dstLocal, n)});
  const q::Philox4 ctr = {philoxCounter[0], philoxCounter[1], philoxCounter[2], philoxCounter[3]};
  for (uint64_t r = 0; r < params.row; ++r) {
    q::PhiloxRun<Rounds>(dstLocal.HostPtr() + r * params.column, ctr, r * (params.stride / 4),
                         params.column, philoxKey[0], philoxKey[1]);
  }
}

}  // namespace AscendC
