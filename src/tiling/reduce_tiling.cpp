// Host scratch sizes of the high-level reduce APIs (tiling/reduce/reduce_tiling.h); the values
// are the toolkit's (impl/adv_api/tiling/reduce/{reduce,sum}_tiling.cpp), written from the
// formulas listed in the header.
#include "tiling/reduce/reduce_tiling.h"

#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <string>

#include "tiling_common.h"

namespace {

using lngrad::NpuArch;
using lngrad::Status;
using lngrad::tiling::internal::Prefix;

enum class Family { kMaxMin, kSumMean, kProd, kAnyAll };

struct Call {
  const char* api;
  const char* func;
  Family family;
};

// The toolkit's GetTypeSize: 4 for float and int32, 2 for half, 1 for every other type (its
// 950 integer types too).
uint64_t TypeSize(ge::DataType t) {
  if (t == ge::DT_FLOAT || t == ge::DT_INT32) return 4;
  return t == ge::DT_FLOAT16 ? 2 : 1;
}

// The largest power of two <= n, halved when it is n itself and `halve` holds.
uint64_t PowK(uint64_t n, bool halve) {
  uint64_t k = 1;
  while (k * 2 <= n) k *= 2;
  return (k == n && halve) ? k / 2 : k;
}
uint64_t Up(uint64_t v, uint64_t a) { return (v + a - 1) / a * a; }

bool TypeAllowed(const Call& c, ge::DataType t, bool on3510) {
  auto in = [t](std::initializer_list<ge::DataType> l) {
    return std::find(l.begin(), l.end(), t) != l.end();
  };
  switch (c.family) {
    case Family::kMaxMin:
      if (on3510) {
        return in({ge::DT_INT8, ge::DT_UINT8, ge::DT_INT16, ge::DT_UINT16, ge::DT_FLOAT16,
                   ge::DT_BF16, ge::DT_INT32, ge::DT_UINT32, ge::DT_FLOAT, ge::DT_INT64,
                   ge::DT_UINT64});
      }
      return in({ge::DT_FLOAT, ge::DT_FLOAT16});
    case Family::kSumMean:
      if (on3510 && std::string(c.api) == "ReduceSum") {
        return in({ge::DT_INT32, ge::DT_UINT32, ge::DT_FLOAT, ge::DT_INT64, ge::DT_UINT64});
      }
      return t == ge::DT_FLOAT;
    case Family::kProd:
      return t == ge::DT_FLOAT;
    case Family::kAnyAll:
      return in({ge::DT_FLOAT, ge::DT_UINT8});
  }
  return false;
}

// The toolkit's checks, in its order: the type, 2 dims, isSrcInnerPad, the pattern, dims > 0.
Status CheckCall(const Call& c, const ge::Shape& shape, ge::DataType t, AscendC::ReducePattern p,
                 bool pad, uint32_t* first, uint32_t* last) {
  const std::string pre = Prefix(c.api, c.func);
  const bool on3510 = lngrad::CurrentProduct().arch == NpuArch::k3510;
  if (!TypeAllowed(c, t, on3510)) {
    return Status::InvalidArgument(pre + "the data type (ge::DataType " + std::to_string(t) +
                                   ") is not supported on this platform.");
  }
  if (shape.GetDimNum() != 2) return Status::InvalidArgument(pre + "srcShape dims must be 2.");
  const std::string api = c.api;
  const bool pad_free = on3510 && (api == "ReduceMin" || api == "ReduceMax" || api == "ReduceSum");
  if (!pad && !pad_free) {
    return Status::InvalidArgument(pre + "isSrcInnerPad must be true on this platform.");
  }
  if (p != AscendC::ReducePattern::AR && p != AscendC::ReducePattern::RA) {
    return Status::InvalidArgument(pre + "Currently only support AR and RA pattern.");
  }
  return lngrad::tiling::internal::ArDims(c.api, c.func, shape, first, last);
}

uint64_t Bytes(const Call& c, uint64_t first, uint64_t last, uint64_t ts, bool ar, bool reuse) {
  const bool u8 = c.family == Family::kAnyAll && ts == 1;
  if (u8 && ar) return Up(last, 32) * 2 + first * 32;
  if (c.family == Family::kProd && reuse) return ar ? 256 : 0;
  if (reuse) return 0;
  const uint64_t kf = PowK(first, first > 1);
  switch (c.family) {
    case Family::kSumMean:
      if (!ar) return kf * Up(last, 8) * 4;
      return last <= 64 ? 0 : first * PowK(last, first > 1) * 4;
    case Family::kProd:
      if (!ar) return kf * Up(last * 4, 32);
      return (std::max<uint64_t>(8, PowK(last, first > 1)) + first * 8) * 4 + 256;
    default:
      break;
  }
  if (!ar) return kf * Up(last * ts, 32);
  if (last <= 32 / ts) return 0;
  return first * (last < 256 / ts ? 32 : 256);
}

void Reduce(const Call& c, const ge::Shape& shape, ge::DataType t, AscendC::ReducePattern p,
            bool pad, bool reuse, uint32_t& maxValue, uint32_t& minValue) {
  uint32_t first = 0, last = 0;
  Status s = CheckCall(c, shape, t, p, pad, &first, &last);
  if (s.ok()) {
    const uint64_t b = Bytes(c, first, last, TypeSize(t), p == AscendC::ReducePattern::AR, reuse);
    s = lngrad::tiling::internal::StoreMaxMin(c.api, c.func, b, b, maxValue, minValue);
  }
  lngrad::tiling::internal::Report(s);
}

}  // namespace

namespace AscendC {

#define LNGRAD_REDUCE_TMP_SIZE(Name, FAMILY)                                                   \
  void Get##Name##MaxMinTmpSize(const ge::Shape& srcShape, const ge::DataType dataType,        \
                                ReducePattern pattern, bool isSrcInnerPad, bool isReuseSource, \
                                uint32_t& maxValue, uint32_t& minValue) {                      \
    Reduce({#Name, "Get" #Name "MaxMinTmpSize", FAMILY}, srcShape, dataType, pattern,          \
           isSrcInnerPad, isReuseSource, maxValue, minValue);                                  \
  }
LNGRAD_REDUCE_TMP_SIZE(ReduceProd, Family::kProd)
LNGRAD_REDUCE_TMP_SIZE(ReduceSum, Family::kSumMean)
LNGRAD_REDUCE_TMP_SIZE(ReduceMean, Family::kSumMean)
LNGRAD_REDUCE_TMP_SIZE(ReduceMax, Family::kMaxMin)
LNGRAD_REDUCE_TMP_SIZE(ReduceMin, Family::kMaxMin)
LNGRAD_REDUCE_TMP_SIZE(ReduceAny, Family::kAnyAll)
LNGRAD_REDUCE_TMP_SIZE(ReduceAll, Family::kAnyAll)
#undef LNGRAD_REDUCE_TMP_SIZE

void GetSumMaxMinTmpSize(const uint32_t n, const uint32_t typeSize, const bool isReuseSource,
                         uint32_t& maxSize, uint32_t& minSize) {
  (void)isReuseSource;
  const std::string pre = Prefix("Sum", "GetSumMaxMinTmpSize");
  Status s = Status::Ok();
  if (typeSize == 0 || typeSize > 32) {
    s = Status::InvalidArgument(pre + "The parameter typeSize is " + std::to_string(typeSize) +
                                ", expected is 2 or 4!");
  } else if (n == 0) {
    s = Status::InvalidArgument(pre + "The parameter n is 0, expected is greater than 0!");
  } else {
    const uint64_t per_rep = 256 / typeSize, per_blk = 32 / typeSize;
    const uint64_t b = Up((n + per_rep - 1) / per_rep, per_blk) * typeSize;
    s = lngrad::tiling::internal::StoreMaxMin("Sum", "GetSumMaxMinTmpSize", b, b, maxSize, minSize);
  }
  lngrad::tiling::internal::Report(s);
}

void GetMeanMaxMinTmpSize(const uint32_t n, const uint32_t srcTypeSize, const uint32_t accTypeSize,
                          const bool isReuseSource, uint32_t& maxSize, uint32_t& minSize) {
  (void)isReuseSource;
  const std::string pre = Prefix("Mean", "GetMeanMaxMinTmpSize");
  const bool widen = srcTypeSize == 2 && accTypeSize == 4;
  Status s = Status::Ok();
  if (!(srcTypeSize == accTypeSize && (srcTypeSize == 2 || srcTypeSize == 4)) && !widen) {
    s = Status::InvalidArgument(pre + "The parameter (srcTypeSize, accTypeSize) is (" +
                                std::to_string(srcTypeSize) + ", " + std::to_string(accTypeSize) +
                                "), expected is (2, 2)/(4, 4)/(2, 4).");
  } else if (n == 0) {
    s = Status::InvalidArgument(pre + "The parameter n is 0, expected is greater than 0!");
  } else {
    const uint64_t per_rep = 256 / (widen ? 4 : srcTypeSize);
    uint64_t b = Up((n + per_rep - 1) / per_rep, 32);
    if (widen) b += Up(uint64_t{n} * 2, 32) / 2 * 4;
    s = lngrad::tiling::internal::StoreMaxMin("Mean", "GetMeanMaxMinTmpSize", b, b, maxSize,
                                              minSize);
  }
  lngrad::tiling::internal::Report(s);
}

void GetMeanTmpBufferFactorSize(const uint32_t typeSize, uint32_t& maxLiveNodeCount,
                                uint32_t& extraBuffer) {
  (void)typeSize;
  maxLiveNodeCount = 1;
  extraBuffer = 0;
  lngrad::tiling::internal::Report(Status::Ok());
}

void GetReduceXorSumMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize,
                                  const bool isReuseSource, uint32_t& maxValue,
                                  uint32_t& minValue) {
  const std::string pre = Prefix("ReduceXorSum", "GetReduceXorSumMaxMinTmpSize");
  const int64_t n = srcShape.GetShapeSize();
  Status s = Status::Ok();
  if (n <= 0) {
    s = Status::InvalidArgument(pre + "The parameter srcShape size is " + std::to_string(n) +
                                ", expected is greater than 0!");
  } else if (typeSize != 2) {
    s = Status::InvalidArgument(pre + "The parameter typeSize is " + std::to_string(typeSize) +
                                ", expected is 2!");
  } else {
    const uint64_t b = (isReuseSource ? 2 : 3) * std::max<uint64_t>(uint64_t(n) * 2, 256);
    s = lngrad::tiling::internal::StoreMaxMin("ReduceXorSum", "GetReduceXorSumMaxMinTmpSize", b, b,
                                              maxValue, minValue);
  }
  lngrad::tiling::internal::Report(s);
}

}  // namespace AscendC
