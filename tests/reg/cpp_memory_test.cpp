// Tests of layer reg: the C++ flavour's loads and stores on the simulated 950 (the distributions
// and post-update forms lngrad models; the expected bytes written from the reference's LoadAlign
// and StoreAlign pages, not from lngrad_reg; the two-register forms too), a vector function through
// asc_vf_call and
// __VEC_SCOPE__, and the checks its misuse raises.
#include <gtest/gtest.h>

#include <vector>

#include "basic_api/reg_compute/kernel_reg_compute_intf.h"
#include "capi_test_util.h"
#include "lngrad_aicore/check.h"

namespace {

namespace Reg = AscendC::Reg;
namespace aicore = lngrad::aicore;
using namespace lngrad::reg::testing;

// UB: 0.. source elements i (as half), 4096.. destination filled with -1.
void FillUb() {
  __ubuf__ half* src = Ub<half>(0);
  for (uint32_t i = 0; i < 1024; ++i) src[i] = half(float(i));
  __ubuf__ half* dst = Ub<half>(4096);
  for (uint32_t i = 0; i < 1024; ++i) dst[i] = half(-1.0f);
}
std::vector<float> Dst(uint32_t n) {
  std::vector<float> v(n);
  for (uint32_t i = 0; i < n; ++i) v[i] = float(Ub<half>(4096)[i]);
  return v;
}

// lane i of the register a load of dist gives, as the reference's tables define it.
template <Reg::LoadDist dist>
std::vector<float> Loaded() {
  std::vector<float> seen;
  const auto failures = Run950([&] {
    FillUb();
    Reg::RegTensor<half> r;
    Reg::LoadAlign<half, dist>(r, Ub<half>(64));
    Reg::StoreAlign(Ub<half>(4096), r, Reg::CreateMask<half>());
    seen = Dst(kN<half>);
  });
  EXPECT_TRUE(failures.empty());
  return seen;
}

TEST(CppApiMemory, LoadDistributions) {
  const auto norm = Loaded<Reg::LoadDist::DIST_NORM>();
  const auto brc = Loaded<Reg::LoadDist::DIST_BRC_B16>();
  const auto us = Loaded<Reg::LoadDist::DIST_US_B16>();
  const auto ds = Loaded<Reg::LoadDist::DIST_DS_B16>();
  const auto unpack = Loaded<Reg::LoadDist::DIST_UNPACK_B16>();
  for (uint32_t i = 0; i < kN<half>; ++i) {
    EXPECT_EQ(norm[i], 32 + i) << i;                    // 64 bytes in: element 32 on
    EXPECT_EQ(brc[i], 32) << i;                         // element 32 everywhere
    EXPECT_EQ(us[i], 32 + i / 2) << i;                  // each element twice
    EXPECT_EQ(ds[i], 32 + 2 * i) << i;                  // every other element
    EXPECT_EQ(unpack[i], i % 2 ? 0 : 32 + i / 2) << i;  // each element, then a zero
  }
}

TEST(CppApiMemory, PostUpdateAddrRegBlocksPackAndFirstElement) {
  std::vector<float> post, addr, blocks, firsts;
  std::vector<int16_t> packed(128);
  const auto failures = Run950([&] {
    FillUb();
    Reg::RegTensor<half> r;
    __ubuf__ half* src = Ub<half>(0);
    __ubuf__ half* dst = Ub<half>(4096);
    const Reg::MaskReg all = Reg::CreateMask<half>();
    for (int k = 0; k < 2; ++k) {
      Reg::LoadAlign<half, Reg::PostLiteral::POST_MODE_UPDATE>(r, src, 128);
      Reg::StoreAlign<half, Reg::PostLiteral::POST_MODE_UPDATE>(dst, r, 128, all);
    }
    EXPECT_EQ(src, Ub<half>(512));
    post = Dst(256);
    Reg::LoadAlign(r, Ub<half>(0), Reg::CreateAddrReg<half>(3, 16));  // element 48 on
    Reg::StoreAlign(Ub<half>(4096), r, Reg::AddrReg{}, all);
    addr = Dst(128);
    FillUb();
    __ubuf__ half* s = Ub<half>(0);
    // every second 32-byte block (16 halves) of the source, into consecutive blocks
    Reg::LoadAlign<half, Reg::DataCopyMode::DATA_BLOCK_COPY, Reg::PostLiteral::POST_MODE_UPDATE>(
        r, s, 2, 16, all);
    Reg::StoreAlign<half, Reg::DataCopyMode::DATA_BLOCK_COPY>(Ub<half>(4096), r, 1, all);
    blocks = Dst(128);
    Reg::RegTensor<int32_t> w;
    Reg::Arange(w, 70000);  // the low halves: 70000 + i mod 2^16
    Reg::StoreAlign<int16_t, Reg::StoreDist::DIST_PACK_B32>(
        Ub<int16_t>(4096), reinterpret_cast<Reg::RegTensor<int16_t>&>(w),
        Reg::CreateMask<int32_t>());
    for (uint32_t i = 0; i < 64; ++i) packed[i] = Ub<int16_t>(4096)[i];
    FillUb();
    Reg::RegTensor<half> one;
    Reg::Duplicate(one, 5.0f);
    Reg::StoreAlign<half, Reg::StoreDist::DIST_FIRST_ELEMENT_B16>(Ub<half>(4096 + 2), one, all);
    firsts = Dst(4);
  });
  ASSERT_TRUE(failures.empty()) << failures[0].message;
  for (uint32_t i = 0; i < 256; ++i) EXPECT_EQ(post[i], i) << i;
  for (uint32_t i = 0; i < 128; ++i) EXPECT_EQ(addr[i], 48 + i) << i;
  for (uint32_t i = 0; i < 128; ++i) EXPECT_EQ(blocks[i], (i / 16) * 32 + i % 16) << i;
  for (uint32_t i = 0; i < 64; ++i) EXPECT_EQ(packed[i], int16_t(uint16_t(70000 + i))) << i;
  EXPECT_EQ(firsts, (std::vector<float>{-1, 5, -1, -1}));
}

template <typename T>
__simd_vf__ inline void AddTail(__ubuf__ T* dst, __ubuf__ T* src, uint32_t count) {
  Reg::RegTensor<T> x;
  for (uint32_t i = 0; count > 0; ++i) {
    Reg::MaskReg mask = Reg::UpdateMask<T>(count);
    Reg::LoadAlign(x, src + i * kN<T>);
    Reg::Adds(x, x, T(1), mask);
    Reg::StoreAlign(dst + i * kN<T>, x, mask);
  }
}

TEST(CppApiMemory, VectorFunctionAndVecScopeTailsUnderMask) {
  std::vector<float> viaCall(160), viaScope(160);
  const auto failures = Run950([&] {
    __ubuf__ float* src = Ub<float>(0);
    __ubuf__ float* dst = Ub<float>(1024);
    for (uint32_t i = 0; i < 192; ++i) src[i] = float(i), dst[i] = -5.0f;
    asc_vf_call<AddTail<float>>(dst, src, 150u);
    std::copy(dst, dst + 160, viaCall.begin());
    for (uint32_t i = 0; i < 192; ++i) dst[i] = -5.0f;
    __VEC_SCOPE__ { AddTail<float>(dst, src, 150u); }
    std::copy(dst, dst + 160, viaScope.begin());
  });
  ASSERT_TRUE(failures.empty()) << failures[0].message;
  for (uint32_t i = 0; i < 160; ++i) {
    EXPECT_EQ(viaCall[i], i < 150 ? float(i) + 1 : -5.0f) << i;
    EXPECT_EQ(viaScope[i], viaCall[i]) << i;
  }
}

// DIST_DINTLV_B16: 2 VL bytes, even elements to the first register, odd to the second;
// DIST_INTLV_B16 stores two registers interleaved over 2 VL bytes, whatever the mask.
TEST(CppApiMemory, DeinterleavingLoadAndInterleavingStore) {
  std::vector<float> first, second, stored;
  const auto failures = Run950([&] {
    FillUb();
    Reg::RegTensor<half> r0, r1;
    Reg::LoadAlign<half, Reg::LoadDist::DIST_DINTLV_B16>(r0, r1, Ub<half>(64));
    Reg::StoreAlign(Ub<half>(4096), r0, Reg::CreateMask<half>());
    first = Dst(kN<half>);
    Reg::StoreAlign(Ub<half>(4096), r1, Reg::CreateMask<half>());
    second = Dst(kN<half>);
    Reg::MaskReg none = Reg::CreateMask<half, Reg::MaskPattern::VL1>();
    Reg::StoreAlign<half, Reg::StoreDist::DIST_INTLV_B16>(Ub<half>(4096), r1, r0, none);
    stored = Dst(2 * kN<half>);
  });
  ASSERT_TRUE(failures.empty());
  for (uint32_t i = 0; i < kN<half>; ++i) {
    EXPECT_EQ(first[i], 32 + 2 * i) << i;  // 64 bytes in: element 32 on
    EXPECT_EQ(second[i], 33 + 2 * i) << i;
    EXPECT_EQ(stored[2 * i], 33 + 2 * i) << i;  // the second register's lanes first
    EXPECT_EQ(stored[2 * i + 1], 32 + 2 * i) << i;
  }
  aicore::SetCheckedMode(true);
  const auto misaligned = Run950([] {  // the address must be VL-aligned, as for DIST_NORM
    Reg::RegTensor<half> r0, r1;
    Reg::LoadAlign<half, Reg::LoadDist::DIST_DINTLV_B16>(r0, r1, Ub<half>(4));
  });
  ASSERT_EQ(misaligned.size(), 1u);
  EXPECT_EQ(misaligned[0].check, aicore::checks::kRegAlign);
}

TEST(CppApiMemory, MisalignedAndOutOfUbAccessesAreChecked) {
  aicore::SetCheckedMode(true);
  auto failures = Run950([] {
    Reg::RegTensor<float> x;
    Reg::LoadAlign(x, Ub<float>(4));
  });
  ASSERT_EQ(failures.size(), 1u);
  EXPECT_EQ(failures[0].check, aicore::checks::kRegAlign);
  failures = Run950([] {
    Reg::RegTensor<float> x;
    Reg::StoreAlign(Ub<float>(8), x, Reg::CreateMask<float>());
  });
  ASSERT_EQ(failures.size(), 1u);
  EXPECT_EQ(failures[0].check, aicore::checks::kRegAlign);
  failures = Run950([] {
    Reg::RegTensor<float> x;
    float host[64] = {};
    Reg::LoadAlign<float, Reg::LoadDist::DIST_BRC_B32>(x, host);
  });
  ASSERT_EQ(failures.size(), 1u);
  EXPECT_EQ(failures[0].check, aicore::checks::kRegUbBounds);
  failures = Run950([] {  // a broadcast load needs only its element's alignment
    Reg::RegTensor<float> x;
    Reg::LoadAlign<float, Reg::LoadDist::DIST_BRC_B32>(x, Ub<float>(4));
  });
  EXPECT_TRUE(failures.empty());
}

}  // namespace
