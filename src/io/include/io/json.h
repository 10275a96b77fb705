// lngrad_io: JSON for the CLI's --json output and its manifest files. The value is nlohmann/json's
// ordered_json (members keep insertion order: stable, diff-friendly output). Ours are only what a
// manifest needs beyond it: a stricter reader whose errors name the byte, line and column, and the
// text layout the CLI's output has always had.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "lngrad/status.h"

namespace lngrad::io {

using Json = nlohmann::ordered_json;

// Strict RFC 8259 (UTF-8, no comments, no trailing commas), and also refused: a repeated member,
// nesting deeper than 64, a number beyond double's range. Integers that int64 holds stay integers;
// larger ones are doubles. The error names `what`, the 0-based byte offset, line and column, and
// the reason. `out` is written only on success.
Status ParseJson(std::string_view text, std::string_view what, Json* out);

// Text with `indent` spaces per level (0: one line); arrays of scalars stay on one line (shapes,
// index lists). Strings are escaped by nlohmann (invalid UTF-8 becomes U+FFFD). Numbers: integers
// as integers, other finite numbers as the shortest text that reads back the same double
// (std::to_chars: 1e-04, 0.125, 1e+20), non-finite ones as null (JSON has no NaN or infinity).
std::string DumpJson(const Json& j, int indent = 2);

// The member `key` of object `j`; null when `j` is not an object or has no such member.
const Json* FindMember(const Json& j, std::string_view key);

// True, with the value in *out, when `j` is a number that is an integer int64 holds exactly (an
// integer written with a fraction or exponent, such as 8.0 or 1e3, counts).
bool JsonInteger(const Json& j, int64_t* out);

}  // namespace lngrad::io
