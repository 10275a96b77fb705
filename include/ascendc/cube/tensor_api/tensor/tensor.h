// lngrad Ascend C tensor API (AscendC::Te, layer cube): memory pointers and tensors.
//
// MakeMemPtr(p) wraps a pointer: global memory, or an array in one of the running block's
// memories (`__cbuf__`, `__ca__`, `__cb__`, `__cc__`, `__biasbuf__` arrays: lngrad_cube/cube.h's
// CubeArray; `__ubuf__` arrays in the UB). Which memory it is, the copies and Mmad find from the
// address when they run (lngrad_cube/local_array.h). MakeTensor(ptr, layout) is the whole layout;
// Slice(coord, shape) the sub-block of shape rows x columns (and batches) from coord, in the same
// layout (the same strides, the origin moved). Checked mode: a slice past its tensor raises
// tensor_api.slice.
#pragma once

#include <cstdint>
#include <string>

#include "lngrad_aicore/check.h"
#include "tensor_api/tensor/layout.h"

namespace AscendC::Te {

namespace detail {
inline constexpr const char* kSliceCheck = "tensor_api.slice";
// Raises tensor_api.slice (checked mode) unless [at, at + extent) lies in [0, size) per dim.
void RequireSliceInside(const Triple& at, const Triple& extent, const Triple& size);
}  // namespace detail

template <typename T>
struct MemPtr {
  T* ptr = nullptr;
};
template <typename T>
MemPtr<T> MakeMemPtr(T* p) {
  return {p};
}

template <typename T>
class Tensor {
 public:
  using ElementType = T;
  Tensor(MemPtr<T> p, const FrameLayout& layout)
      : ptr_(p.ptr),
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
  // The whole layout's first element.
  T* Data() const { return ptr_; }
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
