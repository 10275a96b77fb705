// libFuzzer target: the JSON reader behind manifest.json (src/io, io::ParseJson) on arbitrary
// bytes, and the writer on what it read. Invariants (abort on violation):
//  - ParseJson returns (no crash, no UB, bounded memory however deep or long the text);
//  - on error the output is untouched and the message names the document;
//  - what was read is written as text that reads back, at indent 0 and 2 alike, and one round
//    trip reaches a fixed point (the first may turn -0.0 into the integer 0);
//  - what the manifest reader asks of a document (members, arrays, integers) answers consistently.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "io/json.h"

namespace {

using lngrad::io::DumpJson;
using lngrad::io::Json;
using lngrad::io::ParseJson;

void Fail(const char* what, std::string_view detail = {}) {
  std::fprintf(stderr, "fuzz_manifest invariant broken: %s\n%.*s\n", what,
               static_cast<int>(detail.size()), detail.data());
  std::abort();
}

Json MustParse(const std::string& text, const char* what) {
  Json v;
  const lngrad::Status st = ParseJson(text, "dumped", &v);
  if (!st.ok()) Fail(what, st.message() + "\n" + text);
  return v;
}

// Walks the value as the manifest reader does (FindMember, members, elements, JsonInteger).
void Walk(const Json& v, int depth) {
  if (depth > 64) Fail("a value nested deeper than the reader allows");
  int64_t n = 0;
  if (v.is_object()) {
    for (const auto& [key, member] : v.items()) {
      if (lngrad::io::FindMember(v, key) != &member) {
        Fail("FindMember misses a member or finds a repeat");
      }
      Walk(member, depth + 1);
    }
  } else if (v.is_array()) {
    for (const Json& e : v) Walk(e, depth + 1);
  } else if (v.is_number() && lngrad::io::JsonInteger(v, &n) &&
             static_cast<double>(n) != v.get<double>()) {
    Fail("JsonInteger and the number's double disagree");
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  Json v = Json::array();
  v.push_back("sentinel");
  const std::string sentinel = DumpJson(v, 0);
  const lngrad::Status st = ParseJson(text, "manifest.json", &v);
  if (!st.ok()) {
    if (DumpJson(v, 0) != sentinel) Fail("ParseJson wrote its output on error");
    if (st.message().find("manifest.json: invalid JSON at byte ") != 0) {
      Fail("error message without the document and byte offset", st.message());
    }
    return 0;
  }
  Walk(v, 0);

  const std::string once = DumpJson(v, 0);
  const Json back = MustParse(once, "one-line text does not read back");
  const std::string twice = DumpJson(back, 0);
  if (DumpJson(MustParse(DumpJson(back, 2), "indented text does not read back"), 0) != twice) {
    Fail("indented and one-line text read back differently", twice);
  }
  if (DumpJson(MustParse(twice, "round-tripped text does not read back"), 0) != twice) {
    Fail("a second round trip changes the text", twice);
  }
  return 0;
}
