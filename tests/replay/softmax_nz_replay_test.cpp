// SoftMax with isDataFormatNZ through lngrad's Ascend C API on the 910B (dav-2201), compared bit
// for bit with the replay of the toolkit's NZ source (ReplaySoftMaxNz): float, half, half with
// float statistics; one fractal column and many, K tails (oriK % 16 != 0), one split and
// several with a tail split, oriSrcM < srcM (the kernel re-tiles from its tmp buffer).
#include "softmax_replay_util.h"

#include "../aicore/sanitizer_off.h"

namespace {

using namespace softmax_replay_test;  // NOLINT(build/namespaces)

constexpr uint32_t kNz = 16;

struct NzCase {
  uint32_t m, k, oriK, oriM, workRows;  // workRows: the tiling's tmp budget in rows (0: all)
};

// ND rows [m, k] to fractals [k / 16, m, 16].
template <class T>
std::vector<T> ToNz(const std::vector<T>& nd, uint32_t m, uint32_t k) {
  std::vector<T> nz(nd.size());
  for (uint32_t r = 0; r < m; ++r) {
    for (uint32_t c = 0; c < k; ++c) nz[((c / kNz) * m + r) * kNz + c % kNz] = nd[r * k + c];
  }
  return nz;
}

// oriStride: the given tiling has srcM = oriSrcM, which the kernel keeps (its check compares
// oriSrcM with tiling.srcM): the fractals are then oriSrcM rows apart. flash: SoftmaxFlashV2
// without update, which always re-tiles from its tmp buffer (workRows rows of 48 + k floats, or
// all of buffer 3) and does not read the given tiling.
template <class T, class S, bool flash = false>
void CheckNz(const NzCase& c, uint32_t seed, bool oriStride = false, bool nanRows = false) {
  SCOPED_TRACE(std::string(flash ? "flashv2 " : "") + "m " + std::to_string(c.m) + " k " +
               std::to_string(c.k) + " oriK " + std::to_string(c.oriK) + " oriM " +
               std::to_string(c.oriM) + " workRows " + std::to_string(c.workRows) + " seed " +
               std::to_string(seed) + (nanRows ? " NaN rows" : ""));
  auto nd = Inputs<T>(seed, {c.m, c.k, c.oriK});
  for (uint32_t r = 0; nanRows && r < c.m; ++r) {  // a NaN at a moving column, or the last one
    if (r % 3 == 1) nd[r * c.k + (r * 7 + 3) % c.oriK] = lngrad_replay::FromFloat<T>(NAN);
    if (r % 3 == 2) nd[r * c.k + c.oriK - 1] = lngrad_replay::FromFloat<T>(-NAN);
  }
  const auto x = ToNz(nd, c.m, c.k);
  const auto init = Uniform<T>(seed + 7, x.size(), -3.0f, 3.0f);
  const uint32_t stats = c.m * 32 / sizeof(S);
  const auto statInit = Uniform<S>(seed + 8, stats, -1.0f, 1.0f);
  const uint32_t work = c.workRows == 0 ? kUbBufBytes / 4 : c.workRows * (kNz + c.k);
  const SmxTiling given =
      lngrad_replay::SmxNzTiling(work, oriStride ? c.oriM : c.m, c.k, c.oriM, sizeof(S));
  SoftMaxTiling t;
  std::memcpy(static_cast<void*>(&t), &given, sizeof t);
  std::vector<T> y;
  std::vector<S> sum, max;
  uint32_t tmpFloats = 0;
  OnBlock(
      [&](Ub& ub) {
        Put(ub, 0, x);
        Put(ub, 1, init);
        Put(ub, 2, statInit);
        Put(ub, 2, statInit, kMaxAt<S>);
        auto st = ub.Get<Dev<S>>(2);
        auto tmp = ub.Get<uint8_t>(3);
        if (flash && c.workRows != 0) tmp.SetSize(c.workRows * (3 * kNz + c.k) * 4);
        tmpFloats = tmp.GetSize() / 4;
        const AscendC::SoftMaxShapeInfo shape{c.m, c.k, c.oriM, c.oriK};
        auto dst = ub.Get<Dev<T>>(1);
        if constexpr (flash) {
          AscendC::SoftmaxFlashV2<Dev<T>, false, false, false, true>(
              dst, st[0], st[kMaxAt<S>], ub.Get<Dev<T>>(0), dst, st[0], st[kMaxAt<S>], tmp,
              SoftMaxTiling{}, shape);
        } else {
          AscendC::SoftMax<Dev<T>, false, false, true>(dst, st[0], st[kMaxAt<S>], ub.Get<Dev<T>>(0),
                                                       tmp, t, shape);
        }
        y = Take<T>(ub, 1, x.size());
        sum = Take<S>(ub, 2, stats);
        max = Take<S>(ub, 2, stats, kMaxAt<S>);
      },
      k910B);
  std::vector<T> wy = init;
  std::vector<S> wsum = statInit, wmax = statInit;
  if constexpr (flash) {
    const SmxTiling used = lngrad_replay::SmxNzFlashV2Tiling(tmpFloats, c.m, c.k, sizeof(S));
    lngrad_replay::ReplaySoftmaxFlashV2NzNoUpdate(used, c.oriM, c.oriK, x.data(), wy.data(),
                                                  wsum.data(), wmax.data());
  } else {
    // SoftMax keeps the given tiling when it matches the shape, else re-tiles from its tmp.
    const SmxTiling used = c.oriM == c.m || oriStride
                               ? given
                               : lngrad_replay::SmxNzTiling(tmpFloats, c.m, c.k, c.oriM, sizeof(S));
    lngrad_replay::ReplaySoftMaxNz(used, c.oriK, x.data(), wy.data(), wsum.data(), wmax.data());
  }
  ExpectSameBits(y, wy, "dst");
  ExpectSameBits(sum, wsum, "sum");
  ExpectSameBits(max, wmax, "max");
}

const NzCase kCases[] = {{1, 16, 16, 1, 0},     {3, 16, 5, 3, 0},    {5, 32, 32, 5, 0},
                         {7, 48, 40, 7, 0},     {9, 64, 50, 9, 0},   {16, 80, 80, 16, 0},
                         {17, 160, 151, 17, 0}, {2, 32, 17, 2, 0},   {24, 96, 90, 24, 9},
                         {20, 48, 33, 20, 3},   {13, 16, 16, 13, 4}, {8, 64, 61, 5, 0},
                         {40, 32, 30, 40, 16},  {11, 16, 9, 11, 2},  {4, 64, 20, 4, 0}};

TEST(SoftMaxNzReplay, FloatMatchesBitForBit) {
  uint32_t seed = 500;
  for (const NzCase& c : kCases) CheckNz<float, float>(c, seed++);
  CheckNz<float, float>({8, 64, 61, 5, 0}, 560, true);
  CheckNz<Half, float>({12, 48, 40, 7, 3}, 561, true);
}

TEST(SoftMaxNzReplay, HalfMatchesBitForBit) {
  uint32_t seed = 600;
  for (const NzCase& c : kCases) {
    CheckNz<Half, Half>(c, seed++);
    CheckNz<Half, float>(c, seed++);
  }
}

// Rows with a NaN among their reduced columns: the max's lane reductions decide which NaN
// (and whether one) reaches the statistics and dst.
TEST(SoftMaxNzReplay, NanRowsMatchBitForBit) {
  uint32_t seed = 700;
  for (const NzCase& c : kCases) {
    CheckNz<float, float>(c, seed++, false, true);
    CheckNz<Half, Half>(c, seed++, false, true);
    CheckNz<Half, float>(c, seed++, false, true);
  }
}

TEST(SoftmaxFlashV2NzReplay, NoUpdateMatchesBitForBit) {
  uint32_t seed = 1200;
  for (const NzCase& c : kCases) {
    CheckNz<float, float, true>(c, seed++);
    CheckNz<Half, Half, true>(c, seed++);
    CheckNz<Half, float, true>(c, seed++);
  }
}

// SoftmaxFlashV2 NZ with update: statistics lane by lane (each lane its own value), buffer 2
// holds expSum, inExpSum, max, inMax; expMax after dst in buffer 1.
template <class T, class S>
void CheckFlashNzUpdate(const NzCase& c, uint32_t seed) {
  SCOPED_TRACE("flashv2 update m " + std::to_string(c.m) + " k " + std::to_string(c.k) + " oriK " +
               std::to_string(c.oriK) + " oriM " + std::to_string(c.oriM) + " workRows " +
               std::to_string(c.workRows));
  constexpr uint32_t kEm = 8192, kQ = kMaxAt<S> / 2;
  const auto x = ToNz(Inputs<T>(seed, {c.m, c.k, c.oriK}), c.m, c.k);
  const auto init = Uniform<T>(seed + 7, x.size(), -3.0f, 3.0f);
  const uint32_t lanes = 32 / sizeof(S), emLanes = 32 / sizeof(T);
  const auto inSum = Stats<S>(seed + 1, c.m, lanes, 1.0f, 20.0f, true);
  const auto inMax = Stats<S>(seed + 2, c.m, lanes, -4.0f, 6.0f, true);
  const auto outInit = Uniform<S>(seed + 3, c.m * lanes, -1.0f, 1.0f);
  const auto emInit = Uniform<T>(seed + 4, c.m * emLanes, -1.0f, 1.0f);
  std::vector<T> y, em;
  std::vector<S> sum, max;
  uint32_t tmpFloats = 0;
  OnBlock(
      [&](Ub& ub) {
        Put(ub, 0, x);
        Put(ub, 1, init);
        Put(ub, 1, emInit, kEm);
        Put(ub, 2, outInit);
        Put(ub, 2, inSum, kQ);
        Put(ub, 2, outInit, kMaxAt<S>);
        Put(ub, 2, inMax, kMaxAt<S> + kQ);
        auto st = ub.Get<Dev<S>>(2);
        auto tmp = ub.Get<uint8_t>(3);
        if (c.workRows != 0) tmp.SetSize(c.workRows * (3 * kNz + c.k) * 4);
        tmpFloats = tmp.GetSize() / 4;
        auto out = ub.Get<Dev<T>>(1);
        AscendC::SoftmaxFlashV2<Dev<T>, true, false, false, true>(
            out, st[0], st[kMaxAt<S>], ub.Get<Dev<T>>(0), out[kEm], st[kQ], st[kMaxAt<S> + kQ], tmp,
            SoftMaxTiling{}, {c.m, c.k, c.oriM, c.oriK});
        y = Take<T>(ub, 1, x.size());
        em = Take<T>(ub, 1, emInit.size(), kEm);
        sum = Take<S>(ub, 2, outInit.size());
        max = Take<S>(ub, 2, outInit.size(), kMaxAt<S>);
      },
      k910B);
  const SmxTiling used = lngrad_replay::SmxNzFlashV2Tiling(tmpFloats, c.m, c.k, sizeof(S));
  std::vector<T> wy = init, wem = emInit;
  std::vector<S> wsum = outInit, wmax = outInit;
  lngrad_replay::ReplaySoftmaxFlashV2NzUpdate<T, S>(
      used, c.oriM, c.oriK,
      {x.data(), wy.data(), wsum.data(), wmax.data(), wem.data(), inSum.data(), inMax.data()});
  ExpectSameBits(y, wy, "dst");
  ExpectSameBits(em, wem, "expMax");
  ExpectSameBits(sum, wsum, "expSum");
  ExpectSameBits(max, wmax, "max");
}

TEST(SoftmaxFlashV2NzReplay, UpdateMatchesBitForBit) {
  uint32_t seed = 1300;
  for (const NzCase& c : kCases) {
    CheckFlashNzUpdate<float, float>(c, seed++);
    CheckFlashNzUpdate<Half, Half>(c, seed++);
    CheckFlashNzUpdate<Half, float>(c, seed++);
  }
}

// SimpleSoftMax NZ: statistics lane by lane (each lane its own value); stale: the given tiling's
// srcM differs from the shape's, so the kernel re-tiles from its tmp buffer (oriM rows).
template <class T, class S>
void CheckSimpleNz(const NzCase& c, bool stale, uint32_t seed) {
  SCOPED_TRACE("simple m " + std::to_string(c.m) + " k " + std::to_string(c.k) + " oriM " +
               std::to_string(c.oriM) + " stale " + std::to_string(stale));
  const auto x = ToNz(Inputs<T>(seed, {c.m, c.k, c.k}), c.m, c.k);
  const auto init = Uniform<T>(seed + 7, x.size(), -3.0f, 3.0f);
  const uint32_t lanes = 32 / sizeof(S);
  const auto inSum = Stats<S>(seed + 1, c.m, lanes, 1.0f, 20.0f, true);
  const auto inMax = Stats<S>(seed + 2, c.m, lanes, -2.0f, 6.0f, true);
  const uint32_t work = c.workRows == 0 ? kUbBufBytes / 4 : c.workRows * (kNz + c.k);
  SmxTiling given = lngrad_replay::SmxNzTiling(work, c.m, c.k, c.oriM, sizeof(S));
  if (stale) given.srcM = c.m + kNz;
  SoftMaxTiling t;
  std::memcpy(static_cast<void*>(&t), &given, sizeof t);
  std::vector<T> y;
  uint32_t tmpFloats = 0;
  OnBlock(
      [&](Ub& ub) {
        Put(ub, 0, x);
        Put(ub, 1, init);
        Put(ub, 2, inSum);
        Put(ub, 2, inMax, kMaxAt<S>);
        auto st = ub.Get<Dev<S>>(2);
        auto tmp = ub.Get<uint8_t>(3);
        tmpFloats = tmp.GetSize() / 4;
        const AscendC::SoftMaxShapeInfo shape{c.m, c.k, c.oriM, c.oriK};
        AscendC::SimpleSoftMax<Dev<T>, false, false, true>(ub.Get<Dev<T>>(1), st[0], st[kMaxAt<S>],
                                                           ub.Get<Dev<T>>(0), tmp, t, shape);
        y = Take<T>(ub, 1, x.size());
      },
      k910B);
  const SmxTiling used =
      stale ? lngrad_replay::SmxNzTiling(tmpFloats, c.m, c.k, c.oriM, sizeof(S)) : given;
  std::vector<T> wy = init;
  lngrad_replay::ReplaySimpleSoftMaxNz(used, x.data(), inSum.data(), inMax.data(), wy.data());
  ExpectSameBits(y, wy, "dst");
}

TEST(SimpleSoftMaxNzReplay, MatchesBitForBit) {
  uint32_t seed = 700;
  for (const NzCase& c : kCases) {
    for (bool stale : {false, true}) {
      CheckSimpleNz<float, float>(c, stale, seed++);
      CheckSimpleNz<Half, Half>(c, stale, seed++);
      CheckSimpleNz<Half, float>(c, stale, seed++);
    }
  }
}

TEST(AdjustSoftMaxResNzReplay, MatchesBitForBit) {
  CheckAdjust<float, float, 0, true>(7, 48, 1100);
  CheckAdjust<float, float, 1, true>(9, 64, 1101);
  CheckAdjust<Half, Half, 0, true>(5, 32, 1102);
  CheckAdjust<Half, float, 0, true>(6, 80, 1103);
  CheckAdjust<Half, Half, 1, true>(4, 16, 1104);
}

// SoftmaxGrad / SoftmaxGradFront NZ. mode 0: SoftmaxGrad, 1: SoftmaxGrad with isFront, 2:
// SoftmaxGradFront. workRows (kept tiling) or stale (the kernel re-tiles from its tmp buffer).
template <class T>
void CheckGradNz(const NzCase& c, int mode, bool stale, uint32_t seed) {
  SCOPED_TRACE("grad mode " + std::to_string(mode) + " m " + std::to_string(c.m) + " k " +
               std::to_string(c.k) + " oriK " + std::to_string(c.oriK) + " workRows " +
               std::to_string(c.workRows) + " stale " + std::to_string(stale));
  const auto y = Uniform<T>(seed, c.m * c.k, 0.0f, 1.0f);
  const auto g = Uniform<T>(seed + 1, c.m * c.k, -2.0f, 2.0f);
  const auto init = Uniform<T>(seed + 2, c.m * c.k, -3.0f, 3.0f);
  const uint32_t ts = sizeof(Dev<T>);
  const uint32_t rowFloats = ts == 2 ? 16 * 2 + c.k * 3 + 64 : c.k + 8 * 2 + 64;
  const uint32_t work = c.workRows == 0 ? kUbBufBytes / 4 : c.workRows * rowFloats;
  SmxTiling given = lngrad_replay::SmxNzGradTiling(work, c.m, c.k, ts);
  if (stale) given.srcM = c.m + kNz;
  SoftMaxTiling t;
  std::memcpy(static_cast<void*>(&t), &given, sizeof t);
  std::vector<T> out;
  uint32_t tmpFloats = 0;
  const bool front = mode != 0;
  OnBlock(
      [&](Ub& ub) {
        Put(ub, 0, y);
        Put(ub, 1, g);
        Put(ub, 2, init);
        auto tmp = ub.Get<uint8_t>(3);
        tmpFloats = tmp.GetSize() / 4;
        const AscendC::SoftMaxShapeInfo shape{c.m, c.k, c.oriM, c.oriK};
        auto dst = ub.Get<Dev<T>>(2);
        if (mode == 2) {
          AscendC::SoftmaxGradFront<Dev<T>, false, true>(dst, ub.Get<Dev<T>>(1), ub.Get<Dev<T>>(0),
                                                         tmp, t, shape);
        } else {
          AscendC::SoftmaxGrad<Dev<T>, false, true>(dst, ub.Get<Dev<T>>(1), ub.Get<Dev<T>>(0), tmp,
                                                    t, front, shape);
        }
        out = Take<T>(ub, 2, init.size());
      },
      k910B);
  const SmxTiling used = stale ? lngrad_replay::SmxNzGradTiling(tmpFloats, c.m, c.k, ts) : given;
  std::vector<T> want = init;
  lngrad_replay::ReplaySoftmaxGradNz(used, c.oriK, g.data(), y.data(), want.data(), front);
  ExpectSameBits(out, want, "dst");
}

TEST(SoftmaxGradNzReplay, MatchesBitForBit) {
  uint32_t seed = 800;
  for (const NzCase& c : kCases) {
    for (int mode = 0; mode < 3; ++mode) {
      CheckGradNz<float>(c, mode, false, seed++);
      CheckGradNz<Half>(c, mode, false, seed++);
    }
  }
  CheckGradNz<float>({9, 48, 41, 9, 0}, 0, true, 900);
  CheckGradNz<Half>({10, 32, 20, 10, 0}, 0, true, 901);
  CheckGradNz<float>({7, 32, 32, 7, 0}, 2, true, 902);
}

}  // namespace
