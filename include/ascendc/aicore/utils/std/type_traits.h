// lngrad Ascend C runtime: AscendC::Std type traits (the vendor's "utils/std/type_traits.h").
//
// The vendor's own integral_constant (with Int<v> and its + - * / % on Int values), and the
// traits of the C++ standard library under the same names. Two differ from std, as the vendor
// defines them: is_floating_point also holds for half, and is_integral holds for the standard
// signed and unsigned integer types, bool and char (not wchar_t, char8_t, char16_t, char32_t)
// and for any integral_constant. Every trait derives from AscendC::Std::true_type/false_type.
#pragma once

#include <cstddef>
#include <type_traits>

#include "lngrad_aicore/half.h"

namespace AscendC::Std {

template <typename Tp, Tp v>
struct integral_constant {
  static constexpr const Tp value = v;
  using value_type = Tp;
  using type = integral_constant;
  constexpr operator value_type() const noexcept { return value; }
  constexpr value_type operator()() const noexcept { return value; }
};
using true_type = integral_constant<bool, true>;
using false_type = integral_constant<bool, false>;
template <bool b>
using bool_constant = integral_constant<bool, b>;
template <size_t v>
using Int = integral_constant<size_t, v>;

template <auto t, auto u>
constexpr Int<(t + u)> operator+(Int<t>, Int<u>) {
  return {};
}
template <auto t, auto u>
constexpr Int<(t - u)> operator-(Int<t>, Int<u>) {
  return {};
}
template <auto t, auto u>
constexpr Int<(t * u)> operator*(Int<t>, Int<u>) {
  return {};
}
template <auto t, auto u>
constexpr Int<(t / u)> operator/(Int<t>, Int<u>) {
  return {};
}
template <auto t, auto u>
constexpr Int<(t % u)> operator%(Int<t>, Int<u>) {
  return {};
}

// Value traits: std's answer, as an AscendC::Std::bool_constant.
#define LNGRAD_STD_VALUE_TRAIT(name)                 \
  template <typename Tp>                             \
  struct name : bool_constant<std::name##_v<Tp>> {}; \
  template <typename Tp>                             \
  inline constexpr bool name##_v = name<Tp>::value;
LNGRAD_STD_VALUE_TRAIT(is_void)
LNGRAD_STD_VALUE_TRAIT(is_array)
LNGRAD_STD_VALUE_TRAIT(is_pointer)
LNGRAD_STD_VALUE_TRAIT(is_reference)
LNGRAD_STD_VALUE_TRAIT(is_lvalue_reference)
LNGRAD_STD_VALUE_TRAIT(is_rvalue_reference)
LNGRAD_STD_VALUE_TRAIT(is_const)
LNGRAD_STD_VALUE_TRAIT(is_volatile)
LNGRAD_STD_VALUE_TRAIT(is_class)
LNGRAD_STD_VALUE_TRAIT(is_union)
LNGRAD_STD_VALUE_TRAIT(is_function)
#undef LNGRAD_STD_VALUE_TRAIT

template <typename Tp, typename Up>
struct is_same : false_type {};
template <typename Tp>
struct is_same<Tp, Tp> : true_type {};
template <typename Tp, typename Up>
inline constexpr bool is_same_v = is_same<Tp, Up>::value;

template <typename Base, typename Derived>
struct is_base_of : bool_constant<std::is_base_of_v<Base, Derived>> {};
template <typename Base, typename Derived>
inline constexpr bool is_base_of_v = is_base_of<Base, Derived>::value;

template <typename From, typename To>
struct is_convertible : bool_constant<std::is_convertible_v<From, To>> {};
template <typename From, typename To>
inline constexpr bool is_convertible_v = is_convertible<From, To>::value;

template <typename Tp>
struct is_floating_point : bool_constant<std::is_same_v<std::remove_cv_t<Tp>, float> ||
                                         std::is_same_v<std::remove_cv_t<Tp>, double> ||
                                         std::is_same_v<std::remove_cv_t<Tp>, long double> ||
                                         std::is_same_v<std::remove_cv_t<Tp>, half>> {};
template <typename Tp>
inline constexpr bool is_floating_point_v = is_floating_point<Tp>::value;

namespace detail {
template <typename Tp, typename... Of>
inline constexpr bool kUnqualifiedAnyOf = (std::is_same_v<std::remove_cv_t<Tp>, Of> || ...);
}  // namespace detail

template <typename Tp>
struct is_integral : bool_constant<detail::kUnqualifiedAnyOf<
                         Tp, bool, unsigned long long, long long, unsigned long, long, unsigned int,
                         int, unsigned short, short, unsigned char, signed char, char>> {};
template <typename Tp, Tp v>
struct is_integral<integral_constant<Tp, v>> : true_type {};
template <typename Tp>
inline constexpr bool is_integral_v = is_integral<Tp>::value;

// Type transformations: std's result.
#define LNGRAD_STD_TYPE_TRAIT(name) \
  template <typename Tp>            \
  struct name {                     \
    using type = std::name##_t<Tp>; \
  };                                \
  template <typename Tp>            \
  using name##_t = typename name<Tp>::type;
LNGRAD_STD_TYPE_TRAIT(add_const)
LNGRAD_STD_TYPE_TRAIT(add_volatile)
LNGRAD_STD_TYPE_TRAIT(add_cv)
LNGRAD_STD_TYPE_TRAIT(add_pointer)
LNGRAD_STD_TYPE_TRAIT(add_lvalue_reference)
LNGRAD_STD_TYPE_TRAIT(add_rvalue_reference)
LNGRAD_STD_TYPE_TRAIT(remove_const)
LNGRAD_STD_TYPE_TRAIT(remove_volatile)
LNGRAD_STD_TYPE_TRAIT(remove_cv)
LNGRAD_STD_TYPE_TRAIT(remove_pointer)
LNGRAD_STD_TYPE_TRAIT(remove_reference)
LNGRAD_STD_TYPE_TRAIT(remove_cvref)
LNGRAD_STD_TYPE_TRAIT(remove_extent)
LNGRAD_STD_TYPE_TRAIT(decay)
#undef LNGRAD_STD_TYPE_TRAIT

template <bool b, typename T, typename F>
struct conditional {
  using type = std::conditional_t<b, T, F>;
};
template <bool b, typename T, typename F>
using conditional_t = typename conditional<b, T, F>::type;

template <bool b, typename T = void>
struct enable_if {};
template <typename T>
struct enable_if<true, T> {
  using type = T;
};
template <bool b, typename T = void>
using enable_if_t = typename enable_if<b, T>::type;

}  // namespace AscendC::Std
