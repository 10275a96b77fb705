// lngrad Ascend C runtime: static-tensor programming (LocalMemAllocator), the style without
// TPipe/TQue: the kernel carves its LocalTensors out of the UB itself and synchronises the
// pipes itself (SetFlag/WaitFlag or PipeBarrier; no framework sync, docs/ascendc_compat.md).
//
// A LocalMemAllocator<Hardware::UB> hands out the UB from address 0 upwards, exactly
// sizeof(T) * tileSize bytes per Alloc (no rounding: a tile whose size is not a multiple of
// 32 bytes leaves the next tile unaligned, as on the device, and the instructions' alignment
// checks then apply). An Alloc past the product's UB raises ub_overflow in both modes (the
// device would hand out memory it does not have). Checked mode also enforces the vendor's
// rules: one live allocator per block and position, and no TPipe in the same block (both
// allocate the UB from address 0, so their buffers would overlap).
#pragma once

#include <cstdint>
#include <string>

#include "pipe.h"
#include "sanitizer.h"
#include "sys.h"
#include "tensor.h"

namespace lngrad::aicore::checks {
inline constexpr const char* kLocalMemAllocator =
    "local_mem_allocator";  // a second allocator, or one mixed with TPipe
}  // namespace lngrad::aicore::checks

namespace AscendC {

// Physical memories. The simulator models only the UB.
enum class Hardware : uint8_t { GM, UB, L1, L0A, L0B, L0C, BIAS, FIXBUF, MAX };

// The logical position a tensor of `hard` gets when Alloc is not told one.
constexpr TPosition GetDefaultPosition(Hardware hard) {
  switch (hard) {
    case Hardware::UB:
      return TPosition::VECCALC;
    case Hardware::L1:
      return TPosition::A1;
    case Hardware::L0A:
      return TPosition::A2;
    case Hardware::L0B:
      return TPosition::B2;
    case Hardware::L0C:
      return TPosition::CO1;
    case Hardware::BIAS:
      return TPosition::C2;
    case Hardware::FIXBUF:
      return TPosition::C2PIPE2GM;
    default:
      return TPosition::MAX;
  }
}
// Whether a tensor at `pos` lives in `hard` (the cube's memories: layer cube).
constexpr bool PositionIn(Hardware hard, TPosition pos) {
  if (hard == Hardware::UB) return IsUbPosition(pos);
  if (hard == Hardware::L1)
    return pos == TPosition::A1 || pos == TPosition::B1 || pos == TPosition::C1;
  return pos == GetDefaultPosition(hard);
}

}  // namespace AscendC

namespace lngrad::aicore::detail {
// Checked mode: the vendor's rules for a new allocator (see the header comment).
void OnAllocatorCreated(SrcLoc loc);
void OnAllocatorDestroyed() noexcept;
// Raises ub_overflow unless [head, head + bytes) lies in the product's UB.
void RequireStaticTile(uint32_t head, uint64_t bytes, uint64_t elems, uint32_t elem_size,
                       SrcLoc loc);
}  // namespace lngrad::aicore::detail

namespace AscendC {

template <Hardware hard = Hardware::UB>
class LocalMemAllocator {
  static_assert(hard != Hardware::GM && hard != Hardware::MAX,
                "illegal hardware position GM or MAX");

 public:
  // The UB's allocator follows the vendor's CPU-debug rules (one per block, no TPipe); the
  // cube's memories are bounded by their tensors' checks (layer cube).
  LocalMemAllocator(lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
    if constexpr (hard == Hardware::UB) lngrad::aicore::detail::OnAllocatorCreated(loc);
  }
  ~LocalMemAllocator() {
    if (hard == Hardware::UB && owner_) lngrad::aicore::detail::OnAllocatorDestroyed();
  }
  // A copy hands out the same addresses as the original from where it was copied; only the
  // original counts as the block's allocator.
  LocalMemAllocator(const LocalMemAllocator& o) : head_(o.head_), owner_(false) {}
  LocalMemAllocator& operator=(const LocalMemAllocator& o) {
    head_ = o.head_;
    return *this;
  }

  // The UB address the next Alloc starts at, in [0, UB size].
  uint32_t GetCurAddr() const { return head_; }

  template <class DataType, uint32_t tileSize>
  LocalTensor<DataType> Alloc(lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
    return Take<DataType>(GetDefaultPosition(hard), tileSize, loc);
  }
  template <TPosition pos, class DataType, uint32_t tileSize>
  LocalTensor<DataType> Alloc(lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
    static_assert(PositionIn(hard, pos), "logic pos and hardware pos not matched.");
    return Take<DataType>(pos, tileSize, loc);
  }
  template <class DataType>
  LocalTensor<DataType> Alloc(uint32_t tileSize,
                              lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
    return Take<DataType>(GetDefaultPosition(hard), tileSize, loc);
  }
  template <TPosition pos, class DataType>
  LocalTensor<DataType> Alloc(uint32_t tileSize,
                              lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
    static_assert(PositionIn(hard, pos), "logic pos and hardware pos not matched.");
    return Take<DataType>(pos, tileSize, loc);
  }

 private:
  template <class DataType>
  LocalTensor<DataType> Take(TPosition pos, uint32_t tileSize, lngrad::aicore::SrcLoc loc) {
    const uint64_t bytes = uint64_t{tileSize} * sizeof(DataType);
    if constexpr (hard == Hardware::UB) {
      lngrad::aicore::detail::RequireStaticTile(head_, bytes, tileSize, sizeof(DataType), loc);
    }
    LocalTensor<DataType> t(pos, head_, tileSize);
    head_ = static_cast<uint32_t>(head_ + bytes);
    return t;
  }

  uint32_t head_ = 0;  // the dynamic UB starts at 0 on the CPU (no static UB arrays)
  bool owner_ = true;
};

}  // namespace AscendC
