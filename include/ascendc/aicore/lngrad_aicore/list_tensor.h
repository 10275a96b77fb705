// lngrad Ascend C runtime: ListTensorDesc and TensorDesc (the vendor's
// kernel_operator_list_tensor_intf.h), the decoder of a dynamic list of GM tensors that a
// kernel receives as one GM pointer.
//
// The list's GM layout (uint64 words): word 0 is the byte offset of the data pointers from the
// start; then one description per tensor, each (1 + dim) words: the first holds dim in its low
// 32 bits and, in the first description only when not 0, the tensor count in its high 32 bits
// (otherwise the last description's high bits hold its index, so count = that + 1), then dim
// shape words; then the count data pointers. dim == 0 lists use a 2-word description.
// GetDataPtr(i) reads data pointer i; GetDesc(desc, i) fills desc's dim, index, data pointer
// and copies the dim shape words into the buffer desc.SetShapeAddr gave it.
//
// Checked mode refuses (check "list_tensor") what the device's ASSERTs refuse: a null list, a
// count that does not match the offset, an index past the count, GetDesc on a dim-0 list or
// with no shape buffer, and length / shapeSize arguments that disagree with the list.
#pragma once

#include <cstdint>
#include <string>

#include "lngrad_aicore/check.h"
#include "lngrad_aicore/defs.h"
#include "lngrad_aicore/tensor.h"

namespace lngrad::aicore::checks {
inline constexpr const char* kListTensor = "list_tensor";  // a malformed list or a bad index
}  // namespace lngrad::aicore::checks

namespace lngrad::aicore::list_detail {
inline void Require(bool ok, const std::string& rule) {
  if (ok || !CheckedMode()) return;
  RaiseKernelCheck(checks::kListTensor, "ListTensorDesc: " + rule);
}
}  // namespace lngrad::aicore::list_detail

namespace AscendC {

class ListTensorDesc;

template <class T>
class TensorDesc {
 public:
  TensorDesc() = default;
  void SetShapeAddr(uint64_t* shapePtr) {
    lngrad::aicore::list_detail::Require(shapePtr != nullptr, "SetShapeAddr with a null buffer");
    shape_ = shapePtr;
  }
  uint64_t GetDim() { return dim_; }
  uint64_t GetIndex() { return index_; }
  uint64_t GetShape(uint32_t offset) {
    lngrad::aicore::list_detail::Require(
        offset < dim_,
        "GetShape offset " + std::to_string(offset) + " is not below dim " + std::to_string(dim_));
    return shape_[offset];
  }
  __gm__ T* GetDataPtr() { return ptr_; }
  GlobalTensor<T> GetDataObj() {
    uint64_t size = sizeof(T);  // the toolkit's size: sizeof(T) times the shape's product
    for (uint32_t i = 0; i < dim_; ++i) size *= shape_[i];
    GlobalTensor<T> obj;
    obj.SetGlobalBuffer(ptr_, size);
    return obj;
  }

 private:
  friend class ListTensorDesc;
  uint32_t dim_ = 0;
  uint32_t index_ = 0;
  uint64_t* shape_ = nullptr;
  __gm__ T* ptr_ = nullptr;
};

class ListTensorDesc {
 public:
  ListTensorDesc() = default;
  ListTensorDesc(__gm__ void* data, uint32_t length = 0xffffffff, uint32_t shapeSize = 0xffffffff) {
    Init(data, length, shapeSize);
  }

  void Init(__gm__ void* data, uint32_t length = 0xffffffff, uint32_t shapeSize = 0xffffffff) {
    namespace ld = lngrad::aicore::list_detail;
    ld::Require(data != nullptr, "a null list");
    if (data == nullptr) return;
    auto* words = static_cast<__gm__ uint64_t*>(data);
    const uint64_t ptr_offset = words[0];
    shapes_ = words + 1;
    ptrs_ = words + ptr_offset / sizeof(uint64_t);
    dim_ = static_cast<uint32_t>(shapes_[0] & 0xffffffffu);
    const auto first_count = static_cast<uint32_t>(shapes_[0] >> 32);
    desc_words_ = dim_ == 0 ? 2 : 1 + dim_;
    count_ =
        first_count != 0 ? first_count : static_cast<uint32_t>(*(ptrs_ - desc_words_) >> 32) + 1;
    const bool consistent =
        dim_ != 0 ? count_ == (ptr_offset - sizeof(uint64_t)) / (desc_words_ * sizeof(uint64_t))
                  : shapes_[1] == 0xffffffffu && ptr_offset == 24;
    ld::Require(consistent, "the tensor count " + std::to_string(count_) +
                                " does not match the data pointers' offset " +
                                std::to_string(ptr_offset));
    if (length != 0xffffffffu && shapeSize != 0xffffffffu) {
      ld::Require(count_ == shapeSize, "shapeSize " + std::to_string(shapeSize) +
                                           " is not the tensor count " + std::to_string(count_));
      ld::Require(length == ptr_offset + count_ * sizeof(uint64_t),
                  "length " + std::to_string(length) + " is not the list's byte length");
    }
  }

  template <class T>
  void GetDesc(TensorDesc<T>& desc, uint32_t index) {
    RequireIndex(index);
    lngrad::aicore::list_detail::Require(dim_ != 0, "GetDesc on a list of dim-0 tensors");
    lngrad::aicore::list_detail::Require(desc.shape_ != nullptr,
                                         "GetDesc before the TensorDesc's SetShapeAddr");
    desc.dim_ = dim_;
    desc.index_ = index;
    desc.ptr_ = GetDataPtr<T>(index);
    const __gm__ uint64_t* shape = shapes_ + uint64_t{index} * desc_words_ + 1;
    for (uint32_t i = 0; i < dim_ && desc.shape_ != nullptr; ++i) desc.shape_[i] = shape[i];
  }

  template <class T>
  __gm__ T* GetDataPtr(uint32_t index) {
    RequireIndex(index);
    return reinterpret_cast<__gm__ T*>(static_cast<uintptr_t>(ptrs_[index]));
  }

  uint32_t GetSize() { return count_; }

 private:
  void RequireIndex(uint32_t index) const {
    lngrad::aicore::list_detail::Require(index < count_, "index " + std::to_string(index) +
                                                             " is not below the tensor count " +
                                                             std::to_string(count_));
  }

  __gm__ uint64_t* ptrs_ = nullptr;
  __gm__ uint64_t* shapes_ = nullptr;
  uint32_t dim_ = 0;
  uint32_t desc_words_ = 0;
  uint32_t count_ = 0;
};

}  // namespace AscendC
