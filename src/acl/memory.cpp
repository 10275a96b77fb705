// Layer acl: device memory (bounds-checked GM from lngrad::aicore), host memory and copies.
#include <cstdlib>
#include <cstring>
#include <new>
#include <string>

#include "lngrad_aicore/gm.h"
#include "lngrad_aicore/launch.h"
#include "lngrad_aicore/sanitizer.h"
#include "state.h"

namespace lngrad::acl::detail {
namespace {

constexpr uint64_t kFreedHostLimit = uint64_t{256} << 20;

// Where a pointer lies: in a live device allocation, in a live aclrtMallocHost block, or
// elsewhere (host memory the runtime does not know).
struct Where {
  enum Kind { kDevice, kHostBlock, kHost } kind = kHost;
  uintptr_t base = 0;
  uint64_t size = 0;
  bool device() const { return kind == kDevice; }
};

const Allocation* Containing(const std::map<uintptr_t, Allocation>& m, uintptr_t a,
                             uintptr_t* base) {
  auto it = m.upper_bound(a);
  if (it == m.begin()) return nullptr;
  --it;
  if (a - it->first >= it->second.size) return nullptr;
  *base = it->first;
  return &it->second;
}

Where Locate(const State& s, const void* p) {
  const uintptr_t a = reinterpret_cast<uintptr_t>(p);
  Where w;
  if (const Allocation* d = Containing(s.device_memory, a, &w.base)) {
    w.kind = Where::kDevice;
    w.size = d->size;
  } else if (const Allocation* h = Containing(s.host_memory, a, &w.base)) {
    w.kind = Where::kHostBlock;
    w.size = h->size;
  }
  return w;
}

// The live device allocation whose block holds a, at or past its end: GmAlloc rounds every
// block up to 512 bytes and adds a red zone (lngrad_aicore/gm.h), so [base + size, base +
// GmAllocSpan(size)) is no host object's. Such a pointer is an off-by-one past device memory,
// never host memory.
const Allocation* PastTheEnd(const State& s, const void* p, uintptr_t* base) {
  const uintptr_t a = reinterpret_cast<uintptr_t>(p);
  auto it = s.device_memory.upper_bound(a);
  if (it == s.device_memory.begin()) return nullptr;
  --it;
  const uint64_t off = a - it->first, size = it->second.size;
  if (off < size || off >= lngrad::aicore::detail::GmAllocSpan(size)) return nullptr;
  *base = it->first;
  return &it->second;
}

// A pointer into device memory freed earlier (aclrtFree keeps the block for a while, gm.h) is
// neither device nor host memory: refused, whatever the kind says.
bool NotFreedDevice(const void* p, const char* api, const char* arg, aclError* code) {
  lngrad::aicore::detail::FreedGm freed;
  if (!lngrad::aicore::detail::FindFreedGm(p, &freed)) return true;
  *code = Fail(ACL_ERROR_RT_PARAM_INVALID,
               std::string(api) + ": " + arg + " " + PtrText(p) + " is " +
                   std::to_string(reinterpret_cast<uintptr_t>(p) - freed.base) + " B into the " +
                   std::to_string(freed.requested) + " B " + freed.kind + " at " +
                   PtrText(reinterpret_cast<const void*>(freed.base)) +
                   ", which was freed (aclrtFree) before this call");
  return false;
}

// ACL_MEMCPY_DEFAULT takes the pointers' kinds from where they lie; one just past a device
// allocation, or into a freed one, is refused rather than taken for host memory.
bool NotPastDevice(const State& s, const void* p, const char* api, const char* arg,
                   aclError* code) {
  uintptr_t base = 0;
  const Allocation* d = PastTheEnd(s, p, &base);
  if (d == nullptr) return NotFreedDevice(p, api, arg, code);
  *code = Fail(ACL_ERROR_RT_PARAM_INVALID,
               std::string(api) + ": " + arg + " " + PtrText(p) + " is " +
                   std::to_string(reinterpret_cast<uintptr_t>(p) - base - d->size) +
                   " B past the end of the " + std::to_string(d->size) +
                   " B device allocation (aclrtMalloc) at " +
                   PtrText(reinterpret_cast<const void*>(base)) + ", not host memory");
  return false;
}

const char* KindName(aclrtMemcpyKind kind) {
  switch (kind) {
    case ACL_MEMCPY_HOST_TO_HOST:
      return "ACL_MEMCPY_HOST_TO_HOST";
    case ACL_MEMCPY_HOST_TO_DEVICE:
      return "ACL_MEMCPY_HOST_TO_DEVICE";
    case ACL_MEMCPY_DEVICE_TO_HOST:
      return "ACL_MEMCPY_DEVICE_TO_HOST";
    case ACL_MEMCPY_DEVICE_TO_DEVICE:
      return "ACL_MEMCPY_DEVICE_TO_DEVICE";
    case ACL_MEMCPY_DEFAULT:
      return "ACL_MEMCPY_DEFAULT";
    case ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE:
      return "ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE";
    default:
      return "an unknown kind";
  }
}

// The range [p, p + count) must lie inside the allocation p points into (if the runtime knows it).
bool RangeFits(const Where& w, const void* p, size_t count, const char* api, const char* arg,
               aclError* code) {
  if (w.kind == Where::kHost) return true;
  const uint64_t off = reinterpret_cast<uintptr_t>(p) - w.base;  // < w.size (Locate)
  if (count <= w.size - off) return true;  // not off + count, which a huge count wraps
  *code =
      Fail(ACL_ERROR_RT_PARAM_INVALID,
           std::string(api) + ": " + arg + " bytes [" + std::to_string(off) + ", " +
               std::to_string(off + count) + ") run past the end of the " + std::to_string(w.size) +
               " B " +
               (w.device() ? "device allocation (aclrtMalloc)" : "host block (aclrtMallocHost)") +
               " at " + PtrText(reinterpret_cast<const void*>(w.base)));
  return false;
}

// The kind's value without an enum load: C callers may pass any int, which is not a valid
// aclrtMemcpyKind value in C++ (and sanitizers would flag the load).
int KindValue(const aclrtMemcpyKind& kind) {
  static_assert(sizeof(aclrtMemcpyKind) == sizeof(int));
  int v;
  std::memcpy(&v, &kind, sizeof v);
  return v;
}

aclError Copy(const char* api, void* dst, size_t destMax, const void* src, size_t count,
              int kind_value, bool async, aclrtStream stream) {
  if (count == 0) return ACL_SUCCESS;  // the vendor checks nothing else then
  if (dst == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, std::string(api) + ": dst is nullptr");
  if (src == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, std::string(api) + ": src is nullptr");
  if (kind_value < ACL_MEMCPY_HOST_TO_HOST || kind_value > ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE) {
    return Fail(ACL_ERROR_INVALID_PARAM,
                std::string(api) + ": kind " + std::to_string(kind_value) +
                    " is not ACL_MEMCPY_HOST_TO_HOST, _HOST_TO_DEVICE, _DEVICE_TO_HOST, "
                    "_DEVICE_TO_DEVICE, _DEFAULT or _HOST_TO_BUF_TO_DEVICE");
  }
  const auto kind = static_cast<aclrtMemcpyKind>(kind_value);
  State& s = GetState();
  std::lock_guard lock(s.mu);
  aclError code = ACL_SUCCESS;
  if (async) {
    if (ResolveStream(s, stream, api, &code) == nullptr) return code;
  } else if (CurrentContext(s) == nullptr) {
    return Fail(ACL_ERROR_RT_CONTEXT_NULL,
                std::string(api) + ": no device is set on this thread; call aclrtSetDevice first");
  }
  if (count > destMax) {
    return Fail(ACL_ERROR_RT_PARAM_INVALID, std::string(api) + ": count " + std::to_string(count) +
                                                " is larger than destMax " +
                                                std::to_string(destMax));
  }
  const Where d = Locate(s, dst);
  const Where from = Locate(s, src);
  bool want_dst_device = false, want_src_device = false, any = false;
  switch (kind) {
    case ACL_MEMCPY_HOST_TO_HOST:
      break;
    case ACL_MEMCPY_HOST_TO_DEVICE:
    case ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE:
      want_dst_device = true;
      break;
    case ACL_MEMCPY_DEVICE_TO_HOST:
      want_src_device = true;
      break;
    case ACL_MEMCPY_DEVICE_TO_DEVICE:
      want_dst_device = want_src_device = true;
      break;
    default:
      any = true;
      break;
  }
  // Whatever the kind: a pointer just past a device allocation or into a freed one is neither
  // device nor host memory (ACL_MEMCPY_HOST_TO_HOST would otherwise copy into the red zone).
  if ((!d.device() && !NotPastDevice(s, dst, api, "dst", &code)) ||
      (!from.device() && !NotPastDevice(s, src, api, "src", &code))) {
    return code;
  }
  if (!any && (d.device() != want_dst_device || from.device() != want_src_device)) {
    auto what = [](bool device) { return device ? "device memory" : "host memory"; };
    return Fail(ACL_ERROR_RT_PARAM_INVALID,
                std::string(api) + ": kind " + KindName(kind) + " copies " + what(want_src_device) +
                    " to " + what(want_dst_device) + ", but src " + PtrText(src) + " is " +
                    what(from.device()) + " and dst " + PtrText(dst) + " is " + what(d.device()) +
                    " (device memory is what aclrtMalloc returned)");
  }
  if (!RangeFits(d, dst, count, api, "dst", &code)) return code;
  if (!RangeFits(from, src, count, api, "src", &code)) return code;
  std::memmove(dst, src, count);
  if (d.device()) lngrad::aicore::san::GmMarkWritten(dst, count);
  return ACL_SUCCESS;
}

}  // namespace
}  // namespace lngrad::acl::detail

using lngrad::acl::detail::Fail;
using lngrad::acl::detail::GetState;
using lngrad::acl::detail::State;

extern "C" {

aclError aclrtMalloc(void** devPtr, size_t size, aclrtMemMallocPolicy policy) {
  (void)policy;  // every policy is the same host memory; unknown ones are the default, as on NPU
  if (devPtr == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "aclrtMalloc: devPtr is nullptr");
  if (size == 0) return Fail(ACL_ERROR_INVALID_PARAM, "aclrtMalloc: size is 0; it must be > 0");
  State& s = GetState();
  std::lock_guard lock(s.mu);
  if (lngrad::acl::detail::CurrentContext(s) == nullptr) {
    return Fail(ACL_ERROR_RT_CONTEXT_NULL,
                "aclrtMalloc: no device is set on this thread; call aclrtSetDevice first");
  }
  void* p = nullptr;
  try {
    p = AscendC::GmAlloc(size);
  } catch (const std::bad_alloc&) {
    return Fail(ACL_ERROR_RT_MEMORY_ALLOCATION,
                "aclrtMalloc: out of memory for " + std::to_string(size) + " bytes");
  }
  s.device_memory[reinterpret_cast<uintptr_t>(p)] = {size};
  // Device memory is not zeroed on the NPU (GmAlloc's zeros are lngrad's): initcheck reports
  // kernel reads of bytes no copy and no kernel has written.
  lngrad::aicore::san::GmMarkUninitialised(p, size);
  *devPtr = p;
  return ACL_SUCCESS;
}

aclError aclrtFree(void* devPtr) {
  if (devPtr == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "aclrtFree: devPtr is nullptr");
  State& s = GetState();
  std::lock_guard lock(s.mu);
  auto it = s.device_memory.find(reinterpret_cast<uintptr_t>(devPtr));
  if (it == s.device_memory.end()) {
    const bool host = s.host_memory.count(reinterpret_cast<uintptr_t>(devPtr)) != 0;
    return Fail(ACL_ERROR_RT_PARAM_INVALID,
                "aclrtFree: devPtr " + lngrad::acl::detail::PtrText(devPtr) +
                    (host ? " is host memory from aclrtMallocHost (free it with aclrtFreeHost)"
                          : " is not the start of a live aclrtMalloc allocation (freed "
                            "already, or never allocated)"));
  }
  lngrad::aicore::san::GmForget(devPtr, it->second.size);
  s.device_memory.erase(it);
  try {
    AscendC::GmFree(devPtr);
  } catch (const std::exception& e) {
    return Fail(ACL_ERROR_RT_INTERNAL_ERROR, std::string("aclrtFree: ") + e.what());
  }
  return ACL_SUCCESS;
}

aclError aclrtMallocHost(void** hostPtr, size_t size) {
  if (hostPtr == nullptr) {
    return Fail(ACL_ERROR_INVALID_PARAM, "aclrtMallocHost: hostPtr is nullptr");
  }
  if (size == 0) return Fail(ACL_ERROR_INVALID_PARAM, "aclrtMallocHost: size is 0; it must be > 0");
  const size_t rounded = (size + 63) / 64 * 64;
  void* p = rounded < size ? nullptr : std::aligned_alloc(64, rounded);
  if (p == nullptr) {
    return Fail(ACL_ERROR_RT_MEMORY_ALLOCATION,
                "aclrtMallocHost: out of memory for " + std::to_string(size) + " bytes");
  }
  State& s = GetState();
  std::lock_guard lock(s.mu);
  s.host_memory[reinterpret_cast<uintptr_t>(p)] = {size};
  *hostPtr = p;
  return ACL_SUCCESS;
}

aclError aclrtFreeHost(void* hostPtr) {
  if (hostPtr == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "aclrtFreeHost: hostPtr is nullptr");
  State& s = GetState();
  std::lock_guard lock(s.mu);
  auto it = s.host_memory.find(reinterpret_cast<uintptr_t>(hostPtr));
  if (it == s.host_memory.end()) {
    const bool device = s.device_memory.count(reinterpret_cast<uintptr_t>(hostPtr)) != 0;
    return Fail(ACL_ERROR_RT_PARAM_INVALID,
                "aclrtFreeHost: hostPtr " + lngrad::acl::detail::PtrText(hostPtr) +
                    (device ? " is device memory from aclrtMalloc (free it with aclrtFree)"
                            : " is not the start of a live aclrtMallocHost block (freed "
                              "already, or never allocated)"));
  }
  const uint64_t bytes = it->second.size;
  s.host_memory.erase(it);
  // Kept, not freed: the address is never handed out again (so a second free is recognised) and
  // a read after the free sees the data (see acl_rt.h). Oldest blocks go beyond the limit.
  s.freed_host.emplace_back(hostPtr, bytes);
  s.freed_host_bytes += bytes;
  while (s.freed_host_bytes > lngrad::acl::detail::kFreedHostLimit && !s.freed_host.empty()) {
    std::free(s.freed_host.front().first);
    s.freed_host_bytes -= s.freed_host.front().second;
    s.freed_host.erase(s.freed_host.begin());
  }
  return ACL_SUCCESS;
}

aclError aclrtMemcpy(void* dst, size_t destMax, const void* src, size_t count,
                     aclrtMemcpyKind kind) {
  return lngrad::acl::detail::Copy("aclrtMemcpy", dst, destMax, src, count,
                                   lngrad::acl::detail::KindValue(kind), false, nullptr);
}

aclError aclrtMemcpyAsync(void* dst, size_t destMax, const void* src, size_t count,
                          aclrtMemcpyKind kind, aclrtStream stream) {
  return lngrad::acl::detail::Copy("aclrtMemcpyAsync", dst, destMax, src, count,
                                   lngrad::acl::detail::KindValue(kind), true, stream);
}

aclError aclrtMemset(void* devPtr, size_t maxCount, int32_t value, size_t count) {
  if (count == 0) return ACL_SUCCESS;
  if (devPtr == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "aclrtMemset: devPtr is nullptr");
  State& s = GetState();
  std::lock_guard lock(s.mu);
  if (lngrad::acl::detail::CurrentContext(s) == nullptr) {
    return Fail(ACL_ERROR_RT_CONTEXT_NULL,
                "aclrtMemset: no device is set on this thread; call aclrtSetDevice first");
  }
  if (count > maxCount) {
    return Fail(ACL_ERROR_RT_PARAM_INVALID, "aclrtMemset: count " + std::to_string(count) +
                                                " is larger than maxCount " +
                                                std::to_string(maxCount));
  }
  const auto w = lngrad::acl::detail::Locate(s, devPtr);
  if (!w.device()) {
    return Fail(ACL_ERROR_RT_PARAM_INVALID,
                "aclrtMemset: devPtr " + lngrad::acl::detail::PtrText(devPtr) +
                    " is not device memory from aclrtMalloc (memset_s sets host memory)");
  }
  aclError code = ACL_SUCCESS;
  if (!lngrad::acl::detail::RangeFits(w, devPtr, count, "aclrtMemset", "devPtr", &code)) {
    return code;
  }
  std::memset(devPtr, static_cast<unsigned char>(value), count);
  lngrad::aicore::san::GmMarkWritten(devPtr, count);
  return ACL_SUCCESS;
}

}  // extern "C"
