// lngrad Ascend C runtime: positions, data formats, LocalTensor and GlobalTensor.
//
// A LocalTensor is a view of the simulated Unified Buffer (UB) of the running block. Invariant
// kept in both checked and unchecked mode: a non-empty LocalTensor's elements lie inside the
// block's UB, so no access through it can reach host memory outside the UB.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "check.h"
#include "defs.h"
#include "half.h"
#include "lngrad/ascendc_enums.h"
#include "local_memory.h"
#include "sanitizer.h"

namespace AscendC {

// Logical buffer positions (spec §6.1 order).
enum class TPosition : uint8_t {
  LNGRAD_ASCENDC_TPOSITIONS(LNGRAD_ENUMERATOR, LNGRAD_ENUMERATOR_ALIAS) C2PIPE2GM,
  C2PIPE2LOCAL,
  MAX,
};
using QuePosition = TPosition;

// Also declared by the host's tiling/transform/transdata_tiling.h, for code that includes both
// (a .asc file's host and device parts): the toolkit's guard keeps one definition.
#ifndef ASCC_ENUM_DATAFORMAT
#define ASCC_ENUM_DATAFORMAT
enum class DataFormat : uint8_t {
  ND = 0,
  NZ,
  NCHW,
  NC1HWC0,
  NHWC,
  NCDHW,
  NDC1HWC0,
  FRACTAL_Z_3D,
};
#endif  // ASCC_ENUM_DATAFORMAT

// The positions backed by the Unified Buffer: the only ones the simulator models.
constexpr bool IsUbPosition(TPosition p) {
  return p == TPosition::VECIN || p == TPosition::VECOUT || p == TPosition::VECCALC;
}
const char* PositionName(TPosition p) noexcept;

inline constexpr int32_t K_MAX_SHAPE_DIM = 8;

struct ShapeInfo {
  ShapeInfo() = default;
  ShapeInfo(uint8_t inputShapeDim, const uint32_t inputShape[], uint8_t inputOriginalShapeDim,
            const uint32_t inputOriginalShape[], DataFormat inputFormat)
      : shapeDim(inputShapeDim), originalShapeDim(inputOriginalShapeDim), dataFormat(inputFormat) {
    for (int i = 0; i < K_MAX_SHAPE_DIM; ++i) {
      shape[i] = i < shapeDim ? inputShape[i] : 0;
      originalShape[i] = i < originalShapeDim ? inputOriginalShape[i] : 0;
    }
  }
  ShapeInfo(uint8_t inputShapeDim, const uint32_t inputShape[], DataFormat inputFormat)
      : ShapeInfo(inputShapeDim, inputShape, inputShapeDim, inputShape, inputFormat) {}
  ShapeInfo(uint8_t inputShapeDim, const uint32_t inputShape[])
      : ShapeInfo(inputShapeDim, inputShape, inputShapeDim, inputShape, DataFormat::ND) {}

  uint8_t shapeDim = 0;
  uint8_t originalShapeDim = 0;
  uint32_t shape[K_MAX_SHAPE_DIM] = {};
  uint32_t originalShape[K_MAX_SHAPE_DIM] = {};
  DataFormat dataFormat = DataFormat::ND;
};

// Product of the first shapeDim dims (0 for an empty shape).
inline uint64_t GetShapeSize(const ShapeInfo& s) {
  if (s.shapeDim == 0) return 0;
  uint64_t n = 1;
  for (int i = 0; i < s.shapeDim && i < K_MAX_SHAPE_DIM; ++i) n *= s.shape[i];
  return n;
}

template <typename T>
class LocalTensor;
template <typename T>
class GlobalTensor;

}  // namespace AscendC

namespace lngrad::aicore::detail {

// What the out-of-line check helpers need to know about a LocalTensor.
struct TensorView {
  const std::byte* ptr;
  uint64_t size_bytes;
  const std::byte* ub;
  uint32_t ub_size;
  AscendC::TPosition pos;
};

// A tensor's ShapeInfo that costs nothing until set. Tensors are created on every AllocTensor,
// DeQue and operator[], and zero-filling the 70-byte ShapeInfo each time took about 3 % of the
// LayerNormGrad operator's time (bench_ascendc, 4096 x 768); kernels rarely set it.
class LazyShapeInfo {
 public:
  LazyShapeInfo() noexcept {}
  void Set(const AscendC::ShapeInfo& s) {
    info_ = s;
    set_ = true;
  }
  AscendC::ShapeInfo Get() const { return set_ ? info_ : AscendC::ShapeInfo{}; }

 private:
  bool set_ = false;
  union {
    AscendC::ShapeInfo info_;  // valid when set_
  };
};

// The TPipe buffer block a LocalTensor was carved from; used for FreeTensor/EnQue ownership and
// for the SetSize limit.
struct TensorBuffer {
  std::byte* begin = nullptr;
  std::byte* end = nullptr;
  const void* owner = nullptr;  // the TQue/TBuf/stack that handed it out
  int32_t index = -1;           // block index inside a queue
};

// Slow path when [elem_offset, elem_offset + count) is not inside the tensor: raises
// kTensorBounds in checked mode; in unchecked mode raises kUbBounds if the range leaves the UB
// and otherwise returns (the access proceeds, like on the device).
void OnTensorOverrun(const TensorView& v, uint64_t elem_offset, uint64_t count, uint32_t elem_size,
                     const char* api);
// Always raises kUbBounds unless [ub_offset, ub_offset + bytes) is inside the UB of `v`.
void RequireInsideUb(const TensorView& v, int64_t ub_offset, uint64_t bytes, const char* api);
// A GM region the runtime knows: GmAlloc, pooled or registered memory (bytes as requested).
// bytes == 0: memory the runtime does not know.
struct GmRegionSpan {
  const std::byte* begin = nullptr;
  uint64_t bytes = 0;
};
// Raises kGmBounds if [p, p + bytes) starts inside a GM region the runtime knows and no such
// region holds all of it. Returns the region that holds it.
GmRegionSpan CheckGmAllocRange(const void* p, uint64_t bytes, const char* api);
// The GM-side checks of a GlobalTensor access (size in checked mode, GM regions always).
// Returns what CheckGmAllocRange returns.
GmRegionSpan CheckGlobalRange(const void* base, uint64_t size_elems, bool size_known,
                              uint64_t elem_offset, uint64_t count, uint32_t elem_size,
                              const char* api);

// The sanitizer's record of a scalar-pipe read or write of one element (GetValue, SetValue).
inline void RecordScalarAccess(const char* api, const void* p, uint64_t bytes, bool write,
                               bool auto_synced, SrcLoc loc) {
  san::Instr in(Pipe::kS, api, loc);
  if (in) {
    if (auto_synced) in.AutoSynced();
    if (write) {
      in.Write(p, bytes);
    } else {
      in.Read(p, bytes);
    }
  }
}

// The scalar load of one element (GetValue): a bool is its byte, nonzero true (the byte is
// read as such: a C++ bool load of a byte other than 0 or 1 is undefined).
template <typename T>
T ReadElement(const T* p) {
  if constexpr (std::is_same_v<T, bool>) {
    return *reinterpret_cast<const unsigned char*>(p) != 0;
  } else {
    return *p;
  }
}

struct TensorAccess;

}  // namespace lngrad::aicore::detail

namespace lngrad::aicore {

// What LocalTensor::GetPhyAddr returns: the UB byte address (offset from the block's UB base, as
// on the device) wherever an integer is wanted; cast to a pointer, as kernels write
// (__ubuf__ T*)t.GetPhyAddr(), the host address of those bytes (what CANN's CPU debug returns).
// The sanitizer cannot see accesses through that pointer: the cast records the bytes from there
// to the tensor's end as written by the scalar pipe in the compiler's auto-sync set, so
// initcheck does not report what the kernel fills that way (nor reads of bytes nothing wrote).
struct UbAddr {
  uint64_t offset = 0;
  std::byte* host = nullptr;
  uint64_t bytes = 0;
  constexpr operator uint64_t() const noexcept { return offset; }
  template <typename U>
  explicit operator U*() const {
    if (host != nullptr && bytes != 0) {
      detail::RecordScalarAccess("GetPhyAddr (raw UB pointer)", host, bytes, true, true,
                                 SrcLoc::Current());
    }
    return reinterpret_cast<U*>(host);
  }
};

// reinterpret_cast<__ubuf__ T*>(x), as lngrad-asc rewrites it (C++ refuses a reinterpret_cast
// of a class): a UbAddr (t.GetPhyAddr()) converts as the C-style cast does, anything else as
// reinterpret_cast.
template <typename P, typename A>
P UbCast(const A& a) {
  if constexpr (std::is_same_v<A, UbAddr>) {
    return static_cast<P>(a);
  } else {
    return reinterpret_cast<P>(a);
  }
}

}  // namespace lngrad::aicore

namespace AscendC {
// GlobalTensor::SetL2CacheHint's modes and its (reserved) read/write template argument.
enum class CacheMode : uint8_t {
  CACHE_MODE_DISABLE = 0,
  CACHE_MODE_NORMAL = 1,
  CACHE_MODE_LAST = 2,
  CACHE_MODE_PERSISTENT = 4,
};
enum class CacheRwMode : uint8_t { READ = 1, WRITE = 2, RW = 3 };
}  // namespace AscendC

namespace lngrad::aicore::detail {
// SetL2CacheHint's rules (checked mode): a product that has the API (Atlas A2/A3 and the 950,
// "SetL2CacheHint.unsupported_product" naming the SoC) and a documented mode (PERSISTENT on the
// 950 only, "l2_cache_mode").
void CheckL2CacheHint(AscendC::CacheMode mode, SrcLoc loc);
}  // namespace lngrad::aicore::detail

namespace AscendC {

// A tensor in the block's Unified Buffer. T: any trivially copyable element type (half, float,
// int32_t, uint8_t, ...). Sizes are in elements, addresses (GetPhyAddr) in UB bytes.
template <typename T>
class LocalTensor {
  static_assert(std::is_trivially_copyable_v<T>,
                "LocalTensor element type must be trivially copyable");

 public:
  using PrimType = T;

  LocalTensor() = default;
  // A tensor of tileSize elements at UB byte address addr of the running block (static
  // allocation, not managed by TPipe).
  LocalTensor(TPosition pos, uint32_t addr, uint32_t tileSize);
  // dst = src0 + src1 and the other whole-tensor operators (tensor_expr.h): runs the
  // instruction into this tensor.
  template <class Expr>
  requires requires(const Expr& e, const LocalTensor& d) { e.AssignTo(d); }
  LocalTensor& operator=(const Expr& e) {
    e.AssignTo(*this);
    return *this;
  }

  uint32_t GetSize() const { return size_; }
  // Bytes covered by the tensor.
  uint32_t GetLength() const { return static_cast<uint32_t>(lngrad::aicore::ElemBytes<T>(size_)); }
  // Changes the element count. Checked mode: may not grow past the tensor's TPipe buffer.
  // Both modes: may not reach outside the UB.
  void SetSize(uint32_t size);
  int32_t GetPosition() const { return static_cast<int32_t>(pos_); }

  // UB byte address of element 0 (offset from the block's UB base, as on the device).
  // Converts to uint64_t; cast to a pointer it is the host address (lngrad::aicore::UbAddr).
  lngrad::aicore::UbAddr GetPhyAddr() const {
    if (ptr_ == nullptr) return {};
    return {static_cast<uint64_t>(Bytes() - ub_), const_cast<std::byte*>(Bytes()),
            uint64_t{GetLength()}};
  }
  lngrad::aicore::UbAddr GetPhyAddr(uint32_t offset) const {
    lngrad::aicore::UbAddr a = GetPhyAddr();
    const uint64_t d = lngrad::aicore::ElemBytes<T>(offset);
    a.offset += d;
    if (a.host != nullptr) {
      a.host += d;
      a.bytes = a.bytes > d ? a.bytes - d : 0;
    }
    return a;
  }
  // lngrad extension: host address of element 0 (nullptr for an empty tensor).
  T* HostPtr() const { return ptr_; }

  // Element access runs on the scalar pipe (S). operator() hands out a reference, so the
  // sanitizer counts it as a write (it cannot tell a read through it).
  T GetValue(uint32_t index, lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) const {
    Access(index, 1, "LocalTensor::GetValue");
    ScalarAccess("LocalTensor::GetValue", index, false, loc);
    return lngrad::aicore::detail::ReadElement(ptr_ + index);
  }
  template <typename U>
  void SetValue(uint32_t index, const U value,
                lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) const {
    Access(index, 1, "LocalTensor::SetValue");
    ScalarAccess("LocalTensor::SetValue", index, true, loc);
    ptr_[index] = static_cast<T>(value);
  }
  T& operator()(uint32_t index,
                lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) const {
    Access(index, 1, "LocalTensor::operator()");
    ScalarAccess("LocalTensor::operator()", index, true, loc);
    return ptr_[index];
  }
  // Sub-tensor starting at element `offset`, with GetSize() - offset elements. Checked mode:
  // offset < GetSize() (the CPU-debug model's rule).
  LocalTensor operator[](uint32_t offset) const;

  // The same bytes viewed as U; size = GetSize() * bits(T) / bits(U) (int4b_t: 4 bits).
  template <typename U>
  LocalTensor<U> ReinterpretCast() const;

  void SetShapeInfo(const ShapeInfo& info) { shape_info_.Set(info); }
  ShapeInfo GetShapeInfo() const { return shape_info_.Get(); }

  // lngrad extension: raises (see OnTensorOverrun) unless elements [offset, offset + count)
  // may be accessed; `api` names the caller in the message.
  void Access(uint64_t offset, uint64_t count, const char* api) const {
    if (offset + count > size_ || ptr_ == nullptr) [[unlikely]] {
      lngrad::aicore::detail::OnTensorOverrun(View(), offset, count, sizeof(T), api);
    }
  }
  lngrad::aicore::detail::TensorView View() const {
    return {Bytes(), lngrad::aicore::ElemBytes<T>(size_), ub_, ub_size_, pos_};
  }
  const lngrad::aicore::detail::TensorBuffer& Buffer() const { return buf_; }

 private:
  template <typename>
  friend class LocalTensor;
  friend struct lngrad::aicore::detail::TensorAccess;

  const std::byte* Bytes() const { return reinterpret_cast<const std::byte*>(ptr_); }
  void ScalarAccess(const char* api, uint32_t index, bool write, lngrad::aicore::SrcLoc loc) const {
    lngrad::aicore::detail::RecordScalarAccess(api, ptr_ + index, sizeof(T), write, true, loc);
  }

  T* ptr_ = nullptr;
  uint32_t size_ = 0;
  TPosition pos_ = TPosition::GM;
  std::byte* ub_ = nullptr;
  uint32_t ub_size_ = 0;
  lngrad::aicore::detail::TensorBuffer buf_;
  lngrad::aicore::detail::LazyShapeInfo shape_info_;
};

// A tensor in global memory (host memory here). Sizes in elements.
template <typename T>
class GlobalTensor {
 public:
  using PrimType = T;
  GlobalTensor() = default;
  void SetGlobalBuffer(__gm__ T* buffer, uint64_t bufferSize) {
    ptr_ = buffer;
    size_ = bufferSize;
    size_known_ = true;
  }
  // Size unknown: only GmAlloc block bounds can be checked.
  void SetGlobalBuffer(__gm__ T* buffer) {
    ptr_ = buffer;
    size_ = 0;
    size_known_ = false;
  }
  // The host pointer (CANN CPU-debug returns the host address too).
  __gm__ T* GetPhyAddr() const { return ptr_; }
  __gm__ T* GetPhyAddr(uint64_t offset) const { return Advanced(offset); }
  uint64_t GetSize() const { return size_; }

  // S pipe. cce-auto-sync orders GetValue and operator() with the copies, not SetValue (the
  // vendor's list); operator() counts as a write (see LocalTensor). Both go through the data
  // cache (cache.h): for the sanitizer a load after DataCacheCleanAndInvalid synchronises.
  T GetValue(uint64_t offset,
             lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) const {
    Access(offset, 1, "GlobalTensor::GetValue");
    const T v = lngrad::aicore::detail::ReadElement(ptr_ + offset);
    if (!lngrad::aicore::san::DcacheLoad(ptr_ + offset, &v, sizeof(T))) {
      ScalarAccess("GlobalTensor::GetValue", offset, false, true, loc);
    }
    return v;
  }
  void SetValue(uint64_t offset, T value,
                lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) const {
    Access(offset, 1, "GlobalTensor::SetValue");
    ScalarAccess("GlobalTensor::SetValue", offset, true, false, loc);
    ptr_[offset] = value;
    lngrad::aicore::san::DcacheStore(ptr_ + offset, sizeof(T));
  }
  T& operator()(uint64_t offset,
                lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) const {
    Access(offset, 1, "GlobalTensor::operator()");
    ScalarAccess("GlobalTensor::operator()", offset, true, true, loc);
    return ptr_[offset];
  }
  GlobalTensor operator[](uint64_t offset) const {
    GlobalTensor r = *this;
    r.ptr_ = Advanced(offset);
    if (size_known_) r.size_ = offset <= size_ ? size_ - offset : 0;
    return r;
  }
  void SetShapeInfo(const ShapeInfo& info) { shape_info_ = info; }
  ShapeInfo GetShapeInfo() const { return shape_info_; }

  // Whether the device's copies of this tensor go through the L2 cache. The CPU has no L2 to
  // steer, so copies behave alike in every mode; the mode is kept (GetL2CacheHint, an lngrad
  // extension) and travels with operator[] as on the device.
  template <CacheRwMode rwMode = CacheRwMode::RW>
  void SetL2CacheHint(CacheMode mode,
                      lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
    lngrad::aicore::detail::CheckL2CacheHint(mode, loc);
    cache_mode_ = mode;
  }
  CacheMode GetL2CacheHint() const { return cache_mode_; }

  // lngrad extension: raises kGmBounds unless elements [offset, offset + count) may be accessed.
  // Returns the GM region holding them (bytes 0: memory the runtime does not know).
  lngrad::aicore::detail::GmRegionSpan Access(uint64_t offset, uint64_t count,
                                              const char* api) const {
    return lngrad::aicore::detail::CheckGlobalRange(ptr_, size_, size_known_, offset, count,
                                                    sizeof(T), api);
  }
  bool SizeKnown() const { return size_known_; }

 private:
  void ScalarAccess(const char* api, uint64_t offset, bool write, bool auto_synced,
                    lngrad::aicore::SrcLoc loc) const {
    lngrad::aicore::detail::RecordScalarAccess(api, ptr_ + offset, sizeof(T), write, auto_synced,
                                               loc);
  }

  // ptr_ moved by offset elements (the 4-bit types: two a byte).
  T* Advanced(uint64_t offset) const {
    if constexpr (lngrad::aicore::kElemBits<T> == 4) {
      return reinterpret_cast<T*>(reinterpret_cast<std::byte*>(ptr_) + offset / 2);
    } else {
      return ptr_ + offset;
    }
  }

  T* ptr_ = nullptr;
  uint64_t size_ = 0;
  bool size_known_ = false;
  CacheMode cache_mode_ = CacheMode::CACHE_MODE_NORMAL;
  ShapeInfo shape_info_;
};

}  // namespace AscendC

namespace lngrad::aicore::detail {

// The runtime's door into LocalTensor internals (queues, buffers, stack).
struct TensorAccess {
  template <typename T>
  static AscendC::LocalTensor<T> Make(std::byte* host, uint32_t size_elems, AscendC::TPosition pos,
                                      const TensorBuffer& buf, std::byte* ub, uint32_t ub_size) {
    AscendC::LocalTensor<T> t;
    t.ptr_ = reinterpret_cast<T*>(host);
    t.size_ = size_elems;
    t.pos_ = pos;
    t.ub_ = ub;
    t.ub_size_ = ub_size;
    t.buf_ = buf;
    return t;
  }
};

}  // namespace lngrad::aicore::detail

namespace AscendC {

template <typename T>
LocalTensor<T>::LocalTensor(TPosition pos, uint32_t addr, uint32_t tileSize) {
  constexpr const char* kApi = "LocalTensor(pos, addr, tileSize)";
  auto& ctx = lngrad::aicore::RequireBlockContext(kApi);
  const lngrad::aicore::LocalMemory mem = lngrad::aicore::MemoryOf(ctx, pos, kApi);
  const uint64_t bytes = lngrad::aicore::ElemBytes<T>(tileSize);
  lngrad::aicore::detail::TensorView view{mem.base, 0, mem.base, mem.size, pos};
  lngrad::aicore::detail::RequireInsideUb(view, addr, bytes, kApi);
  ptr_ = reinterpret_cast<T*>(mem.base + addr);
  size_ = tileSize;
  pos_ = pos;
  ub_ = mem.base;
  ub_size_ = mem.size;
  buf_ = {mem.base + addr, mem.base + addr + bytes, nullptr, -1};
  if (mem.base == ctx.ub) lngrad::aicore::NoteUbWritten(ctx, uint64_t{addr} + bytes);
}

template <typename T>
void LocalTensor<T>::SetSize(uint32_t size) {
  const uint64_t bytes = uint64_t{size} * sizeof(T);
  if (lngrad::aicore::CheckedMode() && buf_.end != nullptr && Bytes() + bytes > buf_.end) {
    lngrad::aicore::RaiseKernelCheck(lngrad::aicore::checks::kTensorBounds,
                                     "LocalTensor::SetSize: size " + std::to_string(size) + " (" +
                                         std::to_string(bytes) +
                                         " B) runs past the tensor's buffer, which has " +
                                         std::to_string(static_cast<uint64_t>(buf_.end - Bytes())) +
                                         " B from UB address " + std::to_string(GetPhyAddr()));
  }
  if (size != 0 || ptr_ != nullptr) {
    lngrad::aicore::detail::RequireInsideUb(View(), static_cast<int64_t>(GetPhyAddr()), bytes,
                                            "LocalTensor::SetSize");
  }
  size_ = size;
}

template <typename T>
LocalTensor<T> LocalTensor<T>::operator[](uint32_t offset) const {
  if (offset >= size_) [[unlikely]] {
    if (lngrad::aicore::CheckedMode()) {
      lngrad::aicore::RaiseKernelCheck(
          lngrad::aicore::checks::kTensorBounds,
          "LocalTensor::operator[]: offset is " + std::to_string(offset) +
              ", which can not be larger than data len " + std::to_string(size_) +
              " (tensor at UB address " + std::to_string(GetPhyAddr()) + ", " + PositionName(pos_) +
              ")");
    }
    lngrad::aicore::detail::RequireInsideUb(View(), static_cast<int64_t>(GetPhyAddr(offset)), 0,
                                            "LocalTensor::operator[]");
  }
  LocalTensor r = *this;
  if constexpr (lngrad::aicore::kElemBits<T> == 4) {
    // int4b_t: two elements per byte (an odd offset starts mid-byte, which no instruction takes).
    r.ptr_ = reinterpret_cast<T*>(reinterpret_cast<std::byte*>(ptr_) + offset / 2);
  } else {
    r.ptr_ = ptr_ + offset;
  }
  r.size_ = offset <= size_ ? size_ - offset : 0;
  return r;
}

template <typename T>
template <typename U>
LocalTensor<U> LocalTensor<T>::ReinterpretCast() const {
  LocalTensor<U> r;
  r.ptr_ = reinterpret_cast<U*>(ptr_);
  r.size_ = static_cast<uint32_t>(uint64_t{size_} * lngrad::aicore::kElemBits<T> /
                                  lngrad::aicore::kElemBits<U>);
  r.pos_ = pos_;
  r.ub_ = ub_;
  r.ub_size_ = ub_size_;
  r.buf_ = buf_;
  return r;
}

}  // namespace AscendC
