// The memory-access functions of SIMT threads (asc_ldcg, asc_ldca, asc_stcg, asc_stwt,
// asc_dcci_single, asc_dcci_entire, asc_nop) against the reference's description, read
// independently: each load returns the sizeof(T) bytes at its address, each store writes them,
// for every documented element type and vector shape (bit-exact, NaN payloads included); the
// cache functions let a thread that polls a flag see another block's or another thread's write.
//
// The kit's vector types (char2 ... float4, half2, bfloat16x2_t) come from lngrad_simt/
// vector_types.h; the shapes are tested here through stand-ins of the same layout (a struct of
// 2 or 4 elements named x, y, z, w), which the functions accept on the same terms.
#include <gtest/gtest.h>

#include <atomic>
#include <cstring>
#include <vector>

#include "mem_launch.h"
#include "simt_api/device_functions.h"

namespace {

using lngrad::simt::testing::RunSimt;

template <typename E>
struct Two {
  E x, y;
};
template <typename E>
struct Four {
  E x, y, z, w;
};

// Every documented element type, then vectors of 2 and 4 of a few of them.
using AccessTypes =
    ::testing::Types<signed char, unsigned char, short, unsigned short, int, unsigned int, long,
                     unsigned long, long long, unsigned long long, float, half, bfloat16_t,
                     Two<signed char>, Four<unsigned char>, Two<short>, Four<int>, Two<float>,
                     Four<float>, Four<long long>, Two<unsigned long>, Two<half>, Two<bfloat16_t>>;

template <typename T>
class MemAccess : public ::testing::Test {};
TYPED_TEST_SUITE(MemAccess, AccessTypes);

// Distinct bytes for element i (all bit patterns of floats occur, NaNs included).
template <typename T>
std::vector<T> Pattern(uint32_t n, uint32_t salt) {
  std::vector<T> v(n);
  auto* bytes = reinterpret_cast<unsigned char*>(v.data());
  for (size_t b = 0; b < n * sizeof(T); ++b) bytes[b] = static_cast<unsigned char>(b * 37 + salt);
  return v;
}

template <typename T>
bool SameBytes(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0;
}

TYPED_TEST(MemAccess, LoadsAndStoresCopyEveryByte) {
  using T = TypeParam;
  constexpr uint32_t kThreads = 70;  // two warps and part of a third
  constexpr uint32_t kBlocks = 2;
  constexpr uint32_t kN = kThreads * kBlocks;
  const std::vector<T> in = Pattern<T>(kN, 11);
  std::vector<T> src = in, cg(kN), ca(kN), wt(kN), loaded(kN);
  T* s = src.data();
  T *o1 = cg.data(), *o2 = ca.data(), *o3 = wt.data(), *o4 = loaded.data();
  const std::string f = RunSimt(kBlocks, dim3(kThreads), [=] {
    const uint32_t i = threadIdx.x + blockIdx.x * blockDim.x;
    asc_stcg(o1 + i, asc_ldcg(s + i));
    asc_stcg(o2 + i, asc_ldca(s + i));
    asc_stwt(o3 + i, s[i]);
    o4[i] = asc_ldca(o3 + i);  // a store is seen by the same thread's next load
  });
  ASSERT_EQ(f, "");
  EXPECT_TRUE(SameBytes(cg, in));
  EXPECT_TRUE(SameBytes(ca, in));
  EXPECT_TRUE(SameBytes(wt, in));
  EXPECT_TRUE(SameBytes(loaded, in));
  EXPECT_TRUE(SameBytes(src, in));  // loads leave memory alone
}

// The types the functions take: the documented ones; not plain char, bool, double, other
// shapes (3 elements) or vectors of undocumented elements.
template <typename T>
concept Loadable = requires(T* p) {
  asc_ldcg(p);
};
static_assert(Loadable<int> && Loadable<half> && Loadable<Four<unsigned long long>>);
static_assert(!Loadable<char> && !Loadable<bool> && !Loadable<double>);
static_assert(!Loadable<const int> && !Loadable<Two<double>> && !Loadable<Two<char>>);
struct Three {
  int x, y, z;
};
static_assert(!Loadable<Three>);

// The documents' protocol across blocks: block 0 writes the data, fences, then raises the flag;
// block 1 polls the flag with asc_dcci_single / asc_dcci_entire between reads, then reads the
// data. The blocks run on two host threads.
TEST(MemAccessCache, PollingWithDcciSeesAnotherBlocksWrites) {
  for (const bool entire : {false, true}) {
    alignas(64) uint32_t data[2] = {0, 0};
    uint32_t output = 0;
    uint32_t* d = data;
    uint32_t* out = &output;
    const std::string f = RunSimt(2, dim3(32), [=] {
      if (blockIdx.x == 0 && threadIdx.x == 0) {
        asc_stcg(d + 1, 10u);
        std::atomic_thread_fence(std::memory_order_release);  // asc_threadfence's part
        asc_stwt(d, 1u);
      }
      if (blockIdx.x == 1 && threadIdx.x == 0) {
        while (asc_ldcg(d) != 1u) entire ? asc_dcci_entire(d) : asc_dcci_single(d);
        *out = asc_ldca(d + 1);
      }
    });
    ASSERT_EQ(f, "");
    EXPECT_EQ(output, 10u) << entire;
  }
}

// Inside one block the threads share a host thread: a thread that polls with asc_dcci_single
// or asc_nop lets the thread that will raise the flag run (else this test would hang).
TEST(MemAccessCache, PollingInsideABlockYields) {
  for (const bool nop : {false, true}) {
    uint32_t flag = 0, seen = 0;
    uint32_t *fl = &flag, *sn = &seen;
    const std::string f = RunSimt(1, dim3(64), [=] {
      if (threadIdx.x == 0) {
        while (asc_ldcg(fl) == 0u) nop ? asc_nop() : asc_dcci_single(fl);
        asc_stcg(sn, 1u);
      } else if (threadIdx.x == 63) {
        for (int k = 0; k < 300; ++k) asc_nop();  // several yields before the flag
        asc_stcg(fl, 1u);
      }
    });
    ASSERT_EQ(f, "");
    EXPECT_EQ(seen, 1u) << nop;
  }
}

}  // namespace
