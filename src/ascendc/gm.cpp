// Global memory: GmAlloc/GmFree and the registry used to bound GM accesses.
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <map>
#include <mutex>
#include <new>
#include <shared_mutex>
#include <stdexcept>
#include <string>

#include "lngrad_rt/launch.h"
#include "lngrad_rt/tensor.h"

namespace lngrad::ascend::detail {
namespace {

struct GmBlock {
  uint64_t requested;  // what the caller asked for (checked-mode bound)
  uint64_t allocated;  // rounded up to 32 B (unchecked-mode bound)
};

std::shared_mutex& RegistryMutex() {
  static std::shared_mutex m;
  return m;
}
std::map<uintptr_t, GmBlock>& Registry() {
  static std::map<uintptr_t, GmBlock> r;
  return r;
}

}  // namespace

void CheckGmAllocRange(const void* p, uint64_t bytes, const char* api) {
  const uintptr_t a = reinterpret_cast<uintptr_t>(p);
  uintptr_t base = 0;
  GmBlock block{};
  {
    std::shared_lock lock(RegistryMutex());
    const auto& reg = Registry();
    auto it = reg.upper_bound(a);
    if (it == reg.begin()) return;
    --it;
    if (a >= it->first + it->second.allocated) return;  // not GmAlloc memory: nothing to check against
    base = it->first;
    block = it->second;
  }
  const uint64_t limit = CheckedMode() ? block.requested : block.allocated;
  if (a - base + bytes > limit) {
    RaiseKernelCheck(checks::kGmBounds, std::string(api) + ": GM bytes [" + std::to_string(a - base) + ", " +
                                            std::to_string(a - base + bytes) + ") run past the end of the " +
                                            std::to_string(block.requested) + " B GmAlloc block" +
                                            (CheckedMode() ? "" : " (rounded up to " +
                                                                      std::to_string(block.allocated) + " B)"));
  }
}

void CheckGlobalRange(const void* base, uint64_t size_elems, bool size_known, uint64_t elem_offset, uint64_t count,
                      uint32_t elem_size, const char* api) {
  if (base == nullptr) {
    RaiseKernelCheck(checks::kGmBounds, std::string(api) + ": the GlobalTensor has no buffer (call SetGlobalBuffer)");
  }
  if (size_known && elem_offset + count > size_elems && CheckedMode()) {
    RaiseKernelCheck(checks::kGmBounds, std::string(api) + ": elements [" + std::to_string(elem_offset) + ", " +
                                            std::to_string(elem_offset + count) +
                                            ") are outside the GlobalTensor of " + std::to_string(size_elems) +
                                            " elements");
  }
  CheckGmAllocRange(static_cast<const std::byte*>(base) + elem_offset * elem_size, count * elem_size, api);
}

}  // namespace lngrad::ascend::detail

namespace AscendC {

void* GmAlloc(size_t size) {
  const uint64_t allocated = size == 0 ? 32 : (uint64_t{size} + 31) / 32 * 32;
  void* p = std::aligned_alloc(32, allocated);
  if (p == nullptr) throw std::bad_alloc();
  std::memset(p, 0, allocated);
  std::unique_lock lock(lngrad::ascend::detail::RegistryMutex());
  lngrad::ascend::detail::Registry()[reinterpret_cast<uintptr_t>(p)] = {size, allocated};
  return p;
}

void GmFree(void* ptr) {
  if (ptr == nullptr) return;
  {
    std::unique_lock lock(lngrad::ascend::detail::RegistryMutex());
    auto& reg = lngrad::ascend::detail::Registry();
    auto it = reg.find(reinterpret_cast<uintptr_t>(ptr));
    if (it == reg.end()) {
      throw std::invalid_argument("AscendC::GmFree: the pointer was not returned by GmAlloc, or was freed already");
    }
    reg.erase(it);
  }
  std::free(ptr);
}

}  // namespace AscendC
