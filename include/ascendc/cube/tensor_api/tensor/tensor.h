// lngrad Ascend C tensor API (AscendC::Te, layer cube): memory pointers and tensors.
//
// MakeMemPtr(p) wraps a pointer: global memory, or an array in one of the running block's
// memories (`__cbuf__`, `__ca__`, `__cb__`, `__cc__`, `__biasbuf__` arrays: lngrad_cube/cube.h's
// CubeArray; `__ubuf__` arrays in the UB). Which memory it is, the copies and Mmad find from the
// address when they run (lngrad_cube/local_array.h). MakeMemPtr<Location::L0ScaleA or L0ScaleB,
// T>(addr) names the MX scales' buffer of L0A or L0B at address addr (the kernel's L0A/L0B
// pointer / 16, as the 950 maps them; an address below 4 KiB is the buffer's own), which only
// CopyL12L0ScaleA/B write and the MX Mmad reads. MakeTensor(ptr, layout) is the whole layout;
// Slice(coord, shape) the sub-block of shape rows x columns (and batches) from coord, in the same
// layout (the same strides, the origin moved). Checked mode: a slice past its tensor raises
// tensor_api.slice.
#pragma once

#include <cstdint>
#include <string>
#include <type_traits>

#include "lngrad_aicore/check.h"
#include "tensor_api/tensor/layout.h"

namespace AscendC::Te {

namespace detail {
inline constexpr const char* kSliceCheck = "tensor_api.slice";
// Raises tensor_api.slice (checked mode) unless [at, at + extent) lies in [0, size) per dim.
void RequireSliceInside(const Triple& at, const Triple& extent, const Triple& size);
}  // namespace detail

// The vendor's memory tags (MakeMemPtr<Location::X, T>(addr) takes L0ScaleA and L0ScaleB).
namespace Location {
struct INVALID {};
struct GM {};
struct UB {};
struct L1 {};
struct L0A {};
struct L0B {};
struct L0ScaleA {};
struct L0ScaleB {};
struct L0C {};
struct BIAS {};
struct FIXBUF {};
}  // namespace Location

template <typename T>
struct MemPtr {
  T* ptr = nullptr;
  int scale_side = -1;      // 0: L0ScaleA, 1: L0ScaleB (ptr unused), -1: a pointer
  uint64_t scale_addr = 0;  // the scale buffer's address as the kernel gives it
};
template <typename T>
MemPtr<T> MakeMemPtr(T* p) {
  return {p};
}
template <typename Hardware, typename T, typename Addr,
          std::enable_if_t<std::is_integral_v<Addr>, bool> = true>
MemPtr<T> MakeMemPtr(Addr addr) {
  constexpr bool kA = std::is_same_v<Hardware, Location::L0ScaleA>;
  static_assert(kA || std::is_same_v<Hardware, Location::L0ScaleB>,
                "MakeMemPtr<Location, T>(addr): lngrad takes addresses for L0ScaleA and L0ScaleB "
                "only; wrap an array's pointer (MakeMemPtr(p)) for the other memories");
  return {nullptr, kA ? 0 : 1, static_cast<uint64_t>(addr)};
}

template <typename T>
class Tensor {
 public:
  using ElementType = T;
  Tensor(MemPtr<T> p, const FrameLayout& layout)
      : ptr_(p.ptr),
        scale_side_(p.scale_side),
        scale_addr_(p.scale_addr),
        layout_(layout),
        at_{0, 0, 0, false},
        extent_{layout.batch, layout.rows, layout.cols, false} {}

  // The sub-tensor from coord, of shape: MakeCoord(r, c) / MakeShape(rows, cols) or, batched,
  // MakeCoord(b, MakeCoord(r, c)) / MakeShape(batches, MakeShape(rows, cols)).
  template <typename C, typename S>
  Tensor Slice(const C& coord, const S& shape) const {
    const Triple at = TripleOf(coord);
    Triple extent = TripleOf(shape);
    if (!extent.batched) extent.b = extent_.b;
    detail::RequireSliceInside(at, extent, extent_);
    Tensor t = *this;
    t.at_ = {at_.b + at.b, at_.r + at.r, at_.c + at.c, false};
    t.extent_ = {extent.b, extent.r, extent.c, false};
    return t;
  }

  const FrameLayout& Layout() const { return layout_; }
  // The whole layout's first element (nullptr for an MX scale buffer's tensor).
  T* Data() const { return ptr_; }
  // An MX scale buffer's tensor: 0 L0ScaleA, 1 L0ScaleB (-1: a pointer's), and its address.
  int ScaleSide() const { return scale_side_; }
  uint64_t ScaleAddr() const { return scale_addr_; }
  // The slice's origin and extent (batches, rows, columns).
  const Triple& Origin() const { return at_; }
  const Triple& Extent() const { return extent_; }
  // The index (from Data()) of the slice's element (b, r, c).
  uint64_t IndexOf(uint32_t b, uint32_t r, uint32_t c) const {
    return layout_.Index(at_.b + b, at_.r + r, at_.c + c);
  }
  // The elements from IndexOf(b, 0, 0) to the end of the whole layout.
  uint64_t Remaining(uint32_t b) const {
    return layout_.batch * layout_.Capacity() - IndexOf(b, 0, 0);
  }

 private:
  T* ptr_;
  int scale_side_;
  uint64_t scale_addr_;
  FrameLayout layout_;
  Triple at_, extent_;
};

template <typename T>
Tensor<T> MakeTensor(MemPtr<T> p, const FrameLayout& layout) {
  return Tensor<T>(p, layout);
}
template <typename T, typename C, typename S>
Tensor<T> Slice(const Tensor<T>& t, const C& coord, const S& shape) {
  return t.Slice(coord, shape);
}

}  // namespace AscendC::Te
