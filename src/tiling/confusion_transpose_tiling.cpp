// Host tiling of ConfusionTranspose / Transpose (tiling/transform/confusion_transpose_tiling.h);
// the formulas are listed there. Each type's params come as one array, param0 first.
#include "tiling/transform/confusion_transpose_tiling.h"

#include <array>
#include <iterator>
#include <cstdint>
#include <string>
#include <vector>

#include "tiling_common.h"

namespace {

using lngrad::Status;
namespace in = lngrad::tiling::internal;
using Params = std::array<uint32_t, 18>;

constexpr uint32_t kCube = 16;       // BLOCK_CUBE
constexpr uint32_t kCubeSize = 256;  // CUBE_MAX_SIZE
constexpr uint32_t kBlock = 32;      // ONE_BLK_SIZE

// The TransposeType values the tiling knows.
enum Type : uint32_t {
  kNz2Nd0213 = 1,
  kNz2Nz0213 = 2,
  kNz2Nz012WithN = 3,
  kNz2Nd012WithN = 4,
  kNz2Nd012WithoutN = 5,
  kNz2Nz012WithoutN = 6,
  kNd2NdOnly = 7,
  kNd2Nd021 = 13,
  kNd2Nd102 = 14,
  kNd2Nd210 = 15,
};

uint32_t Blocks(uint64_t x) { return static_cast<uint32_t>((x + kCube - 1) / kCube); }

// The dims the type reads: 4 for the NZ types, 2 for ND2ND_ONLY, 2 or 3 for 021, 3 for 102/210.
bool DimsFit(uint32_t type, size_t n) {
  switch (type) {
    case kNd2NdOnly:
      return n == 2;
    case kNd2Nd021:
      return n == 2 || n == 3;
    case kNd2Nd102:
    case kNd2Nd210:
      return n == 3;
    default:
      return n == 4;
  }
}

Params P0213(const std::vector<uint32_t>& d, uint32_t stack, uint32_t ts) {
  const uint32_t a1 = d[1], align_a2 = Blocks(d[2]) * kCube, width = Blocks(d[3]);
  const uint32_t align_a3 = width * kCube;
  const uint32_t pop = stack / ts / kCubeSize * kCubeSize, pop_h = pop / kCube;
  const uint32_t need = align_a2 * kCube, main_blocks = need / pop;
  return {kBlock / ts,
          d[0],
          a1,
          align_a3,
          align_a2,
          width,
          pop,
          pop_h,
          need,
          main_blocks,
          need % pop,
          align_a2 * align_a3,
          a1 * align_a2 * align_a3,
          a1 * align_a3,
          a1 * kCube,
          pop_h * main_blocks * a1 * align_a3};
}

Params P2Nz012N(const std::vector<uint32_t>& d, uint32_t ts) {
  const uint32_t bs = kBlock / ts, n = d[1], hn = d[3], h = hn * n;
  const uint32_t hb = Blocks(h), sb = Blocks(d[2]), hnb = Blocks(hn);
  const uint32_t align_h = hb * kCube, align_s = sb * kCube, align_hn = hnb * kCube;
  return {bs,
          d[0],
          n,
          hn,
          kCube / bs,
          h,
          hb,
          sb,
          align_h,
          align_s,
          hnb,
          align_hn,
          align_hn - hn,
          align_s * kCube,
          n * hnb,
          n * align_hn * align_s,
          align_h * align_s};
}

// The dims the NZ 012 types share: {B, N, S, H/N} and their block counts.
struct Nz012 {
  uint32_t bs, b, n, hn, h, hb, sb, hnb;
};
Nz012 Nz012Of(const std::vector<uint32_t>& d, uint32_t ts) {
  const uint32_t n = d[1], hn = d[3];
  return {kBlock / ts, d[0], n, hn, n * hn, Blocks(n * hn), Blocks(d[2]), Blocks(hn)};
}
// params 0..7 of NZ2ND_012_WITH_N and the WITHOUT_N types: bs, B, N, H/N, H and the blocks.
Params Head012(const Nz012& z) { return {z.bs, z.b, z.n, z.hn, z.h, z.hb, z.sb, z.hnb}; }

Params P2Nd012N(const std::vector<uint32_t>& d, uint32_t ts) {
  const Nz012 z = Nz012Of(d, ts);
  const uint32_t align_hn = z.hnb * kCube;
  Params p = Head012(z);
  const uint32_t tail[] = {align_hn,
                           align_hn - z.hn,
                           z.sb * kCubeSize,
                           z.n * z.hnb,
                           z.sb * kCube * align_hn,
                           align_hn * kCube,
                           align_hn * z.bs,
                           z.n * align_hn * z.sb * kCube,
                           z.hb * z.sb * kCubeSize,
                           kCube / z.bs};
  for (size_t i = 0; i < std::size(tail); ++i) p[8 + i] = tail[i];
  return p;
}

Params P012(const std::vector<uint32_t>& d, uint32_t ts) {
  const Nz012 z = Nz012Of(d, ts);
  const uint32_t align_h = z.hb * kCube;
  Params p = Head012(z);
  const uint32_t tail[] = {align_h,
                           z.sb * kCubeSize,
                           align_h * kCube,
                           z.bs * align_h,
                           z.n * z.hnb * kCube * z.sb * kCube,
                           align_h * z.sb * kCube,
                           kCube / z.bs};
  for (size_t i = 0; i < std::size(tail); ++i) p[8 + i] = tail[i];
  return p;
}

Params POnly(const std::vector<uint32_t>& d, uint32_t ts) {
  const uint32_t bs = kBlock / ts, h = d[0], w = d[1];
  return {bs, h, w, h / kCube, h * bs * ts / kBlock, w / bs};
}

Params PDims(const std::vector<uint32_t>& d) {
  if (d.size() == 2) return {1, d[0], d[1]};
  return {d[0], d[1], d[2]};
}

Status Validate(const char* func, const ge::Shape& shape, uint32_t typeSize, uint32_t type,
                std::vector<uint32_t>* dims) {
  const std::string where = in::Prefix("Transpose", func);
  if (typeSize == 0) return Status::InvalidArgument(where + "typeSize must be greater than 0.");
  if (!DimsFit(type, shape.GetDimNum())) {
    return Status::InvalidArgument(where + "srcShape has " + std::to_string(shape.GetDimNum()) +
                                   " dims, which TransposeType " + std::to_string(type) +
                                   " does not take.");
  }
  for (size_t i = 0; i < shape.GetDimNum(); ++i) {
    uint32_t v = 0;
    LNGRAD_RETURN_IF_ERROR(in::FitU32("Transpose", func, "srcShape dim", shape.GetDim(i), &v));
    dims->push_back(v);
  }
  return Status::Ok();
}

bool Known(uint32_t t) { return (t >= kNz2Nd0213 && t <= kNd2NdOnly) || (t >= 13 && t <= 15); }

}  // namespace

namespace lngrad::tiling {

Status TransposeMaxMinTmpSize(const ge::Shape& srcShape, uint32_t typeSize,
                              uint32_t transposeTypeIn, uint32_t& maxValue, uint32_t& minValue) {
  std::vector<uint32_t> d;
  if (!Known(transposeTypeIn)) return Status::Ok();
  LNGRAD_RETURN_IF_ERROR(
      Validate("GetTransposeMaxMinTmpSize", srcShape, typeSize, transposeTypeIn, &d));
  uint64_t max_b = 0, min_b = 0;
  if (transposeTypeIn == kNz2Nd0213 || transposeTypeIn == kNz2Nz0213) {
    max_b = uint64_t{Blocks(d[2])} * kCube * kCube * typeSize;
    min_b = uint64_t{kCubeSize} * typeSize;
  } else if (transposeTypeIn <= kNz2Nz012WithoutN) {
    max_b = min_b = uint64_t{2} * kCubeSize * typeSize;
  }
  return in::StoreMaxMin("Transpose", "GetTransposeMaxMinTmpSize", max_b, min_b, maxValue,
                         minValue);
}

Status TransposeTilingInfo(const ge::Shape& srcShape, uint32_t stackBufferSize, uint32_t typeSize,
                           uint32_t transposeTypeIn,
                           AscendC::tiling::ConfusionTransposeTiling& tiling) {
  constexpr const char* func = "GetTransposeTilingInfo";
  if (!Known(transposeTypeIn)) {
    tiling = {};  // the toolkit saves an untouched (zero) tiling: ND2NZ_WITH_INTLV sets no field
    return Status::Ok();
  }
  std::vector<uint32_t> d;
  LNGRAD_RETURN_IF_ERROR(Validate(func, srcShape, typeSize, transposeTypeIn, &d));
  Params p{};
  switch (transposeTypeIn) {
    case kNz2Nd0213:
    case kNz2Nz0213:
      if (stackBufferSize / typeSize < kCubeSize) {
        return Status::InvalidArgument(in::Prefix("Transpose", func) + "stackBufferSize " +
                                       std::to_string(stackBufferSize) +
                                       " holds less than 256 elements.");
      }
      p = P0213(d, stackBufferSize, typeSize);
      break;
    case kNz2Nz012WithN:
      p = P2Nz012N(d, typeSize);
      break;
    case kNz2Nd012WithN:
      p = P2Nd012N(d, typeSize);
      break;
    case kNz2Nd012WithoutN:
    case kNz2Nz012WithoutN:
      p = P012(d, typeSize);
      break;
    case kNd2NdOnly:
      p = POnly(d, typeSize);
      break;
    default:
      p = PDims(d);
      break;
  }
  AscendC::tiling::ConfusionTransposeTiling t;
  uint32_t* out = &t.param0;
  for (size_t i = 0; i < p.size(); ++i) out[i] = p[i];
  tiling = t;
  return Status::Ok();
}

}  // namespace lngrad::tiling

namespace AscendC {

namespace {
void Copy(const tiling::ConfusionTransposeTiling& from, optiling::ConfusionTransposeTiling& to) {
#define LNGRAD_COPY_FIELD(type, name) to.set_##name(from.name);
  LNGRAD_CONFUSION_TRANSPOSE_TILING_FIELDS(LNGRAD_COPY_FIELD)
#undef LNGRAD_COPY_FIELD
}
}  // namespace

void GetTransposeMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize,
                               const uint32_t transposeTypeIn, uint32_t& maxValue,
                               uint32_t& minValue) {
  in::Report(lngrad::tiling::TransposeMaxMinTmpSize(srcShape, typeSize, transposeTypeIn, maxValue,
                                                    minValue));
}

void GetConfusionTransposeMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize,
                                        const uint32_t transposeTypeIn, uint32_t& maxValue,
                                        uint32_t& minValue) {
  GetTransposeMaxMinTmpSize(srcShape, typeSize, transposeTypeIn, maxValue, minValue);
}

void GetTransposeTilingInfo(const ge::Shape& srcShape, const uint32_t stackBufferSize,
                            const uint32_t typeSize, const uint32_t transposeTypeIn,
                            AscendC::tiling::ConfusionTransposeTiling& tiling) {
  in::Report(lngrad::tiling::TransposeTilingInfo(srcShape, stackBufferSize, typeSize,
                                                 transposeTypeIn, tiling));
}

void GetTransposeTilingInfo(const ge::Shape& srcShape, const uint32_t stackBufferSize,
                            const uint32_t typeSize, const uint32_t transposeTypeIn,
                            optiling::ConfusionTransposeTiling& tiling) {
  tiling::ConfusionTransposeTiling plain;
  const lngrad::Status s = lngrad::tiling::TransposeTilingInfo(srcShape, stackBufferSize, typeSize,
                                                               transposeTypeIn, plain);
  if (s.ok() && Known(transposeTypeIn)) Copy(plain, tiling);
  in::Report(s);
}

void GetConfusionTransposeTilingInfo(const ge::Shape& srcShape, const uint32_t stackBufferSize,
                                     const uint32_t typeSize, const uint32_t transposeTypeIn,
                                     optiling::ConfusionTransposeTiling& tiling) {
  GetTransposeTilingInfo(srcShape, stackBufferSize, typeSize, transposeTypeIn, tiling);
}

void GetConfusionTransposeTilingInfo(const ge::Shape& srcShape, const uint32_t stackBufferSize,
                                     const uint32_t typeSize, const uint32_t transposeTypeIn,
                                     AscendC::tiling::ConfusionTransposeTiling& tiling) {
  GetTransposeTilingInfo(srcShape, stackBufferSize, typeSize, transposeTypeIn, tiling);
}

void GetConfusionTransposeOnlyTilingInfo(const ge::Shape& srcShape, const uint32_t stackBufferSize,
                                         const uint32_t typeSize,
                                         optiling::ConfusionTransposeTiling& tiling) {
  GetTransposeTilingInfo(srcShape, stackBufferSize, typeSize, kNd2NdOnly, tiling);
}

void GetConfusionTransposeOnlyTilingInfo(const ge::Shape& srcShape, const uint32_t stackBufferSize,
                                         const uint32_t typeSize,
                                         AscendC::tiling::ConfusionTransposeTiling& tiling) {
  GetTransposeTilingInfo(srcShape, stackBufferSize, typeSize, kNd2NdOnly, tiling);
}

}  // namespace AscendC
