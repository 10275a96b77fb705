// The replay of the kit's Broadcast on the 950 (arch 3510), commit 82b89a15f, shared by
// broadcast_3510_replay_test.cpp (the 1- and 2-dim form, the rank-N form with constRank 2) and
// broadcast_rank_n_3510_replay_test.cpp (the rank-N form's 3- and 4-dim and dynamic paths).
//
// Read: broadcast_common_utils.h (DstShapeCheck, the index and unit types by size),
// broadcast_common_impl.h (GetBroadcastTilingInfoImpl, BroadcastCompute), broadcast_3510_impl.h
// (every wrapper: ForTwoDim, ForThreeDim, ForFourDim, ForMoreDimDynamicShape, and every register
// function they call) and broadcast_gather_3510_impl.h (GatherWrapper, GatherWrapperForFourDim,
// the index generation VfGenIndex / VfGenIndexB8 / VfGenIndexForFourDim and the gather loops
// VfGatherBrc / VfGatherBrcB8 / VfGatherBrcForFourDim). Every size and stride these functions
// take is uint16_t (a dim of 65536 reads 0) and so is a 1- or 2-byte T's gather index (its
// arithmetic wraps modulo 65536, the gather reads base + index); the replay keeps both. 8-byte T
// runs as pairs of 4-byte units (the tiling's split, the wrappers one rank up, the loop over
// dim 0 at rank 9).
//
// Provenance: the 2-dim part (Brc) is the thirteenth session's reading; the rank-N part (BrcN,
// ReplayTiling, ReplayRankN) is a separate reading of the same files by the fourteenth
// session's helper, written before comparing with lngrad (that helper had read lib/broadcast's
// headers, a generic strided copy, before; not while writing the replay).
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "transform_3510_replay_util.h"

namespace lngrad_replay::transform3510 {

// Every size and stride the register functions take is uint16_t: a dim of 65536 reads 0.
inline uint16_t U16(uint32_t v) { return static_cast<uint16_t>(v); }

// ---- The 1- and 2-dim wrappers (BrcLastWrapperForTwoDim, BrcNlastWrapperForTwoDim) ----

template <typename T>
struct Brc {
  static constexpr uint32_t VL = Lanes<T>(), kHalf = VL / 2, kBlk = 32 / sizeof(T);
  Image<T>& dst;
  const Image<T>& src;
  size_t cur = 0;  // the unaligned stores' address

  T At(size_t i) const { return i < src.mem.size() ? src.mem[i] : T{}; }
  std::vector<T> BrcLoad(size_t at) const { return std::vector<T>(VL, At(at)); }
  std::vector<T> E2bLoad(size_t at) const {  // 8 elements, each to one 32-byte block
    std::vector<T> r(VL);
    for (uint32_t l = 0; l < VL; ++l) r[l] = At(at + l / kBlk);
    return r;
  }
  // Gather by an index register of the index type; B8 gathers two registers of 16-bit lanes
  // and DeInterleave keeps their low bytes: lanes [0, 128) from the first, the rest from the
  // second.
  std::vector<T> Gather(const std::vector<uint32_t>& i1, const std::vector<uint32_t>& i2) const {
    std::vector<T> r(VL);
    for (uint32_t l = 0; l < VL; ++l) {
      r[l] = sizeof(T) == 1 ? At(l < kHalf ? i1[l] : i2[l - kHalf]) : At(i1[l]);
    }
    return r;
  }
  // GenLastGatherIndex (nlast = false: (offset + l) / size1) and GenNlastGatherIndex
  // ((offset + l) mod size1), for the lanes of the index type.
  static std::vector<uint32_t> Index(uint32_t size1, uint32_t offset, bool nlast) {
    const uint32_t lanes = sizeof(T) == 1 ? kHalf : VL;
    std::vector<uint32_t> r(lanes);
    for (uint32_t l = 0; l < lanes; ++l) {  // a size of 0: the lanes are never stored
      const uint32_t v = offset + l, q = size1 == 0 ? 0 : v / size1;
      r[l] = nlast ? v - q * size1 : q;
    }
    return r;
  }
  static std::vector<uint32_t> Plus(const std::vector<uint32_t>& v, uint32_t k) {
    std::vector<uint32_t> r(v);
    for (uint32_t& x : r) x = sizeof(T) == 4 ? x + k : (x + k) & 0xFFFFu;
    return r;
  }
  void Run(const std::vector<T>& reg, uint32_t n) { dst.StoreRun(cur, reg, n); }

  // BrcLastWrapperForTwoDim<T, constRank> on the 16-bit sizes: true where the constRank -1 form
  // (dyn) leaves the work to the dynamic path.
  bool Last(uint16_t s0, uint16_t s1, bool dyn = false) {
    if (s1 == kBlk && sizeof(T) != 1) {  // BrcLastE2B
      uint32_t sreg = s0 * s1;
      for (uint32_t i = 0; i < (s0 + VL / s1 - 1) / (VL / s1); ++i) {
        const std::vector<bool> m = UpdateMask(sreg, VL);
        dst.StoreMasked(size_t{i} * VL, E2bLoad(size_t{i} * 8), m);
      }
    } else if (s1 < kHalf) {
      const std::vector<uint32_t> i1 = Index(s1, 0, false), i2 = Index(s1, kHalf, false);
      if (s0 * s1 < VL) {  // BrcLastGatherOne
        dst.StoreMasked(0, Gather(i1, i2), FirstLanes(s0 * s1, VL));
        return false;
      }
      GatherTwo(s0, s1, i1, i2, true);  // BrcLastGatherTwo
    } else if (s1 <= VL) {              // BrcLastLessThanVLUnaligned
      for (uint32_t i = 0; i < s0; ++i) Run(BrcLoad(i), s1);
    } else if (s1 % kBlk == 0) {  // BrcLastLargerThanVLAligned
      for (uint32_t i = 0; i < s0; ++i) {
        uint32_t sreg = s1;
        for (uint32_t j = 0; j < (s1 + VL - 1) / VL; ++j) {
          const std::vector<bool> m = UpdateMask(sreg, VL);
          dst.StoreMasked(size_t{i} * s1 + size_t{j} * VL, BrcLoad(i), m);
        }
      }
    } else if (dyn) {
      return true;
    } else {  // BrcLastLargerThanVLUnaligned
      for (uint32_t i = 0; i < s0; ++i) {
        for (uint32_t j = 0; j < s1 / VL; ++j) Run(BrcLoad(i), VL);
        Run(BrcLoad(i), s1 % VL);
      }
    }
    return false;
  }

  // BrcLastGatherTwo (moving: each repeat adds factor * i to the index) and BrcNlastGatherTwo
  // (one gather stored repeatedly).
  void GatherTwo(uint32_t s0, uint32_t s1, const std::vector<uint32_t>& i1,
                 const std::vector<uint32_t>& i2, bool moving) {
    const uint32_t factor = VL / s1, repeat = (s0 + factor - 1) / factor - 1, main = factor * s1;
    const uint32_t tail = s0 * s1 - main * repeat;
    for (uint32_t i = 0; i < repeat; ++i) {
      Run(moving ? Gather(Plus(i1, factor * i), Plus(i2, factor * i)) : Gather(i1, i2), main);
    }
    const uint32_t offset = moving ? factor * repeat : 0;
    Run(Gather(Plus(i1, offset), Plus(i2, offset)), tail);
  }

  bool Nlast(uint16_t s0, uint16_t s1, bool dyn = false) {  // BrcNlastWrapperForTwoDim
    if (s1 < kHalf && s1 % kBlk == 0) {   // GatherB with the scalar-written block offsets
      const uint32_t blocks = s1 / kBlk;  // 1, 2, else the three-block offsets (0 included)
      const uint32_t offs[3][8] = {
          {0, 0, 0, 0, 0, 0, 0, 0}, {0, 32, 0, 32, 0, 32, 0, 32}, {0, 32, 64, 0, 32, 64, 0, 0}};
      std::vector<T> reg(VL);
      for (uint32_t b = 0; b < 8; ++b) {
        for (uint32_t e = 0; e < kBlk; ++e)
          reg[b * kBlk + e] = At(offs[blocks == 1 ? 0 : blocks == 2 ? 1 : 2][b] / sizeof(T) + e);
      }
      if (s0 * s1 < VL) {  // BrcNlastGatherBOne
        dst.StoreMasked(0, reg, FirstLanes(s0 * s1, VL));
        return false;
      }
      const uint32_t factor = VL / s1, repeat = (s0 + factor - 1) / factor - 1, main = factor * s1;
      for (uint32_t i = 0; i < repeat; ++i)
        dst.StoreMasked(size_t{i} * main, reg, FirstLanes(main, VL));
      dst.StoreMasked(size_t{main} * repeat, reg, FirstLanes(s0 * s1 - main * repeat, VL));
    } else if (s1 < kHalf) {
      const std::vector<uint32_t> i1 = Index(s1, 0, true), i2 = Index(s1, kHalf, true);
      if (s0 * s1 < VL) {  // BrcNlastGatherOne
        dst.StoreMasked(0, Gather(i1, i2), FirstLanes(s0 * s1, VL));
        return false;
      }
      GatherTwo(s0, s1, i1, i2, false);
    } else if (s1 <= VL) {  // BrcNlastLessThanVLUnaligned
      for (uint32_t i = 0; i < s0; ++i) Run(src.Load(0), s1);
    } else if (s1 % kBlk == 0 && s1 % VL == 0 && s0 > 8) {  // ...AlignedWithVL
      for (uint32_t i = 0; i < (s1 + VL - 1) / VL; ++i) {
        for (uint32_t j = 0; j < s0; ++j) {
          dst.StoreMasked(size_t{i} * VL + size_t{j} * s1, src.Load(size_t{i} * VL),
                          FirstLanes(VL, VL));
        }
      }
    } else if (s1 % kBlk == 0) {  // ...AlignedWithBlock
      for (uint32_t i = 0; i < s0; ++i) {
        uint32_t sreg = s1;
        for (uint32_t j = 0; j < (s1 + VL - 1) / VL; ++j) {
          const std::vector<bool> m = UpdateMask(sreg, VL);
          dst.StoreMasked(size_t{i} * s1 + size_t{j} * VL, src.Load(size_t{j} * VL), m);
        }
      }
    } else if (dyn) {
      return true;
    } else {  // BrcNlastLargerThanVLUnaligned
      const std::vector<T> tmp = src.Load(size_t{s1 / VL} * VL);
      for (uint32_t i = 0; i < s0; ++i) {
        for (uint32_t j = 0; j < s1 / VL; ++j) Run(src.Load(size_t{j} * VL), VL);
        Run(tmp, s1 % VL);
      }
    }
    return false;
  }
};

// ---- The rank-N form: the 3- and 4-dim wrappers, the dynamic path, the gathers ----

template <typename T>
struct BrcN {
  static constexpr uint32_t VL = Lanes<T>(), kHalf = VL / 2, kBlk = 32 / sizeof(T);
  // The gather index lanes: 16 bits for 1- and 2-byte T (B8 gathers through uint16_t lanes).
  static constexpr uint32_t kIdxMask = sizeof(T) == 4 ? 0xFFFFFFFFu : 0xFFFFu;
  Image<T>& dst;
  const Image<T>& src;
  size_t cur = 0;
  bool undefined = false;  // a scalar division by 0 (GatherWrapper with a last dim of 65536)

  T At(size_t i) const { return i < src.mem.size() ? src.mem[i] : T{}; }
  std::vector<T> Brc(size_t at) const { return std::vector<T>(VL, At(at)); }  // DIST_BRC
  std::vector<T> E2b(size_t at) const {
    std::vector<T> r(VL);
    for (uint32_t l = 0; l < VL; ++l) r[l] = At(at + l / kBlk);
    return r;
  }
  void Run(const std::vector<T>& reg, uint32_t n) { dst.StoreRun(cur, reg, n); }
  void Masked(size_t at, const std::vector<T>& reg, uint32_t n) {
    dst.StoreMasked(at, reg, FirstLanes(n, VL));
  }

  // ---- broadcast_3510_impl.h, 3 dims: z the 16-bit sizes, s the 16-bit src strides ----
  bool Last3(const uint32_t* size, const uint32_t* stride, bool dyn) {
    const uint32_t z0 = U16(size[0]), z1 = U16(size[1]), z2 = U16(size[2]);
    const uint32_t s0 = U16(stride[0]), s1 = U16(stride[1]);
    if (z2 == kBlk && sizeof(T) != 1 && z1 * z2 > kHalf && z1 % 8 == 0 && s1 != 0) {
      if (z1 * z2 > VL) {  // BrcLastE2BLargerThanVL
        const uint32_t repeat = (z1 + VL / z2 - 1) / (VL / z2);
        for (uint32_t i = 0; i < z0; ++i) {
          uint32_t sreg = z1 * z2;
          for (uint32_t j = 0; j < repeat; ++j) {
            const std::vector<bool> m = UpdateMask(sreg, VL);
            dst.StoreMasked(size_t{i} * z1 * z2 + j * VL, E2b(size_t{j} * 8 + i * s0), m);
          }
        }
      } else {  // BrcLastE2BLessThanVL
        for (uint32_t i = 0; i < z0; ++i) Masked(size_t{i} * z1 * z2, E2b(size_t{i} * s0), z1 * z2);
      }
    } else if (z2 < kHalf) {
      Gather3(size, stride);
    } else if (z2 <= VL && z2 % kBlk == 0) {  // BrcLastLessThanVLAligned
      for (uint32_t i = 0; i < z1; ++i) {
        for (uint32_t j = 0; j < z0; ++j)
          Masked(size_t{j} * z1 * z2 + i * z2, Brc(j * s0 + i * s1), z2);
      }
    } else if (z2 % kBlk == 0) {  // BrcLastLargerThanVLAligned
      for (uint32_t i = 0; i < z1; ++i) {
        for (uint32_t j = 0; j < z0; ++j) {
          uint32_t sreg = z2;
          for (uint32_t k = 0; k < (z2 + VL - 1) / VL; ++k) {
            const std::vector<bool> m = UpdateMask(sreg, VL);
            dst.StoreMasked(size_t{j} * z1 * z2 + i * z2 + k * VL, Brc(i * s1 + j * s0), m);
          }
        }
      }
    } else if (dyn) {
      return true;
    } else {  // BrcLastLessThanVLUnaligned / BrcLastLargerThanVLUnaligned: runs of z2
      cur = 0;
      for (uint32_t i = 0; i < z0; ++i) {
        for (uint32_t j = 0; j < z1; ++j) BrcRuns(Brc(j * s1 + i * s0), z2);
      }
    }
    return false;
  }
  void BrcRuns(const std::vector<T>& reg, uint32_t n) {  // VL-lane runs, then the rest
    if (n <= VL) return Run(reg, n);
    for (uint32_t t = 0; t < n / VL; ++t) Run(reg, VL);
    Run(reg, n % VL);
  }
  // LoadUnAlign from p, n elements through runs of VL (the post-incremented address).
  void CopyRuns(size_t p, uint32_t n) {
    if (n <= VL) return Run(src.Load(p), n);
    for (uint32_t t = 0; t < n / VL; ++t, p += VL) Run(src.Load(p), VL);
    Run(src.Load(p), n % VL);
  }

  bool Nlast3(const uint32_t* size, const uint32_t* stride, bool dyn) {
    const uint32_t z0 = U16(size[0]), z1 = U16(size[1]), z2 = U16(size[2]);
    const uint32_t s0 = U16(stride[0]), s1 = U16(stride[1]);
    if (z2 < kHalf) {
      Gather3(size, stride);
    } else if (z2 <= VL) {  // BrcNlastLessThanVLUnaligned
      cur = 0;
      for (uint32_t i = 0; i < z0; ++i) {
        for (uint32_t j = 0; j < z1; ++j) Run(src.Load(size_t{i} * s0 + j * s1), z2);
      }
    } else if (z2 % kBlk == 0 && z2 % VL == 0) {  // ...AlignedWithVL
      for (uint32_t i = 0; i < z0; ++i) {
        for (uint32_t j = 0; j < (z2 + VL - 1) / VL; ++j) {
          for (uint32_t k = 0; k < z1; ++k) {
            Masked(j * VL + size_t{k} * z2 + size_t{i} * z1 * z2,
                   src.Load(size_t{i} * s0 + j * VL + k * s1), VL);
          }
        }
      }
    } else if (z2 % kBlk == 0) {  // ...AlignedWithBlock
      for (uint32_t i = 0; i < z0; ++i) {
        uint32_t sreg = z2;
        for (uint32_t j = 0; j < (z2 + VL - 1) / VL; ++j) {
          const std::vector<bool> m = UpdateMask(sreg, VL);
          for (uint32_t k = 0; k < z1; ++k) {
            dst.StoreMasked(size_t{i} * z1 * z2 + k * z2 + j * VL,
                            src.Load(size_t{k} * s1 + i * s0 + j * VL), m);
          }
        }
      }
    } else if (dyn) {
      return true;
    } else {  // BrcNlastLargerThanVLUnaligned
      cur = 0;
      for (uint32_t i = 0; i < z0; ++i) {
        for (uint32_t j = 0; j < z1; ++j) CopyRuns(size_t{i} * s0 + j * s1, z2);
      }
    }
    return false;
  }

  // ---- 4 dims at dst offset d, src offset s (the dynamic path calls these per outer index) ----
  struct Dims {
    uint32_t z[4], s[4];
  };
  static Dims Of(const uint32_t* size, const uint32_t* stride) {
    Dims r{};
    for (int i = 0; i < 4; ++i) r.z[i] = U16(size[i]), r.s[i] = U16(stride[i]);
    return r;
  }
  // dst offset of (i, j, k) over dims 0..2 and the element offset e in dim 3.
  static size_t DstAt(const Dims& q, uint32_t i, uint32_t j, uint32_t k) {
    return ((size_t{i} * q.z[1] + j) * q.z[2] + k) * q.z[3];
  }
  static size_t SrcAt(const Dims& q, uint32_t i, uint32_t j, uint32_t k) {
    return size_t{i} * q.s[0] + size_t{j} * q.s[1] + size_t{k} * q.s[2];
  }
  template <typename F>
  static void Each(const Dims& q, F f) {
    for (uint32_t i = 0; i < q.z[0]; ++i) {
      for (uint32_t j = 0; j < q.z[1]; ++j) {
        for (uint32_t k = 0; k < q.z[2]; ++k) f(i, j, k);
      }
    }
  }
  // Masked stores of z3 lanes from each (i, j, k) (the aligned paths: the order of the loops
  // does not change what lands where), reg(src offset, register j of the row).
  template <typename F>
  void AlignedRows(size_t d, size_t s, const Dims& q, F reg) {
    Each(q, [&](uint32_t i, uint32_t j, uint32_t k) {
      uint32_t sreg = q.z[3];
      for (uint32_t r = 0; r < (q.z[3] + VL - 1) / VL; ++r) {
        const std::vector<bool> m = UpdateMask(sreg, VL);
        dst.StoreMasked(d + DstAt(q, i, j, k) + r * VL, reg(s + SrcAt(q, i, j, k), r), m);
      }
    });
  }
  void LastLess4Unaligned(size_t d, size_t s, const Dims& q) {  // and LargerThanVLUnaligned
    cur = d;
    Each(q,
         [&](uint32_t i, uint32_t j, uint32_t k) { BrcRuns(Brc(s + SrcAt(q, i, j, k)), q.z[3]); });
  }
  void NlastUnaligned4(size_t d, size_t s, const Dims& q) {  // LessThanVL and LargerThanVL
    cur = d;
    Each(q, [&](uint32_t i, uint32_t j, uint32_t k) { CopyRuns(s + SrcAt(q, i, j, k), q.z[3]); });
  }
  void BrcAligned4(size_t d, size_t s, const Dims& q) {
    AlignedRows(d, s, q, [&](size_t at, uint32_t) { return Brc(at); });
  }
  void LoadAligned4(size_t d, size_t s, const Dims& q) {
    AlignedRows(d, s, q, [&](size_t at, uint32_t r) { return src.Load(at + size_t{r} * VL); });
  }

  bool Last4(const uint32_t* size, const uint32_t* stride, bool dyn) {
    const Dims q = Of(size, stride);
    if (q.z[3] == kBlk && sizeof(T) != 1 && q.s[2] != 0 && q.z[2] % 8 == 0) {  // BrcLastE2B
      const uint32_t repeat = (q.z[2] + VL / q.z[3] - 1) / (VL / q.z[3]);
      for (uint32_t i = 0; i < q.z[0]; ++i) {
        for (uint32_t j = 0; j < q.z[1]; ++j) {
          uint32_t sreg = q.z[2] * q.z[3];
          for (uint32_t k = 0; k < repeat; ++k) {
            const std::vector<bool> m = UpdateMask(sreg, VL);
            dst.StoreMasked(DstAt(q, i, j, 0) + k * VL, E2b(SrcAt(q, i, j, 0) + k * 8), m);
          }
        }
      }
    } else if (q.z[3] < kHalf && sizeof(T) != 1) {
      Gather4(0, 0, size, stride);
    } else if (q.z[3] % kBlk == 0) {  // BrcLastLessThanVLAligned / LargerThanVLAligned
      BrcAligned4(0, 0, q);
    } else if (dyn) {
      return true;
    } else {
      LastLess4Unaligned(0, 0, q);
    }
    return false;
  }

  bool Nlast4(const uint32_t* size, const uint32_t* stride, bool dyn) {
    const Dims q = Of(size, stride);
    if (q.z[3] < kHalf && sizeof(T) != 1) {
      Gather4(0, 0, size, stride);
    } else if (q.z[3] % kBlk == 0) {  // LessThanVLAligned, LargerThanVLAlignedWithVL / WithBlock
      LoadAligned4(0, 0, q);
    } else if (dyn) {
      return true;
    } else {
      NlastUnaligned4(0, 0, q);
    }
    return false;
  }

  // BrcLast/NlastWrapperForMoreDimDynamicShape: the last 4 dims (1 in front for fewer), loops
  // over the dims before them.
  void Dynamic(uint32_t dim, const uint32_t* shape, const uint32_t* dstStride,
               const uint32_t* srcStride, bool last, size_t d0 = 0, size_t s0 = 0) {
    uint32_t size4[4] = {1, 1, 1, 1}, stride4[4] = {0, 0, 0, 0};
    for (uint32_t i = 0; i < std::min(dim, 4u); ++i) {
      size4[4 - std::min(dim, 4u) + i] = shape[dim - std::min(dim, 4u) + i];
      stride4[4 - std::min(dim, 4u) + i] = srcStride[dim - std::min(dim, 4u) + i];
    }
    const Dims q = Of(size4, stride4);
    const uint32_t outer = dim > 4 ? dim - 4 : 0;  // dims [0, outer) loop (16-bit counts)
    std::vector<uint32_t> idx(outer, 0);
    uint64_t count = 1;
    for (uint32_t i = 0; i < outer; ++i) count *= U16(shape[i]);
    for (uint64_t n = 0; n < count; ++n) {
      size_t d = d0, s = s0;
      uint64_t rest = n;
      for (uint32_t i = outer; i-- > 0;) {
        idx[i] = static_cast<uint32_t>(rest % U16(shape[i]));
        rest /= U16(shape[i]);
        d += size_t{idx[i]} * dstStride[i];
        s += size_t{idx[i]} * srcStride[i];
      }
      if (last) {
        LastLess4Unaligned(d, s, q);
      } else if (q.z[3] < kHalf && sizeof(T) != 1) {
        Gather4(d, s, shape + dim - 4, srcStride + dim - 4);
      } else if (q.z[3] % kBlk == 0) {
        LoadAligned4(d, s, q);
      } else {
        NlastUnaligned4(d, s, q);
      }
    }
  }

  // ---- broadcast_gather_3510_impl.h ----
  // VfGenIndex / VfGenIndexB8 / VfGenIndexForFourDim: lane l split by the tile sizes z (last
  // fastest, each digit modulo its size), the dot product with the strides, in the index
  // type's ring (16 bits for 1- and 2-byte T).
  static std::vector<uint32_t> TileIndex(const std::vector<uint32_t>& z,
                                         const std::vector<uint32_t>& stride) {
    std::vector<uint32_t> r(VL);
    for (uint32_t l = 0; l < VL; ++l) {
      uint32_t q = l, v = 0;
      for (size_t i = z.size(); i-- > 0;) {
        v += (q % z[i]) * stride[i];
        q /= z[i];
      }
      r[l] = v & kIdxMask;
    }
    return r;
  }
  // Gather(all lanes) at base + (index + off) in the index ring, stored as a run of n.
  void GatherRun(size_t base, const std::vector<uint32_t>& index, uint32_t off, uint32_t n) {
    std::vector<T> reg(VL);
    for (uint32_t l = 0; l < VL; ++l) reg[l] = At(base + ((index[l] + off) & kIdxMask));
    Run(reg, n);
  }
  // VfGatherBrc / VfGatherBrcB8 / VfGatherBrcForFourDim: loops n[0..) with strides st, each
  // innermost loop n.back() runs of main and a run of tail at index + st.back() * n.back().
  void GatherLoops(size_t d, size_t s, const std::vector<uint32_t>& index,
                   const std::vector<uint32_t>& n, const std::vector<uint32_t>& st, uint32_t main,
                   uint32_t tail) {
    cur = d;
    const size_t outer = n.size() - 1;
    uint64_t count = 1;
    for (size_t i = 0; i < outer; ++i) count *= n[i];
    for (uint64_t c = 0; c < count; ++c) {
      uint32_t off = 0;
      uint64_t rest = c;
      for (size_t i = outer; i-- > 0;) {
        off += static_cast<uint32_t>(rest % n[i]) * st[i];
        rest /= n[i];
      }
      for (uint32_t k = 0; k < n.back(); ++k)
        GatherRun(s, index, (off + k * st.back()) & kIdxMask, main);
      GatherRun(s, index, (off + n.back() * st.back()) & kIdxMask, tail);
    }
  }
  void Gather3(const uint32_t* size, const uint32_t* stride) {  // GatherWrapper
    const uint32_t a = size[0], b = size[1], c = size[2];
    if (b * c >= VL && VL / c == 0) {  // vlTile1 = 0: sizeI2 divides by 0
      undefined = true;
      return;
    }
    std::vector<uint32_t> z;  // GenGatherIndex
    if (a * b * c < VL) {
      z = {a, b, c};
    } else if (b * c < VL) {
      z = {VL / (b * c), b, c};
    } else {
      z = {1, VL / c, c};
    }
    const std::vector<uint32_t> index = TileIndex(z, {stride[0], stride[1], stride[2]});
    if (b * c < VL) {
      const uint32_t t0 = VL / (c * b), n2 = U16(a / t0), main = c * b * t0;
      GatherLoops(0, 0, index, {1, n2}, {0, U16(stride[0] * t0)}, main, c * b * a - n2 * main);
    } else {
      const uint32_t t1 = VL / c, n2 = U16(b / t1), main = c * t1;
      GatherLoops(0, 0, index, {U16(a), n2}, {U16(stride[0]), U16(stride[1] * t1)}, main,
                  c * b - n2 * main);
    }
  }
  void Gather4(size_t d, size_t s, const uint32_t* size, const uint32_t* stride) {
    const uint32_t a = size[0], b = size[1], c = size[2], e = size[3];
    std::vector<uint32_t> z;  // GenGatherIndexForFourDim
    if (a * b * c * e < VL) {
      z = {a, b, c, e};
    } else if (b * c * e < VL) {
      z = {VL / (b * c * e), b, c, e};
    } else if (c * e < VL) {
      z = {1, VL / (c * e), c, e};
    } else {
      z = {1, 1, VL / e, e};
    }
    const std::vector<uint32_t> index = TileIndex(z, {stride[0], stride[1], stride[2], stride[3]});
    if (b * c * e < VL) {
      const uint32_t t0 = VL / (e * c * b), n3 = U16(a / t0), main = e * c * b * t0;
      GatherLoops(d, s, index, {1, 1, n3}, {0, 0, U16(stride[0] * t0)}, main,
                  e * c * b * a - n3 * main);
    } else if (c * e < VL) {
      const uint32_t t1 = VL / (c * e), n3 = U16(b / t1), main = e * c * t1;
      GatherLoops(d, s, index, {1, U16(a), n3}, {0, U16(stride[0]), U16(stride[1] * t1)}, main,
                  e * c * b - n3 * main);
    } else {
      const uint32_t t2 = VL / e, n3 = U16(c / t2), main = e * t2;
      GatherLoops(d, s, index, {U16(a), U16(b), n3},
                  {U16(stride[0]), U16(stride[1]), U16(stride[2] * t2)}, main, e * c - n3 * main);
    }
  }
};

// ---- GetBroadcastTilingInfoImpl and BroadcastCompute<T, constRank> ----

struct TilingR {
  uint32_t rank = 0, srcSize = 1, dstSize = 1, loopNum = 0;
  uint32_t shape[9] = {}, src[9] = {}, dstStride[9] = {}, srcStride[10] = {};
  bool b64 = false;  // 8-byte T: the units are 4 bytes
};

// 8-byte T when the sizes differ: pairs of 4-byte units (a dim of 2 after a broadcast last dim,
// at rank 9 a loop over dim 0 instead; else the last dim doubled).
inline void SplitB64(TilingR& t) {
  const uint32_t r = t.rank;
  if (t.src[r - 1] == 1 && t.shape[r - 1] != 1) {
    if (r < 9) {
      t.shape[r] = t.src[r] = 2;
      ++t.rank;
    } else {
      t.loopNum = t.shape[0];
    }
  } else {
    t.src[r - 1] *= 2;
    t.shape[r - 1] *= 2;
  }
  t.srcSize *= 2;
  t.dstSize *= 2;
  if (t.loopNum == 0) return;
  if (t.src[0] == 1 && t.shape[0] != 1) t.srcStride[9] = 0;  // and stays 0
  for (uint32_t i = 0; i < 8; ++i) t.shape[i] = t.shape[i + 1], t.src[i] = t.src[i + 1];
  t.shape[8] = t.src[8] = 2;
}

// constRank -1 or above 4 fuses runs of broadcast dims (src 1, dst not) and of equal dims; the
// strides from the last dim, 0 for a broadcast dim.
inline TilingR ReplayTiling(int constRank, const std::vector<uint32_t>& dst,
                            const std::vector<uint32_t>& src, bool b64 = false) {
  TilingR t;
  t.b64 = b64;
  const uint32_t n = static_cast<uint32_t>(dst.size());
  for (uint32_t i = 0; i < n; ++i) {
    t.shape[i] = dst[i];
    t.src[i] = src[i];
    t.srcSize *= src[i];
    t.dstSize *= dst[i];
  }
  t.rank = n;
  if (constRank == -1 || constRank > 4) {
    uint32_t i = 0, count = 0;
    while (i < n) {
      uint32_t size = 1, begin = i;
      while (i < n && src[i] == 1 && dst[i] != 1) size *= dst[i++];
      if (i > begin) t.shape[count] = size, t.src[count++] = 1;
      size = 1, begin = i;
      while (i < n && src[i] == dst[i]) size *= dst[i++];
      if (i > begin) t.shape[count] = size, t.src[count++] = size;
    }
    t.rank = count;
  }
  bool loopSrcZero = false;
  if (b64 && t.srcSize != t.dstSize) {
    loopSrcZero =
        t.rank == 9 && t.src[0] == 1 && t.shape[0] != 1 && t.src[8] == 1 && t.shape[8] != 1;
    SplitB64(t);
  }
  uint32_t lastSrc = 1, lastDst = 1;
  for (uint32_t i = t.rank; i-- > 0;) {
    t.dstStride[i] = lastDst;
    lastDst *= t.shape[i];
    const bool brc = t.src[i] == 1 && t.shape[i] != 1;
    t.srcStride[i] = brc ? 0 : lastSrc;
    if (!brc) lastSrc *= t.src[i];
  }
  if (t.loopNum != 0 && !loopSrcZero) t.srcStride[9] = lastSrc;
  return t;
}

// What the device leaves in dst; false where its code divides by 0 (left undefined).
template <typename T>
bool ReplayRankN(Image<T>& dst, const Image<T>& src, int constRank, const TilingR& t) {
  constexpr uint32_t VL = Lanes<T>(), kBlk = 32 / sizeof(T);
  const uint32_t dim = t.rank;
  if (t.srcSize == t.dstSize) {  // DataCopy of the count rounded up to 32 bytes (of T)
    const uint32_t blk = t.b64 ? 4 : kBlk, n = (t.dstSize + blk - 1) / blk * blk * (t.b64 ? 2 : 1);
    for (uint32_t i = 0; i < n; ++i) dst.mem.at(i) = src.mem.at(i);
    return true;
  }
  if (t.srcSize == 1) {  // BrcDuplicate
    uint32_t sreg = t.dstSize;
    for (uint32_t i = 0; i < (t.dstSize + VL - 1) / VL; ++i) {
      const std::vector<bool> m = UpdateMask(sreg, VL);
      dst.StoreMasked(size_t{i} * VL, std::vector<T>(VL, src.mem.at(0)), m);
    }
    return true;
  }
  const bool last = t.srcStride[dim - 1] == 0, dyn = !(constRank >= 2 && constRank <= 4);
  Brc<T> two{dst, src};
  BrcN<T> more{dst, src};
  bool reduce = true;
  if (t.b64 && constRank >= 2 && constRank <= 4 && dim != static_cast<uint32_t>(constRank)) {
    // 8-byte T, a dim of 2 added: the next wrapper up, constRank's (BrcNlastWrapperForMoreDim
    // for 4: GatherWrapperForFourDim over dims 1 to 4 for each index of dim 0).
    if (dim == 3) {
      more.Nlast3(t.shape, t.srcStride, false);
    } else if (dim == 4) {
      more.Nlast4(t.shape, t.srcStride, false);
    } else {
      for (uint32_t p = 0; p < U16(t.shape[0]); ++p) {
        more.Gather4(size_t{p} * t.dstStride[0], size_t{p} * t.srcStride[0], t.shape + 1,
                     t.srcStride + 1);
      }
    }
    return !more.undefined;
  }
  if (dim == 2) {
    const uint16_t s0 = U16(t.shape[0]), s1 = U16(t.shape[1]);
    reduce = last ? two.Last(s0, s1, dyn) : two.Nlast(s0, s1, dyn);
  } else if (dim == 3) {
    reduce = last ? more.Last3(t.shape, t.srcStride, dyn) : more.Nlast3(t.shape, t.srcStride, dyn);
  } else if (dim == 4) {
    reduce = last ? more.Last4(t.shape, t.srcStride, dyn) : more.Nlast4(t.shape, t.srcStride, dyn);
  }
  for (uint32_t h = 0; reduce && h < std::max(t.loopNum, 1u); ++h) {
    more.Dynamic(dim, t.shape, t.dstStride, t.srcStride, last,
                 size_t{h} * t.dstStride[0] * t.shape[0], size_t{h} * t.srcStride[9]);
  }
  return !more.undefined;
}

}  // namespace lngrad_replay::transform3510
