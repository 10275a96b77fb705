// Atomic operations (atomic.h): the DMA atomic modes of UB -> GM copies and the scalar atomics.
#include "lngrad_aicore/atomic.h"

#include <cmath>
#include <cstring>
#include <mutex>
#include <string>

#include "lngrad_aicore/repeat_base.h"
#include "lngrad_aicore/sys.h"
#include "name_table.h"

namespace lngrad::aicore::detail {
namespace {

constexpr uint64_t kTypeShift = 6, kTypeMask = uint64_t{7} << kTypeShift;
constexpr uint64_t kOpShift = 9, kOpMask = uint64_t{3} << kOpShift;

// One lock for every atomic copy and scalar atomic of the process: blocks run on several
// threads, and an element must be read, combined and written back by one of them at a time.
std::mutex& AtomicMutex() {
  static std::mutex* m = new std::mutex;  // leaked: blocks may run from static destructors
  return *m;
}

const char* TypeName(AtomicType t) {
  static constexpr const char* kNames[] = {"none",    "float",  "half",      "int16_t",
                                           "int32_t", "int8_t", "bfloat16_t"};
  return NameAt(kNames, t, "none");
}

uint32_t TypeBytes(AtomicType t) {
  switch (t) {
    case AtomicType::kFloat:
    case AtomicType::kInt32:
      return 4;
    case AtomicType::kHalf:
    case AtomicType::kInt16:
    case AtomicType::kBf16:
      return 2;
    case AtomicType::kInt8:
      return 1;
    case AtomicType::kOff:
      break;
  }
  return 1;
}

// The types SetAtomicAdd/SetAtomicType accept on the running product (the vendor's tables).
bool ProductHasType(AtomicType t, bool max_min) {
  const Product& p = CurrentBlockProduct();
  switch (p.arch) {
    case NpuArch::k2201:
    case NpuArch::k3510:
      return true;
    case NpuArch::k3002:
      return !max_min && (t == AtomicType::kInt16 || t == AtomicType::kHalf ||
                          t == AtomicType::kInt32 || t == AtomicType::kFloat);
    case NpuArch::k2002:
      return !max_min &&
             (t == AtomicType::kInt16 || t == AtomicType::kHalf || t == AtomicType::kFloat);
    case NpuArch::k1001:
      return !max_min && t == AtomicType::kFloat;
  }
  return false;
}

using rep::Load;
using rep::Store;

template <typename T>
T Pick(AtomicOp op, T a, T b) {
  if (a != a) return a;  // NaN (floating types only)
  if (b != b) return b;
  if (op == AtomicOp::kMax) return b > a ? b : a;
  return b < a ? b : a;
}

template <typename T>
T CombineInt(AtomicOp op, T gm, T v) {
  if (op != AtomicOp::kAdd) return Pick(op, gm, v);
  using U = std::make_unsigned_t<T>;
  return static_cast<T>(static_cast<U>(static_cast<U>(gm) + static_cast<U>(v)));
}

// gm (op)= v for one element of type t.
void CombineOne(AtomicType t, AtomicOp op, std::byte* gm, const std::byte* v) {
  switch (t) {
    case AtomicType::kFloat: {
      const float a = Load<float>(gm), b = Load<float>(v);
      Store(gm, op == AtomicOp::kAdd ? a + b : Pick(op, a, b));
      return;
    }
    case AtomicType::kHalf: {
      const ::half a = Load<::half>(gm), b = Load<::half>(v);
      // The sum of two halves is exact in double; one rounding to half.
      const ::half r =
          op == AtomicOp::kAdd
              ? ::half(static_cast<double>(float(a)) + static_cast<double>(float(b)))
              : (float(a) != float(a)   ? a
                 : float(b) != float(b) ? b
                                        : (op == AtomicOp::kMax ? (float(b) > float(a) ? b : a)
                                                                : (float(b) < float(a) ? b : a)));
      Store(gm, r);
      return;
    }
    case AtomicType::kInt16:
      Store(gm, CombineInt(op, Load<int16_t>(gm), Load<int16_t>(v)));
      return;
    case AtomicType::kInt32:
      Store(gm, CombineInt(op, Load<int32_t>(gm), Load<int32_t>(v)));
      return;
    case AtomicType::kInt8:
      Store(gm, CombineInt(op, Load<int8_t>(gm), Load<int8_t>(v)));
      return;
    case AtomicType::kBf16:
    case AtomicType::kOff:
      break;
  }
  std::memcpy(gm, v, TypeBytes(t));
}

}  // namespace

DmaAtomic CurrentDmaAtomic() noexcept {
  const uint64_t ctrl = CurrentBlockSys().ctrl;
  return {static_cast<AtomicType>((ctrl & kTypeMask) >> kTypeShift),
          static_cast<AtomicOp>((ctrl & kOpMask) >> kOpShift)};
}

void SetDmaAtomic(DmaAtomic a) noexcept {
  uint64_t& ctrl = CurrentBlockSys().ctrl;
  ctrl = (ctrl & ~(kTypeMask | kOpMask)) | (uint64_t{static_cast<uint8_t>(a.type)} << kTypeShift) |
         (uint64_t{static_cast<uint8_t>(a.op)} << kOpShift);
}

void SetDmaAtomicChecked(const char* api, DmaAtomic a, SrcLoc loc) {
  RequireBlockContext(api);
  const bool max_min = a.op != AtomicOp::kAdd;
  if (max_min) {
    RequireProduct(api, k2201 | k3510, "Atlas A2/A3 and Ascend 950", loc);
  } else {
    RequireProduct(api, k1001 | k2002 | k2201 | k3002 | k3510,
                   "Ascend 950, Atlas A2/A3, Atlas 200I/500 A2, the Atlas inference series' AI "
                   "Cores and the Atlas training series",
                   loc);
  }
  if (CheckedMode() && !ProductHasType(a.type, max_min)) {
    const Product& p = CurrentBlockProduct();
    RaiseKernelCheck(checks::kAtomicType,
                     WithLoc(api, loc) + ": data type T = " + TypeName(a.type) + " is not an " +
                         "atomic type on " + std::string(p.soc) + " (" +
                         std::string(p.product_line) + ")");
  }
  SetDmaAtomic(a);
}

void SetAtomicTypeChecked(AtomicType type, SrcLoc loc) {
  constexpr const char* kApi = "SetAtomicType";
  RequireBlockContext(kApi);
  RequireProduct(kApi, k2002 | k2201 | k3002 | k3510,
                 "Ascend 950, Atlas A2/A3, Atlas 200I/500 A2 and the Atlas inference series' AI "
                 "Cores",
                 loc);
  if (CheckedMode() && !ProductHasType(type, false)) {
    const Product& p = CurrentBlockProduct();
    RaiseKernelCheck(checks::kAtomicType, WithLoc(kApi, loc) + ": data type T = " + TypeName(type) +
                                              " is not an atomic type on " + std::string(p.soc));
  }
  // The operation bits stay: SetAtomicType after SetAtomicMax<float> is a half max, say.
  DmaAtomic a = CurrentDmaAtomic();
  a.type = type;
  SetDmaAtomic(a);
}

void DisableDmaAtomicChecked(const char* api, SrcLoc loc) {
  RequireBlockContext(api);
  RequireProduct(api, k1001 | k2002 | k2201 | k3002 | k3510,
                 "Ascend 950, Atlas A2/A3, Atlas 200I/500 A2, the Atlas inference series' AI "
                 "Cores and the Atlas training series",
                 loc);
  SetDmaAtomic({AtomicType::kOff, AtomicOp::kAdd});
}

bool AtomicCopyToGm(std::byte* gm, const std::byte* ub, uint64_t count, uint64_t len,
                    uint64_t gm_pitch, uint64_t ub_pitch) {
  if (CurrentBlockContext() == nullptr) return false;
  const DmaAtomic a = CurrentDmaAtomic();
  if (a.type == AtomicType::kOff) return false;
  const uint32_t esize = TypeBytes(a.type);
  if (CheckedMode() && len % esize != 0) {
    RaiseKernelCheck(checks::kAtomicType,
                     "atomic UB->GM copy: a row of " + std::to_string(len) +
                         " bytes is not a whole number of " + TypeName(a.type) +
                         " elements (the atomic type set by SetAtomicAdd/Max/Min/Type); the "
                         "device would combine a partial element");
  }
  std::lock_guard lock(AtomicMutex());
  for (uint64_t i = 0; i < count; ++i) {
    std::byte* g = gm + i * gm_pitch;
    const std::byte* u = ub + i * ub_pitch;
    uint64_t off = 0;
    for (; off + esize <= len; off += esize) CombineOne(a.type, a.op, g + off, u + off);
    if (off < len) std::memcpy(g + off, u + off, len - off);
  }
  return true;
}

void ScalarAtomicPrologue(const char* api, const void* p, uint64_t bytes, SrcLoc loc) {
  RequireBlockContext(api);
  RequireProduct(api, k3510, "Ascend 950", loc);
  if (CheckedMode() && reinterpret_cast<uintptr_t>(p) % bytes != 0) {
    RaiseKernelCheck(checks::kGmAlignment, WithLoc(api, loc) + ": address is not aligned to " +
                                               std::to_string(bytes) + " bytes");
  }
  CheckGmAllocRange(p, bytes, api);
}

void LockAtomics() noexcept { AtomicMutex().lock(); }
void UnlockAtomics() noexcept { AtomicMutex().unlock(); }

}  // namespace lngrad::aicore::detail
