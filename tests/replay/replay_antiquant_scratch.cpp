// AscendAntiQuant's 2201 bfloat16 performance path over its scratch
// (replay_antiquant_scratch.h).
#include "replay_antiquant_scratch.h"

#include <array>
#include <cstring>

#include "replay.h"

namespace lngrad_replay::aqscr {

namespace {

constexpr uint32_t kMaxK = 255;      // ANTIQUANT_MAX_K
constexpr uint32_t kSliceN = 64;     // ANTIQUANT_SINGLE_N_SIZE_BF16
constexpr uint32_t kBlk = 32;        // ONE_BLK_SIZE
constexpr uint32_t kHalfRepBlk = 4;  // HALF_DEFAULT_REPEAT_STRIDE
constexpr uint32_t kDefRepBlk = 8;   // a UnaryRepeatParams' / BinaryRepeatParams' default

// The scratch's bytes, written and read as the instructions do (out of range: the call fails).
struct Mem {
  std::vector<uint8_t>& b;
  bool ok = true;
  float F(uint64_t at) {
    float v = 0;
    if (at + 4 > b.size()) {
      ok = false;
      return v;
    }
    std::memcpy(&v, &b[at], 4);
    return v;
  }
  void PutF(uint64_t at, float v) {
    if (at + 4 > b.size()) {
      ok = false;
      return;
    }
    std::memcpy(&b[at], &v, 4);
  }
  Half H(uint64_t at) {
    Half h{};
    if (at + 2 > b.size()) {
      ok = false;
      return h;
    }
    std::memcpy(&h.bits, &b[at], 2);
    return h;
  }
  void PutH(uint64_t at, Half h) {
    if (at + 2 > b.size()) {
      ok = false;
      return;
    }
    std::memcpy(&b[at], &h.bits, 2);
  }
};

// Source element e (int8_t: byte e; int4b_t: nibble e, the even one low, two's complement).
float Source(const std::vector<uint8_t>& src, bool int4, uint64_t e) {
  if (!int4) return static_cast<float>(static_cast<int8_t>(src[e]));
  const uint8_t byte = src[e / 2];
  const int nib = (e % 2 == 0) ? (byte & 0xf) : (byte >> 4);
  return static_cast<float>(nib >= 8 ? nib - 16 : nib);
}

struct Ctx {
  const PerfScratchCall& c;
  const std::vector<uint8_t>& src;
  std::vector<uint16_t>& dst;
  Mem m;
  uint32_t n = 0;
  bool ok = true;
  void PutDst(uint64_t e, float v) {
    if (e >= dst.size()) {
      ok = false;
      return;
    }
    dst[e] = FloatToBf16Saturate(v).bits;  // Cast<bfloat16_t, float> CAST_RINT
  }
};

// The source element row r, lane l of a Cast<half, int8_t / int4b_t> from element `base` with
// the call's source repeat stride (int8_t: N bytes / 32 blocks; int4b_t: N / 2 / 32 blocks).
uint64_t SrcElem(const Ctx& x, uint64_t base, uint32_t r, uint32_t l) {
  const uint64_t repElems =
      x.c.int4 ? uint64_t{x.n / 2 / kBlk} * kBlk * 2 : uint64_t{x.n / kBlk} * kBlk;
  return base + r * repElems + l;
}

// dst element row r, lane l of the Cast to bfloat16 from `base`: dstRepStride N * 2 / 32 blocks.
uint64_t DstElem(const Ctx& x, uint64_t base, uint32_t r, uint32_t l) {
  return base + uint64_t{r} * (x.n * 2 / kBlk) * (kBlk / 2) + l;
}

// AscendAntiQuantNoTransposePerformance: kc rows from element `base`, the slices of 64 columns.
void Performance(Ctx& x, uint64_t base, uint32_t kc) {
  const uint64_t posOS = uint64_t{x.n} * 4 * 2;                 // N * sizeof(float) * 2
  const uint64_t posCast = posOS + uint64_t{kSliceN} * kc * 2;  // + 64 K halves
  for (uint32_t i = 0; i < x.n / kSliceN; ++i) {
    // Cast<half, int8/int4> normal mode, mask 64, kc repeats, dstRepStride 4 blocks.
    for (uint32_t r = 0; r < kc; ++r) {
      for (uint32_t l = 0; l < kSliceN; ++l) {
        const float v = Source(x.src, x.c.int4, SrcElem(x, base + uint64_t{kSliceN} * i, r, l));
        x.m.PutH(posCast + uint64_t{r} * kHalfRepBlk * kBlk + 2 * l, FloatToHalf(v));
      }
    }
    // Cast<float, half> counter mode, 64 kc elements: repeat by repeat (64 lanes), src stride 4
    // blocks, dst 8: each repeat reads its halves, then writes its floats.
    for (uint32_t r = 0; r < kc; ++r) {
      std::array<float, kSliceN> h{};
      for (uint32_t l = 0; l < kSliceN; ++l) {
        h[l] = HalfToFloat(x.m.H(posCast + uint64_t{r} * kHalfRepBlk * kBlk + 2 * l));
      }
      for (uint32_t l = 0; l < kSliceN; ++l) {
        x.m.PutF(posOS + uint64_t{r} * kDefRepBlk * kBlk + 4 * l, h[l]);
      }
    }
    // Add the offset floats at 64 i (src1RepStride 0), Mul the floats at N + 64 i.
    const uint64_t offAt = uint64_t{kSliceN} * i * 4, scAt = uint64_t{x.n} * 4 + offAt;
    for (uint32_t r = 0; r < kc; ++r) {
      for (uint32_t l = 0; l < kSliceN; ++l) {
        const uint64_t at = posOS + uint64_t{r} * kDefRepBlk * kBlk + 4 * l;
        x.m.PutF(at, x.m.F(at) + x.m.F(offAt + 4 * l));
      }
    }
    for (uint32_t r = 0; r < kc; ++r) {
      for (uint32_t l = 0; l < kSliceN; ++l) {
        const uint64_t at = posOS + uint64_t{r} * kDefRepBlk * kBlk + 4 * l;
        x.m.PutF(at, x.m.F(at) * x.m.F(scAt + 4 * l));
      }
    }
    // Cast<bfloat16_t, float> CAST_RINT to dst[64 i], rows N * 2 / 32 blocks apart.
    for (uint32_t r = 0; r < kc; ++r) {
      for (uint32_t l = 0; l < kSliceN; ++l) {
        x.PutDst(DstElem(x, base + uint64_t{kSliceN} * i, r, l),
                 x.m.F(posOS + uint64_t{r} * kDefRepBlk * kBlk + 4 * l));
      }
    }
  }
}

// AscendAntiQuantNoTransposePerformanceTail: normal mode, mask nTail lanes, kc repeats, from
// element `base` (the caller's offsetSrc + NAlign), the parameters at float `index` = NAlign.
void Tail(Ctx& x, uint64_t base, uint32_t kc, uint32_t nTail) {
  const uint32_t index = x.n / kSliceN * kSliceN;
  const uint64_t posOffset = uint64_t{x.n} * 4, posOS = posOffset * 2;
  const uint64_t posCast = posOS + uint64_t{kSliceN} * kc * 2;
  const uint64_t offAt = uint64_t{index} * 4, scAt = posOffset + uint64_t{index} * 4;
  // int8_t: dstRepStride HALF_DEFAULT_REPEAT_STRIDE (int4b_t's tail never runs here: N % 64).
  for (uint32_t r = 0; r < kc; ++r) {
    for (uint32_t l = 0; l < nTail; ++l) {
      const float v = Source(x.src, x.c.int4, SrcElem(x, base, r, l));
      x.m.PutH(posCast + uint64_t{r} * kHalfRepBlk * kBlk + 2 * l, FloatToHalf(v));
    }
  }
  // Cast<float, half>, still normal mode (mask nTail): src stride 4 blocks, dst 8.
  for (uint32_t r = 0; r < kc; ++r) {
    std::array<float, kSliceN> h{};
    for (uint32_t l = 0; l < nTail; ++l) {
      h[l] = HalfToFloat(x.m.H(posCast + uint64_t{r} * kHalfRepBlk * kBlk + 2 * l));
    }
    for (uint32_t l = 0; l < nTail; ++l) {
      x.m.PutF(posOS + uint64_t{r} * kDefRepBlk * kBlk + 4 * l, h[l]);
    }
  }
  for (uint32_t r = 0; r < kc; ++r) {
    for (uint32_t l = 0; l < nTail; ++l) {
      const uint64_t at = posOS + uint64_t{r} * kDefRepBlk * kBlk + 4 * l;
      x.m.PutF(at, x.m.F(at) + x.m.F(offAt + 4 * l));
    }
  }
  for (uint32_t r = 0; r < kc; ++r) {
    for (uint32_t l = 0; l < nTail; ++l) {
      const uint64_t at = posOS + uint64_t{r} * kDefRepBlk * kBlk + 4 * l;
      x.m.PutF(at, x.m.F(at) * x.m.F(scAt + 4 * l));
    }
  }
  for (uint32_t r = 0; r < kc; ++r) {
    for (uint32_t l = 0; l < nTail; ++l) {
      x.PutDst(DstElem(x, base, r, l), x.m.F(posOS + uint64_t{r} * kDefRepBlk * kBlk + 4 * l));
    }
  }
}

}  // namespace

bool Bf16PerformanceScratch(const PerfScratchCall& c, const std::vector<uint8_t>& src,
                            std::vector<uint16_t>& dst, std::vector<uint8_t>& tmp) {
  if (c.k == 0) return false;
  const uint32_t n = c.srcSize / c.k;
  // AntiQuantCheckPerformanceMode: scale.GetSize() * 2 floats + 64 K floats.
  const uint64_t need = uint64_t{c.scale.size()} * 2 * 4 + uint64_t{kSliceN} * c.k * 4;
  if (tmp.size() < need) return false;
  if (c.int4 ? n % 64 != 0 : (n % 16 != 0 || (n % 32 != 0 && c.k > kMaxK))) return false;
  if (c.scale.size() < c.offset.size()) return false;
  Ctx x{c, src, dst, Mem{tmp}, n};
  // PreCast: counter mask offset.GetSize(): the offset's floats at 0, the scale's after them.
  const uint64_t so = c.offset.size();
  for (uint64_t j = 0; j < so; ++j) x.m.PutF(4 * j, Bf16ToFloat(Bf16{c.offset[j]}));
  for (uint64_t j = 0; j < so; ++j) x.m.PutF(4 * so + 4 * j, Bf16ToFloat(Bf16{c.scale[j]}));
  const uint32_t nTail = n % kSliceN, nAlign = n - nTail;
  const auto call = [&](uint64_t offsetSrc, uint32_t kc) {
    Performance(x, offsetSrc, kc);
    if (nTail > 0) Tail(x, offsetSrc + nAlign, kc, nTail);
  };
  for (uint32_t i = 0; i < c.k / kMaxK; ++i) call(uint64_t{i} * kMaxK * n, kMaxK);
  if (c.k % kMaxK > 0) call(uint64_t{c.k / kMaxK} * kMaxK * n, c.k % kMaxK);
  return x.ok && x.m.ok;
}

}  // namespace lngrad_replay::aqscr
