// SoftMax isBasicBlock with statistics and SimpleSoftMax half on 2201
// (replay_softmax_basic_scratch.h): each instruction of the kit's split loop over a float image
// of the work buffer and the tensors, repeat by repeat (a repeat reads its operands, then writes).
#include "replay_softmax_basic_scratch.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <type_traits>

namespace lngrad_replay {
namespace {

constexpr uint64_t kRep = 64;  // floats per repeat
constexpr uint64_t kBlk = 8;   // floats per 32-byte block

float Exp1(float x) { return static_cast<float>(std::exp(static_cast<double>(x))); }
float MaxOf(float a, float b) { return a > b ? a : b; }
float AddOf(float a, float b) { return a + b; }

template <class T>
float Wide(T v) {
  if constexpr (std::is_same_v<T, Half>) {
    return HalfToFloat(v);
  } else {
    return v;
  }
}
template <class T>
T Narrow(float v) {
  if constexpr (std::is_same_v<T, Half>) {
    return FloatToHalfRoundAway(v);  // 2201's FLOAT2HALF_ROUND_MODE
  } else {
    return v;
  }
}

// One block of BlockReduceMax (the first NaN lane, else the first lane holding the maximum) or
// BlockReduceSum (adjacent pairs, then their pairs).
float BlockOf(const float* v, bool isMax) {
  if (!isMax) {
    const float a = v[0] + v[1], b = v[2] + v[3], c = v[4] + v[5], d = v[6] + v[7];
    return (a + b) + (c + d);
  }
  float best = v[0];
  for (uint64_t j = 1; j < kBlk && best == best; ++j) {
    if (v[j] != v[j] || v[j] > best) best = v[j];
  }
  return best;
}

// BlockReduce{Max,Sum}(dst, src, repeat, full mask, dstRepStride 1, 1, srcRepStride 8 blocks):
// repeat r reads the 64 floats at src + 64 r, then writes its 8 results at dst + 8 r.
void BlockReduce(float* dst, const float* src, uint64_t repeat, bool isMax) {
  for (uint64_t r = 0; r < repeat; ++r) {
    float in[kRep], out[kBlk];
    std::memcpy(in, src + r * kRep, sizeof in);
    for (uint64_t b = 0; b < kBlk; ++b) out[b] = BlockOf(in + b * kBlk, isMax);
    std::memcpy(dst + r * kBlk, out, sizeof out);
  }
}

// The row reduction of SoftMaxBasicBlock: splitBlock 1 one BlockReduce from x; otherwise
// BasicBlock{Max,Add}Impl into t1 (64 lanes a row) and the in-place BlockReduce; then the second
// BlockReduce over ceil(splitM / 8) groups into r.
void BasicReduce(const float* x, float* t1, float* r, uint64_t m, uint64_t k, uint64_t ceilM,
                 bool isMax) {
  const uint64_t blocks = k / kRep;
  const auto op = isMax ? MaxOf : AddOf;
  if (blocks == 1) {
    BlockReduce(t1, x, m, isMax);
  } else {
    for (uint64_t j = 0; j < m; ++j) {
      for (uint64_t l = 0; l < kRep; ++l) t1[j * kRep + l] = op(x[j * k + l], x[j * k + kRep + l]);
    }
    if (m > blocks) {
      for (uint64_t c = 2; c < blocks; ++c) {
        for (uint64_t j = 0; j < m; ++j) {
          for (uint64_t l = 0; l < kRep; ++l) {
            t1[j * kRep + l] = op(t1[j * kRep + l], x[j * k + c * kRep + l]);
          }
        }
      }
    } else {
      for (uint64_t j = 0; j < m; ++j) {
        for (uint64_t c = 2; c < blocks; ++c) {
          for (uint64_t l = 0; l < kRep; ++l) {
            t1[j * kRep + l] = op(x[j * k + c * kRep + l], t1[j * kRep + l]);
          }
        }
      }
    }
    BlockReduce(t1, t1, m, isMax);
  }
  BlockReduce(r, t1, ceilM, isMax);
}

// Brcb(dst, src, repeat, {dstBlkStride, dstRepStride}): repeat q reads src[8q .. 8q + 8), then
// writes value b to the 8 floats at dst + q * dstRep * 8 + b * dstBlk * 8.
void Brcb(float* dst, const float* src, uint64_t repeat, uint64_t dstBlk, uint64_t dstRep) {
  for (uint64_t q = 0; q < repeat; ++q) {
    float v[kBlk];
    std::memcpy(v, src + q * kBlk, sizeof v);
    for (uint64_t b = 0; b < kBlk; ++b) {
      std::fill(dst + q * dstRep * kBlk + b * dstBlk * kBlk,
                dst + q * dstRep * kBlk + b * dstBlk * kBlk + kBlk, v[b]);
    }
  }
}

// Sub / Div over m rows of k (x at row stride k) with src1 block `stat(r)` for every block of the
// row's repeats (src1BlkStride 0): x[r k + 64 j + l] op= stat(r)[l % 8].
template <class Stat>
void RowOp(float* out, const float* in, uint64_t m, uint64_t k, Stat stat, bool div) {
  for (uint64_t j = 0; j < k / kRep; ++j) {
    for (uint64_t r = 0; r < m; ++r) {
      for (uint64_t l = 0; l < kRep; ++l) {
        const uint64_t e = r * k + j * kRep + l;
        const float s = stat(r, l % kBlk);
        out[e] = div ? in[e] / s : in[e] - s;
      }
    }
  }
}

uint64_t DivCeil(uint64_t a, uint64_t b) { return (a + b - 1) / b; }

}  // namespace

uint64_t SoftMaxBasicWorkReach(const SmxTiling& t, bool halfData, bool halfStat) {
  if (t.rangeM == 0) return 0;
  const uint64_t m = t.splitM, ceilM = DivCeil(m, 8);
  // half: x at 0, t1 at s, the group results at s + 64 m; float: t1 at 0, those at 64 m.
  const uint64_t t1 = halfData ? t.splitSize : 0, r = t1 + m * kRep;
  const uint64_t end = std::max({t1, t1 + m * kRep, t1 + ceilM * kRep, r + ceilM * kBlk});
  return halfStat ? std::max(end, t1 + ceilM * 2 * kRep) : end;
}

template <class T, class S>
bool ReplaySoftMaxBasicWork(const SmxTiling& t, const T* src, T* dst, uint64_t dstLen, S* sum,
                            S* max, uint64_t statLen, std::vector<uint8_t>& work) {
  constexpr bool kHalf = std::is_same_v<T, Half>, kHalfStat = std::is_same_v<S, Half>;
  const uint64_t k = t.splitK, m = t.splitM, s = t.splitSize, ceilM = DivCeil(m, 8);
  const uint64_t reduceCeil = DivCeil(t.reduceSize, kRep);
  std::vector<float> w(work.size() / 4);
  std::memcpy(w.data(), work.data(), w.size() * 4);
  if (t.rangeM != 0) {
    if (k == 0 || k % kRep != 0 || s / kRep > 255 || m > 255 || k / kRep * 8 > 255 || ceilM > 255 ||
        reduceCeil > 255 || s != m * k) {
      return false;
    }
    const uint64_t end = SoftMaxBasicWorkReach(t, kHalf, kHalfStat);
    const uint64_t statEnd =
        uint64_t{t.rangeM - 1} * t.reduceSize + (kHalfStat ? reduceCeil * kRep : ceilM * kRep);
    if (end > w.size() || statEnd > statLen || uint64_t{t.rangeM} * s > dstLen) return false;
  }
  const uint64_t t1 = kHalf ? s : 0, rAt = t1 + m * kRep;
  for (uint64_t i = 0; i < t.rangeM; ++i) {
    const uint64_t o1 = i * s, o2 = i * t.reduceSize;
    float* x = nullptr;
    if constexpr (kHalf) {
      for (uint64_t j = 0; j < s; ++j) w[j] = HalfToFloat(src[o1 + j]);
      x = w.data();
    } else {
      x = dst + o1;
    }
    const float* in = kHalf ? x : reinterpret_cast<const float*>(src + o1);
    for (int pass = 0; pass < 2; ++pass) {  // the max, then the sum
      const bool isMax = pass == 0;
      S* stat = isMax ? max : sum;
      BasicReduce(isMax ? in : x, &w[t1], &w[rAt], m, k, ceilM, isMax);
      if constexpr (kHalfStat) {
        Brcb(&w[t1], &w[rAt], ceilM, 2, 16);
        Brcb(&w[t1 + kBlk], &w[rAt], ceilM, 2, 16);
        for (uint64_t j = 0; j < reduceCeil * kRep; ++j) stat[o2 + j] = Narrow<S>(w[t1 + j]);
        const float* b = &w[t1];
        RowOp(
            x, isMax ? in : x, m, k, [&](uint64_t row, uint64_t l) { return b[row * 16 + l]; },
            !isMax);
      } else {
        float img[kRep];
        for (uint64_t q = 0; q < ceilM; ++q) {  // Brcb {1, 8} into the float statistics
          Brcb(img, &w[rAt + q * kBlk], 1, 1, 8);
          for (uint64_t j = 0; j < kRep; ++j) stat[o2 + q * kRep + j] = Narrow<S>(img[j]);
        }
        const S* b = stat + o2;
        RowOp(
            x, isMax ? in : x, m, k,
            [&](uint64_t row, uint64_t l) { return Wide(b[row * kBlk + l]); }, !isMax);
      }
      if (isMax) {
        for (uint64_t j = 0; j < s; ++j) x[j] = Exp1(x[j]);
      }
    }
    if constexpr (kHalf) {
      for (uint64_t j = 0; j < s; ++j) dst[o1 + j] = Narrow<T>(w[j]);
    }
  }
  std::memcpy(work.data(), w.data(), w.size() * 4);
  return true;
}

template <class S>
bool ReplaySimpleSoftMaxHalfWork(const SmxTiling& t, bool basic, bool v200, const Half* src,
                                 Half* dst, const S* inSum, const S* inMax, uint64_t statLen,
                                 std::vector<uint8_t>& work, bool cfg) {
  constexpr bool kHalfStat = std::is_same_v<S, Half>;
  const uint64_t k = t.splitK, s = t.splitSize;
  std::vector<float> w(work.size() / 4);
  std::memcpy(w.data(), work.data(), w.size() * 4);
  // Statistics offsets: half ones at i * reduceSize, float ones at i * reduceM * 8.
  const auto statAt = [&](uint64_t i) {
    return kHalfStat ? i * t.reduceSize : i * t.reduceM * kBlk;
  };
  if (basic) {
    if (t.rangeM == 0) return true;
    // splitK not a multiple of 64 (session 25, sbw): the Sub and Div cover its splitK / 64
    // whole chunks a row, at the stride below.
    if (k == 0 || s != uint64_t{t.splitM} * k) return false;
    // The kit's uint8_t casts (session 24, sbb): repeatTimes = (uint8_t)(splitSize / 64) for the
    // Casts and the Exp, (uint8_t)splitM repeats of the Sub and Div, their repeat stride
    // offset = (uint8_t)(8 * (splitK / 64)) blocks, reduceCeilValue = (uint8_t)ceil(reduceSize /
    // 64) for the half statistics' Cast. Past 255 they wrap: the steps then cover other floats,
    // and the Sub and Div read what the buffer holds where no Cast wrote.
    const uint64_t reps = static_cast<uint8_t>(s / kRep), m = static_cast<uint8_t>(t.splitM);
    const uint64_t stride = static_cast<uint8_t>(kBlk * (k / kRep)) * kBlk;
    const uint64_t reduceCeil = static_cast<uint8_t>(DivCeil(t.reduceSize, kRep));
    const uint64_t statReads = m == 0 ? 0 : (m - 1) * 16 + kBlk;
    const uint64_t end = kHalfStat ? s + std::max(reduceCeil * kRep, statReads) : s;
    const uint64_t statEnd = statAt(t.rangeM - 1) + (kHalfStat ? reduceCeil * kRep : m * kBlk);
    if (end > w.size() || statEnd > statLen) return false;
    for (uint64_t i = 0; i < t.rangeM; ++i) {
      const uint64_t o1 = i * s, o2 = statAt(i);
      for (int pass = 0; pass < 2; ++pass) {
        const S* st = pass == 0 ? inMax : inSum;
        if constexpr (kHalfStat) {
          for (uint64_t j = 0; j < reduceCeil * kRep; ++j) w[s + j] = HalfToFloat(st[o2 + j]);
        }
        if (pass == 0) {
          for (uint64_t j = 0; j < reps * kRep; ++j) w[j] = HalfToFloat(src[o1 + j]);
        }
        const float* b = &w[s];
        // for j < splitBlock: Sub / Div over m repeats, repeat r at r * stride + 64 j.
        for (uint64_t j = 0; j < k / kRep; ++j) {
          for (uint64_t r = 0; r < m; ++r) {
            for (uint64_t l = 0; l < kRep; ++l) {
              float& x = w[r * stride + j * kRep + l];
              const float v = kHalfStat ? b[r * 16 + l % kBlk] : Wide(st[o2 + r * kBlk + l % kBlk]);
              x = pass == 1 ? x / v : x - v;
            }
          }
        }
        if (pass == 0) {
          for (uint64_t j = 0; j < reps * kRep; ++j) w[j] = Exp1(w[j]);
        }
      }
      for (uint64_t j = 0; j < reps * kRep; ++j)
        dst[o1 + j] = v200 ? FloatToHalf(w[j]) : FloatToHalfRoundAway(w[j]);
    }
    std::memcpy(work.data(), w.data(), w.size() * 4);
    return true;
  }
  // The generic loop: GenericSub/DivNDImpl give column c of row r the statistic at
  // r * reduceK + c % 8 (both of their branches); the config's form (SimpleSoftMaxGenericNDImpl
  // with oriSrcM and oriSrcK set) passes them 32 bytes a row instead (16 floats of the half
  // statistics' copy, 8 of the float statistics), the Cast still taking reduceK a row. 2002's
  // default form with float statistics passes 8 (its __NPU_ARCH__ == 2002 branch), not reduceK.
  const uint64_t rk = t.reduceK;
  const uint64_t sk = cfg ? (kHalfStat ? 16 : kBlk) : (v200 && !kHalfStat ? kBlk : rk);
  const uint64_t reads = t.splitM == 0 ? 0 : (t.splitM - 1) * sk + kBlk;
  if (k == 0 || k != t.srcK || k % 16 != 0 || rk == 0 || rk % kBlk != 0 || s < t.splitM * k ||
      s > w.size() || (kHalfStat && s + std::max(uint64_t{t.splitM} * rk, reads) > w.size())) {
    return false;
  }
  // The statistics read: the half Cast's rows of reduceK, the float ones' rows at sk.
  const uint64_t per = kHalfStat ? rk : sk;
  const uint64_t statEnd =
      t.tailM != 0 ? statAt(t.rangeM) + t.tailM * per
                   : (t.rangeM == 0 ? 0 : statAt(t.rangeM - 1) + uint64_t{t.splitM} * per);
  if (statEnd > statLen) return false;
  for (uint64_t i = 0; i <= t.rangeM; ++i) {
    const uint64_t cur = i < t.rangeM ? t.splitM : t.tailM;
    if (cur == 0) break;
    const uint64_t o1 = i * s, o2 = statAt(i), sz = cur * k, rs = cur * rk;
    for (uint64_t j = 0; j < sz; ++j) w[j] = HalfToFloat(src[o1 + j]);
    for (int pass = 0; pass < 2; ++pass) {
      const S* st = pass == 0 ? inMax : inSum;
      if constexpr (kHalfStat) {
        for (uint64_t j = 0; j < rs; ++j) w[s + j] = HalfToFloat(st[o2 + j]);
      }
      for (uint64_t r = 0; r < cur; ++r) {
        for (uint64_t c = 0; c < k; ++c) {
          const uint64_t at = r * sk + c % kBlk;
          const float v = kHalfStat ? w[s + at] : Wide(st[o2 + at]);
          w[r * k + c] = pass == 0 ? w[r * k + c] - v : w[r * k + c] / v;
        }
      }
      if (pass == 0) {  // half statistics: Exp over the split; float ones: over tiling.splitSize
        const uint64_t n = kHalfStat ? sz : s;
        for (uint64_t j = 0; j < n; ++j) w[j] = Exp1(w[j]);
      }
    }
    for (uint64_t j = 0; j < sz; ++j) {
      dst[o1 + j] = v200 ? FloatToHalf(w[j]) : FloatToHalfRoundAway(w[j]);
    }
  }
  std::memcpy(work.data(), w.data(), w.size() * 4);
  return true;
}

bool ReplaySimpleSoftMaxFloat(const SmxTiling& t, const float* src, float* dst, const float* inSum,
                              const float* inMax, uint64_t statLen) {
  const uint64_t m = t.srcM, k = t.srcK, rk = t.reduceK;
  if (m == 0) return true;
  if (k == 0 || k % kBlk != 0 || (m - 1) * rk + kBlk > statLen) return false;
  // GenericSubNDImpl: row r, column c less the statistic at r * reduceK + c % 8; Exp over the
  // rows; GenericDivNDImpl the same way.
  std::vector<float> w(src, src + m * k);
  for (int pass = 0; pass < 2; ++pass) {
    const float* st = pass == 0 ? inMax : inSum;
    for (uint64_t r = 0; r < m; ++r) {
      for (uint64_t c = 0; c < k; ++c) {
        const float v = st[r * rk + c % kBlk];
        w[r * k + c] = pass == 0 ? w[r * k + c] - v : w[r * k + c] / v;
      }
    }
    if (pass == 0) {
      for (float& x : w) x = Exp1(x);
    }
  }
  std::copy(w.begin(), w.end(), dst);
  return true;
}

template bool ReplaySoftMaxBasicWork<float, float>(const SmxTiling&, const float*, float*, uint64_t,
                                                   float*, float*, uint64_t, std::vector<uint8_t>&);
template bool ReplaySoftMaxBasicWork<Half, Half>(const SmxTiling&, const Half*, Half*, uint64_t,
                                                 Half*, Half*, uint64_t, std::vector<uint8_t>&);
template bool ReplaySoftMaxBasicWork<Half, float>(const SmxTiling&, const Half*, Half*, uint64_t,
                                                  float*, float*, uint64_t, std::vector<uint8_t>&);
template bool ReplaySimpleSoftMaxHalfWork<Half>(const SmxTiling&, bool, bool, const Half*, Half*,
                                                const Half*, const Half*, uint64_t,
                                                std::vector<uint8_t>&, bool);
template bool ReplaySimpleSoftMaxHalfWork<float>(const SmxTiling&, bool, bool, const Half*, Half*,
                                                 const float*, const float*, uint64_t,
                                                 std::vector<uint8_t>&, bool);

}  // namespace lngrad_replay
