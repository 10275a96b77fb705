// lngrad Ascend C tensor API (AscendC::Te, layer cube): coordinates, shapes and frame layouts.
//
// A frame layout maps the element (b, r, c) of a batch of row x column matrices to its index
// from the first element, as the vendor's MakeFrameLayout<Pattern[, Trait]>(...) does (its
// reference: the tensor API pages; docs/ascendc_kernels.md, "The tensor API"). With c0 the
// elements of one 32-byte fractal row (the trait's data type: 32 / sizeof(T); uint16_t when it
// is left out, so 16) and align(x, a) x rounded up to a multiple of a:
//   ND, NDExt:   r * cols + c                     DN, DNExt: r + c * rows
//   NZ:          r * c0 + c % c0 + (c / c0) * c0 * align(rows, 16)
//   ZN:          r % c0 + (r / c0) * c0 * align(cols, 16) + c * c0
//   ZZ:          (r % 16) * c0 + (r / 16) * 16 * align(cols, c0) + c % c0 + (c / c0) * c0 * 16
//   NN:          r % c0 + (r / c0) * c0 * 16 + (c % 16) * c0 + (c / 16) * rows * 16
//   ScaleAND:    as ND                            ScaleBDN:  as DN
//   ScaleADN:    r * c0 + c % c0 + (c / c0) * c0 * rows
//   ScaleBND:    r % c0 + (r / c0) * c0 * cols + c * c0
// (the MX scales' patterns, c0 2 unless the trait says otherwise),
// and matrix b starts at b * Capacity(), one matrix's elements: align(rows, 16) x align(cols, c0)
// (NZ, ZZ), align(rows, c0) x align(cols, 16) (ZN), rows x align(cols, 16) (NN), rows x cols
// (the others). The convolution
// patterns are flat: NCHW(n, c, h, w), NHWC(n, h, w, c), NC1HWC0(n, c1, h, w, c0), row-major in
// that order; the copies read them as one matrix per n of h x w rows and c (c1 x c0) columns.
#pragma once

#include <cstdint>
#include <tuple>
#include <type_traits>

namespace AscendC::Te {

// The index maps (one per pattern kind; the tags below name them).
#define LNGRAD_TE_PATTERN_KINDS(X) \
  X(ND)                            \
  X(DN)                            \
  X(NZ)                            \
  X(ZN)                            \
  X(ZZ)                            \
  X(NN)                            \
  X(ScaleAND)                      \
  X(ScaleADN)                      \
  X(ScaleBND)                      \
  X(ScaleBDN)                      \
  X(NCHW)                          \
  X(NHWC)                          \
  X(NC1HWC0)
#define LNGRAD_TE_PATTERN_ENUM(name) k##name,
enum class Pattern : uint8_t { LNGRAD_TE_PATTERN_KINDS(LNGRAD_TE_PATTERN_ENUM) kNone };
#undef LNGRAD_TE_PATTERN_ENUM
const char* PatternName(Pattern p) noexcept;

// The vendor's pattern tags and the index map each names (NDExt and DNExt: ND and DN).
template <typename P>
inline constexpr Pattern kPatternOf = Pattern::kNone;
#define LNGRAD_TE_PATTERNS(X) \
  X(ND, kND)                  \
  X(NDExt, kND)               \
  X(DN, kDN)                  \
  X(DNExt, kDN)               \
  X(NZ, kNZ)                  \
  X(ZN, kZN)                  \
  X(ZZ, kZZ)                  \
  X(NN, kNN)                  \
  X(ScaleAND, kScaleAND)      \
  X(ScaleADN, kScaleADN)      \
  X(ScaleBND, kScaleBND)      \
  X(ScaleBDN, kScaleBDN)      \
  X(NCHW, kNCHW)              \
  X(NHWC, kNHWC)              \
  X(NC1HWC0, kNC1HWC0)
#define LNGRAD_TE_DECLARE_PATTERN(name, value) \
  struct name##LayoutPtn {};                   \
  template <>                                  \
  inline constexpr Pattern kPatternOf<name##LayoutPtn> = Pattern::value;
LNGRAD_TE_PATTERNS(LNGRAD_TE_DECLARE_PATTERN)
#undef LNGRAD_TE_DECLARE_PATTERN

// MakeCoord / MakeShape: tuples of integers or of tuples (a batch index, then the matrix's).
template <typename... Ts>
struct IntTuple {
  std::tuple<Ts...> values;
};
template <typename... Ts>
using Coord = IntTuple<Ts...>;
template <typename... Ts>
using Shape = IntTuple<Ts...>;
template <typename... Ts>
constexpr IntTuple<Ts...> MakeCoord(const Ts&... t) {
  return {{t...}};
}
template <typename... Ts>
constexpr IntTuple<Ts...> MakeShape(const Ts&... t) {
  return {{t...}};
}

// A batch index and a row and column (of a coordinate or a shape).
struct Triple {
  uint32_t b, r, c;
  bool batched;  // the tuple named a batch
};
template <typename T>
constexpr bool kIsIntTuple = false;
template <typename... Ts>
constexpr bool kIsIntTuple<IntTuple<Ts...>> = true;
// (r, c) or (b, (r, c)); other forms fail to compile.
template <typename A, typename B>
Triple TripleOf(const IntTuple<A, B>& t) {
  if constexpr (kIsIntTuple<B>) {
    static_assert(!kIsIntTuple<A>, "a batched coordinate or shape is (batch, (row, column))");
    const auto& inner = std::get<1>(t.values).values;
    return {static_cast<uint32_t>(std::get<0>(t.values)), static_cast<uint32_t>(std::get<0>(inner)),
            static_cast<uint32_t>(std::get<1>(inner)), true};
  } else {
    return {0, static_cast<uint32_t>(std::get<0>(t.values)),
            static_cast<uint32_t>(std::get<1>(t.values)), false};
  }
}

// A frame layout (see the top of this file). rows and cols: one matrix's; batch: the matrices;
// c0: elements per fractal row; hw_c: the convolution patterns' h, w, c (c1 x c0 for NC1HWC0).
struct FrameLayout {
  Pattern pattern = Pattern::kND;
  uint32_t c0 = 1;
  uint32_t batch = 1;
  uint32_t rows = 0, cols = 0;
  uint32_t h = 0, w = 0;

  static uint64_t Align(uint64_t x, uint64_t a) { return (x + a - 1) / a * a; }
  // One matrix's elements (the batch stride).
  uint64_t Capacity() const;
  // The index of (r, c) in one matrix.
  uint64_t Index(uint32_t r, uint32_t c) const;
  uint64_t Index(uint32_t b, uint32_t r, uint32_t c) const { return b * Capacity() + Index(r, c); }
};

namespace detail {
template <typename T>
constexpr uint32_t C0Of() {
  return 32 / sizeof(T);
}
template <Pattern P>
constexpr bool kFractal = P == Pattern::kNZ || P == Pattern::kZN || P == Pattern::kZZ;
// The MX scales' patterns: c0 2 (two e8m0 scales per K pair) unless the trait says otherwise.
template <Pattern P>
constexpr bool kScale = P == Pattern::kNN || P == Pattern::kScaleAND || P == Pattern::kScaleADN ||
                        P == Pattern::kScaleBND || P == Pattern::kScaleBDN;
template <typename A>
uint32_t U32(const A& a) {
  return static_cast<uint32_t>(a);
}
}  // namespace detail

// MakeFrameLayout<Pattern>(rows, cols), (batch, rows, cols); the convolution patterns take their
// four or five dimensions. Trait: the element type that sets c0 (uint16_t when left out), or an
// integral constant (std::integral_constant) giving c0.
template <typename Ptn, typename Trait = uint16_t, typename... Args>
FrameLayout MakeFrameLayout(const Args&... args) {
  constexpr Pattern p = kPatternOf<Ptn>;
  static_assert(p != Pattern::kNone, "MakeFrameLayout: unsupported pattern");
  FrameLayout l;
  l.pattern = p;
  if constexpr (detail::kFractal<p> || detail::kScale<p>) {
    if constexpr (requires { Trait::value; }) {
      l.c0 = Trait::value;
    } else if constexpr (detail::kScale<p>) {
      l.c0 = 2;
    } else {
      l.c0 = detail::C0Of<Trait>();
    }
  }
  const uint32_t v[] = {detail::U32(args)...};
  if constexpr (p == Pattern::kNCHW || p == Pattern::kNHWC) {
    static_assert(sizeof...(Args) == 4, "MakeFrameLayout: NCHW and NHWC take four dimensions");
    const bool nchw = p == Pattern::kNCHW;
    l.batch = v[0];
    l.cols = nchw ? v[1] : v[3];
    l.h = nchw ? v[2] : v[1];
    l.w = nchw ? v[3] : v[2];
    l.rows = l.h * l.w;
  } else if constexpr (p == Pattern::kNC1HWC0) {
    static_assert(sizeof...(Args) == 5, "MakeFrameLayout: NC1HWC0 takes five dimensions");
    l.batch = v[0];
    l.h = v[2];
    l.w = v[3];
    l.c0 = v[4];
    l.rows = l.h * l.w;
    l.cols = v[1] * v[4];
  } else {
    static_assert(sizeof...(Args) == 2 || sizeof...(Args) == 3,
                  "MakeFrameLayout: (rows, columns) or (batch, rows, columns)");
    l.batch = sizeof...(Args) == 3 ? v[0] : 1;
    l.rows = v[sizeof...(Args) - 2];
    l.cols = v[sizeof...(Args) - 1];
  }
  return l;
}
template <typename Ptn, size_t C0Element, typename... Args>
FrameLayout MakeFrameLayout(const Args&... args) {
  return MakeFrameLayout<Ptn, std::integral_constant<uint32_t, C0Element>>(args...);
}

}  // namespace AscendC::Te
