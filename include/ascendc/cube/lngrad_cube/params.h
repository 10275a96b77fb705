// lngrad Ascend C cube: the parameter structs of LoadData, Mmad and Fixpipe, with the vendor's
// field names, types and defaults (kernel_struct_mm.h, kernel_struct_fixpipe.h).
#pragma once

#include <cstdint>

namespace AscendC {

struct LoadData2DParams {
  LoadData2DParams() = default;
  LoadData2DParams(uint16_t startIndexIn, uint8_t repeatTimesIn, uint16_t srcStrideIn,
                   uint8_t sidIn, uint16_t dstGapIn, bool ifTransposeIn, uint8_t addrModeIn)
      : startIndex(startIndexIn),
        dstGap(dstGapIn),
        srcStride(srcStrideIn),
        ifTranspose(ifTransposeIn),
        repeatTimes(repeatTimesIn),
        sid(sidIn),
        addrMode(addrModeIn) {}
  uint16_t startIndex = 0;
  uint16_t dstGap = 0;
  uint16_t srcStride = 0;
  bool ifTranspose = false;
  uint8_t repeatTimes = 0;
  uint8_t sid = 0;
  uint8_t addrMode = 0;
};
using LoadData2dParams = LoadData2DParams;

struct LoadData2dTransposeParams {
  LoadData2dTransposeParams() = default;
  LoadData2dTransposeParams(uint16_t startIndexIn, uint8_t repeatTimesIn, uint16_t srcStrideIn,
                            uint16_t dstGapIn, uint16_t dstFracGapIn, uint8_t addrModeIn = 0)
      : startIndex(startIndexIn),
        repeatTimes(repeatTimesIn),
        srcStride(srcStrideIn),
        dstGap(dstGapIn),
        dstFracGap(dstFracGapIn),
        addrMode(addrModeIn) {}
  uint16_t startIndex = 0;
  uint8_t repeatTimes = 0;
  uint16_t srcStride = 0;
  uint16_t dstGap = 0;
  uint16_t dstFracGap = 0;
  uint8_t addrMode = 0;
};

struct MmadParams {
  MmadParams() = default;
  MmadParams(uint16_t mIn, uint16_t nIn, uint16_t kIn, bool isBiasIn, int32_t fmOffsetIn,
             bool enSsparseIn, bool enWinogradAIn, bool enWinogradBIn)
      : m(mIn),
        n(nIn),
        k(kIn),
        isBias(isBiasIn),
        fmOffset(fmOffsetIn),
        enSsparse(enSsparseIn),
        enWinogradA(enWinogradAIn),
        enWinogradB(enWinogradBIn) {}
  MmadParams(uint16_t mIn, uint16_t nIn, uint16_t kIn, uint8_t unitFlagIn, bool cmatrixSourceIn,
             bool cmatrixInitValIn)
      : m(mIn),
        n(nIn),
        k(kIn),
        unitFlag(unitFlagIn),
        cmatrixSource(cmatrixSourceIn),
        cmatrixInitVal(cmatrixInitValIn) {}
  uint16_t m = 0;
  uint16_t n = 0;
  uint16_t k = 0;
  bool isBias = false;  // accumulate onto L0C (the older spelling of cmatrixInitVal = false)
  int32_t fmOffset = 0;
  bool enSsparse = false;
  bool enWinogradA = false;
  bool enWinogradB = false;
  uint8_t unitFlag = 0;
  bool kDirectionAlign = false;  // float A: its K fractals in L0A come in pairs (K aligned to 16)
  bool cmatrixSource = false;    // initial C from the BiasTable (true) or L0C (false)
  bool cmatrixInitVal = true;    // initial C is 0
#if __NPU_ARCH__ == 3510
  bool disableGemv = false;
#endif
};

enum QuantMode_t : uint8_t {
  NoQuant = 0,
  F322F16 = 1,
  F322BF16 = 2,
  DEQF16 = 3,
  VDEQF16 = 4,
  QF322B8_PRE = 5,
  VQF322B8_PRE = 6,
  REQ8 = 7,
  VREQ8 = 8,
};

enum class CO2Layout : uint8_t { NZ = 0, ROW_MAJOR, COLUMN_MAJOR };

struct FixpipeParamsV220 {
  FixpipeParamsV220() = default;
  FixpipeParamsV220(uint16_t nSizeIn, uint16_t mSizeIn, uint16_t srcStrideIn, uint32_t dstStrideIn,
                    bool reluEnIn)
      : nSize(nSizeIn),
        mSize(mSizeIn),
        srcStride(srcStrideIn),
        dstStride(dstStrideIn),
        reluEn(reluEnIn) {}
  uint16_t nSize = 0;
  uint16_t mSize = 0;
  uint16_t srcStride = 0;  // L0C: start to start of adjacent 16-column blocks, in 16-element rows
  uint32_t dstStride = 0;  // GM (ND): elements from one row to the next
  QuantMode_t quantPre = QuantMode_t::NoQuant;
  uint64_t deqScalar = 0;
  uint16_t ndNum = 1;
  uint16_t srcNdStride = 0;
  uint16_t dstNdStride = 0;
  bool reluEn = false;
  uint8_t unitFlag = 0;
  bool isChannelSplit = false;
};
using FixpipeParamsM300 = FixpipeParamsV220;

}  // namespace AscendC
