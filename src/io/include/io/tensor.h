// lngrad_io: in-memory tensors for the data tools (the CLI), independent of any file format.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "lngrad/half.h"
#include "lngrad/status.h"

namespace lngrad::io {

// Element types the data tools handle. float64 is accepted on input only by the CLI (the
// library can write it; the kernels never take it). bfloat16 has no .npy form (NumPy has no
// such type): it is read and written as raw .bin only.
enum class DType { kFloat16, kFloat32, kFloat64, kBFloat16 };
inline constexpr DType kAllDTypes[] = {DType::kFloat16, DType::kFloat32, DType::kFloat64,
                                       DType::kBFloat16};

// What each format and tool says about one element type.
struct DTypeTraits {
  const char* name;       // "float16", "float32", "float64", "bfloat16"
  size_t size;            // bytes per element: 2, 4, 8, 2
  const char* npy_descr;  // the .npy header's little-endian descr: "<f2", "<f4", "<f8"; "" none
  int digits;             // significand bits, the implicit one included: 11, 24, 53, 8
  int min_exp;            // frexp exponent of the smallest normal: -13, -125, -1021, -125
};
// {"?", 0, "?"} for a value outside the enum.
const DTypeTraits& TraitsOf(DType t);

const char* DTypeName(DType t);
size_t DTypeSize(DType t);
// Accepts float|float32|f4|fp32, half|float16|f2|fp16, double|float64|f8|fp64,
// bf16|bfloat16.
// InvalidArgument naming the text otherwise.
Status ParseDType(std::string_view text, DType* out);

// Largest element count any tensor may have (keeps byte sizes far from size_t overflow).
inline constexpr int64_t kMaxElements = int64_t{1} << 40;

// Parses "2,32,16" into {2,32,16}. Every dimension must be a decimal integer >= 1 (or >= 0
// when allow_zero); the product must not exceed kMaxElements. `what` names the argument in the
// error message (e.g. "--shape").
Status ParseShape(std::string_view text, std::string_view what, std::vector<int64_t>* out,
                  bool allow_zero = false);
// "[2,32,16]" ("[]" for a 0-d tensor).
std::string ShapeText(const std::vector<int64_t>& shape);
// Product of the dimensions (1 for a 0-d tensor). OutOfRange when it exceeds kMaxElements or a
// dimension is negative.
Status ElementCount(const std::vector<int64_t>& shape, int64_t* count);
// Row-major multi-index of flat element `flat`, as "[b,s,h]".
std::string IndexText(const std::vector<int64_t>& shape, int64_t flat);

// binary64 -> binary16 with one correct round-to-nearest-even (no double rounding through
// float: the intermediate float is rounded to odd). Overflow gives +-inf, NaN stays NaN.
uint16_t DoubleToHalfBits(double d);
// binary64 -> bfloat16, the same way (round to odd through float, then to nearest even).
uint16_t DoubleToBFloat16Bits(double d);

// A dense, row-major tensor. Exactly one of the storage vectors is used, chosen by dtype;
// values are held in the host's native byte order.
class Tensor {
 public:
  Tensor() = default;
  // Zero-filled tensor. The shape's element count must already be valid (see ElementCount).
  Tensor(DType dtype, std::vector<int64_t> shape);

  DType dtype() const { return dtype_; }
  const std::vector<int64_t>& shape() const { return shape_; }
  int64_t size() const { return size_; }
  size_t ByteSize() const { return static_cast<size_t>(size_) * DTypeSize(dtype_); }

  // Value of element i, exactly (every float16/32/64 and bfloat16 value is a double).
  double Get(int64_t i) const;
  // Stores v rounded once to the dtype (round to nearest even).
  void Set(int64_t i, double v);

  // Typed storage; the vector of another dtype is empty.
  std::vector<Half>& f16() { return f16_; }
  std::vector<BFloat16>& bf16() { return bf16_; }
  std::vector<float>& f32() { return f32_; }
  std::vector<double>& f64() { return f64_; }
  const std::vector<Half>& f16() const { return f16_; }
  const std::vector<BFloat16>& bf16() const { return bf16_; }
  const std::vector<float>& f32() const { return f32_; }
  const std::vector<double>& f64() const { return f64_; }
  // The element bytes in the host's byte order (ByteSize() bytes).
  void* RawData();
  const void* RawData() const;

  // A copy with every value converted (rounded once) to `dtype`.
  Tensor ConvertedTo(DType dtype) const;
  // Gives the same elements a new shape; InvalidArgument (tensor unchanged) when the element
  // counts differ.
  Status Reshape(std::vector<int64_t> shape);

 private:
  DType dtype_ = DType::kFloat32;
  std::vector<int64_t> shape_;
  int64_t size_ = 0;
  std::vector<Half> f16_;
  std::vector<BFloat16> bf16_;
  std::vector<float> f32_;
  std::vector<double> f64_;
};

// Non-finite values of a tensor: how many, and the first one's flat index (-1 if none).
struct NonFinite {
  int64_t nan_count = 0;
  int64_t inf_count = 0;
  int64_t first_index = -1;
};
NonFinite FindNonFinite(const Tensor& t);

}  // namespace lngrad::io
