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

TEST(Json, ErrorsNameTheByteTheLineAndTheReason) {
  auto error = [](std::string_view text) {
    Json v;
    return Json::Parse(text, "m.json", &v).message();
  };
  EXPECT_EQ(error("{\"a\": 1,\n \"a\": 2}"),
            "m.json: invalid JSON at byte 13 (line 2, column 5): repeated member \"a\"");
  EXPECT_EQ(error("[1e400]"),
            "m.json: invalid JSON at byte 6 (line 1, column 7): number out of range");
  EXPECT_EQ(error("[1e-400, 2]"),
            "m.json: invalid JSON at byte 7 (line 1, column 8): number out of range");
  EXPECT_EQ(error(std::string(65, '[') + std::string(65, ']')), "");
  EXPECT_EQ(error(std::string(66, '[')),
            "m.json: invalid JSON at byte 65 (line 1, column 66): nesting deeper than 64");
  const std::string syntax = error("{\"a\": [1,]}");
  EXPECT_EQ(syntax.rfind("m.json: invalid JSON at byte 9 (line 1, column 10): ", 0), 0u) << syntax;
  EXPECT_NE(syntax.find("unexpected ']'"), std::string::npos) << syntax;
}

TEST(Json, IntegersBeyondInt64AreDoubles) {
  Json v;
  ASSERT_TRUE(
      Json::Parse("[9223372036854775807, 9223372036854775808, -0, 1.0, 2.5E-5]", "t", &v).ok());
  EXPECT_TRUE(v.items()[0].IsInteger());
  EXPECT_EQ(v.items()[0].AsInteger(), INT64_MAX);
  EXPECT_FALSE(v.items()[1].IsInteger());  // beyond int64: a double, as text reads it
  EXPECT_EQ(v.items()[1].AsNumber(), 9223372036854775808.0);
  EXPECT_EQ(v.Dump(0), "[9223372036854775807, 9223372036854775808, 0, 1, 2.5e-05]");
}

}  // namespace
}  // namespace lngrad::io
