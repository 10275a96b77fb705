// The loop the non-math scratch replay tests share (reduce AR/RA, transpose, transform, transdata,
// broadcast; the SoftMax family's compare): lngrad runs on one block whose UB holds a source, dst
// (the elements the call writes and more past them) and a scratch, each given as a byte image
// (the scratch either a sharedTmpBuffer of its own or the stack buffer the overloads without it
// pop, left at exactly its bytes); the three images after the call come back and are compared
// with the replay's, byte for byte, or word for word where two NaNs match (their sign and payload
// are the unit's, not the kit's code's).
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "kernel_operator.h"
#include "lngrad_aicore/launch.h"
#include "scratch_test_util.h"

namespace lngrad_replay::scratch_test {

// The UB images of one case: before the call (the inputs) or after it (lngrad's or the replay's).
struct UbImages {
  std::vector<uint8_t> src, dst, tmp;
  bool ran = false;  // lngrad's: the kernel ran and read them back
};

inline constexpr uint8_t kTmpFill = 0xa5;  // the scratch's bytes before the call
inline constexpr uint8_t kDstFill = 0x5a;  // dst's bytes before the call

// The images before a call: src's bytes, dst of dstBytes and the scratch of tmpBytes filled.
inline UbImages StartImages(std::vector<uint8_t> src, size_t dstBytes, size_t tmpBytes,
                            uint8_t dstFill = kDstFill, uint8_t tmpFill = kTmpFill) {
  return {std::move(src), std::vector<uint8_t>(dstBytes, dstFill),
          std::vector<uint8_t>(tmpBytes, tmpFill)};
}

template <class T>
std::vector<uint8_t> BytesOf(const T* p, size_t n) {
  if (n == 0) return {};
  const auto* b = reinterpret_cast<const uint8_t*>(p);
  return std::vector<uint8_t>(b, b + n * sizeof(T));
}
template <class T>
std::vector<uint8_t> BytesOf(const std::vector<T>& v) {
  return BytesOf(v.data(), v.size());
}

// The first n values of T in the bytes of `b` (past its end: zero), for replays that work on T.
template <class T>
std::vector<T> ValuesOf(const std::vector<uint8_t>& b, size_t n) {
  std::vector<T> v(n);
  const size_t bytes = std::min(b.size(), n * sizeof(T));
  if (bytes != 0) std::memcpy(v.data(), b.data(), bytes);
  return v;
}
// v's bytes over the start of b (as much of them as b holds).
template <class T>
void PutValues(std::vector<uint8_t>& b, const std::vector<T>& v) {
  const size_t bytes = std::min(b.size(), v.size() * sizeof(T));
  if (bytes != 0) std::memcpy(b.data(), v.data(), bytes);
}

// n random bit patterns of T with NaN, +-inf, +-0 and subnormal patterns of the 2- and 4-byte
// float types planted at the start (for moves: every pattern is just bits).
template <class T>
std::vector<T> RandomBits(size_t n, uint32_t seed) {
  std::mt19937 gen(seed);
  std::vector<T> v(n);
  for (T& x : v) {
    const uint32_t b = gen();
    std::memcpy(&x, &b, sizeof(T));
  }
  const uint32_t special2[] = {0x7E00, 0xFC00, 0x7C00, 0x8000, 0x0000, 0x0001, 0x83FF, 0x7C01};
  const uint32_t special4[] = {0x7FC00000, 0xFF800000, 0x7F800000, 0x80000000,
                               0x00000000, 0x00000001, 0x807FFFFF, 0x7F800001};
  for (size_t i = 0; i < 8 && i < n; ++i) {
    const uint32_t b = sizeof(T) == 2 ? special2[i] : special4[i];
    std::memcpy(&v[i], &b, sizeof(T));
  }
  return v;
}

template <class T>
const char* TypeName() {
  if constexpr (std::is_same_v<T, half>) return "half";
  if constexpr (std::is_same_v<T, bfloat16_t>) return "bfloat16_t";
  if constexpr (std::is_same_v<T, float>) return "float";
  if constexpr (std::is_same_v<T, int8_t>) return "int8_t";
  if constexpr (std::is_same_v<T, uint8_t>) return "uint8_t";
  if constexpr (std::is_same_v<T, int16_t>) return "int16_t";
  if constexpr (std::is_same_v<T, uint16_t>) return "uint16_t";
  if constexpr (std::is_same_v<T, int32_t>) return "int32_t";
  return "uint32_t";
}

// One block of `soc` (launched sequentially) whose UB holds `in`: src's bytes (a T tensor of
// srcElems elements, or of as many as the bytes hold; at least one), dst's (a T tensor of all of
// them, at least one) and the scratch's (in.tmp.size() bytes). call(dst, src, tmp, stack) runs
// the API; the images after it come back with `ran` set. A failed launch is a gtest failure.
template <class T, class Call>
UbImages RunOnUb(const char* soc, const UbImages& in, bool stack, const Call& call,
                 size_t srcElems = 0) {
  UbImages out;
  lngrad::aicore::LaunchOptions opts;
  opts.soc = soc;
  opts.sequential = true;
  const auto kernel = [&] {
    AscendC::TPipe pipe;
    AscendC::TBuf<> bs, bd, bt, filler;
    const size_t ns = std::max<size_t>(srcElems != 0 ? srcElems : in.src.size() / sizeof(T), 1);
    const size_t nd = std::max<size_t>(in.dst.size() / sizeof(T), 1);
    const auto tmpBytes = static_cast<uint32_t>(in.tmp.size());
    pipe.InitBuffer(bs, Aligned32(static_cast<uint32_t>(std::max(in.src.size(), ns * sizeof(T)))));
    pipe.InitBuffer(bd, Aligned32(static_cast<uint32_t>(nd * sizeof(T))));
    AscendC::LocalTensor<uint8_t> tmp;
    TakeScratch(pipe, bt, filler, stack, tmpBytes, &tmp);
    if (::testing::Test::HasFatalFailure()) return;
    AscendC::LocalTensor<uint8_t> raw = bs.Get<uint8_t>();
    AscendC::LocalTensor<T> s = bs.Get<T>(static_cast<uint32_t>(ns));
    AscendC::LocalTensor<T> d = bd.Get<T>(static_cast<uint32_t>(nd));
    auto* dp = reinterpret_cast<uint8_t*>(d.HostPtr());
    if (!in.src.empty()) std::memcpy(raw.HostPtr(), in.src.data(), in.src.size());
    if (!in.dst.empty()) std::memcpy(dp, in.dst.data(), in.dst.size());
    if (tmpBytes != 0) std::memcpy(tmp.HostPtr(), in.tmp.data(), tmpBytes);
    call(d, s, tmp, stack);
    out.src.assign(raw.HostPtr(), raw.HostPtr() + in.src.size());
    out.dst.assign(dp, dp + in.dst.size());
    if (stack) {
      ASSERT_TRUE((AscendC::PopStackBuffer<uint8_t, AscendC::TPosition::VECCALC>(tmp)));
    }
    out.tmp.assign(tmp.HostPtr(), tmp.HostPtr() + tmpBytes);
    out.ran = true;
  };
  const lngrad::Status st = lngrad::aicore::Launch(1, kernel, opts);
  EXPECT_TRUE(st.ok()) << st.ToString();
  return out;
}

// A word of `size` bytes that is a NaN: a half (2) or a float (4); no other size is.
inline bool IsNanWord(const uint8_t* p, size_t size) {
  if (size == 4) {
    uint32_t b;
    std::memcpy(&b, p, 4);
    return (b & 0x7f800000u) == 0x7f800000u && (b & 0x7fffffu) != 0;
  }
  if (size != 2) return false;
  uint16_t h;
  std::memcpy(&h, p, 2);
  return (h & 0x7c00u) == 0x7c00u && (h & 0x3ffu) != 0;
}

// "" where got and want are the same as words of `size` bytes (two NaNs match where size is 2 or
// 4; size 1: every byte exactly), the bytes past the last whole word exactly; else where they
// first differ.
inline std::string FirstDiff(const std::vector<uint8_t>& got, const std::vector<uint8_t>& want,
                             size_t size = 1) {
  if (got.size() != want.size()) {
    return "sizes " + std::to_string(got.size()) + " and " + std::to_string(want.size());
  }
  const size_t whole = got.size() / size * size;
  for (size_t i = 0; i < got.size(); i += (i < whole ? size : 1)) {
    const size_t len = i < whole ? size : 1;
    if (std::memcmp(&got[i], &want[i], len) == 0) continue;
    if (len > 1 && IsNanWord(&got[i], len) && IsNanWord(&want[i], len)) continue;
    size_t at = i;
    while (got[at] == want[at]) ++at;
    return "byte " + std::to_string(at) + " of " + std::to_string(got.size()) + " (word " +
           std::to_string(i / size) + "): lngrad " + std::to_string(got[at]) + ", replay " +
           std::to_string(want[at]);
  }
  return "";
}

inline void ExpectSameImage(const std::vector<uint8_t>& got, const std::vector<uint8_t>& want,
                            size_t size, const std::string& what) {
  EXPECT_EQ(FirstDiff(got, want, size), "") << what;
}

// Two vectors of values (float, half: two NaNs match) bit for bit.
template <class V>
void ExpectSameValues(const std::vector<V>& got, const std::vector<V>& want,
                      const std::string& what) {
  ExpectSameImage(BytesOf(got), BytesOf(want), sizeof(V), what);
}

// lngrad's images (`got`: the kernel ran) against the replay's: dst, src and the whole scratch.
inline void ExpectUbImages(const UbImages& got, const UbImages& want, size_t size,
                           const std::string& what) {
  ASSERT_TRUE(got.ran) << what;
  ExpectSameImage(got.dst, want.dst, size, what + ": dst");
  ExpectSameImage(got.src, want.src, size, what + ": src");
  ExpectSameImage(got.tmp, want.tmp, size, what + ": scratch");
}

}  // namespace lngrad_replay::scratch_test
