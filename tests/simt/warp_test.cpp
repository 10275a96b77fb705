// Layer simt: warp functions and atomics (simt_api/device_warp_functions.h,
// device_atomic_functions.h) against the reference's per-lane definitions, written out here
// lane by lane (a second reading of the reference pages, not the headers' code).
#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <cstdint>
#include <vector>

#include "run_simt.h"
#include "simt_api/asc_simt.h"

namespace lngrad::simt::testing {
namespace {

// Each lane's result of f in one warp of `threads` (<= 32) threads; lanes that do not write keep
// `fill`.
template <typename T, typename F>
std::vector<T> PerLane(uint32_t threads, T fill, F f) {
  std::vector<T> out(threads, fill);
  EXPECT_TRUE(RunSimt(dim3(1), dim3(threads), [&] { f(out); }).ok());
  return out;
}

TEST(SimtWarp, ShuffleFormsFollowTheirPages) {
  for (const int32_t width : {32, 16, 8, 2, 1}) {
    const auto idx = PerLane<int32_t>(32, -1, [&](auto& o) {
      o[threadIdx.x] = asc_shfl(static_cast<int32_t>(100 + threadIdx.x), 5, width);
    });
    const auto up = PerLane<int32_t>(32, -1, [&](auto& o) {
      o[threadIdx.x] = asc_shfl_up(static_cast<int32_t>(100 + threadIdx.x), 3u, width);
    });
    const auto down = PerLane<int32_t>(32, -1, [&](auto& o) {
      o[threadIdx.x] = asc_shfl_down(static_cast<int32_t>(100 + threadIdx.x), 3u, width);
    });
    const auto x = PerLane<int32_t>(32, -1, [&](auto& o) {
      o[threadIdx.x] = asc_shfl_xor(static_cast<int32_t>(100 + threadIdx.x), 9, width);
    });
    for (int32_t lane = 0; lane < 32; ++lane) {
      const int32_t base = lane / width * width;
      EXPECT_EQ(idx[lane], 100 + base + 5 % width) << width << " " << lane;
      EXPECT_EQ(up[lane], 100 + (lane - base >= 3 ? lane - 3 : lane)) << width << " " << lane;
      EXPECT_EQ(down[lane], 100 + (lane - base + 3 < width ? lane + 3 : lane))
          << width << " " << lane;
      // xor: a lane of this group or an earlier one; a later group gives the lane's own value.
      const int32_t dst = lane ^ 9;
      EXPECT_EQ(x[lane], 100 + (dst < base + width ? dst : lane)) << width << " " << lane;
    }
  }
}

TEST(SimtWarp, ShufflesCarryEveryDocumentedType) {
  const auto f = PerLane<float>(32, 0.0f, [](auto& o) {
    o[threadIdx.x] = asc_shfl(0.5f * static_cast<float>(threadIdx.x), 31);
  });
  const auto u64 = PerLane<uint64_t>(32, 0, [](auto& o) {
    o[threadIdx.x] = asc_shfl_down(uint64_t{1} << (threadIdx.x + 20), 1u);
  });
  const auto h = PerLane<half>(32, half(0.0f), [](auto& o) {
    o[threadIdx.x] = asc_shfl_xor(half(static_cast<float>(threadIdx.x)), 1);
  });
  for (uint32_t lane = 0; lane < 32; ++lane) {
    EXPECT_EQ(f[lane], 15.5f);
    EXPECT_EQ(u64[lane], uint64_t{1} << ((lane == 31 ? lane : lane + 1) + 20));
    EXPECT_EQ(static_cast<float>(h[lane]), static_cast<float>(lane ^ 1u));
  }
}

// Lanes that finished or took another branch are inactive: a shuffle from them returns the
// caller's own value, the votes ignore them, asc_activemask leaves them out.
TEST(SimtWarp, InactiveLanesAfterDivergence) {
  std::vector<int32_t> from_inactive(32, -1);
  std::vector<uint32_t> masks(32, 0);
  std::vector<uint32_t> ballots(32, 0);
  std::vector<int32_t> all(32, -1);
  std::vector<int32_t> sums(32, -1);
  // Outside a macro's arguments: inside one, every call has the expansion's site.
  const auto kernel = [&] {
    const int32_t lane = laneid();
    if (lane >= 24) return;  // lanes 24..31 finish
    if (lane < 10) {
      // lanes 0..9: lane + 12 is active in the other branch, not in this one
      from_inactive[lane] = asc_shfl(lane * 10, lane + 12);
      masks[lane] = asc_activemask();
      ballots[lane] = asc_ballot(lane % 2);
      all[lane] = asc_all(lane < 9);
    } else {
      masks[lane] = asc_activemask();
      sums[lane] = asc_reduce_add(lane);
    }
  };
  ASSERT_TRUE(RunSimt(dim3(1), dim3(32), kernel).ok());
  for (int32_t lane = 0; lane < 10; ++lane) {
    EXPECT_EQ(from_inactive[lane], lane * 10) << lane;
    EXPECT_EQ(masks[lane], 0x3FFu) << lane;
    EXPECT_EQ(ballots[lane], 0x2AAu) << lane;
    EXPECT_EQ(all[lane], 0) << lane;
  }
  for (int32_t lane = 10; lane < 24; ++lane) {
    EXPECT_EQ(masks[lane], 0xFFFC00u) << lane;
    EXPECT_EQ(sums[lane], (10 + 23) * 14 / 2) << lane;
  }
}

// A warp function inside a loop whose trip count differs per lane: each round runs with the
// lanes still in the loop, as a masked warp does.
TEST(SimtWarp, LoopsWithDifferentTripCountsShrinkTheActiveSet) {
  const auto out = PerLane<uint32_t>(32, 0, [](auto& o) {
    uint32_t acc = 0;
    for (uint32_t round = 0; round <= threadIdx.x % 4; ++round) acc += asc_activemask();
    o[threadIdx.x] = acc;
  });
  const uint32_t round_mask[4] = {0xFFFFFFFFu, 0xEEEEEEEEu, 0xCCCCCCCCu, 0x88888888u};
  for (uint32_t lane = 0; lane < 32; ++lane) {
    uint32_t expect = 0;
    for (uint32_t r = 0; r <= lane % 4; ++r) expect += round_mask[r];
    EXPECT_EQ(out[lane], expect) << lane;
  }
}

// The reductions combine in halving order (offset 16, 8, 4, 2, 1); float sums differ from a
// sequential sum, and this checks the order, not just the value.
TEST(SimtWarp, ReductionsUseTheHalvingOrder) {
  float v[32];
  for (int i = 0; i < 32; ++i)
    v[i] = (i % 3 == 0 ? 1.0e8f : 1.0f) * (i % 2 == 0 ? 1 : -1) + 0.37f * i;
  float model[32];
  for (int i = 0; i < 32; ++i) model[i] = v[i];
  for (int off = 16; off > 0; off /= 2) {
    for (int i = 0; i < off; ++i) model[i] = model[i] + model[i + off];
  }
  const auto sum =
      PerLane<float>(32, 0.0f, [&](auto& o) { o[threadIdx.x] = asc_reduce_add(v[threadIdx.x]); });
  const auto mx =
      PerLane<float>(32, 0.0f, [&](auto& o) { o[threadIdx.x] = asc_reduce_max(v[threadIdx.x]); });
  const auto mn = PerLane<int32_t>(20, 0, [&](auto& o) {
    o[threadIdx.x] = asc_reduce_min(static_cast<int32_t>(threadIdx.x * 7 % 11) - 3);
  });
  for (int lane = 0; lane < 32; ++lane) {
    EXPECT_EQ(sum[lane], model[0]) << lane;
    EXPECT_EQ(mx[lane], *std::max_element(v, v + 32));
  }
  for (int lane = 0; lane < 20; ++lane) EXPECT_EQ(mn[lane], -3);
  const auto u = PerLane<uint32_t>(32, 0, [](auto& o) {
    o[threadIdx.x] = asc_reduce_add(0xF0000000u + threadIdx.x);  // wraps
  });
  EXPECT_EQ(u[0], static_cast<uint32_t>(32u * 0xF0000000u + 31u * 32u / 2u));
}

TEST(SimtWarp, BadWidthIsAnError) {
  std::vector<aicore::BlockFailure> failures;
  EXPECT_FALSE(RunSimt(
                   dim3(1), dim3(32), [] { (void)asc_shfl(1, 0, 12); }, 0, 0, &failures)
                   .ok());
  ASSERT_FALSE(failures.empty());
  EXPECT_EQ(failures[0].check, "simt_warp");
}

TEST(SimtWarp, LaneMasks) {
  const auto lt = PerLane<int32_t>(32, 0, [](auto& o) { o[threadIdx.x] = lanemask_lt(); });
  const auto ge = PerLane<int32_t>(32, 0, [](auto& o) { o[threadIdx.x] = lanemask_ge(); });
  const auto eq = PerLane<int32_t>(32, 0, [](auto& o) { o[threadIdx.x] = lanemask_eq(); });
  for (uint32_t lane = 0; lane < 32; ++lane) {
    const uint32_t below = lane == 0 ? 0u : (0xFFFFFFFFu >> (32 - lane));
    EXPECT_EQ(static_cast<uint32_t>(lt[lane]), below);
    EXPECT_EQ(static_cast<uint32_t>(ge[lane]), ~below);
    EXPECT_EQ(static_cast<uint32_t>(eq[lane]), 1u << lane);
  }
}

// Atomics under contention from every thread of several blocks (blocks on host threads in
// parallel): integer results exact, float adds of integers exact.
TEST(SimtAtomic, ContendedUpdatesAreExact) {
  constexpr uint32_t kBlocks = 6;
  constexpr uint32_t kThreads = 1024;
  uint64_t count = 0;
  int32_t mx = INT32_MIN;
  uint32_t bits = 0;
  float fsum = 0.0f;
  uint32_t wrap = 0;
  std::vector<uint32_t> histogram(16, 0);
  ASSERT_TRUE(RunSimt(dim3(kBlocks), dim3(kThreads), [&] {
                const uint32_t id = blockIdx.x * blockDim.x + threadIdx.x;
                asc_atomic_add(&count, uint64_t{1});
                asc_atomic_max(&mx, static_cast<int32_t>(id * 2654435761u % 100000u));
                asc_atomic_or(&bits, 1u << (id % 32));
                asc_atomic_add(&fsum, 1.0f);
                asc_atomic_inc(&wrap, 99u);
                asc_atomic_add(&histogram[id % 16], 1u);
              }).ok());
  const uint32_t n = kBlocks * kThreads;
  EXPECT_EQ(count, n);
  int32_t expect_max = INT32_MIN;
  for (uint32_t id = 0; id < n; ++id) {
    expect_max = std::max(expect_max, static_cast<int32_t>(id * 2654435761u % 100000u));
  }
  EXPECT_EQ(mx, expect_max);
  EXPECT_EQ(bits, 0xFFFFFFFFu);
  EXPECT_EQ(fsum, static_cast<float>(n));
  EXPECT_EQ(wrap, n % 100);  // inc wraps to 0 after 99
  for (uint32_t b = 0; b < 16; ++b) EXPECT_EQ(histogram[b], n / 16);
}

TEST(SimtAtomic, ReturnsTheOldValueAndFollowsEachPage) {
  ASSERT_TRUE(RunSimt(dim3(1), dim3(1), [] {
                uint32_t u = 5;
                EXPECT_EQ(asc_atomic_dec(&u, 10u), 5u);
                EXPECT_EQ(u, 4u);
                u = 0;
                asc_atomic_dec(&u, 10u);
                EXPECT_EQ(u, 10u);  // 0 becomes val
                u = 12;
                asc_atomic_dec(&u, 10u);
                EXPECT_EQ(u, 10u);  // above val becomes val
                float f = 1.0f;
                EXPECT_EQ(asc_atomic_cas(&f, 1.0f, 2.5f), 1.0f);
                EXPECT_EQ(f, 2.5f);
                EXPECT_EQ(asc_atomic_cas(&f, 1.0f, 7.0f), 2.5f);
                EXPECT_EQ(f, 2.5f);
                int64_t s = 10;
                EXPECT_EQ(asc_atomic_sub(&s, int64_t{15}), 10);
                EXPECT_EQ(s, -5);
                EXPECT_EQ(asc_atomic_xor(&s, int64_t{-1}), -5);
                EXPECT_EQ(s, 4);
                half h(1.0f);
                asc_atomic_add(&h, half(0.0004f));  // rounds to half once: stays 1
                EXPECT_EQ(static_cast<float>(h), 1.0f);
                float nan_max = 1.0f;
                asc_atomic_max(&nan_max, std::nanf(""));
                EXPECT_TRUE(std::isnan(nan_max));
              }).ok());
}

TEST(SimtAtomic, MisalignedAddressIsAnError) {
  std::vector<aicore::BlockFailure> failures;
  alignas(8) unsigned char bytes[16] = {};
  EXPECT_FALSE(RunSimt(
                   dim3(1), dim3(1),
                   [&] { asc_atomic_add(reinterpret_cast<int32_t*>(bytes + 2), 1); }, 0, 0,
                   &failures)
                   .ok());
  ASSERT_FALSE(failures.empty());
  EXPECT_EQ(failures[0].check, "simt_atomic");
}

}  // namespace
}  // namespace lngrad::simt::testing
