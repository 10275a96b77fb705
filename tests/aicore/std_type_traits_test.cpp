// AscendC::Std type traits (utils/std/type_traits.h, reached through kernel_operator.h as in the
// vendor's samples): the results the vendor documents, including where they differ from std
// (half is a floating-point type; is_integral of integral_constant, not of wchar_t).
#include <gtest/gtest.h>

#include "kernel_operator.h"

namespace {

namespace S = AscendC::Std;
struct MyStruct {};
struct Derived : MyStruct {};
using FuncType = double(int);

TEST(StdTypeTraits, FloatingPointIncludesHalf) {
  static_assert(S::is_floating_point<float>::value && S::is_floating_point<double>::value);
  static_assert(S::is_floating_point<long double>::value);
  static_assert(S::is_floating_point<const float>::value);
  static_assert(S::is_floating_point<volatile double>::value);
  static_assert(S::is_floating_point<half>::value && S::is_floating_point_v<const half>);
  static_assert(!S::is_floating_point<int>::value && !S::is_floating_point<bool>::value);
  static_assert(!S::is_floating_point<double*>::value && !S::is_floating_point<float&>::value);
  static_assert(!S::is_floating_point<double[5]>::value);
  static_assert(!S::is_floating_point<FuncType>::value);
  static_assert(!S::is_floating_point<MyStruct>::value && !S::is_floating_point<void>::value);
}

TEST(StdTypeTraits, IntegralAsTheVendorListsIt) {
  static_assert(S::is_integral<bool>::value && S::is_integral<char>::value);
  static_assert(S::is_integral<signed char>::value && S::is_integral<unsigned char>::value);
  static_assert(S::is_integral<short>::value && S::is_integral<unsigned long long>::value);
  static_assert(S::is_integral<const int>::value && S::is_integral<volatile int>::value);
  static_assert(S::is_integral<S::integral_constant<int, 3>>::value);
  static_assert(S::is_integral_v<S::Int<4>>);
  static_assert(!S::is_integral<wchar_t>::value && !S::is_integral<char16_t>::value);
  static_assert(!S::is_integral<float>::value && !S::is_integral<int*>::value);
  static_assert(!S::is_integral<int&>::value && !S::is_integral<int[5]>::value);
  static_assert(!S::is_integral<void>::value && !S::is_integral<MyStruct>::value);
}

TEST(StdTypeTraits, CategoriesAndRelations) {
  static_assert(S::is_void<void>::value && S::is_void<const volatile void>::value);
  static_assert(!S::is_void<void*>::value && !S::is_void<int>::value);
  static_assert(S::is_array<int[]>::value && S::is_array<const int[3]>::value);
  static_assert(!S::is_array<int*>::value);
  static_assert(S::is_pointer<int*>::value && S::is_pointer<int* const volatile>::value);
  static_assert(!S::is_pointer<int>::value && !S::is_pointer<int[2]>::value);
  static_assert(S::is_reference<int&>::value && S::is_reference<const int&&>::value);
  static_assert(!S::is_reference<int*>::value);
  static_assert(S::is_const<const int>::value && !S::is_const<const int*>::value);
  static_assert(!S::is_const<const int&>::value);
  static_assert(S::is_same_v<int, int> && !S::is_same_v<int, const int>);
  static_assert(S::is_same<S::true_type, S::bool_constant<true>>::value);
  static_assert(S::is_base_of<MyStruct, Derived>::value && !S::is_base_of_v<Derived, MyStruct>);
  static_assert(S::is_convertible_v<Derived*, MyStruct*> && !S::is_convertible_v<int*, float*>);
  // Every trait is an AscendC::Std::integral_constant.
  static_assert(std::is_base_of_v<S::true_type, S::is_void<void>>);
  static_assert(std::is_base_of_v<S::false_type, S::is_pointer<int>>);
}

TEST(StdTypeTraits, Transformations) {
  static_assert(S::is_same_v<S::remove_const<const int>::type, int>);
  static_assert(S::is_same_v<S::remove_const_t<const volatile int>, volatile int>);
  static_assert(S::is_same_v<S::remove_volatile_t<volatile int>, int>);
  static_assert(S::is_same_v<S::remove_cv_t<const volatile int>, int>);
  static_assert(S::is_same_v<S::remove_pointer_t<int* const>, int>);
  static_assert(S::is_same_v<S::remove_pointer<int>::type, int>);
  static_assert(S::is_same_v<S::remove_reference_t<int&&>, int>);
  static_assert(S::is_same_v<S::add_const_t<int>, const int>);
  static_assert(S::is_same_v<S::add_const_t<int&>, int&>);
  static_assert(S::is_same_v<S::add_volatile_t<int>, volatile int>);
  static_assert(S::is_same_v<S::add_cv_t<int>, const volatile int>);
  static_assert(S::is_same_v<S::add_pointer<int&>::type, int*>);
  static_assert(S::is_same_v<S::add_pointer<void>::type, void*>);
  static_assert(S::is_same_v<S::add_lvalue_reference_t<int&&>, int&>);
  static_assert(S::is_same_v<S::add_lvalue_reference_t<void>, void>);
  static_assert(S::is_same_v<S::add_rvalue_reference_t<int>, int&&>);
  static_assert(S::is_same_v<S::add_rvalue_reference_t<int&>, int&>);
  static_assert(S::is_same_v<S::conditional_t<true, int, float>, int>);
  static_assert(S::is_same_v<S::enable_if_t<true, char>, char>);
  static_assert(S::is_same_v<S::decay_t<const int[3]>, const int*>);
}

TEST(StdTypeTraits, IntArithmetic) {
  constexpr auto sum = S::Int<6>{} + S::Int<3>{};
  static_assert(S::is_same_v<std::remove_const_t<decltype(sum)>, S::Int<9>>);
  static_assert(decltype(S::Int<6>{} - S::Int<4>{})::value == 2);
  static_assert(decltype(S::Int<6>{} * S::Int<4>{})::value == 24);
  static_assert(decltype(S::Int<7>{} / S::Int<2>{})::value == 3);
  static_assert(decltype(S::Int<7>{} % S::Int<4>{})::value == 3);
  constexpr S::integral_constant<int, 5> five;
  static_assert(five() == 5 && static_cast<int>(five) == 5);
  EXPECT_EQ(S::is_integral<int>::value, true);
}

}  // namespace
