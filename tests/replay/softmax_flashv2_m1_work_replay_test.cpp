// SoftmaxFlashV2 in SOFTMAX_OUTPUT_WITHOUT_BRC mode on Ascend910B1, the generic path, through
// lngrad's Ascend C API against the instruction-by-instruction replay of the kit's M1 sequence
// (replay_softmax_flashv2_m1.h), byte for byte: dst, the statistics (with what the call writes
// past the rows), expMax, outReduceMax and the whole work buffer, every operand starting from the
// same bytes (session 23, pc, who also wrote lngrad's model, softmax_flashv2_nobrc_device.h).
//  - half data with float statistics without update, unchecked: the pre-cast's work buffer lies
//    inside the converted source, so the device's rows differ from the plain softmax; lngrad
//    gives the device's (checked mode refuses the call: softmax_flashv2_m1_nan_replay_test.cpp);
//  - every other form (float data, half data with half or float statistics; without and with
//    update; the outReduceMax overload), checked: lngrad's rows and the work buffer as the kit
//    leaves it.
#include "replay_softmax_flashv2_m1.h"
#include "softmax_flashv2_m1_call.h"
#include "softmax_replay_util.h"

#include "../aicore/checked_mode_scope.h"
#include "../aicore/sanitizer_off.h"

namespace {

using namespace softmax_replay_test;  // NOLINT(build/namespaces)

constexpr uint32_t kWorkFloats = kUbBufBytes / 2 / 4;
constexpr uint32_t kSlack = 24;  // statistics read and written past the rows

template <class T, class S>
SoftMaxTiling WorkTiling(const Shape& s, bool update, uint32_t bytes) {
  const ge::Shape shape({s.m, s.k});
  if (bytes == 0) bytes = AscendC::GetSoftMaxFlashV2MaxTmpSize(shape, sizeof(T), sizeof(S), update);
  SoftMaxTiling t;
  AscendC::SoftMaxFlashV2TilingFunc(shape, sizeof(T), sizeof(S), std::min(bytes, kUbBufBytes / 2),
                                    t, update, false, true);
  return t;
}

// The operands' bytes (before and after a call).
template <class T, class S>
struct Mem {
  std::vector<T> x, y, em;
  std::vector<S> sum, max, inSum, inMax, rm;
  std::vector<float> work;
};

template <class T, class S>
Mem<T, S> Start(const Shape& s, uint32_t seed) {
  const uint32_t st = s.m + kSlack;
  Mem<T, S> w;
  w.x = Inputs<T>(seed, s);
  w.y = Sentinel<T>(w.x.size());
  w.em = Uniform<T>(seed + 1, st, -3.0f, 3.0f);
  w.sum = Uniform<S>(seed + 2, st, 1.0f, 50.0f);
  w.max = Uniform<S>(seed + 3, st, -6.0f, 6.0f);  // Brcb reads the entries past the rows
  w.inSum = Uniform<S>(seed + 4, st, 0.5f, 300.0f);
  w.inMax = Uniform<S>(seed + 5, st, -2.0f, 9.0f);
  w.rm = Uniform<S>(seed + 6, st, -9.0f, -7.0f);
  w.work = Uniform<float>(seed + 7, kWorkFloats, -40.0f, 40.0f);
  return w;
}

template <class T, class S, bool reduceMaxForm>
Mem<T, S> RunLngrad(const Shape& s, bool update, const SoftMaxTiling& t, const Mem<T, S>& in) {
  Mem<T, S> o;
  const uint32_t st = s.m + kSlack;
  OnBlock(
      [&](Ub& ub) {
        const FlashTensors<T, S> f(ub);
        Put(ub, 0, in.x);
        Put(ub, 1, in.y);
        Put(ub, 2, in.sum);
        Put(ub, 2, in.max, kMaxAt<S>);
        Put(ub, 2, in.inSum, kInAt<S>);
        Put(ub, 2, in.inMax, kMaxAt<S> + kInAt<S>);
        Put(ub, 3, in.work);
        Put(ub, 3, in.em, kEmAt<T>);
        Put(ub, 3, in.rm, kRmAt<S>);
        CallM1<T, S, reduceMaxForm>(ub, f, update, t, {s.m, s.k, s.m, s.oriK});
        o.y = Take<T>(ub, 1, in.x.size());
        o.sum = Take<S>(ub, 2, st);
        o.max = Take<S>(ub, 2, st, kMaxAt<S>);
        o.em = Take<T>(ub, 3, st, kEmAt<T>);
        o.rm = Take<S>(ub, 3, st, kRmAt<S>);
        o.work = Take<float>(ub, 3, kWorkFloats);
      },
      k910B);
  return o;
}

template <class T, class S, bool reduceMaxForm>
Mem<T, S> RunReplay(const Shape& s, bool update, const SoftMaxTiling& t, Mem<T, S> m) {
  m.work.resize(kWorkFloats * 2);  // a footprint past the buffer shows as a difference
  lngrad_replay::ReplayFlashV2M1<T, S>(
      Mirror(t), s.oriK, update,
      {m.x.data(), m.y.data(), m.sum.data(), m.max.data(), m.em.data(), m.inSum.data(),
       m.inMax.data(), reduceMaxForm && update ? m.rm.data() : nullptr, m.work.data()});
  EXPECT_TRUE(std::all_of(m.work.begin() + kWorkFloats, m.work.end(), [](float v) {
    return v == 0;
  })) << "the replay's footprint passes the work buffer";
  m.work.resize(kWorkFloats);
  return m;
}

template <class T, class S, bool reduceMaxForm = false>
void CheckWork(const Shape& s, uint32_t bytes, uint32_t seed, bool update, bool checked) {
  if (s.k * sizeof(T) % 32 != 0) return;
  const SoftMaxTiling t = WorkTiling<T, S>(s, update, bytes);
  SCOPED_TRACE(Name(s) + " splitM " + std::to_string(t.splitM) + " rangeM " +
               std::to_string(t.rangeM) + " tailM " + std::to_string(t.tailM) + " reduceK " +
               std::to_string(t.reduceK) + (update ? " update" : " no update") +
               (reduceMaxForm ? " outReduceMax" : "") + (checked ? " checked" : " unchecked"));
  lngrad::aicore::test::CheckedModeScope mode(checked);
  const Mem<T, S> in = Start<T, S>(s, seed);
  const Mem<T, S> got = RunLngrad<T, S, reduceMaxForm>(s, update, t, in);
  const Mem<T, S> want = RunReplay<T, S, reduceMaxForm>(s, update, t, in);
  ExpectSameBits(got.y, want.y, "dst");
  ExpectSameBits(got.sum, want.sum, "expSum");
  ExpectSameBits(got.max, want.max, "max");
  ExpectSameBits(got.em, want.em, "expMax");
  ExpectSameBits(got.rm, want.rm, "outReduceMax");
  ExpectSameBits(got.work, want.work, "work buffer");
}

struct WorkCase {
  Shape s;
  uint32_t bytes;
};
// Every branch of the reductions (oriSrcK < 64, [64, 128), [128, 512) with the rows above and
// at most the chunks, >= 512, tails), splits of 8 rows and a tail, one-row splits, srcK >= 192.
const WorkCase kCases[] = {{{8, 8, 8}, 0},         {{13, 48, 40}, 0},      {{8, 64, 64}, 0},
                           {{9, 72, 70}, 0},       {{12, 192, 192}, 0},    {{5, 200, 196}, 0},
                           {{3, 448, 448}, 0},     {{8, 264, 260}, 0},     {{4, 512, 512}, 0},
                           {{5, 600, 600}, 0},     {{2, 1032, 1030}, 0},   {{1, 64, 64}, 0},
                           {{1, 528, 520}, 0},     {{12, 192, 192}, 2304}, {{14, 200, 196}, 2304},
                           {{20, 264, 260}, 2304}, {{9, 64, 64}, 2304},    {{17, 136, 130}, 2304}};

TEST(SoftmaxFlashV2M1WorkReplay, HalfDataFloatStatsNoUpdateUncheckedFollowsTheDevice) {
  uint32_t seed = 9700;
  for (const WorkCase& c : kCases) {
    if (c.bytes != 0) continue;  // half data: one split (the tiling's 16-row multiples)
    CheckWork<Half, float>(c.s, 0, seed += 11, false, false);
  }
}

TEST(SoftmaxFlashV2M1WorkReplay, FloatWritesTheKitsWorkBuffer) {
  uint32_t seed = 9800;
  for (const WorkCase& c : kCases) {
    for (const bool update : {false, true}) {
      CheckWork<float, float>(c.s, c.bytes, seed += 11, update, true);
      if (update) CheckWork<float, float, true>(c.s, c.bytes, seed += 11, true, true);
    }
  }
}

TEST(SoftmaxFlashV2M1WorkReplay, HalfWritesTheKitsWorkBuffer) {
  uint32_t seed = 9900;
  for (const WorkCase& c : kCases) {
    if (c.bytes != 0) continue;
    for (const bool update : {false, true}) {
      const bool one = !update && c.s.oriK >= 64 && c.s.m == 1;  // refused in checked mode
      CheckWork<Half, Half>(c.s, 0, seed += 11, update, !one);
      if (update) {
        CheckWork<Half, Half, true>(c.s, 0, seed += 11, true, true);
        CheckWork<Half, float>(c.s, 0, seed += 11, true, true);
      }
    }
  }
}

// The splits whose NewReduce{Max,Sum}LastNDImpl operands wrap on 2201 (softmax_v200_work.h
// V220Defect: srcK / 8 above 255 blocks with oriSrcK in [128, 512) and splits of two or more
// rows; checked mode refuses them, tests/adv softmax_defect_test.cpp), unchecked (session 25):
// lngrad gives the device's dst, statistics, expMax, outReduceMax and work buffer
// (softmax_flashv2_nobrc_device.h on softmax_v220_device.h V220Acc). Rows more than the chunks
// (NextBlock's repeats over the rows) and at most them; srcK 2048 (the stride wraps to 0) and
// 2056 (to 1 block); half data's splits of two rows then a tail of one. oriSrcK from 16896 (one
// float row of 66 KiB) does not fit these 40 KiB buffers: not run here.
const Shape kWrapShapes[] = {
    {3, 2048, 128}, {4, 2048, 200}, {2, 2048, 456}, {3, 2056, 300}, {5, 2048, 136}};

TEST(SoftmaxFlashV2M1WorkReplay, FloatWrappedOperandsFollowTheDeviceUncheckedOn2201) {
  uint32_t seed = 10100;
  for (const Shape& s : kWrapShapes) {
    if (uint64_t{s.m} * s.k * 4 > kUbBufBytes) continue;
    for (const bool update : {false, true}) {
      CheckWork<float, float>(s, 0, seed += 11, update, false);
      if (update) CheckWork<float, float, true>(s, 0, seed += 11, true, false);
    }
  }
}

TEST(SoftmaxFlashV2M1WorkReplay, HalfWrappedOperandsFollowTheDeviceUncheckedOn2201) {
  uint32_t seed = 10200;
  for (const Shape& s : kWrapShapes) {
    const Shape h{std::min(s.m, 3u), s.k, s.oriK};
    for (const bool update : {false, true}) {
      CheckWork<Half, Half>(h, 0, seed += 11, update, false);
      CheckWork<Half, float>(h, 0, seed += 11, update, false);
      if (update) CheckWork<Half, Half, true>(h, 0, seed += 11, true, false);
    }
  }
}

}  // namespace
