// The <<<>>> rewrite (tools/asc_compiler/rewrite.h) on tricky sources, as strings.
#include "rewrite.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>

namespace lngrad::asc_compiler {
namespace {

constexpr const char* kHeader = "#line 1 \"op.asc\"\n";

// The rewritten text without the #line directive; fails the test on errors.
std::string Rewrite(const std::string& src, int expected_launches) {
  const RewriteResult r = RewriteLaunches(src, "op.asc");
  EXPECT_TRUE(r.errors.empty()) << (r.errors.empty() ? "" : r.errors.front().message);
  EXPECT_EQ(r.launches, expected_launches);
  EXPECT_EQ(r.text.rfind(kHeader, 0), 0u) << r.text;
  return r.text.substr(std::string(kHeader).size());
}

std::string Launch(const std::string& name, const std::string& config, const std::string& args) {
  return "::lngrad::acl::LaunchKernel(\"" + name + "\", __FILE__, __LINE__, " + config +
         "[&](auto&&... lngrad_args) { " + name + "(lngrad_args...); }" + args + ")";
}

int Lines(const std::string& s) { return static_cast<int>(std::count(s.begin(), s.end(), '\n')); }

TEST(Rewrite, PlainLaunch) {
  EXPECT_EQ(Rewrite("add<<<8, nullptr, stream>>>(x, y, z);", 1),
            Launch("add", "(8),( nullptr),( stream), ", ", x, y, z") + ";");
}

// A kernel defined here with __cube__ or __mix__(aic, aiv) launches its cores (the kernel type):
// the qualifier before or after __global__; vector kernels, declarations and kernels of other
// files keep the plain form.
TEST(Rewrite, KernelTypesFromTheQualifiers) {
  const std::string src =
      "__global__ __mix__(1, 2) void mix(GM_ADDR x) { x[0] = 1; }\n"
      "extern \"C\" __cube__ __global__ void cube(GM_ADDR x) {}\n"
      "__global__ __mix__(1, 1) void declared(GM_ADDR x);\n"
      "__global__ __vector__ void vec(GM_ADDR x) {}\n"
      "__global__ __aicore__ void typed(GM_ADDR x) {\n"
      "  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_1);\n"
      "}\n"
      "void run() {\n"
      "  mix<<<8, nullptr, s>>>(x);\n"
      "  cube<<<2, nullptr, s>>>(x);\n"
      "  declared<<<1, nullptr, s>>>(x);\n"
      "  vec<<<1, nullptr, s>>>(x);\n"
      "  typed<<<1, nullptr, s>>>(x);\n"
      "}\n";
  const std::string out = Rewrite(src, 5);
  EXPECT_NE(out.find("::lngrad::acl::LaunchKernel(::lngrad::aicore::CoreSplit{1, 2, true}, "
                     "\"mix\", __FILE__"),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("LaunchKernel(::lngrad::aicore::CoreSplit{1, 0, false}, \"cube\""),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("LaunchKernel(\"declared\""), std::string::npos) << out;
  EXPECT_NE(out.find("LaunchKernel(::lngrad::aicore::CoreSplit{1, 1, true}, \"typed\""),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("LaunchKernel(\"vec\""), std::string::npos) << out;
}

// An untyped kernel that registers a Matmul object is a mixed 1:2 kernel, as the device
// compiler makes it, unless the file defines ASCENDC_CUBE_ONLY; ICPU_RUN_KF of a typed kernel
// carries its cores too.
TEST(Rewrite, MatmulKernelsAreMixedAndIcpuRunKfCarriesTheCores) {
  const std::string body =
      "__global__ __aicore__ void mm(GM_ADDR x) {\n"
      "  REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), obj, &tiling);\n"
      "}\n"
      "__global__ __aicore__ void vec(GM_ADDR x) {}\n"
      "void run() {\n"
      "  mm<<<2, nullptr, s>>>(x);\n"
      "  ICPU_RUN_KF(mm, 2, x);\n"
      "  ICPU_RUN_KF(vec, 2, x);\n"
      "}\n";
  const std::string out = Rewrite(body, 1);
  EXPECT_NE(out.find("LaunchKernel(::lngrad::aicore::CoreSplit{1, 2, true}, \"mm\""),
            std::string::npos)
      << out;
  EXPECT_NE(
      out.find("LNGRAD_ICPU_RUN_KF_CORES((::lngrad::aicore::CoreSplit{1, 2, true}), mm, 2, x)"),
      std::string::npos)
      << out;
  EXPECT_NE(out.find("ICPU_RUN_KF(vec, 2, x)"), std::string::npos) << out;
  // A file naming ASCENDC_CUBE_ONLY (perhaps under #if): the split is chosen where the kernel is
  // launched, by whether the macro is defined there (a vector kernel if so).
  const std::string cube_only = Rewrite("#define ASCENDC_CUBE_ONLY\n" + body, 1);
  const std::string lazy =
      "::lngrad::matmul::MixUnlessCubeOnly(LNGRAD_MATMUL_STR(ASCENDC_CUBE_ONLY))";
  EXPECT_NE(cube_only.find("LaunchKernel(" + lazy + ", \"mm\""), std::string::npos) << cube_only;
  EXPECT_NE(cube_only.find("LNGRAD_ICPU_RUN_KF_CORES((" + lazy + "), mm, 2, x)"), std::string::npos)
      << cube_only;
}

// A kernel whose signature #if/#else chooses before one shared body (the kit's matmul_ibshareB:
// __cube__ in one scenario, an untyped Matmul kernel in the other) is a definition.
TEST(Rewrite, SignatureChosenByDirectivesBeforeTheBody) {
  const std::string out = Rewrite(
      "#if SCENARIO_NUM == 2\n"
      "#define ASCENDC_CUBE_ONLY\n"
      "#endif\n"
      "#if SCENARIO_NUM == 2\n"
      "extern \"C\" __global__ __cube__ void mm(GM_ADDR x)\n"
      "#else\n"
      "extern \"C\" __global__ __aicore__ void mm(GM_ADDR x)\n"
      "#endif\n"
      "{\n"
      "  REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), obj, &tiling);\n"
      "}\n"
      "void run() { mm<<<2, nullptr, s>>>(x); }\n",
      1);
  EXPECT_NE(out.find("LaunchKernel(::lngrad::matmul::MixUnlessCubeOnly("), std::string::npos)
      << out;
}

TEST(Rewrite, TheSharedDesignExample) {
  EXPECT_EQ(Rewrite("kernel<A, B><<<blocks, l2ctrl, stream>>>(a1, a2)", 1),
            "::lngrad::acl::LaunchKernel(\"kernel<A, B>\", __FILE__, __LINE__, (blocks),( "
            "l2ctrl),( stream), [&](auto&&... lngrad_args) { kernel<A, B>(lngrad_args...); }, "
            "a1, a2)");
}

TEST(Rewrite, NoArguments) {
  EXPECT_EQ(Rewrite("k<<<1,nullptr,s>>>();", 1), Launch("k", "(1),(nullptr),(s), ", "") + ";");
}

TEST(Rewrite, TemplateArgumentsWithNestedTemplatesAndShifts) {
  // `>>` closing two template lists, a parenthesised comparison, a call and a cast.
  const std::string name = "ns::kernel<std::pair<int, Foo<half>>, (N > 2), sizeof(T[3]), 4>";
  EXPECT_EQ(Rewrite(name + "<<<n, nullptr, s>>>(p);", 1),
            Launch(name, "(n),( nullptr),( s), ", ", p") + ";");
}

TEST(Rewrite, QualifiedNames) {
  EXPECT_EQ(Rewrite("::k<<<1, nullptr, s>>>(a);", 1),
            Launch("::k", "(1),( nullptr),( s), ", ", a") + ";");
  EXPECT_EQ(Rewrite("Outer<int>::k<<<1, nullptr, s>>>(a);", 1),
            Launch("Outer<int>::k", "(1),( nullptr),( s), ", ", a") + ";");
  EXPECT_EQ(Rewrite("ns::template k<T><<<1, nullptr, s>>>(a);", 1),
            Launch("ns::template k<T>", "(1),( nullptr),( s), ", ", a") + ";");
}

TEST(Rewrite, CastsAndNestedBracketsInArguments) {
  const std::string args =
      "reinterpret_cast<uint8_t*>(x), (uint8_t*)y, f(a, g(b, c)), arr[i + 1], Tiling{1, 2}, "
      "std::min<int>(3, 4), [&](int v) { return v > 1 ? v : 0; }";
  EXPECT_EQ(Rewrite("k<<<static_cast<uint32_t>(n), nullptr, s>>>(" + args + ");", 1),
            Launch("k", "(static_cast<uint32_t>(n)),( nullptr),( s), ", ", " + args) + ";");
}

TEST(Rewrite, ConfigurationArgumentsWithCallsAndCommasInParentheses) {
  EXPECT_EQ(Rewrite("k<<<std::max(a, b), GetCtrl(x, y), streams[i]>>>(a);", 1),
            Launch("k", "(std::max(a, b)),( GetCtrl(x, y)),( streams[i]), ", ", a") + ";");
}

TEST(Rewrite, SeveralLaunchesPerLineAndPerFile) {
  const std::string out = Rewrite(
      "void f() {\n"
      "  a<<<1, nullptr, s>>>(x); b<float><<<2, nullptr, s>>>(y);\n"
      "  c<<<3, nullptr, s>>>(z);\n"
      "}\n",
      3);
  EXPECT_EQ(out, "void f() {\n  " + Launch("a", "(1),( nullptr),( s), ", ", x") + "; " +
                     Launch("b<float>", "(2),( nullptr),( s), ", ", y") + ";\n  " +
                     Launch("c", "(3),( nullptr),( s), ", ", z") + ";\n}\n");
}

TEST(Rewrite, LaunchInsideTheArgumentsOfALambdaArgument) {
  const std::string out = Rewrite("k<<<1, nullptr, s>>>([&] { j<<<2, nullptr, s>>>(); });", 2);
  EXPECT_EQ(out, Launch("k", "(1),( nullptr),( s), ",
                        ", [&] { " + Launch("j", "(2),( nullptr),( s), ", "") + "; }") +
                     ";");
}

TEST(Rewrite, CommentsAndLiteralsAreUntouched) {
  const std::string src =
      "// k<<<1, nullptr, s>>>(a);\n"
      "/* k<<<1, nullptr, s>>>(a);\n   still a comment */\n"
      "const char* a = \"k<<<1, nullptr, s>>>(a)\";\n"
      "const char* b = u8\"k<<<1,nullptr,s>>>()\";\n"
      "const char* c = R\"x(k<<<1, nullptr, s>>>(a) )\" \n)x\";\n"
      "const char* d = LR\"(k<<<1,nullptr,s>>>())\";\n"
      "char e = '<'; char f = '\\''; char g = u8'>';\n"
      "int h = 1'000'000; // digit separators are not character literals\n"
      "const char* i = \"\\\"k<<<1, nullptr, s>>>()\\\"\";\n";
  EXPECT_EQ(Rewrite(src, 0), src);
}

TEST(Rewrite, LiteralsAroundALaunchStay) {
  EXPECT_EQ(Rewrite("k<<<1, nullptr, s>>>(\"<<<a, b>>>(\", '>', R\"(>>>)\");", 1),
            Launch("k", "(1),( nullptr),( s), ", ", \"<<<a, b>>>(\", '>', R\"(>>>)\"") + ";");
}

TEST(Rewrite, ShiftOperatorsAndOperatorTemplatesAreNotLaunches) {
  const std::string src =
      "x = a << b >> c;\n"
      "std::cout << v << std::endl;\n"
      "auto p = &operator<<<char>;\n"
      "bool q = a<b && c>>d;\n";
  EXPECT_EQ(Rewrite(src, 0), src);
}

TEST(Rewrite, KeepsEveryLineOfAMultiLineLaunch) {
  const std::string src =
      "int main() {\n"             // 1
      "  kernel<float,\n"          // 2
      "         half>\n"           // 3
      "      <<<numBlocks,\n"      // 4
      "         nullptr, // l2\n"  // 5
      "         stream>>>\n"       // 6
      "      (x,\n"                // 7
      "       y);\n"               // 8
      "  after();\n"               // 9
      "}\n";
  const std::string out = Rewrite(src, 1);
  EXPECT_EQ(Lines(out), Lines(src));
  // The kernel name becomes one line; the arguments keep their lines.
  EXPECT_NE(out.find("LaunchKernel(\"kernel<float, half>\", __FILE__, __LINE__, "),
            std::string::npos);
  EXPECT_NE(out.find("{ kernel<float, half>(lngrad_args...); }"), std::string::npos);
  const auto line_of = [&](const std::string& needle) {
    const size_t at = out.find(needle);
    EXPECT_NE(at, std::string::npos) << needle;
    return 1 + static_cast<int>(std::count(out.begin(), out.begin() + at, '\n'));
  };
  EXPECT_EQ(line_of("__LINE__"), 2);  // __LINE__ names the line the launch starts on
  EXPECT_EQ(line_of("(numBlocks"), 4);
  EXPECT_EQ(line_of("nullptr)"), 5) << out;
  EXPECT_EQ(line_of("// l2"), 5);
  EXPECT_EQ(line_of("stream)"), 6);
  EXPECT_EQ(line_of("[&]"), 7);
  EXPECT_EQ(line_of("y);"), 8);
  EXPECT_EQ(line_of("after();"), 9);
}

TEST(Rewrite, DirectivesOtherThanLaunchesAreCopied) {
  const std::string src =
      "#include <kernel_operator.h>\n"
      "#include \"data_utils.h\"\n"
      "#define SHIFT(a) ((a) << 3)\n"
      "#if X > 1 // x\n"
      "#endif\n";
  EXPECT_EQ(Rewrite(src, 0), src);
}

TEST(Rewrite, ALineAfterAMacroIsCodeAgain) {
  const std::string src = "#define N 4 \\\n  + 1\nk<<<N, nullptr, s>>>();\n";
  EXPECT_EQ(Rewrite(src, 1),
            "#define N 4 \\\n  + 1\n" + Launch("k", "(N),( nullptr),( s), ", "") + ";\n");
}

TEST(Rewrite, ByteOrderMarkIsDropped) { EXPECT_EQ(Rewrite("\xEF\xBB\xBFint x;\n", 0), "int x;\n"); }

TEST(Rewrite, FileNameIsQuotedInTheLineDirective) {
  const RewriteResult r = RewriteLaunches("", "dir \"q\"\\op.asc");
  EXPECT_EQ(r.text, "#line 1 \"dir \\\"q\\\"\\\\op.asc\"\n");
}

// Errors: one per launch that cannot be rewritten, at the launch's line.
Diagnostic OnlyError(const std::string& src) {
  const RewriteResult r = RewriteLaunches(src, "op.asc");
  EXPECT_EQ(r.errors.size(), 1u) << r.text;
  return r.errors.empty() ? Diagnostic{} : r.errors.front();
}

TEST(RewriteErrors, LaunchInAMacroBodyNamesTheContinuationLine) {
  const Diagnostic d = OnlyError(
      "int a;\n"
      "#define LAUNCH(s) \\\n"
      "  do { \\\n"
      "    k<<<1, nullptr, s>>>(); \\\n"
      "  } while (0)\n");
  EXPECT_EQ(d.line, 4);
  EXPECT_NE(d.message.find("macro body (#define)"), std::string::npos) << d.message;
  EXPECT_EQ(FormatDiagnostic("op.asc", d).rfind("op.asc:4: error: a <<<...>>> kernel launch", 0),
            0u);
}

TEST(RewriteErrors, MacroBodyContinuedInsideABlockComment) {
  const Diagnostic d = OnlyError("#define L /* a\n comment */ k<<<1, nullptr, s>>>()\n");
  EXPECT_EQ(d.line, 2);
}

TEST(RewriteErrors, LaunchInAnotherDirective) {
  const Diagnostic d = OnlyError("#pragma message k<<<1, nullptr, s>>>()\n");
  EXPECT_NE(d.message.find("preprocessor directive"), std::string::npos);
}

TEST(RewriteErrors, TooManyConfigurationArguments) {
  const Diagnostic d = OnlyError("\nk<<<1, nullptr, s, 0>>>();");
  EXPECT_EQ(d.line, 2);
  EXPECT_NE(d.message.find("at most three configuration arguments"), std::string::npos);
  EXPECT_NE(d.message.find("found 4"), std::string::npos);
}

TEST(Rewrite, OmittedConfigurationArgumentsGetTheDocumentedDefaults) {
  // The programming guide: dynUBufSize defaults to 0, stream to nullptr (the default stream).
  EXPECT_EQ(Rewrite("k<<<8, 0>>>(x);", 1), Launch("k", "(8),( 0),(nullptr), ", ", x") + ";");
  EXPECT_EQ(Rewrite("k<<<n>>>();", 1), Launch("k", "(n),(0),(nullptr), ", "") + ";");
  EXPECT_EQ(Rewrite("k<T, 4><<<f(a, b), 0>>>(x);", 1),
            Launch("k<T, 4>", "(f(a, b)),( 0),(nullptr), ", ", x") + ";");
}

// Unqualified printf calls go to the kernel printf (utils/debug/asc_printf.h); qualified ones,
// members, declarations, comments and strings keep theirs.
TEST(Rewrite, UnqualifiedPrintfCallsBecomeTheKernelPrintf) {
  const std::string k = "::lngrad::aicore::debug::printf";
  const RewriteResult r = RewriteLaunches(
      "void f() { printf(\"hi\\n\"); if (x) printf (\"%d\", 1); else printf(\"b\"); }\n"
      "return printf(\"r\");\n"
      "g(printf(\"in\"));\n",
      "op.asc");
  EXPECT_TRUE(r.errors.empty());
  EXPECT_EQ(r.printfs, 5);
  EXPECT_EQ(r.text, std::string(kHeader) + "void f() { " + k + "(\"hi\\n\"); if (x) " + k +
                        " (\"%d\", 1); else " + k + "(\"b\"); }\nreturn " + k + "(\"r\");\ng(" + k +
                        "(\"in\"));\n");
  const std::string kept =
      "std::printf(\"a\"); AscendC::printf(\"b\"); o.printf(\"c\"); p->printf(\"d\");\n"
      "int printf(const char*, ...);\nauto q = &printf; // printf(\"e\")\n"
      "const char* s = \"printf(\\\"f\\\")\";\n#include <printf.h>\n";
  const RewriteResult same = RewriteLaunches(kept, "op.asc");
  EXPECT_EQ(same.printfs, 0);
  EXPECT_EQ(same.text, std::string(kHeader) + kept);
}

// reinterpret_cast<__ubuf__ T*>(x) becomes ::lngrad::aicore::UbCast<__ubuf__ T*>(x) (a
// LocalTensor's GetPhyAddr() is a class on lngrad); other reinterpret_casts keep theirs.
TEST(Rewrite, UbufReinterpretCastsBecomeUbCast) {
  const RewriteResult r = RewriteLaunches(
      "auto* p = reinterpret_cast<__ubuf__ float*>(t.GetPhyAddr());\n"
      "auto* q = reinterpret_cast<__gm__ float*>(x);\n",
      "op.asc");
  EXPECT_TRUE(r.errors.empty());
  EXPECT_EQ(r.text, std::string(kHeader) +
                        "auto* p = ::lngrad::aicore::UbCast<__ubuf__ float*>(t.GetPhyAddr());\n"
                        "auto* q = reinterpret_cast<__gm__ float*>(x);\n");
}

TEST(Rewrite, PrintfInsideALaunchArgumentAndAMacroBody) {
  const RewriteResult r =
      RewriteLaunches("#define SAY(x) printf(x)\nk<<<1>>>(printf(\"a\"));\n", "op.asc");
  EXPECT_TRUE(r.errors.empty());
  EXPECT_EQ(r.printfs, 2);
  EXPECT_NE(r.text.find("#define SAY(x) ::lngrad::aicore::debug::printf(x)"), std::string::npos);
  EXPECT_NE(r.text.find(", ::lngrad::aicore::debug::printf(\"a\"))"), std::string::npos) << r.text;
}

TEST(RewriteErrors, EmptyLaunchConfiguration) {
  EXPECT_NE(OnlyError("k<<<>>>();").message.find("numBlocks is empty"), std::string::npos);
}

TEST(RewriteErrors, EmptyConfigurationArgument) {
  const Diagnostic d = OnlyError("k<<<1, , s>>>();");
  EXPECT_NE(d.message.find("l2ctrl is empty"), std::string::npos) << d.message;
}

TEST(RewriteErrors, NoKernelName) {
  EXPECT_NE(OnlyError("(*fp)<<<1, nullptr, s>>>();").message.find("kernel name"),
            std::string::npos);
  EXPECT_NE(OnlyError("<<<1, nullptr, s>>>();").message.find("kernel name"), std::string::npos);
  EXPECT_NE(OnlyError("x = ; > <<<1, nullptr, s>>>();").message.find("kernel name"),
            std::string::npos);
}

TEST(RewriteErrors, UnclosedConfiguration) {
  EXPECT_NE(OnlyError("k<<<1, nullptr, s>>(a);").message.find("no '>>>'"), std::string::npos);
}

TEST(RewriteErrors, NoArgumentList) {
  EXPECT_NE(OnlyError("k<<<1, nullptr, s>>>;").message.find("expected '('"), std::string::npos);
  EXPECT_NE(OnlyError("k<<<1, nullptr, s>>>(a, (b);").message.find("not closed"),
            std::string::npos);
}

TEST(RewriteErrors, EveryBadLaunchIsReported) {
  const RewriteResult r =
      RewriteLaunches("k<<<1, 0, s, 4>>>();\nk<<<1, nullptr, s>>>();\nj<<<>>>();\n", "op.asc");
  ASSERT_EQ(r.errors.size(), 2u);
  EXPECT_EQ(r.errors[0].line, 1);
  EXPECT_EQ(r.errors[1].line, 3);
  EXPECT_EQ(r.launches, 1);
}

// The C API's cube arrays (block_ub, every lngrad-asc build): each in its memory's position.
TEST(RewriteCube, CubeArraysBecomeCubeStorage) {
  const std::string src =
      "__global__ __cube__ void k() {\n"
      "  __cbuf__ int8_t a_l1[64];\n"
      "  __ca__ half a[256], b[16];\n"
      "  __cb__ half w[256];\n"
      "  __cc__ float c[256];\n"
      "  __fbuf__ uint64_t q[16];\n"
      "  __cbuf__ half* p = x;\n"
      "}\n";
  const std::string out = RewriteLaunches(src, "op.asc", {.block_ub = true}).text;
  for (const char* expect :
       {"auto& a_l1 = ::lngrad::cube::CubeArray<int8_t[64]>(::lngrad::cube::ArrayKey([] {}), "
        "\"a_l1\", ::AscendC::TPosition::A1);",
        "auto& a = ::lngrad::cube::CubeArray<half[256]>(",
        "auto& b = ::lngrad::cube::CubeArray<half[16]>(", "\"w\", ::AscendC::TPosition::B2);",
        "\"c\", ::AscendC::TPosition::CO1);", "\"q\", ::AscendC::TPosition::C2PIPE2GM);",
        "__cbuf__ half* p = x;"}) {
    EXPECT_NE(out.find(expect), std::string::npos) << expect << "\n" << out;
  }
  EXPECT_NE(out.find("\"a\", ::AscendC::TPosition::A2);"), std::string::npos) << out;
}

}  // namespace
}  // namespace lngrad::asc_compiler

namespace lngrad::asc_compiler {
namespace {

// --enable-simt: the SIMT rewrite (rewrite.h).
std::string RewriteSimt(const std::string& src, int expected_launches) {
  const RewriteResult r = RewriteLaunches(src, "op.asc", {.simt = true});
  EXPECT_TRUE(r.errors.empty()) << (r.errors.empty() ? "" : r.errors.front().message);
  EXPECT_EQ(r.launches, expected_launches);
  EXPECT_EQ(Lines(r.text), Lines(src) + 1) << r.text;  // every line kept
  return r.text.substr(std::string(kHeader).size());
}

TEST(RewriteSimt, FourArgumentLaunchCarriesTheKernelsLaunchBound) {
  const std::string src =
      "__global__ __launch_bounds__(THREADS * 2) void gather(float* x) { x[0] = 1; }\n"
      "__global__ void __launch_bounds__(64) late(float* x) {}\n"
      "__global__ void plain(float* x) {}\n"
      "__global__ void elsewhere(float* x);\n"
      "void run() {\n"
      "  gather<<<dim3(4, 2), 256, 0, s>>>(x);\n"
      "  late<<<1, 64, 128, s>>>(x);\n"
      "  plain<<<1, 32, 0, s>>>(x);\n"
      "  elsewhere<<<1, 32, 0, s>>>(x);\n"
      "  vec<<<8, 1024, s>>>(x);\n"
      "}\n";
  const std::string out = RewriteSimt(src, 5);
  for (const char* expect :
       {"::lngrad::acl::LaunchSimtKernel(\"gather\", __FILE__, __LINE__, (THREADS * 2), "
        "(dim3(4, 2)),( 256),( 0),( s), ",
        "LaunchSimtKernel(\"late\", __FILE__, __LINE__, (64), ",
        "LaunchSimtKernel(\"plain\", __FILE__, __LINE__, (1024), ",
        "LaunchSimtKernel(\"elsewhere\", __FILE__, __LINE__, (0), ",
        "::lngrad::acl::LaunchKernel(\"vec\", __FILE__, __LINE__, (8),( 1024),( s), "}) {
    EXPECT_NE(out.find(expect), std::string::npos) << expect << "\n" << out;
  }
  // Without --enable-simt a four-argument launch is an error that names the option.
  const RewriteResult r = RewriteLaunches("k<<<1, 32, 0, s>>>(x);", "op.asc");
  ASSERT_EQ(r.errors.size(), 1u);
  EXPECT_NE(r.errors[0].message.find("--enable-simt"), std::string::npos) << r.errors[0].message;
}

TEST(RewriteSimt, UbufDeclarationsInFunctionsBecomeBlockStorage) {
  const std::string src =
      "__ubuf__ float global_one[4];\n"
      "__global__ void k(__ubuf__ float* p) {\n"
      "  __ubuf__ float tile[32][33];\n"
      "  __ubuf__ unsigned int a[8], b[16];\n"
      "  __ubuf__ uint32_t is_last;\n"
      "  extern __ubuf__ float smem[];\n"
      "  __ubuf__ volatile float* ptr;\n"
      "  if (x) { __ubuf__ int32_t local[1]; }\n"
      "}\n";
  const std::string out = RewriteSimt(src, 0);
  for (const char* expect :
       {"__ubuf__ float global_one[4];",  // namespace scope: left alone
        "__global__ void k(__ubuf__ float* p) {",
        "auto& tile = ::lngrad::simt::BlockArray<float[32][33]>(::lngrad::simt::BlockKey([] {}), "
        "\"tile\");",
        "auto& a = ::lngrad::simt::BlockArray<unsigned int[8]>(",
        "auto& b = ::lngrad::simt::BlockArray<unsigned int[16]>(",
        "auto& is_last = ::lngrad::simt::BlockArray<uint32_t>(",
        "float* const smem = ::lngrad::simt::DynamicArray<float>(\"smem\");",
        "__ubuf__ volatile float* ptr;", "auto& local = ::lngrad::simt::BlockArray<int32_t[1]>("}) {
    EXPECT_NE(out.find(expect), std::string::npos) << expect << "\n" << out;
  }
  // Without --enable-simt nothing changes.
  EXPECT_EQ(RewriteLaunches(src, "op.asc").text, std::string(kHeader) + src);
  // The dynamic UB declared outside a function (the kit's cache_hint): a macro asking for it at
  // each use, and the lines after it keep their numbers.
  const std::string scoped =
      RewriteLaunches("namespace { extern __ubuf__ char dyn[]; } int after;\nint next;\n", "op.asc",
                      {.simt = true})
          .text;
  EXPECT_NE(scoped.find("namespace { \n#define dyn (::lngrad::simt::DynamicArray<char>(\"dyn\"))"
                        "\n#line 1\n } int after;\nint next;"),
            std::string::npos)
      << scoped;
  // An initializer is an error.
  const RewriteResult r =
      RewriteLaunches("void k() { __ubuf__ int x = 0; }", "op.asc", {.simt = true});
  ASSERT_EQ(r.errors.size(), 1u);
  EXPECT_NE(r.errors[0].message.find("initializer"), std::string::npos);
}

// The cube memories' arrays in a function become arrays in the block's memory of their position
// (lngrad_cube/cube.h's CubeArray), for every build (block_ub); pointers and parameters stay.
TEST(RewriteCubeArrays, DeclarationsBecomeLocalArrays) {
  const std::string src =
      "void k(__cbuf__ half* p) {\n"
      "  __cbuf__ half l1[64 * 4], l1b[8];\n"
      "  __ca__ half a[256];\n  __cb__ half b[256];\n  __cc__ float c[256];\n"
      "  __biasbuf__ float bt[16];\n  __fbuf__ uint64_t fb[16];\n"
      "  __cbuf__ half* q;\n"
      "}\n";
  const std::string out = RewriteLaunches(src, "op.asc", {.block_ub = true}).text;
  for (const char* expect :
       {"void k(__cbuf__ half* p) {",
        "auto& l1 = ::lngrad::cube::CubeArray<half[64 * 4]>(::lngrad::cube::ArrayKey([] {}), "
        "\"l1\", ::AscendC::TPosition::A1);",
        "auto& l1b = ::lngrad::cube::CubeArray<half[8]>(::lngrad::cube::ArrayKey([] {}), "
        "\"l1b\", ::AscendC::TPosition::A1);",
        "\"a\", ::AscendC::TPosition::A2);", "\"b\", ::AscendC::TPosition::B2);",
        "\"c\", ::AscendC::TPosition::CO1);", "\"bt\", ::AscendC::TPosition::C2);",
        "\"fb\", ::AscendC::TPosition::C2PIPE2GM);", "__cbuf__ half* q;"}) {
    EXPECT_NE(out.find(expect), std::string::npos) << expect << "\n" << out;
  }
  const RewriteResult r =
      RewriteLaunches("void k() { __cc__ float x = 0; }", "op.asc", {.block_ub = true});
  ASSERT_EQ(r.errors.size(), 1u);
  EXPECT_NE(r.errors[0].message.find("cannot have an initializer"), std::string::npos)
      << r.errors[0].message;
}

}  // namespace
}  // namespace lngrad::asc_compiler
