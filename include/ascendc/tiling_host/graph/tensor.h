// ge::Shape: the tensor shape type that Ascend C host tiling functions take (also spelled
// AscendC::TensorShape). Header-only; value semantics.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

namespace ge {

class Shape {
 public:
  // GE's markers for dimensions unknown at graph-build time.
  static constexpr int64_t kUnknownDim = -1;
  static constexpr int64_t kUnknownDimNum = -2;

  Shape() = default;
  explicit Shape(std::vector<int64_t> dims) : dims_(std::move(dims)) {}

  size_t GetDimNum() const { return dims_.size(); }
  const std::vector<int64_t>& GetDims() const { return dims_; }
  // 0 when idx is out of range (GE returns 0 there too, rather than failing).
  int64_t GetDim(size_t idx) const { return idx < dims_.size() ? dims_[idx] : 0; }
  // Returns false (and changes nothing) when idx is out of range.
  bool SetDim(size_t idx, int64_t value) {
    if (idx >= dims_.size()) return false;
    dims_[idx] = value;
    return true;
  }

  // Product of the dimensions. 0 for a shape with no dimensions or when the product overflows
  // int64; -1 when any dimension is unknown (-1 or -2). Negative or zero dimensions simply
  // enter the product.
  int64_t GetShapeSize() const {
    if (dims_.empty()) return 0;
    for (int64_t d : dims_) {
      if (d == kUnknownDim || d == kUnknownDimNum) return -1;
    }
    int64_t size = 1;
    for (int64_t d : dims_) {
      if (__builtin_mul_overflow(size, d, &size)) return 0;
    }
    return size;
  }

  bool operator==(const Shape& other) const = default;

 private:
  std::vector<int64_t> dims_;
};

}  // namespace ge
