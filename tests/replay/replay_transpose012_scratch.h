// Replay of what ConfusionTranspose / Transpose of the NZ 012 types (TRANSPOSE_NZ2NZ_012_WITH_N,
// TRANSPOSE_NZ2ND_012_WITH_N, TRANSPOSE_NZ2ND_012_WITHOUT_N, TRANSPOSE_NZ2NZ_012_WITHOUT_N)
// leave in dst and in their scratch on 2201 and 2002 (and the 950, whose common file includes the
// 2201 code for these types).
//
// Provenance: written by helper tr (session 19) from the kit's source only, before comparing with
// lngrad (whose lib/transpose/confusion_transpose_012.h the same helper had skimmed once, before
// reading the kit, to find which types use a scratch; not while writing this). A separate reading
// by the same helper. Files read (mirror-cann+asc-devkit, HEAD 82b89a15f):
// - impl/adv_api/detail/transpose/confusion_transpose/confusion_transpose_base_impl.h
//   (ConfusionTranspose2NZ012NCompute, ConfusionTranspose2ND012NCompute,
//   ConfusionTranspose012Compute and the 012 helpers: InitConfusionTranspose012TransParams,
//   Tmp1RemainRowCountZero, Tmp1ToTmp2, Tmp1ToTmp2Remain, Tmp2ToDst{,Half,Float}),
//   confusion_transpose_base_2nz012.h (the WITH_N NZ helpers), confusion_transpose_base_2nd012.h
//   (the WITH_N ND helpers), confusion_transpose_common_impl.h, _v220_impl.h, _v200_impl.h (the
//   same Compute functions on 2002, 2201 and 3510);
// - impl/basic_api/utils/kernel_utils_struct_confusion_pad.h (the three tiling structs' field
//   order = param0.. of ConfusionTransposeTiling);
// - TransDataTo5HD as replay_transform_scratch.h reads the page (Trans5hd; every pass here has
//   repeatTimes 1 and both strides 0).
// The scratch is read as T: tmp1 its elements [0, 256), tmp2 [256, 512). Every index is kept in
// uint32_t as the kit computes it (its params and tiling fields are uint32_t); each access is
// checked to lie inside its buffer and the replay reports false otherwise. Moves only.
#pragma once

#include <cstdint>
#include <vector>

#include "replay_transform_scratch.h"

namespace lngrad_replay::transpose012_scratch {

// ConfusionTranspose2NZ012NTiling, kit field order.
struct TilingNz012N {
  uint32_t blockSize, shapeB, shapeN, hnDiv, blockNum, shapeH, hBlockNum, sBlockNum, alignH, alignS,
      hnDivBlockNum, alignHnDiv, gap, alignsBlockCube, prehBlockNum, dstBatchOffset, srcBatchOffset;
};

// ConfusionTranspose2ND012NTiling, kit field order.
struct TilingNd012N {
  uint32_t blockSize, shapeB, shapeN, hnDiv, shapeH, hBlockNum, sBlockNum, hnDivBlockNum,
      alignHnDiv, gap, alignsCube, prehBlockNum, alignsMulAlignHnDiv, alignHnDivCube,
      alignHnDivBlockSize, dstBatchOffset, srcBatchOffset, blockNum;
};

// ConfusionTranspose012Tiling, kit field order.
struct Tiling012 {
  uint32_t blockSize, shapeB, shapeN, hnDiv, shapeH, hBlockNum, sBlockNum, hnDivBlockNum, alignH,
      alignsCube, alignhBlockCube, blockSizeMulAlignH, srcBatchOffset, dstBatchOffset, blockNum;
};

// A buffer of n elements.
template <class T>
struct Buf {
  T* p;
  uint64_t n;
};

// The machine: src, dst and the scratch (as T), every access bounds-checked.
template <class T>
class Machine {
 public:
  Machine(Buf<T> src, Buf<T> dst, Buf<T> tmp) : src_(src), dst_(dst), tmp_(tmp) {}
  bool ok() const { return ok_; }

  // TransDataTo5HD, repeat 1, strides 0: destination list d (offsets in `db`), source list s.
  void Trans(Buf<T> db, const uint32_t d[16], Buf<T> sb, const uint32_t s[16]) {
    constexpr uint32_t e = 32 / sizeof(T);
    T* dp[16];
    const T* sp[16];
    for (int n = 0; n < 16; ++n) {
      if (uint64_t{d[n]} + e > db.n || uint64_t{s[n]} + e > sb.n) {
        ok_ = false;
        return;
      }
      dp[n] = db.p + d[n];
      sp[n] = sb.p + s[n];
    }
    lngrad_replay::transform_scratch::Trans5hd<T>(dp, sp, 1, 0, 0);
  }

  // DataCopy UB -> UB, blockCount 1, blockLen 32-byte blocks: tmp element `to` <- `from`.
  void CopyTmp(uint32_t to, uint32_t from, uint32_t blocks) {
    const uint64_t n = uint64_t{blocks} * (32 / sizeof(T));
    if (to + n > tmp_.n || from + n > tmp_.n) {
      ok_ = false;
      return;
    }
    for (uint64_t x = 0; x < n; ++x) tmp_.p[to + x] = tmp_.p[from + x];
  }

  // src fractal at `base` -> tmp1 (the loads of all three sequences).
  void Load(uint32_t base, uint32_t blockSize) {
    uint32_t d[16], s[16];
    if constexpr (sizeof(T) == 2) {
      for (uint32_t n = 0; n < 16; ++n) {
        d[n] = 16 * n;
        s[n] = base + 16 * n;
      }
      Trans(tmp_, d, src_, s);
    } else {
      for (uint32_t m = 0; m < 2; ++m) {
        for (uint32_t n = 0; n < 16; ++n) d[n] = m * 128 + blockSize * n;
        for (uint32_t n = 0; n < 16; ++n) s[n] = base + m * blockSize + 16 * n;
        Trans(tmp_, d, src_, s);
      }
    }
  }

  // tmp2 -> dst, the destination list of pass m given by at(m, n) (2-byte T: m = 0 only).
  template <class At>
  void Store(uint32_t blockSize, At&& at) {
    uint32_t d[16], s[16];
    const uint32_t passes = sizeof(T) == 2 ? 1 : 2;
    for (uint32_t m = 0; m < passes; ++m) {
      for (uint32_t n = 0; n < 16; ++n) d[n] = at(m, n);
      for (uint32_t n = 0; n < 16; ++n) s[n] = 256 + (sizeof(T) == 2 ? 0 : m * blockSize) + 16 * n;
      Trans(dst_, d, tmp_, s);
    }
  }

 private:
  Buf<T> src_, dst_, tmp_;
  bool ok_ = true;
};

// ConfusionTranspose2NZ012NCompute (TRANSPOSE_NZ2NZ_012_WITH_N).
template <class T>
bool ReplayNz012N(const TilingNz012N& t, Buf<T> src, Buf<T> dst, Buf<T> tmp) {
  Machine<T> mc(src, dst, tmp);
  uint32_t remain = 0, tmp2Count = 0, need = 16, rep = 0, prehn = 0, all = 0;
  auto store = [&](uint32_t j, uint32_t k) {
    const uint32_t base =
        (rep - j * t.prehBlockNum) * t.alignsBlockCube + j * 256 + k * t.dstBatchOffset;
    mc.Store(t.blockSize, [&](uint32_t m, uint32_t n) {
      return sizeof(T) == 2 ? base + 16 * n : base + m * 128 + t.blockSize * n;
    });
    rep += 1;
    if (rep % t.shapeN == 0 && t.hnDiv < 16) {
      remain = 0;
    } else if (all % t.shapeH == 0) {
      remain = 0;
    }
    tmp2Count = 0;
  };
  auto calcNeed = [&] {
    if (t.hnDiv >= 16 && prehn == t.hnDiv) {
      need = 16;
    } else if (t.hnDiv >= 16 && prehn != t.hnDiv) {
      need = t.hnDiv - prehn >= 16 ? 16 : t.hnDiv - prehn;
    } else {
      need = t.hnDiv;
    }
  };
  for (uint32_t k = 0; k < t.shapeB; ++k) {
    rep = 0;
    for (uint32_t j = 0; j < t.sBlockNum; ++j) {
      for (uint32_t i = 0; i < t.hBlockNum; ++i) {
        if (remain == 0) {
          mc.Load(i * t.alignsBlockCube + j * 256 + k * t.srcBatchOffset, t.blockSize);
          remain = 16;
        }
        if (i * 16 <= t.hnDiv && (i + 1) * 16 > t.hnDiv) need = 16 - t.gap;
        if (need <= remain && need != 0) {
          mc.CopyTmp(256 + tmp2Count * 16, 0, need * t.blockNum);
          prehn += need;
          all += need;
          tmp2Count += need;
          remain -= need;
          need = 0;
          if (prehn == t.hnDiv) prehn = 0;
        }
        if (need == 0) store(j, k);
        calcNeed();
        while (remain != 0 && mc.ok()) {
          if (need != 0) {
            const uint32_t rows = remain >= need ? need : remain;
            mc.CopyTmp(256, (16 - remain) * 16, rows * t.blockNum);
            prehn += rows;
            all += rows;
            tmp2Count = rows;
            if (remain >= need) {
              remain -= need;
              need = 0;
            } else {
              need -= remain;
              remain = 0;
            }
            if (prehn == t.hnDiv) prehn = 0;
          }
          if (need == 0) {
            store(j, k);
            calcNeed();
          }
        }
        if (!mc.ok()) return false;
      }
    }
  }
  return mc.ok();
}

// ConfusionTranspose2ND012NCompute (TRANSPOSE_NZ2ND_012_WITH_N).
template <class T>
bool ReplayNd012N(const TilingNd012N& t, Buf<T> src, Buf<T> dst, Buf<T> tmp) {
  Machine<T> mc(src, dst, tmp);
  uint32_t remain = 0, need = 16, rep = 0, tmp2Count = 0, prehn = 0, all = 0;
  if (t.hnDiv < 16) need = t.hnDiv;
  auto store = [&](uint32_t j, uint32_t k) {
    const uint32_t r = rep - j * t.prehBlockNum;
    uint32_t base;
    if (t.hnDiv <= 16) {
      base = r * t.alignsMulAlignHnDiv + j * t.alignHnDivCube + k * t.dstBatchOffset;
    } else {
      base = (r / t.hnDivBlockNum) * t.alignsMulAlignHnDiv + (r % t.hnDivBlockNum) * 16 +
             j * t.alignHnDivCube + k * t.dstBatchOffset;
    }
    mc.Store(t.blockSize, [&](uint32_t m, uint32_t n) {
      if (sizeof(T) == 2) return base + t.alignHnDiv * n;
      if (t.hnDiv <= 16) return base + m * 128 + t.blockSize * n;
      return base + m * t.alignHnDivBlockSize + t.alignHnDiv * (n / 2) + (n % 2) * t.blockSize;
    });
    rep += 1;
    if (rep % t.shapeN == 0 && t.hnDiv < 16) {
      remain = 0;
    } else if (all % t.shapeH == 0) {
      remain = 0;
    }
    tmp2Count = 0;
    if (prehn == t.hnDiv) prehn = 0;
  };
  auto calcNeed = [&] {
    if (t.hnDiv >= 16 && prehn == t.hnDiv) {
      need = 16;
    } else if (t.hnDiv >= 16 && prehn != t.hnDiv) {
      need = t.hnDiv - prehn >= 16 ? 16 : t.hnDiv - prehn;
    } else {
      need = t.hnDiv;
    }
  };
  for (uint32_t k = 0; k < t.shapeB; ++k) {
    rep = 0;
    for (uint32_t j = 0; j < t.sBlockNum; ++j) {
      for (uint32_t i = 0; i < t.hBlockNum; ++i) {
        if (remain == 0) {
          mc.Load(i * t.alignsCube + j * 256 + k * t.srcBatchOffset, t.blockSize);
          remain = 16;
        }
        if (i * 16 <= t.hnDiv && (i + 1) * 16 > t.hnDiv) need = 16 - t.gap;
        if (need <= remain && need != 0) {
          mc.CopyTmp(256 + tmp2Count * 16, 0, need * t.blockNum);
          prehn += need;
          all += need;
          tmp2Count += need;
          remain -= need;
          need = 0;
        }
        if (need == 0) store(j, k);
        calcNeed();
        while (remain != 0 && mc.ok()) {
          if (need != 0) {
            const uint32_t rows = remain >= need ? need : remain;
            mc.CopyTmp(256, (16 - remain) * 16, rows * t.blockNum);
            prehn += rows;
            all += rows;
            tmp2Count = rows;
            if (remain >= need) {
              remain -= need;
              need = 0;
            } else {
              need -= remain;
              remain = 0;
            }
          }
          if (need == 0) {
            store(j, k);
            calcNeed();
          }
        }
        if (!mc.ok()) return false;
      }
    }
  }
  return mc.ok();
}

// ConfusionTranspose012Compute (TRANSPOSE_NZ2ND_012_WITHOUT_N when nd, else _NZ2NZ_).
template <class T>
bool Replay012(const Tiling012& t, bool nd, Buf<T> src, Buf<T> dst, Buf<T> tmp) {
  Machine<T> mc(src, dst, tmp);
  uint32_t remain = 0, need = 16, rep = 0, tmp2Count = 0, tmp1Count = 0, all = 0, prehn = 0;
  auto toDst = [&](uint32_t j, uint32_t k) {
    if (need != 0) return;
    mc.Store(t.blockSize, [&](uint32_t m, uint32_t n) {
      if (nd) {
        const uint32_t base = rep * 16 + j * t.alignhBlockCube + k * t.dstBatchOffset;
        if (sizeof(T) == 2) return base + t.alignH * n;
        return base + m * t.blockSizeMulAlignH + t.alignH * (n / 2) + (n % 2) * t.blockSize;
      }
      const uint32_t base = rep * t.alignsCube + j * 256 + k * t.dstBatchOffset;
      return sizeof(T) == 2 ? base + 16 * n : base + m * 128 + t.blockSize * n;
    });
    tmp2Count = 0;
    rep += 1;
    if (all == t.shapeH) {
      remain = 0;
      all = 0;
    }
    need = rep + 1 != t.hBlockNum ? 16 : t.shapeH - rep * 16;
  };
  for (uint32_t k = 0; k < t.shapeB; ++k) {
    rep = 0;
    for (uint32_t j = 0; j < t.sBlockNum; ++j) {
      rep = 0;
      for (uint32_t i = 0; i < t.hnDivBlockNum * t.shapeN; ++i) {
        tmp1Count = 0;
        if (remain == 0) {
          mc.Load(i * t.alignsCube + j * 256 + k * t.srcBatchOffset, t.blockSize);
          if (t.hnDiv > 16) {
            remain = prehn < t.hnDiv && prehn + 16 > t.hnDiv ? t.hnDiv - prehn : 16;
          } else {
            remain = t.hnDiv;
          }
        }
        if (prehn == t.hnDiv) prehn = 0;
        if (need <= remain) {
          if (need != 0) {
            mc.CopyTmp(256 + tmp2Count * 16, 0, need * t.blockNum);
            tmp1Count += need;
            all += need;
            prehn += need;
            tmp2Count += need;
            remain -= need;
            need = 0;
          }
        } else if (remain != 0) {
          mc.CopyTmp(256 + tmp2Count * 16, 0, remain * t.blockNum);
          tmp1Count += remain;
          all += remain;
          prehn += remain;
          tmp2Count += remain;
          need -= remain;
          remain = 0;
        }
        toDst(j, k);
        while (remain != 0 && mc.ok()) {
          if (remain >= need) {
            if (need != 0) {
              mc.CopyTmp(256 + tmp2Count * 16, tmp1Count * 16, need * t.blockNum);
              all += need;
              prehn += need;
              tmp2Count += need;
              remain -= need;
              need = 0;
            }
          } else if (need != 0) {
            mc.CopyTmp(256 + tmp2Count * 16, tmp1Count * 16, remain * t.blockNum);
            all += remain;
            prehn += remain;
            tmp2Count = remain;
            need -= remain;
            remain = 0;
          }
          toDst(j, k);
        }
        if (!mc.ok()) return false;
      }
    }
  }
  return mc.ok();
}

}  // namespace lngrad_replay::transpose012_scratch
