// Names of test enums for test names and messages, from one table per enum.
//
// Standard library only (see doc_example.h), so every test folder may use it.
#pragma once

#include <cstddef>

namespace lngrad::test {

template <class E>
struct EnumLabel {
  E value;
  const char* name;
};

// The name `labels` gives `value`, or "?" for a value the table does not list.
template <class E, std::size_t N>
constexpr const char* EnumName(E value, const EnumLabel<E> (&labels)[N]) {
  for (const EnumLabel<E>& label : labels) {
    if (label.value == value) return label.name;
  }
  return "?";
}

}  // namespace lngrad::test
