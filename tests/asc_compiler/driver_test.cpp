// The driver's command line (tools/asc_compiler/driver.h): what reaches the C++ compiler.
#include "driver.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

namespace lngrad::asc_compiler {
namespace {

const DriverConfig kConfig{"/usr/bin/g++", "/opt/lngrad/include/ascendc"};

Invocation Parse(const std::vector<std::string>& args) {
  Invocation inv;
  const Status st = ParseCommandLine(args, kConfig, &inv);
  EXPECT_TRUE(st.ok()) << st.ToString();
  return inv;
}

Status ParseError(const std::vector<std::string>& args) {
  Invocation inv;
  return ParseCommandLine(args, kConfig, &inv);
}

bool Has(const Invocation& inv, const std::string& arg) {
  return std::find(inv.argv.begin(), inv.argv.end(), arg) != inv.argv.end();
}

size_t IndexOf(const Invocation& inv, const std::string& arg) {
  return static_cast<size_t>(std::find(inv.argv.begin(), inv.argv.end(), arg) - inv.argv.begin());
}

TEST(DriverArch, DefaultProductsComeFromTheProductTable) {
  EXPECT_EQ(DefaultSocOf(NpuArch::k2201), "Ascend910B1");
  EXPECT_EQ(DefaultSocOf(NpuArch::k2002), "Ascend310P1");
  EXPECT_EQ(DefaultSocOf(NpuArch::k3510), "Ascend950PR_9599");
}

TEST(DriverArch, Values) {
  NpuArch a{};
  ASSERT_TRUE(ParseNpuArch("dav-3510", &a).ok());
  EXPECT_EQ(a, NpuArch::k3510);
  const Status bad = ParseNpuArch("dav-9999", &a);
  EXPECT_EQ(bad.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(bad.message().find("--npu-arch=dav-9999"), std::string::npos);
  EXPECT_NE(bad.message().find("dav-2201, dav-2002 and dav-3510"), std::string::npos);
}

TEST(Driver, CompileCommandOfAnAscSource) {
  const Invocation inv =
      Parse({"-O2", "-DUSER=1", "-Iinc", "--npu-arch=dav-3510", "-o", "op.o", "-c", "src/op.asc"});
  const std::vector<std::string> expected = {"/usr/bin/g++",
                                             "-std=c++20",
                                             "-DASCENDC_CPU_DEBUG",
                                             "-D__NPU_ARCH__=3510",
                                             "-DLNGRAD_DEFAULT_SOC=\"Ascend950PR_9599\"",
                                             "-iquote",
                                             "src",
                                             "-O2",
                                             "-DUSER=1",
                                             "-Iinc",
                                             "-o",
                                             "op.o",
                                             "-c",
                                             "src/op.asc",
                                             "-I/opt/lngrad/include/ascendc/kernel_operator",
                                             "-I/opt/lngrad/include/ascendc/aicore",
                                             "-I/opt/lngrad/include/ascendc/adv",
                                             "-I/opt/lngrad/include/ascendc/tiling_data",
                                             "-I/opt/lngrad/include/ascendc/tiling_host",
                                             "-I/opt/lngrad/include/ascendc/simt",
                                             "-I/opt/lngrad/include/ascendc/reg",
                                             "-I/opt/lngrad/include/ascendc/cube",
                                             "-I/opt/lngrad/include/ascendc/matmul",
                                             "-I/opt/lngrad/include/ascendc/acl_host",
                                             "-I/opt/lngrad/include",
                                             "-include",
                                             "lngrad_acl/launch.h"};
  EXPECT_EQ(inv.argv, expected);
  ASSERT_EQ(inv.sources.size(), 1u);
  EXPECT_EQ(inv.sources[0].path, "src/op.asc");
  EXPECT_EQ(inv.argv[inv.sources[0].arg_index], "src/op.asc");  // the slot of the rewritten copy
  EXPECT_EQ(inv.sources[0].cpp_name, "op.cpp");
  EXPECT_EQ(inv.output, "op.o");
  EXPECT_EQ(inv.arch, NpuArch::k3510);
}

TEST(Driver, DefaultArchIs2201) {
  const Invocation inv = Parse({"-c", "op.asc"});
  EXPECT_TRUE(Has(inv, "-D__NPU_ARCH__=2201"));
  EXPECT_TRUE(Has(inv, "-DLNGRAD_DEFAULT_SOC=\"Ascend910B1\""));
  EXPECT_TRUE(Has(inv, "-iquote"));
  EXPECT_EQ(inv.argv[IndexOf(inv, "-iquote") + 1], ".");
}

TEST(Driver, LastNpuArchWinsAndTheSeparateFormWorks) {
  // CMAKE_ASC_ARCHITECTURES comes first, a target's option after it.
  Invocation inv = Parse({"--npu-arch=dav-3510", "--npu-arch", "dav-2002", "-c", "op.asc"});
  EXPECT_TRUE(Has(inv, "-D__NPU_ARCH__=2002"));
  EXPECT_TRUE(Has(inv, "-DLNGRAD_DEFAULT_SOC=\"Ascend310P1\""));
  EXPECT_FALSE(Has(inv, "dav-2002"));
}

TEST(Driver, UnknownArchIsAnError) {
  EXPECT_NE(ParseError({"--npu-arch=dav-1001", "-c", "op.asc"}).message().find("dav-1001"),
            std::string::npos);
  EXPECT_NE(ParseError({"-c", "op.asc", "--npu-arch"}).message().find("--npu-arch needs a value"),
            std::string::npos);
}

TEST(Driver, RunModes) {
  EXPECT_TRUE(Parse({"--run-mode=cpu", "-c", "op.asc"}).argv.size() > 1);
  for (const std::string mode : {"npu", "sim"}) {
    const Status st = ParseError({"--run-mode=" + mode, "-c", "op.asc"});
    EXPECT_EQ(st.code(), StatusCode::kUnsupported);
    EXPECT_NE(st.message().find("lngrad runs Ascend C kernels on the CPU"), std::string::npos);
  }
  EXPECT_EQ(ParseError({"--run-mode=gpu"}).code(), StatusCode::kInvalidArgument);
}

// --cce-auto-sync=off reaches the sanitizer through LNGRAD_CCE_AUTO_SYNC (launch.h).
TEST(Driver, CceAutoSync) {
  EXPECT_FALSE(Has(Parse({"-c", "op.asc"}), "-DLNGRAD_CCE_AUTO_SYNC=0"));
  EXPECT_FALSE(Has(Parse({"--cce-auto-sync=on", "-c", "op.asc"}), "-DLNGRAD_CCE_AUTO_SYNC=0"));
  const Invocation off = Parse({"--cce-auto-sync=off", "-c", "op.asc"});
  EXPECT_TRUE(Has(off, "-DLNGRAD_CCE_AUTO_SYNC=0"));
  EXPECT_FALSE(Has(off, "--cce-auto-sync=off"));  // not a C++ compiler option
  const Status st = ParseError({"--cce-auto-sync=maybe", "-c", "op.asc"});
  EXPECT_EQ(st.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(st.message().find("--cce-auto-sync takes on or off"), std::string::npos);
}

// The kit's PyTorch samples pass clang's --gcc-toolchain=DIR to bisheng, when compiling and when
// linking: the CPU build's compiler is the project's own, so it never reaches it.
TEST(Driver, GccToolchainIsDropped) {
  EXPECT_FALSE(Has(Parse({"--gcc-toolchain=/usr", "-c", "op.asc"}), "--gcc-toolchain=/usr"));
  EXPECT_FALSE(
      Has(Parse({"--gcc-toolchain=/usr", "op.o", "-o", "libop.so"}), "--gcc-toolchain=/usr"));
}

TEST(Driver, StandardOlderThanCxx20IsAnError) {
  const Status st = ParseError({"-std=c++17", "-c", "op.asc"});
  EXPECT_EQ(st.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(st.message().find("-std=c++17: lngrad's Ascend C headers need C++20"),
            std::string::npos);
  const Invocation inv = Parse({"-std=gnu++23", "-c", "op.asc"});
  EXPECT_FALSE(Has(inv, "-std=c++20"));  // the user's standard, not a second one
  EXPECT_TRUE(Has(inv, "-std=gnu++23"));
}

TEST(Driver, DependencyFileOfCMake) {
  const Invocation inv =
      Parse({"-MD", "-MT", "CMakeFiles/demo.dir/op.asc.o", "-MF", "CMakeFiles/demo.dir/op.asc.o.d",
             "-o", "CMakeFiles/demo.dir/op.asc.o", "-c", "-x", "asc", "/src/op.asc"});
  EXPECT_EQ(inv.depfile, "CMakeFiles/demo.dir/op.asc.o.d");
  // `-x asc` becomes `-x c++` for the rewritten copy.
  const size_t x = IndexOf(inv, "-x");
  ASSERT_LT(x + 1, inv.argv.size());
  EXPECT_EQ(inv.argv[x + 1], "c++");
  ASSERT_EQ(inv.sources.size(), 1u);
  EXPECT_EQ(inv.argv[inv.sources[0].arg_index], "/src/op.asc");
  EXPECT_EQ(IndexOf(inv, "-MT") + 1, IndexOf(inv, "CMakeFiles/demo.dir/op.asc.o"));
}

TEST(Driver, DependencyFileNamedAsGccWouldWithoutMF) {
  EXPECT_EQ(Parse({"-MD", "-c", "op.asc", "-o", "out/op.o"}).depfile, "out/op.d");
  EXPECT_EQ(Parse({"-MMD", "-c", "dir/op.asc"}).depfile, "op.d");
  const Invocation inv = Parse({"-MD", "-c", "op.asc"});
  EXPECT_EQ(inv.argv[IndexOf(inv, "-MF") + 1], "op.d");
  EXPECT_EQ(Parse({"-c", "op.asc"}).depfile, "");
}

TEST(Driver, XAscMakesAnyFileAnAscSource) {
  const Invocation inv = Parse({"-c", "-x", "asc", "kernel.cpp", "-x", "none", "other.cpp"});
  ASSERT_EQ(inv.sources.size(), 1u);
  EXPECT_EQ(inv.sources[0].path, "kernel.cpp");
  EXPECT_EQ(inv.sources[0].cpp_name, "kernel.cpp");
  EXPECT_TRUE(Has(inv, "other.cpp"));
  // Under another language an .asc name is that language's.
  EXPECT_TRUE(Parse({"-c", "-xc++", "op.asc"}).sources.empty());
}

TEST(Driver, OptionValuesAreNotInputs) {
  const Invocation inv =
      Parse({"-c", "op.asc", "-include", "pre.asc", "-MT", "x.asc", "-o", "y.asc.o"});
  ASSERT_EQ(inv.sources.size(), 1u);
  EXPECT_EQ(inv.sources[0].path, "op.asc");
}

TEST(Driver, SeveralSourcesSeveralQuoteDirectories) {
  const Invocation inv = Parse({"-c", "a/op.asc", "b/op.asc", "a/k.asc"});
  ASSERT_EQ(inv.sources.size(), 3u);
  EXPECT_EQ(inv.argv[inv.sources[1].arg_index], "b/op.asc");
  EXPECT_EQ(std::count(inv.argv.begin(), inv.argv.end(), "-iquote"), 2);
}

TEST(Driver, LinkingPassesTheCommandThrough) {
  const Invocation inv =
      Parse({"--npu-arch=dav-2201", "-g", "CMakeFiles/demo.dir/op.asc.o", "-o", "demo",
             "liblngrad_adv.a", "-lm", "-Xhost-start", "-pthread", "-Xhost-end"});
  const std::vector<std::string> expected = {
      "/usr/bin/g++", "-g",      "CMakeFiles/demo.dir/op.asc.o", "-o", "demo", "liblngrad_adv.a",
      "-lm",          "-pthread"};
  EXPECT_EQ(inv.argv, expected);
  EXPECT_TRUE(inv.sources.empty());
}

TEST(Driver, DeviceOptionsAreDropped) {
  const Invocation inv =
      Parse({"-Xaicore-start", "--cce-auto-sync", "-O3", "-Xaicore-end", "-c", "op.asc"});
  EXPECT_FALSE(Has(inv, "--cce-auto-sync"));
  EXPECT_FALSE(Has(inv, "-O3"));
  EXPECT_NE(ParseError({"-Xaicore-start", "-O3"}).message().find("-Xaicore-end"),
            std::string::npos);
}

// bisheng's --cce-* options act on device code generation only: dropped from compile and link
// lines alike (the kit's samples pass --cce-simd-vf-fusion=false with target_compile_options).
TEST(Driver, DeviceCodeGenerationOptionsAreDropped) {
  const std::vector<std::string> device = {"--cce-simd-vf-fusion=false", "--cce-res-usage",
                                           "--cce-auto-sync-log=sync.log", "--cce-mask-opt",
                                           "--cce-disable-asc-reserved-ubuf"};
  std::vector<std::string> args = device;
  args.insert(args.end(), {"-O2", "-c", "op.asc", "-o", "op.o"});
  const Invocation compile = Parse(args);
  for (const std::string& d : device) EXPECT_FALSE(Has(compile, d)) << d;
  EXPECT_TRUE(Has(compile, "-O2"));
  args = device;
  args.insert(args.end(), {"op.o", "-o", "demo"});
  const std::vector<std::string> link = {"/usr/bin/g++", "op.o", "-o", "demo"};
  EXPECT_EQ(Parse(args).argv, link);
  // The bare --cce-auto-sync is the documented "on".
  EXPECT_FALSE(Has(Parse({"--cce-auto-sync=off", "--cce-auto-sync", "-c", "op.asc"}),
                   "-DLNGRAD_CCE_AUTO_SYNC=0"));
}

TEST(Driver, BuildsLngradDoesNotMakeAreErrors) {
  for (const std::string a : {"--cce-build-static-lib", "--cce-aicpu-launch-with-interface",
                              "--cce-host-only", "--cce-aicore-only"}) {
    const Status st = ParseError({a, "-c", "op.asc"});
    EXPECT_EQ(st.code(), StatusCode::kUnsupported) << a;
    EXPECT_NE(st.message().find(a), std::string::npos) << st.message();
  }
}

// --enable-simt turns on the SIMT rewrite (rewrite.h)
TEST(Driver, EnableSimtIsTheRewritesSwitch) {
  const Invocation with = Parse({"--enable-simt", "-c", "op.asc", "-o", "op.o"});
  const Invocation without = Parse({"-c", "op.asc", "-o", "op.o"});
  EXPECT_TRUE(with.simt);
  EXPECT_FALSE(without.simt);
  // ... and force-includes the SIMT API, as the device compiler knows it without an include.
  std::vector<std::string> expected = without.argv;
  expected.insert(expected.end(), {"-include", "simt_api/asc_simt.h"});
  EXPECT_EQ(with.argv, expected);
}

// --sanitizer with --enable-simt, or for dav-3510 (hybrid kernels' SIMT vector functions): the
// race checker's instrumentation (ThreadSanitizer's pass without its run-time library, volatile
// accesses told apart, -g); not for the other architectures, not with the user's -fsanitize.
TEST(Driver, SanitizerInstrumentsSimtSources) {
  const Invocation simt = Parse({"--enable-simt", "--sanitizer", "-c", "op.asc", "-o", "op.o"});
  EXPECT_TRUE(Has(simt, "-fsanitize=thread"));
  EXPECT_TRUE(Has(simt, "--param=tsan-instrument-func-entry-exit=0"));
  EXPECT_TRUE(Has(simt, "--param=tsan-distinguish-volatile=1"));
  EXPECT_TRUE(Has(simt, "-g"));
  EXPECT_FALSE(Has(Parse({"--sanitizer", "-c", "op.asc"}), "-fsanitize=thread"));
  EXPECT_TRUE(
      Has(Parse({"--sanitizer", "--npu-arch=dav-3510", "-c", "op.asc"}), "-fsanitize=thread"));
  EXPECT_FALSE(Has(Parse({"--npu-arch=dav-3510", "-c", "op.asc"}), "-fsanitize=thread"));
  EXPECT_FALSE(Has(Parse({"--enable-simt", "-c", "op.asc"}), "-fsanitize=thread"));
  EXPECT_FALSE(Has(Parse({"--enable-simt", "--sanitizer", "-fsanitize=address", "-c", "op.asc"}),
                   "-fsanitize=thread"));
  const Invocation clang =
      Parse({"--cxx=/usr/bin/clang++-14", "--enable-simt", "--sanitizer", "-c", "op.asc"});
  EXPECT_TRUE(Has(clang, "-tsan-distinguish-volatile=1"));
  EXPECT_FALSE(Has(clang, "--param=tsan-distinguish-volatile=1"));
}

// --sanitizer (msSanitizer's instrumentation) changes nothing for the vector architectures:
// lngrad's APIs always record.
TEST(Driver, SanitizerIsAccepted) {
  const Invocation with = Parse({"--sanitizer", "-g", "-c", "op.asc", "-o", "op.o"});
  const Invocation without = Parse({"-g", "-c", "op.asc", "-o", "op.o"});
  EXPECT_TRUE(with.sanitizer);
  EXPECT_FALSE(without.sanitizer);
  EXPECT_EQ(with.argv, without.argv);
  const std::vector<std::string> link = {"/usr/bin/g++", "op.o", "-o", "demo"};
  EXPECT_EQ(Parse({"--sanitizer", "op.o", "-o", "demo"}).argv, link);
}

TEST(Driver, CompilerChoice) {
  EXPECT_EQ(Parse({"--cxx=/opt/clang++", "-c", "op.asc"}).argv.front(), "/opt/clang++");
  EXPECT_EQ(ParseError({"--cxx=", "-c", "op.asc"}).code(), StatusCode::kInvalidArgument);
}

TEST(Driver, RewriteOnlyNeedsOneAscInput) {
  EXPECT_TRUE(Parse({"--rewrite-only", "op.asc"}).rewrite_only);
  EXPECT_NE(ParseError({"--rewrite-only", "a.asc", "b.asc"}).message().find("exactly one"),
            std::string::npos);
}

TEST(Driver, HelpAndVersion) {
  EXPECT_EQ(Parse({"--help"}).action, Invocation::Action::kHelp);
  const Invocation version = Parse({"--version", "--cxx=/opt/g++"});
  EXPECT_EQ(version.action, Invocation::Action::kVersion);
  EXPECT_EQ(version.cxx, "/opt/g++");
  EXPECT_NE(HelpText().find("--npu-arch=ARCH"), std::string::npos);
}

TEST(Driver, MakeEscape) { EXPECT_EQ(MakeEscape("a b#$c"), "a\\ b\\#$$c"); }

}  // namespace
}  // namespace lngrad::asc_compiler
