// The second reading of the 950's reduce stores (see replay_reduce_mem950b.h for what was read).
// Names follow the kit's variables (mainR, tailR, inplaceRepeats, loopRNum, ...) so each loop can
// be set beside the source's.
#include "replay_reduce_mem950b.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

#include "replay.h"

namespace lngrad_replay {
namespace rm950b {

uint32_t SizeOf(Ty t) {
  switch (t) {
    case Ty::kI8:
    case Ty::kU8:
      return 1;
    case Ty::kF16:
    case Ty::kBf16:
    case Ty::kI16:
    case Ty::kU16:
      return 2;
    case Ty::kF32:
    case Ty::kI32:
    case Ty::kU32:
      return 4;
    case Ty::kI64:
    case Ty::kU64:
      return 8;
  }
  return 4;
}

namespace {

// ---- Element arithmetic on raw bits (uint64_t holds any element) ----

bool IsFloat(Ty t) { return t == Ty::kF32 || t == Ty::kF16 || t == Ty::kBf16; }
bool IsSigned(Ty t) { return t == Ty::kI8 || t == Ty::kI16 || t == Ty::kI32 || t == Ty::kI64; }

float AsFloat(Ty t, uint64_t b) {
  if (t == Ty::kF32) {
    uint32_t u = static_cast<uint32_t>(b);
    float f;
    std::memcpy(&f, &u, 4);
    return f;
  }
  if (t == Ty::kF16) return HalfToFloat(Half{static_cast<uint16_t>(b)});
  uint32_t u = static_cast<uint32_t>(b & 0xFFFF) << 16;  // bfloat16: the float's top half
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

uint64_t FromFloat(Ty t, float f) {
  if (t == Ty::kF32) {
    uint32_t u;
    std::memcpy(&u, &f, 4);
    return u;
  }
  return FloatToHalf(f).bits;  // half only (bfloat16_t is never added or multiplied here)
}

int64_t AsSigned(Ty t, uint64_t b) {
  switch (SizeOf(t)) {
    case 1:
      return static_cast<int8_t>(b);
    case 2:
      return static_cast<int16_t>(b);
    case 4:
      return static_cast<int32_t>(b);
    default:
      return static_cast<int64_t>(b);
  }
}

uint64_t Mask(Ty t) {
  const uint32_t s = SizeOf(t);
  return s == 8 ? ~uint64_t{0} : (uint64_t{1} << (8 * s)) - 1;
}

// Reg::Max / Min: a NaN operand wins (the first's first); otherwise the second only where
// strictly larger (smaller).
uint64_t Pick(Ty t, bool max, uint64_t a, uint64_t b) {
  bool second;
  if (IsFloat(t)) {
    const float x = AsFloat(t, a), y = AsFloat(t, b);
    if (std::isnan(x)) return a;
    if (std::isnan(y)) return b;
    second = max ? y > x : y < x;
  } else if (IsSigned(t)) {
    const int64_t x = AsSigned(t, a), y = AsSigned(t, b);
    second = max ? y > x : y < x;
  } else {
    second = max ? b > a : b < a;
  }
  return second ? b : a;
}

uint64_t Apply(Op op, Ty t, uint64_t a, uint64_t b) {
  switch (op) {
    case Op::kMax:
      return Pick(t, true, a, b);
    case Op::kMin:
      return Pick(t, false, a, b);
    case Op::kSum:
      if (IsFloat(t)) return FromFloat(t, AsFloat(t, a) + AsFloat(t, b));
      return (a + b) & Mask(t);
    case Op::kProd:
      return FromFloat(t, AsFloat(t, a) * AsFloat(t, b));
  }
  return a;
}

// ---- The UB image: element-addressed loads and stores ----

struct Mem {
  uint8_t* ub;
  size_t bytes;
  Ty t;
  uint32_t es;  // element size
  bool ok = true;
  // Reach bookkeeping (ReduceReach): stores at or past split count towards the scratch.
  bool track = false;
  size_t split = 0, srcEnd = 0, tmpEnd = 0;

  uint64_t Ld(size_t e) const {  // element index e (bytes e * es)
    const size_t p = e * es;
    if (p + es > bytes) return 0;  // past the UB: such lanes never reach a stored lane here
    uint64_t v = 0;
    std::memcpy(&v, ub + p, es);
    return v;
  }
  void St(size_t e, uint64_t v) {
    const size_t p = e * es;
    if (p + es > bytes) {
      ok = false;
      return;
    }
    std::memcpy(ub + p, &v, es);
    if (track) {
      if (p >= split) {
        tmpEnd = std::max(tmpEnd, p + es - split);
      } else {
        srcEnd = std::max(srcEnd, p + es);
      }
    }
  }
  std::vector<uint64_t> Vec(size_t e, uint32_t V) const {
    std::vector<uint64_t> v(V);
    for (uint32_t k = 0; k < V; ++k) v[k] = Ld(e + k);
    return v;
  }
  void Put(size_t e, const std::vector<uint64_t>& v, uint32_t n) {  // first n lanes
    for (uint32_t k = 0; k < n && k < v.size(); ++k) St(e + k, v[k]);
  }
};

struct Ctx {
  Mem& m;
  Op op;
  uint32_t V;   // lanes of one register
  size_t s, w;  // src and scratch element indexes
  uint64_t F(uint64_t a, uint64_t b) const { return Apply(op, m.t, a, b); }
  // v[k] = v[k] op v[k + half], k < half, for halves 8, 4, 2, 1 (16 regs) or 4, 2, 1 (8 regs):
  // Binaryfunc(vreg0, vreg0, vreg8) ... (vreg0, vreg0, vreg1).
  std::vector<uint64_t> Fold(std::vector<std::vector<uint64_t>>& r) const {
    for (size_t h = r.size() / 2; h >= 1; h /= 2) {
      for (size_t k = 0; k < h; ++k) {
        for (uint32_t l = 0; l < V; ++l) r[k][l] = F(r[k][l], r[k + h][l]);
      }
    }
    return r[0];
  }
  std::vector<uint64_t> Bin(const std::vector<uint64_t>& a, const std::vector<uint64_t>& b) const {
    std::vector<uint64_t> o(V);
    for (uint32_t l = 0; l < V; ++l) o[l] = F(a[l], b[l]);
    return o;
  }
};

uint32_t UpdateMask(uint32_t& sreg, uint32_t V) {
  const uint32_t n = std::min(sreg, V);
  sreg -= n;
  return n;
}

uint32_t CalculateMainR(uint32_t dimR, bool isAR, uint32_t V) {
  uint32_t mainR = 1;
  for (uint32_t i = 1; i < 16; ++i) {
    if ((dimR >> i) == 0) break;
    mainR = 1u << i;
  }
  if (isAR && dimR < V) mainR = dimR;
  return mainR;
}

uint32_t CalculateFolds(uint32_t count) {
  uint32_t folds = 0;
  for (uint32_t i = 1; i < 16; ++i) {
    if ((count >> i) == 0) break;
    ++folds;
  }
  return folds;
}

uint32_t Floor2Log(uint32_t n) {  // FindClosestPowerOfTwo: 63 - clz64(n)
  uint32_t k = 0;
  while ((n >> (k + 1)) != 0) ++k;
  return k;
}

uint32_t CeilDiv(uint32_t a, uint32_t b) { return (a + b - 1) / b; }

// ---- AR, rows of whole blocks, R > V: ReduceAROverVLImpl (16 consecutive registers a fold)
// and ReduceARB64OverVL (8 registers r, r + L, ..., r + 7L a fold) ----
void AROverVL(Ctx& c, uint32_t dimA, uint32_t dimR, bool reuse, bool b64) {
  const uint32_t V = c.V;
  uint32_t mainR = CalculateMainR(dimR, true, V);
  uint32_t tailR = dimR - mainR;
  const uint32_t dimRAxis = dimR;
  if (!reuse) {
    mainR = tailR > 0 ? mainR : mainR / 2;
    tailR = tailR > 0 ? tailR : mainR;
  }
  uint32_t inplaceRepeats, inplaceTail = 0, needInplaceAdd;
  if (reuse) {
    inplaceRepeats = CeilDiv(tailR, V);
    needInplaceAdd = tailR > 0 ? 1 : 0;
  } else {
    inplaceRepeats = tailR / V;
    inplaceTail = tailR % V;
    needInplaceAdd = inplaceTail == 0 ? 0 : 1;
  }
  const uint32_t copyRepeats = CeilDiv(mainR, V);
  const uint32_t base = mainR / V;
  const uint32_t avgFolds = b64 ? 3 : 4;
  const uint32_t mainTimes = CalculateFolds(base) / avgFolds;
  size_t addr;
  uint32_t stride;
  Mem& m = c.m;
  if (reuse) {
    addr = c.s;
    stride = dimRAxis;
    for (uint32_t i = 0; i < needInplaceAdd; ++i) {
      uint32_t sreg0 = tailR;
      for (uint32_t loopR = 0; loopR < inplaceRepeats; ++loopR) {
        const uint32_t n = UpdateMask(sreg0, V);
        for (uint32_t a = 0; a < dimA; ++a) {
          const size_t row = c.s + size_t{a} * dimRAxis + size_t{loopR} * V;
          m.Put(row, c.Bin(m.Vec(row, V), m.Vec(row + mainR, V)), n);
        }
      }
    }
  } else {
    addr = c.w;
    stride = mainR;
    for (uint32_t a = 0; a < dimA; ++a) {
      const size_t in = c.s + size_t{a} * dimRAxis, out = c.w + size_t{a} * mainR;
      for (uint32_t loopR = 0; loopR < inplaceRepeats; ++loopR) {
        const size_t o = size_t{loopR} * V;
        m.Put(out + o, c.Bin(m.Vec(in + o, V), m.Vec(in + mainR + o, V)), V);
      }
      for (uint32_t loopR = inplaceRepeats; loopR < copyRepeats; ++loopR) {
        const size_t o = size_t{loopR} * V;
        m.Put(out + o, m.Vec(in + o, V), V);
      }
    }
    for (uint32_t i = 0; i < needInplaceAdd; ++i) {
      for (uint32_t a = 0; a < dimA; ++a) {
        const size_t in = c.s + size_t{a} * dimRAxis, out = c.w + size_t{a} * mainR;
        const auto tail = m.Vec(in + mainR + size_t{inplaceRepeats} * V, V);
        m.Put(out, c.Bin(m.Vec(out, V), tail), inplaceTail);
      }
    }
  }
  uint32_t loopRNum = base;
  for (uint32_t loopMain = 0; loopMain < mainTimes; ++loopMain) {
    loopRNum >>= avgFolds;
    for (uint32_t a = 0; a < dimA; ++a) {
      const size_t row = addr + size_t{a} * stride;
      for (uint32_t loopR = 0; loopR < loopRNum; ++loopR) {
        std::vector<std::vector<uint64_t>> r;
        for (uint32_t k = 0; k < (1u << avgFolds); ++k) {
          const size_t reg = b64 ? loopR + size_t{k} * loopRNum : size_t{loopR} * 16 + k;
          r.push_back(m.Vec(row + reg * V, V));
        }
        m.Put(row + size_t{loopR} * V, c.Fold(r), V);
      }
    }
  }
  // foldOne / foldTwo / foldThree / foldZero store to dst only.
}

// ---- AR, rows not of whole blocks, R >= V: in place in src (registers r, r + L, ... a fold) ----
void ARUnaligned(Ctx& c, uint32_t dimA, uint32_t dimR, bool b64) {
  const uint32_t V = c.V;
  if (dimR < V) return;  // the register reduction of the row, to dst
  const uint32_t mainR = CalculateMainR(dimR, true, V);
  const uint32_t tailR = dimR - mainR;
  const uint32_t base = mainR / V;
  const uint32_t avgFolds = b64 ? 3 : 4;
  const uint32_t mainTimes = CalculateFolds(base) / avgFolds;
  const uint32_t inplaceRepeats = CeilDiv(tailR, V);
  const uint32_t tailA = tailR % V;  // postUpdateStrideTail
  Mem& m = c.m;
  if (tailR > 0) {
    for (uint32_t a = 0; a < dimA; ++a) {
      const size_t row = c.s + size_t{a} * dimR;
      for (uint32_t r = 0; r + 1 < inplaceRepeats; ++r) {
        const size_t o = row + size_t{r} * V;
        m.Put(o, c.Bin(m.Vec(o, V), m.Vec(o + mainR, V)), V);
      }
      const size_t o = row + size_t{inplaceRepeats - 1} * V;
      m.Put(o, c.Bin(m.Vec(o, V), m.Vec(o + mainR, V)), tailA);
    }
  }
  uint32_t loopRNum = base;
  for (uint32_t loopMain = 0; loopMain < mainTimes; ++loopMain) {
    loopRNum >>= avgFolds;
    for (uint32_t a = 0; a < dimA; ++a) {
      const size_t row = c.s + size_t{a} * dimR;
      for (uint32_t loopR = 0; loopR < loopRNum; ++loopR) {
        std::vector<std::vector<uint64_t>> r;
        for (uint32_t k = 0; k < (1u << avgFolds); ++k) {
          r.push_back(m.Vec(row + (loopR + size_t{k} * loopRNum) * V, V));
        }
        m.Put(row + size_t{loopR} * V, c.Fold(r), V);
      }
    }
  }
}

// ---- RA, columns of whole blocks ----

// ReduceRAConcatImpl (A <= V/2 or A > 65535): the rows as one run of R * A elements.
void RAConcat(Ctx& c, uint32_t dimA, uint32_t dimR, bool reuse) {
  const uint32_t V = c.V;
  uint32_t foldTime = Floor2Log(dimR);
  uint32_t mainR = 1u << foldTime;
  foldTime = foldTime - 1;
  uint32_t tailR = dimR - mainR;
  if (!reuse && tailR == 0) {
    mainR /= 2;
    tailR = mainR;
    foldTime = foldTime - 1;
  }
  if (dimR <= 2) return;  // DimR1 / DimR2: dst only
  Mem& m = c.m;
  const size_t aTailOffset = size_t{mainR} * dimA;
  uint32_t copyNum = (mainR - tailR) * dimA;
  uint32_t tailNum = tailR * dimA;
  size_t addr = c.s;
  if (!reuse) {
    const uint32_t mainRepeat = CeilDiv(copyNum, V);
    for (uint32_t i = 0; i < mainRepeat; ++i) {
      const uint32_t n = UpdateMask(copyNum, V);
      const size_t o = tailNum + size_t{i} * V;
      m.Put(c.w + o, m.Vec(c.s + o, V), n);
    }
    addr = c.w;
  }
  if (tailR > 0) {
    const uint32_t tailRepeat = CeilDiv(tailNum, V);
    for (uint32_t i = 0; i < tailRepeat; ++i) {
      const uint32_t n = UpdateMask(tailNum, V);
      const size_t o = size_t{i} * V;
      m.Put(addr + o, c.Bin(m.Vec(c.s + o, V), m.Vec(c.s + aTailOffset + o, V)), n);
    }
  }
  for (uint32_t fold = 0; fold < foldTime; ++fold) {
    mainR >>= 1;
    const size_t foldDataNum = size_t{mainR} * dimA;
    const uint32_t foldRepeat = CeilDiv(static_cast<uint32_t>(foldDataNum), V);
    for (uint32_t i = 0; i < foldRepeat; ++i) {
      const size_t o = addr + size_t{i} * V;
      m.Put(o, c.Bin(m.Vec(o, V), m.Vec(o + foldDataNum, V)), V);  // fullMask
    }
  }
}

// ReduceRALessThanVLImpl (V/2 < A <= V): 16 consecutive rows a fold.
void RALessThanVL(Ctx& c, uint32_t dimA, uint32_t dimR, bool reuse) {
  const uint32_t V = c.V;
  uint32_t mainR = CalculateMainR(dimR, false, V);
  uint32_t tailR = dimR - mainR;
  if (!reuse && tailR == 0) {
    mainR /= 2;
    tailR = mainR;
  }
  if (dimR == 1) return;
  Mem& m = c.m;
  const uint32_t mainTimes = CalculateFolds(mainR) / 4;
  const size_t aTailOffset = size_t{mainR} * dimA;
  uint32_t copyNum = (mainR - tailR) * dimA;
  uint32_t tailNum = tailR * dimA;
  size_t addr = c.s;
  if (!reuse) {
    const uint32_t mainRepeat = CeilDiv(copyNum, V);
    for (uint32_t i = 0; i < mainRepeat; ++i) {
      const uint32_t n = UpdateMask(copyNum, V);
      const size_t o = tailNum + size_t{i} * V;
      m.Put(c.w + o, m.Vec(c.s + o, V), n);
    }
    addr = c.w;
  }
  if (tailR > 0) {
    const uint32_t tailRepeat = CeilDiv(tailNum, V);
    for (uint32_t i = 0; i < tailRepeat; ++i) {
      const uint32_t n = UpdateMask(tailNum, V);
      const size_t o = size_t{i} * V;
      m.Put(addr + o, c.Bin(m.Vec(c.s + o, V), m.Vec(c.s + aTailOffset + o, V)), n);
    }
  }
  uint32_t loopRNum = mainR;
  for (uint32_t loopMain = 0; loopMain < mainTimes; ++loopMain) {
    loopRNum >>= 4;
    for (uint32_t loopR = 0; loopR < loopRNum; ++loopR) {
      std::vector<std::vector<uint64_t>> r;
      for (uint32_t k = 0; k < 16; ++k)
        r.push_back(m.Vec(addr + (size_t{loopR} * 16 + k) * dimA, V));
      m.Put(addr + size_t{loopR} * dimA, c.Fold(r), dimA);
    }
  }
}

// ReduceRAOverVLImpl (A > V, 16 rows r, r + L, ... a fold) and ReduceRAB64ReuseSource (any A,
// 8 rows a fold): per register of columns.
void RAOverVL(Ctx& c, uint32_t dimA, uint32_t dimR, bool reuse, bool b64) {
  const uint32_t V = c.V;
  uint32_t mainR = CalculateMainR(dimR, false, V);
  uint32_t tailR = dimR - mainR;
  const uint32_t loopANum = CeilDiv(dimA, V);
  if (mainR == 1) return;  // ReduceCopyOutImpl to dst
  if (!reuse && tailR == 0 && mainR > 1) {
    mainR /= 2;
    tailR = mainR;
  }
  const uint32_t avgFolds = b64 ? 3 : 4;
  const uint32_t mainTimes = CalculateFolds(mainR) / avgFolds;
  const size_t aTailOffset = size_t{mainR} * dimA;
  Mem& m = c.m;
  size_t addr = c.s;
  if (!reuse) {
    uint32_t copyA = dimA;
    for (uint32_t loopA = 0; loopA < loopANum; ++loopA) {
      const uint32_t n = UpdateMask(copyA, V);
      for (uint32_t loopR = tailR; loopR < mainR; ++loopR) {
        const size_t o = size_t{loopA} * V + size_t{loopR} * dimA;
        m.Put(c.w + o, m.Vec(c.s + o, V), n);
      }
    }
    addr = c.w;
  }
  if (!b64 && mainR == 1) return;  // noNeedCopy: dst = row 0 op row 1
  if (tailR > 0) {
    uint32_t inplaceA = dimA;
    for (uint32_t loopA = 0; loopA < loopANum; ++loopA) {
      const uint32_t n = UpdateMask(inplaceA, V);
      for (uint32_t loopR = 0; loopR < tailR; ++loopR) {
        const size_t o = size_t{loopA} * V + size_t{loopR} * dimA;
        m.Put(addr + o, c.Bin(m.Vec(c.s + o, V), m.Vec(c.s + aTailOffset + o, V)), n);
      }
    }
  }
  uint32_t loopRNum = mainR;
  for (uint32_t loopMain = 0; loopMain < mainTimes; ++loopMain) {
    loopRNum >>= avgFolds;
    const size_t offsetR = size_t{loopRNum} * dimA;
    uint32_t mainA = dimA;
    for (uint32_t loopA = 0; loopA < loopANum; ++loopA) {
      const uint32_t n = UpdateMask(mainA, V);
      for (uint32_t loopR = 0; loopR < loopRNum; ++loopR) {
        const size_t o = addr + size_t{loopA} * V + size_t{loopR} * dimA;
        std::vector<std::vector<uint64_t>> r;
        for (uint32_t k = 0; k < (1u << avgFolds); ++k) r.push_back(m.Vec(o + k * offsetR, V));
        m.Put(o, c.Fold(r), n);
      }
    }
  }
}

// ---- RA, columns not of whole blocks: in place in src, dimA elements a row ----
void RAUnaligned(Ctx& c, uint32_t dimA, uint32_t dimR, bool b64) {
  const uint32_t V = c.V;
  const uint32_t mainR = CalculateMainR(dimR, false, V);
  const uint32_t tailR = dimR - mainR;
  const uint32_t avgFolds = b64 ? 3 : 4;
  const uint32_t mainTimes = CalculateFolds(mainR) / avgFolds;
  const uint32_t loopANum = CeilDiv(dimA, V);
  const uint32_t tailA = dimA % V;  // postUpdateStrideTail
  Mem& m = c.m;
  // One row's registers: loopANum - 1 whole, then tailA elements.
  auto row_op = [&](size_t out, const std::vector<size_t>& rows) {
    for (uint32_t loopA = 0; loopA < loopANum; ++loopA) {
      std::vector<std::vector<uint64_t>> r;
      for (size_t in : rows) r.push_back(m.Vec(in + size_t{loopA} * V, V));
      m.Put(out + size_t{loopA} * V, c.Fold(r), loopA + 1 < loopANum ? V : tailA);
    }
  };
  for (uint32_t loopR = 0; loopR < tailR; ++loopR) {
    const size_t row = c.s + size_t{loopR} * dimA;
    row_op(row, {row, row + size_t{mainR} * dimA});
  }
  uint32_t loopRNum = mainR;
  for (uint32_t loopMain = 0; loopMain < mainTimes; ++loopMain) {
    loopRNum >>= avgFolds;
    for (uint32_t loopR = 0; loopR < loopRNum; ++loopR) {
      std::vector<size_t> rows;
      for (uint32_t k = 0; k < (1u << avgFolds); ++k) {
        rows.push_back(c.s + (loopR + size_t{k} * loopRNum) * dimA);
      }
      row_op(c.s + size_t{loopR} * dimA, rows);
    }
  }
}

void Dispatch(Ctx& c, const ReduceCall& call) {
  const uint32_t es = SizeOf(call.ty);
  const bool b64 = es == 8;
  const bool aligned = (call.last * es) % 32 == 0;
  if (!call.ra) {
    const uint32_t A = call.first, R = call.last;
    if (call.api == Api::kSumMaxMin && !aligned && !(R == 1 && !b64)) {
      ARUnaligned(c, A, R, b64);
    } else if (R > c.V) {
      AROverVL(c, A, R, call.reuse, b64);
    }
    return;
  }
  const uint32_t R = call.first, A = call.last;
  if (call.api == Api::kSumMaxMin && !aligned) {
    RAUnaligned(c, A, R, b64);
  } else if (b64) {
    RAOverVL(c, A, R, call.reuse, true);
  } else if (A <= c.V / 2 || A > 65535) {
    RAConcat(c, A, R, call.reuse);
  } else if (A <= c.V) {
    RALessThanVL(c, A, R, call.reuse);
  } else {
    RAOverVL(c, A, R, call.reuse, false);
  }
}

uint32_t Lanes(Ty t) { return SizeOf(t) == 8 ? 64 : 256 / SizeOf(t); }

// ---- Sum and Mean: the register ReduceSum of each V-lane chunk, level by level ----

// Reg::ReduceSum over the first n of V lanes: the adjacent-pair tree, inactive lanes taking no
// part (a pair of one active lane gives that lane).
uint64_t RegSum(Ty t, std::vector<uint64_t> v, uint32_t n) {
  std::vector<bool> on(v.size());
  for (size_t k = 0; k < v.size(); ++k) on[k] = k < n;
  for (size_t w = v.size(); w > 1; w /= 2) {
    for (size_t j = 0; j < w / 2; ++j) {
      const bool a = on[2 * j], b = on[2 * j + 1];
      v[j] = a && b ? Apply(Op::kSum, t, v[2 * j], v[2 * j + 1]) : (a ? v[2 * j] : v[2 * j + 1]);
      on[j] = a || b;
    }
  }
  return v[0];
}

}  // namespace

bool ReplayReduce(uint8_t* ub, size_t ubBytes, const ReduceCall& call) {
  const uint32_t es = SizeOf(call.ty);
  Mem m{ub, ubBytes, call.ty, es};
  Ctx c{m, call.op, Lanes(call.ty), call.src / es, call.tmp / es};
  Dispatch(c, call);
  return m.ok;
}

namespace {

void SumMeanOn(Mem& m, const SumCall& call) {
  const Ty ct = call.mean ? call.acc : call.ty;  // ConvType (the scratch's type)
  const uint32_t V = 256 / SizeOf(ct);
  const uint32_t repeatTimes = CeilDiv(call.n, V);
  if (repeatTimes == 1) return;  // straight to dst
  uint32_t totalCnt = 1;
  for (uint32_t dataSize = repeatTimes; dataSize > 1; dataSize = CeilDiv(dataSize, V)) ++totalCnt;
  const size_t offset = size_t{CeilDiv(CeilDiv(call.inner, V), 32)} * 32;
  const uint32_t ses = SizeOf(call.ty), tes = SizeOf(ct);
  Mem src{m.ub, m.bytes, call.ty, ses};
  Mem tmp{m.ub, m.bytes, ct, tes, true, m.track, m.split, 0, 0};
  const size_t s = call.src / ses, w = call.tmp / tes;
  // First level: chunk j of row i from src (half widened to float for Mean<half, float>).
  for (uint32_t i = 0; i < call.outter; ++i) {
    uint32_t count = call.n;
    for (uint32_t j = 0; j < repeatTimes; ++j) {
      const uint32_t n = UpdateMask(count, V);
      std::vector<uint64_t> v = src.Vec(s + size_t{i} * call.inner + size_t{j} * V, V);
      if (ct != call.ty) {
        for (auto& x : v) x = FromFloat(ct, AsFloat(call.ty, x));
      }
      tmp.St(w + i * offset + j, RegSum(ct, v, n));
    }
  }
  --totalCnt;
  uint32_t loopRepeatTimes = repeatTimes;
  while (totalCnt > 1) {  // the last level goes to dst
    const uint32_t calCount = loopRepeatTimes;
    loopRepeatTimes = CeilDiv(loopRepeatTimes, V);
    for (uint32_t i = 0; i < call.outter; ++i) {
      uint32_t count = calCount;
      for (uint32_t j = 0; j < loopRepeatTimes; ++j) {
        const uint32_t n = UpdateMask(count, V);
        const auto v = tmp.Vec(w + i * offset + size_t{j} * V, V);
        tmp.St(w + i * offset + j, RegSum(ct, v, n));
      }
    }
    --totalCnt;
  }
  m.ok = tmp.ok;
  m.srcEnd = std::max(m.srcEnd, tmp.srcEnd);
  m.tmpEnd = std::max(m.tmpEnd, tmp.tmpEnd);
}

constexpr size_t kReachSplit = size_t{8} << 20;  // src at 0, the scratch at 8 MiB

}  // namespace

bool ReplaySumMean(uint8_t* ub, size_t ubBytes, const SumCall& call) {
  Mem m{ub, ubBytes, call.ty, SizeOf(call.ty)};
  SumMeanOn(m, call);
  return m.ok;
}

Reach ReduceReach(const ReduceCall& call) {
  std::vector<uint8_t> img(2 * kReachSplit, 0);
  ReduceCall c2 = call;
  c2.src = 0;
  c2.tmp = kReachSplit;
  const uint32_t es = SizeOf(call.ty);
  Mem m{img.data(), img.size(), call.ty, es};
  m.track = true;
  m.split = kReachSplit;
  Ctx c{m, call.op, Lanes(call.ty), 0, kReachSplit / es};
  Dispatch(c, c2);
  return Reach{m.tmpEnd, m.srcEnd};
}

Reach SumMeanReach(const SumCall& call) {
  std::vector<uint8_t> img(2 * kReachSplit, 0);
  SumCall c2 = call;
  c2.src = 0;
  c2.tmp = kReachSplit;
  Mem m{img.data(), img.size(), call.ty, SizeOf(call.ty)};
  m.track = true;
  m.split = kReachSplit;
  SumMeanOn(m, c2);
  return Reach{m.tmpEnd, m.srcEnd};
}

}  // namespace rm950b
}  // namespace lngrad_replay
