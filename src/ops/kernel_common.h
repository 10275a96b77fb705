// lngrad::ops::kernel: what the operators' kernels share (device code; needs only
// "kernel_operator.h" and the operator tiling): reading the tiling, the entry's type dispatch,
// the block's GM views, the walk over its tiles, and queue copy-in / copy-out.
#pragma once

#include "kernel_operator.h"
#include "ops/op_tiling.h"

namespace lngrad::ops::kernel {

// The kernels are written as for the device, in the AscendC names.
using namespace AscendC;

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

// Elements of T per 32-byte data block.
template <typename T>
__aicore__ inline constexpr uint32_t ElemsPerBlock() {
  return 32 / sizeof(T);
}

__aicore__ inline constexpr uint32_t AlignUp(uint32_t n, uint32_t unit) {
  return (n + unit - 1) / unit * unit;
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

// The body of a kernel entry: reads the tiling and, for a block with rows, runs
// Kernel<T, isReuseSource>: Init(args..., head, block), then Process().
template <template <typename, bool> class Kernel, class Tiling, typename... Args>
__aicore__ inline void RunBlock(GM_ADDR tiling, Args... args) {
  // Vector kernels: the cube cores of a mixed launch have nothing to do.
  if ASCEND_IS_AIC {
    return;
  }
  OpTilingHeader head;
  OpTilingBlock<Tiling> block;
  if (!LoadTiling(tiling, &head, &block)) {
    return;
  }
  DispatchTypes(head, [&]<typename T, bool isReuseSource>() {
    Kernel<T, isReuseSource> op;
    op.Init(args..., head, block);
    op.Process();
  });
}

// Base of the operators' kernel classes: the block's tiling, the TPipe and the
// sharedTmpBuffer TBuf.
template <class Tiling>
class BlockKernel {
 protected:
  __aicore__ inline void InitBlock(const OpTilingHeader& head, const OpTilingBlock<Tiling>& block) {
    head_ = head;
    block_ = block;
    hLength_ = head.hLength;
    originalHLength_ = head.originalHLength;
  }
  // The TBuf of the sharedTmpBuffer prototype; after the queues, as the host planned the UB.
  __aicore__ inline void InitTmpBuffer() {
    if (head_.useSharedTmpBuffer != 0) {
      pipe_.InitBuffer(tmpBuffer_, head_.tmpBufferBytes);
    }
  }
  // Calls api(sharedTmpBuffer) with the TBuf for the sharedTmpBuffer prototype, api() for the
  // framework-scratch one (PopStackBuffer): a generic lambda taking `auto&... tmp` serves both.
  template <class Api>
  __aicore__ inline void WithScratch(Api&& api) {
    if (head_.useSharedTmpBuffer != 0) {
      LocalTensor<uint8_t> sharedTmpBuffer = tmpBuffer_.Get<uint8_t>();
      api(sharedTmpBuffer);
    } else {
      api();
    }
  }
  // The header's epsilon as the API's T (rounded to half for half).
  template <typename T>
  __aicore__ inline T Epsilon() const {
    return static_cast<T>(head_.epsilon);
  }
  // Bytes of a queue of `rows` rows of the per-row [B,S] tensors: whole 32-byte blocks.
  template <typename T>
  __aicore__ inline uint32_t StatBytes(uint32_t rows) const {
    return AlignUp(rows, ElemsPerBlock<T>()) * sizeof(T);
  }

  AscendC::TPipe pipe_;
  AscendC::TBuf<AscendC::TPosition::VECCALC> tmpBuffer_;
  OpTilingHeader head_{};
  OpTilingBlock<Tiling> block_{};
  // The API takes the tiling by non-const reference (LayerNorm writes its tail lengths into
  // it), so each tile gets a fresh copy.
  Tiling tiling_{};
  uint32_t hLength_ = 0;          // H of a row in UB (storage)
  uint32_t originalHLength_ = 0;  // H of a row in GM (real)
};

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

// Rows of h elements in GM <-> rows of storageH elements in UB (h padded to 32 bytes). Aligned
// rows (h == storageH) move in one DataCopy; otherwise DataCopyPad moves up to 4095 rows per
// call (its blockCount limit), each row's padding filled with `pad` (isPad) on the way in, only
// the h real elements written back on the way out.
inline constexpr uint32_t kMaxPadRows = 4095;

template <typename T>
__aicore__ inline void CopyRowsIn(const AscendC::LocalTensor<T>& dst,
                                  const AscendC::GlobalTensor<T>& src, uint32_t rows, uint32_t h,
                                  uint32_t storageH, T pad = T(0)) {
  if (h == storageH) {
    AscendC::DataCopy(dst, src, rows * h);
    return;
  }
  const AscendC::DataCopyPadExtParams<T> padding(true, 0, static_cast<uint8_t>(storageH - h), pad);
  for (uint32_t r = 0; r < rows; r += kMaxPadRows) {
    const uint32_t n = rows - r < kMaxPadRows ? rows - r : kMaxPadRows;
    const AscendC::DataCopyExtParams params(static_cast<uint16_t>(n),
                                            static_cast<uint32_t>(h * sizeof(T)), 0, 0, 0);
    AscendC::DataCopyPad(dst[r * storageH], src[uint64_t{r} * h], params, padding);
  }
}

template <typename T>
__aicore__ inline void CopyRowsOut(const AscendC::GlobalTensor<T>& dst,
                                   const AscendC::LocalTensor<T>& src, uint32_t rows, uint32_t h,
                                   uint32_t storageH) {
  if (h == storageH) {
    AscendC::DataCopy(dst, src, rows * h);
    return;
  }
  for (uint32_t r = 0; r < rows; r += kMaxPadRows) {
    const uint32_t n = rows - r < kMaxPadRows ? rows - r : kMaxPadRows;
    const AscendC::DataCopyExtParams params(static_cast<uint16_t>(n),
                                            static_cast<uint32_t>(h * sizeof(T)), 0, 0, 0);
    AscendC::DataCopyPad(dst[uint64_t{r} * h], src[r * storageH], params);
  }
}

// CopyInQue of `rows` rows (CopyRowsIn).
template <typename T, class Que>
__aicore__ inline void CopyRowsInQue(Que& que, const AscendC::GlobalTensor<T>& src, uint32_t rows,
                                     uint32_t h, uint32_t storageH) {
  AscendC::LocalTensor<T> t = que.template AllocTensor<T>();
  CopyRowsIn(t, src, rows, h, storageH);
  que.EnQue(t);
}

// CopyOutQue of `rows` rows (CopyRowsOut).
template <typename T, class Que>
__aicore__ inline void CopyRowsOutQue(const AscendC::GlobalTensor<T>& dst, Que& que, uint32_t rows,
                                      uint32_t h, uint32_t storageH) {
  AscendC::LocalTensor<T> t = que.template DeQue<T>();
  CopyRowsOut(dst, t, rows, h, storageH);
  que.FreeTensor(t);
}

// CopyOut of one queue: the queued tensor's first `count` elements to `dst`, then freed.
template <typename T, class Que>
__aicore__ inline void CopyOutQue(const AscendC::GlobalTensor<T>& dst, Que& que, uint32_t count) {
  AscendC::LocalTensor<T> t = que.template DeQue<T>();
  AscendC::DataCopy(dst, t, count);
  que.FreeTensor(t);
}

}  // namespace lngrad::ops::kernel
