// lngrad: Pad of unaligned rows on arch 2201 and 2002 (the kit's UnAlignedPad in
// pad_base_impl.h), the sequence itself: dst and what it leaves in the scratch.
//
// The sequence reads src as one stream of h * w elements and builds each dst row of
// w + leftPad + rightPad elements in groups of G = 16 * tmpBuffer1BlockNum (B) elements
// (widthFractal full groups, then a last one of widthFractalTailAlingned), through the
// tiling's two scratch regions of G 32-byte rows each:
// - tmp1 (scratch offset 0) holds a chunk of the stream, one element a row broadcast over the
//   row: chunks of brcbTiling elements, the last one brcbFractalTail. On 2201 a chunk is
//   loaded by Brcb, 8 elements a repeat, so a chunk of n elements loads only 8 * (n / 8) rows
//   and its last n % 8 rows keep what they held (the previous chunk's elements, or the
//   scratch's bytes before the call if none); on 2002 by one Duplicate per element (all n).
// - tmp2 (offset tmpBuffer2Offset elements): a group's rows (leftPad rows of padValue at the
//   start of a row's first group, rightPad rows of padValue ending its last group, the rest
//   taken from tmp1 in stream order, tmp1 reloaded as it runs out), then transposed in place
//   16 rows at a time (TransDataTo5HD over B repeats: 16 x 16 for 2-byte T; for 4-byte T row
//   2x + h of a 16-row block becomes element x of rows 8h .. 8h + 7), of which dst takes each
//   16-row block's first block (two blocks for 4-byte T): the rows' first elements.
// So dst holds what the stream put in each row, and the scratch what the last group and the
// last chunk left. Rows whose last group the tiling sizes short (width % G + leftPad +
// rightPad past widthFractalTailAlingned) are refused in checked mode (pad.h PadRows), and
// always where the kit's row count wraps (its leading and trailing pads past it).
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>

#include "kernel_tiling/kernel_tiling.h"
#include "lib/pad/transform_common.h"
#include "lngrad_aicore/pipe.h"

namespace lngrad::aicore::pad_detail {

// TransDataTo5HD in place over `blocks` blocks of 16 32-byte rows (the kit's address lists
// tmp2[i * row], repeat stride 16 blocks): 2-byte T a 16 x 16 transpose; 4-byte T row k's
// element x goes to row 2x + k / 8, element k % 8.
template <typename T>
void Transpose16Rows(T* rows, uint32_t blocks) {
  constexpr uint32_t kRow = 32 / sizeof(T);
  for (uint32_t b = 0; b < blocks; ++b) {
    T* m = rows + uint64_t{b} * 16 * kRow;
    T in[16 * kRow];
    std::memcpy(in, m, sizeof(in));
    for (uint32_t k = 0; k < 16; ++k) {
      for (uint32_t x = 0; x < kRow; ++x) {
        const uint32_t to = sizeof(T) == 2 ? x * kRow + k : (2 * x + k / 8) * kRow + k % 8;
        m[to] = in[k * kRow + x];
      }
    }
  }
}

// Element 0 of row r before Transpose16Rows, read where it put it (what the kit's strided
// DataCopy of each 16-row block's first one or two blocks takes).
template <typename T>
T FirstOfRow(const T* rows, uint32_t r) {
  constexpr uint32_t kRow = 32 / sizeof(T);
  const T* m = rows + uint64_t{r / 16} * 16 * kRow;
  const uint32_t k = r % 16;
  return m[sizeof(T) == 2 ? k : (k / 8) * kRow + k % 8];
}

template <typename T>
class UnalignedPadRun {
 public:
  static constexpr uint32_t kRow = 32 / sizeof(T);  // elements of a 32-byte row

  UnalignedPadRun(const AscendC::tiling::PadTiling& t, bool brcb, const T* src, T* scratch)
      : t_(t), brcb_(brcb), src_(src), tmp1_(scratch), tmp2_(scratch + t.tmpBuffer2Offset) {}

  // Row j of dst (w + leftPad + rightPad elements from `out`), group after group.
  void Row(T* out, uint16_t left, uint16_t right, T pad) {
    const uint32_t group = 16 * t_.tmpBuffer1BlockNum;
    for (uint32_t i = 0; i <= t_.widthFractal; ++i) {
      const bool last = i == t_.widthFractal;
      const uint32_t rows = last ? t_.widthFractalTailAlingned : group;
      const uint32_t lead = i == 0 ? left : 0, trail = last ? right : 0;
      std::fill(tmp2_, tmp2_ + uint64_t{lead} * kRow, pad);
      if (trail != 0)
        std::fill(tmp2_ + uint64_t{rows - trail} * kRow, tmp2_ + uint64_t{rows} * kRow, pad);
      Fill(tmp2_ + uint64_t{lead} * kRow, last ? rows - lead - trail : group - lead);
      Transpose16Rows(tmp2_, t_.tmpBuffer1BlockNum);
      // Each 16-row block's first element of every row, in order (the DataCopy of its first
      // one or two blocks; the last group's 4-byte tail takes one block of 8).
      T* to = out + uint64_t{i} * group;
      for (uint32_t r = 0; r < rows; ++r) to[r] = FirstOfRow(tmp2_, r);
    }
  }

  uint64_t Tmp1RowsWritten() const { return tmp1_rows_; }

 private:
  // tmp2 rows from tmp1 in stream order, `n` of them starting at `to`.
  void Fill(T* to, uint32_t n) {
    while (n != 0) {
      const uint32_t have = full_ - used_;
      const uint32_t take = std::min(have, n);
      std::memcpy(to, tmp1_ + uint64_t{used_} * kRow, uint64_t{take} * 32);
      to += uint64_t{take} * kRow;
      used_ += take;
      n -= take;
      if (n != 0) Load();
    }
  }

  // The next chunk into tmp1 (see the header comment for 2201's rows per chunk).
  void Load() {
    const bool tail = chunk_ == t_.brcbFractal;
    const uint32_t n = tail ? t_.brcbFractalTail : t_.brcbTiling;
    const T* from = src_ + uint64_t{chunk_} * t_.brcbTiling;
    const uint32_t loaded = brcb_ ? n / 8 * 8 : n;
    for (uint32_t q = 0; q < loaded; ++q) {
      std::fill(tmp1_ + uint64_t{q} * kRow, tmp1_ + uint64_t{q + 1} * kRow, from[q]);
    }
    tmp1_rows_ = std::max<uint64_t>(tmp1_rows_, loaded);
    if (tail) full_ = t_.brcbFractalTail;
    ++chunk_;
    used_ = 0;
  }

  const AscendC::tiling::PadTiling& t_;
  bool brcb_;
  const T* src_;
  T* tmp1_;
  T* tmp2_;
  uint32_t full_ = t_.tmpBuffer1RowNum, used_ = t_.tmpBuffer1RowNum, chunk_ = 0;
  uint64_t tmp1_rows_ = 0;
};

// The whole sequence: dst's h rows and the scratch, with the writes recorded for the
// sanitizer (tmp2's G rows, tmp1's rows the loads wrote). `scratch` holds the tiling's two
// regions (checked by the caller in checked mode; inside the UB always).
struct PadRowEnds {
  uint16_t left, right;
};

template <typename T>
void PadUnaligned(T* dst, const T* src, PadRowEnds p, T pad, const AscendC::tiling::PadTiling& t,
                  const AscendC::LocalTensor<uint8_t>& tmp, bool brcb, const char* api,
                  SrcLoc loc) {
  if (t.srcHeight == 0 || tmp.HostPtr() == nullptr) return;
  const detail::TensorView tv = tmp.View();
  const uint64_t rows = uint64_t{16} * t.tmpBuffer1BlockNum;
  detail::RequireInsideUb(tv, tv.ptr - tv.ub,
                          (uint64_t{t.tmpBuffer2Offset} * sizeof(T)) + rows * 32, api);
  T* scratch = reinterpret_cast<T*>(tmp.HostPtr());
  UnalignedPadRun<T> run(t, brcb, src, scratch);
  const uint64_t out_w = uint64_t{t.srcWidth} + p.left + p.right;
  for (uint64_t j = 0; j < t.srcHeight; ++j) run.Row(dst + j * out_w, p.left, p.right, pad);
  transform_detail::RecordMove(
      api, loc, {},
      {{scratch, run.Tmp1RowsWritten() * 32}, {scratch + t.tmpBuffer2Offset, rows * 32}});
}

}  // namespace lngrad::aicore::pad_detail
