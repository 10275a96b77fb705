// Host side of the sort APIs (tiling/sort/sort_tiling.h); the values are the toolkit's
// (impl/adv_api/tiling/sort/{sort,topk}_tiling_impl.cpp), written from its formulas. As in the
// toolkit, the common checks of GetConcatTmpSize, GetSortTmpSize, GetTopKMaxMinTmpSize and
// TopKTilingFunc report a problem and the function still answers; GetSortMaxMinTmpSize leaves
// its outputs untouched on a refusal, except on a product without the 950 Sort: 0 and 0.
#include "tiling/sort/sort_tiling.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <string>

#include "tiling_common.h"

namespace {

using lngrad::NpuArch;
using lngrad::Status;
using lngrad::tiling::internal::Prefix;
using lngrad::tiling::internal::Report;

NpuArch ArchOf(const platform_ascendc::PlatformAscendC& p) { return p.SimulatedProduct().arch; }
bool V220Like(NpuArch a) { return a == NpuArch::k2201 || a == NpuArch::k3510; }

Status CheckSortCommon(const char* func, const platform_ascendc::PlatformAscendC& p,
                       uint32_t elemCount, uint32_t typeSize) {
  const std::string pre = Prefix("Sort", func);
  if (elemCount == 0) return Status::InvalidArgument(pre + "The elemCount must be greater than 0.");
  if (typeSize != 2 && typeSize != 4) {
    return Status::InvalidArgument(pre + "Type size " + std::to_string(typeSize) +
                                   " is unsupported!");
  }
  uint64_t ub = 0;
  p.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);
  if (uint64_t{elemCount} * typeSize >= ub) {
    return Status::InvalidArgument(pre + "The size of srcShape is " +
                                   std::to_string(uint64_t{elemCount} * typeSize) +
                                   "B, should be less than UB size.");
  }
  return Status::Ok();
}

uint32_t SizeOf(ge::DataType t) {
  switch (t) {
    case ge::DT_INT8:
    case ge::DT_UINT8:
      return 1;
    case ge::DT_INT16:
    case ge::DT_UINT16:
    case ge::DT_FLOAT16:
    case ge::DT_BF16:
      return 2;
    case ge::DT_INT64:
    case ge::DT_UINT64:
      return 8;
    default:
      return 4;
  }
}

bool In(ge::DataType t, std::initializer_list<ge::DataType> l) {
  return std::find(l.begin(), l.end(), t) != l.end();
}

Status CheckSortTypes(ge::DataType value, ge::DataType index, const AscendC::SortConfig& c) {
  if (lngrad::CurrentProduct().arch != NpuArch::k3510) {
    return Status::Unsupported("Unsupported NpuArch for Sort API.");
  }
  if (c.hasSrcIndex && !c.hasDstIndex) {
    return Status::InvalidArgument("Sort API cannot only have source input index.");
  }
  if (!In(value,
          {ge::DT_INT8, ge::DT_UINT8, ge::DT_FLOAT, ge::DT_FLOAT16, ge::DT_BF16, ge::DT_INT16,
           ge::DT_INT32, ge::DT_UINT16, ge::DT_UINT32, ge::DT_UINT64, ge::DT_INT64})) {
    return Status::InvalidArgument("Unsupported valueType for Sort API.");
  }
  const bool index_ok = c.hasSrcIndex
                            ? In(index, {ge::DT_INT32, ge::DT_UINT32, ge::DT_INT64, ge::DT_UINT64})
                            : (!c.hasDstIndex || index == ge::DT_UINT32);
  if (!index_ok) return Status::InvalidArgument("Unsupported indexType for Sort API.");
  return Status::Ok();
}

uint64_t RadixBytes(uint64_t n, ge::DataType value, ge::DataType index, bool reuse,
                    const AscendC::SortConfig& c) {
  n = (n + 31) / 32 * 32;
  const uint64_t vs = reuse ? 0 : SizeOf(value), is = reuse ? 0 : SizeOf(index);
  uint64_t need = n * 7 + 512;
  const bool dst_only = !c.hasSrcIndex && c.hasDstIndex;
  if (SizeOf(value) != 1) {
    if (!c.hasSrcIndex && !c.hasDstIndex) {
      need += n * vs;
    } else if (dst_only) {
      need += n * (4 + vs);
    } else {
      need += n * (vs + is);
    }
  } else if (dst_only) {
    need -= 2 * n;
  }
  return need;
}

Status CheckTopKCommon(const char* func, const platform_ascendc::PlatformAscendC& p, int32_t inner,
                       int32_t outter, bool isInitIndex, AscendC::TopKMode mode,
                       uint32_t typeSize) {
  const std::string pre = Prefix("TopK", func);
  auto bad = [&](const std::string& m) { return Status::InvalidArgument(pre + m); };
  if (inner <= 0) return bad("The length of the inner axis must be greater than 0!");
  if (inner % 32 != 0) return bad("The length of the inner axis must be a multiple of 32!");
  if (mode == AscendC::TopKMode::TOPK_NSMALL && inner != 32) {
    return bad("In Small mode, the length of the inner axis must be 32!");
  }
  if (ArchOf(p) == NpuArch::k2002 && !isInitIndex && inner > 2048) {
    return bad(
        "In Atlas inference products, when isInitIndex is false, the inner axis length "
        "must be less than or equal to 2048!");
  }
  if (outter <= 0) return bad("The length of the outter axis must be greater than 0!");
  uint64_t ub = 0;
  p.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);
  if (uint64_t(inner) * uint64_t(outter) * typeSize > ub) {
    return bad("The size of srcShape should be less than UB size.");
  }
  if (typeSize != 2 && typeSize != 4) {
    return bad("Type size " + std::to_string(typeSize) + " is unsupported!");
  }
  return Status::Ok();
}

uint32_t TopKTmp220(int32_t inner, int32_t outter, bool init, AscendC::TopKMode mode,
                    bool largest) {
  const uint32_t n = static_cast<uint32_t>(inner), all = n * static_cast<uint32_t>(outter);
  if (mode == AscendC::TopKMode::TOPK_NORMAL) return (init ? 16 : 20) * n;
  return all * 8 + 64 + (largest ? 0 : all * 4) + (init ? 0 : all * 4);
}

uint32_t TopKTmp310(int32_t inner, int32_t outter, bool init, AscendC::TopKMode mode) {
  const uint32_t n = static_cast<uint32_t>(inner), all = n * static_cast<uint32_t>(outter);
  if (mode == AscendC::TopKMode::TOPK_NORMAL) return 16 * n + (init ? 0 : 4 * n);
  return all * 8 + (init ? 0 : all * 4);
}

uint32_t TopKTmp200(int32_t inner, int32_t outter, AscendC::TopKMode mode, uint32_t ts) {
  const uint32_t n = static_cast<uint32_t>(inner);
  if (mode == AscendC::TopKMode::TOPK_NORMAL) return n * 8 * ts * 2 + n * 4;
  return n * static_cast<uint32_t>(outter) * 8 * ts * 2;
}

// The bit patterns of the GatherMask selections (GenerateBinary01/10/1/0001 of the toolkit).
uint32_t Repeat2(int32_t k, uint32_t pair) {
  uint32_t m = 0;
  for (int32_t i = 0; i < k; ++i) m |= pair << (2 * i);
  return m;
}
uint32_t Ones(int32_t k) { return k >= 32 ? 0xFFFFFFFFu : ((1u << k) - 1); }
uint16_t Every4(int32_t k) {
  uint16_t m = 0;
  for (int32_t i = 0; i < k; ++i) m = static_cast<uint16_t>(m | (1u << (4 * i)));
  return m;
}

void Masks220(int32_t k, uint32_t ts, AscendC::tiling::TopkTiling& t) {
  if (k < 17) t.vreduceIdxMask0 = Repeat2(k, 2);
  if (k >= 17 && k <= 32) {
    t.vreduceIdxMask0 = 0xAAAAAAAAu;
    t.vreduceIdxMask1 = Repeat2(k - 16, 2);
  }
  if (ts == 4) {
    if (k < 17) t.vreduceValMask0 = Repeat2(k, 1);
    if (k >= 17 && k <= 32) {
      t.vreduceValMask0 = Repeat2(16, 1);
      t.vreduceValMask1 = Repeat2(k - 16, 1);
    }
    return;
  }
  uint16_t* m[8] = {&t.vreducehalfValMask0, &t.vreducehalfValMask1, &t.vreducehalfValMask2,
                    &t.vreducehalfValMask3, &t.vreducehalfValMask4, &t.vreducehalfValMask5,
                    &t.vreducehalfValMask6, &t.vreducehalfValMask7};
  for (int32_t g = 0; g < 8; ++g) {
    const int32_t c = std::clamp(k - 4 * g, 0, 4);
    *m[g] = g == 0 && k >= 5 ? uint16_t{4369} : Every4(c);
  }
}

void Normal220(int32_t inner, int32_t outter, int32_t k, uint32_t ts, bool init,
               AscendC::tiling::TopkTiling& t) {
  const int32_t half = ts == 2, k16 = (k + 15) / 16 * 16;
  t.tmpLocalSize = (half ? 8 : 4) * inner;
  t.innerDataSize = (half ? 4 : 2) * inner;
  t.copyUbToUbBlockCount = static_cast<uint32_t>(inner * 2 * 4 / 32);
  t.sortRepeat = static_cast<uint32_t>(inner / 32);
  t.mrgSortRepeat = inner / 4;
  t.kAlignTwoBytes = k16;
  t.maskOffset = outter * (half ? k16 : t.kAlignFourBytes);
  t.maskVreducev2FourBytes = 2 * k;
  t.maskVreducev2TwoBytes = 4 * k;
  t.mrgSortSrc1offset = half ? 4 : 2;
  t.mrgSortSrc2offset = half ? 8 : 4;
  t.mrgSortSrc3offset = half ? 12 : 6;
  t.mrgSortTwoQueueSrc1Offset = half ? 4 : 2;
  t.mrgFourQueueTailPara1 = inner * 2;
  t.mrgFourQueueTailPara2 = static_cast<int32_t>(4 / ts);
  if (!init) {
    t.tmpLocalSize = half ? 8 * inner + 2 * inner : 4 * inner + inner;
    t.srcIndexOffset = (half ? 8 : 4) * inner;
  }
}

void NSmall220(int32_t inner, int32_t outter, int32_t k, uint32_t ts, bool init, bool largest,
               AscendC::tiling::TopkTiling& t) {
  const int32_t data = inner * outter * static_cast<int32_t>(8 / ts);
  t.innerDataSize = data;
  t.maskOffset = outter * k;
  const int32_t mask_at = data + (largest ? 0 : inner * outter);
  t.topkMrgSrc1MaskSizeOffset = mask_at;
  t.tmpLocalSize = mask_at + static_cast<int32_t>(64 / ts);
  if (!init) {
    const int32_t index_at = mask_at + static_cast<int32_t>(64 / ts);
    t.tmpLocalSize = index_at + inner * outter * static_cast<int32_t>(4 / ts);
    t.topkNSmallSrcIndexOffset = index_at;
  }
  Masks220(k, ts, t);
}

void Normal310(int32_t inner, int32_t outter, int32_t k, uint32_t ts, bool init,
               AscendC::tiling::TopkTiling& t) {
  const int32_t k8 = (k + 7) / 8 * 8, k16 = (k + 15) / 16 * 16, its = static_cast<int32_t>(ts);
  t.kAlignFourBytes = k8;
  t.sortRepeat = static_cast<uint32_t>(inner / 32);
  t.innerDataSize = inner * (8 / its);
  t.kAlignTwoBytes = k16;
  t.maskOffset = outter * (ts == 2 ? k16 : k8);
  t.maskVreducev2FourBytes = 2 * k;
  t.maskVreducev2TwoBytes = 4 * k;
  t.tmpLocalSize = inner * 16 / its;
  if (!init) {
    t.srcIndexOffset = inner * 16 / its;
    t.tmpLocalSize = inner * (16 + 4) / its;
  }
}

void NSmall310(int32_t inner, int32_t outter, int32_t k, uint32_t ts, bool init,
               AscendC::tiling::TopkTiling& t) {
  const int32_t data = inner * outter * static_cast<int32_t>(8 / ts);
  t.innerDataSize = data;
  t.maskOffset = outter * k;
  t.tmpLocalSize = data + (init ? 0 : inner * outter * 4 / static_cast<int32_t>(ts));
}

void Normal200(int32_t inner, int32_t outter, int32_t k, uint32_t ts,
               AscendC::tiling::TopkTiling& t) {
  const int32_t mrg = inner * 8 * 2, its = static_cast<int32_t>(ts);
  t.tmpLocalSize = mrg + inner * 4 / its;
  t.srcIndexOffset = mrg;
  t.innerDataSize = inner * 8;
  t.sortRepeat = static_cast<uint32_t>(inner / 16);
  t.copyUbToUbBlockCount = static_cast<uint32_t>(inner * 8 * its / 32);
  t.mrgSortSrc1offset = 8;
  t.mrgSortSrc2offset = 16;
  t.mrgSortSrc3offset = 24;
  t.mrgSortRepeat = inner / 4;
  t.kAlignFourBytes = (k + 7) / 8 * 8;
  t.kAlignTwoBytes = (k + 15) / 16 * 16;
  t.maskOffset = outter * (ts == 2 ? t.kAlignTwoBytes : t.kAlignFourBytes);
}

void NSmall200(int32_t inner, int32_t outter, int32_t k, uint32_t ts,
               AscendC::tiling::TopkTiling& t) {
  const int32_t proposal = inner * outter * 8, all = inner * outter;
  t.tmpLocalSize = proposal * 2;
  t.topkNSmallSrcIndexOffset = proposal + all;
  t.innerDataSize = proposal;
  t.maskOffset = outter * k;
  t.allDataSize = all;
  t.sortRepeat = static_cast<uint32_t>(all / 16);
  t.copyUbToUbBlockCount = static_cast<uint32_t>(proposal * static_cast<int32_t>(ts) / 32);
  t.mrgSortTwoQueueSrc1Offset = 16 * 8;
  t.mrgSortSrc1offset = inner * 8;
  t.vreduceIdxMask0 = Ones(k);
  if (ts == 4) {
    t.srcIndexOffset = t.topkNSmallSrcIndexOffset;
    t.vreduceValMask0 = Ones(k);
    return;
  }
  t.srcIndexOffset = t.topkNSmallSrcIndexOffset + all;
  if (k <= 16) {
    t.vreduceValMask0 = Ones(k);
  } else if (k <= 32) {
    t.vreduceValMask0 = 0xFFFFu;
    t.vreduceValMask1 = Ones(k - 16);
  }
}

bool Fill(NpuArch arch, int32_t inner, int32_t outter, int32_t k, uint32_t ts, bool init,
          AscendC::TopKMode mode, bool largest, AscendC::tiling::TopkTiling& t) {
  if (ts == 0) return false;
  const bool normal = mode == AscendC::TopKMode::TOPK_NORMAL;
  if (arch == NpuArch::k2002) {
    normal ? Normal200(inner, outter, k, ts, t) : NSmall200(inner, outter, k, ts, t);
    return true;
  }
  t.allDataSize = inner * outter;
  if (arch == NpuArch::k3510) {
    normal ? Normal310(inner, outter, k, ts, init, t) : NSmall310(inner, outter, k, ts, init, t);
    return true;
  }
  t.kAlignFourBytes = (k + 7) / 8 * 8;
  normal ? Normal220(inner, outter, k, ts, init, t)
         : NSmall220(inner, outter, k, ts, init, largest, t);
  return true;
}

bool TopKPlain(const platform_ascendc::PlatformAscendC& p, int32_t inner, int32_t outter, int32_t k,
               uint32_t ts, bool init, AscendC::TopKMode mode, bool largest,
               AscendC::tiling::TopkTiling& t) {
  Status s = CheckTopKCommon("TopKTilingFunc", p, inner, outter, init, mode, ts);
  if (s.ok() && (k < 1 || k > inner)) {
    s = Status::InvalidArgument(Prefix("TopK", "TopKTilingFunc") + "The range of value k is [1, " +
                                std::to_string(inner) + "]!");
  }
  Report(s);
  return Fill(ArchOf(p), inner, outter, k, ts, init, mode, largest, t);
}

}  // namespace

namespace AscendC {

uint32_t GetConcatTmpSize(const platform_ascendc::PlatformAscendC& ascendcPlatform,
                          const uint32_t elemCount, const uint32_t dataTypeSize) {
  Report(CheckSortCommon("GetConcatTmpSize", ascendcPlatform, elemCount, dataTypeSize));
  if (V220Like(ArchOf(ascendcPlatform))) return 0;
  return elemCount * REGION_PROPOSAL_DATA_SIZE_V200 * dataTypeSize;
}

uint32_t GetSortTmpSize(const platform_ascendc::PlatformAscendC& ascendcPlatform,
                        const uint32_t elemCount, const uint32_t dataTypeSize) {
  Report(CheckSortCommon("GetSortTmpSize", ascendcPlatform, elemCount, dataTypeSize));
  if (!V220Like(ArchOf(ascendcPlatform))) {
    return elemCount * REGION_PROPOSAL_DATA_SIZE_V200 * dataTypeSize;
  }
  const uint32_t per = dataTypeSize == sizeof(float) ? REGION_PROPOSAL_DATA_SIZE_FLOAT_V220
                                                     : REGION_PROPOSAL_DATA_SIZE_HALF_V220;
  return elemCount * per * dataTypeSize;
}

void GetSortMaxMinTmpSize(const ge::Shape& srcShape, ge::DataType valueType, ge::DataType indexType,
                          bool isReuseSource, const SortConfig& config, uint32_t& maxValue,
                          uint32_t& minValue) {
  Status s = CheckSortTypes(valueType, indexType, config);
  if (s.code() == lngrad::StatusCode::kUnsupported) {
    // lngrad's choice: the toolkit returns with the outputs unset, and callers that ignore the
    // refusal (the kit's sort sample on dav-2201) then size a buffer from uninitialised memory;
    // 0 is what the 2201 sort path (Concat, Sort<T, isFullSort>, Extract) takes from here.
    maxValue = minValue = 0;
  }
  if (s.ok()) {
    uint64_t n = 1;
    for (int64_t d : srcShape.GetDims()) n *= static_cast<uint64_t>(d);
    const uint64_t b = config.type == SortType::MERGE_SORT
                           ? 8 * n
                           : RadixBytes(n, valueType, indexType, isReuseSource, config);
    s = lngrad::tiling::internal::StoreMaxMin("Sort", "GetSortMaxMinTmpSize", b, b, maxValue,
                                              minValue);
  }
  Report(s);
}

bool GetTopKMaxMinTmpSize(const platform_ascendc::PlatformAscendC& ascendcPlatform,
                          const int32_t inner, const int32_t outter, const bool isReuseSource,
                          const bool isInitIndex, enum TopKMode mode, const bool isLargest,
                          const uint32_t dataTypeSize, uint32_t& maxValue, uint32_t& minValue) {
  (void)isReuseSource;
  Report(CheckTopKCommon("GetTopKMaxMinTmpSize", ascendcPlatform, inner, outter, isInitIndex, mode,
                         dataTypeSize));
  const NpuArch arch = ArchOf(ascendcPlatform);
  if (arch == NpuArch::k2002) {
    maxValue = minValue = TopKTmp200(inner, outter, mode, dataTypeSize);
  } else if (arch == NpuArch::k3510) {
    maxValue = minValue = TopKTmp310(inner, outter, isInitIndex, mode);
  } else {
    maxValue = minValue = TopKTmp220(inner, outter, isInitIndex, mode, isLargest);
  }
  return true;
}

bool TopKTilingFunc(const platform_ascendc::PlatformAscendC& ascendcPlatform, const int32_t inner,
                    const int32_t outter, const int32_t k, const uint32_t dataTypeSize,
                    const bool isInitIndex, enum TopKMode mode, const bool isLargest,
                    AscendC::tiling::TopkTiling& topKTiling) {
  AscendC::tiling::TopkTiling t;
  const bool ok =
      TopKPlain(ascendcPlatform, inner, outter, k, dataTypeSize, isInitIndex, mode, isLargest, t);
  if (ok) topKTiling = t;
  return ok;
}

bool TopKTilingFunc(const platform_ascendc::PlatformAscendC& ascendcPlatform, const int32_t inner,
                    const int32_t outter, const int32_t k, const uint32_t dataTypeSize,
                    const bool isInitIndex, enum TopKMode mode, const bool isLargest,
                    optiling::TopkTiling& topKTiling) {
  AscendC::tiling::TopkTiling t;
  const bool ok =
      TopKPlain(ascendcPlatform, inner, outter, k, dataTypeSize, isInitIndex, mode, isLargest, t);
  if (ok) {
#define LNGRAD_TOPK_COPY(type, name) topKTiling.set_##name(t.name);
    LNGRAD_TOPK_TILING_FIELDS(LNGRAD_TOPK_COPY)
#undef LNGRAD_TOPK_COPY
  }
  return ok;
}

bool GetTopKMaxMinTmpSize(const int32_t inner, const int32_t outter, const int32_t k,
                          const bool isReuseSource, const bool isInitIndex, enum TopKMode mode,
                          const bool isLargest, ge::DataType dataType, const TopKConfig& config,
                          uint32_t& maxValue, uint32_t& minValue) {
  Status s = Status::Ok();
  if (lngrad::CurrentProduct().arch != NpuArch::k3510) {
    s = Status::Unsupported("Unsupported NpuArch of Topk radix select API.");
  } else if (inner % 32 != 0) {
    s = Status::InvalidArgument("The value of inner must be an integer multiple of 32.");
  } else if (k < 1 || k > inner) {
    s = Status::InvalidArgument(
        "The value of k must be greater than or equal to 1 and less than or equal to inner.");
  } else if (!In(dataType, {ge::DT_INT8, ge::DT_UINT8, ge::DT_INT16, ge::DT_UINT16, ge::DT_INT32,
                            ge::DT_UINT32, ge::DT_INT64, ge::DT_UINT64, ge::DT_FLOAT,
                            ge::DT_FLOAT16, ge::DT_BF16})) {
    s = Status::InvalidArgument("Unsupported valueType of TopK radix select API.");
  }
  Report(s);
  if (!s.ok()) return false;
  const uint64_t ts = SizeOf(dataType), n = static_cast<uint64_t>(inner);
  const uint64_t buckets = std::max<uint64_t>(4 * n, 2 * 256);
  uint64_t need = (ts == 8 ? ts * std::max<uint64_t>(n, 256) : ts * n) + buckets;
  const bool twiddled = In(dataType, {ge::DT_INT8, ge::DT_INT16, ge::DT_INT32, ge::DT_INT64,
                                      ge::DT_FLOAT, ge::DT_FLOAT16, ge::DT_BF16});
  if (!isReuseSource && (twiddled || !isLargest)) need += ts * n;
  if (!isInitIndex) need += mode == TopKMode::TOPK_NORMAL ? 4 * n : 4 * n * uint64_t(outter);
  uint32_t sort_max = 0, sort_min = 0;
  if (config.sorted) {
    SortConfig sc;
    sc.isDescend = true;
    sc.hasSrcIndex = true;
    sc.hasDstIndex = true;
    GetSortMaxMinTmpSize(ge::Shape({1, k}), dataType, ge::DT_INT32, false, sc, sort_max, sort_min);
  }
  minValue = static_cast<uint32_t>(need + sort_min);
  maxValue = static_cast<uint32_t>(need + sort_max);
  return true;
}

}  // namespace AscendC
