// Test helpers of the DataCopyPad tests (data_copy_pad_test, data_copy_pad_checks_test): the
// products, one block on a UB buffer, the scalar model of the vendor's documentation (DataCopyPad
// GMToUB / UBToGM 非对齐数据搬运, SetPadValue), written byte by byte and sharing nothing with the
// implementation, and the runs of a case through both prototypes.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "kernel_operator.h"

#include "gm_buffer.h"

namespace lngrad::aicore::test {

inline constexpr const char* k910B = "Ascend910B1";      // Atlas A2, __NPU_ARCH__ 2201
inline constexpr const char* k950 = "Ascend950PR_9599";  // 3510
inline constexpr const char* k310B = "Ascend310B1";      // Atlas 200I/500 A2, 3002
inline constexpr const char* k310P = "Ascend310P1";      // Atlas inference series, 2002
inline constexpr const char* k910A = "Ascend910A";       // Atlas training series, 1001

inline constexpr uint32_t kUbBytes = 8192;  // the test's UB buffer
inline constexpr uint8_t kUbSentinel = 0x5A;
inline constexpr uint8_t kGmSentinel = 0xC3;
inline constexpr uint8_t kUndefined =
    0xFF;  // the simulator's fill for undefined padding (documented)

struct Outcome {
  std::vector<uint8_t> ub;  // the UB buffer after the kernel
  std::optional<KernelCheckError> error;
};

// Runs body(ub) in one block of `soc` on a UB buffer of kUbBytes pre-filled with kUbSentinel,
// catching a KernelCheckError inside the block.
inline Outcome RunOn(const char* soc,
                     const std::function<void(AscendC::LocalTensor<uint8_t>&)>& body) {
  Outcome out;
  LaunchOptions o;
  o.sequential = true;
  o.soc = soc;
  const lngrad::Status s = lngrad::aicore::Launch(
      1,
      [&] {
        AscendC::TPipe pipe;
        AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
        pipe.InitBuffer(buf, kUbBytes);
        AscendC::LocalTensor<uint8_t> ub = buf.Get<uint8_t>();
        std::memset(ub.HostPtr(), kUbSentinel, kUbBytes);
        try {
          body(ub);
        } catch (const KernelCheckError& e) {
          lngrad::aicore::DismissKernelCheck(e);  // handled here: not the launch's failure
          out.error = e;
        }
        out.ub.assign(ub.HostPtr(), ub.HostPtr() + kUbBytes);
      },
      o);
  EXPECT_TRUE(s.ok()) << s.ToString();
  return out;
}

// Distinct, non-zero bytes, so every misplaced byte shows.
inline std::vector<uint8_t> BytePattern(size_t n, uint8_t seed) {
  std::vector<uint8_t> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = static_cast<uint8_t>(seed + 7 * i + i / 251);
  return v;
}

// ---- The model, from the documentation ----------------------------------------------------

// The fields as the documentation names them (element counts for the paddings).
struct Case {
  uint32_t blockCount = 1;
  uint32_t blockLen = 0;  // bytes
  int64_t srcStride = 0;
  int64_t dstStride = 0;
  uint32_t leftPadding = 0;
  uint32_t rightPadding = 0;
  bool isPad = false;
  uint64_t padBits = 0;        // paddingValue's bytes
  bool registerKnown = false;  // SetPadValue (or an earlier isPad) in this block
  uint64_t registerBits = 0;
  bool compact = false;
  bool is950 = false;
};

inline uint64_t RoundUp32(uint64_t v) { return v % 32 == 0 ? v : v + (32 - v % 32); }

// GM -> UB: each row is [leftPadding][blockLen data][rightPadding][dummy to 32 B], the next one
// dstStride data blocks after; GM rows blockLen + srcStride bytes apart. The padding gets
// paddingValue with isPad, else the SetPadValue register (undefined without it). The dummy bytes
// get the row's first element when both paddings are 0 (on the 950 with isPad: paddingValue, as
// its samples show), else what the padding gets. Compact: rows packed, one dummy tail.
inline std::vector<uint8_t> ModelGmToUb(std::vector<uint8_t> ub, const std::vector<uint8_t>& gm,
                                        const Case& c, size_t elem) {
  if (c.blockCount == 0 || c.blockLen == 0) return ub;
  const size_t unit = elem == 8 ? 4 : elem;  // 64-bit types move as 32-bit pairs
  auto pad_byte = [&](uint64_t k) -> uint8_t {
    if (c.isPad) return static_cast<uint8_t>(c.padBits >> (8 * (k % unit)));
    if (c.registerKnown) return static_cast<uint8_t>(c.registerBits >> (8 * (k % unit)));
    return kUndefined;
  };
  const bool no_padding = c.compact || (c.leftPadding == 0 && c.rightPadding == 0);
  const bool first_element_dummy = no_padding && !(c.isPad && c.is950);
  if (c.compact) {
    uint64_t k = 0;
    for (uint32_t r = 0; r < c.blockCount; ++r) {
      for (uint32_t b = 0; b < c.blockLen; ++b) {
        ub[k++] = gm[r * (c.blockLen + c.srcStride) + b];
      }
    }
    const uint64_t end = RoundUp32(k);
    for (uint64_t j = k; j < end; ++j) ub[j] = first_element_dummy ? ub[j % unit] : pad_byte(j);
    return ub;
  }
  const uint64_t left = c.leftPadding * elem;
  const uint64_t right = c.rightPadding * elem;
  const uint64_t row = RoundUp32(left + c.blockLen + right);
  for (uint32_t r = 0; r < c.blockCount; ++r) {
    const uint64_t base = r * (row + 32 * static_cast<uint64_t>(c.dstStride));
    const uint64_t from = r * (c.blockLen + c.srcStride);
    for (uint64_t k = 0; k < row; ++k) {
      uint8_t v;
      if (k < left) {
        v = pad_byte(k);
      } else if (k < left + c.blockLen) {
        v = gm[from + k - left];
      } else if (k < left + c.blockLen + right) {
        v = pad_byte(k);
      } else {
        v = first_element_dummy ? gm[from + k % unit] : pad_byte(k);
      }
      ub[base + k] = v;
    }
  }
  return ub;
}

// UB -> GM: row r of blockLen bytes from UB at r * (RoundUp32(blockLen) + 32 * srcStride)
// (Compact: r * blockLen) to GM at r * (blockLen + dstStride); nothing else reaches GM.
inline std::vector<uint8_t> ModelUbToGm(std::vector<uint8_t> gm, const std::vector<uint8_t>& ub,
                                        const Case& c) {
  for (uint32_t r = 0; r < c.blockCount; ++r) {
    const uint64_t from =
        c.compact ? r * c.blockLen
                  : r * (RoundUp32(c.blockLen) + 32 * static_cast<uint64_t>(c.srcStride));
    for (uint32_t b = 0; b < c.blockLen; ++b) {
      gm[r * (c.blockLen + c.dstStride) + b] = ub[from + b];
    }
  }
  return gm;
}

// ---- Running the cases ----------------------------------------------------------------------

template <typename T>
AscendC::DataCopyPadExtParams<T> ExtPad(const Case& c) {
  T v;
  std::memcpy(&v, &c.padBits, sizeof(T));
  return AscendC::DataCopyPadExtParams<T>(c.isPad, static_cast<uint8_t>(c.leftPadding),
                                          static_cast<uint8_t>(c.rightPadding), v);
}

inline AscendC::DataCopyExtParams ExtParams(const Case& c) {
  AscendC::DataCopyExtParams p;
  p.blockCount = static_cast<uint16_t>(c.blockCount);
  p.blockLen = c.blockLen;
  p.srcStride = static_cast<AscendC::DataCopyExtStride>(c.srcStride);
  p.dstStride = static_cast<AscendC::DataCopyExtStride>(c.dstStride);
  return p;
}

template <typename T>
void SetRegister(const Case& c) {
  if (!c.registerKnown) return;
  T v;
  std::memcpy(&v, &c.registerBits, sizeof(T));
  AscendC::SetPadValue(v);
}

// GM -> UB with the DataCopyExtParams prototype (legacy: DataCopyParams + DataCopyPadParams).
template <typename T>
Outcome GmToUb(const char* soc, const Case& c, const std::vector<uint8_t>& gm_bytes,
               bool legacy = false, uint32_t ub_offset = 0) {
  GmBuffer gm(gm_bytes.size());
  std::memcpy(gm.p, gm_bytes.data(), gm_bytes.size());
  return RunOn(soc, [&](AscendC::LocalTensor<uint8_t>& ub) {
    AscendC::GlobalTensor<T> g;
    g.SetGlobalBuffer(gm.as<T>(), gm_bytes.size() / sizeof(T));
    AscendC::LocalTensor<T> dst = ub.ReinterpretCast<T>()[ub_offset / sizeof(T)];
    SetRegister<T>(c);
    if (legacy) {
      const AscendC::DataCopyParams p(
          static_cast<uint16_t>(c.blockCount), static_cast<uint16_t>(c.blockLen),
          static_cast<uint16_t>(c.srcStride), static_cast<uint16_t>(c.dstStride));
      const AscendC::DataCopyPadParams pad(c.isPad, static_cast<uint8_t>(c.leftPadding),
                                           static_cast<uint8_t>(c.rightPadding), c.padBits);
      if (c.compact) {
        AscendC::DataCopyPad<T, AscendC::PaddingMode::Compact>(dst, g, p, pad);
      } else {
        AscendC::DataCopyPad(dst, g, p, pad);
      }
    } else if (c.compact) {
      AscendC::DataCopyPad<T, AscendC::PaddingMode::Compact>(dst, g, ExtParams(c), ExtPad<T>(c));
    } else {
      AscendC::DataCopyPad(dst, g, ExtParams(c), ExtPad<T>(c));
    }
  });
}

// UB -> GM: the UB buffer holds `ub_bytes` first; returns the GM bytes (sentinel elsewhere).
template <typename T>
std::vector<uint8_t> UbToGm(const char* soc, const Case& c, const std::vector<uint8_t>& ub_bytes,
                            size_t gm_size, std::optional<KernelCheckError>* error = nullptr,
                            bool legacy = false) {
  GmBuffer gm(gm_size);
  std::memset(gm.p, kGmSentinel, gm_size);
  const Outcome o = RunOn(soc, [&](AscendC::LocalTensor<uint8_t>& ub) {
    std::memcpy(ub.HostPtr(), ub_bytes.data(), ub_bytes.size());
    AscendC::GlobalTensor<T> g;
    g.SetGlobalBuffer(gm.as<T>(), gm_size / sizeof(T));
    AscendC::LocalTensor<T> src = ub.ReinterpretCast<T>();
    if (legacy) {
      const AscendC::DataCopyParams p(
          static_cast<uint16_t>(c.blockCount), static_cast<uint16_t>(c.blockLen),
          static_cast<uint16_t>(c.srcStride), static_cast<uint16_t>(c.dstStride));
      AscendC::DataCopyPad(g, src, p);
    } else if (c.compact) {
      AscendC::DataCopyPad<T, AscendC::PaddingMode::Compact>(g, src, ExtParams(c));
    } else {
      AscendC::DataCopyPad(g, src, ExtParams(c));
    }
  });
  if (error != nullptr) *error = o.error;
  EXPECT_TRUE(error != nullptr || !o.error.has_value()) << o.error->what();
  return {gm.p, gm.p + gm_size};
}

inline void ExpectSameBytes(const std::vector<uint8_t>& got, const std::vector<uint8_t>& expected,
                            const char* where) {
  ASSERT_EQ(got.size(), expected.size());
  for (size_t i = 0; i < got.size(); ++i) {
    if (got[i] != expected[i]) {
      FAIL() << where << " byte " << i << " is " << int{got[i]} << ", expected "
             << int{expected[i]};
    }
  }
}

// Expects the kernel of `o` to have failed exactly when `fails`, and then with check `check`
// and a message that holds `needle` (if not empty). Call it under ASSERT_NO_FATAL_FAILURE.
inline void ExpectFailsIf(const Outcome& o, bool fails, const std::string& check,
                          const std::string& needle = "") {
  ASSERT_EQ(o.error.has_value(), fails);
  if (!o.error) return;
  EXPECT_EQ(o.error->check(), check);
  if (!needle.empty()) {
    EXPECT_NE(o.error->message().find(needle), std::string::npos) << o.error->message();
  }
}

inline std::string Describe(const Case& c) {
  return "blockCount " + std::to_string(c.blockCount) + " blockLen " + std::to_string(c.blockLen) +
         " srcStride " + std::to_string(c.srcStride) + " dstStride " + std::to_string(c.dstStride) +
         " left " + std::to_string(c.leftPadding) + " right " + std::to_string(c.rightPadding) +
         " isPad " + std::to_string(c.isPad) + " register " + std::to_string(c.registerKnown) +
         (c.compact ? " compact" : "");
}

template <typename T>
void ExpectGmToUbMatchesModel(const char* soc, const Case& c, bool legacy = false) {
  SCOPED_TRACE(std::string(soc) + " sizeof(T) " + std::to_string(sizeof(T)) + " " + Describe(c) +
               (legacy ? " legacy" : ""));
  const size_t gm_size = RoundUp32(
      c.blockCount * (c.blockLen + static_cast<size_t>(std::max<int64_t>(c.srcStride, 0))) + 64);
  const std::vector<uint8_t> gm = BytePattern(gm_size, static_cast<uint8_t>(3 + sizeof(T)));
  const Outcome o = GmToUb<T>(soc, c, gm, legacy);
  ASSERT_FALSE(o.error.has_value()) << o.error->what();
  const std::vector<uint8_t> expected =
      ModelGmToUb(std::vector<uint8_t>(kUbBytes, kUbSentinel), gm, c, sizeof(T));
  ExpectSameBytes(o.ub, expected, "UB");
}

template <typename T>
void ExpectUbToGmMatchesModel(const char* soc, const Case& c, bool legacy = false) {
  SCOPED_TRACE(std::string(soc) + " sizeof(T) " + std::to_string(sizeof(T)) + " " + Describe(c) +
               (legacy ? " legacy" : ""));
  const std::vector<uint8_t> ub = BytePattern(kUbBytes, static_cast<uint8_t>(11 + sizeof(T)));
  const size_t gm_size = RoundUp32(c.blockCount * (c.blockLen + c.dstStride) + 64);
  const std::vector<uint8_t> got = UbToGm<T>(soc, c, ub, gm_size, nullptr, legacy);
  const std::vector<uint8_t> expected =
      ModelUbToGm(std::vector<uint8_t>(gm_size, kGmSentinel), ub, c);
  ExpectSameBytes(got, expected, "GM");
}

// Row shapes for an element size: aligned, unaligned, one element, with gaps and paddings.
template <typename T>
std::vector<Case> GmToUbCases() {
  constexpr uint32_t e = sizeof(T);
  std::vector<Case> cases;
  for (uint32_t count : {1u, 3u}) {
    for (uint32_t len : {e, 5 * e, 32u, 96u + e}) {
      for (int64_t src_stride : {0, 1, 40}) {
        for (int64_t dst_stride : {0, 2}) {
          for (uint32_t left : {0u, 1u, 32 / e}) {
            for (uint32_t right : {0u, 2u}) {
              for (int pad : {0, 1, 2}) {  // isPad, SetPadValue register, neither
                cases.push_back({.blockCount = count,
                                 .blockLen = len,
                                 .srcStride = src_stride,
                                 .dstStride = dst_stride,
                                 .leftPadding = left,
                                 .rightPadding = right,
                                 .isPad = pad == 0,
                                 .padBits = 0x8877665544332211ull,
                                 .registerKnown = pad == 1,
                                 .registerBits = 0x0123456789ABCDEFull});
              }
            }
          }
        }
      }
    }
  }
  return cases;
}

}  // namespace lngrad::aicore::test
