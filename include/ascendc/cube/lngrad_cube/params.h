// lngrad Ascend C cube: the parameter structs of LoadData, Mmad and Fixpipe, with the vendor's
// field names, types and defaults (kernel_struct_mm.h, kernel_struct_fixpipe.h).
#pragma once

#include <cstdint>

// Fixpipe's conversions, in the vendor's order (F322F16: float -> half, QF322B8_PRE: float ->
// int8/uint8 through a scalar, ...). Kernels name it without a namespace, as the vendor defines it.
enum QuantMode_t {
  NoQuant,
  F322F16,
  F322BF16,
  DEQF16,
  VDEQF16,
  QF322B8_PRE,
  VQF322B8_PRE,
  QF162B8_PRE,
  VQF162B8_PRE,
  REQ8,
  VREQ8,
  QF162S4_PRE,
  VQF162S4_PRE,
  REQ4,
  VREQ4,
  DEQS16,
  VDEQS16,
  QF162S16_PRE,
  VQF162S16_PRE,
  QF322F16_PRE,  // the 950's float -> half / bfloat16_t with a scalar or per-column value
  VQF322F16_PRE,
  QF322BF16_PRE,
  VQF322BF16_PRE,
};

namespace AscendC {

using ::QuantMode_t;

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

// LoadData 3Dv2 (img2col of an NC1HWC0 feature map in L1). padList: left, right, top, bottom.
template <typename T>
struct LoadData3DParamsV2 {
  LoadData3DParamsV2() = default;
  uint8_t padList[4] = {0, 0, 0, 0};
  uint16_t l1H = 0;
  uint16_t l1W = 0;
  uint16_t channelSize = 0;
  uint16_t kExtension = 0;
  uint16_t mExtension = 0;
  uint16_t kStartPt = 0;
  uint16_t mStartPt = 0;
  uint8_t strideW = 1;
  uint8_t strideH = 1;
  uint8_t filterW = 1;
  uint8_t filterH = 1;
  uint8_t dilationFilterW = 1;
  uint8_t dilationFilterH = 1;
  bool enTranspose = false;
  bool enSmallK = false;
  T padValue = 0;
  bool filterSizeW = false;
  bool filterSizeH = false;
  bool fMatrixCtrl = false;
};

// LoadData 3Dv2 in its packed form: the feature map and pad value always come from SetFmatrix and
// SetLoadDataPaddingValue. extConfig: mStartPt << 48 | kStartPt << 32 | mExtension << 16 |
// kExtension; filterConfig: dilationFilterH << 40 | dilationFilterW << 32 | filterH << 24 |
// filterW << 16 | strideH << 8 | strideW.
struct LoadData3DParamsV2Pro {
  LoadData3DParamsV2Pro() = default;
  LoadData3DParamsV2Pro(uint16_t channelSizeIn, bool enTransposeIn, bool enSmallKIn,
                        bool filterSizeWIn, bool filterSizeHIn, bool fMatrixCtrlIn,
                        uint64_t extConfigIn, uint64_t filterConfigIn)
      : channelSize(channelSizeIn),
        enTranspose(enTransposeIn),
        enSmallK(enSmallKIn),
        filterSizeW(filterSizeWIn),
        filterSizeH(filterSizeHIn),
        fMatrixCtrl(fMatrixCtrlIn),
        extConfig(extConfigIn),
        filterConfig(filterConfigIn) {}
  uint16_t channelSize = 0;
  bool enTranspose = false;
  bool enSmallK = false;
  bool filterSizeW = false;
  bool filterSizeH = false;
  bool fMatrixCtrl = false;
  uint64_t extConfig = 0;
  uint64_t filterConfig = 0X10101010101;
};

// Whether LoadData 3Dv2 takes the feature map (l1H, l1W, padList) and padValue from its parameters
// (the default) or from SetFmatrix and SetLoadDataPaddingValue.
struct IsResetLoad3dConfig {
  bool isSetFMatrix = true;
  bool isSetPadding = true;
};
inline constexpr IsResetLoad3dConfig IS_RESER_LOAD3D_DEFAULT_CONFIG = {true, true};

enum class FmatrixMode : uint8_t { FMATRIX_LEFT = 0, FMATRIX_RIGHT = 1 };

// The cube's constants kernels name (the vendor's types and values): a fractal's side, and the
// length of SetFmatrix's padList.
inline constexpr int32_t BLOCK_CUBE = 16;
inline constexpr uint8_t PAD_SIZE = 4;

// LoadData 3Dv2's repeats on Atlas A2/A3 (SetLoadDataRepeat).
struct LoadDataRepeatParam {
  LoadDataRepeatParam() = default;
  LoadDataRepeatParam(uint16_t repeatStrideIn, uint8_t repeatTimeIn, uint8_t repeatModeIn)
      : repeatStride(repeatStrideIn), repeatTime(repeatTimeIn), repeatMode(repeatModeIn) {}
  uint16_t repeatStride = 0;
  uint8_t repeatTime = 1;
  uint8_t repeatMode = 0;
  uint8_t reserved = 0;
};

// The 950's LoadDataWithStride repeats (SetLoadDataRepeatWithStride); dstStride: the destination's
// K-direction fractal stride.
struct LoadDataRepeatParamWithStride {
  LoadDataRepeatParamWithStride() = default;
  LoadDataRepeatParamWithStride(uint16_t repeatStrideIn, uint8_t repeatTimeIn, uint8_t repeatModeIn,
                                uint16_t dstStrideIn)
      : repeatStride(repeatStrideIn),
        repeatTime(repeatTimeIn),
        repeatMode(repeatModeIn),
        dstStride(dstStrideIn) {}
  uint16_t repeatStride = 0;
  uint8_t repeatTime = 1;
  uint8_t repeatMode = 0;
  uint16_t dstStride = 0;
};

// The 950's 2D load: mStep x kStep fractals from (mStartPosition, kStartPosition) of an NZ source.
struct LoadData2DParamsV2 {
  LoadData2DParamsV2() = default;
  LoadData2DParamsV2(uint32_t mStartPositionIn, uint32_t kStartPositionIn, uint16_t mStepIn,
                     uint16_t kStepIn, int32_t srcStrideIn, uint16_t dstStrideIn,
                     bool ifTransposeIn, uint8_t sidIn)
      : mStartPosition(mStartPositionIn),
        kStartPosition(kStartPositionIn),
        mStep(mStepIn),
        kStep(kStepIn),
        srcStride(srcStrideIn),
        dstStride(dstStrideIn),
        ifTranspose(ifTransposeIn),
        sid(sidIn) {}
  uint32_t mStartPosition = 0;  // 16 elements
  uint32_t kStartPosition = 0;  // 32 bytes
  uint16_t mStep = 0;
  uint16_t kStep = 0;
  int32_t srcStride = 0;  // 512 bytes, between K-adjacent fractals
  uint16_t dstStride = 0;
  bool ifTranspose = false;
  uint8_t sid = 0;
};

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

// The 950's DataCopy GM -> L1 DN2NZ: dnNum matrices of dValue rows (srcDValue elements apart)
// and nValue columns; column n becomes row n of the NZ result (as Nd2NzParams' row n does).
struct Dn2NzParams {
  Dn2NzParams() = default;
  Dn2NzParams(uint16_t dnNumIn, uint16_t nValueIn, uint32_t dValueIn, uint64_t srcDnMatrixStrideIn,
              uint64_t srcDValueIn, uint16_t dstNzC0StrideIn, uint16_t dstNzNStrideIn,
              uint16_t dstNzMatrixStrideIn)
      : dnNum(dnNumIn),
        nValue(nValueIn),
        dValue(dValueIn),
        srcDnMatrixStride(srcDnMatrixStrideIn),
        srcDValue(srcDValueIn),
        dstNzC0Stride(dstNzC0StrideIn),
        dstNzNStride(dstNzNStrideIn),
        dstNzMatrixStride(dstNzMatrixStrideIn) {}
  uint16_t dnNum = 0;
  uint16_t nValue = 0;
  uint32_t dValue = 0;
  uint64_t srcDnMatrixStride = 0;
  uint64_t srcDValue = 0;
  uint16_t dstNzC0Stride = 0;
  uint16_t dstNzNStride = 0;
  uint16_t dstNzMatrixStride = 0;
};

// Fill / InitConstValue: repeatTimes rows of blockNum blocks (32 bytes in L1, 512 in L0A/L0B),
// dstGap blocks between rows, each element initValue.
template <typename T>
struct InitConstValueParams {
  InitConstValueParams() = default;
  InitConstValueParams(uint16_t repeatTimesIn, uint16_t blockNumIn, uint16_t dstGapIn,
                       T initValueIn)
      : repeatTimes(repeatTimesIn),
        blockNum(blockNumIn),
        dstGap(dstGapIn),
        initValue(initValueIn) {}
  InitConstValueParams(uint16_t repeatTimesIn, T initValueIn)
      : repeatTimes(repeatTimesIn), initValue(initValueIn) {}
  uint16_t repeatTimes = 0;
  uint16_t blockNum = 0;
  uint16_t dstGap = 0;
  T initValue = 0;
};

// The MX scales' 2D load (the 950): xStep x yStep 32-byte fractals (16 rows x 2 e8m0 scales) from
// (xStartPosition, yStartPosition), srcStride and dstStride 32-byte units between the x rows.
struct LoadData2DMxParams {
  LoadData2DMxParams() = default;
  LoadData2DMxParams(uint16_t xStartPositionIn, uint16_t yStartPositionIn, uint8_t xStepIn,
                     uint8_t yStepIn, uint16_t srcStrideIn, uint16_t dstStrideIn)
      : xStartPosition(xStartPositionIn),
        yStartPosition(yStartPositionIn),
        xStep(xStepIn),
        yStep(yStepIn),
        srcStride(srcStrideIn),
        dstStride(dstStrideIn) {}
  uint16_t xStartPosition = 0;
  uint16_t yStartPosition = 0;
  uint8_t xStep = 0;
  uint8_t yStep = 0;
  uint16_t srcStride = 0;
  uint16_t dstStride = 0;
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

enum class ReluMode { NO_RELU = 0, NORMAL_RELU = 1, SCALAR_RELU = 2, VECTOR_RELU = 3 };
enum class ClipReluMode { NOCLIP_RELU = 0, CLIP_RELU = 1 };

enum class CO2Layout : uint8_t { NZ = 0, ROW_MAJOR, COLUMN_MAJOR };

struct FixpipeParamsV220 {
  FixpipeParamsV220() = default;
  FixpipeParamsV220(uint16_t nSizeIn, uint16_t mSizeIn, uint16_t srcStrideIn, uint32_t dstStrideIn,
                    bool reluEnIn)
      : FixpipeParamsV220(nSizeIn, mSizeIn, srcStrideIn, dstStrideIn, reluEnIn,
                          QuantMode_t::NoQuant, 0, 1, 0, 0, 0) {}
  FixpipeParamsV220(uint16_t nSizeIn, uint16_t mSizeIn, uint16_t srcStrideIn, uint32_t dstStrideIn,
                    bool reluEnIn, QuantMode_t quantPreIn, int64_t deqScalarIn, uint16_t ndNumIn,
                    uint16_t srcNdStrideIn, uint16_t dstNdStrideIn, uint8_t unitFlagIn,
                    bool isChannelSplitIn = false)
      : nSize(nSizeIn),
        mSize(mSizeIn),
        srcStride(srcStrideIn),
        dstStride(dstStrideIn),
        quantPre(quantPreIn),
        deqScalar(static_cast<uint64_t>(deqScalarIn)),
        ndNum(ndNumIn),
        srcNdStride(srcNdStrideIn),
        dstNdStride(dstNdStrideIn),
        reluEn(reluEnIn),
        unitFlag(unitFlagIn),
        isChannelSplit(isChannelSplitIn) {}
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
// DataCopy CO1 -> GM/L1 (the Fixpipe engine driven by registers: SetFixpipePreQuantFlag's scalar,
// SetFixpipeNz2ndFlag's ndNum and strides, SetFixPipeConfig's Fixpipe Buffer tensor).
struct DataCopyCO12DstParams {
  DataCopyCO12DstParams() = default;
  DataCopyCO12DstParams(uint16_t nSizeIn, uint16_t mSizeIn, uint32_t dstStrideIn,
                        uint16_t srcStrideIn, QuantMode_t quantPreIn, uint8_t reluPreIn,
                        bool channelSplitIn, bool nz2ndEnIn)
      : nSize(nSizeIn),
        mSize(mSizeIn),
        dstStride(dstStrideIn),
        srcStride(srcStrideIn),
        quantPre(quantPreIn),
        reluPre(reluPreIn),
        channelSplit(channelSplitIn),
        nz2ndEn(nz2ndEnIn) {}
  uint8_t sid = 0;
  uint16_t nSize = 0;
  uint16_t mSize = 0;
  uint32_t dstStride = 0;  // NZ: 32-byte blocks between column blocks; ND: elements per row
  uint16_t srcStride = 0;  // L0C: 16-element rows between column blocks
  uint8_t unitFlag = 0;
  uint8_t clipReluPre = 0;
  uint8_t eltWiseOp = 0;
  QuantMode_t quantPre = QuantMode_t::NoQuant;
  uint8_t reluPre = 0;
  bool channelSplit = false;
  bool nz2ndEn = false;
};

using FixpipeParamsM300 = FixpipeParamsV220;
using FixpipeParamsM310 = FixpipeParamsV220;

// Fixpipe's output layout (its template argument): ND, NZ or (950) DN; on the 950 also whether
// it writes the UB (isToUB). The two-argument form exists on every product (the kit's
// matmul_gelu_high_performance spells its configs so on dav-2201 too), where the flag is dropped.
struct FixpipeConfig {
  CO2Layout format;
#if __NPU_ARCH__ == 3510
  bool isToUB = false;
#endif
  constexpr FixpipeConfig(CO2Layout formatIn)
      : format(formatIn) {}  // NOLINT: implicit, as the vendor's
  constexpr FixpipeConfig(CO2Layout formatIn, bool isToUBIn) : format(formatIn) {
#if __NPU_ARCH__ == 3510
    isToUB = isToUBIn;
#else
    (void)isToUBIn;
#endif
  }
};
inline constexpr FixpipeConfig CFG_NZ = {CO2Layout::NZ};
inline constexpr FixpipeConfig CFG_ROW_MAJOR = {CO2Layout::ROW_MAJOR};
inline constexpr FixpipeConfig CFG_COLUMN_MAJOR = {CO2Layout::COLUMN_MAJOR};

// The NZ -> ND loop: on the 950 FixpipeParamsArch3510<CO2Layout::ROW_MAJOR>::params; the older
// form is the DataCopy (CO1 -> GM) one's.
struct Nz2NdParams {
#if __NPU_ARCH__ == 3510
  Nz2NdParams() = default;
  Nz2NdParams(uint16_t ndNumIn, uint16_t srcNdStrideIn, uint32_t dstNdStrideIn)
      : ndNum(ndNumIn), srcNdStride(srcNdStrideIn), dstNdStride(dstNdStrideIn) {}
  uint16_t ndNum = 1;
  uint16_t srcNdStride = 0;  // 256 elements (one 16 x 16 block)
  uint32_t dstNdStride = 0;  // elements
#else
  Nz2NdParams() = default;
  Nz2NdParams(bool nz2ndEnIn, uint16_t ndNumIn, uint16_t srcNdStrideIn, uint16_t dstNdStrideIn,
              uint16_t originalNSizeIn)
      : nz2ndEn(nz2ndEnIn),
        ndNum(ndNumIn),
        srcNdStride(srcNdStrideIn),
        dstNdStride(dstNdStrideIn),
        originalNSize(originalNSizeIn) {}
  bool nz2ndEn = false;
  uint16_t ndNum = 1;
  uint16_t srcNdStride = 0;
  uint16_t dstNdStride = 0;
  uint16_t originalNSize = 0;
#endif
};

// The 950's NZ -> DN loop (FixpipeParamsArch3510<CO2Layout::COLUMN_MAJOR>::params).
struct Nz2DnParams {
  Nz2DnParams() = default;
  Nz2DnParams(uint16_t dnNumIn, uint16_t srcNzMatrixStrideIn, uint32_t dstDnMatrixStrideIn,
              uint16_t srcNzC0StrideIn)
      : dnNum(dnNumIn),
        srcNzMatrixStride(srcNzMatrixStrideIn),
        dstDnMatrixStride(dstDnMatrixStrideIn),
        srcNzC0Stride(srcNzC0StrideIn) {}
  uint16_t dnNum = 1;
  uint16_t srcNzMatrixStride = 0;
  uint32_t dstDnMatrixStride = 0;
  uint16_t srcNzC0Stride = 0;
};

template <CO2Layout format>
struct TransformParams {
  using PARAMS = uint8_t;
};
template <>
struct TransformParams<CO2Layout::ROW_MAJOR> {
  using PARAMS = Nz2NdParams;
};
template <>
struct TransformParams<CO2Layout::COLUMN_MAJOR> {
  using PARAMS = Nz2DnParams;
};

template <CO2Layout format = CO2Layout::ROW_MAJOR>
struct FixpipeParamsArch3510 {
  FixpipeParamsArch3510() = default;
  FixpipeParamsArch3510(uint16_t nSizeIn, uint16_t mSizeIn, uint16_t srcStrideIn,
                        uint32_t dstStrideIn)
      : nSize(nSizeIn), mSize(mSizeIn), srcStride(srcStrideIn), dstStride(dstStrideIn) {}
  ReluMode preReluMode = ReluMode::NO_RELU;
  ClipReluMode preClipReluMode = ClipReluMode::NOCLIP_RELU;
  uint64_t reluScalar = 0;
  uint64_t vectorRelu = 0;
  uint16_t nSize = 0;
  uint16_t mSize = 0;
  uint16_t srcStride = 0;
  uint32_t dstStride = 0;
  QuantMode_t quantPre = QuantMode_t::NoQuant;
  uint64_t deqScalar = 0;
  bool reluEn = false;
  uint8_t unitFlag = 0;
  uint8_t dualDstCtl = 0;
  bool subBlockId = false;
  typename TransformParams<format>::PARAMS params{};
  bool isChannelSplit = false;
};
template <CO2Layout format = CO2Layout::ROW_MAJOR>
struct FixpipeParamsC310 : FixpipeParamsArch3510<format> {
  using FixpipeParamsArch3510<format>::FixpipeParamsArch3510;
};

}  // namespace AscendC
