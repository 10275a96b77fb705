// The SoftMax family's shapes that the device computes wrongly (docs/ascendc_kernels.md, the
// project's policy): on arch 2002 the generic loops' NewReduce{Max,Sum}LastNDImpl with a uint8_t
// repeat count, repeat stride or BigBlockReduce repeat that wraps (softmax_v200_work.h
// V200Defect). Checked mode refuses them (softmax_device_defect) before the call writes anything;
// a shape or buffer next to them runs; unchecked runs them (the device's numbers and work buffer
// are pinned by replay.SoftMaxV200Replay.WrappedOperandsFollowTheDeviceUnchecked). The same
// reductions in SoftmaxFlash without update (SoftMaxNDImpl: refused and followed as SoftMax),
// SoftmaxFlashV2's generic loop, with and without update (refused; unchecked it follows the
// device, replay.SoftMaxV200Replay.SoftmaxFlashV2WrappedOperandsFollowTheDevice-
// Unchecked) and its constant-shape config path (refused, CheckConfigDefect, its row stride below
// srcK too; unchecked it follows the device as well).
// On 2201 (V220Defect, CheckV220Defect): the same operands but for oriSrcK in [64, 128), in
// SoftMax, LogSoftMax, SoftmaxFlash, SoftmaxFlashV2 (generic and WITHOUT_BRC) and SoftmaxFlashV3,
// and SoftMax's and SoftmaxFlashV2's constant-shape config paths (CheckConfigDefect); refused in
// checked mode; unchecked SoftMax, LogSoftMax and SoftmaxFlash without update follow the device
// (replay.SoftMaxV220Replay.WrappedOperandsFollowTheDeviceUnchecked), so does SoftmaxFlashV2's
// generic loop (replay.SoftmaxFlashV2ScratchReplay.WrappedOperandsFollowTheDeviceUncheckedOn2201),
// the others keep lngrad's rows.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "kernel_operator.h"
#include "softmax_test_util.h"
#include "softmax_defect_outcome.h"
#include "tiling/tiling_api.h"
#include "../aicore/sanitizer_off.h"

namespace {

using AscendC::LocalTensor;

constexpr const char* k310P = "Ascend310P1";      // 2002
constexpr const char* k910B = "Ascend910B1";      // 2201 (192 KiB of UB)
constexpr const char* k950 = "Ascend950PR_9589";  // 3510

enum class Api {
  kSoftMax,
  kSoftMaxNoStats,
  kLog,
  kFlash,
  kFlashV2,
  kFlashV2Update,
  kFlashV2Cfg130,  // SoftmaxFlashV2 with config {oriSrcM 1, oriSrcK 130}: no update, update
  kFlashV2Cfg130Update,
  kFlashV2Cfg16900,  // config {1, 16900}, no update
  kFlashV2M1,        // SOFTMAX_OUTPUT_WITHOUT_BRC (one statistic a row)
  kFlashV2M1Update,
  kFlashV3,  // half data, float statistics (the sum and max buffers, the mean in expMax's)
  kFlashV3ZeroTiling,  // the same with an all-zero tiling (`SoftMaxTiling t;`)
  kFlashV3HalfRows,    // the same with the tiling of half the rows (srcM / 2)
  // With Run's config C: SoftMax (with and without statistics), SoftmaxFlashV2 (no update, update).
  kSoftMaxCfg,
  kSoftMaxNoStatsCfg,
  kFlashV2Cfg,
  kFlashV2CfgUpdate
};

// The constant-shape configs (oriSrcM 1: not the config's basic block).
constexpr AscendC::SoftmaxConfig kCfg130{true, 1, 130};
constexpr AscendC::SoftmaxConfig kCfg16900{true, 1, 16900};
constexpr AscendC::SoftmaxConfig kCfg16832{true, 1, 16832};  // below 16896: no wrap
constexpr AscendC::SoftmaxConfig kNoBrc = {true, 0, 0,
                                           AscendC::SoftmaxMode::SOFTMAX_OUTPUT_WITHOUT_BRC};

using softmax_defect_test::Outcome;
using softmax_defect_test::RecordCall;

// One call of api on soc (2002 unless said) over m x k rows (oriK reduced), a work buffer of work
// bytes and the kernel's re-tile (a default tiling; SoftmaxFlashV3, which does not re-tile:
// SoftMaxFlashV3TilingFunc's for the shape); dst is src for m above 64, and on 2201 where
// src, dst and the buffer pass 160 KiB (two such tensors do not fit). C: the config of the k*Cfg
// APIs.
template <typename T, const AscendC::SoftmaxConfig& C = kCfg130>
Outcome Run(Api api, uint32_t m, uint32_t k, uint32_t oriK, uint32_t work, bool checked,
            const char* soc = k310P) {
  Outcome r;
  const bool was = lngrad::aicore::CheckedMode();
  lngrad::aicore::SetCheckedMode(checked);
  lngrad::aicore::LaunchOptions o;
  o.soc = soc;
  const auto body = [&] {
    AscendC::TPipe pipe;
    AscendC::TBuf<> bs, bd, bsum, bmax, bt, bexp;
    const uint32_t bytes = m * k * sizeof(T), stat = m * 32;
    const bool inPlace = m > 64 || (soc == k910B && 2 * bytes + work > 160 * 1024);
    pipe.InitBuffer(bs, bytes);
    if (!inPlace) pipe.InitBuffer(bd, bytes);
    pipe.InitBuffer(bsum, stat);
    pipe.InitBuffer(bmax, stat);
    pipe.InitBuffer(bt, work);
    const bool flash = api != Api::kSoftMax && api != Api::kSoftMaxNoStats && api != Api::kLog &&
                       api != Api::kSoftMaxCfg && api != Api::kSoftMaxNoStatsCfg;
    if (flash) pipe.InitBuffer(bexp, stat);
    const LocalTensor<T> src = bs.Get<T>(), dst = inPlace ? src : bd.Get<T>();
    const LocalTensor<T> sum = bsum.Get<T>(), max = bmax.Get<T>();
    const LocalTensor<uint8_t> tmp = bt.Get<uint8_t>();
    const LocalTensor<T> expMax = flash ? bexp.Get<T>() : sum;  // SoftMax and LogSoftMax: none
    const auto bytesOf = [](const auto& t, uint32_t n) {
      const auto* p = reinterpret_cast<const uint8_t*>(t.HostPtr());
      return std::vector<uint8_t>(p, p + n);
    };
    for (uint32_t i = 0; i < m * k; ++i) src.HostPtr()[i] = T(static_cast<float>(i % 13) * 0.25f);
    if (!inPlace) std::memset(dst.HostPtr(), 0x5a, bytes);
    std::memset(sum.HostPtr(), 0x5a, stat);
    std::memset(max.HostPtr(), 0x5a, stat);
    std::memset(expMax.HostPtr(), 0x5a, stat);
    std::memset(tmp.HostPtr(), 0x5a, work);
    const auto all = [&] {
      std::vector<uint8_t> v = bytesOf(src, bytes);
      for (const auto& part : {bytesOf(dst, bytes), bytesOf(sum, stat), bytesOf(max, stat),
                               bytesOf(tmp, work), bytesOf(expMax, stat)}) {
        v.insert(v.end(), part.begin(), part.end());
      }
      return v;
    };
    const AscendC::SoftMaxShapeInfo shape{m, k, m, oriK};
    RecordCall(r, all, [&] {
      if (api == Api::kSoftMaxCfg) {
        AscendC::SoftMax<T, false, false, false, C>(dst, sum, max, src, tmp, SoftMaxTiling{},
                                                    shape);
      } else if (api == Api::kSoftMaxNoStatsCfg) {
        AscendC::SoftMax<T, false, false, C>(dst, src, tmp, SoftMaxTiling{}, shape);
      } else if (api == Api::kFlashV2Cfg) {
        AscendC::SoftmaxFlashV2<T, false, false, false, false, C>(dst, sum, max, src, expMax, sum,
                                                                  max, tmp, SoftMaxTiling{}, shape);
      } else if (api == Api::kFlashV2CfgUpdate) {
        AscendC::SoftmaxFlashV2<T, true, false, false, false, C>(dst, sum, max, src, expMax, sum,
                                                                 max, tmp, SoftMaxTiling{}, shape);
      } else if (api == Api::kSoftMax) {
        AscendC::SoftMax<T>(dst, sum, max, src, tmp, SoftMaxTiling{}, shape);
      } else if (api == Api::kSoftMaxNoStats) {
        AscendC::SoftMax<T>(dst, src, tmp, SoftMaxTiling{}, shape);
      } else if (api == Api::kLog) {
        AscendC::LogSoftMax<T>(dst, sum, max, src, tmp, LogSoftMaxTiling{}, shape);
      } else if (api == Api::kFlash) {
        // A tiling made for the shape (float data: splits of w / 72 rows), run as given.
        const SoftMaxTiling t =
            AscendC::SoftMaxFlashV2TilingFunc(shape, sizeof(T), sizeof(T), work);
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
        AscendC::SoftmaxFlash<T>(dst, sum, max, src, expMax, sum, max, tmp, t, false, shape);
#pragma GCC diagnostic pop
      } else if (api == Api::kFlashV2) {  // the kernel's re-tile of the work buffer
        AscendC::SoftmaxFlashV2<T, false>(dst, sum, max, src, expMax, sum, max, tmp,
                                          SoftMaxTiling{}, shape);
      } else if (api == Api::kFlashV2Update) {
        AscendC::SoftmaxFlashV2<T, true>(dst, sum, max, src, expMax, sum, max, tmp, SoftMaxTiling{},
                                         shape);
      } else if (api == Api::kFlashV2Cfg130) {
        AscendC::SoftmaxFlashV2<T, false, false, false, false, kCfg130>(
            dst, sum, max, src, expMax, sum, max, tmp, SoftMaxTiling{}, shape);
      } else if (api == Api::kFlashV2Cfg130Update) {
        AscendC::SoftmaxFlashV2<T, true, false, false, false, kCfg130>(
            dst, sum, max, src, expMax, sum, max, tmp, SoftMaxTiling{}, shape);
      } else if (api == Api::kFlashV2Cfg16900) {
        AscendC::SoftmaxFlashV2<T, false, false, false, false, kCfg16900>(
            dst, sum, max, src, expMax, sum, max, tmp, SoftMaxTiling{}, shape);
      } else if (api == Api::kFlashV3 || api == Api::kFlashV3ZeroTiling ||
                 api == Api::kFlashV3HalfRows) {
        if constexpr (std::is_same_v<T, half>) {
          const AscendC::SoftMaxParams p{m, k, m, k, 1, 8, 0.9375f};
          const LocalTensor<float> fs = bsum.Get<float>(), fm = bmax.Get<float>();
          const LocalTensor<float> mean = bexp.Get<float>();
          SoftMaxTiling t;  // the kernel does not re-tile: the shape's own tiling
          if (api != Api::kFlashV3ZeroTiling) {
            const uint32_t rows = api == Api::kFlashV3HalfRows ? m / 2 : m;
            AscendC::SoftMaxFlashV3TilingFunc(ge::Shape({rows, k}), 2, 4, work, t, false);
          }
          AscendC::SoftmaxFlashV3<half, float, false>(dst, mean, fs, fm, src, expMax, mean, fs, fm,
                                                      tmp, t, p);
        }
      } else if (api == Api::kFlashV2M1) {
        AscendC::SoftmaxFlashV2<T, false, false, false, false, kNoBrc>(
            dst, sum, max, src, expMax, sum, max, tmp, SoftMaxTiling{}, shape);
      } else {
        AscendC::SoftmaxFlashV2<T, true, false, false, false, kNoBrc>(
            dst, sum, max, src, expMax, sum, max, tmp, SoftMaxTiling{}, shape);
      }
    });
  };
  const lngrad::Status st = lngrad::aicore::Launch(1, body, o);
  EXPECT_TRUE(st.ok()) << st.ToString();
  lngrad::aicore::SetCheckedMode(was);
  return r;
}

struct Shape {
  uint32_t m, k, oriK, work;
};

// bad is refused in checked mode (its message naming needle) with nothing written; ok runs; bad
// runs unchecked. Bad / Ok: the configs of the k*Cfg APIs for the two shapes.
template <typename T, const AscendC::SoftmaxConfig& Bad = kCfg130,
          const AscendC::SoftmaxConfig& Ok = Bad>
void ExpectDefect(Api api, const Shape& bad, const Shape& ok, const std::string& needle,
                  const char* soc = k310P) {
  const std::string what = std::string(soc) + " " + std::to_string(bad.m) + "x" +
                           std::to_string(bad.k) + " oriK " + std::to_string(bad.oriK) + " work " +
                           std::to_string(bad.work);
  const Outcome b = Run<T, Bad>(api, bad.m, bad.k, bad.oriK, bad.work, true, soc);
  EXPECT_EQ(b.check, "softmax_device_defect") << what << ": " << b.msg;
  EXPECT_NE(b.msg.find(needle), std::string::npos) << b.msg;
  EXPECT_TRUE(b.kept) << what << ": the refused call wrote its tensors or buffer";
  const Outcome g = Run<T, Ok>(api, ok.m, ok.k, ok.oriK, ok.work, true, soc);
  EXPECT_EQ(g.check, "") << ok.m << "x" << ok.k << " oriK " << ok.oriK << ": " << g.msg;
  EXPECT_FALSE(g.kept) << ok.m << "x" << ok.k << ": wrote nothing";
  const Outcome u = Run<T, Bad>(api, bad.m, bad.k, bad.oriK, bad.work, false, soc);
  EXPECT_EQ(u.check, "") << what << " unchecked: " << u.msg;
  EXPECT_FALSE(u.kept) << what << " unchecked: wrote nothing";
}

// Splits of more than 255 rows with oriSrcK in [128, 512): the first Max/Add and NextBlock*Impl
// run splitM mod 256 rows (a work buffer of 72 floats a row gives splits of all the rows).
TEST(SoftMaxDefectApi, SplitsOfMoreThan255RowsAreRefusedOn2002) {
  ExpectDefect<float>(Api::kSoftMaxNoStats, {300, 128, 128, 300 * 288}, {300, 128, 128, 255 * 288},
                      "uint8_t repeat count");
  ExpectDefect<float>(Api::kSoftMax, {256, 128, 128, 256 * 288}, {256, 128, 128, 248 * 288},
                      "256 mod 256 = 0 rows");
  ExpectDefect<float>(Api::kLog, {256, 128, 128, 256 * 288}, {256, 128, 64, 256 * 288},
                      "NextBlock");
}

// srcK / 8 above 255 blocks with oriSrcK in [64, 512) and more than one row a split: the repeat
// stride wraps; one row, srcK 2040 and oriSrcK 512 are right.
TEST(SoftMaxDefectApi, RepeatStridesAbove255BlocksAreRefusedOn2002) {
  ExpectDefect<float>(Api::kSoftMax, {3, 2048, 100, 40000}, {3, 2040, 100, 40000},
                      "FirstBlockCopyImpl");
  ExpectDefect<float>(Api::kSoftMaxNoStats, {3, 2048, 300, 40000}, {1, 2048, 300, 40000},
                      "the first Max/Add");
  ExpectDefect<half>(Api::kLog, {2, 2064, 200, 40000}, {2, 2064, 512, 40000}, "(2 here)");
}

// oriSrcK from 16896: BigBlockReduce{Max,Sum}'s remaining repeats (oriSrcK / 64 - 8) wrap.
TEST(SoftMaxDefectApi, BigBlockRepeatsAbove255AreRefusedOn2002) {
  ExpectDefect<float>(Api::kSoftMax, {1, 16896, 16896, 70000}, {1, 16896, 16895, 70000},
                      "BigBlockReduce");
  ExpectDefect<half>(Api::kSoftMaxNoStats, {1, 16960, 16960, 70000}, {1, 16960, 16832, 70000},
                     "(1 here)");
}

// SoftmaxFlash without update on 2002 runs SoftMaxNDImpl, SoftMax's NewReduce{Max,Sum}LastNDImpl
// with the tiling's splits: the same shapes are refused; unchecked it gives the device's numbers
// (replay.SoftMaxV200Replay.SoftmaxFlashWrappedOperandsFollowTheDeviceUnchecked).
TEST(SoftMaxDefectApi, SoftmaxFlashWithoutUpdateIsRefusedOn2002) {
  ExpectDefect<float>(Api::kFlash, {256, 128, 128, 256 * 288}, {256, 128, 128, 248 * 288},
                      "256 mod 256 = 0 rows");
  ExpectDefect<float>(Api::kFlash, {3, 2048, 100, 40000}, {3, 2040, 100, 40000},
                      "FirstBlockCopyImpl");
  ExpectDefect<half>(Api::kFlash, {2, 2064, 200, 40000}, {2, 2064, 512, 40000}, "(2 here)");
}

// SoftmaxFlashV2's generic loop on 2002 (no update and update alike) reduces each split with
// NewReduce{Max,Sum}LastNDImpl over SoftMax's operands (srcK = splitK): refused in checked mode.
TEST(SoftMaxDefectApi, SoftmaxFlashV2GenericIsRefusedOn2002) {
  for (const Api api : {Api::kFlashV2, Api::kFlashV2Update}) {
    ExpectDefect<float>(api, {256, 128, 128, 256 * 288}, {256, 128, 128, 248 * 288}, "NextBlock");
    ExpectDefect<float>(api, {3, 2048, 300, 40000}, {1, 2048, 300, 40000}, "the first Max/Add");
    ExpectDefect<half>(api, {2, 2064, 100, 40000}, {2, 2064, 512, 40000}, "(2 here)");
    ExpectDefect<float>(api, {1, 16896, 16896, 70000}, {1, 16896, 16895, 70000}, "BigBlockReduce");
  }
}

// SoftmaxFlashV2's constant-shape config path on 2002 (not its basic block) reduces with
// NewReduce{Max,Sum}LastNDImpl at a row stride of config.oriSrcK rounded up to 8: splits of more
// than 255 rows with config.oriSrcK in [128, 512) and config.oriSrcK from 16896 wrap, refused in
// checked mode before anything is written (splits of 248 rows run); unchecked they run.
TEST(SoftMaxDefectApi, SoftmaxFlashV2ConfigIsRefusedOn2002) {
  for (const Api api : {Api::kFlashV2Cfg130, Api::kFlashV2Cfg130Update}) {
    ExpectDefect<float>(api, {256, 136, 136, 256 * 288}, {256, 136, 136, 248 * 288},
                        "stride of 136");
  }
  const Outcome b = ::Run<float>(Api::kFlashV2Cfg16900, 1, 16904, 16904, 70000, true);
  EXPECT_EQ(b.check, "softmax_device_defect") << b.msg;
  EXPECT_NE(b.msg.find("BigBlockReduce"), std::string::npos) << b.msg;
  EXPECT_TRUE(b.kept) << "the refused call wrote its tensors or buffer";
  const Outcome u = ::Run<float>(Api::kFlashV2Cfg16900, 1, 16904, 16904, 70000, false);
  EXPECT_EQ(u.check, "") << u.msg;
  EXPECT_FALSE(u.kept);
}

// On 2201 (membase/v220 softmax_common_nd_reduce.h) the same uint8_t operands, but for oriSrcK
// in [64, 128): FirstBlockCopyImpl is a Copy with uint16_t strides there, so oriSrcK 127 runs
// where 2002 refuses it. srcK / 8 above 255 blocks with oriSrcK in [128, 512) and two or more
// rows a split: the first Max/Add's repeat stride wraps (refused; unchecked as the header says).
TEST(SoftMaxDefectApi, RepeatStridesAbove255BlocksAreRefusedOn2201) {
  for (const Api api : {Api::kSoftMax, Api::kSoftMaxNoStats, Api::kLog, Api::kFlash, Api::kFlashV2,
                        Api::kFlashV2Update}) {
    ExpectDefect<float>(api, {3, 2048, 128, 40000}, {3, 2048, 127, 40000}, "the first Max/Add",
                        k910B);
    ExpectDefect<float>(api, {3, 2048, 300, 40000}, {1, 2048, 300, 40000}, "(0 here)", k910B);
    ExpectDefect<half>(api, {2, 2064, 511, 40000}, {2, 2064, 512, 40000}, "(2 here)", k910B);
  }
  // SOFTMAX_OUTPUT_WITHOUT_BRC's generic path (SoftmaxFlashV2M1{NoUpdate,Update}ImplProcess) runs
  // the same reductions (without their broadcast).
  for (const Api api : {Api::kFlashV2M1, Api::kFlashV2M1Update}) {
    ExpectDefect<float>(api, {3, 2048, 128, 40000}, {3, 2048, 127, 40000}, "the first Max/Add",
                        k910B);
    ExpectDefect<half>(api, {2, 2064, 511, 40000}, {2, 2064, 512, 40000}, "(2 here)", k910B);
  }
}

// oriSrcK from 16896 on 2201: BigBlockReduce{Max,Sum}'s remaining repeats wrap, as on 2002 (one
// float row of 16896 is 66 KiB: src in place, and a 70000-byte buffer, fit 192 KiB of UB).
TEST(SoftMaxDefectApi, BigBlockRepeatsAbove255AreRefusedOn2201) {
  for (const Api api : {Api::kSoftMax, Api::kSoftMaxNoStats, Api::kLog, Api::kFlash, Api::kFlashV2,
                        Api::kFlashV2Update}) {
    ExpectDefect<float>(api, {1, 16896, 16896, 70000}, {1, 16896, 16895, 70000}, "BigBlockReduce",
                        k910B);
    ExpectDefect<half>(api, {1, 16960, 16960, 70000}, {1, 16960, 16832, 70000}, "(1 here)", k910B);
  }
  // WITHOUT_BRC with update (without update a split of one row is refused for its own defect).
  ExpectDefect<float>(Api::kFlashV2M1Update, {1, 16896, 16896, 70000}, {1, 16896, 16895, 70000},
                      "BigBlockReduce", k910B);
  // SoftmaxFlashV3 (half rows of oriSrcK = srcK, a multiple of 64 from 512): its work buffer of
  // about 2 srcK floats a row and the source in place fit.
  ExpectDefect<half>(Api::kFlashV3, {1, 16896, 16896, 140000}, {1, 16832, 16832, 140000},
                     "(0 here)", k910B);
}

// The constant-shape config's generic path on 2201 (not its basic block) reduces with
// ReduceLastND {splitM, config.oriSrcK, splitM, cfgK, ...}, cfgK = config.oriSrcK rounded up to 8
// (softmax_v200_work.h CheckConfigDefect): config.oriSrcK from 16896 wraps BigBlockReduce's
// count, whether cfgK is srcK (SoftmaxFlashV2 ran it before) or below srcK (SoftMax's
// ConfigRows and SoftmaxFlashV2's FlashV2ConfigSplits, which named only the rows a split mixes).
// Refused before anything is written, both APIs, both overloads; config.oriSrcK 16832 runs.
TEST(SoftMaxDefectApi, ConstantShapeConfigWrapsAreRefusedOn2201) {
  for (const Api api :
       {Api::kSoftMaxCfg, Api::kSoftMaxNoStatsCfg, Api::kFlashV2Cfg, Api::kFlashV2CfgUpdate}) {
    for (const uint32_t k : {16904u, 16912u}) {  // cfgK = srcK, cfgK below srcK
      ExpectDefect<float, kCfg16900, kCfg16832>(api, {1, k, k, 70000}, {1, 16832, 16832, 70000},
                                                "BigBlockReduce", k910B);
    }
  }
  ExpectDefect<half, kCfg16900, kCfg16832>(Api::kFlashV2Cfg, {1, 16960, 16960, 70000},
                                           {1, 16832, 16832, 70000}, "(0 here)", k910B);
}

// SoftmaxFlashV2's config path on 2002 with cfgK below srcK (FlashV2ConfigSplits; config.oriSrcK
// 130, cfgK 136, srcK 144): splits of 256 rows wrap the first Max/Add's and NextBlock*Impl's
// count: refused naming it (it named only the rows a split mixes); cfgK = srcK with splits of 248
// rows runs.
TEST(SoftMaxDefectApi, SoftmaxFlashV2ConfigBelowSrcKIsRefusedOn2002) {
  for (const Api api : {Api::kFlashV2Cfg130, Api::kFlashV2Cfg130Update}) {
    ExpectDefect<float>(api, {256, 144, 130, 256 * 288}, {256, 136, 130, 248 * 288},
                        "256 mod 256 = 0 rows");
  }
}

// SoftmaxFlashV3 with an all-zero tiling (`SoftMaxTiling t;`): the kernel does not re-tile, and
// its split loop runs rangeM = 0 times with tailM 0 (2201), its phases over tiling.srcM = 0 rows
// (3510): it computes no rows. Refused in checked mode before anything is written (it computed
// lngrad's rows); unchecked nothing is written, as on the device; the shape's own tiling runs.
Outcome RunFlashV3(bool zeroTiling, bool checked, const char* soc) {
  return Run<half>(zeroTiling ? Api::kFlashV3ZeroTiling : Api::kFlashV3, 8, 512, 512, 40960,
                   checked, soc);
}

TEST(SoftMaxDefectApi, SoftmaxFlashV3AllZeroTilingComputesNoRows) {
  for (const char* soc : {k910B, k950}) {
    const Outcome b = RunFlashV3(true, true, soc);
    EXPECT_EQ(b.check, "softmax_device_defect") << soc << ": " << b.msg;
    EXPECT_NE(b.msg.find("computes no rows"), std::string::npos) << b.msg;
    EXPECT_TRUE(b.kept) << soc << ": the refused call wrote its tensors or buffer";
    const Outcome u = RunFlashV3(true, false, soc);
    EXPECT_EQ(u.check, "") << soc << " unchecked: " << u.msg;
    EXPECT_TRUE(u.kept) << soc << " unchecked: the kernel writes nothing";
    const Outcome g = RunFlashV3(false, true, soc);
    EXPECT_EQ(g.check, "") << soc << ": " << g.msg;
    EXPECT_FALSE(g.kept) << soc << ": the shape's tiling wrote nothing";
  }
}

// SoftmaxFlashV3 with the tiling of half the call's rows (SoftMaxFlashV3TilingFunc for {8, 512},
// params.srcM 16): 2201's splits cover 8 rows (RefuseFlashV3Tiling), 3510's register code runs
// tiling.srcM = 8 rows (RefuseRegV3Rows): the last 8 rows are left as they were. Refused in
// checked mode before anything is written; unchecked the kernel's rows are written.
Outcome RunFlashV3HalfRows(bool checked, const char* soc) {
  return Run<half>(Api::kFlashV3HalfRows, 16, 512, 512, 40960, checked, soc);
}

TEST(SoftMaxDefectApi, SoftmaxFlashV3TilingOfFewerRowsIsRefused) {
  for (const char* soc : {k910B, k950}) {
    const Outcome b = RunFlashV3HalfRows(true, soc);
    EXPECT_EQ(b.check, "softmax_device_defect") << soc << ": " << b.msg;
    EXPECT_NE(b.msg.find("16"), std::string::npos) << b.msg;
    EXPECT_TRUE(b.kept) << soc << ": the refused call wrote its tensors or buffer";
    const Outcome u = RunFlashV3HalfRows(false, soc);
    EXPECT_EQ(u.check, "") << soc << " unchecked: " << u.msg;
    EXPECT_FALSE(u.kept) << soc << " unchecked: the kernel's rows are written";
  }
}

}  // namespace
