// lngrad: the small part of the kit's layout vocabulary that TransData's parameters are written
// in: MakeShape, MakeStride, Layout, MakeLayout, is_layout_v
// and AscendC::Std::tuple / get / tuple_size / is_tuple_v. A Layout here carries its shape and
// stride (GetShape, GetStride) and maps a flat coordinate to its index (operator(), coord.h); the
// kit's layout algebra (nested coordinates, composition) is not provided.
#pragma once

#include <cstddef>
#include <tuple>
#include <type_traits>

#include "lib/transpose/coord.h"
#include "utils/std/type_traits.h"

namespace AscendC {
namespace Std {
using std::get;
using std::make_tuple;
using std::tuple;
using std::tuple_size;

template <typename T>
struct is_tuple : false_type {};
template <typename... Ts>
struct is_tuple<std::tuple<Ts...>> : true_type {};
template <typename T>
inline constexpr bool is_tuple_v = is_tuple<std::remove_cv_t<T>>::value;
}  // namespace Std

// A shape and a stride are tuples (the kit's Shape / Stride; those alias names are not declared
// here, so that code with its own Shape under `using namespace AscendC` keeps compiling).
template <typename... Ts>
std::tuple<Ts...> MakeShape(const Ts&... dims) {
  return std::tuple<Ts...>(dims...);
}

template <typename... Ts>
std::tuple<Ts...> MakeStride(const Ts&... strides) {
  return std::tuple<Ts...>(strides...);
}

template <typename ShapeT, typename StrideT>
class Layout {
 public:
  Layout() = default;
  Layout(const ShapeT& shape, const StrideT& stride) : shape_(shape), stride_(stride) {}
  const ShapeT& GetShape() const { return shape_; }
  const StrideT& GetStride() const { return stride_; }
  // The linear index of a flat coordinate (coord.h's Crd2Idx).
  template <typename S>
  constexpr auto operator()(const S& coord) const {
    return Crd2Idx(coord, stride_);
  }

 private:
  ShapeT shape_{};
  StrideT stride_{};
};

template <typename ShapeT, typename StrideT>
Layout<ShapeT, StrideT> MakeLayout(const ShapeT& shape, const StrideT& stride) {
  return Layout<ShapeT, StrideT>(shape, stride);
}

template <typename T>
struct is_layout : Std::false_type {};
template <typename ShapeT, typename StrideT>
struct is_layout<Layout<ShapeT, StrideT>> : Std::true_type {};
template <typename T>
inline constexpr bool is_layout_v = is_layout<std::remove_cv_t<T>>::value;

}  // namespace AscendC
