// The small JSON value used for --json output and manifests.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "io/json.h"

namespace lngrad::io {
namespace {

TEST(Json, DumpsInInsertionOrderWithEscapes) {
  Json o = Json::Object();
  o["b"] = 1;
  o["a"] = "x\"y\\z\n";
  o["shape"] = Json::ArrayOf(std::vector<int64_t>{2, 32, 16});
  o["ok"] = true;
  o["none"] = nullptr;
  o["third"] = 1.0 / 3.0;
  o["nan"] = std::nan("");
  o["big"] = int64_t{1} << 40;
  EXPECT_EQ(o.Dump(0),
            "{\"b\":1,\"a\":\"x\\\"y\\\\z\\n\",\"shape\":[2, 32, 16],\"ok\":true,\"none\":null,"
            "\"third\":0.3333333333333333,\"nan\":null,\"big\":1099511627776}");
  EXPECT_EQ(o.Dump(2).substr(0, 9), "{\n  \"b\": ");
}

TEST(Json, ParsesWhatItDumps) {
  Json o = Json::Object();
  o["files"]["dy"]["shape"] = Json::ArrayOf(std::vector<int64_t>{1, 8, 8});
  o["eps"] = 1e-5;
  o["name"] = "tab\there";
  o["list"] = Json::Array();
  o["list"].Push(Json::Object());
  o["list"].Push(-0.5);
  Json back;
  ASSERT_TRUE(Json::Parse(o.Dump(2), "m", &back).ok());
  EXPECT_EQ(back.Dump(0), o.Dump(0));
  ASSERT_NE(back.Find("eps"), nullptr);
  EXPECT_EQ(back.Find("eps")->AsNumber(), 1e-5);
  EXPECT_EQ(back["files"]["dy"]["shape"].items()[2].AsInteger(), 8);
  EXPECT_TRUE(back["files"]["dy"]["shape"].items()[2].IsInteger());
  EXPECT_EQ(back.Find("missing"), nullptr);
}

TEST(Json, ParsesEscapesAndNumbers) {
  Json v;
  ASSERT_TRUE(Json::Parse(R"(["a\u0041\/", -12, 1.5e3, 0, true, null])", "t", &v).ok());
  ASSERT_EQ(v.items().size(), 6u);
  EXPECT_EQ(v.items()[0].AsString(), "aA/");
  EXPECT_EQ(v.items()[1].AsInteger(), -12);
  EXPECT_EQ(v.items()[2].AsNumber(), 1500.0);
  EXPECT_FALSE(v.items()[2].is_string());
  EXPECT_TRUE(v.items()[4].AsBool());
  EXPECT_TRUE(v.items()[5].is_null());
}

TEST(Json, RefusesMalformedText) {
  for (const char* bad : {"", "{", "{\"a\":1,}", "[1,]", "{'a':1}", "01", "1.", "nul", "\"abc",
                          "{\"a\" 1}", "[1] 2", "{\"a\":1,\"a\":2}", "NaN", "\"\x01\"", "-"}) {
    Json v;
    const Status st = Json::Parse(bad, "manifest.json", &v);
    EXPECT_FALSE(st.ok()) << bad;
    EXPECT_NE(st.message().find("manifest.json"), std::string::npos) << st.message();
  }
  std::string deep(100, '[');
  Json v;
  EXPECT_FALSE(Json::Parse(deep, "deep", &v).ok());
}

}  // namespace
}  // namespace lngrad::io
