// CastDequant and Cast int32_t -> half, and the registers the three SetDeqScale forms write, on
// Ascend910B1 (A2) and Ascend950PR_9589 against the replay's second part (replay_cast_dequant.h:
// CdqS32Half, CdqRegs): random and edge int32_t inputs (float ties, past 2^24, extremes) for a set
// of half scales (1, subnormal, negative, 65504, -0, ...), counts with tails, the mask forms
// (counted and bit-wise, two repeats), the overflow modes (the default saturation, SetOverflow(1),
// and on the 950 CTRL[60] clear in the saturating mode, where the output Cast's NO_SAT trait
// rules: IEEE), and sequences of SetDeqScale forms followed by both conversions (unchecked: the
// A2/A3 pairing check would refuse some). The destination buffer is marked before each call and
// compared whole.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "../aicore/checked_mode_scope.h"
#include "../aicore/repeat_test_util.h"
#include "../aicore/sanitizer_off.h"
#include "kernel_operator.h"
#include "replay_cast_dequant.h"

namespace {

using namespace AscendC;
using lngrad::aicore::test::CheckedModeScope;
using lngrad::aicore::test::OnBlock;
using lngrad::aicore::test::Ub;
namespace rp = lngrad_replay;

constexpr uint16_t kMark = 0xa5a5;
constexpr uint32_t kCount = 4096 + 37;  // a tail past whole repeats

struct Soc {
  const char* name;
  rp::CdqArch arch;
};
constexpr Soc kSocs[] = {{"Ascend910B1", rp::CdqArch::k2201},
                         {"Ascend950PR_9589", rp::CdqArch::k3510}};

// The block's overflow state: the default (saturating), SetOverflow(1) (IEEE), and the default
// mode with CTRL[60] clear (each register Cast's own trait rules; the 950 only).
enum class Ovf { kDefault, kIeee, kPerInstruction };

void SetOvf(Ovf o) {
  if (o == Ovf::kIeee) AscendCUtils::SetOverflow(1);
  if (o == Ovf::kPerInstruction) SetCtrlSpr<60, 60>(0);
}

// The replay's `saturate` for the state: the vector Cast and the register Cast under CTRL[60]
// follow the overflow mode; with CTRL[60] clear the 950's f322F16CastTrait (NO_SAT) rules.
bool Saturates(Ovf o, rp::CdqArch arch) {
  if (o == Ovf::kPerInstruction && arch == rp::CdqArch::k3510) return false;
  return o == Ovf::kDefault;
}

std::vector<int32_t> Inputs(uint32_t n) {
  std::vector<int32_t> v = {
      0,         1,        -1,       2049,      -2049,         16777217,       16785409,
      -16785409, 16777219, 33554435, INT32_MAX, INT32_MIN,     INT32_MAX - 64, 65504,
      65519,     65520,    -65520,   1 << 30,   (1 << 24) + 3, 123456789};
  std::mt19937 g(20261206);
  std::uniform_int_distribution<int32_t> all(INT32_MIN, INT32_MAX);
  std::uniform_int_distribution<int32_t> small(-70000, 70000);
  std::uniform_int_distribution<int> shift(0, 30);
  while (v.size() < n) {
    switch (v.size() % 3) {
      case 0:
        v.push_back(all(g));
        break;
      case 1:
        v.push_back(small(g));
        break;
      default:  // near a power of two, where float and half ties sit
        v.push_back((int32_t{1} << shift(g)) + small(g) % 9);
    }
  }
  return v;
}

constexpr uint16_t kScales[] = {0x3c00, 0x0400, 0x0001, 0x2e66, 0xbc01,
                                0x7bff, 0x3555, 0x8000, 0x1400, 0x5bff};

void ExpectSame(const std::vector<uint16_t>& got, const std::vector<uint16_t>& want,
                const std::string& what) {
  ASSERT_EQ(got.size(), want.size()) << what << ": the launch failed";
  for (size_t i = 0; i < want.size(); ++i) {
    if (got[i] != want[i]) {
      ADD_FAILURE() << what << ": half " << i << ": lngrad 0x" << std::hex << got[i]
                    << ", replay 0x" << want[i];
      return;
    }
  }
}

std::string Name(const Soc& soc, uint16_t scale, Ovf o) {
  return std::string(soc.name) + " scale bits " + std::to_string(scale) + " ovf " +
         std::to_string(static_cast<int>(o));
}

}  // namespace

// The count forms of CastDequant and Cast (CAST_RINT; on the 950 Cast's int32_t -> half runs the
// same float steps with g_deqValue): count results, nothing else written.
TEST(CastDequantReplay, Int32ToHalfCountFormsMatchTheReplay) {
  const std::vector<int32_t> src = Inputs(kCount);
  for (const Soc& soc : kSocs) {
    for (Ovf o : {Ovf::kDefault, Ovf::kIeee, Ovf::kPerInstruction}) {
      if (o == Ovf::kPerInstruction && soc.arch != rp::CdqArch::k3510) continue;  // 950 only
      for (uint16_t scale : kScales) {
        std::vector<uint16_t> deq, cast;
        OnBlock(
            [&](Ub& ub) {
              ub.Put<int32_t>(0, src);
              ub.Put<uint16_t>(1, {}, kMark);
              ub.Put<uint16_t>(2, {}, kMark);
              SetOvf(o);
              SetDeqScale(half::FromBits(scale));
              CastDequant<half, int32_t>(ub.Get<half>(1), ub.Get<int32_t>(0), kCount);
              Cast(ub.Get<half>(2), ub.Get<int32_t>(0), RoundMode::CAST_RINT, kCount);
              deq = ub.Take<uint16_t>(1);
              cast = ub.Take<uint16_t>(2);
            },
            soc.name);
        std::vector<uint16_t> want(lngrad::aicore::test::kUbBufBytes / 2, kMark);
        for (uint32_t i = 0; i < kCount; ++i) {
          want[i] = rp::CdqS32Half(src[i], scale, soc.arch, Saturates(o, soc.arch));
        }
        ExpectSame(deq, want, "CastDequant " + Name(soc, scale, o));
        ExpectSame(cast, want, "Cast " + Name(soc, scale, o));
      }
    }
  }
}

// The mask forms (64 int32_t lanes a repeat, two repeats, dstRepStride 4, srcRepStride 8): a
// counted mask of 37 and a bit-wise one; inactive lanes keep their bytes.
TEST(CastDequantReplay, Int32ToHalfMaskFormsMatchTheReplay) {
  const std::vector<int32_t> src = Inputs(256);
  const uint64_t bits[2] = {0xf0f0'3c3c'8001'ff00ull, 0};
  for (const Soc& soc : kSocs) {
    for (uint16_t scale : {uint16_t{0x0400}, uint16_t{0x2e66}}) {
      std::vector<uint16_t> counted, bitwise;
      OnBlock(
          [&](Ub& ub) {
            ub.Put<int32_t>(0, src);
            ub.Put<uint16_t>(1, {}, kMark);
            ub.Put<uint16_t>(2, {}, kMark);
            SetDeqScale(half::FromBits(scale));
            const UnaryRepeatParams p{1, 1, 4, 8};
            CastDequant<half, int32_t>(ub.Get<half>(1), ub.Get<int32_t>(0), 37, 2, p);
            CastDequant<half, int32_t>(ub.Get<half>(2), ub.Get<int32_t>(0), bits, 2, p);
            counted = ub.Take<uint16_t>(1);
            bitwise = ub.Take<uint16_t>(2);
          },
          soc.name);
      std::vector<uint16_t> want_c(lngrad::aicore::test::kUbBufBytes / 2, kMark);
      std::vector<uint16_t> want_b = want_c;
      for (uint32_t r = 0; r < 2; ++r) {
        for (uint32_t p = 0; p < 64; ++p) {
          const uint16_t h = rp::CdqS32Half(src[r * 64 + p], scale, soc.arch, true);
          if (p < 37) want_c[r * 64 + p] = h;
          if (((bits[0] >> p) & 1u) != 0) want_b[r * 64 + p] = h;
        }
      }
      ExpectSame(counted, want_c, std::string("counted mask ") + soc.name);
      ExpectSame(bitwise, want_b, std::string("bit-wise mask ") + soc.name);
    }
  }
}

// Which SetDeqScale form writes which register and what each conversion reads: on the A2 one
// DEQSCALE for all three forms, on the 950 g_deqValue (SetDeqScale(half), 1 at the start and
// after InitSocState) apart from g_deqScale (the scalar form).
TEST(CastDequantReplay, SetDeqScaleRegistersPerProduct) {
  CheckedModeScope unchecked(false);
  const std::vector<int32_t> s32 = Inputs(64);
  std::vector<int16_t> s16(128);
  for (int i = 0; i < 128; ++i) s16[i] = static_cast<int16_t>(i * 37 - 2000);
  constexpr uint16_t kHalfScale = 0x4100;  // 2.5
  // Steps: 'h' SetDeqScale(half), 's' SetDeqScale(float, int16_t, bool), 'i' InitSocState.
  for (const char* steps : {"", "h", "s", "hs", "sh", "hi", "shi"}) {
    for (const Soc& soc : kSocs) {
      rp::CdqRegs regs{soc.arch};
      if (soc.arch == rp::CdqArch::k2201) regs.deqValue = 0;  // unused there
      std::vector<uint16_t> h;
      std::vector<uint8_t> b;
      OnBlock(
          [&](Ub& ub) {
            ub.Put<int32_t>(0, s32);
            ub.Put<int16_t>(3, s16);
            ub.Put<uint16_t>(1, {}, kMark);
            ub.Put<uint8_t>(2, {}, 0xa5);
            for (const char* c = steps; *c != '\0'; ++c) {
              if (*c == 'h') SetDeqScale(half::FromBits(kHalfScale));
              if (*c == 's') SetDeqScale(0.37f, 5, false);
              if (*c == 'i') InitSocState();
            }
            CastDequant<half, int32_t>(ub.Get<half>(1), ub.Get<int32_t>(0), 64);
            CastDequant<uint8_t, int16_t, false, true>(ub.Get<uint8_t>(2), ub.Get<int16_t>(3), 128);
            h = ub.Take<uint16_t>(1);
            b = ub.Take<uint8_t>(2);
          },
          soc.name);
      for (const char* c = steps; *c != '\0'; ++c) {
        if (*c == 'h') regs.SetHalf(kHalfScale);
        if (*c == 's') regs.SetScalar(0.37f, 5, false);
        if (*c == 'i' && soc.arch == rp::CdqArch::k3510) regs.deqValue = 0x3c00;
      }
      std::vector<uint16_t> want_h(lngrad::aicore::test::kUbBufBytes / 2, kMark);
      for (uint32_t i = 0; i < 64; ++i) {
        want_h[i] = rp::CdqS32Half(s32[i], regs.S32Scale(), soc.arch, true);
      }
      std::vector<uint8_t> want_b(lngrad::aicore::test::kUbBufBytes, 0xa5);
      const uint64_t word = regs.S16Word();
      rp::CdqCount(want_b.data(), s16.data(), 128, &word, false, true, soc.arch);
      const std::string what = std::string(soc.name) + " steps '" + steps + "'";
      ExpectSame(h, want_h, "int32_t -> half, " + what);
      ASSERT_EQ(b.size(), want_b.size());
      EXPECT_TRUE(b == want_b) << "int16_t -> uint8_t, " << what;
    }
  }
}
