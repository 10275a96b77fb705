#include "io/tensor.h"

#include <bit>
#include <charconv>
#include <cmath>
#include <iterator>

namespace lngrad::io {

namespace {

// Indexed by DType.
constexpr DTypeTraits kDTypeTraits[] = {
    {"float16", 2, "<f2", 11, -13},
    {"float32", 4, "<f4", 24, -125},
    {"float64", 8, "<f8", 53, -1021},
    {"bfloat16", 2, "", 8, -125},
};
static_assert(std::size(kDTypeTraits) == std::size(kAllDTypes));

}  // namespace

const DTypeTraits& TraitsOf(DType t) {
  static constexpr DTypeTraits kUnknown = {"?", 0, "?", 0, 0};
  const auto i = static_cast<size_t>(t);
  return i < std::size(kDTypeTraits) ? kDTypeTraits[i] : kUnknown;
}

const char* DTypeName(DType t) { return TraitsOf(t).name; }

size_t DTypeSize(DType t) { return TraitsOf(t).size; }

Status ParseDType(std::string_view text, DType* out) {
  if (text == "float" || text == "float32" || text == "f4" || text == "fp32") {
    *out = DType::kFloat32;
  } else if (text == "half" || text == "float16" || text == "f2" || text == "fp16") {
    *out = DType::kFloat16;
  } else if (text == "double" || text == "float64" || text == "f8" || text == "fp64") {
    *out = DType::kFloat64;
  } else if (text == "bf16" || text == "bfloat16") {
    *out = DType::kBFloat16;
  } else {
    return Status::InvalidArgument("dtype \"" + std::string(text) +
                                   "\" is not supported (use float, half, bf16 or float64)");
  }
  return Status::Ok();
}

Status ElementCount(const std::vector<int64_t>& shape, int64_t* count) {
  int64_t n = 1;
  for (int64_t d : shape) {
    if (d < 0) return Status::OutOfRange("shape " + ShapeText(shape) + " has a negative dimension");
    if (d != 0 && n > kMaxElements / d) {
      return Status::OutOfRange("shape " + ShapeText(shape) + " has more than 2^40 elements");
    }
    n *= d;
  }
  *count = n;
  return Status::Ok();
}

Status ParseShape(std::string_view text, std::string_view what, std::vector<int64_t>* out,
                  bool allow_zero) {
  const std::string name(what);
  std::vector<int64_t> dims;
  size_t pos = 0;
  if (text.empty()) return Status::InvalidArgument(name + " is empty (expected e.g. 2,32,16)");
  while (true) {
    const size_t comma = text.find(',', pos);
    const std::string_view item =
        text.substr(pos, comma == std::string_view::npos ? std::string_view::npos : comma - pos);
    int64_t v = -1;
    const auto [end, ec] = std::from_chars(item.data(), item.data() + item.size(), v);
    if (ec == std::errc::result_out_of_range && end == item.data() + item.size() &&
        item.front() == '-') {
      v = -1;  // below int64: reported by the ">= 1" rule below
    } else if (ec == std::errc::result_out_of_range && end == item.data() + item.size()) {
      // All digits, but beyond int64: the rule it broke is the size limit, not the syntax.
      return Status::OutOfRange(name + " \"" + std::string(text) + "\": dimension \"" +
                                std::string(item) +
                                "\" is too large (a tensor has at most 2^40 elements)");
    } else if (item.empty() || ec != std::errc() || end != item.data() + item.size()) {
      return Status::InvalidArgument(name + " \"" + std::string(text) + "\": \"" +
                                     std::string(item) +
                                     "\" is not a non-negative integer (expected e.g. 2,32,16)");
    }
    if (v < 0 || (v == 0 && !allow_zero)) {
      return Status::InvalidArgument(name + " \"" + std::string(text) +
                                     "\": every dimension must be >= 1");
    }
    dims.push_back(v);
    if (comma == std::string_view::npos) break;
    pos = comma + 1;
  }
  int64_t count = 0;
  if (Status st = ElementCount(dims, &count); !st.ok()) {
    return Status::OutOfRange(name + ": " + st.message());
  }
  *out = std::move(dims);
  return Status::Ok();
}

std::string ShapeText(const std::vector<int64_t>& shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i) s += ',';
    s += std::to_string(shape[i]);
  }
  return s + "]";
}

std::string IndexText(const std::vector<int64_t>& shape, int64_t flat) {
  std::vector<int64_t> idx(shape.size(), 0);
  for (size_t k = shape.size(); k-- > 0;) {
    if (shape[k] > 0) {
      idx[k] = flat % shape[k];
      flat /= shape[k];
    }
  }
  return ShapeText(idx);
}

namespace {

// d rounded to odd as a float: truncated toward zero, the last bit set when inexact. A float
// keeps 13 more bits than a half and 16 more than a bfloat16, so the final rounding to either
// sees the true sticky information (one correct rounding of d). |d| must be below the float
// overflow threshold; NaN stays NaN.
float RoundToOddFloat(double d) {
  float f = static_cast<float>(d);
  if (!std::isnan(d) && static_cast<double>(f) != d) {
    if (std::fabs(static_cast<double>(f)) > std::fabs(d)) f = std::nextafter(f, 0.0f);
    f = std::bit_cast<float>(std::bit_cast<uint32_t>(f) | 1u);
  }
  return f;
}

}  // namespace

uint16_t DoubleToHalfBits(double d) {
  // 65520 is the midpoint between the largest half (65504) and 2^16; ties go to even = inf.
  if (std::fabs(d) >= 65520.0) return d < 0 ? 0xFC00u : 0x7C00u;
  return FloatToHalfBits(RoundToOddFloat(d));
}

uint16_t DoubleToBFloat16Bits(double d) {
  // The midpoint between the largest bfloat16 (0x7F7F, (2 - 2^-7) * 2^127) and 2^128 goes to
  // even = inf, as everything above it; below it float holds the value (or its round to odd).
  constexpr double kOverflow = 0x1.ffp127;  // (2 - 2^-8) * 2^127
  if (std::fabs(d) >= kOverflow) return d < 0 ? 0xFF80u : 0x7F80u;
  return FloatToBFloat16Bits(RoundToOddFloat(d));
}

Tensor::Tensor(DType dtype, std::vector<int64_t> shape) : dtype_(dtype), shape_(std::move(shape)) {
  size_ = 1;
  for (int64_t d : shape_) size_ *= d;
  const size_t n = static_cast<size_t>(size_);
  switch (dtype_) {
    case DType::kFloat16:
      f16_.assign(n, Half{});
      break;
    case DType::kBFloat16:
      bf16_.assign(n, BFloat16{});
      break;
    case DType::kFloat32:
      f32_.assign(n, 0.0f);
      break;
    case DType::kFloat64:
      f64_.assign(n, 0.0);
      break;
  }
}

double Tensor::Get(int64_t i) const {
  const size_t k = static_cast<size_t>(i);
  switch (dtype_) {
    case DType::kFloat16:
      return static_cast<double>(f16_[k].ToFloat());
    case DType::kBFloat16:
      return static_cast<double>(bf16_[k].ToFloat());
    case DType::kFloat32:
      return static_cast<double>(f32_[k]);
    case DType::kFloat64:
      return f64_[k];
  }
  return 0;
}

void Tensor::Set(int64_t i, double v) {
  const size_t k = static_cast<size_t>(i);
  switch (dtype_) {
    case DType::kFloat16:
      f16_[k] = Half::FromBits(DoubleToHalfBits(v));
      break;
    case DType::kBFloat16:
      bf16_[k] = BFloat16::FromBits(DoubleToBFloat16Bits(v));
      break;
    case DType::kFloat32:
      f32_[k] = static_cast<float>(v);
      break;
    case DType::kFloat64:
      f64_[k] = v;
      break;
  }
}

void* Tensor::RawData() {
  switch (dtype_) {
    case DType::kFloat16:
      return f16_.data();
    case DType::kBFloat16:
      return bf16_.data();
    case DType::kFloat32:
      return f32_.data();
    case DType::kFloat64:
      return f64_.data();
  }
  return nullptr;
}

const void* Tensor::RawData() const { return const_cast<Tensor*>(this)->RawData(); }

Tensor Tensor::ConvertedTo(DType dtype) const {
  Tensor t(dtype, shape_);
  for (int64_t i = 0; i < size_; ++i) t.Set(i, Get(i));
  return t;
}

Status Tensor::Reshape(std::vector<int64_t> shape) {
  int64_t count = 0;
  LNGRAD_RETURN_IF_ERROR(ElementCount(shape, &count));
  if (count != size_) {
    return Status::InvalidArgument("cannot reshape " + ShapeText(shape_) + " to " +
                                   ShapeText(shape) + ": element counts differ");
  }
  shape_ = std::move(shape);
  return Status::Ok();
}

NonFinite FindNonFinite(const Tensor& t) {
  NonFinite r;
  for (int64_t i = 0; i < t.size(); ++i) {
    const double v = t.Get(i);
    if (std::isfinite(v)) continue;
    if (std::isnan(v)) {
      ++r.nan_count;
    } else {
      ++r.inf_count;
    }
    if (r.first_index < 0) r.first_index = i;
  }
  return r;
}

}  // namespace lngrad::io
