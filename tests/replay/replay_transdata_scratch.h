// Replay of TransData's four conversions on 2201 (the kit compiles it for the 950 and A2/A3):
// what the sequence leaves in dst and in the scratch (sharedTmpBuffer or the stack buffer).
//
// Provenance: written by helper tr (session 19) from the kit's source only, before changing
// lngrad's lib/transpose/transdata.h (whose element map the same helper had read before, not
// while writing this); a separate reading by the same helper. Files read (mirror-cann+asc-devkit,
// HEAD 82b89a15f): impl/adv_api/detail/transpose/transdata/transdata_impl.h, whole
// (DC1Hwn1n0c0ToC1DHwn1n0c0HWAlign, C1Dhwn1n0c0ToC1C0Dhwn1n0, C1c0dhwN1n0ToNcdhw,
// TransDataFractalToNcdhw, TransDataImplNcdhwToFractal, TransDataImplNcdhwTo6Hd,
// TransDataImpl6HdToNcdhw, TransDataImpl: n1, c1 and padHw = ceil(h * w / 16) * 16);
// include/adv_api/transpose/transdata.h (the two overloads). Instruction semantics, as the
// pages state them: TransDataTo5HD (16-bit) per repeat r takes source block k at srcList[k] + r *
// srcRepStride * 32 bytes and writes destination block j at dstList[j] + r * dstRepStride * 32,
// element k of block j = element j of source block k; repeatTimes is a uint8_t (0: nothing);
// DataCopy UB -> UB with DataCopyParams {blockCount, blockLen, srcStride, dstStride} (uint16_t,
// in 32-byte blocks; each block's source and destination advance by blockLen + stride);
// Duplicate writes count elements. The kit's int32_t arithmetic and its narrowing into those
// uint8_t / uint16_t fields are kept. Every block is checked to lie inside the tensor its address
// was built from; the replay reports false otherwise. Moves only (the elements are bit patterns;
// every type is run as 16-bit data, as the kit does through half).
#pragma once

#include <cstdint>
#include <cstring>

namespace lngrad_replay::transdata_scratch {

enum Region { kSrc = 0, kDst = 1, kTmp = 2 };

// An address: a region and a byte offset in it.
struct Addr {
  Region r;
  int64_t at;
};

class Ub {
 public:
  Ub(uint8_t* src, uint64_t srcBytes, uint8_t* dst, uint64_t dstBytes, uint8_t* tmp,
     uint64_t tmpBytes)
      : p_{src, dst, tmp}, n_{srcBytes, dstBytes, tmpBytes} {}
  bool ok() const { return ok_; }

  uint8_t* At(Addr a, uint64_t len) {
    if (a.at < 0 || static_cast<uint64_t>(a.at) + len > n_[a.r]) {
      ok_ = false;
      return nullptr;
    }
    return p_[a.r] + a.at;
  }

  void Trans(const Addr d[16], const Addr s[16], uint8_t repeat, uint16_t dstRep, uint16_t srcRep) {
    for (uint32_t r = 0; r < repeat && ok_; ++r) {
      uint16_t in[16][16];
      for (int k = 0; k < 16; ++k) {
        const uint8_t* b = At({s[k].r, s[k].at + int64_t{r} * srcRep * 32}, 32);
        if (b == nullptr) return;
        std::memcpy(in[k], b, 32);
      }
      for (int j = 0; j < 16; ++j) {
        uint8_t* b = At({d[j].r, d[j].at + int64_t{r} * dstRep * 32}, 32);
        if (b == nullptr) return;
        uint16_t out[16];
        for (int k = 0; k < 16; ++k) out[k] = in[k][j];
        std::memcpy(b, out, 32);
      }
    }
  }

  void Copy(Addr d, Addr s, uint16_t count, uint16_t len, uint16_t srcStride, uint16_t dstStride) {
    for (uint32_t b = 0; b < count && ok_; ++b) {
      const uint8_t* from = At({s.r, s.at + int64_t{b} * (len + srcStride) * 32}, len * 32u);
      uint8_t* to = At({d.r, d.at + int64_t{b} * (len + dstStride) * 32}, len * 32u);
      if (from == nullptr || to == nullptr) return;
      std::memmove(to, from, len * 32u);
    }
  }

  void Zero(Addr d, int32_t count) {
    if (count <= 0) return;
    uint8_t* to = At(d, uint64_t(count) * 2);
    if (to != nullptr) std::memset(to, 0, uint64_t(count) * 2);
  }

 private:
  uint8_t* p_[3];
  uint64_t n_[3];
  bool ok_ = true;
};

struct Dims {
  int32_t n, c, d, h, w;
};

constexpr int32_t kN0 = 16, kC0 = 16, kBlk = 16;  // n0, c0, elements of a 32-byte block

inline int32_t DivUp(int32_t a, int32_t b) { return (a + b - 1) / b; }

// TransDataTo5HD with the kit's rule: repeat 1 takes strides 0.
inline void Trans(Ub& ub, const Addr d[16], const Addr s[16], int32_t repeat, int32_t dstRep,
                  int32_t srcRep) {
  const auto r = static_cast<uint8_t>(repeat);
  ub.Trans(d, s, r, r == 1 ? 0 : static_cast<uint16_t>(dstRep),
           r == 1 ? 0 : static_cast<uint16_t>(srcRep));
}

// NCDHW -> FRACTAL_Z_3D (TransDataImplNcdhwToFractal). Offsets in elements (* 2 for bytes).
inline bool NcdhwToFractal(const Dims& m, Ub& ub) {
  const int32_t c1 = DivUp(m.c, kC0), n1 = DivUp(m.n, kN0);
  const int32_t hw = m.h * m.w, padHw = DivUp(hw, kBlk) * kBlk;
  int32_t axis = m.c * m.d * padHw;
  int32_t dup = axis;
  if (m.d * hw * n1 * kN0 > dup) dup = m.d * hw * n1 * kN0;
  ub.Zero({kTmp, 0}, dup);
  const int64_t tdst = int64_t{dup} * 2;  // tmpDstTensor, bytes into the scratch
  const bool padded = padHw != hw;
  Addr d[16], s[16];
  // step 1: n1 transposes, N split into n1 x n0; rows past n read the zeros at the scratch's start.
  for (int32_t j = 0; j < n1; ++j) {
    const Addr base =
        padded ? Addr{kTmp, tdst + int64_t{j} * kN0 * 2} : Addr{kDst, int64_t{j} * kN0 * 2};
    const int32_t remain = j == n1 - 1 ? m.n - j * kN0 : kN0;
    for (int i = 0; i < 16; ++i) d[i] = {base.r, base.at + int64_t{i} * n1 * kN0 * 2};
    for (int i = 0; i < 16; ++i) {
      s[i] = i < remain ? Addr{kSrc, (int64_t{j} * axis * kN0 + int64_t{i} * axis) * 2}
                        : Addr{kTmp, 0};
    }
    Trans(ub, d, s, axis / kBlk, n1 * kN0, 1);
  }
  // step 1.5: drop the padded hw columns.
  if (padded) {
    axis = hw * n1 * kN0;
    ub.Copy({kDst, 0}, {kTmp, tdst}, static_cast<uint16_t>(m.c * m.d),
            static_cast<uint16_t>(axis / kBlk),
            static_cast<uint16_t>((padHw - hw) * n1 * kN0 / kBlk), 0);
  }
  // step 2: c1 transposes, C split into c1 x c0 (rows past c: the zeros).
  axis = m.d * hw * n1 * kN0;
  for (int32_t j = 0; j < c1; ++j) {
    const int64_t off = int64_t{j} * axis * kC0 * 2;
    const int32_t remain = j == c1 - 1 ? m.c - j * kC0 : kC0;
    for (int i = 0; i < 16; ++i) d[i] = {kTmp, tdst + off + int64_t{i} * kC0 * 2};
    for (int i = 0; i < 16; ++i) {
      s[i] = i < remain ? Addr{kDst, off + int64_t{i} * axis * 2} : Addr{kTmp, 0};
    }
    Trans(ub, d, s, axis / kBlk, kC0, 1);
  }
  // step 3: C1 D -> D C1.
  axis = kC0 * hw * n1 * kN0;
  for (int32_t i = 0; i < c1; ++i) {
    ub.Copy({kDst, int64_t{i} * axis * 2}, {kTmp, tdst + int64_t{i} * m.d * axis * 2},
            static_cast<uint16_t>(m.d), static_cast<uint16_t>(axis / kBlk), 0,
            static_cast<uint16_t>((c1 - 1) * axis / kBlk));
  }
  return ub.ok();
}

// NCDHW -> NDC1HWC0 (TransDataImplNcdhwTo6Hd).
inline bool NcdhwTo6Hd(const Dims& m, Ub& ub) {
  const int32_t c1 = DivUp(m.c, kC0), hw = m.h * m.w, padHw = DivUp(hw, kBlk) * kBlk;
  const int32_t hwc0 = hw * kC0, c1hwdc0 = hwc0 * c1 * m.d, padHwd = padHw * m.d;
  const int32_t padHwdc0 = padHw * kC0 * m.d;
  ub.Zero({kTmp, 0}, padHwd);
  const int64_t tdst = int64_t{padHwd} * 2;
  Addr d[16], s[16];
  for (int32_t k = 0; k < m.n; ++k) {
    const int32_t srcStart = k * padHwd * m.c, dstStart = k * c1hwdc0;
    for (int32_t j = 0; j < c1; ++j) {
      const int32_t remain = j == c1 - 1 ? m.c - j * kC0 : kC0;
      for (int i = 0; i < 16; ++i) {
        d[i] = {kTmp, tdst + (int64_t{j} * padHwdc0 + int64_t{i} * kC0) * 2};
      }
      for (int i = 0; i < 16; ++i) {
        s[i] =
            i < remain
                ? Addr{kSrc, (int64_t{srcStart} + int64_t{j} * padHwdc0 + int64_t{i} * padHwd) * 2}
                : Addr{kTmp, 0};
      }
      Trans(ub, d, s, padHwd / kBlk, kC0, 1);
    }
    for (int32_t i = 0; i < c1; ++i) {
      ub.Copy({kDst, (int64_t{dstStart} + int64_t{i} * hwc0) * 2},
              {kTmp, tdst + int64_t{i} * padHwdc0 * 2}, static_cast<uint16_t>(m.d),
              static_cast<uint16_t>(hwc0 / kBlk), static_cast<uint16_t>((padHw - hw) * kC0 / kBlk),
              static_cast<uint16_t>((c1 - 1) * hwc0 / kBlk));
    }
  }
  return ub.ok();
}

// NDC1HWC0 -> NCDHW (TransDataImpl6HdToNcdhw): the scratch's first 512 bytes take the
// transposes' rows past c, staging from byte 512.
inline bool SixHdToNcdhw(const Dims& m, Ub& ub) {
  const int32_t c1 = DivUp(m.c, kC0), hw = m.h * m.w, padHw = DivUp(hw, kBlk) * kBlk;
  const int32_t hwc0 = hw * kC0, c1hwc0 = hwc0 * c1, c1hwdc0 = c1hwc0 * m.d;
  const int32_t padHwd = padHw * m.d, padHwc0 = padHw * kC0, padHwdc0 = padHw * kC0 * m.d;
  const int64_t tdst = 512;
  Addr d[16], s[16];
  for (int32_t k = 0; k < m.n; ++k) {
    const int32_t srcStart = k * c1hwdc0, dstStart = k * padHwd * m.c;
    for (int32_t i = 0; i < m.d; ++i) {
      ub.Copy({kTmp, tdst + int64_t{i} * padHwc0 * 2},
              {kSrc, (int64_t{srcStart} + int64_t{i} * c1hwc0) * 2}, static_cast<uint16_t>(c1),
              static_cast<uint16_t>(hwc0 / kBlk), 0,
              static_cast<uint16_t>((m.d * padHw - hw) * kC0 / kBlk));
    }
    for (int32_t j = 0; j < c1; ++j) {
      const int32_t remain = j == c1 - 1 ? m.c - j * kC0 : kC0;
      for (int i = 0; i < 16; ++i) {
        d[i] =
            i < remain
                ? Addr{kDst, (int64_t{dstStart} + int64_t{j} * padHwdc0 + int64_t{i} * padHwd) * 2}
                : Addr{kTmp, int64_t{i} * 32};
      }
      for (int i = 0; i < 16; ++i) {
        s[i] = {kTmp, tdst + (int64_t{j} * padHwdc0 + int64_t{i} * kC0) * 2};
      }
      Trans(ub, d, s, padHwd / kBlk, 1, kC0);
    }
  }
  return ub.ok();
}

// FRACTAL_Z_3D -> NCDHW (TransDataFractalToNcdhw and the three steps it calls).
inline bool FractalToNcdhw(const Dims& m, Ub& ub) {
  const int32_t c1 = DivUp(m.c, kC0), n1 = DivUp(m.n, kN0), hw = m.h * m.w;
  const int32_t padHw = DivUp(hw, kBlk) * kBlk;
  const bool aligned = m.c == c1 * kC0 && m.n == n1 * kN0;
  // Step A (DC1Hwn1n0c0ToC1DHwn1n0c0HWAlign): into `a` (dst when aligned, else the scratch).
  const Region a = aligned ? kDst : kTmp;
  const int32_t n1n0c0 = n1 * kN0 * kC0, hwAlign = padHw * n1n0c0, hwPad = (padHw - hw) * n1n0c0;
  const int32_t last = hw * n1n0c0;
  ub.Zero({a, 0}, c1 * m.d * padHw * n1 * kN0 * kC0);
  for (int32_t d0 = 0; d0 < m.d; ++d0) {
    ub.Copy({a, int64_t{d0} * hwAlign * 2}, {kSrc, int64_t{d0} * c1 * last * 2},
            static_cast<uint16_t>(c1), static_cast<uint16_t>(last / kBlk), 0,
            static_cast<uint16_t>(((m.d - 1) * hwAlign + hwPad) / kBlk));
  }
  // Step B (C1Dhwn1n0c0ToC1C0Dhwn1n0): `a` -> `b` (the scratch's start when aligned, else the
  // scratch from n1 n0 c1 c0 d padHw elements on).
  const int64_t b = aligned ? 0 : int64_t{n1} * kN0 * c1 * kC0 * m.d * padHw * 2;
  Addr d[16], s[16];
  for (int32_t j = 0; j < c1; ++j) {
    const int64_t out = int64_t{j} * m.d * padHw * n1 * kN0 * kC0;
    for (int i = 0; i < 16; ++i) {
      s[i] = {a, (out + int64_t{i} * kN0) * 2};
      d[i] = {kTmp, b + (out + int64_t{i} * m.d * padHw * n1 * kN0) * 2};
    }
    Trans(ub, d, s, m.d * padHw * n1, kN0 * 2 / 32, 16 * kC0 * 2 / 32);
  }
  // Step C (C1c0dhwN1n0ToNcdhw): `b` -> dst, rows past n to the scratch's start (64 bytes each).
  int32_t currN = m.n;
  for (int32_t j = 0; j < n1; ++j) {
    for (int i = 0; i < 16; ++i) {
      const int64_t to = int64_t{j} * m.d * m.c * padHw * kN0 + int64_t{i} * m.c * m.d * padHw;
      d[i] = kN0 - currN > 0 && i >= currN ? Addr{kTmp, int64_t{i} * 32 * 2} : Addr{kDst, to * 2};
      s[i] = {kTmp, b + (int64_t{j} * kN0 + int64_t{i} * kN0 * n1) * 2};
    }
    Trans(ub, d, s, m.c * m.d * padHw / kN0, kC0 * 2 / 32, 16 * n1 * kN0 * 2 / 32);
    currN -= kN0;
  }
  return ub.ok();
}

}  // namespace lngrad_replay::transdata_scratch
