// The stores of the 950's reduce code into src and sharedTmpBuffer (replay_reduce_mem_3510.h),
// walked loop by loop as the kit's register code issues them.
#include "replay_reduce_mem_3510.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "replay.h"

namespace lngrad_replay {
namespace {

uint32_t ElemBytes(const MemCall& c) { return c.integer ? c.bytes : (c.half ? 2 : 4); }

enum class Arr { kSrc, kTmp };

struct VReg {
  std::vector<uint32_t> w;
  std::vector<uint8_t> bad;  // the lane came from past an array's end
};

class Vm {
 public:
  Vm(const MemCall& c, MemState& m) : c_(c), m_(m), vl_(256 / ElemBytes(c)) {}
  uint32_t Vl() const { return vl_; }

  // LoadAlign / LoadUnAlign: vl lanes from element `off`.
  VReg Load(Arr a, uint64_t off) const {
    const std::vector<uint32_t>& v = a == Arr::kSrc ? m_.src : m_.tmp;
    VReg r{std::vector<uint32_t>(vl_, 0), std::vector<uint8_t>(vl_, 0)};
    for (uint32_t l = 0; l < vl_; ++l) {
      if (off + l < v.size()) {
        r.w[l] = v[off + l];
      } else {
        r.bad[l] = 1;
      }
    }
    return r;
  }
  // StoreAlign with a mask of `lanes` leading lanes / StoreUnAlign of `lanes` elements.
  void Store(Arr a, uint64_t off, const VReg& r, uint32_t lanes) {
    std::vector<uint32_t>& v = a == Arr::kSrc ? m_.src : m_.tmp;
    for (uint32_t l = 0; l < lanes; ++l) {
      if (off + l >= v.size() || r.bad[l]) {
        m_.outside = true;
        continue;
      }
      v[off + l] = r.w[l];
    }
  }
  // Binaryfunc(dst, s0, s1, mask) with MaskMergeMode::ZEROING: lanes past the mask become 0.
  VReg Bin(const VReg& s0, const VReg& s1, uint32_t lanes) const {
    VReg r{std::vector<uint32_t>(vl_, 0), std::vector<uint8_t>(vl_, 0)};
    for (uint32_t l = 0; l < lanes && l < vl_; ++l) {
      r.w[l] = Lane(s0.w[l], s1.w[l]);
      r.bad[l] = s0.bad[l] | s1.bad[l];
    }
    return r;
  }
  // The 16-register fold of the main loops: L1 r0..r7 with r8..r15, L2 r0..r3 with r4..r7,
  // L3 r0, r1 with r2, r3, L4 r0 with r1.
  VReg Fold16(std::vector<VReg> v, uint32_t lanes) const {
    for (uint32_t h = 8; h >= 1; h /= 2) {
      for (uint32_t k = 0; k < h; ++k) v[k] = Bin(v[k], v[k + h], lanes);
    }
    return v[0];
  }

 private:
  float Val(uint32_t w) const {
    if (c_.half) return HalfToFloat(Half{static_cast<uint16_t>(w)});
    float f;
    std::memcpy(&f, &w, 4);
    return f;
  }
  static uint32_t Word(float f) {
    uint32_t w;
    std::memcpy(&w, &f, 4);
    return w;
  }
  uint32_t Lane(uint32_t a, uint32_t b) const {
    if (c_.integer) return IntLane(a, b);
    const float x = Val(a), y = Val(b);
    switch (c_.op) {
      case RedOp::kSum:
      case RedOp::kMean:
        return Word(x + y);
      case RedOp::kProd:
        return Word(x * y);
      case RedOp::kMax:
      case RedOp::kAny:
        return std::isnan(x) ? a : std::isnan(y) ? b : (y > x ? b : a);
      case RedOp::kMin:
      case RedOp::kAll:
        return std::isnan(x) ? a : std::isnan(y) ? b : (y < x ? b : a);
    }
    return a;
  }

  // An integer lane: the words read as `bytes`-wide integers (sign-extended when signed).
  uint32_t IntLane(uint32_t a, uint32_t b) const {
    const uint32_t bits = 8 * c_.bytes;
    const uint64_t mask = bits == 32 ? 0xffffffffull : (1ull << bits) - 1;
    auto value = [&](uint32_t w) {
      const uint64_t u = w & mask;
      const bool neg = c_.isSigned && ((u >> (bits - 1)) & 1u);
      return neg ? static_cast<int64_t>(u) - static_cast<int64_t>(mask + 1)
                 : static_cast<int64_t>(u);
    };
    const int64_t x = value(a), y = value(b);
    switch (c_.op) {
      case RedOp::kSum:
      case RedOp::kMean:
        return static_cast<uint32_t>(static_cast<uint64_t>(x + y) & mask);
      case RedOp::kMax:
      case RedOp::kAny:
        return y > x ? b : a;
      default:  // kMin, kAll (integer ReduceProd does not exist)
        return y < x ? b : a;
    }
  }

  const MemCall& c_;
  MemState& m_;
  uint32_t vl_;
};

uint32_t CeilDiv(uint32_t a, uint32_t b) { return (a + b - 1) / b; }
// UpdateMask<T>(sreg): min(sreg, vl) lanes; sreg decreases by them.
uint32_t Update(uint32_t& sreg, uint32_t vl) {
  const uint32_t n = std::min(sreg, vl);
  sreg -= n;
  return n;
}
// CalculateMainR and CalculateFolds (reduce_common_util_3510_impl.h).
uint32_t CalcMainR(uint32_t dimR, bool isAR, uint32_t vl) {
  uint32_t mainR = 1;
  for (uint32_t i = 1; i < 16; ++i) {
    if ((dimR >> i) == 0) break;
    mainR = 1u << i;
  }
  return isAR && dimR < vl ? dimR : mainR;
}
uint32_t CalcFolds(uint32_t count) {
  uint32_t folds = 0;
  for (uint32_t i = 1; i < 16; ++i) {
    if ((count >> i) == 0) break;
    ++folds;
  }
  return folds;
}
// FindClosestPowerOfTwo (reduce_common_util_impl.h): 63 - clz64(n), the floor of log2.
uint32_t FloorLog2(uint32_t n) {
  uint32_t k = 0;
  while ((n >> (k + 1)) != 0) ++k;
  return k;
}

// ReduceAROverVLImpl (ReduceARImpl past a register; ReduceProdARImpl, ReduceAnyARImpl too).
void ArOverVl(Vm& vm, const MemCall& c) {
  const uint32_t vl = vm.Vl(), dimA = c.first;
  uint32_t dimR = c.last;
  uint32_t mainR = CalcMainR(dimR, true, vl), tailR = dimR - mainR;
  const uint32_t dimRAxis = dimR;
  if (!c.reuse) {
    mainR = tailR > 0 ? mainR : mainR / 2;
    tailR = tailR > 0 ? tailR : mainR;
  }
  uint32_t inplaceRepeats, inplaceTail = 0, needInplaceAdd;
  if (c.reuse) {
    inplaceRepeats = CeilDiv(tailR, vl);
    needInplaceAdd = tailR > 0 ? 1 : 0;
  } else {
    inplaceRepeats = tailR / vl;
    inplaceTail = tailR % vl;
    needInplaceAdd = inplaceTail == 0 ? 0 : 1;
  }
  const uint32_t copyRepeats = CeilDiv(mainR, vl), base = mainR / vl;
  const uint32_t mainTimes = CalcFolds(base) / 4;
  Arr addr;
  if (c.reuse) {
    addr = Arr::kSrc;
    for (uint32_t i = 0; i < needInplaceAdd; ++i) {
      uint32_t sreg0 = tailR;
      for (uint32_t loopR = 0; loopR < inplaceRepeats; ++loopR) {
        const uint32_t mask = Update(sreg0, vl);
        for (uint32_t loopA = 0; loopA < dimA; ++loopA) {
          const uint64_t p = uint64_t{loopA} * dimRAxis + loopR * vl;
          const VReg main = vm.Load(Arr::kSrc, p), tail = vm.Load(Arr::kSrc, p + mainR);
          vm.Store(Arr::kSrc, p, vm.Bin(main, tail, mask), mask);
        }
      }
    }
  } else {
    addr = Arr::kTmp;
    const uint32_t dimRTmp = mainR;
    for (uint32_t loopA = 0; loopA < dimA; ++loopA) {
      for (uint32_t loopR = 0; loopR < inplaceRepeats; ++loopR) {
        const uint64_t p = uint64_t{loopA} * dimRAxis + loopR * vl;
        const VReg main = vm.Load(Arr::kSrc, p), tail = vm.Load(Arr::kSrc, p + mainR);
        vm.Store(Arr::kTmp, uint64_t{loopA} * dimRTmp + loopR * vl, vm.Bin(main, tail, vl), vl);
      }
      for (uint32_t loopR = inplaceRepeats; loopR < copyRepeats; ++loopR) {
        const VReg main = vm.Load(Arr::kSrc, uint64_t{loopA} * dimRAxis + loopR * vl);
        vm.Store(Arr::kTmp, uint64_t{loopA} * dimRTmp + loopR * vl, main, vl);
      }
    }
    for (uint32_t i = 0; i < needInplaceAdd; ++i) {
      const uint32_t mask = inplaceTail;
      for (uint32_t loopA = 0; loopA < dimA; ++loopA) {
        const VReg tail =
            vm.Load(Arr::kSrc, uint64_t{loopA} * dimRAxis + mainR + inplaceRepeats * vl);
        const VReg main = vm.Load(Arr::kTmp, uint64_t{loopA} * dimRTmp);
        vm.Store(Arr::kTmp, uint64_t{loopA} * dimRTmp, vm.Bin(main, tail, mask), mask);
      }
    }
    dimR = mainR;
  }
  uint32_t loopRNum = base;
  for (uint32_t loopMain = 0; loopMain < mainTimes; ++loopMain) {
    loopRNum >>= 4;
    for (uint32_t loopA = 0; loopA < dimA; ++loopA) {
      uint64_t p = uint64_t{loopA} * dimR;  // post-update by vl, on across loopR
      for (uint32_t loopR = 0; loopR < loopRNum; ++loopR) {
        std::vector<VReg> v;
        for (uint32_t k = 0; k < 16; ++k, p += vl) v.push_back(vm.Load(addr, p));
        vm.Store(addr, uint64_t{loopA} * dimR + loopR * vl, vm.Fold16(v, vl), vl);
      }
    }
  }
  // foldOne / foldTwo / foldThree / foldZero: registers and dst only.
}

// The unaligned paths' first step: src[main + i] = src[main + i] op src[tail + i] over `regs`
// registers, whole ones then the last on `lastLanes` lanes, stored over the main part.
void FoldTailInPlace(Vm& vm, uint64_t mainP, uint64_t tailP, uint32_t regs, uint32_t lastLanes) {
  const uint32_t vl = vm.Vl();
  for (uint32_t r = 0; r + 1 < regs; ++r, mainP += vl, tailP += vl) {
    vm.Store(Arr::kSrc, mainP, vm.Bin(vm.Load(Arr::kSrc, mainP), vm.Load(Arr::kSrc, tailP), vl),
             vl);
  }
  const VReg main = vm.Load(Arr::kSrc, mainP), tail = vm.Load(Arr::kSrc, tailP);
  vm.Store(Arr::kSrc, mainP, vm.Bin(main, tail, lastLanes), lastLanes);
}

// ReduceAROverVLReuseSourceUnAligned: in src, whatever isReuseSource.
void ArUnalignedOverVl(Vm& vm, const MemCall& c) {
  const uint32_t vl = vm.Vl(), dimA = c.first, dimR = c.last;
  const uint32_t mainR = CalcMainR(dimR, true, vl), tailR = dimR - mainR;
  const uint32_t base = mainR / vl, mainTimes = CalcFolds(base) / 4;
  const uint32_t strideTail = tailR % vl, inplaceRepeats = CeilDiv(tailR, vl);
  for (uint32_t i = 0; i < (tailR > 0 ? 1u : 0u); ++i) {
    for (uint32_t loopA = 0; loopA < dimA; ++loopA) {
      const uint64_t mainP = uint64_t{loopA} * dimR;
      FoldTailInPlace(vm, mainP, mainP + mainR, inplaceRepeats, strideTail);
    }
  }
  uint32_t loopRNum = base;
  for (uint32_t loopMain = 0; loopMain < mainTimes; ++loopMain) {
    loopRNum >>= 4;
    const uint64_t offsetR = uint64_t{loopRNum} * vl;
    for (uint32_t loopA = 0; loopA < dimA; ++loopA) {
      const uint64_t src = uint64_t{loopA} * dimR;
      uint64_t dst = src;
      for (uint32_t loopR = 0; loopR < loopRNum; ++loopR) {
        std::vector<VReg> v;
        for (uint32_t k = 0; k < 16; ++k)
          v.push_back(vm.Load(Arr::kSrc, src + loopR * vl + k * offsetR));
        vm.Store(Arr::kSrc, dst, vm.Fold16(v, vl), vl);
        dst += vl;
      }
    }
  }
}

void ReplayAr(Vm& vm, const MemCall& c) {
  const uint32_t vl = vm.Vl(), bytes = ElemBytes(c);
  const bool branches = c.op == RedOp::kSum || c.op == RedOp::kMean || c.op == RedOp::kMax ||
                        c.op == RedOp::kMin;  // the Compute functions' alignment branch
  if (branches && (c.last * bytes) % 32 != 0 && c.last != 1) {  // ReduceARReuseSourceUnAligned
    if (c.last >= vl) ArUnalignedOverVl(vm, c);                 // below: registers only
    return;
  }
  if (c.last > vl) ArOverVl(vm, c);  // at most a register: LessThanVL / copy, dst only
}

// The tail step of ReduceRALessThanVLVFImpl and ReduceRAConcatVFImpl: without isReuseSource
// elements [tailNum, tailNum + copyNum) copied to the scratch; then elements [0, tailNum) of
// `addr` = src[i] op src[mainR * dimA + i].
Arr FlatTailStep(Vm& vm, const MemCall& c, uint32_t dimA, uint32_t mainR, uint32_t tailR) {
  const uint32_t vl = vm.Vl();
  uint32_t copyNum = (mainR - tailR) * dimA, tailNum = tailR * dimA;
  const uint32_t tailStart = tailNum;
  Arr addr = Arr::kSrc;
  if (!c.reuse) {
    const uint32_t mainRepeat = CeilDiv(copyNum, vl);
    for (uint32_t loopMain = 0; loopMain < mainRepeat; ++loopMain) {
      const uint32_t mask = Update(copyNum, vl);
      const VReg t = vm.Load(Arr::kSrc, tailStart + loopMain * vl);
      vm.Store(Arr::kTmp, tailStart + loopMain * vl, t, mask);
    }
    addr = Arr::kTmp;
  }
  if (tailR > 0) {
    const uint32_t tailRepeat = CeilDiv(tailNum, vl);
    for (uint32_t loopTail = 0; loopTail < tailRepeat; ++loopTail) {
      const uint32_t mask = Update(tailNum, vl);
      const VReg main = vm.Load(Arr::kSrc, loopTail * vl);
      const VReg tail = vm.Load(Arr::kSrc, uint64_t{mainR} * dimA + loopTail * vl);
      vm.Store(addr, loopTail * vl, vm.Bin(main, tail, mask), mask);
    }
  }
  return addr;
}

void RaConcat(Vm& vm, const MemCall& c) {
  const uint32_t vl = vm.Vl(), dimA = c.last, dimR = c.first;
  uint32_t foldTime = FloorLog2(dimR);
  uint32_t mainR = 1u << foldTime;
  foldTime -= foldTime > 0 ? 1 : 0;
  uint32_t tailR = dimR - mainR;
  if (!c.reuse && tailR == 0) {
    mainR /= 2;
    tailR = mainR;
    foldTime -= foldTime > 0 ? 1 : 0;
  }
  if (dimR <= 2) return;  // DimR1 / DimR2: registers and dst only
  const Arr addr = FlatTailStep(vm, c, dimA, mainR, tailR);
  for (uint32_t fold = 0; fold < foldTime; ++fold) {
    mainR >>= 1;
    const uint32_t foldDataNum = mainR * dimA, foldRepeat = CeilDiv(foldDataNum, vl);
    for (uint32_t i = 0; i < foldRepeat; ++i) {
      const VReg main = vm.Load(addr, i * vl), tail = vm.Load(addr, foldDataNum + i * vl);
      vm.Store(addr, i * vl, vm.Bin(main, tail, vl), vl);  // fullMask
    }
  }
}

void RaLessThanVl(Vm& vm, const MemCall& c) {
  const uint32_t dimA = c.last, dimR = c.first;
  uint32_t mainR = CalcMainR(dimR, false, vm.Vl()), tailR = dimR - mainR;
  if (!c.reuse && tailR == 0) {
    mainR /= 2;
    tailR = mainR;
  }
  if (dimR == 1) return;
  const uint32_t mainTimes = CalcFolds(mainR) / 4;
  const Arr addr = FlatTailStep(vm, c, dimA, mainR, tailR);
  uint32_t loopRNum = mainR;
  for (uint32_t loopMain = 0; loopMain < mainTimes; ++loopMain) {
    loopRNum >>= 4;
    uint64_t p = 0;  // tmpSrcAddr = addr, post-update by dimA
    for (uint32_t loopR = 0; loopR < loopRNum; ++loopR) {
      std::vector<VReg> v;
      for (uint32_t k = 0; k < 16; ++k, p += dimA) v.push_back(vm.Load(addr, p));
      vm.Store(addr, uint64_t{loopR} * dimA, vm.Fold16(v, dimA), dimA);
    }
  }
}

void RaOverVl(Vm& vm, const MemCall& c) {
  const uint32_t vl = vm.Vl(), dimA = c.last, dimR = c.first;
  uint32_t mainR = CalcMainR(dimR, false, vl), tailR = dimR - mainR;
  const uint32_t loopANum = CeilDiv(dimA, vl);
  if (mainR == 1) return;  // ReduceCopyOutImpl
  if (!c.reuse && tailR == 0 && mainR > 1) {
    mainR /= 2;
    tailR = mainR;
  }
  const uint32_t mainTimes = CalcFolds(mainR) / 4;
  Arr addr = Arr::kSrc;
  if (!c.reuse) {
    uint32_t copyA = dimA;
    for (uint32_t loopA = 0; loopA < loopANum; ++loopA) {
      const uint32_t mask = Update(copyA, vl);
      for (uint32_t loopR = tailR; loopR < mainR; ++loopR) {
        const uint64_t p = loopA * vl + uint64_t{loopR} * dimA;
        vm.Store(Arr::kTmp, p, vm.Load(Arr::kSrc, p), mask);
      }
    }
    addr = Arr::kTmp;
  }
  if (mainR <= 1) return;  // noNeedCopy: the pair goes to dst
  if (tailR > 0) {
    uint32_t inplaceA = dimA;
    for (uint32_t loopA = 0; loopA < loopANum; ++loopA) {
      const uint32_t mask = Update(inplaceA, vl);
      for (uint32_t loopR = 0; loopR < tailR; ++loopR) {
        const uint64_t p = loopA * vl + uint64_t{loopR} * dimA;
        const VReg main = vm.Load(Arr::kSrc, p);
        const VReg tail = vm.Load(Arr::kSrc, p + uint64_t{mainR} * dimA);
        vm.Store(addr, p, vm.Bin(main, tail, mask), mask);
      }
    }
  }
  uint32_t loopRNum = mainR;
  for (uint32_t loopMain = 0; loopMain < mainTimes; ++loopMain) {
    loopRNum >>= 4;
    const uint64_t offsetR = uint64_t{loopRNum} * dimA;
    uint32_t mainA = dimA;
    for (uint32_t loopA = 0; loopA < loopANum; ++loopA) {
      const uint32_t mask = Update(mainA, vl);
      for (uint32_t loopR = 0; loopR < loopRNum; ++loopR) {
        const uint64_t p = loopA * vl + uint64_t{loopR} * dimA;
        std::vector<VReg> v;
        for (uint32_t k = 0; k < 16; ++k) v.push_back(vm.Load(addr, p + k * offsetR));
        vm.Store(addr, p, vm.Fold16(v, mask), mask);
      }
    }
  }
}

// ReduceRAReuseSourceUnAligned: in src, whatever isReuseSource.
void RaUnaligned(Vm& vm, const MemCall& c) {
  const uint32_t vl = vm.Vl(), dimA = c.last, dimR = c.first;
  const uint32_t mainR = CalcMainR(dimR, false, vl), tailR = dimR - mainR;
  const uint32_t mainTimes = CalcFolds(mainR) / 4, loopANum = CeilDiv(dimA, vl);
  const uint32_t strideTail = dimA % vl;
  for (uint32_t loopR = 0; loopR < tailR; ++loopR) {
    const uint64_t mainP = uint64_t{loopR} * dimA;
    FoldTailInPlace(vm, mainP, mainP + uint64_t{mainR} * dimA, loopANum, strideTail);
  }
  uint32_t loopRNum = mainR;
  for (uint32_t loopMain = 0; loopMain < mainTimes; ++loopMain) {
    loopRNum >>= 4;
    const uint64_t offsetR = uint64_t{loopRNum} * dimA;
    for (uint32_t loopR = 0; loopR < loopRNum; ++loopR) {
      const uint64_t src = uint64_t{loopR} * dimA;
      for (uint32_t loopA = 0; loopA < loopANum; ++loopA) {
        const bool last = loopA + 1 == loopANum;
        const uint32_t lanes = last ? strideTail : vl;
        const uint64_t p = src + uint64_t{loopA} * vl;
        std::vector<VReg> v;
        for (uint32_t k = 0; k < 16; ++k) v.push_back(vm.Load(Arr::kSrc, p + k * offsetR));
        vm.Store(Arr::kSrc, p, vm.Fold16(v, last ? lanes : vl), lanes);
      }
    }
  }
}

void ReplayRa(Vm& vm, const MemCall& c) {
  const uint32_t vl = vm.Vl(), bytes = ElemBytes(c);
  const bool branches =
      c.op == RedOp::kSum || c.op == RedOp::kMean || c.op == RedOp::kMax || c.op == RedOp::kMin;
  if (branches && (c.last * bytes) % 32 != 0) return RaUnaligned(vm, c);
  if (c.last <= vl / 2 || c.last > 65535) return RaConcat(vm, c);
  if (c.last <= vl) return RaLessThanVl(vm, c);
  RaOverVl(vm, c);
}

}  // namespace

void ReplayReduceMem3510(const MemCall& c, MemState& m) {
  Vm vm(c, m);
  if (c.ar) {
    ReplayAr(vm, c);
  } else {
    ReplayRa(vm, c);
  }
}

void ReplaySumMeanScratch3510(const RowsCall& c, const std::vector<float>& src,
                              std::vector<uint32_t>& tmp) {
  const bool convHalf = c.isHalf && !c.accFloat;  // GetConvType: ConvType
  const uint32_t vl = convHalf ? 128 : 64;        // eleCountPerVL of ConvType
  auto word = [&](float v) {
    if (convHalf) return static_cast<uint32_t>(FloatToHalf(v).bits);
    uint32_t w;
    std::memcpy(&w, &v, 4);
    return w;
  };
  auto value = [&](uint32_t w) {
    if (convHalf) return HalfToFloat(Half{static_cast<uint16_t>(w)});
    float f;
    std::memcpy(&f, &w, 4);
    return f;
  };
  const uint32_t repeatTimes = CeilDiv(c.n, vl);
  const uint32_t offset = (CeilDiv(c.inner, vl) + 31) / 32 * 32;  // AlignUp(.., 32)
  uint32_t totalCnt = 1;
  for (uint32_t dataSize = repeatTimes; dataSize > 1; dataSize = CeilDiv(dataSize, vl)) {
    ++totalCnt;
  }
  if (repeatTimes == 1) return;  // SumForOneRepeatTime / MeanForOneRepeatTime: dst only
  // ReduceSumNextN: row i's chunks j of `calCount` (src at i * inner, or the scratch at
  // i * offset), each register sum stored one element after the other from i * offset.
  auto nextN = [&](bool first, uint32_t calCount, uint32_t repeats) {
    for (uint32_t i = 0; i < c.outter; ++i) {
      uint32_t count = calCount;
      for (uint32_t j = 0; j < repeats; ++j) {
        const uint32_t mask = Update(count, vl);
        std::vector<float> lanes(vl, 0.0f);
        for (uint32_t l = 0; l < mask; ++l) {
          lanes[l] = first ? src.at(size_t{i} * c.inner + j * vl + l)
                           : value(tmp.at(size_t{i} * offset + j * vl + l));
        }
        const float sum = RegReduceSum(lanes.data(), mask, vl, convHalf);
        tmp.at(size_t{i} * offset + j) = word(sum);
      }
    }
  };
  nextN(true, c.n, repeatTimes);
  --totalCnt;
  uint32_t loopRepeatTimes = repeatTimes;
  while (totalCnt != 0) {
    const uint32_t calCount = loopRepeatTimes;
    loopRepeatTimes = CeilDiv(loopRepeatTimes, vl);
    if (totalCnt != 1) nextN(false, calCount, loopRepeatTimes);  // 1: the last level, to dst
    --totalCnt;
  }
}

}  // namespace lngrad_replay
