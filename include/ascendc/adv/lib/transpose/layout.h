// lngrad: the small part of the kit's layout vocabulary that TransData's parameters are written
// in: AscendC::Shape / Stride (tuples), MakeShape, MakeStride, Layout, MakeLayout, is_layout_v
// and AscendC::Std::tuple / get / tuple_size / is_tuple_v. A Layout here only carries its shape
// and stride (GetShape, GetStride); the kit's layout algebra (coordinates, composition) is not
// provided.
#pragma once

#include <cstddef>
#include <tuple>
#include <type_traits>

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

template <typename... Ts>
using Shape = std::tuple<Ts...>;
template <typename... Ts>
using Stride = std::tuple<Ts...>;

template <typename... Ts>
Shape<Ts...> MakeShape(const Ts&... dims) {
  return Shape<Ts...>(dims...);
}

template <typename... Ts>
Stride<Ts...> MakeStride(const Ts&... strides) {
  return Stride<Ts...>(strides...);
}

template <typename ShapeT, typename StrideT>
class Layout {
 public:
  Layout() = default;
  Layout(const ShapeT& shape, const StrideT& stride) : shape_(shape), stride_(stride) {}
  const ShapeT& GetShape() const { return shape_; }
  const StrideT& GetStride() const { return stride_; }

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
