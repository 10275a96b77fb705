// The 950 sequences of the high-level sums and products (replay_reduce_3510.h), walked loop by
// loop as the kit's register code runs them. Registers are arrays of 64 floats (128 for half
// Sum/Mean); a mask is the count of leading active lanes.
#include "replay_reduce_3510.h"

#include <algorithm>

#include "replay.h"

namespace lngrad_replay {
namespace {

constexpr uint32_t kVl = 64;
using Reg = std::vector<float>;

uint32_t Ceil(uint32_t a, uint32_t b) { return (a + b - 1) / b; }

// One DeInterleave(dst, src, src, ones) + Mul(src, dst, src, mask) of ReduceProd: lane i < 32
// becomes lane 2i * lane 2i + 1, the upper lanes 1 * 1; lanes outside the mask are zeroed.
void ProdHalving(Reg& v, uint32_t maskLanes) {
  Reg next(kVl, 1.0f);
  for (uint32_t i = 0; i < kVl / 2; ++i) next[i] = v[2 * i] * v[2 * i + 1];
  for (uint32_t i = maskLanes; i < kVl; ++i) next[i] = 0.0f;
  v = next;
}

// ReduceProd<T> (reduce_prod_3510_impl.h) on a whole register: five halvings, then the last.
float RegProdFull(Reg v) {
  for (int i = 0; i < 6; ++i) ProdHalving(v, kVl);
  return v[0];
}

// ReduceProdARLessThanVLVF on one row of dimR (<= 64) lanes.
float ProdShortRow(const float* row, uint32_t dimR) {
  Reg v(kVl, 1.0f);  // Select: the lanes past dimR hold 1
  std::copy(row, row + dimR, v.begin());
  uint32_t rt = 0;
  while ((2u << rt) <= dimR) ++rt;  // FindClosestPowerOfTwo
  rt = (1u << rt) < dimR ? rt : rt - 1;
  for (uint32_t i = 0; i <= rt; ++i) ProdHalving(v, dimR);
  return v[0];
}

float Bin(RedOp op, float a, float b) { return op == RedOp::kProd ? a * b : a + b; }
float RegFull(RedOp op, const float* v) {
  return op == RedOp::kProd ? RegProdFull(Reg(v, v + kVl)) : RegReduceSum(v, kVl, kVl, false);
}

// ReduceARReuseSourceLessThanVL with the SUM group reduce (8 <= dimR <= 64).
float SumShortRow(const std::vector<float>& src, uint32_t a, uint32_t dimR) {
  const float* row = src.data() + size_t{a} * dimR;
  if (dimR >= 32) return RegReduceSum(row, dimR, kVl, false);  // ReduceARLessThanVL
  float block[8];  // GroupReduceVf: block 0, then blocks 1.. of the row added onto it
  std::copy(row, row + 8, block);
  for (uint32_t k = 1; k < dimR / 8; ++k) {
    for (uint32_t l = 0; l < 8; ++l) block[l] = row[8 * k + l] + block[l];
  }
  return RegReduceSum(block, 8, 8, false);  // ReduceSumWithDataBlock, one block
}

// The binary tree of the fold tails over n (2, 4, 8 or 16) registers r[0..n): L1 pairs r[k] with
// r[k + n/2], then the halves again.
void TreeRegs(RedOp op, std::vector<Reg>& r, uint32_t n, uint32_t lanes) {
  for (uint32_t h = n / 2; h >= 1; h /= 2) {
    for (uint32_t k = 0; k < h; ++k) {
      for (uint32_t l = 0; l < lanes; ++l) r[k][l] = Bin(op, r[k][l], r[k + h][l]);
    }
  }
}

// ReduceAROverVLImpl (float, vlSize 64).
std::vector<float> ArOverVl(RedOp op, bool reuse, std::vector<float> src, uint32_t dimA,
                            uint32_t dimR) {
  uint32_t mainR = MainR(dimR, true, kVl), tailR = dimR - mainR;
  if (!reuse) {
    mainR = tailR > 0 ? mainR : mainR / 2;
    tailR = tailR > 0 ? tailR : mainR;
  }
  std::vector<float> tmp;
  std::vector<float>* addr = &src;
  uint32_t stride = dimR;
  if (reuse) {
    for (uint32_t a = 0; a < dimA; ++a) {
      for (uint32_t j = 0; j < tailR; ++j) {
        const size_t p = size_t{a} * dimR + j;
        src[p] = Bin(op, src[p], src[p + mainR]);
      }
    }
  } else {
    const uint32_t inplaceRepeats = tailR / kVl, inplaceTail = tailR % kVl;
    tmp.assign(size_t{dimA} * mainR, 0.0f);
    for (uint32_t a = 0; a < dimA; ++a) {
      const float* row = src.data() + size_t{a} * dimR;
      float* t = tmp.data() + size_t{a} * mainR;
      for (uint32_t j = 0; j < mainR; ++j)
        t[j] = j < inplaceRepeats * kVl ? Bin(op, row[j], row[mainR + j]) : row[j];
      for (uint32_t l = 0; l < inplaceTail; ++l)
        t[l] = Bin(op, t[l], row[mainR + inplaceRepeats * kVl + l]);
    }
    addr = &tmp;
    stride = mainR;
  }
  const uint32_t base = mainR / kVl, folds = Folds(base);
  std::vector<float> dst(dimA);
  std::vector<Reg> r(16, Reg(kVl));
  for (uint32_t a = 0; a < dimA; ++a) {
    float* row = addr->data() + size_t{a} * stride;
    uint32_t loopRNum = base;
    for (uint32_t t = 0; t < folds / 4; ++t) {
      loopRNum >>= 4;
      for (uint32_t loopR = 0; loopR < loopRNum; ++loopR) {
        for (uint32_t k = 0; k < 16; ++k) {
          std::copy_n(row + (16 * loopR + k) * kVl, kVl, r[k].begin());
        }
        TreeRegs(op, r, 16, kVl);
        std::copy_n(r[0].begin(), kVl, row + loopR * kVl);
      }
    }
    const uint32_t left = 1u << (folds % 4);
    for (uint32_t k = 0; k < left; ++k) std::copy_n(row + k * kVl, kVl, r[k].begin());
    TreeRegs(op, r, left, kVl);
    dst[a] = RegFull(op, r[0].data());
  }
  return dst;
}

// ReduceAROverVLReuseSourceUnAligned (rows of dimR, dense): the tail added in place over
// ceil(tailR / 64) vectors, main folds loading vectors loopR, loopR + L, .. (post-update L * 64),
// the 1/2/3 tail folds on consecutive vectors, the register sum.
float ArUnalignedOverVl(RedOp op, std::vector<float> row, uint32_t dimR) {
  const uint32_t mainR = MainR(dimR, true, kVl), tailR = dimR - mainR;
  for (uint32_t j = 0; j < tailR; ++j) row[j] = Bin(op, row[j], row[mainR + j]);
  const uint32_t folds = Folds(mainR / kVl);
  std::vector<Reg> r(16, Reg(kVl));
  uint32_t loopRNum = mainR / kVl;
  for (uint32_t t = 0; t < folds / 4; ++t) {
    loopRNum >>= 4;
    std::vector<float> out(loopRNum * kVl);
    for (uint32_t loopR = 0; loopR < loopRNum; ++loopR) {
      for (uint32_t k = 0; k < 16; ++k) {
        std::copy_n(row.begin() + (loopR + k * loopRNum) * kVl, kVl, r[k].begin());
      }
      TreeRegs(op, r, 16, kVl);
      std::copy_n(r[0].begin(), kVl, out.begin() + loopR * kVl);
    }
    std::copy(out.begin(), out.end(), row.begin());
  }
  const uint32_t left = 1u << (folds % 4);
  for (uint32_t k = 0; k < left; ++k) std::copy_n(row.begin() + k * kVl, kVl, r[k].begin());
  TreeRegs(op, r, left, kVl);
  return RegFull(op, r[0].data());
}

}  // namespace

std::vector<float> ReplayReduceAR3510(const RedCall& c, const std::vector<float>& src) {
  const RedOp op = c.op == RedOp::kMean ? RedOp::kSum : c.op;
  const uint32_t dimA = c.first, dimR = c.last;
  std::vector<float> dst(dimA);
  if (dimR == 1) {  // ReduceCopyOutImpl
    std::copy_n(src.begin(), dimA, dst.begin());
  } else if (dimR % 8 != 0 && op == RedOp::kSum) {  // ReduceARReuseSourceUnAligned
    // (ReduceSumARReuseSourceCompute's branch; ReduceProdARImpl has none: a row of any length
    // goes to the aligned code below, row a loaded at a * dimR)
    for (uint32_t a = 0; a < dimA; ++a) {
      const auto row = src.begin() + size_t{a} * dimR;
      dst[a] = dimR < kVl ? RegReduceSum(&*row, dimR, kVl, false)
                          : ArUnalignedOverVl(op, std::vector<float>(row, row + dimR), dimR);
    }
  } else if (dimR > kVl) {
    dst = ArOverVl(op, c.reuse, src, dimA, dimR);
  } else {
    for (uint32_t a = 0; a < dimA; ++a) {
      dst[a] = op == RedOp::kProd ? ProdShortRow(src.data() + size_t{a} * dimR, dimR)
                                  : SumShortRow(src, a, dimR);
    }
  }
  if (c.op == RedOp::kMean) {
    const float k = 1.0f / static_cast<float>(static_cast<int32_t>(dimR));
    for (float& v : dst) v = v * k;
  }
  return dst;
}

namespace {

// ReduceRAConcatImpl: the halving folds over flat rows (dimA <= 32).
std::vector<float> RaConcat(RedOp op, bool reuse, const std::vector<float>& src, uint32_t dimA,
                            uint32_t dimR) {
  std::vector<float> dst(dimA);
  if (dimR == 1) return std::vector<float>(src.begin(), src.begin() + dimA);
  if (dimR == 2) {
    for (uint32_t i = 0; i < dimA; ++i) dst[i] = Bin(op, src[i], src[dimA + i]);
    return dst;
  }
  uint32_t foldTime = 0;
  while ((2u << foldTime) <= dimR) ++foldTime;
  uint32_t mainR = 1u << foldTime, tailR = dimR - mainR;
  foldTime -= 1;
  if (!reuse && tailR == 0) {
    mainR /= 2;
    tailR = mainR;
    foldTime -= 1;
  }
  std::vector<float> addr(src);  // tmp holds the copied rows [tailR, mainR) and the sums
  addr.resize(src.size() + 2 * kVl, 0.0f);
  for (size_t i = 0; i < size_t{tailR} * dimA; ++i)
    addr[i] = Bin(op, src[i], src[size_t{mainR} * dimA + i]);
  for (uint32_t f = 0; f < foldTime; ++f) {
    mainR >>= 1;
    const size_t n = size_t{mainR} * dimA;
    for (size_t i = 0; i < n; ++i) addr[i] = Bin(op, addr[i], addr[n + i]);
  }
  for (uint32_t i = 0; i < dimA; ++i) dst[i] = Bin(op, addr[i], addr[dimA + i]);
  return dst;
}

// ReduceRALessThanVLImpl (32 < dimA <= 64: a register per row, rows 16 at a time in order) and
// ReduceRAOverVLImpl (dimA > 64: rows r, r + L, ..): the tail rows added, folds by 16, the rest.
std::vector<float> RaFolds(RedOp op, bool reuse, const std::vector<float>& src, uint32_t dimA,
                           uint32_t dimR) {
  if (dimR == 1) return std::vector<float>(src.begin(), src.begin() + dimA);
  uint32_t mainR = MainR(dimR, false, kVl), tailR = dimR - mainR;
  if (!reuse && tailR == 0) {
    mainR /= 2;
    tailR = mainR;
  }
  const bool overVl = dimA > kVl;
  std::vector<float> addr(src);
  for (size_t i = 0; i < size_t{tailR} * dimA; ++i)
    addr[i] = Bin(op, src[i], src[size_t{mainR} * dimA + i]);
  const uint32_t folds = Folds(mainR);
  uint32_t loopRNum = mainR;
  std::vector<Reg> r(16, Reg(dimA));
  auto row = [&](uint32_t k) { return addr.begin() + size_t{k} * dimA; };
  for (uint32_t t = 0; t < folds / 4; ++t) {
    loopRNum >>= 4;
    for (uint32_t loopR = 0; loopR < loopRNum; ++loopR) {
      for (uint32_t k = 0; k < 16; ++k) {
        std::copy_n(row(overVl ? k * loopRNum + loopR : 16 * loopR + k), dimA, r[k].begin());
      }
      TreeRegs(op, r, 16, dimA);
      std::copy_n(r[0].begin(), dimA, row(loopR));
    }
  }
  const uint32_t left = 1u << (folds % 4);
  for (uint32_t k = 0; k < left; ++k) std::copy_n(row(k), dimA, r[k].begin());
  TreeRegs(op, r, left, dimA);
  return r[0];
}

}  // namespace

// ReduceRAReuseSourceUnAligned (columns not of whole blocks, dense rows): mainR never halved,
// tail rows added in place, the rows folded 16 at a time strided (loopR, loopR + L, ..), the
// 1/2/3 tail folds on consecutive rows.
std::vector<float> RaUnaligned(RedOp op, std::vector<float> x, uint32_t dimA, uint32_t dimR) {
  const uint32_t mainR = MainR(dimR, false, kVl);
  for (size_t i = 0; i < size_t{dimR - mainR} * dimA; ++i) {
    x[i] = Bin(op, x[i], x[size_t{mainR} * dimA + i]);
  }
  const uint32_t folds = Folds(mainR);
  std::vector<Reg> r(16, Reg(dimA));
  uint32_t loopRNum = mainR;
  for (uint32_t t = 0; t < folds / 4; ++t) {
    loopRNum >>= 4;
    for (uint32_t loopR = 0; loopR < loopRNum; ++loopR) {
      for (uint32_t k = 0; k < 16; ++k) {
        std::copy_n(x.begin() + size_t{loopR + k * loopRNum} * dimA, dimA, r[k].begin());
      }
      TreeRegs(op, r, 16, dimA);
      std::copy_n(r[0].begin(), dimA, x.begin() + size_t{loopR} * dimA);
    }
  }
  const uint32_t left = 1u << (folds % 4);
  for (uint32_t k = 0; k < left; ++k) std::copy_n(x.begin() + size_t{k} * dimA, dimA, r[k].begin());
  TreeRegs(op, r, left, dimA);
  return r[0];
}

std::vector<float> ReplayReduceRA3510(const RedCall& c, const std::vector<float>& src) {
  const RedOp op = c.op == RedOp::kMean ? RedOp::kSum : c.op;
  const uint32_t dimA = c.last, dimR = c.first;
  // ReduceSumRAReuseSourceCompute branches on whole blocks; ReduceProdImpl calls ReduceRAImpl.
  std::vector<float> dst = dimA % 8 != 0 && op == RedOp::kSum ? RaUnaligned(op, src, dimA, dimR)
                           : dimA <= kVl / 2 || dimA > 65535
                               ? RaConcat(op, c.reuse, src, dimA, dimR)
                               : RaFolds(op, c.reuse, src, dimA, dimR);
  if (c.op == RedOp::kMean) {
    const float k = 1.0f / static_cast<float>(static_cast<int32_t>(dimR));
    for (float& v : dst) v = v * k;
  }
  return dst;
}

namespace {

// sum_3510_impl.h / mean_3510_impl.h: a row's register sums over `vl`-lane chunks into the
// scratch (row stride `offset`), level by level, the last level's one register sum returned.
float RowLevels(const float* x, uint32_t n, uint32_t vl, bool isHalf) {
  if (n <= vl) return RegReduceSum(x, n, vl, isHalf);  // repeatTimes == 1
  std::vector<float> level(x, x + n);
  while (true) {
    const uint32_t count = static_cast<uint32_t>(level.size()), repeats = Ceil(count, vl);
    std::vector<float> next(repeats);
    for (uint32_t j = 0; j < repeats; ++j) {
      next[j] = RegReduceSum(level.data() + j * vl, std::min(vl, count - j * vl), vl, isHalf);
    }
    if (repeats == 1) return next[0];
    level.swap(next);
  }
}

}  // namespace

std::vector<float> ReplaySum3510(const RowsCall& c, const std::vector<float>& src) {
  std::vector<float> dst(c.outter);
  for (uint32_t r = 0; r < c.outter; ++r) {
    dst[r] = RowLevels(src.data() + size_t{r} * c.inner, c.n, c.isHalf ? 128 : 64, c.isHalf);
  }
  return dst;
}

std::vector<float> ReplayMean3510(const RowsCall& c, const std::vector<float>& src) {
  const bool convHalf = c.isHalf && !c.accFloat;  // ConvType
  const float rec = 1.0f / static_cast<float>(c.n);
  const float scalar = RoundT(rec, convHalf);
  std::vector<float> dst = ReplaySum3510(RowsCall{convHalf, false, c.outter, c.inner, c.n}, src);
  for (float& v : dst) v = RoundT(RoundT(v * scalar, convHalf), c.isHalf);  // Muls, Cast RINT
  return dst;
}

}  // namespace lngrad_replay
