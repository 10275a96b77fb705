// The name of an enumerator from a table indexed by its value (the enums of the simulated AI
// core whose values run 0, 1, 2, ...), `fallback` for a value past the table.
#pragma once

#include <cstddef>

namespace lngrad::aicore::detail {

template <typename E, size_t N>
constexpr const char* NameAt(const char* const (&names)[N], E value,
                             const char* fallback) noexcept {
  const auto i = static_cast<size_t>(value);
  return i < N ? names[i] : fallback;
}

}  // namespace lngrad::aicore::detail
