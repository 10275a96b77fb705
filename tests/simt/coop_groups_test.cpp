// Cooperative groups (simt_api/cooperative_groups.h) against a scalar model written from the
// reference's pages (an independent reading): for every thread of the launch, what each member
// function returns (ranks, sizes, meta ranks, shuffles, votes), and that sync is a barrier of
// the group.
#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <string>
#include <vector>

#include "mem_launch.h"
#include "simt_api/cooperative_groups.h"

namespace {

namespace cg = cooperative_groups;
using lngrad::simt::testing::RunSimt;

constexpr uint64_t kOffset = 100;

// One row of results per thread, compared with the model's row.
using Row = std::vector<uint64_t>;

void ExpectRows(const std::vector<Row>& got, const std::vector<Row>& want,
                const std::string& what) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t t = 0; t < got.size(); ++t) EXPECT_EQ(got[t], want[t]) << what << " thread " << t;
}

TEST(CoopThreadBlock, IndicesSizesAndSync) {
  constexpr uint32_t kBlocks = 2, kThreads = 8 * 4 * 2;
  std::vector<Row> got(kBlocks * kThreads), want(kBlocks * kThreads);
  Row* out = got.data();
  const std::string f = RunSimt(kBlocks, dim3(8, 4, 2), [=] {
    auto& shared = lngrad::simt::BlockArray<uint32_t[kThreads]>(&kOffset, "shared");
    cg::thread_block b = cg::this_thread_block();
    const cg::thread_group& g = b;
    const uint32_t r = b.thread_rank();
    shared[r] = r + 1;
    b.sync();
    const uint32_t next = shared[(r + 1) % kThreads];  // written by another thread before sync
    g.sync();
    const dim3 ti = b.thread_index(), gi = b.group_index(), dt = b.dim_threads();
    out[blockIdx.x * kThreads + r] = {r,
                                      b.size(),
                                      b.num_threads(),
                                      g.size(),
                                      g.thread_rank(),
                                      ti.x,
                                      ti.y,
                                      ti.z,
                                      gi.x,
                                      dt.x,
                                      dt.y,
                                      dt.z,
                                      b.group_dim().z,
                                      next,
                                      static_cast<uint64_t>(g.get_type())};
  });
  ASSERT_EQ(f, "");
  for (uint32_t blk = 0; blk < kBlocks; ++blk) {
    for (uint32_t r = 0; r < kThreads; ++r) {
      want[blk * kThreads + r] = {
          r,      kThreads, kThreads, kThreads, r, r % 8, r / 8 % 4,
          r / 32, blk,      8,        4,        2, 2,     (r + 1) % kThreads + 1,
          0};
    }
  }
  ExpectRows(got, want, "thread_block");
}

// The row of a thread of a tile of Size <= 32 (t: its rank in the block).
template <unsigned Size>
Row TileModel(uint32_t t, uint32_t threads) {
  const uint32_t rank = t % Size, base = t - rank;
  const auto at = [&](uint32_t r) { return base + r + kOffset; };
  uint64_t ballot = 0, any5 = 0;
  for (uint32_t r = 0; r < Size; ++r) {
    if ((base + r) % 3 == 0) ballot |= uint64_t{1} << r;
    if (base + r == 5) any5 = 1;
  }
  const uint32_t xor_mask = Size > 1 ? 1 : 0;
  return {rank,
          base / Size,
          threads / Size,
          at(2 % Size),
          at((Size + 1) % Size),
          rank >= 1 ? at(rank - 1) : t + kOffset,
          rank + 2 < Size ? at(rank + 2) : t + kOffset,
          at(rank ^ xor_mask),
          ballot,
          any5,
          1,
          Size == 1 ? uint64_t{t % 2 == 0} : 0,
          Size};
}

template <unsigned Size>
void CheckTiles() {
  constexpr uint32_t kThreads = 96;  // three warps
  std::vector<Row> got(kThreads), want(kThreads);
  Row* out = got.data();
  const std::string f = RunSimt(1, dim3(kThreads), [=] {
    const cg::thread_block b = cg::this_thread_block();
    const cg::thread_block_tile<Size, cg::thread_block> tile = cg::tiled_partition<Size>(b);
    const cg::thread_block_tile<Size> erased = tile;
    const uint32_t t = b.thread_rank();
    const uint32_t v = t + kOffset;
    tile.sync();
    out[t] = {tile.thread_rank(),
              erased.meta_group_rank(),
              tile.meta_group_size(),
              tile.shfl(v, 2),
              tile.shfl(v, static_cast<int>(Size + 1)),
              tile.shfl_up(v, 1),
              tile.shfl_down(v, 2),
              tile.shfl_xor(v, Size > 1 ? 1u : 0u),
              tile.ballot(t % 3 == 0),
              static_cast<uint64_t>(tile.any(t == 5)),
              static_cast<uint64_t>(tile.all(t < 1000)),
              static_cast<uint64_t>(tile.all(t % 2 == 0)),
              erased.size()};
  });
  ASSERT_EQ(f, "");
  for (uint32_t t = 0; t < kThreads; ++t) want[t] = TileModel<Size>(t, kThreads);
  ExpectRows(got, want, "thread_block_tile<" + std::to_string(Size) + ">");
}

TEST(CoopTile, SingleWarpTilesOfEverySize) {
  CheckTiles<1>();
  CheckTiles<2>();
  CheckTiles<4>();
  CheckTiles<8>();
  CheckTiles<16>();
  CheckTiles<32>();
}

// A tile of a tile: ranks and meta ranks relative to the parent tile.
TEST(CoopTile, TileOfATile) {
  constexpr uint32_t kThreads = 64;
  std::vector<Row> got(kThreads);
  Row* out = got.data();
  const std::string f = RunSimt(1, dim3(kThreads), [=] {
    const auto tile16 = cg::tiled_partition<16>(cg::this_thread_block());
    const auto tile4 = cg::tiled_partition<4>(tile16);
    out[threadIdx.x] = {tile4.thread_rank(), tile4.meta_group_rank(), tile4.meta_group_size(),
                        tile4.shfl(threadIdx.x, 3)};
  });
  ASSERT_EQ(f, "");
  for (uint32_t t = 0; t < kThreads; ++t) {
    EXPECT_EQ(got[t], (Row{t % 4, t % 16 / 4, 4, t / 4 * 4 + 3})) << t;
  }
}

}  // namespace
