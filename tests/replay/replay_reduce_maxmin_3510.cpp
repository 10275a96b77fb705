// The 950's ReduceMax/Min/Any/All and ReduceXorSum sequences (replay_reduce_maxmin_3510.h),
// walked loop by loop as the kit's register code runs them. A register is a vector of V floats;
// a mask is the count of leading active lanes.
#include "replay_reduce_maxmin_3510.h"

#include "replay_reduce_3510.h"

#include <algorithm>
#include <cmath>

namespace lngrad_replay {
namespace {

using Reg = std::vector<float>;

struct Geo {
  uint32_t vl, blk;  // lanes of a register (GetVecLen() / sizeof(T)), of a 32-byte block
  bool bf16;
};
Geo GeoOf(MmLane l) {
  return l == MmLane::kFloat ? Geo{64, 8, false} : Geo{128, 16, l == MmLane::kBf16};
}

bool TakesMax(RedOp op) { return op == RedOp::kMax || op == RedOp::kAny; }

// Reg::Max / Reg::Min (dst, s0, s1).
float Bin(RedOp op, float s0, float s1) {
  if (std::isnan(s0)) return s0;
  if (std::isnan(s1)) return s1;
  const bool s1Wins = TakesMax(op) ? s1 > s0 : s1 < s0;
  return s1Wins ? s1 : s0;
}

// Reg::ReduceMax / ReduceMin (and ReduceSum for `sum`) over the first n lanes of v: adjacent
// pairs level by level, a lane without a partner passed up.
float Tree(RedOp op, Reg v, uint32_t n, bool sum = false) {
  while (n > 1) {
    const uint32_t up = (n + 1) / 2;
    for (uint32_t i = 0; i < up; ++i) {
      if (2 * i + 1 < n) {
        v[i] = sum ? v[2 * i] + v[2 * i + 1] : Bin(op, v[2 * i], v[2 * i + 1]);
      } else {
        v[i] = v[2 * i];
      }
    }
    n = up;
  }
  return v[0];
}

Reg Lanes(const float* p, uint32_t n) { return Reg(p, p + n); }

// The L1..L4 levels over n (1, 2, 4, 8, 16) registers: r[k] = op(r[k], r[k + n/2]), halving.
void Levels(RedOp op, std::vector<Reg>& r, uint32_t n) {
  for (uint32_t h = n / 2; h >= 1; h /= 2) {
    for (uint32_t k = 0; k < h; ++k) {
      for (size_t l = 0; l < r[k].size(); ++l) r[k][l] = Bin(op, r[k][l], r[k + h][l]);
    }
  }
}

// bfloat16_t's Cast folds of a whole register (ReduceARCastfoldOneToThree: Interleave with zeros,
// Max of the two halves, the even lanes widened; ReduceARCastfoldZero[UnAligned]: Max with the
// load at V/2, the lower half unpacked): float lane i = op(v[i], v[64 + i]), 64 floats reduced.
float FullReduce(RedOp op, const Geo& g, const float* v) {
  if (!g.bf16) return Tree(op, Lanes(v, g.vl), g.vl);
  Reg f(64);
  for (uint32_t i = 0; i < 64; ++i) f[i] = Bin(op, v[i], v[64 + i]);
  return Tree(op, f, 64);
}

// ReduceARCastLessThanVL / CastReduceARUnAligned (bfloat16_t, 1 < dimR < or = V): up to V / 2
// lanes the float reduction; else Max(v0, v1 loaded at V / 2) on the first dimR - V / 2 lanes,
// Select keeping v0 on the rest, the lower half widened, 64 floats reduced.
float Bf16ShortRow(RedOp op, const float* row, uint32_t dimR) {
  if (dimR <= 64) return Tree(op, Lanes(row, dimR), dimR);
  Reg f(64);
  for (uint32_t i = 0; i < 64; ++i) f[i] = i < dimR - 64 ? Bin(op, row[i], row[64 + i]) : row[i];
  return Tree(op, f, 64);
}

// ReduceARReuseSourceLessThanVL, 1 < dimR <= V (whole blocks). ReduceMax/Min pass their
// ReduceType: a row of one block, or below V / 2 (GroupReduceVf: block 0 loaded, then
// Max(block k, running) for k = 1 ..), reduces per data block; ReduceAny/All pass NONE.
float ArShortRow(RedOp op, const Geo& g, const float* row, uint32_t dimR) {
  if (g.bf16) return Bf16ShortRow(op, row, dimR);
  const bool grouped = op == RedOp::kMax || op == RedOp::kMin;
  if (!grouped || (dimR != g.blk && dimR >= g.vl / 2)) return Tree(op, Lanes(row, dimR), dimR);
  Reg acc = Lanes(row, g.blk);
  for (uint32_t k = 1; k < dimR / g.blk; ++k) {
    for (uint32_t l = 0; l < g.blk; ++l) acc[l] = Bin(op, row[k * g.blk + l], acc[l]);
  }
  return Tree(op, acc, g.blk);
}

// The main folds (16 registers, L1..L4) and the 1/2/3/0 tail folds over the vectors of x
// (base of them), then the register reduction. `strided`: the 16 loads of group loopR are
// vectors loopR + k * loopRNum (unaligned path), else 16 * loopR + k.
float FoldVectors(RedOp op, const Geo& g, Reg& x, uint32_t base, bool strided) {
  const uint32_t folds = Folds(base);
  std::vector<Reg> r(16);
  uint32_t loopRNum = base;
  for (uint32_t t = 0; t < folds / 4; ++t) {
    loopRNum >>= 4;
    Reg out(size_t{loopRNum} * g.vl);
    for (uint32_t loopR = 0; loopR < loopRNum; ++loopR) {
      for (uint32_t k = 0; k < 16; ++k) {
        const uint32_t v = strided ? loopR + k * loopRNum : 16 * loopR + k;
        r[k] = Lanes(x.data() + size_t{v} * g.vl, g.vl);
      }
      Levels(op, r, 16);
      std::copy(r[0].begin(), r[0].end(), out.begin() + size_t{loopR} * g.vl);
    }
    std::copy(out.begin(), out.end(), x.begin());
  }
  const uint32_t left = 1u << (folds % 4);
  for (uint32_t k = 0; k < left; ++k) r[k] = Lanes(x.data() + size_t{k} * g.vl, g.vl);
  Levels(op, r, left);
  return FullReduce(op, g, r[0].data());
}

// ReduceAROverVLImpl on one row (dimR > V, whole blocks).
float ArOverVlRow(RedOp op, const Geo& g, bool reuse, const float* row, uint32_t dimR) {
  uint32_t mainR = MainR(dimR, true, g.vl), tailR = dimR - mainR;
  if (!reuse) {
    mainR = tailR > 0 ? mainR : mainR / 2;
    tailR = tailR > 0 ? tailR : mainR;
  }
  Reg addr;
  if (reuse) {  // in place over ceil(tailR / V) vectors, the mask counting tailR down
    addr = Lanes(row, dimR);
    for (uint32_t j = 0; j < tailR; ++j) addr[j] = Bin(op, addr[j], addr[mainR + j]);
  } else {  // tmp: whole tail vectors with main, main copied, then the partial tail vector
    const uint32_t inplaceRepeats = tailR / g.vl, inplaceTail = tailR % g.vl;
    addr.assign(mainR, 0.0f);
    for (uint32_t j = 0; j < mainR; ++j) {
      addr[j] = j < inplaceRepeats * g.vl ? Bin(op, row[j], row[mainR + j]) : row[j];
    }
    for (uint32_t l = 0; l < inplaceTail; ++l) {
      addr[l] = Bin(op, addr[l], row[mainR + inplaceRepeats * g.vl + l]);
    }
  }
  return FoldVectors(op, g, addr, mainR / g.vl, false);
}

// ReduceARReuseSourceUnAligned on one dense row (dimR not a whole number of blocks).
float ArUnalignedRow(RedOp op, const Geo& g, const float* row, uint32_t dimR) {
  if (dimR < g.vl) return g.bf16 ? Bf16ShortRow(op, row, dimR) : Tree(op, Lanes(row, dimR), dimR);
  Reg x = Lanes(row, dimR);
  const uint32_t mainR = MainR(dimR, true, g.vl), tailR = dimR - mainR;
  for (uint32_t j = 0; j < tailR; ++j) x[j] = Bin(op, x[j], x[mainR + j]);
  return FoldVectors(op, g, x, mainR / g.vl, true);
}

// ReduceRAConcatImpl (dimA <= V / 2 or > 65535): the flat halving folds.
std::vector<float> RaConcat(RedOp op, bool reuse, const std::vector<float>& src, uint32_t dimA,
                            uint32_t dimR) {
  std::vector<float> dst(dimA);
  if (dimR == 1) return std::vector<float>(src.begin(), src.begin() + dimA);
  if (dimR == 2) {
    for (uint32_t i = 0; i < dimA; ++i) dst[i] = Bin(op, src[i], src[dimA + i]);
    return dst;
  }
  uint32_t foldTime = 31 - static_cast<uint32_t>(__builtin_clz(dimR));  // FindClosestPowerOfTwo
  uint32_t mainR = 1u << foldTime, tailR = dimR - mainR;
  foldTime -= 1;
  if (!reuse && tailR == 0) {
    mainR /= 2;
    tailR = mainR;
    foldTime -= 1;
  }
  std::vector<float> addr(src);
  for (size_t i = 0; i < size_t{tailR} * dimA; ++i) {
    addr[i] = Bin(op, src[i], src[size_t{mainR} * dimA + i]);
  }
  for (uint32_t f = 0; f < foldTime; ++f) {
    mainR >>= 1;
    const size_t n = size_t{mainR} * dimA;
    for (size_t i = 0; i < n; ++i) addr[i] = Bin(op, addr[i], addr[n + i]);
  }
  for (uint32_t i = 0; i < dimA; ++i) dst[i] = Bin(op, addr[i], addr[dimA + i]);
  return dst;
}

// The RA row folds: ReduceRALessThanVLImpl (consecutive 16 rows), ReduceRAOverVLImpl (rows
// loopR + k * L) and ReduceRAReuseSourceUnAligned (strided, mainR never halved).
std::vector<float> RaFolds(RedOp op, bool reuse, bool strided, bool halve,
                           const std::vector<float>& src, uint32_t dimA, uint32_t dimR) {
  if (dimR == 1) return std::vector<float>(src.begin(), src.begin() + dimA);
  uint32_t mainR = MainR(dimR, false, 0), tailR = dimR - mainR;
  if (halve && !reuse && tailR == 0) {
    mainR /= 2;
    tailR = mainR;
  }
  std::vector<float> x(src);
  for (size_t i = 0; i < size_t{tailR} * dimA; ++i) {
    x[i] = Bin(op, src[i], src[size_t{mainR} * dimA + i]);
  }
  const uint32_t folds = Folds(mainR);
  std::vector<Reg> r(16);
  uint32_t loopRNum = mainR;
  for (uint32_t t = 0; t < folds / 4; ++t) {
    loopRNum >>= 4;
    std::vector<float> out(size_t{loopRNum} * dimA);
    for (uint32_t loopR = 0; loopR < loopRNum; ++loopR) {
      for (uint32_t k = 0; k < 16; ++k) {
        const uint32_t row = strided ? loopR + k * loopRNum : 16 * loopR + k;
        r[k] = Lanes(x.data() + size_t{row} * dimA, dimA);
      }
      Levels(op, r, 16);
      std::copy(r[0].begin(), r[0].end(), out.begin() + size_t{loopR} * dimA);
    }
    std::copy(out.begin(), out.end(), x.begin());
  }
  const uint32_t left = 1u << (folds % 4);
  for (uint32_t k = 0; k < left; ++k) r[k] = Lanes(x.data() + size_t{k} * dimA, dimA);
  Levels(op, r, left);
  return r[0];
}

}  // namespace

std::vector<float> ReplayMaxMinAR3510(const MaxMinCall& c, const std::vector<float>& src) {
  const Geo g = GeoOf(c.lane);
  const uint32_t dimR = c.last;
  const bool anyAll = c.op == RedOp::kAny || c.op == RedOp::kAll;
  std::vector<float> dst(c.first);
  for (uint32_t a = 0; a < c.first; ++a) {
    const float* row = src.data() + size_t{a} * dimR;
    if (dimR == 1) {  // ReduceCopyOutImpl
      dst[a] = row[0];
    } else if (dimR % g.blk != 0 && !anyAll) {  // ReduceAny/AllARImpl do not branch on it
      dst[a] = ArUnalignedRow(c.op, g, row, dimR);
    } else if (dimR <= g.vl) {
      dst[a] = ArShortRow(c.op, g, row, dimR);
    } else {
      dst[a] = ArOverVlRow(c.op, g, c.reuse, row, dimR);
    }
  }
  return dst;
}

std::vector<float> ReplayMaxMinRA3510(const MaxMinCall& c, const std::vector<float>& src) {
  const Geo g = GeoOf(c.lane);
  const uint32_t dimA = c.last, dimR = c.first;
  const bool anyAll = c.op == RedOp::kAny || c.op == RedOp::kAll;  // always ReduceRAImpl
  if (dimA % g.blk != 0 && !anyAll) return RaFolds(c.op, c.reuse, true, false, src, dimA, dimR);
  if (dimA <= g.vl / 2 || dimA > 65535) return RaConcat(c.op, c.reuse, src, dimA, dimR);
  return RaFolds(c.op, c.reuse, dimA > g.vl, true, src, dimA, dimR);
}

int16_t ReplayReduceXorSum3510(const std::vector<int16_t>& a, const std::vector<int16_t>& b,
                               uint32_t calCount) {
  float zeroReg = 0.0f;  // lane 0 of the running register
  for (uint32_t i = 0; i * 64 < calCount; ++i) {
    const uint32_t lanes = std::min(64u, calCount - i * 64);
    Reg v(64);
    for (uint32_t l = 0; l < lanes; ++l) {
      v[l] = static_cast<float>(static_cast<int16_t>(a[i * 64 + l] ^ b[i * 64 + l]));
    }
    zeroReg = zeroReg + Tree(RedOp::kMax, v, lanes, true);
  }
  const float r = std::nearbyint(zeroReg);  // CAST_RINT, saturated
  return static_cast<int16_t>(r > 32767.0f ? 32767.0f : (r < -32768.0f ? -32768.0f : r));
}

}  // namespace lngrad_replay
