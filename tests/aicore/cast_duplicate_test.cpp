// Duplicate of the types Cast's tables bring: the 950's 1- and 8-byte types, bfloat16_t, and the
// tensor-source form (aicore_cast_test; moved out of cast_test.cpp).
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "cast_test_util.h"
#include "kernel_operator.h"
#include "run_kernel.h"

namespace {

using namespace AscendC;
using namespace lngrad::aicore::test;

// ---- Duplicate of 1- and 8-byte types (950) ---------------------------------------------------

template <typename T>
void CheckWideDuplicate(T v) {
  constexpr uint32_t kN = 100;
  std::vector<T> out(kN + 4);
  const auto failures = RunKernel(
      1,
      [&] {
        TPipe pipe;
        TBuf<> b;
        pipe.InitBuffer(b, 1024);
        LocalTensor<T> t = b.Get<T>();
        std::memset(t.HostPtr(), 0x77, (kN + 4) * sizeof(T));
        Duplicate(t, v, static_cast<int32_t>(kN));
        std::memcpy(out.data(), t.HostPtr(), (kN + 4) * sizeof(T));
      },
      On(k950));
  ASSERT_TRUE(failures.empty()) << failures[0].message;
  T untouched;
  std::memset(&untouched, 0x77, sizeof(T));
  for (uint32_t i = 0; i < kN + 4; ++i) {
    EXPECT_EQ(out[i], i < kN ? v : untouched) << i;
  }
}

TEST(Duplicate, OneAndEightByteTypesOn950) {
  CheckWideDuplicate<int8_t>(-3);
  CheckWideDuplicate<uint8_t>(200);
  CheckWideDuplicate<int64_t>(-0x123456789ALL);
  CheckWideDuplicate<uint64_t>(0xFEDCBA9876543210ull);
  const std::string c = CheckOf(kA2, [] {
    TPipe pipe;
    TBuf<> b;
    pipe.InitBuffer(b, 256);
    Duplicate(b.Get<int8_t>(), int8_t{1}, 32);
  });
  EXPECT_NE(c.find("vector_type"), std::string::npos) << c;
  EXPECT_NE(c.find("1-byte"), std::string::npos) << c;
}

}  // namespace

namespace {

TEST(Duplicate, Bfloat16MovesBitsInCountAndMaskForms) {
  // bfloat16_t is a Duplicate and Copy type on every product with a bfloat16 table (A2/A3 here).
  std::vector<uint16_t> out(160), copied(160);
  const auto failures = RunKernel(1, [&] {
    TPipe pipe;
    TBuf<> b, c;
    pipe.InitBuffer(b, 160 * 2);
    pipe.InitBuffer(c, 160 * 2);
    LocalTensor<bfloat16_t> t = b.Get<bfloat16_t>();
    LocalTensor<bfloat16_t> u = c.Get<bfloat16_t>();
    std::memset(t.HostPtr(), 0, 160 * 2);
    std::memset(u.HostPtr(), 0, 160 * 2);
    Duplicate(t, bfloat16_t(-2.5f), 100);
    Duplicate(t[128], bfloat16_t::FromBits(0x7FC1), uint64_t{16}, 1, 1, 8);  // first block only
    Copy(u, t, uint64_t{128}, 1, {1, 1, 8, 8});
    std::memcpy(out.data(), t.HostPtr(), 160 * 2);
    std::memcpy(copied.data(), u.HostPtr(), 160 * 2);
  });
  ASSERT_TRUE(failures.empty()) << failures[0].message;
  for (uint32_t i = 0; i < 160; ++i) {
    const uint16_t want = i < 100 ? 0xC020u : (i >= 128 && i < 144 ? 0x7FC1u : 0u);
    EXPECT_EQ(out[i], want) << i;
    EXPECT_EQ(copied[i], i < 128 ? want : 0u) << i;
  }
}

}  // namespace

namespace {

// Duplicate(dst, LocalTensor src, count): src[0] into dst[0, count) (the reference's 950 form;
// in place as the vendor's softmax sample calls it); another product refuses it.
TEST(Duplicate, TensorSourceOn950CopiesItsFirstElement) {
  std::vector<float> out(72);
  const auto failures = RunKernel(
      1,
      [&] {
        TPipe pipe;
        TBuf<> b;
        pipe.InitBuffer(b, 72 * 4);
        LocalTensor<float> t = b.Get<float>();
        for (uint32_t i = 0; i < 72; ++i) t.HostPtr()[i] = float(i) + 0.25f;
        t.HostPtr()[8] = -7.5f;
        Duplicate(t[8], t[8], 60);
        std::memcpy(out.data(), t.HostPtr(), 72 * 4);
      },
      On(k950));
  ASSERT_TRUE(failures.empty()) << failures[0].message;
  for (uint32_t i = 0; i < 72; ++i) {
    EXPECT_EQ(out[i], i >= 8 && i < 68 ? -7.5f : float(i) + 0.25f) << i;
  }
  const std::string c = CheckOf(kA2, [] {
    TPipe pipe;
    TBuf<> b;
    pipe.InitBuffer(b, 256);
    Duplicate(b.Get<float>(), b.Get<float>(), 32);
  });
  EXPECT_NE(c.find("unsupported_on_product"), std::string::npos) << c;
}

}  // namespace
