// SoftMax family and LogSoftMax host tiling. Formulas learned from hicann/asc-devkit
// impl/adv_api/tiling/activation/{softmax,logsoftmax}_tiling.cpp; written here from them.
// Every size is in float elements until the final * 4 (bytes). M = product of all dims but the
// last, K = the last dim, e = 32 / typeSize (the max/sum tensors' elements per row).
#include "tiling/activation/softmax_tiling.h"

#include <algorithm>
#include <type_traits>
#include <string>

#include "lngrad/product.h"
#include "tiling_common.h"

namespace lngrad::tiling {
namespace {

constexpr uint32_t kBlk = 32;
constexpr uint32_t kF = 4;      // float bytes
constexpr uint32_t kTile = 8;   // floats per 32-byte block
constexpr uint32_t kUnit = 64;  // floats per repeat
constexpr uint32_t kBbMin = 256;
constexpr uint32_t kSpecialK = kBbMin * kF;  // 1024: the basic block's wider scratch row

struct Mk {
  uint32_t m = 0, k = 0, e = 0;
};

bool RegBase() { return lngrad::IsRegBaseArch(lngrad::CurrentProduct().arch); }

Status Dims(const char* func, const ge::Shape& s, uint32_t typeSize, uint32_t typeSize2, Mk* out) {
  const std::string p = internal::Prefix("SoftMax", func);
  for (uint32_t t : {typeSize, typeSize2}) {
    if (t != 2 && t != 4) {
      return Status::InvalidArgument(p + "dataTypeSize " + std::to_string(t) +
                                     " is unsupported (2 for half, 4 for float)");
    }
  }
  if (s.GetDimNum() == 0 || s.GetShapeSize() <= 0) {
    return Status::InvalidArgument(p + "input srcShape size must be greater than 0.");
  }
  const int64_t k = s.GetDims().back();
  if ((k * typeSize) % kBlk != 0) {
    return Status::InvalidArgument(p + "the last axis (" + std::to_string(k) + " x " +
                                   std::to_string(typeSize) + " bytes) must be 32-byte aligned");
  }
  out->k = static_cast<uint32_t>(k);
  out->m = static_cast<uint32_t>(s.GetShapeSize() / k);
  out->e = kBlk / typeSize2;
  return Status::Ok();
}

uint32_t SizeOr0(const Status& st, uint64_t floats) {
  internal::Report(st);
  return st.ok() ? static_cast<uint32_t>(floats * kF) : 0;
}

uint32_t Ceil(uint32_t v, uint32_t to) { return (v + to - 1) / to * to; }

// The 3510 scratch of the register-based SoftMax (and SoftmaxFlash without update).
uint32_t RegNeed1(const Mk& d, uint32_t extraUnits) {
  return d.m * (kTile + d.k) + kUnit * extraUnits + Ceil(d.m, kTile);
}

void AdjustToBasicBlock(uint32_t& baseM, uint32_t m, uint32_t k) {
  if (baseM > kTile && m % kTile == 0 && k % kUnit == 0) {
    baseM = baseM / kTile * kTile;
    while (m % baseM != 0) baseM -= kTile;
    while (baseM * k >= kUnit * kBbMin) baseM /= 2;
  }
}

// Rounds baseM (at most m) down to a multiple of `tile` when it splits m.
uint32_t ClampBaseM(uint32_t baseM, uint32_t m, uint32_t tile = kTile) {
  baseM = std::min(baseM, m);
  if (baseM < m && baseM > tile) baseM = baseM / tile * tile;
  return baseM;
}

AscendC::tiling::SoftMaxTiling Fill(const Mk& d, uint32_t baseM) {
  AscendC::tiling::SoftMaxTiling t;
  t.srcM = d.m;
  t.srcK = d.k;
  t.srcSize = d.m * d.k;
  t.outMaxM = d.m;
  t.outMaxK = d.e;
  t.outMaxSize = d.m * d.e;
  t.splitM = baseM;
  t.splitK = d.k;
  t.splitSize = baseM * d.k;
  t.reduceM = baseM;
  t.reduceK = d.e;
  t.reduceSize = baseM * d.e;
  if (baseM != 0) {
    t.rangeM = d.m / baseM;
    t.tailM = d.m % baseM;
  }
  t.tailSplitSize = t.tailM * d.k;
  t.tailReduceSize = t.tailM * d.e;
  return t;
}

#define LNGRAD_COPY_FIELD(type, name) to.set_##name(from.name);
template <class Def>
void ToOptiling(const AscendC::tiling::SoftMaxTiling& from, Def& to) {
  LNGRAD_SOFTMAX_TILING_FIELDS(LNGRAD_COPY_FIELD)
}
#undef LNGRAD_COPY_FIELD

// Computes the plan with `baseM_of` (scratch floats -> rows) and stores it on success.
template <class Out, class F>
void Plan(const char* func, const ge::Shape& s, uint32_t ts1, uint32_t ts2, uint32_t bytes,
          Out& out, F&& baseM_of) {
  Mk d;
  const Status st = Dims(func, s, ts1, ts2, &d);
  internal::Report(st);
  if (!st.ok()) return;
  const AscendC::tiling::SoftMaxTiling t = Fill(d, baseM_of(d, bytes / kF));
  if constexpr (std::is_same_v<Out, AscendC::tiling::SoftMaxTiling>) {
    out = t;
  } else if constexpr (std::is_same_v<Out, AscendC::tiling::LogSoftMaxTiling>) {
#define LNGRAD_COPY_PLAIN(type, name) out.name = t.name;
    LNGRAD_SOFTMAX_TILING_FIELDS(LNGRAD_COPY_PLAIN)
#undef LNGRAD_COPY_PLAIN
  } else {
    ToOptiling(t, out);
  }
}

// Rows per split of SoftMax/LogSoftMax/SoftmaxFlash/SoftmaxGrad: scratch / per-row need, then
// the 8-row rounding and the basic-block adjustment.
uint32_t GenericBaseM(const Mk& d, uint32_t work, uint32_t perRow) {
  uint32_t b = ClampBaseM(work / perRow, d.m);
  AdjustToBasicBlock(b, d.m, d.k);
  return b;
}

uint32_t SoftMaxRow(const Mk& d) { return d.e + d.k + kUnit; }
uint32_t FlashRow(const Mk& d, bool upd) { return upd ? d.e * 4 + d.k * 2 : SoftMaxRow(d); }
uint32_t GradRow(const Mk& d, uint32_t ts, bool front) {
  if (ts == 2) return d.e * 2 + d.k * 3 + kUnit;
  return front ? SoftMaxRow(d) : d.e * 2 + d.k + kUnit;
}

// FlashV2's per-row scratch on 2201/2002 (basic block: the source stays in place for float).
uint32_t FlashV2Row(const Mk& d, uint32_t ts1, bool basic) {
  const uint32_t wide = d.k == kSpecialK ? kUnit * 2 : kUnit;
  if (basic) return ts1 == 2 ? d.e + d.k + wide : d.e + wide;
  return ts1 == 2 ? d.e * 2 + d.k + kUnit : d.e + kUnit;
}
bool FlashV2Basic(const Mk& d, bool basic) { return basic && d.k % kUnit == 0; }

uint64_t FlashV2RegUpdate(const Mk& d, uint32_t ts1, uint32_t ts2) {
  if (ts1 != 2) return Ceil(d.m, kUnit) + uint64_t{d.m} * d.e * 2;
  const uint64_t size1 = Ceil(d.m * 2, kUnit * 2);
  return size1 + uint64_t{d.m} * (d.e * 2 + d.k + (ts2 == 2 ? 0 : d.e));
}

uint32_t SoftMaxMaxBytes(const char* func, const ge::Shape& s, uint32_t ts) {
  Mk d;
  const Status st = Dims(func, s, ts, ts, &d);
  if (!st.ok()) return SizeOr0(st, 0);
  uint64_t need = uint64_t{d.m} * SoftMaxRow(d);
  if (RegBase()) need = std::max<uint64_t>(RegNeed1(d, 4), need);
  return SizeOr0(st, need);
}

uint32_t SoftMaxMinBytes(const char* func, const ge::Shape& s, uint32_t ts) {
  Mk d;
  const Status st = Dims(func, s, ts, ts, &d);
  if (!st.ok()) return SizeOr0(st, 0);
  if (RegBase()) {
    return SizeOr0(st, std::max<uint64_t>(RegNeed1(d, 4), uint64_t{d.m} * (d.e + d.k)));
  }
  return SizeOr0(st, SoftMaxRow(d));
}

template <class Out>
void SoftMaxPlan(const char* func, const ge::Shape& s, uint32_t ts, uint32_t bytes, Out& out) {
  Plan(func, s, ts, ts, bytes, out,
       [](const Mk& d, uint32_t w) { return GenericBaseM(d, w, SoftMaxRow(d)); });
}

template <class Out>
void FlashPlan(const ge::Shape& s, uint32_t ts, uint32_t bytes, Out& out, bool isUpdate) {
  Plan("SoftMaxFlashTilingFunc", s, ts, ts, bytes, out,
       [&](const Mk& d, uint32_t w) { return GenericBaseM(d, w, FlashRow(d, isUpdate)); });
}

template <class Out>
void GradPlan(const ge::Shape& s, uint32_t ts, uint32_t bytes, Out& out, bool isFront) {
  Plan("SoftMaxGradTilingFunc", s, ts, ts, bytes, out,
       [&](const Mk& d, uint32_t w) { return GenericBaseM(d, w, GradRow(d, ts, isFront)); });
}

uint32_t FlashV2BaseM(const Mk& d, uint32_t w, uint32_t ts1, bool isBasicBlock, bool brc) {
  uint32_t b = 0;
  if (isBasicBlock && d.k % kUnit == 0 && d.m % kTile == 0) {
    b = std::min(w / FlashV2Row(d, ts1, true), d.m);
    AdjustToBasicBlock(b, d.m, d.k);
  } else {
    b = w / FlashV2Row(d, ts1, false);
  }
  const uint32_t tile = brc && ts1 == 2 ? 16 : kTile;
  return ClampBaseM(b, d.m, tile);
}

template <class Out>
void FlashV2Plan(const ge::Shape& s, uint32_t ts1, uint32_t ts2, uint32_t bytes, Out& out,
                 bool isBasicBlock, bool brc) {
  Plan("SoftMaxFlashV2TilingFunc", s, ts1, ts2, bytes, out,
       [&](const Mk& d, uint32_t w) { return FlashV2BaseM(d, w, ts1, isBasicBlock, brc); });
}

}  // namespace
}  // namespace lngrad::tiling

namespace AscendC {

namespace t = lngrad::tiling;

uint32_t GetSoftMaxMaxTmpSize(const ge::Shape& s, const uint32_t ts, const bool) {
  return t::SoftMaxMaxBytes("GetSoftMaxMaxTmpSize", s, ts);
}

uint32_t GetSoftMaxMinTmpSize(const ge::Shape& s, const uint32_t ts, const bool) {
  return t::SoftMaxMinBytes("GetSoftMaxMinTmpSize", s, ts);
}

void SoftMaxTilingFunc(const ge::Shape& s, const uint32_t ts, const uint32_t bytes,
                       optiling::SoftMaxTiling& out) {
  t::SoftMaxPlan("SoftMaxTilingFunc", s, ts, bytes, out);
}
void SoftMaxTilingFunc(const ge::Shape& s, const uint32_t ts, const uint32_t bytes,
                       AscendC::tiling::SoftMaxTiling& out) {
  t::SoftMaxPlan("SoftMaxTilingFunc", s, ts, bytes, out);
}

uint32_t GetSoftMaxFlashMaxTmpSize(const ge::Shape& s, const uint32_t ts, const bool isUpdate,
                                   const bool) {
  t::Mk d;
  const lngrad::Status st = t::Dims("GetSoftMaxFlashMaxTmpSize", s, ts, ts, &d);
  if (!st.ok()) return t::SizeOr0(st, 0);
  if (t::RegBase()) {
    const uint64_t need2 = uint64_t{d.m} * t::SoftMaxRow(d);
    return t::SizeOr0(st, isUpdate ? need2 : std::max<uint64_t>(t::RegNeed1(d, 4), need2));
  }
  return t::SizeOr0(st, uint64_t{d.m} * t::FlashRow(d, isUpdate));
}

uint32_t GetSoftMaxFlashMinTmpSize(const ge::Shape& s, const uint32_t ts, const bool isUpdate,
                                   const bool) {
  t::Mk d;
  const lngrad::Status st = t::Dims("GetSoftMaxFlashMinTmpSize", s, ts, ts, &d);
  if (!st.ok()) return t::SizeOr0(st, 0);
  if (t::RegBase()) {
    const uint64_t need2 = uint64_t{d.m} * (d.e + d.k);
    return t::SizeOr0(st, isUpdate ? need2 : std::max<uint64_t>(t::RegNeed1(d, 4), need2));
  }
  return t::SizeOr0(st, t::FlashRow(d, isUpdate));
}

void SoftMaxFlashTilingFunc(const ge::Shape& s, const uint32_t ts, const uint32_t bytes,
                            optiling::SoftMaxTiling& out, const bool isUpdate) {
  t::FlashPlan(s, ts, bytes, out, isUpdate);
}
void SoftMaxFlashTilingFunc(const ge::Shape& s, const uint32_t ts, const uint32_t bytes,
                            AscendC::tiling::SoftMaxTiling& out, const bool isUpdate) {
  t::FlashPlan(s, ts, bytes, out, isUpdate);
}

uint32_t GetSoftMaxGradMaxTmpSize(const ge::Shape& s, const uint32_t ts, const bool isFront,
                                  const bool) {
  t::Mk d;
  const lngrad::Status st = t::Dims("GetSoftMaxGradMaxTmpSize", s, ts, ts, &d);
  return t::SizeOr0(st, st.ok() ? uint64_t{d.m} * t::GradRow(d, ts, isFront) : 0);
}

uint32_t GetSoftMaxGradMinTmpSize(const ge::Shape& s, const uint32_t ts, const bool isFront,
                                  const bool) {
  t::Mk d;
  const lngrad::Status st = t::Dims("GetSoftMaxGradMinTmpSize", s, ts, ts, &d);
  if (!st.ok()) return t::SizeOr0(st, 0);
  if (t::RegBase()) {
    return t::SizeOr0(st, isFront ? t::Ceil(d.m, t::kUnit) : t::Ceil(d.m * 2, t::kUnit * 2));
  }
  return t::SizeOr0(st, t::GradRow(d, ts, isFront));
}

void SoftMaxGradTilingFunc(const ge::Shape& s, const uint32_t ts, const uint32_t bytes,
                           optiling::SoftMaxTiling& out, const bool isFront) {
  t::GradPlan(s, ts, bytes, out, isFront);
}
void SoftMaxGradTilingFunc(const ge::Shape& s, const uint32_t ts, const uint32_t bytes,
                           AscendC::tiling::SoftMaxTiling& out, const bool isFront) {
  t::GradPlan(s, ts, bytes, out, isFront);
}

bool IsBasicBlockInSoftMax(AscendC::tiling::SoftMaxTiling& tiling, const uint32_t ts) {
  if (ts == 0) return false;
  return tiling.tailM == 0 && tiling.srcK >= t::kBbMin / ts && tiling.srcK < 2048 &&
         tiling.srcK % t::kUnit == 0;
}
bool IsBasicBlockInSoftMax(optiling::SoftMaxTiling& tiling, const uint32_t ts) {
  AscendC::tiling::SoftMaxTiling plain;
  plain.srcK = tiling.get_srcK();
  plain.tailM = tiling.get_tailM();
  return IsBasicBlockInSoftMax(plain, ts);
}

uint32_t GetSoftMaxFlashV2MaxTmpSize(const ge::Shape& s, const uint32_t ts1, const uint32_t ts2,
                                     const bool isUpdate, const bool isBasicBlock, const bool) {
  t::Mk d;
  const lngrad::Status st = t::Dims("GetSoftMaxFlashV2MaxTmpSize", s, ts1, ts2, &d);
  if (!st.ok()) return t::SizeOr0(st, 0);
  const bool basic = isBasicBlock && d.k % t::kUnit == 0 && d.m % t::kTile == 0;
  if (t::RegBase()) {
    if (!isUpdate) {
      return t::SizeOr0(st,
                        std::max<uint64_t>(t::RegNeed1(d, 4), uint64_t{d.m} * t::SoftMaxRow(d)));
    }
    if (d.m <= 2) return t::SizeOr0(st, t::FlashV2RegUpdate(d, ts1, ts2));
    const uint64_t row = basic ? (ts1 == 2 ? t::SoftMaxRow(d) : d.e + t::kUnit)
                               : (ts1 == 2 ? d.e * 2 + d.k + t::kUnit : d.e + t::kUnit);
    return t::SizeOr0(st, d.m * row);
  }
  uint32_t m = d.m;
  if (basic) {
    while (uint64_t{m} * d.k >= t::kUnit * t::kBbMin) m /= 2;
  }
  return t::SizeOr0(st, uint64_t{m} * t::FlashV2Row(d, ts1, basic));
}

uint32_t GetSoftMaxFlashV2MinTmpSize(const ge::Shape& s, const uint32_t ts1, const uint32_t ts2,
                                     const bool isUpdate, const bool isBasicBlock,
                                     const bool isFlashOutputBrc) {
  t::Mk d;
  const lngrad::Status st = t::Dims("GetSoftMaxFlashV2MinTmpSize", s, ts1, ts2, &d);
  if (!st.ok()) return t::SizeOr0(st, 0);
  if (t::RegBase()) {
    if (isUpdate) return t::SizeOr0(st, t::FlashV2RegUpdate(d, ts1, ts2));
    const uint32_t size0 = isBasicBlock ? 4 : t::kTile;
    const uint64_t need1 = uint64_t{d.m} * (size0 + d.k) + t::kUnit * 4 + t::Ceil(d.m, t::kTile);
    return t::SizeOr0(st, std::max<uint64_t>(need1, uint64_t{d.m} * (d.e + d.k)));
  }
  const bool basic = t::FlashV2Basic(d, isBasicBlock);
  uint64_t need =
      basic ? uint64_t{t::kTile} * t::FlashV2Row(d, ts1, true) : t::FlashV2Row(d, ts1, false);
  if (isFlashOutputBrc) {
    const uint64_t rows = std::min(t::kBlk / ts1, d.m);
    need = basic ? need / t::kTile * rows : need * rows;
  }
  return t::SizeOr0(st, need);
}

void SoftMaxFlashV2TilingFunc(const ge::Shape& s, const uint32_t ts1, const uint32_t ts2,
                              const uint32_t bytes, optiling::SoftMaxTiling& out, const bool,
                              const bool isBasicBlock, const bool brc) {
  t::FlashV2Plan(s, ts1, ts2, bytes, out, isBasicBlock, brc);
}
void SoftMaxFlashV2TilingFunc(const ge::Shape& s, const uint32_t ts1, const uint32_t ts2,
                              const uint32_t bytes, AscendC::tiling::SoftMaxTiling& out, const bool,
                              const bool isBasicBlock, const bool brc) {
  t::FlashV2Plan(s, ts1, ts2, bytes, out, isBasicBlock, brc);
}

namespace {
lngrad::Status V3Types(const char* func, uint32_t ts1, uint32_t ts2) {
  if (ts1 == 2 && ts2 == 4) return lngrad::Status::Ok();
  return lngrad::Status::InvalidArgument(t::internal::Prefix("SoftMax", func) +
                                         "dataTypeSize1 must be 2 (half) and dataTypeSize2 4 "
                                         "(float); got " +
                                         std::to_string(ts1) + " and " + std::to_string(ts2));
}
uint32_t V3Row(const t::Mk& d) { return d.e * 5 + 2 * d.k + t::kUnit; }
}  // namespace

void GetSoftMaxFlashV3MaxMinTmpSize(const ge::Shape& s, const uint32_t ts1, const uint32_t ts2,
                                    uint32_t& maxValue, uint32_t& minValue, const bool isUpdate,
                                    const bool) {
  const char* func = "GetSoftMaxFlashV3MaxMinTmpSize";
  t::Mk d;
  lngrad::Status st = V3Types(func, ts1, ts2);
  if (st.ok()) st = t::Dims(func, s, ts1, ts2, &d);
  t::internal::Report(st);
  if (!st.ok()) return;
  if (t::RegBase()) {
    minValue = (d.m * t::kUnit + d.m * d.k + (isUpdate ? d.m * d.e : 0)) * t::kF;
    maxValue = minValue;
    return;
  }
  minValue = V3Row(d) * t::kF;
  maxValue = d.m * minValue;
}

void SoftMaxFlashV3TilingFunc(const ge::Shape& s, const uint32_t ts1, const uint32_t ts2,
                              const uint32_t bytes, optiling::SoftMaxTiling& out, const bool,
                              const bool) {
  AscendC::tiling::SoftMaxTiling plain;
  SoftMaxFlashV3TilingFunc(s, ts1, ts2, bytes, plain, false, false);
  if (lngrad::tiling::LastTilingStatus().ok()) t::ToOptiling(plain, out);
}
void SoftMaxFlashV3TilingFunc(const ge::Shape& s, const uint32_t ts1, const uint32_t ts2,
                              const uint32_t bytes, AscendC::tiling::SoftMaxTiling& out, const bool,
                              const bool) {
  const lngrad::Status st = V3Types("SoftMaxFlashV3TilingFunc", ts1, ts2);
  if (!st.ok()) {
    t::internal::Report(st);
    return;
  }
  t::Plan("SoftMaxFlashV3TilingFunc", s, ts1, ts2, bytes, out,
          [](const t::Mk& d, uint32_t w) { return t::ClampBaseM(w / V3Row(d), d.m); });
}

uint32_t GetLogSoftMaxMaxTmpSize(const ge::Shape s, const uint32_t ts, const bool) {
  return t::SoftMaxMaxBytes("GetLogSoftMaxMaxTmpSize", s, ts);
}

uint32_t GetLogSoftMaxMinTmpSize(const ge::Shape s, const uint32_t ts, const bool) {
  return t::SoftMaxMinBytes("GetLogSoftMaxMinTmpSize", s, ts);
}

void LogSoftMaxTilingFunc(const ge::Shape s, const uint32_t ts, const uint32_t bytes,
                          optiling::LogSoftMaxTiling& out) {
  t::SoftMaxPlan("LogSoftMaxTilingFunc", s, ts, bytes, out);
}
void LogSoftMaxTilingFunc(const ge::Shape s, const uint32_t ts, const uint32_t bytes,
                          AscendC::tiling::LogSoftMaxTiling& out) {
  t::SoftMaxPlan("LogSoftMaxTilingFunc", s, ts, bytes, out);
}

}  // namespace AscendC
