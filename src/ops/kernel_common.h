// lngrad::ops::kernel: what the operators' kernels share (device code; needs only
// "kernel_operator.h" and the operator tiling): reading the tiling, the entry's type dispatch,
// the block's GM views, the walk over its tiles, and queue copy-in / copy-out.
#pragma once

#include "kernel_operator.h"
#include "ops/op_tiling.h"

namespace lngrad::ops::kernel {

// Copies a tiling struct from GM into kernel-local storage, one uint32 word at a time (tiling
// structs are made of 4-byte fields). `byteOffset` must be a multiple of 4. Each word is stored
// with memcpy: storing through a uint32_t* into a struct with float members (the usual device
// idiom) is undefined behaviour in C++, and an optimising host compiler may then keep stale
// float values.
template <typename T>
__aicore__ inline void CopyTiling(T* dst, GM_ADDR tiling, uint64_t byteOffset = 0) {
  static_assert(sizeof(T) % sizeof(uint32_t) == 0, "tiling structs are made of 4-byte words");
  auto* src = reinterpret_cast<__gm__ uint32_t*>(tiling + byteOffset);
  for (uint32_t i = 0; i < sizeof(T) / sizeof(uint32_t); ++i) {
    const uint32_t word = src[i];
    __builtin_memcpy(reinterpret_cast<uint8_t*>(dst) + i * sizeof(uint32_t), &word, sizeof(word));
  }
}

// Reads the operator header and this block's entry. false: this block has no rows (the launch
// may have more blocks than entries).
template <class Tiling>
__aicore__ inline bool LoadTiling(GM_ADDR tiling, OpTilingHeader* head,
                                  OpTilingBlock<Tiling>* block) {
  CopyTiling(head, tiling);
  const uint32_t blockIdx = static_cast<uint32_t>(AscendC::GetBlockIdx());
  if (blockIdx >= head->blockNum) return false;
  CopyTiling(block, tiling,
             sizeof(OpTilingHeader) + uint64_t{blockIdx} * sizeof(OpTilingBlock<Tiling>));
  return block->rowCount != 0;
}

// Calls run.template operator()<T, isReuseSource>() for the header's element type and
// isReuseSource: the entry's one switch from tiling values to template arguments.
template <class Run>
__aicore__ inline void DispatchTypes(const OpTilingHeader& head, Run&& run) {
  if (head.dtype == 1) {
    if (head.isReuseSource != 0) {
      run.template operator()<half, true>();
    } else {
      run.template operator()<half, false>();
    }
  } else {
    if (head.isReuseSource != 0) {
      run.template operator()<float, true>();
    } else {
      run.template operator()<float, false>();
    }
  }
}

// Elements of T per 32-byte data block.
template <typename T>
__aicore__ inline constexpr uint32_t ElemsPerBlock() {
  return 32 / sizeof(T);
}

__aicore__ inline constexpr uint32_t AlignUp(uint32_t n, uint32_t unit) {
  return (n + unit - 1) / unit * unit;
}

// `gm` over `count` elements of T from element `offset` of `base`.
template <typename T>
__aicore__ inline void SetGm(AscendC::GlobalTensor<T>& gm, GM_ADDR base, uint64_t offset,
                             uint64_t count) {
  gm.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(base) + offset, count);
}
// `gm` over the block's rows of a [rows, h] tensor.
template <typename T, class Tiling>
__aicore__ inline void SetBlockRows(AscendC::GlobalTensor<T>& gm, GM_ADDR base,
                                    const OpTilingBlock<Tiling>& block, uint32_t h) {
  SetGm(gm, base, uint64_t{block.rowStart} * h, uint64_t{block.rowCount} * h);
}
// `gm` over a per-row [B,S] tensor from the block's first row to the end of the host's padding
// (tiles read and write whole 32-byte blocks of it).
template <typename T, class Tiling>
__aicore__ inline void SetBlockStats(AscendC::GlobalTensor<T>& gm, GM_ADDR base,
                                     const OpTilingHeader& head,
                                     const OpTilingBlock<Tiling>& block) {
  SetGm(gm, base, block.rowStart, head.statLength - block.rowStart);
}

// Calls tile(row, rows, tiling, first) for every tile of the block in row order: tileNum tiles
// of tileRows rows, then the tail. The tiling is the host's for the tile's row count.
template <class Tiling, class Fn>
__aicore__ inline void ForEachTile(const OpTilingBlock<Tiling>& block, Fn&& tile) {
  uint32_t row = 0;
  for (uint32_t i = 0; i < block.tileNum; ++i) {
    tile(row, block.tileRows, block.tileTiling, i == 0);
    row += block.tileRows;
  }
  if (block.tailRows != 0) {
    tile(row, block.tailRows, block.tailTiling, block.tileNum == 0);
  }
}

// CopyIn of one queue: a new tensor, `count` elements from `src`, handed to the queue.
template <typename T, class Que>
__aicore__ inline void CopyInQue(Que& que, const AscendC::GlobalTensor<T>& src, uint32_t count) {
  AscendC::LocalTensor<T> t = que.template AllocTensor<T>();
  AscendC::DataCopy(t, src, count);
  que.EnQue(t);
}

// CopyOut of one queue: the queued tensor's first `count` elements to `dst`, then freed.
template <typename T, class Que>
__aicore__ inline void CopyOutQue(const AscendC::GlobalTensor<T>& dst, Que& que, uint32_t count) {
  AscendC::LocalTensor<T> t = que.template DeQue<T>();
  AscendC::DataCopy(dst, t, count);
  que.FreeTensor(t);
}

}  // namespace lngrad::ops::kernel
