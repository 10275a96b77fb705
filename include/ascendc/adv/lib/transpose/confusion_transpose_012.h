// lngrad: the NZ 012 types of ConfusionTranspose / Transpose (TRANSPOSE_NZ2NZ_012_WITH_N,
// TRANSPOSE_NZ2ND_012_WITH_N, TRANSPOSE_NZ2ND_012_WITHOUT_N, TRANSPOSE_NZ2NZ_012_WITHOUT_N), on
// every product (arch 3510 runs the same sequence as arch 2201).
//
// Route: the device's step sequence, replayed step by step (confusion_transpose_base_2nz012.h,
// _base_2nd012.h, _base_impl.h): the scratch is two 16 x 16 cubes, tmp1 (elements [0, 256)) and
// tmp2 ([256, 512)). Per source fractal, one TransDataTo5HD pass (two for 4-byte T) turns the
// fractal into its transpose in tmp1; DataCopy steps move whole rows of tmp1 (16 elements,
// blockNum 32-byte blocks each) to tmp2 until tmp2 holds the 16 rows one destination fractal (or
// 16-row strip of the ND output) needs; one TransDataTo5HD pass (two for 4-byte T) writes tmp2
// to dst. The row counters (rows left in tmp1, rows tmp2 still needs, rows done per head and in
// all) follow the device's, including where they make a step copy stale rows: the padding
// columns/rows of the outputs get exactly what that sequence puts there.
//
// The steps are lngrad's own element maps of the two instructions, equal to them:
// - TransDataTo5HD, 16 source and 16 destination 32-byte blocks (repeatTimes 1): 2-byte T,
//   destination block j element t = source block t element j (lngrad_aicore's TransDataTo5HD,
//   transpose_ops.h); 4-byte T, destination block j element t = source block 8 (j % 2) + t
//   element j / 2 (the 16 x 8 -> 8 x 16 form; lngrad_aicore does not provide the 32-bit layout,
//   it is the one the device's TRANSPOSE_ND2ND_ONLY float pass needs to give its documented
//   transpose, which lngrad models). All 16 source blocks are read before any is written.
// - DataCopy UB -> UB, blockCount 1: blockLen 32-byte blocks copied in order.
// Every block is checked to lie inside its operand (src, dst, or the scratch) in both modes.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>

#include "kernel_tiling/kernel_tiling.h"
#include "lib/pad/transform_common.h"
#include "lngrad_aicore/transpose_ops.h"

namespace lngrad::aicore::transpose_detail::nz012 {

inline constexpr uint32_t kCube = 16;       // BLOCK_CUBE
inline constexpr uint32_t kFrac = 256;      // CUBE_MAX_SIZE
inline constexpr uint32_t kHalfFrac = 128;  // CUBE_HALF_SIZE

// One operand: elements [0, n) at p.
template <typename T>
struct Win {
  T* p;
  uint64_t n;
  const char* name;
};

template <typename T>
T* Block(const char* api, const Win<T>& w, int64_t off, uint64_t elems) {
  if (off < 0 || static_cast<uint64_t>(off) + elems > w.n) {
    RaiseKernelCheck(checks::kUbBounds,
                     std::string(api) + ": a step reaches elements [" + std::to_string(off) + ", " +
                         std::to_string(off + static_cast<int64_t>(elems)) + ") of " + w.name +
                         ", which holds " + std::to_string(w.n));
  }
  return w.p + off;
}

// TransDataTo5HD (repeatTimes 1) on element offsets.
template <typename T>
void Conv(const char* api, const Win<T>& dw, const int64_t* doff, const Win<T>& sw,
          const int64_t* soff) {
  constexpr uint32_t bs = 32 / sizeof(T);
  T in[16][bs];
  for (uint32_t k = 0; k < 16; ++k) std::memcpy(in[k], Block(api, sw, soff[k], bs), 32);
  for (uint32_t j = 0; j < 16; ++j) {
    T* d = Block(api, dw, doff[j], bs);
    for (uint32_t t = 0; t < bs; ++t) d[t] = sizeof(T) == 2 ? in[t][j] : in[8 * (j % 2) + t][j / 2];
  }
}

// The tiling fields the three sequences read (one struct, filled per type).
struct Fields {
  uint32_t bs, b, n, hn, h, hb, sb, hnb, block_num, gap;
  uint32_t src_batch, dst_batch, s_cube;  // s_cube: alignS * 16 (alignsBlockCube, alignsCube)
  uint32_t preh_blocks, align_hn, a_s_hn, a_hn_cube, a_hn_bs;  // WITH_N
  uint32_t align_h, a_h_cube, bs_align_h, align_s;  // WITHOUT_N (type 3 sets align_h/_s: unread)
};

// The sequence state (the device's counters).
struct State {
  uint32_t k = 0, j = 0, i = 0;
  uint32_t remain1 = 0, need = kCube, repeat = 0, tmp2_count = 0, tmp1_count = 0;
  uint32_t preh = 0, all = 0;
};

template <typename T>
class Seq {
 public:
  Seq(const char* api, Win<T> dst, Win<T> src, Win<T> tmp, const Fields& f)
      : api_(api), dst_(dst), src_(src), tmp_(tmp), f_(f) {}

  // src fractal (i, j) of batch k -> its transpose in tmp1.
  void Load(State& s) {
    int64_t d[16], sr[16];
    const int64_t base =
        int64_t{s.i} * f_.s_cube + int64_t{s.j} * kFrac + int64_t{s.k} * f_.src_batch;
    for (uint32_t m = 0; m < Passes(); ++m) {
      for (uint32_t n = 0; n < 16; ++n) {
        d[n] = sizeof(T) == 2 ? kCube * n : m * kHalfFrac + f_.bs * n;
        sr[n] = base + (sizeof(T) == 2 ? 0 : m * f_.bs) + kCube * n;
      }
      Conv(api_, tmp_, d, src_, sr);
    }
  }

  // DataCopy of `rows` rows: tmp2 row `to` <- tmp1 row `from`.
  void Copy(uint32_t to, uint32_t from, uint32_t rows) {
    const uint64_t elems = uint64_t{rows} * f_.block_num * f_.bs;
    T* d = Block(api_, tmp_, kFrac + int64_t{to} * kCube, elems);
    const T* sr = Block(api_, tmp_, int64_t{from} * kCube, elems);
    std::memmove(d, sr, elems * sizeof(T));
  }

  // tmp2 -> dst, the 16 destination blocks of pass m given by `at(m, n)`.
  template <typename At>
  void Store(At&& at) {
    int64_t d[16], sr[16];
    for (uint32_t m = 0; m < Passes(); ++m) {
      for (uint32_t n = 0; n < 16; ++n) {
        d[n] = at(m, n);
        sr[n] = kFrac + (sizeof(T) == 2 ? 0 : m * f_.bs) + kCube * n;
      }
      Conv(api_, dst_, d, tmp_, sr);
    }
  }

  const Fields& F() const { return f_; }

 private:
  static constexpr uint32_t Passes() { return sizeof(T) == 2 ? 1 : 2; }
  const char* api_;
  Win<T> dst_, src_, tmp_;
  Fields f_;
};

}  // namespace lngrad::aicore::transpose_detail::nz012

namespace lngrad::aicore::transpose_detail::nz012 {

// The tiling fields, by type: the params in order (param0 first), as GetTransposeTilingInfo sets
// them.
using FieldPtr = uint32_t Fields::*;
inline constexpr FieldPtr kParamsNzWithN[] = {
    &Fields::bs,        &Fields::b,        &Fields::n,   &Fields::hn,      &Fields::block_num,
    &Fields::h,         &Fields::hb,       &Fields::sb,  &Fields::align_h, &Fields::align_s,
    &Fields::hnb,       &Fields::align_hn, &Fields::gap, &Fields::s_cube,  &Fields::preh_blocks,
    &Fields::dst_batch, &Fields::src_batch};
inline constexpr FieldPtr kParamsNdWithN[] = {
    &Fields::bs,        &Fields::b,         &Fields::n,       &Fields::hn,
    &Fields::h,         &Fields::hb,        &Fields::sb,      &Fields::hnb,
    &Fields::align_hn,  &Fields::gap,       &Fields::s_cube,  &Fields::preh_blocks,
    &Fields::a_s_hn,    &Fields::a_hn_cube, &Fields::a_hn_bs, &Fields::dst_batch,
    &Fields::src_batch, &Fields::block_num};
inline constexpr FieldPtr kParamsWithoutN[] = {
    &Fields::bs,        &Fields::b,         &Fields::n,        &Fields::hn,
    &Fields::h,         &Fields::hb,        &Fields::sb,       &Fields::hnb,
    &Fields::align_h,   &Fields::s_cube,    &Fields::a_h_cube, &Fields::bs_align_h,
    &Fields::src_batch, &Fields::dst_batch, &Fields::block_num};

template <size_t N>
Fields FieldsFrom(const FieldPtr (&order)[N], const AscendC::tiling::ConfusionTransposeTiling& t) {
  Fields f{};
  const uint32_t* p = &t.param0;
  for (size_t i = 0; i < N; ++i) f.*order[i] = p[i];
  return f;
}

inline Fields FieldsOf(AscendC::TransposeType type,
                       const AscendC::tiling::ConfusionTransposeTiling& t) {
  if (type == AscendC::TransposeType::TRANSPOSE_NZ2NZ_012_WITH_N)
    return FieldsFrom(kParamsNzWithN, t);
  if (type == AscendC::TransposeType::TRANSPOSE_NZ2ND_012_WITH_N)
    return FieldsFrom(kParamsNdWithN, t);
  return FieldsFrom(kParamsWithoutN, t);
}

// Rows tmp2 needs next (the WITH_N types).
inline uint32_t NeedWithN(const Fields& f, uint32_t preh) {
  if (f.hn >= kCube) return preh == f.hn ? kCube : (f.hn - preh >= kCube ? kCube : f.hn - preh);
  return f.hn;
}

// tmp2 -> dst of the WITH_N types, then the counters. NZ: dst fractal (r, j) of the head-major
// NZ output; ND: rows j * 16.. of head r / hnb, columns (r % hnb) * 16.. (for H/N <= 16 the
// device's separate formula gives the same offsets: hnb = 1, alignHnDiv = 16).
template <typename T>
void FlushWithN(Seq<T>& q, State& s, bool nz) {
  const Fields& f = q.F();
  const int64_t r = static_cast<uint32_t>(s.repeat - s.j * f.preh_blocks);
  const int64_t batch = int64_t{s.k} * f.dst_batch;
  if (nz) {
    const int64_t base = r * f.s_cube + int64_t{s.j} * kFrac + batch;
    q.Store([&](uint32_t m, uint32_t n) {
      return base + (sizeof(T) == 2 ? kCube * n : m * kHalfFrac + f.bs * n);
    });
  } else {
    const int64_t base =
        (r / f.hnb) * f.a_s_hn + (r % f.hnb) * kCube + int64_t{s.j} * f.a_hn_cube + batch;
    q.Store([&](uint32_t m, uint32_t n) {
      if (sizeof(T) == 2) return base + int64_t{f.align_hn} * n;
      return base + int64_t{m} * f.a_hn_bs + int64_t{f.align_hn} * (n / 2) + (n % 2) * f.bs;
    });
  }
  s.repeat += 1;
  if (s.repeat % f.n == 0 && f.hn < kCube) {
    s.remain1 = 0;
  } else if (s.all % f.h == 0) {
    s.remain1 = 0;
  }
  s.tmp2_count = 0;
  if (!nz && s.preh == f.hn) s.preh = 0;
}

// TRANSPOSE_NZ2NZ_012_WITH_N (nz) and TRANSPOSE_NZ2ND_012_WITH_N: src [B, H/16, S/16, 16, 16].
template <typename T>
void WithN(Seq<T>& q, bool nz) {
  const Fields& f = q.F();
  State s;
  for (s.k = 0; s.k < f.b; ++s.k) {
    s.repeat = 0;
    for (s.j = 0; s.j < f.sb; ++s.j) {
      for (s.i = 0; s.i < f.hb; ++s.i) {
        if (s.remain1 == 0) {
          q.Load(s);
          s.remain1 = kCube;
        }
        if (s.i * kCube <= f.hn && (s.i + 1) * kCube > f.hn) s.need = kCube - f.gap;
        if (s.need <= s.remain1 && s.need != 0) {
          q.Copy(s.tmp2_count, 0, s.need);
          s.preh += s.need;
          s.all += s.need;
          s.tmp2_count += s.need;
          s.remain1 -= s.need;
          s.need = 0;
          if (nz && s.preh == f.hn) s.preh = 0;
        }
        if (s.need == 0) FlushWithN(q, s, nz);
        s.need = NeedWithN(f, s.preh);
        while (s.remain1 != 0) {
          if (s.need != 0) {
            const uint32_t rows = s.need <= s.remain1 ? s.need : s.remain1;
            q.Copy(0, kCube - s.remain1, rows);
            s.preh += rows;
            s.all += rows;
            s.tmp2_count = rows;
            s.remain1 -= rows;
            s.need -= rows;
            if (nz && s.preh == f.hn) s.preh = 0;
          }
          if (s.need == 0) {
            FlushWithN(q, s, nz);
            s.need = NeedWithN(f, s.preh);
          }
        }
      }
    }
  }
}

// tmp2 -> dst of the WITHOUT_N types, then the counters. ND: rows j * 16.. of [S, alignH],
// columns repeat * 16..; NZ: fractal (repeat, j) of the [alignH / 16, alignS / 16] NZ output.
template <typename T>
void FlushWithoutN(Seq<T>& q, State& s, bool nz) {
  const Fields& f = q.F();
  const int64_t batch = int64_t{s.k} * f.dst_batch;
  if (nz) {
    const int64_t base = int64_t{s.repeat} * f.s_cube + int64_t{s.j} * kFrac + batch;
    q.Store([&](uint32_t m, uint32_t n) {
      return base + (sizeof(T) == 2 ? kCube * n : m * kHalfFrac + f.bs * n);
    });
  } else {
    const int64_t base = int64_t{s.repeat} * kCube + int64_t{s.j} * f.a_h_cube + batch;
    q.Store([&](uint32_t m, uint32_t n) {
      if (sizeof(T) == 2) return base + int64_t{f.align_h} * n;
      return base + int64_t{m} * f.bs_align_h + int64_t{f.align_h} * (n / 2) + (n % 2) * f.bs;
    });
  }
  s.tmp2_count = 0;
  s.repeat += 1;
  if (s.all == f.h) {
    s.remain1 = 0;
    s.all = 0;
  }
  s.need = s.repeat + 1 != f.hb ? kCube : f.h - s.repeat * kCube;
}

// The rows of a fresh tmp1 the WITHOUT_N types take (the rest of the head's columns).
inline uint32_t LoadedRows(const Fields& f, uint32_t preh) {
  if (f.hn > kCube) return preh < f.hn && preh + kCube > f.hn ? f.hn - preh : kCube;
  return f.hn;
}

// tmp1 -> tmp2, `rows` rows from tmp1 row `from`; `add`: tmp2Count grows (else it is set).
inline void Take(State& s, uint32_t rows, bool add) {
  s.all += rows;
  s.preh += rows;
  s.tmp2_count = add ? s.tmp2_count + rows : rows;
  s.remain1 -= rows;
  s.need -= rows;
}

// TRANSPOSE_NZ2ND_012_WITHOUT_N and TRANSPOSE_NZ2NZ_012_WITHOUT_N (nz): src
// [B, N, H/N/16, S/16, 16, 16].
template <typename T>
void WithoutN(Seq<T>& q, bool nz) {
  const Fields& f = q.F();
  State s;
  for (s.k = 0; s.k < f.b; ++s.k) {
    for (s.j = 0; s.j < f.sb; ++s.j) {
      s.repeat = 0;
      for (s.i = 0; s.i < f.hnb * f.n; ++s.i) {
        s.tmp1_count = 0;
        if (s.remain1 == 0) {
          q.Load(s);
          s.remain1 = LoadedRows(f, s.preh);
        }
        if (s.preh == f.hn) s.preh = 0;
        const uint32_t first = s.need <= s.remain1 ? s.need : s.remain1;
        if (first != 0) {
          q.Copy(s.tmp2_count, 0, first);
          s.tmp1_count += first;
          Take(s, first, true);
        }
        if (s.need == 0) FlushWithoutN(q, s, nz);
        while (s.remain1 != 0) {
          if (s.need != 0) {
            const bool whole = s.remain1 >= s.need;
            const uint32_t rows = whole ? s.need : s.remain1;
            q.Copy(s.tmp2_count, s.tmp1_count, rows);
            Take(s, rows, whole);
          }
          if (s.need == 0) FlushWithoutN(q, s, nz);
        }
      }
    }
  }
}

}  // namespace lngrad::aicore::transpose_detail::nz012
