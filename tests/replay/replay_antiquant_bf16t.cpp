// The transposed bfloat16 AscendAntiQuant of arch 2201 (replay_antiquant_bf16t.h).
#include "replay_antiquant_bf16t.h"

#include <algorithm>
#include <cstring>

#include "replay.h"

namespace lngrad_replay::aqbf16t {

namespace {

constexpr uint32_t kSlice = 64;      // ANTIQUANT_SINGLE_N_SIZE: columns per slice, lanes per row
constexpr uint32_t kBlock = 8;       // ANTIQUANT_BRCB_BASE: floats per block
constexpr uint32_t kMaxK = 255 * 8;  // ANTIQUANT_MAX_K * ANTIQUANT_BRCB_BASE

// sharedTmpBuffer as the device addresses it: floats and halves over the same bytes.
struct Scratch {
  std::vector<uint8_t>& bytes;
  float F(uint64_t i) const {
    float v = 0;
    std::memcpy(&v, bytes.data() + 4 * i, 4);
    return v;
  }
  void SetF(uint64_t i, float v) { std::memcpy(bytes.data() + 4 * i, &v, 4); }
  float H(uint64_t i) const {
    Half h{};
    std::memcpy(&h.bits, bytes.data() + 2 * i, 2);
    return HalfToFloat(h);
  }
  void SetH(uint64_t i, float v) {
    const Half h = FloatToHalf(v);  // the values are small integers: exact
    std::memcpy(bytes.data() + 2 * i, &h.bits, 2);
  }
};

uint32_t ScaleElements(const Call& c) { return c.int4 ? c.scaleRows : c.scaleSize; }
uint32_t RowsOut(const Call& c) { return c.int4 ? c.scaleRows : c.srcSize / c.k; }

// Brcb, repeat by repeat: 8 floats from `from`, each into a block of 8 at `to` + 64 i + 8 b.
void Brcb(Scratch& s, uint64_t to, uint64_t from, uint32_t elements) {
  const uint8_t repeats = static_cast<uint8_t>((elements + kBlock - 1) / kBlock);
  for (uint32_t i = 0; i < repeats; ++i) {
    float v[kBlock];
    for (uint32_t b = 0; b < kBlock; ++b) v[b] = s.F(from + kBlock * i + b);
    for (uint32_t b = 0; b < kBlock; ++b) {
      for (uint32_t l = 0; l < kBlock; ++l) s.SetF(to + kSlice * i + kBlock * b + l, v[b]);
    }
  }
}

void BrcbPath(const Call& c, const std::vector<int8_t>& src, Scratch& s,
              std::vector<uint16_t>& dst) {
  const uint64_t S = c.scaleSize, so = c.offsetSize;
  const uint32_t sEN = ScaleElements(c), shapeN = RowsOut(c);
  const uint64_t offB = 0, sclB = kBlock * S, inB = 2 * kBlock * S;
  const uint64_t at = kBlock * so - so;  // tensorIndex: 7 * offset.GetSize()
  if (c.withOffset) {
    for (uint32_t e = 0; e < sEN; ++e) s.SetF(offB + at + e, Bf16ToFloat(Bf16{c.offset[e]}));
  }
  for (uint32_t e = 0; e < sEN; ++e) s.SetF(sclB + at + e, Bf16ToFloat(Bf16{c.scale[e]}));
  if (c.withOffset) Brcb(s, offB, offB + at, sEN);
  Brcb(s, sclB, sclB + at, sEN);
  const uint64_t halfAt = 2 * (inB + uint64_t{kSlice} * sEN / 2);  // in halves
  const uint8_t castRows = static_cast<uint8_t>(sEN), outRows = static_cast<uint8_t>(shapeN);
  for (uint32_t i = 0; i < c.k / kSlice; ++i) {
    const uint64_t col = uint64_t{kSlice} * i;
    for (uint32_t r = 0; r < castRows; ++r) {
      for (uint32_t l = 0; l < kSlice; ++l) {
        s.SetH(halfAt + uint64_t{kSlice} * r + l, src[uint64_t{r} * c.k + col + l]);
      }
    }
    for (uint32_t r = 0; r < castRows; ++r) {  // one repeat: read its halves, then write
      float v[kSlice];
      for (uint32_t l = 0; l < kSlice; ++l) v[l] = s.H(halfAt + uint64_t{kSlice} * r + l);
      for (uint32_t l = 0; l < kSlice; ++l) s.SetF(inB + uint64_t{kSlice} * r + l, v[l]);
    }
    if (c.withOffset) {
      for (uint64_t r = 0; r < sEN; ++r) {
        for (uint32_t l = 0; l < kSlice; ++l) {
          const uint64_t e = inB + kSlice * r + l;
          s.SetF(e, s.F(e) + s.F(offB + kBlock * r + l % kBlock));
        }
      }
    }
    for (uint64_t r = 0; r < sEN; ++r) {
      for (uint32_t l = 0; l < kSlice; ++l) {
        const uint64_t e = inB + kSlice * r + l;
        s.SetF(e, s.F(e) * s.F(sclB + kBlock * r + l % kBlock));
      }
    }
    for (uint32_t r = 0; r < outRows; ++r) {
      for (uint32_t l = 0; l < kSlice; ++l) {
        dst[uint64_t{r} * c.k + col + l] =
            FloatToBf16Saturate(s.F(inB + uint64_t{kSlice} * r + l)).bits;
      }
    }
  }
}

// AntiQuantImplScalar with a tensor offset (or, scale-only, none) and the bfloat16
// AntiQuantInnerLoop's scalar form: (float(src) + float(offset)) * float(scale), one Cast.
// Session 16 (helper aqn3), the scratch: each (row, group) call is AntiQuantOuterLoop over
// groupSize elements in chunks of tmpSize = sharedTmpBuffer bytes / sizeof(bfloat16_t) / 4 (the
// tail too); each chunk of n casts the source to halves at byte 2 n, those to floats at float
// 0 (counter mode: floats [0, n), over the halves), adds and multiplies there and casts the
// floats to dst: floats [0, n) keep the product, chunk after chunk.
// Session 16 (helper aqn4), int4b_t: the call's src[i * K + j * groupSize] and the chunk's
// src[c * tmpSize] are LocalTensor::operator[] of a half-byte type, which moves the address by
// offset / 2 bytes: a call or chunk at an odd element reads from the nibble before it.
void Fallback(const Call& c, const std::vector<int8_t>& src, std::vector<uint8_t>& tmp,
              std::vector<uint16_t>& dst) {
  Scratch s{tmp};
  const uint32_t rows = c.srcSize / c.k;
  const uint32_t groupSize = c.k / c.groups;
  const uint32_t perRow = c.k / groupSize;
  const uint64_t tmpSize = tmp.size() / 2 / 4;
  for (uint32_t i = 0; i < rows; ++i) {
    for (uint32_t j = 0; j < perRow; ++j) {
      const uint64_t p = uint64_t{i} * perRow + j;
      const float o = c.withOffset ? Bf16ToFloat(Bf16{c.offset[p]}) : 0.0f;
      const float sc = Bf16ToFloat(Bf16{c.scale[p]});
      const uint64_t base = uint64_t{i} * c.k + uint64_t{j} * groupSize;
      for (uint64_t t = 0; t < groupSize; t += tmpSize) {
        const uint64_t n = std::min<uint64_t>(tmpSize, groupSize - t);
        for (uint64_t l = 0; l < n; ++l) {
          // int4b_t: src[base] and the chunk's src[t] start at the nibble below an odd element.
          const uint64_t at = c.int4 ? 2 * (base / 2) + 2 * (t / 2) + l : base + t + l;
          float v = static_cast<float>(src[at]);
          if (c.withOffset) v = v + o;
          v = v * sc;
          s.SetF(l, v);
          dst[base + t + l] = FloatToBf16Saturate(v).bits;
        }
      }
    }
  }
}

}  // namespace

bool TakesBrcb(const Call& c) { return c.k % kSlice == 0 && c.k <= kMaxK; }

uint64_t BrcbScratchFloats(const Call& c) {
  const uint64_t sEN = std::max<uint32_t>(ScaleElements(c), 1);
  const uint64_t S = c.scaleSize, at = uint64_t{kBlock} * c.offsetSize - c.offsetSize;
  const uint64_t repeats = static_cast<uint8_t>((sEN + kBlock - 1) / kBlock);
  return std::max({2 * kBlock * S + kSlice * sEN,       // the input area
                   kBlock * S + kSlice * repeats,       // the scale's blocks
                   kBlock * S + at + kBlock * repeats,  // what the scale's Brcb reads
                   kBlock * S + at + sEN});             // the scale's cast values
}

bool Run(const Call& c, const std::vector<int8_t>& src, std::vector<uint8_t>& tmp,
         std::vector<uint16_t>& dst) {
  if (c.k == 0) return false;
  if (!TakesBrcb(c)) {
    if (c.groups == 0 || c.k / c.groups == 0 || src.size() < c.srcSize || dst.size() < c.srcSize) {
      return false;
    }
    const uint64_t params = uint64_t{c.srcSize / c.k} * (c.k / (c.k / c.groups));
    if (c.scale.size() < params || (c.withOffset && c.offset.size() < params)) return false;
    if (tmp.size() < 8) return false;  // tmpSize 0: the source divides by it
    Fallback(c, src, tmp, dst);
    return true;
  }
  const uint32_t sEN = ScaleElements(c);
  const uint64_t srcRows = static_cast<uint8_t>(sEN);  // the source rows cast
  if (src.size() < srcRows * c.k || dst.size() < uint64_t{RowsOut(c)} * c.k ||
      tmp.size() < 4 * BrcbScratchFloats(c) || c.scale.size() < sEN ||
      (c.withOffset && c.offset.size() < sEN)) {
    return false;
  }
  Scratch s{tmp};
  BrcbPath(c, src, s, dst);
  return true;
}

}  // namespace lngrad_replay::aqbf16t
