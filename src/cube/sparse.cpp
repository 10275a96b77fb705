// 4:2 structured sparsity (Atlas A2/A3): LoadDataWithSparse copies the dense B fractals to L0B and
// their index fractals (128 bytes each) to the cube's index buffer (a quarter of L0B's size);
// MmadWithSparse multiplies a full A by the dense B, each dense value picking its A element
// through the index (the vendor's MmadWithSparse page, table 2, and its sample's gen_data.py).
#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "cube_internal.h"

namespace lngrad::cube {
namespace {
using P = AscendC::TPosition;
constexpr uint32_t kIndexFractalBytes = 128;  // 16 n x 32 dense k x 2 bits

// The two 2-bit indices of dense value kd (first or second of its group of 4 original k) in
// column n: the original k it multiplies.
uint32_t SelectedK(const std::byte* index, uint32_t nb, uint32_t kd, uint32_t n) {
  const uint64_t frac = uint64_t{kd / 32} * nb + n / 16;
  const auto byte =
      static_cast<uint32_t>(index[frac * kIndexFractalBytes + (n % 16) * 8 + kd % 32 / 4]);
  const uint32_t group_shift = (kd % 4) / 2 * 4;
  const uint32_t i0 = (byte >> group_shift) & 3u, i1 = (byte >> (group_shift + 2)) & 3u;
  const uint32_t base = kd / 2 * 4;
  // The first value takes element i0 of the group; the second element 1 + i1, or i0 again when
  // that lies before it (table 2's "X/X" rows).
  return base + (kd % 2 == 0 ? i0 : std::max(i0, 1 + i1));
}

}  // namespace

void LoadDataSparse(const View& dst, const View& src, const View& idx,
                    const AscendC::LoadData2DParams& p, aicore::SrcLoc loc) {
  constexpr const char* kApi = "LoadDataWithSparse";
  RequirePosition(dst, kApi, "dst", {P::B2});
  RequirePosition(src, kApi, "src", {P::B1});
  RequirePosition(idx, kApi, "idx", {P::B1});
  RequireAligned(dst, kApi, "dst", kFractalBytes);
  RequireAligned(src, kApi, "src", 32);
  RequireAligned(idx, kApi, "idx", 32);
  if (IsRegBaseArch(aicore::CurrentBlockProduct().arch)) {
    Raise(checks::kParams, kApi, "4:2 sparsity is Atlas A2/A3's (not the 950's)");
  }
  CubeRegisters& regs = Registers(kApi);
  const uint64_t l0b = aicore::CurrentBlockProduct().cube.l0b_bytes;
  if (regs.sparse_index.size() < l0b / 4) regs.sparse_index.assign(l0b / 4, std::byte{0});
  if (uint64_t{p.repeatTimes} * kIndexFractalBytes > regs.sparse_index.size()) {
    Raise(checks::kBounds, kApi, "the index fractals exceed the index buffer (a quarter of L0B)");
  }
  const uint64_t first = p.startIndex, count = p.repeatTimes;
  RequireRange(src, kApi, "src", first * kFractalBytes, count * kFractalBytes);
  RequireRange(idx, kApi, "idx", first * kIndexFractalBytes, count * kIndexFractalBytes);
  RequireRange(dst, kApi, "dst", 0, count * kFractalBytes);
  aicore::san::Instr in(aicore::Pipe::kMte1, kApi, loc);
  if (in) {
    in.Read(src.ptr + first * kFractalBytes, count * kFractalBytes);
    in.Read(idx.ptr + first * kIndexFractalBytes, count * kIndexFractalBytes);
    in.Write(dst.ptr, count * kFractalBytes);
  }
  std::memmove(Mutable(dst), src.ptr + first * kFractalBytes, count * kFractalBytes);
  std::memcpy(regs.sparse_index.data(), idx.ptr + first * kIndexFractalBytes,
              count * kIndexFractalBytes);
}

void MmadSparse(const View& c, const View& a, const View& b, const AscendC::MmadParams& p,
                aicore::SrcLoc loc) {
  constexpr const char* kApi = "MmadWithSparse";
  RequirePosition(c, kApi, "dst", {P::CO1});
  RequirePosition(a, kApi, "fm", {P::A2});
  RequirePosition(b, kApi, "filter", {P::B2});
  if (p.m == 0 || p.n == 0 || p.k == 0) return;
  if (p.k % 4 != 0) Raise(checks::kParams, kApi, "k must be a multiple of 4 (groups of 4:2)");
  const uint32_t mb = (p.m + 15u) / 16u, nb = (p.n + 15u) / 16u, ka = (p.k + 31u) / 32u;
  const uint32_t kd_count = p.k / 2u;
  RequireRange(a, kApi, "fm", 0, uint64_t{mb} * ka * kFractalBytes);
  RequireRange(b, kApi, "filter", 0, uint64_t{(kd_count + 31) / 32} * nb * kFractalBytes);
  RequireRange(c, kApi, "dst", 0, uint64_t{mb} * nb * 1024);
  const std::vector<std::byte>& index = Registers(kApi).sparse_index;
  if (index.empty()) Raise(checks::kParams, kApi, "no LoadDataWithSparse has loaded an index");
  aicore::san::Instr in(aicore::Pipe::kM, kApi, loc);
  if (in) {
    in.Read(a.ptr, uint64_t{mb} * ka * kFractalBytes);
    in.Read(b.ptr, uint64_t{(kd_count + 31) / 32} * nb * kFractalBytes);
    in.Write(c.ptr, uint64_t{mb} * nb * 1024);
  }
  auto* out = reinterpret_cast<uint32_t*>(Mutable(c));
  const bool accumulate = p.isBias || !p.cmatrixInitVal;  // C = A x B + C
  for (uint32_t n = 0; n < p.n; ++n) {
    for (uint32_t m = 0; m < p.m; ++m) {
      const uint64_t ci = (uint64_t{n / 16} * mb + m / 16) * 256 + (m % 16) * 16 + n % 16;
      uint32_t acc = accumulate ? out[ci] : 0u;
      for (uint32_t kd = 0; kd < kd_count; ++kd) {
        const uint32_t k = SelectedK(index.data(), nb, kd, n);
        const auto av = static_cast<int8_t>(
            a.ptr[(uint64_t{m / 16} * ka + k / 32) * 512 + (m % 16) * 32 + k % 32]);
        const auto bv = static_cast<int8_t>(
            b.ptr[(uint64_t{kd / 32} * nb + n / 16) * 512 + (n % 16) * 32 + kd % 32]);
        acc += static_cast<uint32_t>(int32_t{av} * int32_t{bv});
      }
      out[ci] = acc;
    }
  }
}

}  // namespace lngrad::cube
