// Implementation choice: ListImpls, ParseImpl, Options::impl, the LNGRAD_IMPL variable, and
// that every entry point reports the path it took.
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "test_util.h"

namespace lngrad {
namespace {

// Sets LNGRAD_IMPL for the scope (tests run in one thread). The library reads the environment
// once per process; the test hook makes it read the variable again on entry and on exit.
class EnvScope {
 public:
  explicit EnvScope(const char* value) {
    if (value != nullptr) {
      setenv("LNGRAD_IMPL", value, 1);
    } else {
      unsetenv("LNGRAD_IMPL");
    }
    RereadEnvironmentForTesting();
  }
  ~EnvScope() {
    unsetenv("LNGRAD_IMPL");
    RereadEnvironmentForTesting();
  }
};

Status RunSmallGrad(const Options& o) {
  const std::vector<float> dy(16, 1.0f), x(16, 2.0f), stat(2, 1.0f), gamma(8, 1.0f);
  std::vector<float> pd_x(16), res(16);
  return LayerNormGrad({2, 8}, dy.data(), x.data(), stat.data(), stat.data(), gamma.data(), 1e-5f,
                       pd_x.data(), res.data(), o);
}

// RunSmallGrad(o) with LNGRAD_IMPL set to `value` for the call (nullptr: unset).
Status RunSmallGradUnder(const char* value, const Options& o) {
  EnvScope env(value);
  return RunSmallGrad(o);
}

// Default options that report the path they take into `info`.
Options ReportingTo(RunInfo* info) {
  Options o;
  o.info = info;
  return o;
}

TEST(Impl, ListFastestFirstReferenceLast) {
  const auto impls = ListImpls();
  ASSERT_EQ(impls.size(), 2u);
  EXPECT_EQ(impls.front().impl, Impl::kSimd);
  EXPECT_EQ(impls.back().impl, Impl::kScalar);
  for (const auto& d : impls) {
    EXPECT_EQ(d.name, ImplName(d.impl));
    EXPECT_TRUE(d.available) << d.name << ": " << d.detail;
    EXPECT_FALSE(d.detail.empty());
  }
  const auto best = test::MainPaths().front();
  EXPECT_NE(impls.front().detail.find(hwy::TargetName(best.target)), std::string::npos)
      << impls.front().detail;
}

TEST(Impl, CompiledTargetsIncludeAFallbackAndAreSupported) {
  const auto paths = test::AllPaths();
  ASSERT_GE(paths.size(), 2u) << "at least one SIMD target and scalar";
  // Highway always compiles a portable fallback target (EMU128, or SCALAR on g++ < 12.3).
  EXPECT_NE(core::CompiledSimdTargets() & (HWY_EMU128 | HWY_SCALAR), 0);
#if HWY_ARCH_X86
  EXPECT_NE(core::CompiledSimdTargets() & HWY_AVX2, 0) << "x86-64 builds include AVX2";
#endif
}

TEST(Impl, NamesAndParsing) {
  EXPECT_STREQ(ImplName(Impl::kAuto), "auto");
  EXPECT_STREQ(ImplName(Impl::kSimd), "simd");
  EXPECT_STREQ(ImplName(Impl::kScalar), "scalar");
  for (Impl impl : {Impl::kAuto, Impl::kSimd, Impl::kScalar}) {
    Impl parsed = impl == Impl::kAuto ? Impl::kScalar : Impl::kAuto;
    ASSERT_TRUE(ParseImpl(ImplName(impl), &parsed).ok());
    EXPECT_EQ(parsed, impl);
  }
  for (const char* bad : {"", "SIMD", "avx2", "simd "}) {
    Impl parsed = Impl::kScalar;
    const Status s = ParseImpl(bad, &parsed);
    EXPECT_EQ(s.code(), StatusCode::kInvalidArgument) << bad;
    EXPECT_NE(s.message().find("'text'"), std::string::npos) << s.message();
    EXPECT_EQ(parsed, Impl::kScalar) << "untouched on error";
  }
  EXPECT_EQ(ParseImpl("simd", nullptr).code(), StatusCode::kInvalidArgument);
}

TEST(Impl, OptionsEnvAndDefault) {
  RunInfo info;
  Options o = ReportingTo(&info);
  ASSERT_TRUE(RunSmallGradUnder(nullptr, o).ok());
  EXPECT_EQ(info.impl, Impl::kSimd) << "default is the fastest";
  EXPECT_EQ(info.target, hwy::TargetName(test::MainPaths().front().target));
  EXPECT_EQ(info.threads, 1);
  {
    EnvScope env("scalar");
    ASSERT_TRUE(RunSmallGrad(o).ok());
    EXPECT_EQ(info.impl, Impl::kScalar);
    EXPECT_EQ(info.target, "scalar");
    o.impl = Impl::kSimd;  // an explicit choice wins over the environment
    ASSERT_TRUE(RunSmallGrad(o).ok());
    EXPECT_EQ(info.impl, Impl::kSimd);
    o.impl = Impl::kAuto;
  }
  ASSERT_TRUE(RunSmallGradUnder("simd", o).ok());
  EXPECT_EQ(info.impl, Impl::kSimd);
  ASSERT_TRUE(RunSmallGradUnder("auto", o).ok());
  EXPECT_EQ(info.impl, Impl::kSimd);
  {
    EnvScope env("fast");
    const Status s = RunSmallGrad(o);
    EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
    EXPECT_NE(s.message().find("LNGRAD_IMPL"), std::string::npos) << s.message();
    o.impl = Impl::kScalar;  // not consulted when the choice is explicit
    EXPECT_TRUE(RunSmallGrad(o).ok());
  }
}

TEST(Impl, ImplFromEnvironmentNamesTheVariable) {
  Impl impl = Impl::kScalar;
  {
    EnvScope env(nullptr);
    ASSERT_TRUE(ImplFromEnvironment("", &impl).ok());
    EXPECT_EQ(impl, Impl::kAuto);
  }
  {
    EnvScope env("scalar");
    ASSERT_TRUE(ImplFromEnvironment("", &impl).ok());
    EXPECT_EQ(impl, Impl::kScalar);
  }
  {
    EnvScope env("fast");
    impl = Impl::kSimd;
    const Status s = ImplFromEnvironment("", &impl);
    EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
    EXPECT_EQ(s.message(),
              "environment variable LNGRAD_IMPL must be auto, simd or scalar (got 'fast')");
    EXPECT_EQ(impl, Impl::kSimd);  // unchanged on error
    EXPECT_EQ(ImplFromEnvironment("LayerNormGrad", &impl).message().rfind("LayerNormGrad: ", 0),
              0u);
  }
}

TEST(Impl, EnvironmentIsReadOncePerProcess) {
  EnvScope env(nullptr);
  RunInfo info;
  Options o = ReportingTo(&info);
  const Environment* first = &ProcessEnvironment();
  // Changed after the read, without the test hook: neither the calls nor ImplFromEnvironment
  // see it.
  ASSERT_EQ(setenv("LNGRAD_IMPL", "scalar", 1), 0);
  ASSERT_TRUE(RunSmallGrad(o).ok());
  EXPECT_EQ(info.impl, Impl::kSimd);
  Impl impl = Impl::kSimd;
  ASSERT_TRUE(ImplFromEnvironment("", &impl).ok());
  EXPECT_EQ(impl, Impl::kAuto);
  EXPECT_EQ(&ProcessEnvironment(), first);
  // Read again: now it does; what was handed out before stays valid and unchanged.
  RereadEnvironmentForTesting();
  ASSERT_TRUE(RunSmallGrad(o).ok());
  EXPECT_EQ(info.impl, Impl::kScalar);
  EXPECT_EQ(ProcessEnvironment().impl, Impl::kScalar);
  EXPECT_EQ(first->impl, Impl::kAuto);
}

TEST(Impl, EnvironmentIsTheSameObjectForEveryThread) {
  EnvScope env("scalar");
  std::vector<const Environment*> seen(8, nullptr);
  std::vector<std::thread> threads;
  for (size_t i = 0; i < seen.size(); ++i) {
    threads.emplace_back([&seen, i] { seen[i] = &ProcessEnvironment(); });
  }
  for (auto& t : threads) t.join();
  for (const Environment* e : seen) {
    EXPECT_EQ(e, &ProcessEnvironment());
  }
  EXPECT_EQ(ProcessEnvironment().impl, Impl::kScalar);
}

TEST(Impl, AutoRunsTheFirstImplementationThatAccepts) {
  RunInfo info;
  Options o = ReportingTo(&info);
  ASSERT_TRUE(RunSmallGradUnder(nullptr, o).ok());
  EXPECT_EQ(info.impl, ListImpls().front().impl) << "the first in the list accepts auto";
  EXPECT_TRUE(info.refused.empty());
  ASSERT_TRUE(RunSmallGradUnder("auto", o).ok());
  EXPECT_EQ(info.impl, Impl::kSimd);
  EXPECT_TRUE(info.refused.empty());
}

TEST(Impl, RefusalsAreReportedWithTheirReasons) {
  RunInfo info;
  Options o = ReportingTo(&info);
  {
    EnvScope env("scalar");
    ASSERT_TRUE(RunSmallGrad(o).ok());
    EXPECT_EQ(info.impl, Impl::kScalar);
    EXPECT_EQ(info.refused, std::vector<std::string>{"simd: not requested (LNGRAD_IMPL=scalar)"});
    o.impl = Impl::kSimd;  // explicit: the first entry accepts, nothing refused
    ASSERT_TRUE(RunSmallGrad(o).ok());
    EXPECT_EQ(info.impl, Impl::kSimd);
    EXPECT_TRUE(info.refused.empty()) << "a RunInfo is overwritten, not appended to";
  }
  {
    EnvScope env(nullptr);
    o.impl = Impl::kScalar;
    ASSERT_TRUE(RunSmallGrad(o).ok());
    EXPECT_EQ(info.impl, Impl::kScalar);
    EXPECT_EQ(info.refused,
              std::vector<std::string>{"simd: not requested (Options::impl is scalar)"});
    // Every entry point reports them (LayerNormGradBeta here).
    const std::vector<float> dy(16, 1.0f), res(16, 1.0f);
    std::vector<float> dgamma(8), dbeta(8);
    info = RunInfo{};
    ASSERT_TRUE(
        LayerNormGradBeta({2, 8}, dy.data(), res.data(), dgamma.data(), dbeta.data(), o).ok());
    EXPECT_EQ(info.refused.size(), 1u);
  }
}

TEST(Impl, EveryEntryPointReportsThePath) {
  const std::vector<float> a(16, 1.0f), stat(2, 1.0f), col(8, 1.0f);
  std::vector<float> o1(16), o2(8), o3(8), r1(2), r2(2);
  for (const test::Path& p : test::AllPaths()) {
    test::TargetScope scope(p);
    RunInfo info;
    Options o = test::PathOptions(p, &info);
    auto check = [&](const Status& s, const char* fn) {
      ASSERT_TRUE(s.ok()) << fn << ": " << s.ToString();
      test::ExpectRan(p, info);
      info = RunInfo{};
    };
    check(LayerNormGrad({2, 8}, a.data(), a.data(), stat.data(), stat.data(), col.data(), 1e-5f,
                        o1.data(), std::vector<float>(16).data(), o),
          "LayerNormGrad");
    check(LayerNormGradBeta({2, 8}, a.data(), a.data(), o2.data(), o3.data(), o),
          "LayerNormGradBeta");
    check(LayerNormBackward({2, 8}, a.data(), a.data(), stat.data(), stat.data(), col.data(), 1e-5f,
                            o1.data(), o2.data(), o3.data(), o),
          "LayerNormBackward");
    check(LayerNorm({2, 8}, a.data(), col.data(), col.data(), 1e-5f, o1.data(), r1.data(),
                    r2.data(), o),
          "LayerNorm");
  }
}

TEST(Impl, NullInfoIsFine) {
  Options o;
  EXPECT_TRUE(RunSmallGrad(o).ok());
}

}  // namespace
}  // namespace lngrad
