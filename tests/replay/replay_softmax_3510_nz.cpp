// lngrad_replay: the NZ update forms of the SoftMax family's 3510 register code, replayed from
// regbase/3510/softmax_flashv2_impl.h (SoftmaxFlashV2NZ[WithTail]UpdateImpl and their VF
// functions) and regbase/3510/softmax_impl.h (AdjustSoftMaxResBaseImpl, AdjustSoftMaxResNZImpl)
// at the kit's commit 82b89a15f, with the register model of replay_softmax_3510_regs.h. sfx5's
// reading (session 15), written before lngrad's 3510 code for these forms; a separate reading by
// the same helper who then changed lngrad (lngrad's 2201 forms were read first).
#include <cstring>
#include <type_traits>
#include <vector>

#include "replay_softmax_3510.h"
#include "replay_softmax_3510_regs.h"

namespace lngrad_replay::r3510 {

using namespace reg;  // NOLINT(build/namespaces): the register model

namespace {

// LoadE2B of the folded row values of the update code's workUb: with float statistics the
// fold stores row r at workUb[r] (E2B lane l: row 8i + l / 8, statistics lane l % 8); with half
// statistics it stores row r twice (DIST_INTLV_B32) at workUb[2r], so lane l: row 4i + l / 16.
template <class S>
V StatE2B(const std::vector<float>& rows, uint32_t i) {
  V r;
  for (uint32_t l = 0; l < kL; ++l) {
    const uint32_t row = kStat<S> == 8 ? 8 * i + l / 8 : 4 * i + l / 16;
    r.v[l] = row < rows.size() ? rows[row] : 0.0f;
  }
  return r;
}

// The statistics register i (64 lanes at i * 64) loaded (LoadIfNeedCast<S>: half widened);
// elements past `rows` rows read 0 (masked away).
template <class S>
V StatLoad(const S* p, uint32_t i, uint32_t rows) {
  return Load(p + uint64_t{i} * kL, int64_t{rows} * kStat<S> - int64_t{i} * kL);
}

// The row max or sum phase: per register i, the whole fractals lane by lane (Max from -inf / Add
// from 0), the tail fractal Select-ed under pregkTail (-inf / 0 elsewhere), then
// Reduce*WithDataBlock and the DINTLV fold (first half first). `at(i, j)` loads register i of
// fractal j.
template <class T, class At>
std::vector<float> RowPhase(const NzRegs<T>& z, bool isMax, At at) {
  std::vector<float> rows(z.MRepeats() * 4);
  const float none = isMax ? kNegInf : 0.0f;
  for (uint32_t i = 0; i < z.MRepeats(); ++i) {
    V acc = Splat(none);
    for (uint32_t j = 0; j < z.Whole(); ++j) {
      acc = isMax ? Max(acc, at(i, j), kFull) : Add(acc, at(i, j), kFull);
    }
    if (z.HasTail()) {
      const V t = Select(at(i, z.Whole()), Splat(none), z.TailMask());
      acc = isMax ? Max(acc, t, kFull) : Add(acc, t, kFull);
    }
    if (isMax) {
      Fold(ReduceBlocks(acc, kFull, true), i, rows, MaxOf);
    } else {
      Fold(ReduceBlocks(acc, kFull, false), i, rows, [](float a, float b) { return a + b; });
    }
  }
  return rows;
}

}  // namespace

template <class T, class S>
void SoftmaxFlashV2NzUpdate(uint32_t srcM, uint32_t srcK, uint32_t oriM, uint32_t oriK,
                            const NzFlashV2Io<T, S>& io) {
  const NzRegs<T> z{srcM, srcK, oriM, oriK, io.src};
  const uint32_t block = z.Block(), mRep = z.MRepeats();
  const int64_t end = int64_t{srcK / 16} * block;
  const uint32_t e2bRep = kStat<S> == 8 ? srcM / 8 : mRep;
  const std::vector<float> rmax =
      RowPhase(z, true, [&](uint32_t i, uint32_t j) { return z.Reg(i, j); });
  // The statistics: max = Max(inMax, rowmax) lane by lane, expMax = exp(inMax - max) (float, in
  // expMaxTensor itself for float data, else in scratch), and tmpUb: the new max spread over the
  // 16 columns of each row (float statistics: Interleave(v, v), column c lane c / 2).
  std::vector<float> tmp(uint64_t{e2bRep} * 2 * kL), em(uint64_t{e2bRep} * kL);
  uint32_t sreg = oriM * kStat<S>;
  for (uint32_t i = 0; i < e2bRep; ++i) {
    const P cnt = UpdateMask(sreg);
    const V in = StatLoad(io.inMax, i, srcM);
    const V mx = Max(in, StatE2B<S>(rmax, i), cnt);
    Store(io.max + uint64_t{i} * kL, mx, cnt, kL);
    for (uint32_t l = 0; l < kL; ++l) {
      if (kStat<S> == 8) {
        tmp[uint64_t{i} * 2 * kL + 2 * l] = tmp[uint64_t{i} * 2 * kL + 2 * l + 1] = mx.v[l];
      } else {
        tmp[uint64_t{i} * kL + l] = mx.v[l];
      }
    }
    const V e = ExpSub(in, mx, cnt);
    if constexpr (std::is_same_v<T, float>) {
      Store(io.expMax + uint64_t{i} * kL, e, cnt, kL);
    } else {
      Store(em.data() + uint64_t{i} * kL, e, cnt, kL);
    }
  }
  // dst = exp(x - max) on the first oriK columns of rows below oriM (half data: the float values
  // kept in expUb for the sum); the sum reads expUb (half) or dst (float) back.
  std::vector<float> expUb(static_cast<size_t>(end) + kL);
  const auto tmpReg = [&](uint32_t i) {
    V r;
    for (uint32_t l = 0; l < kL; ++l) {
      const uint64_t at = uint64_t{i} * kL + l;
      r.v[l] = at < tmp.size() ? tmp[at] : 0.0f;
    }
    return r;
  };
  for (uint32_t j = 0; j <= z.Whole(); ++j) {
    if (j == z.Whole() && !z.HasTail()) break;
    uint32_t rs = oriM * 16;
    for (uint32_t i = 0; i < mRep; ++i) {
      const P cnt = UpdateMask(rs) & (j == z.Whole() ? z.TailMask() : kFull);
      const int64_t at = int64_t{i} * kL + int64_t{j} * block;
      const V e = ExpSub(z.Reg(i, j), tmpReg(i), cnt);
      Store(io.dst + at, e, cnt, end - at);
      Store(expUb.data() + at, e, cnt, kL);
    }
  }
  const std::vector<float> rsum = RowPhase(z, false, [&](uint32_t i, uint32_t j) {
    const int64_t at = int64_t{i} * kL + int64_t{j} * block;
    if constexpr (std::is_same_v<T, float>) return Load(io.dst + at, end - at);
    return Load(expUb.data() + at, kL);
  });
  // expSum = rowsum + expMax * inExpSum (Mul, then Add); half expMax from the float one.
  sreg = oriM * kStat<S>;
  uint32_t sreg1 = oriM * (32 / sizeof(T));
  for (uint32_t i = 0; i < e2bRep; ++i) {
    const P cnt = UpdateMask(sreg);
    const V in = StatLoad(io.inExpSum, i, srcM);
    // expMaxF32Ub: expMaxTensor itself for float data (read back from memory), else scratch.
    V e;
    if constexpr (std::is_same_v<T, float>) {
      e = Load(io.expMax + uint64_t{i} * kL, kL);
    } else {
      e = Load(em.data() + uint64_t{i} * kL, kL);
    }
    const V s = Add(StatE2B<S>(rsum, i), Mul(e, in, cnt), cnt);
    Store(io.expSum + uint64_t{i} * kL, s, cnt, kL);
    if constexpr (std::is_same_v<T, Half> && std::is_same_v<S, float>) {
      // Cast (zeroing the unselected lanes), Pack, Interleave(v, v): half lane L from lane L / 2,
      // stored under UpdateMask<uint16_t>(sreg1) at expMax + 128 i.
      const uint32_t n = sreg1 < 2 * kL ? sreg1 : 2 * kL;
      sreg1 -= n;
      for (uint32_t q = 0; q < n; ++q) {
        const uint32_t l = q / 2;
        io.expMax[uint64_t{i} * 2 * kL + q] = FromFloat<Half>(On(cnt, l) ? e.v[l] : 0.0f);
      }
    } else if constexpr (std::is_same_v<T, Half>) {
      Store(io.expMax + uint64_t{i} * kL, e, cnt, kL);
    }
  }
}

template <class T, class S>
bool AdjustSoftMaxResNz(uint32_t srcM, uint32_t srcK, T* res, const S* max, uint32_t from, T to,
                        uint64_t resMem) {
  // stride: the T elements of one register (256 bytes); register i of every fractal (rows
  // i * stride / 16 on) takes the max of row i (DIST_BRC of maxUb + i * 32 bytes), all or none.
  const uint32_t stride = 256 / sizeof(T), block = srcM * 16;
  const uint32_t mRep = (block + stride - 1) / stride, kRep = srcK / 16;
  bool any = false;
  for (uint32_t i = 0; i < mRep; ++i) {
    S m = max[uint64_t{i} * kStat<S>];
    uint32_t bits = 0;
    std::memcpy(&bits, &m, sizeof(S));
    const bool hit = bits == (sizeof(S) == 2 ? (from & 0xFFFFu) : from);
    any = any || hit;
    for (uint32_t j = 0; j < kRep; ++j) {
      const uint64_t at = uint64_t{i} * stride + uint64_t{j} * block;
      for (uint32_t l = 0; l < stride && at + l < resMem; ++l) {  // Select, StoreAlign (full)
        if (hit) res[at + l] = to;
      }
    }
  }
  return any;
}

#define LNGRAD_R3510_NZ_INST(T, S)                                                   \
  template void SoftmaxFlashV2NzUpdate<T, S>(uint32_t, uint32_t, uint32_t, uint32_t, \
                                             const NzFlashV2Io<T, S>&);              \
  template bool AdjustSoftMaxResNz<T, S>(uint32_t, uint32_t, T*, const S*, uint32_t, T, uint64_t);
LNGRAD_R3510_NZ_INST(float, float)
LNGRAD_R3510_NZ_INST(Half, Half)
LNGRAD_R3510_NZ_INST(Half, float)
#undef LNGRAD_R3510_NZ_INST

}  // namespace lngrad_replay::r3510
