// lngrad: the Ascend C high-level APIs ConfusionTranspose and Transpose (the vendor's
// adv_api/transpose/confusion_transpose.h), with the TransposeType of the call and the
// ConfusionTransposeTiling of GetTransposeTilingInfo.
//
// Modelled types (the element moves of confusion_transpose_base_0213.h / _v220_impl.h and
// confusion_transpose_3510_impl.h; exact, every moved element is a copy):
// - TRANSPOSE_NZ2ND_0213 / TRANSPOSE_NZ2NZ_0213 (2- and 4-byte T, all products): src holds, per
//   batch k < B and a1 < A1, the NZ matrix of alignA2 rows and alignA3 columns (column blocks of
//   16, each alignA2 rows of 16 elements). Element (r, 16 * j + c) moves to dst offset
//   k * batchOffset + r * A1 * alignA3 + a1 * alignA3 + 16 * j + c (NZ2ND) or
//   k * batchOffset + r * A1 * alignA3 + (j * A1 + a1) * 16 + c (NZ2NZ): the two TransDataTo5HD
//   passes of the device. Every one of the alignA2 rows and alignA3 columns moves, padding too.
// - TRANSPOSE_ND2ND_ONLY, {H, W} -> {W, H} (H a multiple of 16, W of 32 / sizeof(T)).
// - TRANSPOSE_ND2ND_021 / _102 / _210 (arch 3510 only), compact {d0, d1, d2} -> {d0, d2, d1},
//   {d1, d0, d2}, {d2, d1, d0}, through the register code's paths (RunNd3): for 1- and 2-byte
//   T its 16-bit gather indices wrap past 65535, and then the element read is the wrapped one
//   (1-byte T only, in practice: 2-byte sources that fit the UB with dst keep them below).
// - The NZ 012 types (3 to 6, 2- and 4-byte T, all products): the device's step sequence,
//   replayed (lib/transpose/confusion_transpose_012.h says how and what the padding gets).
// - TRANSPOSE_ND2NZ_WITH_INTLV (arch 3510, int8_t / uint8_t): {H, W} ND -> row pairs
//   interleaved in 16-column blocks (RunIntlv says the map).
// Other T with these types are refused in both modes (check transform_params).
// Checked mode also refuses what the Transpose page does not list (RequireListed): products
// other than the 950, A2/A3 and inference AI Core, and T outside the page's list for the
// scene (bfloat16_t for scenes 1 to 7, for one; those take 2- and 4-byte T only).
//
// The 0213 types' scratch (every product: the kit runs the same passes on 2002, 2201 and 3510):
// what the device's last passes leave in its first newPopSize elements (Stage0213), the rest
// untouched (tests/replay/transform_scratch_replay_test.cpp).
//
// Checked mode: the scratch holds newPopSize elements (param6) for the 0213 types and their
// passes' repeat counts (newPopSize / 256, tailSize / 256) fit a uint8_t, 512 elements
// for the NZ 012 types, the 3510-only
// types run on arch 3510, ND2ND_ONLY's alignment; operand sizes are checked in both modes.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <type_traits>

#include "kernel_tiling/kernel_tiling.h"
#include "lib/math/math_common.h"
#include "lib/pad/transform_common.h"
#include "lib/transpose/confusion_transpose_012.h"
#include "lngrad_aicore/transpose_ops.h"

namespace lngrad::aicore::transpose_detail {

namespace td = lngrad::aicore::transform_detail;
using AscendC::TransposeType;

struct Dims3 {
  uint64_t d0, d1, d2;
};

// dst = src permuted: out index (a, b, c) over the dims `out` names of src's (i0, i1, i2).
template <typename T, typename Map>
void Permute3(T* dst, const T* src, Dims3 s, Map&& to_dst) {
  for (uint64_t i = 0; i < s.d0; ++i) {
    for (uint64_t j = 0; j < s.d1; ++j) {
      for (uint64_t k = 0; k < s.d2; ++k) dst[to_dst(i, j, k)] = src[(i * s.d1 + j) * s.d2 + k];
    }
  }
}

// The scratch of the 0213 sequence (confusion_transpose_base_0213.h, the same code on 2002, 2201
// and 3510): newPopSize (param6) elements of T, [16][newPopH] (param7). Each pass moves
// newPopH rows (a main block) or tailSize / 16 rows (the tail, param10) of a 16-column block
// there transposed, element (row q, column c) of the pass to scratch element c * newPopH + q,
// and the loops end with column block widthTiling - 1 (param5) of matrix (B - 1, A1 - 1): its
// last main block (mainBlocks, param9, of them), then its tail over the first tailSize / 16
// columns of each scratch row. Bytes past newPopSize elements, and with no main block those
// past the tail's rows, are left alone.
template <typename T>
void Stage0213(const T* in, const AscendC::LocalTensor<uint8_t>& tmp,
               const AscendC::tiling::ConfusionTransposeTiling& t, const char* api, SrcLoc loc) {
  const uint64_t pop_h = t.param7, need = t.param8, mains = t.param9, tail_rows = t.param10 / 16;
  if (t.param1 == 0 || t.param2 == 0 || t.param5 == 0 || tmp.HostPtr() == nullptr) return;
  if (mains == 0 && tail_rows == 0) return;
  const uint64_t last = 15 * pop_h + (mains != 0 ? pop_h : tail_rows);
  const detail::TensorView tv = tmp.View();
  detail::RequireInsideUb(tv, tv.ptr - tv.ub, last * sizeof(T), api);
  T* scr = reinterpret_cast<T*>(tmp.HostPtr());
  const T* col = in + (uint64_t{t.param1} - 1) * t.param12 + (uint64_t{t.param2} - 1) * t.param11 +
                 (uint64_t{t.param5} - 1) * need;
  const auto stage = [&](uint64_t first_row, uint64_t rows) {
    for (uint64_t c = 0; c < 16; ++c) {
      for (uint64_t q = 0; q < rows; ++q) scr[c * pop_h + q] = col[(first_row + q) * 16 + c];
    }
    td::RecordMove(api, loc, {}, {{scr, rows * sizeof(T), 16, pop_h * sizeof(T)}});
  };
  if (mains != 0) stage((mains - 1) * pop_h, pop_h);
  if (tail_rows != 0) stage(mains * pop_h, tail_rows);
}

template <typename T>
void Run0213(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
             const AscendC::LocalTensor<uint8_t>& tmp, bool to_nd,
             const AscendC::tiling::ConfusionTransposeTiling& t, const char* api, SrcLoc loc) {
  static_assert(sizeof(T) == 2 || sizeof(T) == 4, "the 0213 types take 2- and 4-byte T");
  const uint64_t b = t.param1, a1 = t.param2, align_a3 = t.param3, align_a2 = t.param4;
  const uint64_t batch = t.param12, n = b * a1 * align_a2 * align_a3;
  // The kit's TransDataTo5HDParams::repeatTimes is a uint8_t: newPopSize / 256 (the main
  // passes, when mainBlocks > 0) or tailSize / 256 (the tail's) past 255 would wrap there. No
  // tiling of operands that fit the UB gets there (either needs A2 of 4096 rows or more, so src
  // and dst of 65536 elements each besides the scratch); checked mode refuses a tiling that does.
  const uint64_t main_rep = t.param9 != 0 ? t.param6 / 256 : 0, tail_rep = t.param10 / 256;
  td::Require(main_rep <= 255 && tail_rep <= 255, api,
              "a 0213 pass would take " + std::to_string(std::max(main_rep, tail_rep)) +
                  " repeats (newPopSize or tailSize, tiling param6 / param10, over 256), past "
                  "the 255 that TransDataTo5HD's uint8_t repeatTimes holds (the device would "
                  "wrap it)");
  td::Require(t.param6 != 0 && tmp.View().size_bytes >= uint64_t{t.param6} * sizeof(T), api,
              "the scratch holds " + std::to_string(tmp.View().size_bytes) +
                  " bytes, less than newPopSize (tiling param6) elements");
  td::Require(batch == a1 * align_a2 * align_a3, api,
              "tiling param12 is not A1 * alignA2 * alignA3 (not a 0213 tiling)");
  td::RequireElems(src, n, api, "srcTensor");
  td::RequireElems(dst, n, api, "dstTensor");
  td::RecordMove(api, loc, {{src.HostPtr(), n * sizeof(T)}}, {{dst.HostPtr(), n * sizeof(T)}});
  const T* in = src.HostPtr();
  Stage0213(in, tmp, t, api, loc);
  T* out = dst.HostPtr();
  const uint64_t blocks = align_a3 / 16, row = a1 * align_a3;
  for (uint64_t k = 0; k < b; ++k) {
    for (uint64_t i = 0; i < a1; ++i) {
      for (uint64_t j = 0; j < blocks; ++j) {
        const T* blk = in + k * batch + i * align_a2 * align_a3 + j * align_a2 * 16;
        const uint64_t col = to_nd ? i * align_a3 + j * 16 : (j * a1 + i) * 16;
        for (uint64_t r = 0; r < align_a2; ++r) {
          T* o = out + k * batch + r * row + col;
          for (uint64_t c = 0; c < 16; ++c) o[c] = blk[r * 16 + c];
        }
      }
    }
  }
}

template <typename T>
void RunNdOnly(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
               const AscendC::tiling::ConfusionTransposeTiling& t, const char* api, SrcLoc loc) {
  const uint64_t h = t.param1, w = t.param2;
  td::Require(h % 16 == 0 && w * sizeof(T) % 32 == 0, api,
              "ND2ND_ONLY needs H a multiple of 16 and W * sizeof(T) a multiple of 32");
  td::RequireElems(src, h * w, api, "srcTensor");
  td::RequireElems(dst, h * w, api, "dstTensor");
  td::RecordMove(api, loc, {{src.HostPtr(), h * w * sizeof(T)}},
                 {{dst.HostPtr(), h * w * sizeof(T)}});
  Permute3(dst.HostPtr(), src.HostPtr(), {1, h, w},
           [&](uint64_t, uint64_t r, uint64_t c) { return c * h + r; });
}

// The loops of the 950's gather functions (confusion_transpose_3510_impl.h): dst rows of l2
// elements for i < l0, j < l1; src element (i, j, m) at i * s0 + j * s1 + m * s2.
struct Walk {
  uint64_t l0, l1, l2, s0, s1, s2;
};

// A gather index lane: 16 bits for 1- and 2-byte T (the kit's index type uint16_t), 32 bits for
// 4-byte T.
template <typename T>
uint64_t IndexLane(uint64_t v) {
  return sizeof(T) == 4 ? v & 0xFFFFFFFFu : v & 0xFFFFu;
}

// ConfusionTransposeCommonGather (and its B8 form): per register of vl elements of a dst row, the
// index lane q * s2 from the register's base; B8 gathers the second half from base + 128 * s2.
template <typename T>
void CommonGatherMap(T* out, const T* in, const Walk& w) {
  constexpr uint64_t vl = 256 / sizeof(T), half = sizeof(T) == 1 ? vl / 2 : vl;
  for (uint64_t i = 0; i < w.l0; ++i) {
    for (uint64_t j = 0; j < w.l1; ++j) {
      for (uint64_t m = 0; m < w.l2; ++m) {
        const uint64_t q = m % vl, h = q < half ? 0 : half;
        const uint64_t from =
            i * w.s0 + j * w.s1 + (m - q + h) * w.s2 + IndexLane<T>((q - h) * w.s2);
        out[(i * w.l1 + j) * w.l2 + m] = in[from];
      }
    }
  }
}

// ConfusionTransposeComplexGather (and its B8 form): factor = vl / l2 dst rows per register, the
// index lane k = (k / l2) * s1 + (k % l2) * s2 from the register's base.
template <typename T>
void ComplexGatherMap(T* out, const T* in, const Walk& w) {
  constexpr uint64_t vl = 256 / sizeof(T);
  const uint64_t factor = vl / w.l2, main = factor * w.l2;
  for (uint64_t i = 0; i < w.l0; ++i) {
    for (uint64_t p = 0; p < w.l1 * w.l2; ++p) {
      const uint64_t j = p / main, k = p % main;
      const uint64_t from =
          i * w.s0 + j * factor * w.s1 + IndexLane<T>((k / w.l2) * w.s1 + (k % w.l2) * w.s2);
      out[i * w.l1 * w.l2 + p] = in[from];
    }
  }
}

// TRANSPOSE_ND2ND_021 / _102 / _210 (arch 3510): the paths of ConfusionTranspose021 / 102 / 210.
// A dim of 1 copies (210 goes through 021); 102 with d2 above half a register copies rows;
// otherwise the common gather when the gathered dim is above half a register (vl = 256 /
// sizeof(T) elements), else the complex gather. For 4-byte T these give the permutation; for
// 1- and 2-byte T an index lane past 65535 wraps, and the element read is the wrapped one.
template <typename T>
void RunNd3(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
            TransposeType type, const AscendC::tiling::ConfusionTransposeTiling& t, const char* api,
            SrcLoc loc) {
  td::Require(detail::rep::RunningArch() == NpuArch::k3510, api,
              "TRANSPOSE_ND2ND_021/102/210 exist on arch 3510 only");
  const Dims3 s{t.param0, t.param1, t.param2};
  const uint64_t n = s.d0 * s.d1 * s.d2, half = 128 / sizeof(T);
  td::RequireElems(src, n, api, "srcTensor");
  td::RequireElems(dst, n, api, "dstTensor");
  td::RecordMove(api, loc, {{src.HostPtr(), n * sizeof(T)}}, {{dst.HostPtr(), n * sizeof(T)}});
  T* out = dst.HostPtr();
  const T* in = src.HostPtr();
  const bool unit = s.d0 == 1 || s.d1 == 1 || s.d2 == 1;
  if (type == TransposeType::TRANSPOSE_ND2ND_021 && !(s.d1 == 1 || s.d2 == 1)) {
    const Walk w{s.d0, s.d2, s.d1, s.d1 * s.d2, 1, s.d2};
    return s.d1 > half ? CommonGatherMap(out, in, w) : ComplexGatherMap(out, in, w);
  }
  if (type == TransposeType::TRANSPOSE_ND2ND_102 && !(s.d0 == 1 || s.d1 == 1) && s.d2 <= half) {
    return ComplexGatherMap(out, in, {s.d1, s.d0, s.d2, s.d2, s.d1 * s.d2, 1});
  }
  if (type == TransposeType::TRANSPOSE_ND2ND_210 && !unit) {
    const Walk w{s.d2, s.d1, s.d0, 1, s.d2, s.d1 * s.d2};
    return s.d0 > half ? CommonGatherMap(out, in, w) : ComplexGatherMap(out, in, w);
  }
  if (type == TransposeType::TRANSPOSE_ND2ND_210) {  // a dim of 1: 021 of {1, a, b}
    const uint64_t a = s.d1 == 1 || s.d2 == 1 ? s.d0 : s.d1, b = s.d2 == 1 ? s.d1 : s.d2;
    if (a == 1 || b == 1)
      return Permute3(out, in, {1, 1, n}, [](uint64_t, uint64_t, uint64_t k) { return k; });
    const Walk w{1, b, a, a * b, 1, b};
    return a > half ? CommonGatherMap(out, in, w) : ComplexGatherMap(out, in, w);
  }
  // The copies: 021 and 102 with a dim of 1 (src order is dst order), 102's row copies.
  if (type == TransposeType::TRANSPOSE_ND2ND_021) {
    Permute3(out, in, s,
             [&](uint64_t i, uint64_t j, uint64_t k) { return (i * s.d2 + k) * s.d1 + j; });
  } else {
    Permute3(out, in, s,
             [&](uint64_t i, uint64_t j, uint64_t k) { return (j * s.d0 + i) * s.d2 + k; });
  }
}

// TRANSPOSE_ND2NZ_WITH_INTLV (arch 3510, 1-byte T): the device's vector function
// (confusion_transpose_3510_impl.h) loads rows 2p and 2p + 1 (256 columns per step, the tail
// masked to 2 * tail lanes), interleaves them and stores each 32-byte block (16 columns of the
// pair) blockStride H / 2 blocks apart; the stored lanes are exactly the row pair's columns below
// W, so the map is: row r < 2 (H / 2), column c < W -> dst (c / 16) * (H / 2) * 32 +
// (r / 2) * 32 + (c % 16) * 2 + r % 2. An odd H's last row is not read. W a multiple of 32
// (each row loaded 32-byte aligned).
template <typename T>
void RunIntlv(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
              const AscendC::tiling::ConfusionTransposeTiling& t, const char* api, SrcLoc loc) {
  td::Require(detail::rep::RunningArch() == NpuArch::k3510, api,
              "TRANSPOSE_ND2NZ_WITH_INTLV exists on arch 3510 only");
  const uint64_t h = t.param1, w = t.param2, pairs = h / 2;
  td::Require(w % 32 == 0, api, "ND2NZ_WITH_INTLV needs W (tiling param2) a multiple of 32");
  const uint64_t n_dst = (w + 15) / 16 * pairs * 32;
  td::RequireElems(src, h * w, api, "srcTensor");
  td::RequireElems(dst, n_dst, api, "dstTensor");
  td::RecordMove(api, loc, {{src.HostPtr(), 2 * pairs * w}}, {{dst.HostPtr(), n_dst}});
  const T* in = src.HostPtr();
  T* out = dst.HostPtr();
  for (uint64_t r = 0; r < 2 * pairs; ++r) {
    for (uint64_t c = 0; c < w; ++c) {
      out[(c / 16) * pairs * 32 + (r / 2) * 32 + (c % 16) * 2 + r % 2] = in[r * w + c];
    }
  }
}

template <typename T>
nz012::Win<T> WinOf(const AscendC::LocalTensor<T>& t, const char* name) {
  return {t.HostPtr(), t.View().size_bytes / sizeof(T), name};
}

template <typename T>
void Run012(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
            const AscendC::LocalTensor<uint8_t>& tmp, TransposeType type,
            const AscendC::tiling::ConfusionTransposeTiling& t, const char* api, SrcLoc loc) {
  static_assert(sizeof(T) == 2 || sizeof(T) == 4, "the NZ 012 types take 2- and 4-byte T");
  const nz012::Fields f = nz012::FieldsOf(type, t);
  const uint64_t tmp_bytes = 2 * nz012::kFrac * sizeof(T);
  td::Require(tmp.View().size_bytes >= tmp_bytes, api,
              "the scratch holds " + std::to_string(tmp.View().size_bytes) +
                  " bytes, less than the " + std::to_string(tmp_bytes) +
                  " (two 16 x 16 cubes) the NZ 012 types need");
  if (f.n == 0 || f.hn == 0 || f.bs != 32 / sizeof(T) || f.block_num * f.bs != nz012::kCube) {
    RaiseKernelCheck(checks::kTransformParams,
                     std::string(api) + ": not an NZ 012 tiling of this T (N or H/N zero, or " +
                         "blockSize / blockNum not 32 / sizeof(T) / 16 / blockSize)");
  }
  const uint64_t n_src = uint64_t{f.b} * f.src_batch, n_dst = uint64_t{f.b} * f.dst_batch;
  td::RequireElems(src, n_src, api, "srcTensor");
  td::RequireElems(dst, n_dst, api, "dstTensor");
  td::RecordMove(api, loc, {{src.HostPtr(), n_src * sizeof(T)}},
                 {{dst.HostPtr(), n_dst * sizeof(T)},
                  {tmp.HostPtr(), std::min<uint64_t>(tmp_bytes, tmp.View().size_bytes)}});
  AscendC::LocalTensor<T> tmp_t = tmp.template ReinterpretCast<T>();
  nz012::Seq<T> q(api, WinOf(dst, "dstTensor"), WinOf(src, "srcTensor"),
                  WinOf(tmp_t, "sharedTmpBuffer"), f);
  if (type == TransposeType::TRANSPOSE_NZ2NZ_012_WITH_N ||
      type == TransposeType::TRANSPOSE_NZ2ND_012_WITH_N) {
    nz012::WithN(q, type == TransposeType::TRANSPOSE_NZ2NZ_012_WITH_N);
  } else {
    nz012::WithoutN(q, type == TransposeType::TRANSPOSE_NZ2NZ_012_WITHOUT_N);
  }
}

template <typename T, typename... Ts>
inline constexpr bool kOneOf = (std::is_same_v<T, Ts> || ...);

// The page's rules (Transpose: 产品支持情况 and the T row): Ascend 950, Atlas A2/A3 and Atlas
// inference AI Core (arch 3510, 2201, 2002); T by scene: 1 to 7 (the NZ 0213 and 012 types,
// ND2ND_ONLY) int16_t, uint16_t, half, int32_t, uint32_t, float; 13 to 15 (ND2ND_021/102/210)
// those, int8_t, uint8_t and bfloat16_t; 16 (ND2NZ_WITH_INTLV) int8_t, uint8_t. Checked mode.
template <typename T>
void RequireListed(TransposeType type, const char* api) {
  if (!CheckedMode()) return;
  const NpuArch arch = detail::rep::RunningArch();
  td::Require(arch == NpuArch::k3510 || arch == NpuArch::k2201 || arch == NpuArch::k2002, api,
              "exists on Ascend 950, Atlas A2/A3 and Atlas inference AI Core (arch 3510, 2201, "
              "2002); this block runs arch " +
                  std::to_string(static_cast<uint32_t>(arch)));
  constexpr bool kWide = kOneOf<T, int16_t, uint16_t, half, int32_t, uint32_t, float>;
  constexpr bool kByte = kOneOf<T, int8_t, uint8_t>;
  bool listed = kWide;
  const char* rule =
      "takes int16_t, uint16_t, half, int32_t, uint32_t or float (the page's T for scenes 1 to 7)";
  if (type == TransposeType::TRANSPOSE_ND2ND_021 || type == TransposeType::TRANSPOSE_ND2ND_102 ||
      type == TransposeType::TRANSPOSE_ND2ND_210) {
    listed = kWide || kByte || std::is_same_v<T, bfloat16_t>;
    rule =
        "takes int8_t, uint8_t, int16_t, uint16_t, half, bfloat16_t, int32_t, uint32_t or float "
        "(the page's T for scenes 13 to 15)";
  } else if (type == TransposeType::TRANSPOSE_ND2NZ_WITH_INTLV) {
    listed = kByte;
    rule = "takes int8_t or uint8_t (the page's T for scene 16)";
  }
  td::Require(listed, api,
              "TransposeType " + std::to_string(static_cast<uint32_t>(type)) + " " + rule +
                  "; this T is " + std::to_string(sizeof(T)) + "-byte and not among them");
}

template <typename T>
void Run(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
         const AscendC::LocalTensor<uint8_t>& tmp, TransposeType type,
         const AscendC::tiling::ConfusionTransposeTiling& t, const char* api, SrcLoc loc) {
  RequireListed<T>(type, api);
  switch (type) {
    case TransposeType::TRANSPOSE_NZ2ND_0213:
    case TransposeType::TRANSPOSE_NZ2NZ_0213:
      if constexpr (sizeof(T) == 2 || sizeof(T) == 4) {
        Run0213(dst, src, tmp, type == TransposeType::TRANSPOSE_NZ2ND_0213, t, api, loc);
        return;
      }
      break;
    case TransposeType::TRANSPOSE_NZ2NZ_012_WITH_N:
    case TransposeType::TRANSPOSE_NZ2ND_012_WITH_N:
    case TransposeType::TRANSPOSE_NZ2ND_012_WITHOUT_N:
    case TransposeType::TRANSPOSE_NZ2NZ_012_WITHOUT_N:
      if constexpr (sizeof(T) == 2 || sizeof(T) == 4) {
        Run012(dst, src, tmp, type, t, api, loc);
        return;
      }
      break;
    case TransposeType::TRANSPOSE_ND2NZ_WITH_INTLV:
      if constexpr (sizeof(T) == 1) {
        RunIntlv(dst, src, t, api, loc);
        return;
      }
      break;
    case TransposeType::TRANSPOSE_ND2ND_ONLY:
      RunNdOnly(dst, src, t, api, loc);
      return;
    case TransposeType::TRANSPOSE_ND2ND_021:
    case TransposeType::TRANSPOSE_ND2ND_102:
    case TransposeType::TRANSPOSE_ND2ND_210:
      RunNd3(dst, src, type, t, api, loc);
      return;
    default:
      break;
  }
  RaiseKernelCheck(checks::kTransformParams,
                   std::string(api) + ": TransposeType " +
                       std::to_string(static_cast<uint32_t>(type)) +
                       " with this T is not one lngrad models (see lib/transpose)");
}

}  // namespace lngrad::aicore::transpose_detail

namespace AscendC {

template <typename T>
void ConfusionTranspose(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
                        const LocalTensor<uint8_t>& sharedTmpBuffer, TransposeType transposeType,
                        ConfusionTransposeTiling& tiling,
                        lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  lngrad::aicore::transpose_detail::Run(dstTensor, srcTensor, sharedTmpBuffer, transposeType,
                                        tiling, "ConfusionTranspose", loc);
}

template <typename T>
void ConfusionTranspose(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
                        TransposeType transposeType, ConfusionTransposeTiling& tiling,
                        lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  lngrad::aicore::transpose_detail::Run(dstTensor, srcTensor,
                                        lngrad::aicore::math_detail::StackTmp(), transposeType,
                                        tiling, "ConfusionTranspose", loc);
}

template <typename T>
void Transpose(const LocalTensor<T>& dst, const LocalTensor<T>& src,
               const LocalTensor<uint8_t>& sharedTmpBuffer, TransposeType transposeType,
               ConfusionTransposeTiling& tiling,
               lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  lngrad::aicore::transpose_detail::Run(dst, src, sharedTmpBuffer, transposeType, tiling,
                                        "Transpose", loc);
}

template <typename T>
void Transpose(const LocalTensor<T>& dst, const LocalTensor<T>& src, TransposeType transposeType,
               ConfusionTransposeTiling& tiling,
               lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  lngrad::aicore::transpose_detail::Run(dst, src, lngrad::aicore::math_detail::StackTmp(),
                                        transposeType, tiling, "Transpose", loc);
}

}  // namespace AscendC
