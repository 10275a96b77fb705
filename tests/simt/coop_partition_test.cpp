// Cooperative groups made at run time against a scalar model written from the reference's pages
// (an independent reading): coalesced_threads in divergent branches, tiled_partition and
// binary_partition of a coalesced_group, the run-time tiled_partition of a thread_block, and
// tiles of more than one warp over block_tile_memory; and the misuses lngrad reports.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "mem_launch.h"
#include "simt_api/cooperative_groups.h"

namespace {

namespace cg = cooperative_groups;
using lngrad::simt::testing::RunSimt;
using Row = std::vector<uint64_t>;

constexpr uint32_t kThreads = 64;
bool Member(uint32_t t) { return t % 3 != 0; }

// The members of t's warp (block ranks, in lane order) under Member.
std::vector<uint32_t> Members(uint32_t t) {
  std::vector<uint32_t> m;
  for (uint32_t u = t / 32 * 32; u < t / 32 * 32 + 32; ++u) {
    if (Member(u)) m.push_back(u);
  }
  return m;
}

Row CoalescedModel(uint32_t t) {
  const std::vector<uint32_t> m = Members(t);
  const uint32_t n = static_cast<uint32_t>(m.size());
  uint32_t rank = 0;
  while (m[rank] != t) ++rank;
  uint64_t ballot = 0;
  for (uint32_t r = 0; r < n; ++r) ballot |= uint64_t{m[r] % 4 == 1} << r;
  // tiled_partition(active, 4) and binary_partition(active, t % 4 == 1).
  const uint32_t first = rank / 4 * 4;
  const uint32_t tile_size = std::min(n - first, 4u);
  uint32_t same = 0, same_rank = 0;
  for (uint32_t r = 0; r < n; ++r) {
    if ((m[r] % 4 == 1) != (t % 4 == 1)) continue;
    if (r < rank) ++same_rank;
    ++same;
  }
  return {n,
          rank,
          0,
          1,
          m[3 % n],
          rank >= 2 ? m[rank - 2] : t,
          rank + 2 < n ? m[rank + 2] : t,
          ballot,
          1,
          0,
          tile_size,
          rank % 4,
          rank / 4,
          (n + 3) / 4,
          m[first],
          same,
          same_rank,
          t % 4 == 1};
}

TEST(CoopCoalesced, DivergentBranchGroupsAndTheirPartitions) {
  std::vector<Row> got(kThreads);
  Row* out = got.data();
  const std::string f = RunSimt(1, dim3(kThreads), [=] {
    const uint32_t t = threadIdx.x;
    if (!Member(t)) {  // the other branch: its own group, waiting at another line
      const cg::coalesced_group others = cg::coalesced_threads();
      out[t] = {others.size(), others.thread_rank(), others.shfl(t, 0)};
      return;
    }
    const cg::coalesced_group active = cg::coalesced_threads();
    const cg::coalesced_group quad = cg::tiled_partition(active, 4);
    const cg::coalesced_group half = cg::binary_partition(active, t % 4 == 1);
    active.sync();
    out[t] = {active.size(),
              active.thread_rank(),
              active.meta_group_rank(),
              active.meta_group_size(),
              active.shfl(t, 3),
              active.shfl_up(t, 2),
              active.shfl_down(t, 2),
              active.ballot(t % 4 == 1),
              static_cast<uint64_t>(active.any(t % 4 == 1)),
              static_cast<uint64_t>(active.all(t % 4 == 1)),
              quad.num_threads(),
              quad.thread_rank(),
              quad.meta_group_rank(),
              quad.meta_group_size(),
              quad.shfl(t, 0),
              half.size(),
              half.thread_rank(),
              half.meta_group_rank()};
  });
  ASSERT_EQ(f, "");
  for (uint32_t t = 0; t < kThreads; ++t) {
    if (Member(t)) {
      EXPECT_EQ(got[t], CoalescedModel(t)) << t;
    } else {
      EXPECT_EQ(got[t], (Row{11, t % 32 / 3, t / 32 * 32 + (t < 32 ? 0 : 1)})) << t;
    }
  }
}

// tiled_partition(thread_block, n) at run time: a thread_group of n threads.
TEST(CoopDynamicTile, ThreadGroupOfATile) {
  std::vector<Row> got(kThreads);
  Row* out = got.data();
  const std::string f = RunSimt(1, dim3(kThreads), [=] {
    const cg::thread_group g = cg::tiled_partition(cg::this_thread_block(), 8);
    const cg::thread_group g2 = cg::tiled_partition(g, 2);
    g.sync();
    g2.sync();
    out[threadIdx.x] = {g.size(),  g.num_threads(),  g.thread_rank(),
                        g2.size(), g2.thread_rank(), static_cast<uint64_t>(g.get_type())};
  });
  ASSERT_EQ(f, "");
  for (uint32_t t = 0; t < kThreads; ++t) EXPECT_EQ(got[t], (Row{8, 8, t % 8, 2, t % 2, 1})) << t;
}

constexpr uint32_t kBlock = 256;
using Scratch = cg::block_tile_memory<kBlock>;

template <unsigned Size>
void CheckMultiWarpTile() {
  std::vector<Row> got(kBlock);
  Row* out = got.data();
  const std::string f = RunSimt(1, dim3(kBlock), [=] {
    auto& scratch = lngrad::simt::BlockArray<Scratch>(&got, "scratch");
    auto& count = lngrad::simt::BlockArray<uint32_t[kBlock / Size]>(&out, "count");
    const cg::thread_block b = cg::this_thread_block(scratch);
    const auto tile = cg::tiled_partition<Size>(b);
    const uint32_t t = b.thread_rank();
    ++count[tile.meta_group_rank()];
    tile.sync();
    const uint32_t arrived = count[tile.meta_group_rank()];  // every thread of the tile counted
    out[t] = {tile.thread_rank(),
              tile.meta_group_rank(),
              tile.meta_group_size(),
              tile.shfl(t, 5),
              tile.shfl(t * 2, static_cast<int>(Size) + 1),
              static_cast<uint64_t>(tile.any(t % Size == Size - 1)),
              static_cast<uint64_t>(tile.any(0)),
              static_cast<uint64_t>(tile.all(1)),
              static_cast<uint64_t>(tile.all(t != 70)),
              arrived,
              tile.size()};
  });
  ASSERT_EQ(f, "");
  for (uint32_t t = 0; t < kBlock; ++t) {
    const uint32_t base = t / Size * Size;
    const Row want = {t % Size,
                      t / Size,
                      kBlock / Size,
                      base + 5,
                      2 * (base + 1),
                      1,
                      0,
                      1,
                      base <= 70 && 70 < base + Size ? 0u : 1u,
                      Size,
                      Size};
    EXPECT_EQ(got[t], want) << Size << " thread " << t;
  }
}

TEST(CoopMultiWarpTile, TilesOfSeveralWarps) {
  CheckMultiWarpTile<64>();
  CheckMultiWarpTile<128>();
  CheckMultiWarpTile<256>();
}

TEST(CoopMisuse, MultiWarpTileWithoutScratchAndBadRunTimeSizes) {
  EXPECT_NE(
      RunSimt(1, dim3(128), [] { (void)cg::tiled_partition<64>(cg::this_thread_block()).any(1); })
          .find("simt_coop: a thread_block_tile of 64 threads needs"),
      std::string::npos);
  EXPECT_NE(RunSimt(1, dim3(32), [] { (void)cg::tiled_partition(cg::this_thread_block(), 3); })
                .find("simt_coop: tiled_partition(parent, 3)"),
            std::string::npos);
  EXPECT_NE(RunSimt(1, dim3(32), [] { (void)cg::tiled_partition(cg::this_thread_block(), 64); })
                .find("simt_coop"),
            std::string::npos);
}

}  // namespace
