// optiling::TilingDef and the tiling-data definition macros of Ascend C host code
// (BEGIN_TILING_DATA_DEF, TILING_DATA_FIELD_DEF, TILING_DATA_FIELD_DEF_ARR,
// TILING_DATA_FIELD_DEF_STRUCT, END_TILING_DATA_DEF, REGISTER_TILING_DATA_CLASS).
//
// A class defined with these macros holds its fields in a byte image laid out like the
// matching plain C++ struct: fields in declaration order, each at its natural alignment, the
// total padded to the largest alignment. SaveToBuffer copies that image, so a kernel can read
// it as the plain struct (e.g. AscendC::tiling::LayerNormGradTiling).
//
// Objects are copyable; copies are independent.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <vector>

namespace optiling {

class TilingDef {
 public:
  virtual ~TilingDef() = default;

  // Bytes of the serialised image (== sizeof of the matching plain struct).
  size_t GetDataSize() const { return data_.size(); }

  // Copies the image to pData. When pData is null or capacity < GetDataSize() nothing is
  // written, an error is printed on stderr and lngrad::tiling::LastTilingStatus() reports it;
  // otherwise LastTilingStatus() is OK. Bytes of pData past GetDataSize() are not touched.
  void SaveToBuffer(void* pData, size_t capacity) const;

  // The image as it would be saved (nested structs included).
  std::vector<uint8_t> GetImage() const {
    std::vector<uint8_t> out(data_.size());
    WriteImage(out.data());
    return out;
  }

 protected:
  TilingDef() = default;
  TilingDef(const TilingDef&) = default;
  TilingDef& operator=(const TilingDef&) = default;

  // Reserves a field at the next offset aligned to `align`; returns its offset.
  size_t AddField(size_t size, size_t align) {
    const size_t offset = (used_ + align - 1) / align * align;
    used_ = offset + size;
    align_ = std::max(align_, align);
    data_.resize((used_ + align_ - 1) / align_ * align_, 0);
    return offset;
  }

  // A nested TilingDef member: its image is copied in at save time. The member is located by
  // its byte distance from this object, which stays valid in copies (same class layout).
  size_t AddStruct(const TilingDef& child) {
    const size_t offset = AddField(child.GetDataSize(), child.align_);
    nested_.push_back(
        {offset, reinterpret_cast<const char*>(&child) - reinterpret_cast<const char*>(this)});
    return offset;
  }

  template <class T>
  void Store(size_t offset, const T& value) {
    std::memcpy(data_.data() + offset, &value, sizeof(T));
  }
  template <class T>
  T Load(size_t offset) const {
    T value;
    std::memcpy(&value, data_.data() + offset, sizeof(T));
    return value;
  }
  template <class T>
  T* ArrayAt(size_t offset) {
    return reinterpret_cast<T*>(data_.data() + offset);
  }

 private:
  struct Nested {
    size_t offset;
    std::ptrdiff_t delta;
  };

  void WriteImage(uint8_t* out) const {
    if (!data_.empty()) std::memcpy(out, data_.data(), data_.size());
    for (const Nested& n : nested_) {
      const auto* child =
          reinterpret_cast<const TilingDef*>(reinterpret_cast<const char*>(this) + n.delta);
      child->WriteImage(out + n.offset);
    }
  }

  std::vector<uint8_t> data_;
  std::vector<Nested> nested_;
  size_t used_ = 0;
  size_t align_ = 1;
};

}  // namespace optiling

#define BEGIN_TILING_DATA_DEF(class_name)           \
  class class_name : public ::optiling::TilingDef { \
   public:                                          \
    class_name() = default;

// Scalar field: set_<name>(value), get_<name>().
#define TILING_DATA_FIELD_DEF(data_type, field_name)                                   \
 public:                                                                               \
  void set_##field_name(data_type field_name##_value) {                                \
    Store(field_name##_offset_, field_name##_value);                                   \
  }                                                                                    \
  data_type get_##field_name() const { return Load<data_type>(field_name##_offset_); } \
                                                                                       \
 private:                                                                              \
  size_t field_name##_offset_ = AddField(sizeof(data_type), alignof(data_type));

// Array field of arr_size elements: set_<name>(const T*) copies arr_size elements,
// get_<name>() points into the image.
#define TILING_DATA_FIELD_DEF_ARR(arr_type, arr_size, field_name)                  \
 public:                                                                           \
  void set_##field_name(const arr_type* field_name##_values) {                     \
    std::memcpy(ArrayAt<arr_type>(field_name##_offset_), field_name##_values,      \
                sizeof(arr_type) * (arr_size));                                    \
  }                                                                                \
  arr_type* get_##field_name() { return ArrayAt<arr_type>(field_name##_offset_); } \
                                                                                   \
 private:                                                                          \
  size_t field_name##_offset_ = AddField(sizeof(arr_type) * (arr_size), alignof(arr_type));

// Nested tiling struct, a public member named field_name (as in Ascend C host code).
#define TILING_DATA_FIELD_DEF_STRUCT(struct_type, field_name) \
 public:                                                      \
  struct_type field_name;                                     \
                                                              \
 private:                                                     \
  size_t field_name##_offset_ = AddStruct(field_name);

#define END_TILING_DATA_DEF }

// lngrad: a tiling data class whose scalar fields are the X-macro list FIELDS, X(type, name)
// (kernel_tiling.h's LNGRAD_*_TILING_FIELDS), so that the class and the kernel struct it
// serialises to have one field list.
#define LNGRAD_TILING_DATA_DEF_FROM_FIELDS(class_name, FIELDS) \
  BEGIN_TILING_DATA_DEF(class_name)                            \
  FIELDS(TILING_DATA_FIELD_DEF)                                \
  END_TILING_DATA_DEF

// Registration has no effect on the CPU; it only checks that class_name is a tiling class.
// The expansion is a complete declaration, so the vendor's spelling without a trailing semicolon
// works, and one written after it is an empty declaration.
#define REGISTER_TILING_DATA_CLASS(op_type, class_name)               \
  static_assert(std::is_base_of_v<::optiling::TilingDef, class_name>, \
                #class_name " is not a tiling data class");
