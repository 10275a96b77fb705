// Product table and current-product selection (spec §6.6, §7.1, §7.2).
#include <gtest/gtest.h>

#include <cstdlib>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "lngrad/product.h"

namespace lngrad {
namespace {

constexpr uint32_t kKiB = 1024;

// Restores the product that was current when the test started.
class ScopedSoc {
 public:
  explicit ScopedSoc(std::string_view soc) : saved_(std::string(CurrentProduct().soc)) {
    EXPECT_TRUE(SetCurrentSoc(soc).ok()) << soc;
  }
  ~ScopedSoc() { EXPECT_TRUE(SetCurrentSoc(saved_).ok()); }

 private:
  std::string saved_;
};

struct Expected {
  const char* soc;
  const char* short_soc;
  const char* version;
  NpuArch arch;
  const char* line;
};

// One row per SoC string of spec §7.2 (the legacy digit-less "Ascend910B" is excluded on
// purpose, see ambiguity test below).
const std::vector<Expected>& Table() {
  static const std::vector<Expected> t = [] {
    std::vector<Expected> v;
    for (const char* s : {"Ascend910B1", "Ascend910B2", "Ascend910B2C", "Ascend910B3",
                          "Ascend910B4", "Ascend910B4-1"})
      v.push_back({s, "Ascend910B", "ASCEND910B", NpuArch::k2201, "Atlas A2"});
    for (const char* s : {"Ascend910_9391", "Ascend910_9392", "Ascend910_9381", "Ascend910_9382",
                          "Ascend910_9372", "Ascend910_9362"})
      v.push_back({s, "Ascend910_93", "ASCEND910B", NpuArch::k2201, "Atlas A3"});
    for (const char* s : {"Ascend310P1", "Ascend310P3"})
      v.push_back({s, "Ascend310P", "ASCEND310P", NpuArch::k2002, "Atlas inference series"});
    for (const char* s : {"Ascend310B1", "Ascend310B2", "Ascend310B3", "Ascend310B4"})
      v.push_back({s, "Ascend310B", "ASCEND310B", NpuArch::k3002, "Atlas 200I/500 A2"});
    for (const char* s : {"Ascend910A", "Ascend910ProA", "Ascend910ProB", "Ascend910PremiumA"})
      v.push_back({s, "Ascend910", "ASCEND910", NpuArch::k1001, "Atlas training series"});
    for (const char* s :
         {"Ascend950PR_9599", "Ascend950PR_958a", "Ascend950PR_9589",  "Ascend950PR_958b",
          "Ascend950PR_9579", "Ascend950PR_957b", "Ascend950PR_957bx", "Ascend950PR_957c",
          "Ascend950PR_957d", "Ascend950PR_950z", "Ascend950DT_950x",  "Ascend950DT_950y",
          "Ascend950DT_95A1", "Ascend950DT_95A2", "Ascend950DT_9591",  "Ascend950DT_9592",
          "Ascend950DT_9595", "Ascend950DT_9596", "Ascend950DT_9581",  "Ascend950DT_9582",
          "Ascend950DT_9583", "Ascend950DT_9584", "Ascend950DT_9585",  "Ascend950DT_9586",
          "Ascend950DT_9587", "Ascend950DT_9588", "Ascend950DT_9582x", "Ascend950DT_9571",
          "Ascend950DT_9572", "Ascend950DT_9573", "Ascend950DT_9574",  "Ascend950DT_9575",
          "Ascend950DT_9576", "Ascend950DT_9577", "Ascend950DT_9578"})
      v.push_back({s, "Ascend950", "ASCEND950", NpuArch::k3510, "Ascend 950PR/950DT"});
    for (const char* s : {"Ascend350_354f", "Ascend350_355e"})
      v.push_back({s, "Ascend350", "ASCEND350", NpuArch::k3510, "Atlas 350 card"});
    return v;
  }();
  return t;
}

TEST(PlatformTest, TableHasEverySpecSocExactlyOnce) {
  ASSERT_EQ(AllProducts().size(), Table().size());
  std::set<std::string_view> names;
  for (const Product& p : AllProducts()) EXPECT_TRUE(names.insert(p.soc).second) << p.soc;
  for (const Expected& e : Table()) {
    const Product* p = FindProduct(e.soc);
    ASSERT_NE(p, nullptr) << e.soc;
    EXPECT_EQ(p->soc, e.soc);
    EXPECT_EQ(p->short_soc, e.short_soc) << e.soc;
    EXPECT_EQ(p->soc_version, e.version) << e.soc;
    EXPECT_EQ(p->arch, e.arch) << e.soc;
    EXPECT_EQ(p->product_line, e.line) << e.soc;
  }
}

TEST(PlatformTest, UbSizesPerArch) {
  for (const Product& p : AllProducts()) {
    switch (p.arch) {
      case NpuArch::k2201:
        EXPECT_EQ(p.ub_bytes, 192 * kKiB) << p.soc;
        EXPECT_EQ(p.stack_end_bytes, 192 * kKiB - 64) << p.soc;
        break;
      case NpuArch::k2002:
      case NpuArch::k1001:
        EXPECT_EQ(p.ub_bytes, 256 * kKiB) << p.soc;
        EXPECT_EQ(p.stack_end_bytes, 256 * kKiB) << p.soc;
        break;
      case NpuArch::k3510:
      case NpuArch::k3002:
        EXPECT_EQ(p.ub_bytes, 248 * kKiB) << p.soc;
        EXPECT_EQ(p.stack_end_bytes, 248 * kKiB) << p.soc;
        break;
    }
  }
}

TEST(PlatformTest, SupportFlagsFollowSpec71) {
  for (const Product& p : AllProducts()) {
    const bool expected =
        p.arch == NpuArch::k2201 || p.arch == NpuArch::k2002 || p.arch == NpuArch::k3510;
    EXPECT_EQ(p.supports_layernormgrad, expected) << p.soc;
    EXPECT_EQ(p.supports_layernormgradbeta, expected) << p.soc;
    EXPECT_EQ(p.supports_layernorm, expected) << p.soc;
  }
  EXPECT_FALSE(FindProduct("Ascend310B1")->supports_layernormgrad);
  EXPECT_FALSE(FindProduct("Ascend910A")->supports_layernormgrad);
}

TEST(PlatformTest, FindIsExactAndCaseSensitive) {
  EXPECT_EQ(FindProduct("ascend910b1"), nullptr);
  EXPECT_EQ(FindProduct("Ascend910B1 "), nullptr);
  EXPECT_EQ(FindProduct(""), nullptr);
  EXPECT_EQ(FindProduct("Ascend910B"), nullptr);
}

TEST(PlatformTest, DefaultIsAscend910B1WithoutEnv) {
  // This binary runs without LNGRAD_SOC (see CMakeLists.txt); no test sets a product
  // permanently, so the first query sees the default.
  ASSERT_EQ(std::getenv("LNGRAD_SOC"), nullptr);
  EXPECT_EQ(CurrentProduct().soc, "Ascend910B1");
  EXPECT_EQ(CurrentProduct().arch, NpuArch::k2201);
}

TEST(PlatformTest, SetCurrentSocSelectsAndRejects) {
  ScopedSoc guard("Ascend950PR_9599");
  EXPECT_EQ(CurrentProduct().soc, "Ascend950PR_9599");
  EXPECT_TRUE(IsRegBaseArch(CurrentProduct().arch));
  const Status s = SetCurrentSoc("Ascend999");
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(s.message().find("Ascend999"), std::string::npos) << s.message();
  EXPECT_NE(s.message().find("Ascend910B1"), std::string::npos) << s.message();
  EXPECT_EQ(CurrentProduct().soc, "Ascend950PR_9599");  // unchanged on error
  const Status legacy = SetCurrentSoc("Ascend910B");
  EXPECT_FALSE(legacy.ok());
  EXPECT_NE(legacy.message().find("ambiguous"), std::string::npos) << legacy.message();
}

TEST(PlatformTest, ArchNamesAndRegBase) {
  EXPECT_STREQ(NpuArchName(NpuArch::k1001), "1001");
  EXPECT_STREQ(NpuArchName(NpuArch::k2002), "2002");
  EXPECT_STREQ(NpuArchName(NpuArch::k2201), "2201");
  EXPECT_STREQ(NpuArchName(NpuArch::k3002), "3002");
  EXPECT_STREQ(NpuArchName(NpuArch::k3510), "3510");
  EXPECT_FALSE(IsRegBaseArch(NpuArch::k2201));
  EXPECT_FALSE(IsRegBaseArch(NpuArch::k2002));
  EXPECT_TRUE(IsRegBaseArch(NpuArch::k3510));
}

TEST(PlatformTest, ConcurrentSetAndGetAreSafe) {
  const std::string saved(CurrentProduct().soc);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([t] {
      const char* soc = (t % 2 == 0) ? "Ascend310P3" : "Ascend910_9391";
      for (int i = 0; i < 2000; ++i) {
        EXPECT_TRUE(SetCurrentSoc(soc).ok());
        const Product& p = CurrentProduct();
        // Whatever thread won, the product is a whole, valid table row.
        EXPECT_TRUE(p.soc == "Ascend310P3" || p.soc == "Ascend910_9391") << p.soc;
      }
    });
  }
  for (auto& th : threads) th.join();
  ASSERT_TRUE(SetCurrentSoc(saved).ok());
}

}  // namespace
}  // namespace lngrad
