// Inter-block synchronisation, atomics, the data cache and the CTRL register (block_sync.h,
// atomic.h, cache.h) against scalar models of the vendor's documented semantics, written here:
// atomic copies combine element by element with GM, IBSet/IBWait and WaitPreBlock/
// NotifyNextBlock order the blocks as documented, waits that can never end are errors (not
// hangs), and the sanitizer takes the order and the atomic writes into account.
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <cstring>
#include <limits>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "checked_mode_scope.h"
#include "gm_buffer.h"
#include "kernel_operator.h"
#include "run_kernel.h"
#include "sanitizer_off.h"

namespace {

using lngrad::aicore::BlockFailure;
using lngrad::aicore::LaunchOptions;
using namespace lngrad::aicore::test;
namespace san = lngrad::aicore::san;

LaunchOptions Sanitized(const char* soc = "Ascend910B1") {
  LaunchOptions o = On(soc);
  o.sanitize = san::kAllTools;
  return o;
}

std::string Text(const std::vector<BlockFailure>& f) {
  std::string s;
  for (const BlockFailure& x : f) s += "[" + x.check + "] " + x.message + "\n";
  return s;
}

// Copies `n` elements of `src` (host values) to GM at dst through UB, with the atomic mode `set`
// switched on around the copy.
template <typename T, typename Set>
void AtomicCopy(T* dst, const std::vector<T>& src, Set set) {
  AscendC::GlobalTensor<T> g;
  g.SetGlobalBuffer(dst, src.size());
  AscendC::LocalTensor<T> t(AscendC::TPosition::VECOUT, 0, static_cast<uint32_t>(src.size()));
  std::memcpy(t.HostPtr(), src.data(), src.size() * sizeof(T));
  set();
  AscendC::DataCopy(g, t, static_cast<uint32_t>(src.size()));
  AscendC::DisableDmaAtomic();
}

// --- DMA atomics ---------------------------------------------------------------------------------

TEST(DmaAtomic, AddFromEightBlocksSumsEveryElement) {
  constexpr uint32_t kN = 64, kBlocks = 8;
  GmBuffer out(kN * sizeof(float));
  GmBuffer outi(kN * sizeof(int32_t));
  float* o = out.as<float>();
  int32_t* oi = outi.as<int32_t>();
  for (uint32_t i = 0; i < kN; ++i) o[i] = 0.5f, oi[i] = -3;
  // Integer-valued floats: every order of the additions gives the same, exact sum.
  const auto value = [](int64_t b, uint32_t i) { return static_cast<float>(b * 100 + i); };
  const auto f = RunKernel(kBlocks, [&] {
    std::vector<float> v(kN);
    std::vector<int32_t> vi(kN);
    for (uint32_t i = 0; i < kN; ++i) v[i] = value(block_idx, i), vi[i] = int32_t(block_idx + i);
    AtomicCopy(o, v, [] { AscendC::SetAtomicAdd<float>(); });
    AtomicCopy(oi, vi, [] { AscendC::SetAtomicAdd<int32_t>(); });
  });
  ASSERT_TRUE(f.empty()) << Text(f);
  for (uint32_t i = 0; i < kN; ++i) {
    float e = 0.5f;
    int32_t ei = -3;
    for (int64_t b = 0; b < kBlocks; ++b) e += value(b, i), ei += int32_t(b + i);
    EXPECT_EQ(o[i], e) << i;
    EXPECT_EQ(oi[i], ei) << i;
  }
}

TEST(DmaAtomic, HalfRoundsOnceAndIntegersWrap) {
  constexpr uint32_t kN = 16;
  GmBuffer h(kN * 2), s(kN * 2), c(32);
  ::half* hp = h.as<::half>();
  int16_t* sp = s.as<int16_t>();
  int8_t* cp = reinterpret_cast<int8_t*>(c.p);
  std::vector<::half> add(kN);
  std::vector<int16_t> adds(kN);
  std::vector<int8_t> addc(32);
  for (uint32_t i = 0; i < kN; ++i) {
    hp[i] = ::half(1.0 + i / 1024.0);                         // 1 + i ulp
    add[i] = ::half(std::ldexp(1.0, -11) * (i % 3 + 1) / 2);  // 0.25..0.75 ulp of 1
    sp[i] = static_cast<int16_t>(32767 - i);
    adds[i] = static_cast<int16_t>(i + 1);
  }
  for (int i = 0; i < 32; ++i) cp[i] = static_cast<int8_t>(120), addc[i] = static_cast<int8_t>(i);
  std::vector<::half> before(hp, hp + kN);
  const auto f = RunKernel(1, [&] {
    AtomicCopy(hp, add, [] { AscendC::SetAtomicAdd<::half>(); });
    AtomicCopy(sp, adds, [] { AscendC::SetAtomicAdd<int16_t>(); });
    AtomicCopy(cp, addc, [] { AscendC::SetAtomicAdd<int8_t>(); });
  });
  ASSERT_TRUE(f.empty()) << Text(f);
  for (uint32_t i = 0; i < kN; ++i) {
    // The exact sum rounded once to half (round to nearest, ties to even).
    const double exact = double(float(before[i])) + double(float(add[i]));
    EXPECT_EQ(hp[i].bits, ::half(exact).bits) << i;
    EXPECT_EQ(sp[i], static_cast<int16_t>(static_cast<uint16_t>(32767 - i + i + 1))) << i;
  }
  for (int i = 0; i < 32; ++i) EXPECT_EQ(cp[i], static_cast<int8_t>(uint8_t(120 + i))) << i;
}

TEST(DmaAtomic, MaxMinAndNan) {
  constexpr uint32_t kN = 8;
  GmBuffer a(32), b(32);
  float* ap = a.as<float>();
  float* bp = b.as<float>();
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const std::vector<float> gm = {1, -2, 3, nan, 5, -0.5f, 7, 8};
  const std::vector<float> in = {2, -3, nan, 1, 4, -0.25f, 7, -8};
  std::copy(gm.begin(), gm.end(), ap);
  std::copy(gm.begin(), gm.end(), bp);
  const auto f = RunKernel(1, [&] {
    AtomicCopy(ap, in, [] { AscendC::SetAtomicMax<float>(); });
    AtomicCopy(bp, in, [] { AscendC::SetAtomicMin<float>(); });
  });
  ASSERT_TRUE(f.empty()) << Text(f);
  for (uint32_t i = 0; i < kN; ++i) {
    if (std::isnan(gm[i]) || std::isnan(in[i])) {
      EXPECT_TRUE(std::isnan(ap[i]) && std::isnan(bp[i])) << i;
      continue;
    }
    EXPECT_EQ(ap[i], std::max(gm[i], in[i])) << i;
    EXPECT_EQ(bp[i], std::min(gm[i], in[i])) << i;
  }
}

TEST(DmaAtomic, StridedAndPadCopiesCombineOnlyTheirBytes) {
  GmBuffer g(256 * sizeof(float));
  float* gp = g.as<float>();
  for (int i = 0; i < 256; ++i) gp[i] = 1.0f;
  const auto f = RunKernel(1, [&] {
    AscendC::GlobalTensor<float> gt;
    gt.SetGlobalBuffer(gp, 256);
    AscendC::LocalTensor<float> t(AscendC::TPosition::VECOUT, 0, 256);
    for (int i = 0; i < 256; ++i) t.HostPtr()[i] = float(i);
    AscendC::SetAtomicAdd<float>();
    // 2 blocks of 8 floats, 8 floats apart in GM: elements 0-7 and 16-23 get t[0..7], t[8..15].
    AscendC::DataCopy(gt, t, AscendC::DataCopyParams(2, 1, 0, 1));
    // 3 floats (12 bytes) to element 100.
    AscendC::DataCopyPad(gt[100], t[32], AscendC::DataCopyExtParams(1, 12, 0, 0, 0));
    AscendC::DisableDmaAtomic();
    AscendC::DataCopy(gt[200], t, 8);  // overwrites again
  });
  ASSERT_TRUE(f.empty()) << Text(f);
  for (int i = 0; i < 256; ++i) {
    float e = 1.0f;
    if (i < 8) e += float(i);
    if (i >= 16 && i < 24) e += float(i - 8);
    if (i >= 100 && i < 103) e += float(32 + i - 100);
    if (i >= 200 && i < 208) e = float(i - 200);
    EXPECT_EQ(gp[i], e) << i;
  }
}

TEST(DmaAtomic, SetAtomicTypeKeepsTheOperationAndEveryBlockStartsOff) {
  GmBuffer g(64);
  int32_t* gp = g.as<int32_t>();
  for (int i = 0; i < 8; ++i) gp[i] = 10;
  const auto f = RunKernel(1, [&] {
    EXPECT_EQ(lngrad::aicore::detail::CurrentDmaAtomic().type,
              lngrad::aicore::detail::AtomicType::kOff);
    AscendC::SetAtomicMax<float>();
    AscendC::SetAtomicType<int32_t>();
    AscendC::GlobalTensor<int32_t> gt;
    gt.SetGlobalBuffer(gp, 8);
    AscendC::LocalTensor<int32_t> t(AscendC::TPosition::VECOUT, 0, 8);
    for (int i = 0; i < 8; ++i) t.HostPtr()[i] = 7 + 2 * i;
    AscendC::DataCopy(gt, t, 8);
    // Left on: the next launch's blocks start with atomics off anyway.
  });
  ASSERT_TRUE(f.empty()) << Text(f);
  for (int i = 0; i < 8; ++i) EXPECT_EQ(gp[i], std::max(10, 7 + 2 * i)) << i;
  const auto g2 = RunKernel(1, [&] {
    EXPECT_EQ(lngrad::aicore::detail::CurrentDmaAtomic().type,
              lngrad::aicore::detail::AtomicType::kOff);
  });
  EXPECT_TRUE(g2.empty());
}

TEST(DmaAtomic, CheckedModeKnowsEachProductsTypesAndApis) {
  CheckedModeScope checked(true);
  auto one = [](const char* soc, const std::function<void()>& k) {
    const auto f = RunKernel(1, k, On(soc));
    return f.empty() ? std::string("ok") : f[0].check + ": " + f[0].message;
  };
  EXPECT_EQ(one("Ascend910B1", [] { AscendC::SetAtomicAdd<int8_t>(); }), "ok");
  EXPECT_EQ(one("Ascend310P1", [] { AscendC::SetAtomicAdd<int16_t>(); }), "ok");
  const std::string i8 = one("Ascend310P1", [] { AscendC::SetAtomicAdd<int8_t>(); });
  EXPECT_EQ(i8.rfind("atomic_type: SetAtomicAdd at ", 0), 0u) << i8;
  EXPECT_NE(i8.find("T = int8_t"), std::string::npos) << i8;
  const std::string mx = one("Ascend310P1", [] { AscendC::SetAtomicMax<float>(); });
  EXPECT_EQ(mx.rfind("unsupported_on_product: SetAtomicMax", 0), 0u) << mx;
  const std::string tr = one("Ascend910A", [] { AscendC::SetAtomicAdd<::half>(); });
  EXPECT_EQ(tr.rfind("atomic_type:", 0), 0u) << tr;
  EXPECT_EQ(one("Ascend910A", [] { AscendC::SetAtomicAdd<float>(); }), "ok");
}

// --- Scalar atomics (Ascend 950) -----------------------------------------------------------------

TEST(ScalarAtomic, EightBlocksCountExactlyAndSeeOldValues) {
  GmBuffer g(64);
  uint32_t* cnt = g.as<uint32_t>();
  float* fs = reinterpret_cast<float*>(g.p + 8);
  int64_t* mx = reinterpret_cast<int64_t*>(g.p + 16);
  int32_t* mn = reinterpret_cast<int32_t*>(g.p + 24);
  uint64_t* ex = reinterpret_cast<uint64_t*>(g.p + 32);
  *cnt = 5, *fs = 0.0f, *mx = -100, *mn = 100, *ex = 0;
  std::mutex mu;
  std::vector<uint32_t> olds;
  const auto f = RunKernel(
      8,
      [&] {
        for (int r = 0; r < 100; ++r) {
          const uint32_t old = AscendC::AtomicAdd(cnt, 1u);
          std::lock_guard lock(mu);
          olds.push_back(old);
        }
        AscendC::AtomicAdd(fs, 0.25f);
        AscendC::AtomicMax(mx, int64_t{block_idx} * 3);
        AscendC::AtomicMin(mn, int32_t(50 - block_idx));
        // Only one block's CAS from 0 succeeds; the others see its value.
        AscendC::AtomicCas(ex, uint64_t{0}, uint64_t(block_idx + 1));
      },
      On("Ascend950PR_9599"));
  ASSERT_TRUE(f.empty()) << Text(f);
  EXPECT_EQ(*cnt, 805u);
  std::sort(olds.begin(), olds.end());
  for (uint32_t i = 0; i < olds.size(); ++i) ASSERT_EQ(olds[i], 5 + i);  // each old value once
  EXPECT_EQ(*fs, 2.0f);
  EXPECT_EQ(*mx, 21);
  EXPECT_EQ(*mn, 43);
  EXPECT_GE(*ex, 1u);
  EXPECT_LE(*ex, 8u);
  uint32_t v = 7;
  const auto g2 = RunKernel(
      1,
      [&] {
        EXPECT_EQ(AscendC::AtomicCas(&v, 6u, 1u), 7u);  // no match: unchanged
        EXPECT_EQ(AscendC::AtomicCas(&v, 7u, 1u), 7u);
        EXPECT_EQ(AscendC::AtomicExch(&v, 9u), 1u);
      },
      On("Ascend950PR_9599"));
  EXPECT_TRUE(g2.empty());
  EXPECT_EQ(v, 9u);
  CheckedModeScope checked(true);
  const auto g3 = RunKernel(1, [&] { AscendC::AtomicAdd(&v, 1u); });
  ASSERT_EQ(g3.size(), 1u);
  EXPECT_EQ(g3[0].check, "unsupported_on_product");
}

// --- IBSet / IBWait ------------------------------------------------------------------------------

// Block 0 writes z after dawdling and sets flag (0, 0); block 1 waits for it, then reads z.
int32_t IbPair(const LaunchOptions& o, bool wait, std::vector<BlockFailure>* failures) {
  GmBuffer z(32), sync(2 * 32 + 32), seen(32);
  int32_t* zp = z.as<int32_t>();
  int32_t* seenp = seen.as<int32_t>();
  int32_t* syncp = sync.as<int32_t>();
  *failures = RunKernel(
      2,
      [&] {
        AscendC::GlobalTensor<int32_t> ws, zg, sg;
        ws.SetGlobalBuffer(syncp, 24);
        zg.SetGlobalBuffer(zp, 8);
        sg.SetGlobalBuffer(seenp, 8);
        AscendC::LocalTensor<int32_t> ub(AscendC::TPosition::VECIN, 0, 8);
        AscendC::LocalTensor<int32_t> t(AscendC::TPosition::VECOUT, 64, 8);
        if (block_idx == 0) {
          std::this_thread::sleep_for(std::chrono::milliseconds(20));
          AscendC::Duplicate(t, 42, 8);
          AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
          AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
          AscendC::DataCopy(zg, t, 8);
          AscendC::IBSet(ws, ub, 0, 0);
        } else {
          if (wait) AscendC::IBWait(ws, ub, 0, 0);
          AscendC::DataCopy(t, zg, 8);
          AscendC::SetFlag<AscendC::HardEvent::MTE2_MTE3>(EVENT_ID0);
          AscendC::WaitFlag<AscendC::HardEvent::MTE2_MTE3>(EVENT_ID0);
          AscendC::DataCopy(sg, t, 8);
        }
      },
      o);
  EXPECT_EQ(syncp[0], wait ? 0 : 1);  // IBWait consumed the flag
  return seenp[0];
}

TEST(IbSetWait, TheWaiterSeesWhatTheSetterWroteBefore) {
  std::vector<BlockFailure> f;
  EXPECT_EQ(IbPair(On("Ascend910B1"), true, &f), 42);
  EXPECT_TRUE(f.empty()) << Text(f);
  EXPECT_EQ(IbPair(On("Ascend910B1", /*sequential=*/true), true, &f), 42);
  EXPECT_TRUE(f.empty()) << Text(f);
}

TEST(IbSetWait, TheSanitizerTakesTheWaitForCrossBlockOrder) {
  std::vector<BlockFailure> f;
  EXPECT_EQ(IbPair(Sanitized(), true, &f), 42);
  EXPECT_TRUE(f.empty()) << Text(f);
  IbPair(Sanitized(), false, &f);
  ASSERT_FALSE(f.empty());
  EXPECT_NE(Text(f).find("cross-block hazard on GM"), std::string::npos) << Text(f);
}

TEST(IbSetWait, AWaitNoBlockWillEndIsAnErrorNotAHang) {
  for (bool sequential : {false, true}) {
    GmBuffer sync(4 * 32 + 32);
    const auto f = RunKernel(
        2,
        [&] {
          AscendC::GlobalTensor<int32_t> ws;
          ws.SetGlobalBuffer(sync.as<int32_t>(), 40);
          AscendC::LocalTensor<int32_t> ub(AscendC::TPosition::VECIN, 0, 8);
          if (block_idx == 1) AscendC::IBWait(ws, ub, 0, 1);  // block 0 never sets (0, 1)
        },
        On("Ascend910B1", sequential));
    ASSERT_EQ(f.size(), 1u) << sequential;
    EXPECT_EQ(f[0].block_idx, 1);
    EXPECT_EQ(f[0].check, "block_sync");
    EXPECT_NE(f[0].message.find("IBWait at "), std::string::npos) << f[0].message;
    EXPECT_NE(f[0].message.find("can never go on"), std::string::npos) << f[0].message;
  }
}

TEST(IbSetWait, CheckedModeChecksTheFlagIsInsideTheWorkspace) {
  CheckedModeScope checked(true);
  GmBuffer sync(256);
  const auto f = RunKernel(2, [&] {
    AscendC::GlobalTensor<int32_t> ws;
    ws.SetGlobalBuffer(sync.as<int32_t>(), 16);  // flags (0,0) and (1,0) only
    AscendC::LocalTensor<int32_t> ub(AscendC::TPosition::VECIN, 0, 8);
    if (block_idx == 0) AscendC::IBSet(ws, ub, 0, 1);
  });
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].check, "block_sync");
  EXPECT_NE(f[0].message.find("elements [16, 24)"), std::string::npos) << f[0].message;
}

// --- WaitPreBlock / NotifyNextBlock --------------------------------------------------------------

TEST(DetermineCompute, BlocksTakeTurnsInBlockOrderEveryRound) {
  constexpr uint32_t kBlocks = 5;
  constexpr int kRounds = 3;
  for (bool sequential : {false, true}) {
    GmBuffer ws(kBlocks * 32);
    std::mutex mu;
    std::vector<int64_t> order;
    const auto f = RunKernel(
        kBlocks,
        [&] {
          AscendC::GlobalTensor<int32_t> gw;
          gw.SetGlobalBuffer(ws.as<int32_t>(), kBlocks * 8);
          AscendC::LocalTensor<int32_t> ub(AscendC::TPosition::VECIN, 0, kBlocks * 8 + 8);
          AscendC::InitDetermineComputeWorkspace(gw, ub);
          for (int r = 0; r < kRounds; ++r) {
            // Later blocks hurry, so an unordered run would show.
            std::this_thread::sleep_for(std::chrono::milliseconds(kBlocks - block_idx));
            AscendC::WaitPreBlock(gw, ub);
            {
              std::lock_guard lock(mu);
              order.push_back(block_idx);
            }
            AscendC::NotifyNextBlock(gw, ub);
          }
        },
        On("Ascend910B1", sequential));
    ASSERT_TRUE(f.empty()) << Text(f);
    std::vector<int64_t> model;
    for (int r = 0; r < kRounds; ++r) {
      for (int64_t b = 0; b < kBlocks; ++b) model.push_back(b);
    }
    EXPECT_EQ(order, model) << sequential;
  }
}

// The vendor's sequential_block_sync pattern: each block atomically adds its tile in turn.
TEST(DetermineCompute, AtomicAddsInTurnAreCleanUnderTheSanitizer) {
  constexpr uint32_t kBlocks = 4, kN = 64;
  GmBuffer ws(kBlocks * 32), out(kN * sizeof(float)), in(kN * sizeof(float));
  float* o = out.as<float>();
  float* x = in.as<float>();
  for (uint32_t i = 0; i < kN; ++i) o[i] = 0, x[i] = 1.0f + i;
  LaunchOptions opt = Sanitized();
  const auto f = RunKernel(
      kBlocks,
      [&] {
        AscendC::GlobalTensor<int32_t> gw;
        gw.SetGlobalBuffer(ws.as<int32_t>(), kBlocks * 8);
        AscendC::GlobalTensor<float> xg, og;
        xg.SetGlobalBuffer(x, kN);
        og.SetGlobalBuffer(o, kN);
        AscendC::LocalTensor<int32_t> ub(AscendC::TPosition::VECIN, 0, kBlocks * 8 + 8);
        AscendC::LocalTensor<float> t(AscendC::TPosition::VECIN, 1024, kN);
        AscendC::InitDetermineComputeWorkspace(gw, ub);
        AscendC::DataCopy(t, xg, kN);
        AscendC::WaitPreBlock(gw, ub);
        AscendC::SetAtomicAdd<float>();
        AscendC::SetFlag<AscendC::HardEvent::MTE2_MTE3>(EVENT_ID0);
        AscendC::WaitFlag<AscendC::HardEvent::MTE2_MTE3>(EVENT_ID0);
        AscendC::DataCopy(og, t, kN);
        AscendC::DisableDmaAtomic();
        AscendC::NotifyNextBlock(gw, ub);
      },
      opt);
  ASSERT_TRUE(f.empty()) << Text(f);
  for (uint32_t i = 0; i < kN; ++i) EXPECT_EQ(o[i], 4.0f * (1.0f + i)) << i;
}

TEST(DetermineCompute, MissingInitAndMissingNotifyAreErrors) {
  CheckedModeScope checked(true);
  GmBuffer ws(4 * 32);
  const auto kernel = [&](bool init, bool notify) {
    return [&, init, notify] {
      AscendC::GlobalTensor<int32_t> gw;
      gw.SetGlobalBuffer(ws.as<int32_t>(), 16);
      AscendC::LocalTensor<int32_t> ub(AscendC::TPosition::VECIN, 0, 24);
      if (init) AscendC::InitDetermineComputeWorkspace(gw, ub);
      AscendC::WaitPreBlock(gw, ub);
      if (notify) AscendC::NotifyNextBlock(gw, ub);
    };
  };
  auto f = RunKernel(2, kernel(false, true));
  ASSERT_EQ(f.size(), 2u);
  EXPECT_NE(f[0].message.find("call InitDetermineComputeWorkspace"), std::string::npos);
  f = RunKernel(2, kernel(true, false));
  ASSERT_EQ(f.size(), 1u) << Text(f);
  EXPECT_EQ(f[0].block_idx, 1);
  EXPECT_EQ(f[0].check, "block_sync");
  EXPECT_NE(f[0].message.find("WaitPreBlock at "), std::string::npos) << f[0].message;
  EXPECT_TRUE(RunKernel(2, kernel(true, true)).empty());
}

// --- GroupBarrier -------------------------------------------------------------------------------

// The 512-byte aligned start of a GmBuffer of at least 512 spare bytes.
uint8_t* Aligned512(const GmBuffer& b) {
  return b.p + (512 - reinterpret_cast<uintptr_t>(b.p) % 512) % 512;
}

// Blocks 0-2 arrive after adding their share to a counter; blocks 3-7 wait, then read it. Two
// rounds: a waiter of round r sees at least every arrival of round r.
TEST(GroupBarrier, WaitersSeeEveryArriversWorkRoundAfterRound) {
  constexpr uint32_t kArrive = 3, kWait = 5;
  for (bool sequential : {false, true}) {
    GmBuffer ws(4096 + 512);
    std::mutex mu;
    uint32_t cnt = 0;
    std::vector<uint32_t> seen(kWait * 2);
    const auto f = RunKernel(
        kArrive + kWait,
        [&] {
          AscendC::GroupBarrier<AscendC::PipeMode::MTE3_MODE> bar(Aligned512(ws), kArrive, kWait);
          EXPECT_EQ(bar.GetWorkspaceLen(), 5u * 512);
          for (uint32_t r = 0; r < 2; ++r) {
            if (block_idx < kArrive) {
              std::this_thread::sleep_for(std::chrono::milliseconds(3 * (kArrive - block_idx)));
              {
                std::lock_guard lock(mu);
                ++cnt;
              }
              bar.Arrive(static_cast<uint32_t>(block_idx));
            } else {
              bar.Wait(static_cast<uint32_t>(block_idx - kArrive));
              std::lock_guard lock(mu);
              seen[(block_idx - kArrive) * 2 + r] = cnt;
            }
          }
        },
        On("Ascend910B1", sequential));
    ASSERT_TRUE(f.empty()) << Text(f);
    for (uint32_t w = 0; w < kWait; ++w) {
      EXPECT_GE(seen[w * 2], kArrive) << w << sequential;
      EXPECT_EQ(seen[w * 2 + 1], 2 * kArrive) << w << sequential;
    }
  }
  GmBuffer ws(4096 + 512);
  const auto f = RunKernel(3, [&] {
    AscendC::GroupBarrier<AscendC::PipeMode::MTE3_MODE> bar(Aligned512(ws), 2, 1);
    if (block_idx == 0) bar.Arrive(0);  // block 1 never arrives
    if (block_idx == 2) bar.Wait(0);
  });
  ASSERT_EQ(f.size(), 1u) << Text(f);
  EXPECT_EQ(f[0].block_idx, 2);
  EXPECT_NE(f[0].message.find("GroupBarrier::Wait at "), std::string::npos) << f[0].message;
  EXPECT_NE(f[0].message.find("can never go on"), std::string::npos) << f[0].message;
}

// --- Mutex (Ascend 950) --------------------------------------------------------------------------

// The vendor's mutex pattern: copy in under Lock<MTE2>, add under Lock<V>, copy out under
// Lock<MTE3>, one ID per tile. Without the locks the sanitizer finds the MTE2 -> V race.
void MutexAdd(float* x, float* z, bool locks) {
  constexpr uint32_t kN = 64;
  AscendC::GlobalTensor<float> xg, zg;
  xg.SetGlobalBuffer(x, kN);
  zg.SetGlobalBuffer(z, kN);
  AscendC::LocalTensor<float> a(AscendC::TPosition::VECIN, 0, kN);
  AscendC::LocalTensor<float> c(AscendC::TPosition::VECOUT, 1024, kN);
  const AscendC::MutexID id = AscendC::AllocMutexID();
  if (locks) AscendC::Mutex::Lock<PIPE_MTE2>(id);
  AscendC::DataCopy(a, xg, kN);
  if (locks) AscendC::Mutex::Unlock<PIPE_MTE2>(id);
  if (locks) AscendC::Mutex::Lock<PIPE_V>(id);
  AscendC::Adds(c, a, 1.0f, kN);
  if (locks) AscendC::Mutex::Unlock<PIPE_V>(id);
  if (locks) AscendC::Mutex::Lock<PIPE_MTE3>(id);
  AscendC::DataCopy(zg, c, kN);
  if (locks) AscendC::Mutex::Unlock<PIPE_MTE3>(id);
  AscendC::ReleaseMutexID(id);
}

TEST(Mutex, LockAndUnlockOrderThePipesForTheSanitizer) {
  GmBuffer x(256), z(256);
  for (int i = 0; i < 64; ++i) x.as<float>()[i] = float(i);
  auto f = RunKernel(
      1, [&] { MutexAdd(x.as<float>(), z.as<float>(), true); }, Sanitized("Ascend950PR_9599"));
  EXPECT_TRUE(f.empty()) << Text(f);
  EXPECT_EQ(z.as<float>()[5], 6.0f);
  f = RunKernel(
      1, [&] { MutexAdd(x.as<float>(), z.as<float>(), false); }, Sanitized("Ascend950PR_9599"));
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].check, "racecheck");
}

TEST(Mutex, IdsAreHandedOutLowestFirstAndCheckedMode) {
  CheckedModeScope checked(true);
  auto f = RunKernel(
      1,
      [] {
        EXPECT_EQ(AscendC::AllocMutexID(), 0);
        EXPECT_EQ(AscendC::AllocMutexID(), 1);
        AscendC::ReleaseMutexID(0);
        EXPECT_EQ(AscendC::AllocMutexID(), 0);
        for (int i = 2; i < 28; ++i) AscendC::AllocMutexID();
        AscendC::AllocMutexID();  // the 29th
      },
      On("Ascend950PR_9599"));
  ASSERT_EQ(f.size(), 1u);
  EXPECT_NE(f[0].message.find("all 28 MutexIDs are taken"), std::string::npos) << f[0].message;
  f = RunKernel(
      1, [] { AscendC::ReleaseMutexID(3); }, On("Ascend950PR_9599"));
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].check, "block_sync");
  f = RunKernel(1, [] { AscendC::Mutex::Lock<PIPE_V>(0); });
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].check, "unsupported_on_product");
}

// --- Data cache, polling, CTRL -------------------------------------------------------------------

// The vendor's data_sync_barrier pattern: block 0 writes a value, then a flag; block 1 polls
// the flag, then reads the value.
TEST(ByPassDCache, APollLoopWaitsForTheWriterAndFailsWhenNoneIsLeft) {
  for (const LaunchOptions& o : {On("Ascend910B1"), On("Ascend910B1", true), Sanitized()}) {
    GmBuffer g(64);
    int32_t* p = g.as<int32_t>();
    const auto f = RunKernel(
        2,
        [&] {
          if (block_idx == 0) {
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
            AscendC::WriteGmByPassDCache(p + 1, int32_t{21});
            AscendC::DataSyncBarrier<AscendC::MemDsbT::DDR>();
            AscendC::WriteGmByPassDCache(p, int32_t{1});
          } else {
            while (AscendC::ReadGmByPassDCache(p) != 1) {
            }
            AscendC::WriteGmByPassDCache(p + 2, 2 * AscendC::ReadGmByPassDCache(p + 1));
          }
        },
        o);
    EXPECT_TRUE(f.empty()) << Text(f);
    EXPECT_EQ(p[2], 42);
  }
  GmBuffer g(64);
  const auto f = RunKernel(2, [&] {
    if (block_idx == 1) {
      while (AscendC::ReadGmByPassDCache(g.as<int32_t>()) != 1) {
      }
    }
  });
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].check, "block_sync");
  EXPECT_NE(f[0].message.find("ReadGmByPassDCache at "), std::string::npos) << f[0].message;
}

TEST(CtrlSpr, Bit48IsTheOverflowModeAndTheAtomicBitsAreTheDmaMode) {
  GmBuffer g(32);
  float* gp = g.as<float>();
  for (int i = 0; i < 8; ++i) gp[i] = 1.0f;
  const auto f = RunKernel(
      1,
      [&] {
        EXPECT_EQ((AscendC::GetCtrlSpr<48, 48>()), 0);
        EXPECT_EQ((AscendC::GetCtrlSpr<60, 60>()), 1);
        AscendC::SetCtrlSpr<48, 48>(1);
        EXPECT_FALSE(lngrad::aicore::FloatSaturation());
        AscendC::ResetCtrlSpr<48, 48>();
        EXPECT_TRUE(lngrad::aicore::FloatSaturation());
        AscendC::SetAtomicMin<::half>();
        EXPECT_EQ((AscendC::GetCtrlSpr<6, 8>()), 2);
        EXPECT_EQ((AscendC::GetCtrlSpr<9, 10>()), 2);
        AscendC::SetCtrlSpr<6, 10>(1);  // float add
        AscendC::GlobalTensor<float> gt;
        gt.SetGlobalBuffer(gp, 8);
        AscendC::LocalTensor<float> t(AscendC::TPosition::VECOUT, 0, 8);
        for (int i = 0; i < 8; ++i) t.HostPtr()[i] = float(i);
        AscendC::DataCopy(gt, t, 8);
        AscendC::ResetCtrlSpr<6, 10>();
        EXPECT_EQ(lngrad::aicore::detail::CurrentDmaAtomic().type,
                  lngrad::aicore::detail::AtomicType::kOff);
      },
      On("Ascend950PR_9599"));
  ASSERT_TRUE(f.empty()) << Text(f);
  for (int i = 0; i < 8; ++i) EXPECT_EQ(gp[i], 1.0f + i);
}

TEST(CtrlSpr, CheckedModeRefusesUndocumentedBitsAndWideValues) {
  CheckedModeScope checked(true);
  auto check = [](const char* soc, const std::function<void()>& k) {
    const auto f = RunKernel(1, k, On(soc));
    return f.empty() ? std::string("ok") : f[0].check + ": " + f[0].message;
  };
  EXPECT_EQ(check("Ascend910B1", [] { AscendC::SetCtrlSpr<48, 48>(1); }), "ok");
  const std::string a2 = check("Ascend910B1", [] { AscendC::SetCtrlSpr<60, 60>(1); });
  EXPECT_EQ(a2.rfind("ctrl_spr: SetCtrlSpr at ", 0), 0u) << a2;
  const std::string part = check("Ascend950PR_9599", [] { (void)AscendC::GetCtrlSpr<7, 8>(); });
  EXPECT_NE(part.find("bit 7"), std::string::npos) << part;
  const std::string wide = check("Ascend950PR_9599", [] { AscendC::SetCtrlSpr<9, 10>(4); });
  EXPECT_NE(wide.find("does not fit CTRL[10:9]"), std::string::npos) << wide;
  const std::string reset = check("Ascend910B1", [] { AscendC::ResetCtrlSpr<48, 48>(); });
  EXPECT_EQ(reset.rfind("unsupported_on_product:", 0), 0u) << reset;
}

TEST(TaskSync, WaitPreTaskEndAndSetNextTaskStartRunOnEveryProduct) {
  CheckedModeScope checked(true);
  for (const char* soc : {"Ascend910B1", "Ascend310P1", "Ascend950PR_9599", "Ascend910A"}) {
    EXPECT_TRUE(
        RunKernel(
            2,
            [] {
              AscendC::WaitPreTaskEnd();
              AscendC::SetNextTaskStart();
              AscendC::DataCacheCleanAndInvalid<int32_t, AscendC::CacheLine::ENTIRE_DATA_CACHE,
                                                AscendC::DcciDst::CACHELINE_OUT>(
                  AscendC::GlobalTensor<int32_t>());
            },
            On(soc))
            .size() == (std::string(soc) == "Ascend910A" ? 2u : 0u))
        << soc;
  }
}

// Atomic writes of several blocks to one range are the documented way to accumulate: no race;
// plain writes there still are.
TEST(DmaAtomic, SanitizerTakesAtomicAddsFromSeveralBlocksForNoRace) {
  constexpr uint32_t kN = 64;
  for (bool atomic : {true, false}) {
    GmBuffer g(kN * sizeof(float));
    const auto f = RunKernel(
        3,
        [&] {
          AscendC::GlobalTensor<float> gt;
          gt.SetGlobalBuffer(g.as<float>(), kN);
          AscendC::LocalTensor<float> t(AscendC::TPosition::VECOUT, 0, kN);
          AscendC::Duplicate(t, float(block_idx + 1), kN);
          AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
          AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
          if (atomic) AscendC::SetAtomicAdd<float>();
          AscendC::DataCopy(gt, t, kN);
          AscendC::DataCopy(gt, t, kN);  // twice, no barrier: atomic adds combine
          AscendC::DisableDmaAtomic();
        },
        Sanitized());
    if (atomic) {
      EXPECT_TRUE(f.empty()) << Text(f);
      EXPECT_EQ(g.as<float>()[5], 12.0f);
    } else {
      EXPECT_FALSE(f.empty());
    }
  }
}

}  // namespace
