// Test helpers of the mask/repeat-form tests (vector_repeat_test, vector_repeat_cast_test): a
// scalar model of the vendor's documented semantics (which elements of which repeats run, where
// they are), one block on a UB region of three operand slots, the mask scenarios and the ways a
// mask reaches an instruction, and the check of a one-source instruction against a formula.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "kernel_operator.h"

namespace lngrad::aicore::test {

inline constexpr uint32_t kOpBytes = 32768;  // bytes per operand slot
inline constexpr uint32_t kRegion = 3 * kOpBytes;

// ---------------------------------------------------------------------------------------------
// The model.

struct Layout {
  uint32_t offset;  // byte offset of element 0 in the region
  uint32_t size;    // element size
  uint32_t blk;
  uint32_t rep;
};

struct MaskModel {
  bool counter = false;
  uint64_t hi = ~0ull, lo = ~0ull;  // Normal mode
  uint64_t count = 0;               // Counter mode
  uint32_t repeat_time = 1;
  bool copy_counter = false;  // Copy: count per repeat, repeatTime counts
};

// First min(len, 128) bits (SIMD 计算说明 → 掩码, continuous mode).
inline MaskModel Continuous(int64_t len, uint32_t rt) {
  MaskModel m;
  m.hi = m.lo = 0;
  for (int64_t p = 0; p < 128 && p < len; ++p) {
    (p < 64 ? m.lo : m.hi) |= uint64_t{1} << (p % 64);
  }
  m.repeat_time = rt;
  return m;
}

// Byte offsets (one per operand) of each active element, in execution order.
inline std::vector<std::vector<uint64_t>> Active(const MaskModel& m, uint32_t lanes,
                                                 const std::vector<Layout>& ops) {
  std::vector<std::vector<uint64_t>> out;
  uint32_t repeats = m.repeat_time;
  if (m.counter && !m.copy_counter) repeats = static_cast<uint32_t>((m.count + lanes - 1) / lanes);
  // Copy's Counter mode: `count` positions per repeat, as many blocks as they need.
  const uint64_t positions = m.copy_counter ? m.count : lanes;
  for (uint32_t r = 0; r < repeats; ++r) {
    for (uint32_t p = 0; p < positions; ++p) {
      bool on;
      if (m.copy_counter) {
        on = p < m.count;
      } else if (m.counter) {
        on = uint64_t{r} * lanes + p < m.count;
      } else {
        on = lanes == 64 ? ((m.lo >> p) & 1)
                         : (p < 64 ? ((m.lo >> p) & 1) : ((m.hi >> (p - 64)) & 1));
      }
      if (!on) continue;
      std::vector<uint64_t> e;
      for (const Layout& l : ops) {
        const uint32_t per = 32 / l.size;
        e.push_back(l.offset + 32ull * (uint64_t{r} * l.rep + uint64_t{p / per} * l.blk) +
                    uint64_t{p % per} * l.size);
      }
      out.push_back(e);
    }
  }
  return out;
}

template <typename T>
T Load(const std::vector<std::byte>& mem, uint64_t off) {
  T v;
  std::memcpy(&v, mem.data() + off, sizeof(T));
  return v;
}
template <typename T>
void Store(std::vector<std::byte>& mem, uint64_t off, T v) {
  std::memcpy(mem.data() + off, &v, sizeof(T));
}

// The region before: random finite values in each slot (positive where `positive`).
template <typename T>
std::vector<std::byte> Fill(uint32_t seed, bool positive, float range = 50.0f) {
  std::mt19937 gen(seed);
  std::vector<std::byte> mem(kRegion);
  std::uniform_real_distribution<float> dist(positive ? 0.01f : -range, range);
  for (uint64_t off = 0; off + sizeof(T) <= kRegion; off += sizeof(T)) {
    if constexpr (std::is_integral_v<T>) {
      Store(mem, off, static_cast<T>(gen()));
    } else {
      Store(mem, off, static_cast<T>(dist(gen)));
    }
  }
  return mem;
}

// Runs body(region) on one block whose UB region starts as `init`; returns the region after.
inline std::vector<std::byte> OnUb(const std::vector<std::byte>& init,
                                   const std::function<void(AscendC::LocalTensor<uint8_t>)>& body) {
  std::vector<std::byte> after(kRegion);
  const lngrad::Status s = lngrad::aicore::Launch(1, [&] {
    AscendC::TPipe pipe;
    AscendC::TBuf<> buf;
    pipe.InitBuffer(buf, kRegion);
    AscendC::LocalTensor<uint8_t> region = buf.Get<uint8_t>();
    std::memcpy(region.HostPtr(), init.data(), kRegion);
    body(region);
    std::memcpy(after.data(), region.HostPtr(), kRegion);
  });
  EXPECT_TRUE(s.ok()) << s.ToString();
  return after;
}

template <typename T>
AscendC::LocalTensor<T> At(AscendC::LocalTensor<uint8_t> region, uint32_t offset) {
  AscendC::LocalTensor<T> t = region[offset].ReinterpretCast<T>();
  return t;
}

// Index of the first differing byte, or -1.
inline long FirstDiff(const std::vector<std::byte>& a, const std::vector<std::byte>& b) {
  for (size_t i = 0; i < a.size(); ++i) {
    if (a[i] != b[i]) return static_cast<long>(i);
  }
  return -1;
}

// ---------------------------------------------------------------------------------------------
// Mask / stride scenarios.

struct Scenario {
  std::string name;
  MaskModel model;
  // Runs the instruction's mask form for this scenario: how the mask reaches it.
  enum Kind { kLen, kBits, kRegisterNormal, kRegisterCounter, kBitsCounter } kind;
  int64_t len = 0;
};

inline std::vector<Scenario> Scenarios(uint32_t lanes) {
  std::vector<Scenario> out;
  for (int64_t len : {1, 7, 37, 64, 100, 128, 200}) {
    for (uint32_t rt : {0u, 1u, 3u}) {
      out.push_back({"len " + std::to_string(len) + " rt " + std::to_string(rt),
                     Continuous(len, rt), Scenario::kLen, len});
    }
  }
  const std::pair<uint64_t, uint64_t> bits[] = {{~0ull, ~0ull},
                                                {0x69A569A569A569A5ull, 0x69A569A569A569A5ull},
                                                {1ull << 63, 1},
                                                {0, 0},
                                                {0xF0F0ull, 0x8000000000000001ull}};
  for (const auto& [hi, lo] : bits) {
    for (uint32_t rt : {1u, 2u}) {
      MaskModel m;
      m.hi = hi;
      m.lo = lo;
      m.repeat_time = rt;
      out.push_back({"bits " + std::to_string(hi) + ":" + std::to_string(lo), m, Scenario::kBits});
      out.push_back({"register bits", m, Scenario::kRegisterNormal});
    }
  }
  for (uint64_t count : {uint64_t{0}, uint64_t{1}, uint64_t{lanes} - 1, uint64_t{lanes},
                         uint64_t{lanes} + 3, uint64_t{3} * lanes + 5}) {
    MaskModel m;
    m.counter = true;
    m.count = count;
    m.repeat_time = 1;  // ignored in Counter mode
    out.push_back({"counter " + std::to_string(count), m, Scenario::kRegisterCounter});
    out.push_back({"counter bits " + std::to_string(count), m, Scenario::kBitsCounter});
  }
  return out;
}

// Calls form(mask_bits_ptr_or_len, is_register) with the scenario's way of passing the mask;
// `bits_form(mask[])`, `len_form(len)` and `reg_form()` are the instruction's three calls.
inline void Drive(const Scenario& s, const std::function<void(const uint64_t*)>& bits_form,
                  const std::function<void(uint64_t)>& len_form,
                  const std::function<void()>& reg_form) {
  const uint64_t bits[2] = {s.model.lo, s.model.hi};
  switch (s.kind) {
    case Scenario::kLen:
      len_form(static_cast<uint64_t>(s.len));
      break;
    case Scenario::kBits:
      bits_form(bits);
      break;
    case Scenario::kRegisterNormal:
      AscendC::SetMaskNorm();
      AscendC::SetVectorMask<float>(s.model.hi, s.model.lo);
      reg_form();
      AscendC::ResetMask();
      break;
    case Scenario::kRegisterCounter:
      AscendC::SetMaskCount();
      AscendC::SetVectorMask<float, AscendC::MaskMode::COUNTER>(
          static_cast<int32_t>(s.model.count));
      reg_form();
      AscendC::SetMaskNorm();
      AscendC::ResetMask();
      break;
    case Scenario::kBitsCounter: {
      AscendC::SetMaskCount();
      const uint64_t c[2] = {s.model.count, 0};
      bits_form(c);
      AscendC::SetMaskNorm();
      AscendC::ResetMask();
      break;
    }
  }
}

struct Strides {
  uint32_t blk[3];
  uint32_t rep[3];
};

// ---------------------------------------------------------------------------------------------
// One-source instructions (unary, tensor-scalar and Cast): the mask forms for each scenario.

inline const Strides kUnaryStrides[] = {{{1, 1, 0}, {8, 8, 0}},
                                        {{2, 3, 0}, {16, 24, 0}},
                                        {{1, 0, 0}, {8, 1, 0}},
                                        {{3, 1, 0}, {2, 8, 0}}};

// run(dst, src, how, mask_bits, len, rt, params): how 0 = bits, 1 = len, 2 = register.
template <typename D, typename S>
using UnaryDriver =
    std::function<void(const AscendC::LocalTensor<D>&, const AscendC::LocalTensor<S>&, int,
                       const uint64_t*, uint64_t, int32_t, const AscendC::UnaryRepeatParams&)>;

template <typename D, typename S>
void CheckOneSource(const std::string& name, const std::function<D(S)>& f,
                    const UnaryDriver<D, S>& run, bool positive = false, float range = 50.0f) {
  constexpr uint32_t kMaskSize = sizeof(D) > sizeof(S) ? sizeof(D) : sizeof(S);
  const uint32_t lanes = 256 / kMaskSize;
  auto init = Fill<S>(21, positive, range);
  for (const Strides& st : kUnaryStrides) {
    for (const Scenario& s : Scenarios(lanes)) {
      const AscendC::UnaryRepeatParams p(st.blk[0], st.blk[1], st.rep[0], st.rep[1]);
      const std::vector<Layout> ops = {{0, sizeof(D), st.blk[0], st.rep[0]},
                                       {kOpBytes, sizeof(S), st.blk[1], st.rep[1]}};
      std::vector<std::byte> want = init;
      for (const auto& e : Active(s.model, lanes, ops)) Store(want, e[0], f(Load<S>(want, e[1])));
      const auto got = OnUb(init, [&](AscendC::LocalTensor<uint8_t> r) {
        const auto d = At<D>(r, 0);
        const auto a = At<S>(r, kOpBytes);
        const int32_t rt = static_cast<int32_t>(s.model.repeat_time);
        Drive(
            s, [&](const uint64_t* m) { run(d, a, 0, m, 0, rt, p); },
            [&](uint64_t m) { run(d, a, 1, nullptr, m, rt, p); },
            [&] { run(d, a, 2, AscendC::MASK_PLACEHOLDER_LIST, 0, rt, p); });
      });
      ASSERT_EQ(FirstDiff(got, want), -1) << name << " " << s.name << " strides " << st.blk[0]
                                          << st.blk[1] << "/" << st.rep[0] << "," << st.rep[1];
    }
  }
}

// Round a long double to the nearest half, ties to even (independent of the library's codec:
// the candidates are compared by value).
inline uint16_t NearestHalf(long double v) {
  if (std::isnan(v)) return 0x7E00;
  const auto value = [](uint16_t h) -> long double {
    if ((h & 0x7FFF) == 0x7C00) return (h & 0x8000) ? -65536.0L : 65536.0L;
    const int e = (h >> 10) & 0x1F;
    const int m = h & 0x3FF;
    const long double mag = e == 0 ? std::ldexp(static_cast<long double>(m), -24)
                                   : std::ldexp(static_cast<long double>(1024 + m), e - 25);
    return (h & 0x8000) ? -mag : mag;
  };
  const uint16_t sign = std::signbit(v) ? 0x8000 : 0;
  const long double a = std::fabs(v);
  // The smallest magnitude whose value is >= a (values grow with the bits), then the nearer of
  // it and its predecessor.
  uint16_t lo = 0, hi = 0x7C00;
  while (lo < hi) {
    const uint16_t mid = static_cast<uint16_t>((lo + hi) / 2);
    if (value(mid) >= a) {
      hi = mid;
    } else {
      lo = static_cast<uint16_t>(mid + 1);
    }
  }
  uint16_t best = lo;
  if (lo > 0 && value(lo) != a) {
    const long double below = a - value(lo - 1);
    const long double above = value(lo) - a;
    if (below < above || (below == above && ((lo - 1) & 1) == 0)) best = lo - 1;
  }
  return static_cast<uint16_t>(sign | best);
}

// Launches one block whose kernel gets the float view of a TBuf of `bytes` from a fresh TPipe;
// returns the launch's status.
template <class Body>
lngrad::Status LaunchOnFloatBuf(uint32_t bytes, Body body) {
  return lngrad::aicore::Launch(1, [bytes, body] {
    AscendC::TPipe pipe;
    AscendC::TBuf<> buf;
    pipe.InitBuffer(buf, bytes);
    body(buf.Get<float>());
  });
}

}  // namespace lngrad::aicore::test
