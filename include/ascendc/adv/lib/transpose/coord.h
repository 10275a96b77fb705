// lngrad: the kit's coordinates as far as its samples use them (the Matmul sample
// matmul_l2cache): Coord (a tuple of indices), MakeCoord, and Crd2Idx, the linear index of a flat
// coordinate under a flat stride (sum of coord_i x stride_i), which Layout's operator() returns.
// Nested (hierarchical) coordinates and the rest of the tensor API's layout algebra are not here.
#pragma once

#include <cstddef>
#include <tuple>
#include <utility>

namespace AscendC {

template <typename... Coords>
using Coord = std::tuple<Coords...>;

template <typename... Ts>
constexpr Coord<Ts...> MakeCoord(const Ts&... t) {
  return Coord<Ts...>(t...);
}

// The linear index of `coord` under `stride` (tuples of the same rank).
template <typename CoordT, typename StrideT>
constexpr auto Crd2Idx(const CoordT& coord, const StrideT& stride) {
  static_assert(std::tuple_size_v<CoordT> == std::tuple_size_v<StrideT>,
                "Crd2Idx: the coordinate and the stride have different ranks");
  return [&]<std::size_t... I>(std::index_sequence<I...>) {
    return (decltype(std::get<0>(coord) * std::get<0>(stride)){0} + ... +
            (std::get<I>(coord) * std::get<I>(stride)));
  }
  (std::make_index_sequence<std::tuple_size_v<CoordT>>{});
}

}  // namespace AscendC
