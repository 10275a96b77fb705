// JSON for --json output and manifests: nlohmann's ordered_json, read and written by io/json.h.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "io/json.h"

namespace lngrad::io {
namespace {

TEST(Json, DumpsInInsertionOrderWithEscapes) {
  Json o = Json::object();
  o["b"] = 1;
  o["a"] = "x\"y\\z\n";
  o["shape"] = Json(std::vector<int64_t>{2, 32, 16});
  o["ok"] = true;
  o["none"] = nullptr;
  o["third"] = 1.0 / 3.0;
  o["nan"] = std::nan("");
  o["big"] = int64_t{1} << 40;
  EXPECT_EQ(DumpJson(o, 0),
            "{\"b\":1,\"a\":\"x\\\"y\\\\z\\n\",\"shape\":[2, 32, 16],\"ok\":true,\"none\":null,"
            "\"third\":0.3333333333333333,\"nan\":null,\"big\":1099511627776}");
  EXPECT_EQ(DumpJson(o, 2).substr(0, 9), "{\n  \"b\": ");
}

TEST(Json, ParsesWhatItDumps) {
  Json o = Json::object();
  o["files"]["dy"]["shape"] = Json(std::vector<int64_t>{1, 8, 8});
  o["eps"] = 1e-5;
  o["name"] = "tab\there";
  o["list"] = Json::array();
  o["list"].push_back(Json::object());
  o["list"].push_back(-0.5);
  Json back;
  ASSERT_TRUE(ParseJson(DumpJson(o, 2), "m", &back).ok());
  EXPECT_EQ(DumpJson(back, 0), DumpJson(o, 0));
  ASSERT_NE(FindMember(back, "eps"), nullptr);
  EXPECT_EQ(FindMember(back, "eps")->get<double>(), 1e-5);
  int64_t n = 0;
  EXPECT_TRUE(JsonInteger(back["files"]["dy"]["shape"][2], &n));
  EXPECT_EQ(n, 8);
  EXPECT_EQ(FindMember(back, "missing"), nullptr);
  EXPECT_EQ(FindMember(back["list"], "eps"), nullptr);  // not an object
}

TEST(Json, ParsesEscapesAndNumbers) {
  Json v;
  ASSERT_TRUE(ParseJson(R"(["a\u0041\/", -12, 1.5e3, 0, true, null])", "t", &v).ok());
  ASSERT_EQ(v.size(), 6u);
  EXPECT_EQ(v[0].get<std::string>(), "aA/");
  int64_t n = 0;
  EXPECT_TRUE(JsonInteger(v[1], &n));
  EXPECT_EQ(n, -12);
  EXPECT_EQ(v[2].get<double>(), 1500.0);
  EXPECT_FALSE(v[2].is_string());
  EXPECT_TRUE(JsonInteger(v[2], &n));  // 1.5e3 is an integer a shape may hold
  EXPECT_EQ(n, 1500);
  EXPECT_TRUE(v[4].get<bool>());
  EXPECT_TRUE(v[5].is_null());
}

TEST(Json, ParseWritesNothingOnError) {
  Json v = Json::array({1, 2});
  EXPECT_FALSE(ParseJson("[3,", "m", &v).ok());
  EXPECT_EQ(DumpJson(v, 0), "[1, 2]");
}

TEST(Json, WritesInvalidUtf8AsReplacementCharacters) {
  // Text read from a file name or a message may not be UTF-8; the output stays valid JSON.
  Json v =
      Json::array({std::string("a\xff\x01"
                               "b")});
  EXPECT_EQ(DumpJson(v, 0), "[\"a\xef\xbf\xbd\\u0001b\"]");
  Json back;
  EXPECT_TRUE(ParseJson(DumpJson(v, 0), "m", &back).ok());
}

TEST(Json, RefusesMalformedText) {
  for (const char* bad : {"", "{", "{\"a\":1,}", "[1,]", "{'a':1}", "01", "1.", "nul", "\"abc",
                          "{\"a\" 1}", "[1] 2", "{\"a\":1,\"a\":2}", "NaN", "\"\x01\"", "-"}) {
    Json v;
    const Status st = ParseJson(bad, "manifest.json", &v);
    EXPECT_FALSE(st.ok()) << bad;
    EXPECT_NE(st.message().find("manifest.json"), std::string::npos) << st.message();
  }
  std::string deep(100, '[');
  Json v;
  EXPECT_FALSE(ParseJson(deep, "deep", &v).ok());
}

TEST(Json, ErrorsNameTheByteTheLineAndTheReason) {
  auto error = [](std::string_view text) {
    Json v;
    return ParseJson(text, "m.json", &v).message();
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
      ParseJson("[9223372036854775807, 9223372036854775808, -0, 1.0, 2.5E-5]", "t", &v).ok());
  int64_t n = 0;
  EXPECT_TRUE(JsonInteger(v[0], &n));
  EXPECT_EQ(n, INT64_MAX);
  EXPECT_FALSE(JsonInteger(v[1], &n));  // beyond int64: a double, as text reads it
  EXPECT_TRUE(v[1].is_number_float());
  EXPECT_EQ(v[1].get<double>(), 9223372036854775808.0);
  EXPECT_FALSE(JsonInteger(v[4], &n));  // 2.5E-5
  EXPECT_EQ(DumpJson(v, 0), "[9223372036854775807, 9223372036854775808, 0, 1, 2.5e-05]");
}

}  // namespace
}  // namespace lngrad::io
