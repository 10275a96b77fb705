// Tests of layer reg: a scalar model of the register functions, written from the reference's
// per-element definitions (docs/zh/api/SIMD-API/C-API/reg/) as a separate reading: it shares no
// code with lngrad_reg (op_table.h, engine.h), so a wrong reading there shows here.
#pragma once

#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <type_traits>
#include <vector>

namespace lngrad::reg::testing {

inline constexpr uint32_t kVl = 256;  // the reference's VL in bytes

// The mask register as 256 bools, one per bit; lane i of T is bit i * sizeof(T).
struct ModelMask {
  bool bit[kVl] = {};
};

// Integer results are the low bits of the exact result (two's complement wrap-around).
template <typename T>
T Wrap(int64_t exact) {
  using U = std::make_unsigned_t<T>;
  return static_cast<T>(static_cast<U>(static_cast<uint64_t>(exact)));
}

enum class Op { kAdd, kSub, kMul, kDiv, kAnd };

template <typename T>
T ModelBinary(Op op, T a, T b) {
  if constexpr (std::is_floating_point_v<T>) {
    switch (op) {
      case Op::kAdd:
        return a + b;
      case Op::kSub:
        return a - b;
      case Op::kMul:
        return a * b;
      case Op::kDiv:
        return a / b;
      case Op::kAnd: {
        uint32_t x, y;
        std::memcpy(&x, &a, 4);
        std::memcpy(&y, &b, 4);
        x &= y;
        T r;
        std::memcpy(&r, &x, 4);
        return r;
      }
    }
  } else {
    const int64_t x = a, y = b;
    switch (op) {
      case Op::kAdd:
        return Wrap<T>(x + y);
      case Op::kSub:
        return Wrap<T>(x - y);
      case Op::kMul:
        return Wrap<T>(x * y);
      case Op::kDiv:  // lngrad's documented choice where the reference is silent
        return y == 0 ? Wrap<T>(-1) : Wrap<T>(x / y);
      case Op::kAnd:
        return Wrap<T>(x & y);
    }
  }
  return T{};
}

// Random lanes of T (floats: small integers and fractions, a few zeros; ints: every bit).
template <typename T>
std::vector<T> RandomLanes(std::mt19937& rng, uint32_t n) {
  std::vector<T> v(n);
  for (T& x : v) {
    if constexpr (std::is_floating_point_v<T>) {
      x = static_cast<T>(static_cast<int>(rng() % 2001) - 1000) / T(8);
    } else {
      x = static_cast<T>(rng());
    }
  }
  return v;
}

}  // namespace lngrad::reg::testing
