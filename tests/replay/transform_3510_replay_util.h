// What the 950 tensor-transform replay tests share (transform_3510_replay_test: Pad, UnPad,
// Broadcast, ConfusionTranspose's ND types; topk_merge_3510_replay_test.cpp uses the launch
// and the bit helpers too): a one-block launch on Ascend950PR_9589 with UB
// buffers of the sizes a case asks for, their whole contents in and out (so what a call leaves
// past the region it should write is compared too), and the register-level building blocks the
// replays are written with: a register of 256 bytes of lanes, UpdateMask, and a memory image
// with the aligned and unaligned stores of the kit's register code.
//
// The replays (the *_3510_replay_test.cpp files) are scalar re-readings of the kit's 3510 files
// (commit 82b89a15f); they share no code with include/ascendc/adv.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "../aicore/sanitizer_off.h"
#include "kernel_operator.h"

namespace lngrad_replay::transform3510 {

using lngrad::aicore::CheckedMode;
using lngrad::aicore::KernelCheckError;
using lngrad::aicore::LaunchOptions;
using lngrad::aicore::SetCheckedMode;

inline constexpr const char* k950 = "Ascend950PR_9589";
inline constexpr uint32_t kVecBytes = 256;  // one register (GetVecLen, CUBE_MAX_SIZE)

template <typename T>
constexpr uint32_t Lanes() {
  return kVecBytes / sizeof(T);
}

template <typename T>
using Bits = std::conditional_t<sizeof(T) == 1, uint8_t,
                                std::conditional_t<sizeof(T) == 2, uint16_t, uint32_t>>;

template <typename T>
Bits<T> BitsOf(T v) {
  return std::bit_cast<Bits<T>>(v);
}

template <typename T>
T FromBits(uint32_t b) {
  return std::bit_cast<T>(static_cast<Bits<T>>(b));
}

// Random bit patterns (any value of T, NaNs and infinities of the float types included).
template <typename T>
std::vector<T> RandomBits(uint32_t seed, size_t n) {
  std::mt19937 gen(seed);
  std::vector<T> v(n);
  for (T& x : v) x = FromBits<T>(static_cast<uint32_t>(gen()));
  return v;
}

// UpdateMask<T>(scalar): the first min(scalar, lanes) lanes; scalar decreases by that many.
inline std::vector<bool> UpdateMask(uint32_t& scalar, uint32_t lanes) {
  const uint32_t on = std::min(scalar, lanes);
  scalar -= on;
  std::vector<bool> m(lanes, false);
  std::fill(m.begin(), m.begin() + on, true);
  return m;
}

inline std::vector<bool> FirstLanes(uint32_t n, uint32_t lanes) {
  uint32_t s = n;
  return UpdateMask(s, lanes);
}

// A memory image of element type T (a UB buffer) and the kit's stores into it.
template <typename T>
struct Image {
  std::vector<T> mem;
  // StoreAlign with a mask: the selected lanes of reg at element `at`.
  void StoreMasked(size_t at, const std::vector<T>& reg, const std::vector<bool>& mask) {
    for (size_t l = 0; l < reg.size(); ++l) {
      if (mask[l]) mem.at(at + l) = reg[l];
    }
  }
  // StoreUnAlign(cursor, reg, ureg, count) followed eventually by StoreUnAlignPost: the first
  // `count` lanes at the cursor, which advances by count (the unaligned register only delays
  // the bytes; after the Post, memory holds them in order).
  void StoreRun(size_t& cursor, const std::vector<T>& reg, uint32_t count) {
    EXPECT_LE(count, reg.size()) << "a store of more lanes than a register holds";
    for (uint32_t l = 0; l < count && l < reg.size(); ++l) mem.at(cursor + l) = reg[l];
    cursor += count;
  }
  // LoadAlign / LoadUnAlign: a whole register from element `at` (lanes past the image read 0;
  // the cases keep the lanes that are stored inside it).
  std::vector<T> Load(size_t at) const {
    std::vector<T> r(Lanes<T>());
    for (size_t l = 0; l < r.size(); ++l) r[l] = at + l < mem.size() ? mem[at + l] : T{};
    return r;
  }
};

// A block of the 950 with UB buffers of the given byte sizes.
struct Bufs {
  AscendC::TPipe pipe;
  std::vector<AscendC::TBuf<>> buf;
  std::vector<uint32_t> bytes;
  explicit Bufs(const std::vector<uint32_t>& sizes) : buf(sizes.size()), bytes(sizes) {
    for (size_t i = 0; i < sizes.size(); ++i) pipe.InitBuffer(buf[i], sizes[i]);
  }
  template <typename T>
  AscendC::LocalTensor<T> Get(int i) {
    return buf[i].Get<T>();
  }
  template <typename T>
  AscendC::LocalTensor<T> Get(int i, uint32_t n) {
    return buf[i].Get<T>(n);
  }
  template <typename T>
  void Put(int i, const std::vector<T>& v) {
    T* p = Get<T>(i).HostPtr();
    for (size_t k = 0; k < bytes[i] / sizeof(T); ++k) p[k] = k < v.size() ? v[k] : T{};
  }
  template <typename T>
  std::vector<T> Take(int i) {
    const T* p = Get<T>(i).HostPtr();
    return std::vector<T>(p, p + bytes[i] / sizeof(T));
  }
};

inline void On950(const std::vector<uint32_t>& sizes, const std::function<void(Bufs&)>& body) {
  LaunchOptions o;
  o.soc = k950;
  const lngrad::Status s = lngrad::aicore::Launch(
      1,
      [&] {
        Bufs b(sizes);
        body(b);
      },
      o);
  EXPECT_TRUE(s.ok()) << s.ToString();
}

// The check a body raises in checked mode on the 950 ("" if none) and its message.
inline std::pair<std::string, std::string> CheckOn950(const std::vector<uint32_t>& sizes,
                                                      const std::function<void(Bufs&)>& body) {
  const bool was = CheckedMode();
  SetCheckedMode(true);
  std::pair<std::string, std::string> r;
  On950(sizes, [&](Bufs& b) {
    try {
      body(b);
    } catch (const KernelCheckError& e) {
      lngrad::aicore::DismissKernelCheck(e);
      r = {e.check(), e.message()};
    }
  });
  SetCheckedMode(was);
  return r;
}

// The first element where lngrad's buffer and the replay's image differ ("" if none).
template <typename T>
std::string FirstDiff(const std::vector<T>& got, const std::vector<T>& want) {
  if (got.size() != want.size()) return "sizes differ";
  for (size_t i = 0; i < got.size(); ++i) {
    if (BitsOf(got[i]) != BitsOf(want[i])) {
      return "element " + std::to_string(i) + ": lngrad bits " +
             std::to_string(static_cast<uint32_t>(BitsOf(got[i]))) + ", replay bits " +
             std::to_string(static_cast<uint32_t>(BitsOf(want[i])));
    }
  }
  return "";
}

}  // namespace lngrad_replay::transform3510
