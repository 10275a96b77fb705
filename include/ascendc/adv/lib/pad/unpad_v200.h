// lngrad: UnPad on arch 2002 (the kit's UnPadCompute in pad_v200_impl.h), the sequence itself:
// dst and what it leaves in the scratch.
//
// The output, h rows of w - rightPad elements, is one stream cut into groups of
// G = 16 * tmpBuffer1BlockNum (B) elements, the last one the tail h * (w - rightPad) % G. For
// each row and each of its widthFractal fractals (widthTiling elements, the last
// widthFractalTail), tmp1 (scratch offset 0) gets the fractal's elements one a 32-byte row
// (one Duplicate each), and the rows but the right pad's pass on into tmp2 (offset
// tmpBuffer2Offset elements); each time tmp2 holds the group's rows it is transposed in place
// (lib/pad/pad_unaligned.h Transpose16Rows) and the rows' first elements go to dst at group * G:
// all G of a full group; of the tail, 16 * (tail / 16) for 2-byte T and, for 4-byte T, that
// plus 8 when tail % 16 is not 0. So the last tail % 16 elements of dst are not written for
// 2-byte T, and for 4-byte T the tail ends at a multiple of 8: short of the count (tail % 16 above
// 8) or past it (below 8: tmp2's stale rows, up to 7 elements past dst's h * (w - rightPad)).
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>

#include "kernel_tiling/kernel_tiling.h"
#include "lib/pad/pad_unaligned.h"
#include "lib/pad/transform_common.h"
#include "lngrad_aicore/pipe.h"

namespace lngrad::aicore::pad_detail {

template <typename T>
class UnPadV200Run {
 public:
  static constexpr uint32_t kRow = 32 / sizeof(T);

  UnPadV200Run(const AscendC::tiling::UnPadTiling& t, uint64_t total, T* scratch, T* dst)
      : t_(t),
        group_(t.tmpBuffer1RowNum),
        groups_(total / group_),
        tail_(total % group_),
        tmp1_(scratch),
        tmp2_(scratch + t.tmpBuffer2Offset),
        dst_(dst),
        want_(groups_ == 0 ? tail_ : group_) {}

  // The dst elements the tail group writes (see the header comment).
  static uint64_t TailWritten(uint64_t tail) {
    return tail / 16 * 16 + (sizeof(T) == 4 && tail % 16 != 0 ? 8 : 0);
  }

  // Row `row` of src (w elements): its fractals through tmp1 into tmp2.
  void Row(const T* row, uint16_t right) {
    for (uint32_t i = 0; i < t_.widthFractal; ++i) {
      const bool last = i + 1 == t_.widthFractal;
      const uint32_t n = last ? t_.widthFractalTail : t_.widthTiling;
      const T* from = row + uint64_t{i} * t_.widthTiling;
      for (uint32_t q = 0; q < n; ++q) {
        std::fill(tmp1_ + uint64_t{q} * kRow, tmp1_ + uint64_t{q + 1} * kRow, from[q]);
      }
      Push(last ? n - right : n);
    }
  }

 private:
  // tmp1's first `n` rows into tmp2, a group flushed to dst each time tmp2 holds it.
  void Push(uint32_t n) {
    uint32_t at = 0;
    while (at != n) {
      const uint32_t take = std::min<uint64_t>(n - at, want_ - have_);
      std::memcpy(tmp2_ + uint64_t{have_} * kRow, tmp1_ + uint64_t{at} * kRow, uint64_t{take} * 32);
      at += take;
      have_ += take;
      if (have_ < want_) return;
      Transpose16Rows(tmp2_, t_.tmpBuffer1BlockNum);
      const uint64_t count = flushed_ == groups_ ? TailWritten(tail_) : group_;
      for (uint64_t r = 0; r < count; ++r) {
        dst_[flushed_ * group_ + r] = FirstOfRow(tmp2_, static_cast<uint32_t>(r));
      }
      ++flushed_;
      have_ = 0;
      want_ = flushed_ == groups_ ? tail_ : group_;
    }
  }

  const AscendC::tiling::UnPadTiling& t_;
  uint64_t group_, groups_, tail_;
  T* tmp1_;
  T* tmp2_;
  T* dst_;
  uint64_t want_, have_ = 0, flushed_ = 0;
};

// The whole 2002 sequence, its reads and writes recorded for the sanitizer. The caller checked
// (checked mode) that the tiling lays out a scratch (tmpBuffer1BlockNum != 0) that fits; with
// none the device divides by zero: nothing is written.
template <typename T>
void UnPadV200(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
               uint16_t right, const AscendC::tiling::UnPadTiling& t,
               const AscendC::LocalTensor<uint8_t>& tmp, const char* api, SrcLoc loc) {
  const uint64_t h = t.srcHeight, w = t.srcWidth, total = h * (w - right);
  if (t.tmpBuffer1BlockNum == 0 || tmp.HostPtr() == nullptr || total == 0) return;
  const detail::TensorView tv = tmp.View(), dv = dst.View();
  const uint64_t rows = uint64_t{16} * t.tmpBuffer1BlockNum;
  const uint64_t scratch_bytes = uint64_t{t.tmpBuffer2Offset} * sizeof(T) + rows * 32;
  detail::RequireInsideUb(tv, tv.ptr - tv.ub, scratch_bytes, api);
  const uint64_t written = total / rows * rows + UnPadV200Run<T>::TailWritten(total % rows);
  detail::RequireInsideUb(dv, dv.ptr - dv.ub, written * sizeof(T), api);
  T* scratch = reinterpret_cast<T*>(tmp.HostPtr());
  UnPadV200Run<T> run(t, total, scratch, dst.HostPtr());
  for (uint64_t j = 0; j < h; ++j) run.Row(src.HostPtr() + j * w, right);
  const uint64_t tmp1_rows = t.widthFractal > 1 ? t.widthTiling : t.widthFractalTail;
  transform_detail::RecordMove(api, loc, {{src.HostPtr(), h * w * sizeof(T)}},
                               {{dst.HostPtr(), written * sizeof(T)},
                                {scratch, std::min(tmp1_rows, rows) * 32},
                                {scratch + t.tmpBuffer2Offset, rows * 32}});
}

}  // namespace lngrad::aicore::pad_detail
