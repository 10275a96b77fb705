// The Ascend C runtime end to end: a device-style kernel file (sample_kernels.cpp) launched with
// ICPU_RUN_KF and Launch, checked against plain C++; block scheduling; products.
#include <gtest/gtest.h>

#include <atomic>

#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <mutex>
#include <initializer_list>
#include <utility>
#include <string>
#include <optional>
#include <random>
#include <set>
#include <thread>
#include <vector>

#include "kernel_operator.h"
#include "gm_buffer.h"
#include "lngrad/environment.h"
#include "lngrad/half.h"

extern "C" void mixed_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR tiling);
extern "C" void block_info_custom(GM_ADDR out);

namespace {

using lngrad::aicore::LaunchOptions;

// UB facts from the spec (§6.2, §6.6), written independently of the product table.
constexpr uint32_t kUb910B = 192 * 1024;
constexpr uint32_t kStackEnd910B = 192 * 1024 - 64;
constexpr uint32_t kUb310P = 256 * 1024;
constexpr uint32_t kStackEnd310P = 256 * 1024;
constexpr uint32_t kUb950 = 248 * 1024;
constexpr uint32_t kStackEnd950 = 248 * 1024;

using lngrad::aicore::test::GmBuffer;

// The kernel's formula as plain C++, one IEEE float operation per step, rounded to half at the end.
uint16_t MixedReference(uint16_t x_bits, float y) {
  const float xf = lngrad::HalfBitsToFloat(x_bits);
  float t = xf + y;
  t = t * y;
  t = t / xf;
  t = t + 1.5f;
  t = t * 0.5f;
  t = t - 0.5f;
  t = std::sqrt(t);
  return lngrad::FloatToHalfBits(t);
}

struct MixedProblem {
  static constexpr uint32_t kBlocks = 8;
  static constexpr uint32_t kTile = 256;
  static constexpr uint32_t kTotal = kBlocks * 4 * kTile;  // 4 tiles per block: both buffers cycle
  GmBuffer x{kTotal * sizeof(uint16_t)};
  GmBuffer y{kTotal * sizeof(float)};
  GmBuffer z{kTotal * sizeof(uint16_t)};
  GmBuffer tiling{2 * sizeof(uint32_t)};
  std::vector<uint16_t> expected;

  MixedProblem() {
    std::mt19937 rng(1234);
    std::uniform_real_distribution<float> dx(1.0f, 2.0f);
    std::uniform_real_distribution<float> dy(1.0f, 3.0f);
    for (uint32_t i = 0; i < kTotal; ++i) {
      x.as<uint16_t>()[i] = lngrad::FloatToHalfBits(dx(rng));
      y.as<float>()[i] = dy(rng);
      expected.push_back(MixedReference(x.as<uint16_t>()[i], y.as<float>()[i]));
    }
    tiling.as<uint32_t>()[0] = kTotal;
    tiling.as<uint32_t>()[1] = kTile;
  }
  std::vector<uint16_t> Output() const { return {z.as<uint16_t>(), z.as<uint16_t>() + kTotal}; }
};

// Outside a launch and in every block of a vector kernel the running core is an AIV (the guards
// are the running core's type: lngrad_aicore/cores.h).
TEST(AscendcRuntime, VectorKernelsRunOnAivs) {
  EXPECT_TRUE(ASCEND_IS_AIV && !ASCEND_IS_AIC);
  std::atomic<int> aivs{0};
  ASSERT_TRUE(lngrad::aicore::Launch(4, [&] { aivs += ASCEND_IS_AIV && !ASCEND_IS_AIC; }).ok());
  EXPECT_EQ(aivs, 4);
}

TEST(AscendcRuntime, DeviceStyleKernelMatchesPlainCppUnderIcpuRunKf) {
  MixedProblem p;
  AscendC::SetKernelMode(AscendC::KernelMode::AIV_MODE);
  ICPU_SET_TILING_KEY(1);
  ICPU_RUN_KF(mixed_custom, MixedProblem::kBlocks, p.x.p, p.y.p, p.z.p, p.tiling.p);
  const std::vector<uint16_t> got = p.Output();
  size_t mismatches = 0;
  for (uint32_t i = 0; i < MixedProblem::kTotal; ++i) {
    if (got[i] != p.expected[i] && ++mismatches <= 5) {
      ADD_FAILURE() << "element " << i << " (block "
                    << i / (MixedProblem::kTotal / MixedProblem::kBlocks) << "): got 0x" << std::hex
                    << got[i] << ", want 0x" << p.expected[i];
    }
  }
  EXPECT_EQ(mismatches, 0u);
  // Guard against a reference that is wrong in the same way: the formula in double. Tolerance:
  // the final rounding to half is at most half an ulp (relative 2^-11 ~ 4.9e-4); the float steps
  // add a few float ulps (~1e-6). 1e-3 relative covers both with margin.
  for (uint32_t i = 0; i < MixedProblem::kTotal; ++i) {
    const double x = lngrad::HalfBitsToFloat(p.x.as<uint16_t>()[i]);
    const double y = p.y.as<float>()[i];
    const double want = std::sqrt(((x + y) * y / x + 1.5) * 0.5 - 0.5);
    ASSERT_NEAR(lngrad::HalfBitsToFloat(got[i]), want, 1e-3 * want) << "element " << i;
  }
}

TEST(AscendcRuntime, PlainLaunchApiRunsTheSameKernel) {
  MixedProblem p;
  const lngrad::Status s = lngrad::aicore::Launch(MixedProblem::kBlocks, [&] {
    mixed_custom(p.x.p, reinterpret_cast<GM_ADDR>(p.y.p), p.z.p, p.tiling.p);
  });
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_EQ(p.Output(), p.expected);
}

TEST(AscendcRuntime, SequentialAndParallelGiveIdenticalBits) {
  MixedProblem par;
  MixedProblem seq;
  ASSERT_TRUE(lngrad::aicore::Launch(MixedProblem::kBlocks, [&] {
                mixed_custom(par.x.p, par.y.p, par.z.p, par.tiling.p);
              }).ok());
  LaunchOptions o;
  o.sequential = true;
  ASSERT_TRUE(
      lngrad::aicore::Launch(
          MixedProblem::kBlocks, [&] { mixed_custom(seq.x.p, seq.y.p, seq.z.p, seq.tiling.p); }, o)
          .ok());
  EXPECT_EQ(par.Output(), seq.Output());
  EXPECT_EQ(seq.Output(), seq.expected);
}

// Which threads ran the blocks: sequential -> the caller's thread only; parallel -> the caller
// and pooled helper threads (gm_test.cpp checks the reuse).
std::set<std::thread::id> ThreadsOfLaunch(const LaunchOptions& o, uint32_t blocks) {
  std::mutex mu;
  std::set<std::thread::id> ids;
  EXPECT_TRUE(lngrad::aicore::Launch(
                  blocks,
                  [&] {
                    std::lock_guard lock(mu);
                    ids.insert(std::this_thread::get_id());
                  },
                  o)
                  .ok());
  return ids;
}

TEST(AscendcRuntime, SequentialRunsOnTheCallingThread) {
  LaunchOptions o;
  o.sequential = true;
  EXPECT_EQ(ThreadsOfLaunch(o, 6), std::set<std::thread::id>{std::this_thread::get_id()});
  // Parallel: some block runs off the calling thread (each block waits a little, so the helper
  // that the launch wakes gets there before the caller has run them all).
  std::mutex mu;
  std::set<std::thread::id> par;
  ASSERT_TRUE(lngrad::aicore::Launch(16, [&] {
                std::this_thread::sleep_for(std::chrono::microseconds(500));
                std::lock_guard lock(mu);
                par.insert(std::this_thread::get_id());
              }).ok());
  par.erase(std::this_thread::get_id());
  EXPECT_GE(par.size(), 1u);
}

TEST(AscendcRuntime, EnvironmentVariableSelectsSequentialBlocks) {
  // Read once per process: the test hook reads the environment again after each change.
  ASSERT_EQ(setenv("LNGRAD_SEQUENTIAL_BLOCKS", "1", 1), 0);
  lngrad::RereadEnvironmentForTesting();
  const std::set<std::thread::id> ids = ThreadsOfLaunch(LaunchOptions{}, 4);
  unsetenv("LNGRAD_SEQUENTIAL_BLOCKS");
  lngrad::RereadEnvironmentForTesting();
  EXPECT_EQ(ids, std::set<std::thread::id>{std::this_thread::get_id()});
}

std::vector<int32_t> BlockInfo(uint32_t blocks, const char* soc) {
  GmBuffer out(blocks * 8 * sizeof(int32_t));
  LaunchOptions o;
  o.soc = soc;
  const lngrad::Status s = lngrad::aicore::Launch(
      blocks, [&] { block_info_custom(out.p); }, o);
  EXPECT_TRUE(s.ok()) << s.ToString();
  return {out.as<int32_t>(), out.as<int32_t>() + blocks * 8};
}

TEST(AscendcRuntime, EachBlockSeesItsIndexCountAndOwnUb) {
  const uint32_t blocks = 5;
  const std::vector<int32_t> info = BlockInfo(blocks, "Ascend910B1");
  for (uint32_t b = 0; b < blocks; ++b) {
    EXPECT_EQ(info[b * 8 + 0], static_cast<int32_t>(b));
    EXPECT_EQ(info[b * 8 + 1], static_cast<int32_t>(blocks));
    EXPECT_EQ(info[b * 8 + 2], static_cast<int32_t>(kUb910B));
    // Every block's TPipe starts at UB address 0: the UBs are separate.
    EXPECT_EQ(info[b * 8 + 3], 0);
  }
}

TEST(AscendcRuntime, SocSelectsUbSizeAndStackEnd) {
  // 32 B queue block + 1000 B TBuf (rounded to 1024) = 1056 B allocated before the stack.
  const int32_t used = 32 + 1024;
  struct Case {
    const char* soc;
    uint32_t ub;
    uint32_t stack_end;
  };
  for (const Case& c :
       {Case{"Ascend910B1", kUb910B, kStackEnd910B}, Case{"Ascend910_9391", kUb910B, kStackEnd910B},
        Case{"Ascend310P1", kUb310P, kStackEnd310P},
        Case{"Ascend950PR_9599", kUb950, kStackEnd950}}) {
    SCOPED_TRACE(c.soc);
    const std::vector<int32_t> info = BlockInfo(1, c.soc);
    EXPECT_EQ(info[2], static_cast<int32_t>(c.ub));
    EXPECT_EQ(info[4], static_cast<int32_t>((c.stack_end - used) / sizeof(float)));
    EXPECT_EQ(info[5], used);
  }
}

TEST(AscendcRuntime, SocSwitchChangesWhatFitsInUb) {
  // 200 KiB fits the 256 KiB UB of Ascend310P1 but not the 192 KiB UB of Ascend910B1.
  auto kernel = [] {
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> big;
    pipe.InitBuffer(big, 200 * 1024);
  };
  LaunchOptions o;
  o.soc = "Ascend310P1";
  EXPECT_TRUE(lngrad::aicore::Launch(1, kernel, o).ok());
  o.soc = "Ascend910B1";
  testing::internal::CaptureStderr();
  const lngrad::Status s = lngrad::aicore::Launch(1, kernel, o);
  testing::internal::GetCapturedStderr();
  EXPECT_EQ(s.code(), lngrad::StatusCode::kInvalidArgument);
  EXPECT_NE(s.message().find("ub_overflow"), std::string::npos) << s.message();
}

TEST(AscendcRuntime, CurrentSocDrivesLaunchesWithoutOverride) {
  const std::string before(lngrad::CurrentProduct().soc);
  ASSERT_TRUE(lngrad::SetCurrentSoc("Ascend310P3").ok());
  uint32_t seen = 0;
  std::string soc_seen;
  const lngrad::Status s = lngrad::aicore::Launch(1, [&] {
    seen = AscendC::GetUBSizeInBytes();
    soc_seen = std::string(lngrad::aicore::CurrentBlockProduct().soc);
  });
  ASSERT_TRUE(lngrad::SetCurrentSoc(before).ok());
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_EQ(seen, kUb310P);
  EXPECT_EQ(soc_seen, "Ascend310P3");
}

// Sets environment variables for the scope and has the library read them again (it reads
// them once per process); restores them on exit.
class EnvScope {
 public:
  EnvScope(std::initializer_list<std::pair<const char*, const char*>> vars) {
    for (const auto& [name, value] : vars) {
      const char* old = std::getenv(name);
      saved_.push_back({name, old != nullptr ? std::optional<std::string>(old) : std::nullopt});
      if (value != nullptr) {
        setenv(name, value, 1);
      } else {
        unsetenv(name);
      }
    }
    lngrad::RereadEnvironmentForTesting();
  }
  ~EnvScope() {
    for (const auto& [name, value] : saved_) {
      if (value) {
        setenv(name, value->c_str(), 1);
      } else {
        unsetenv(name);
      }
    }
    lngrad::RereadEnvironmentForTesting();
  }

 private:
  std::vector<std::pair<const char*, std::optional<std::string>>> saved_;
};

TEST(AscendcRuntime, ImplNamesMeanWhatTheyMeanForTheNativeLibrary) {
  using lngrad::aicore::Impl;
  using lngrad::aicore::ResolveImpl;
  // One concept: the user's names map onto the instruction set's Impl one to one.
  EXPECT_EQ(lngrad::aicore::FromUserImpl(lngrad::Impl::kAuto), Impl::kAuto);
  EXPECT_EQ(lngrad::aicore::FromUserImpl(lngrad::Impl::kSimd), Impl::kSimd);
  EXPECT_EQ(lngrad::aicore::FromUserImpl(lngrad::Impl::kScalar), Impl::kScalar);
  const std::pair<const char*, Impl> cases[] = {{nullptr, Impl::kSimd},
                                                {"", Impl::kSimd},
                                                {"auto", Impl::kSimd},
                                                {"simd", Impl::kSimd},
                                                {"scalar", Impl::kScalar}};
  for (const auto& [value, want] : cases) {
    EnvScope env({{"LNGRAD_IMPL", value}, {"LNGRAD_ADV_FUSE", nullptr}});
    SCOPED_TRACE(value != nullptr ? value : "(unset)");
    EXPECT_EQ(ResolveImpl(Impl::kAuto), want);
    lngrad::Impl native = lngrad::Impl::kAuto;
    ASSERT_TRUE(lngrad::ImplFromEnvironment("", &native).ok());
    // The native library's auto is simd too (tests/core/impl_test.cpp).
    EXPECT_EQ(
        lngrad::aicore::FromUserImpl(native == lngrad::Impl::kAuto ? lngrad::Impl::kSimd : native),
        want);
  }
  {
    EnvScope env({{"LNGRAD_IMPL", "simd"}, {"LNGRAD_ADV_FUSE", "0"}});
    EXPECT_EQ(ResolveImpl(Impl::kAuto), Impl::kSimdSteps);
  }
}

TEST(AscendcRuntime, ALaunchAndTheNativeLibraryReportABadImplAlike) {
  EnvScope env({{"LNGRAD_IMPL", "fast"}});
  lngrad::Impl native = lngrad::Impl::kSimd;
  const lngrad::Status from_native = lngrad::ImplFromEnvironment("", &native);
  const lngrad::Status from_launch = lngrad::aicore::Launch(1, [] {});
  EXPECT_EQ(from_launch.code(), lngrad::StatusCode::kInvalidArgument);
  EXPECT_EQ(from_launch.message(),
            "environment variable LNGRAD_IMPL must be auto, simd or scalar (got 'fast')");
  EXPECT_EQ(from_launch.message(), from_native.message());
  EXPECT_EQ(native, lngrad::Impl::kSimd);
}

TEST(AscendcRuntime, MisspeltImplEnvironmentIsAnErrorNotTheDefault) {
  // LNGRAD_IMPL takes auto, simd or scalar (shared with the native library); anything else is
  // reported by the launch, and the kernel does not run.
  const char* saved = std::getenv("LNGRAD_IMPL");
  const std::string before = saved != nullptr ? saved : "";
  // (Read once per process: the test hook reads the environment again after each change.)
  ASSERT_EQ(setenv("LNGRAD_IMPL", "scaler", 1), 0);
  lngrad::RereadEnvironmentForTesting();
  bool ran = false;
  const lngrad::Status bad = lngrad::aicore::Launch(1, [&] { ran = true; });
  ASSERT_EQ(setenv("LNGRAD_IMPL", "scalar", 1), 0);
  lngrad::RereadEnvironmentForTesting();
  const lngrad::Status good = lngrad::aicore::Launch(1, [] {});
  if (saved != nullptr) {
    setenv("LNGRAD_IMPL", before.c_str(), 1);
  } else {
    unsetenv("LNGRAD_IMPL");
  }
  lngrad::RereadEnvironmentForTesting();
  EXPECT_EQ(bad.code(), lngrad::StatusCode::kInvalidArgument);
  EXPECT_NE(bad.message().find("LNGRAD_IMPL must be auto, simd or scalar (got 'scaler')"),
            std::string::npos)
      << bad.message();
  EXPECT_FALSE(ran);
  EXPECT_TRUE(good.ok()) << good.ToString();
}

TEST(AscendcRuntime, MisspeltSocEnvironmentIsAnErrorForLaunches) {
  // The variable is read once per process: CTest runs this test alone with LNGRAD_SOC=NotASoc
  // (aicore.env_bad_soc.runtime_test) and leaves it out of the discovered tests.
  const char* env = std::getenv("LNGRAD_SOC");
  ASSERT_TRUE(env != nullptr && std::strcmp(env, "NotASoc") == 0)
      << "run with LNGRAD_SOC=NotASoc (aicore.env_bad_soc.runtime_test)";
  bool ran = false;
  const lngrad::Status bad = lngrad::aicore::Launch(1, [&] { ran = true; });
  EXPECT_EQ(bad.code(), lngrad::StatusCode::kInvalidArgument);
  EXPECT_NE(bad.message().find("LNGRAD_SOC \"NotASoc\" is not a known SoC name"), std::string::npos)
      << bad.message();
  EXPECT_FALSE(ran);
  // A product named by the launch itself does not consult the variable.
  LaunchOptions o;
  o.soc = "Ascend910B1";
  const lngrad::Status good = lngrad::aicore::Launch(
      1, [] {}, o);
  EXPECT_TRUE(good.ok()) << good.ToString();
}

// A kernel that counts the nonzero int32 words of its first 4 KiB of UB into (*seen)[block] and
// then fills them with 7s (what a later block on the same UB would find).
std::function<void()> CountNonzeroUbThenFill(std::vector<int>* seen) {
  return [seen] {
    AscendC::TPipe pipe;
    AscendC::TBuf<> buf;
    pipe.InitBuffer(buf, 4096);
    AscendC::LocalTensor<int32_t> t = buf.Get<int32_t>();
    int nonzero = 0;
    for (uint32_t i = 0; i < t.GetSize(); ++i) nonzero += t.GetValue(i) != 0;
    (*seen)[AscendC::GetBlockIdx()] = nonzero;
    AscendC::Duplicate(t, 7, static_cast<int32_t>(t.GetSize()));
  };
}

TEST(AscendcRuntime, UbIsZeroedForEveryBlock) {
  // Sequential: one UB serves all blocks; each block must still start from zeros. Reading UB
  // nothing wrote is the point here, so initcheck is off (it reports exactly these reads).
  LaunchOptions o;
  o.sequential = true;
  o.sanitize = lngrad::aicore::san::kRacecheck | lngrad::aicore::san::kSynccheck;
  std::vector<int> nonzero_seen(4, -1);
  const lngrad::Status s = lngrad::aicore::Launch(4, CountNonzeroUbThenFill(&nonzero_seen), o);
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_EQ(nonzero_seen, std::vector<int>(4, 0));
}

TEST(AscendcRuntime, CheckedModeZeroesTheUbThatAnUncheckedLaunchLeft) {
  // Unchecked mode leaves each block the UB its thread's previous block left (as a device core
  // finds the previous kernel's data); checked mode must still give every block zeros, even
  // from a pooled UB that an unchecked launch filled with 7s. No sanitizer tool: it would zero
  // the UB by itself.
  const bool was_checked = lngrad::aicore::CheckedMode();
  LaunchOptions o;
  o.sequential = true;
  o.sanitize = 0;
  std::vector<int> nonzero_seen(4, -1);
  lngrad::aicore::SetCheckedMode(false);
  const lngrad::Status dirty = lngrad::aicore::Launch(2, CountNonzeroUbThenFill(&nonzero_seen), o);
  lngrad::aicore::SetCheckedMode(true);
  const lngrad::Status s = lngrad::aicore::Launch(4, CountNonzeroUbThenFill(&nonzero_seen), o);
  lngrad::aicore::SetCheckedMode(was_checked);
  ASSERT_TRUE(dirty.ok()) << dirty.ToString();
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_EQ(nonzero_seen, std::vector<int>(4, 0));
}

// Checked mode zeroes, before each block, only the UB bytes earlier blocks may have written
// (BlockContext::ub_written_end): every way a block can write the UB must count. Block b writes
// through one of them, the next block counts the nonzero bytes of the whole UB.
TEST(AscendcRuntime, CheckedModeZeroesEveryUbByteAnEarlierBlockWrote) {
  const bool was_checked = lngrad::aicore::CheckedMode();
  LaunchOptions o;
  o.sequential = true;  // one worker, one UB: block b + 1 finds what block b left
  o.sanitize = 0;       // a sanitizer tool zeroes the UB itself
  constexpr int kWays = 6;
  std::vector<int64_t> nonzero(kWays + 1, -1);
  auto kernel = [&nonzero] {
    lngrad::aicore::BlockContext* ctx = lngrad::aicore::CurrentBlockContext();
    const int64_t b = AscendC::GetBlockIdx();
    int64_t n = 0;
    for (uint32_t i = 0; i < ctx->ub_size; ++i) n += ctx->ub[i] != std::byte{0};
    nonzero[b] = n;
    const uint32_t ub_bytes = ctx->product->ub_bytes;
    if (b == 0) {  // TPipe buffers up to the top of the UB
      AscendC::TPipe pipe;
      AscendC::TBuf<> low, high;
      pipe.InitBuffer(low, 1024);
      pipe.InitBuffer(high, ub_bytes - 1024);
      AscendC::Duplicate(high.Get<int32_t>(), 7, static_cast<int32_t>((ub_bytes - 1024) / 4));
    } else if (b == 1) {  // a static tensor on the UB's last 32 bytes
      AscendC::LocalTensor<int32_t> t(AscendC::TPosition::VECCALC, ub_bytes - 32, 8);
      AscendC::Duplicate(t, 5, 8);
    } else if (b == 2) {  // the stack buffer after a small TPipe buffer
      AscendC::TPipe pipe;
      AscendC::TBuf<> buf;
      pipe.InitBuffer(buf, 256);
      AscendC::LocalTensor<uint8_t> stack;
      ASSERT_TRUE((AscendC::PopStackBuffer<uint8_t, AscendC::TPosition::LCM>(stack)));
      const uint32_t last = stack.GetSize() - 1;
      stack.SetValue(last, 3);
    } else if (b == 3) {  // a scalar write through a static tensor
      AscendC::LocalTensor<uint16_t> t(AscendC::TPosition::VECIN, 96 * 1024, 16);
      t.SetValue(15, 9);
    } else if (b == 4) {  // the second buffer of a queue
      AscendC::TPipe pipe;
      AscendC::TQue<AscendC::TPosition::VECOUT, 1> q;
      pipe.InitBuffer(q, 2, 32 * 1024);
      AscendC::LocalTensor<int32_t> first = q.AllocTensor<int32_t>();
      AscendC::LocalTensor<int32_t> second = q.AllocTensor<int32_t>();
      AscendC::Duplicate(second, 1, 8 * 1024);
      q.FreeTensor(first);
      q.FreeTensor(second);
    } else if (b == 5) {  // a TPipe, destroyed, then a second one: the higher extent counts
      {
        AscendC::TPipe pipe;
        AscendC::TBuf<> buf;
        pipe.InitBuffer(buf, 128 * 1024);
        AscendC::Duplicate(buf.Get<int32_t>(), 2, 32 * 1024);
      }
      AscendC::TPipe pipe;
      AscendC::TBuf<> buf;
      pipe.InitBuffer(buf, 1024);
    }
  };
  lngrad::aicore::SetCheckedMode(true);
  const lngrad::Status s = lngrad::aicore::Launch(kWays + 1, kernel, o);
  lngrad::aicore::SetCheckedMode(was_checked);
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_EQ(nonzero, std::vector<int64_t>(kWays + 1, 0));
}

TEST(AscendcRuntime, LaunchRejectsBadParameters) {
  EXPECT_EQ(lngrad::aicore::Launch(0, [] {}).code(), lngrad::StatusCode::kInvalidArgument);
  EXPECT_EQ(lngrad::aicore::Launch(lngrad::aicore::kMaxBlocks + 1, [] {}).code(),
            lngrad::StatusCode::kInvalidArgument);
  EXPECT_EQ(lngrad::aicore::Launch(1, std::function<void()>()).code(),
            lngrad::StatusCode::kInvalidArgument);
  LaunchOptions o;
  o.soc = "Ascend999X";
  const lngrad::Status s = lngrad::aicore::Launch(
      1, [] {}, o);
  EXPECT_EQ(s.code(), lngrad::StatusCode::kInvalidArgument);
  EXPECT_NE(s.message().find("Ascend999X"), std::string::npos);
  EXPECT_THROW(ICPU_RUN_KF(block_info_custom, 0, nullptr), std::invalid_argument);
}

TEST(AscendcRuntime, GmAllocIsAlignedZeroedAndTracked) {
  for (size_t bytes : {1u, 31u, 32u, 1000u}) {
    void* p = AscendC::GmAlloc(bytes);
    EXPECT_EQ(reinterpret_cast<uintptr_t>(p) % 32, 0u);
    const auto* b = static_cast<const uint8_t*>(p);
    for (size_t i = 0; i < bytes; ++i) ASSERT_EQ(b[i], 0) << "byte " << i << " of " << bytes;
    AscendC::GmFree(p);
  }
  AscendC::GmFree(nullptr);
  int on_stack = 0;
  EXPECT_THROW(AscendC::GmFree(&on_stack), std::invalid_argument);
  void* p = AscendC::GmAlloc(64);
  AscendC::GmFree(p);
  EXPECT_THROW(AscendC::GmFree(p), std::invalid_argument);  // double free
}

TEST(AscendcRuntime, TensorViewsAddressesAndSizes) {
  const lngrad::Status s = lngrad::aicore::Launch(1, [] {
    using namespace AscendC;
    TPipe pipe;
    TQue<TPosition::VECIN, 2> q1;
    TQue<TPosition::VECOUT, 1> q2;
    pipe.InitBuffer(q1, 2, 100);  // two blocks of 128 B
    pipe.InitBuffer(q2, 1, 64);
    LocalTensor<float> a = q1.AllocTensor<float>();
    LocalTensor<float> b = q1.AllocTensor<float>();
    LocalTensor<float> c = q2.AllocTensor<float>();
    EXPECT_EQ(a.GetPhyAddr(), 0u);
    EXPECT_EQ(b.GetPhyAddr(), 128u);
    EXPECT_EQ(c.GetPhyAddr(), 256u);
    EXPECT_EQ(a.GetSize(), 32u);
    EXPECT_EQ(a.GetPosition(), static_cast<int32_t>(TPosition::VECIN));
    EXPECT_EQ(c.GetPosition(), static_cast<int32_t>(TPosition::VECOUT));
    EXPECT_EQ(pipe.AllocatedBytes(), 320u);
    LocalTensor<float> sub = a[8];
    EXPECT_EQ(sub.GetPhyAddr(), 32u);
    EXPECT_EQ(sub.GetSize(), 24u);
    EXPECT_EQ(sub.HostPtr(), a.HostPtr() + 8);
    LocalTensor<half> h = a.ReinterpretCast<half>();
    EXPECT_EQ(h.GetSize(), 64u);
    EXPECT_EQ(h.GetPhyAddr(), 0u);
    LocalTensor<uint8_t> bytes = sub.ReinterpretCast<uint8_t>();
    EXPECT_EQ(bytes.GetSize(), 96u);
    a.SetValue(9, 3.5f);
    EXPECT_EQ(sub.GetValue(1), 3.5f);
    EXPECT_EQ(h.GetPhyAddr(4), 8u);
    a.SetSize(16);
    EXPECT_EQ(a.GetSize(), 16u);
    EXPECT_EQ(a.GetLength(), 64u);
    ShapeInfo info;
    info.shapeDim = 2;
    info.shape[0] = 4;
    info.shape[1] = 8;
    a.SetShapeInfo(info);
    EXPECT_EQ(GetShapeSize(a.GetShapeInfo()), 32u);
    EXPECT_EQ(GetTPipePtr(), &pipe);
    q1.FreeTensor(a);
    q1.FreeTensor(b);
    q2.FreeTensor(c);
  });
  EXPECT_TRUE(s.ok()) << s.ToString();
}

TEST(AscendcRuntime, StridedDataCopyMovesBlocksWithGaps) {
  GmBuffer src(16 * 32);
  GmBuffer dst(16 * 32);
  for (int i = 0; i < 16 * 8; ++i) src.as<float>()[i] = static_cast<float>(i);
  const lngrad::Status s = lngrad::aicore::Launch(1, [&] {
    using namespace AscendC;
    TPipe pipe;
    TBuf<> buf;
    pipe.InitBuffer(buf, 16 * 32);
    LocalTensor<float> ub = buf.Get<float>();
    Duplicate(ub, -1.0f, 16 * 8);
    SetFlag<HardEvent::V_MTE2>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE2>(EVENT_ID0);
    GlobalTensor<float> s_gm;
    GlobalTensor<float> d_gm;
    s_gm.SetGlobalBuffer(src.as<float>(), 16 * 8);
    d_gm.SetGlobalBuffer(dst.as<float>(), 16 * 8);
    // 3 blocks of 2 data blocks; GM gap 1 data block, UB gap 0: GM blocks 0-1, 3-4, 6-7.
    DataCopy(ub, s_gm, DataCopyParams(3, 2, 1, 0));
    SetFlag<HardEvent::MTE2_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_MTE3>(EVENT_ID0);
    // Back out with UB gap 0 and GM gap 2: UB blocks 0-5 go to GM blocks 0-1, 4-5, 8-9.
    DataCopy(d_gm, ub, DataCopyParams(3, 2, 0, 2));
  });
  ASSERT_TRUE(s.ok()) << s.ToString();
  const int gm_src_blocks[6] = {0, 1, 3, 4, 6, 7};
  const int gm_dst_blocks[6] = {0, 1, 4, 5, 8, 9};
  for (int k = 0; k < 6; ++k) {
    for (int e = 0; e < 8; ++e) {
      EXPECT_EQ(dst.as<float>()[gm_dst_blocks[k] * 8 + e],
                static_cast<float>(gm_src_blocks[k] * 8 + e));
    }
  }
  for (int blk : {2, 3, 6, 7, 10, 11})
    EXPECT_EQ(dst.as<float>()[blk * 8], 0.0f) << "GM block " << blk;
}

TEST(AscendcRuntime, IntegerAddWrapsAndTilingKeyIsVisible) {
  ICPU_SET_TILING_KEY(42);
  bool key_ok = false;
  const lngrad::Status s = lngrad::aicore::Launch(1, [&] {
    using namespace AscendC;
    key_ok = TILING_KEY_IS(42) && !TILING_KEY_IS(41);
    TPipe pipe;
    TBuf<> buf;
    pipe.InitBuffer(buf, 64);
    LocalTensor<int32_t> a = buf.Get<int32_t>(8);
    LocalTensor<int32_t> b = buf.Get<int32_t>()[8];
    Duplicate(a, INT32_MAX, 8);
    Duplicate(b, 2, 8);
    Add(a, a, b, 8);
    EXPECT_EQ(a.GetValue(0), INT32_MIN + 1);
    Muls(b, b, -3, 8);
    EXPECT_EQ(b.GetValue(7), -6);
  });
  EXPECT_TRUE(s.ok()) << s.ToString();
  EXPECT_TRUE(key_ok);
}

}  // namespace
