// torch_npu's allocator and device guard for the PrivateUse1 device type (issue 31,
// python/torch_npu), as torch's out-of-tree backend examples register them: tensor memory is
// aclrtMalloc memory of lngrad's ACL runtime (so a kernel launched with <<<>>> accepts it as
// global memory, bounds-checked), and torch's DeviceGuard sets the thread's device and stream.
#include <c10/core/Allocator.h>
#include <c10/core/impl/DeviceGuardImplInterface.h>
#include <torch/version.h>

#include "acl/acl.h"
#include "npu_runtime.h"
#include "torch_npu/csrc/core/npu/NPUFunctions.h"
#include "torch_npu/csrc/core/npu/NPUStream.h"

// torch 2.3 made Allocator::allocate non-const and added copy_data.
#if TORCH_VERSION_MAJOR > 2 || (TORCH_VERSION_MAJOR == 2 && TORCH_VERSION_MINOR >= 3)
#define LNGRAD_NPU_ALLOCATE_CONST
#define LNGRAD_NPU_HAS_COPY_DATA 1
#else
#define LNGRAD_NPU_ALLOCATE_CONST const
#define LNGRAD_NPU_HAS_COPY_DATA 0
#endif

namespace lngrad::torch_npu {
namespace {

using c10::DeviceType;

// Frees from any thread (torch frees where the last reference goes): the thread gets an ACL
// device first if it has none, as aclrtFree needs one.
void FreeDeviceMemory(void* ptr) {
  if (ptr == nullptr) return;
  try {
    EnsureAclDevice();
  } catch (const c10::Error&) {
    return;  // cannot happen for device 0..7; a deleter must not throw
  }
  if (aclrtFree(ptr) != ACL_SUCCESS) {
    // A deleter must not throw; the runtime has printed its message (a double free is a bug).
    TORCH_WARN("torch_npu (lngrad): aclrtFree failed for ", ptr);
  }
}

class NpuAllocator final : public c10::Allocator {
 public:
  c10::DataPtr allocate(size_t nbytes) LNGRAD_NPU_ALLOCATE_CONST override {
    const c10::DeviceIndex device = c10_npu::current_device();
    void* ptr = nullptr;
    if (nbytes > 0) {
      SetAclDevice(device);
      CheckAcl(aclrtMalloc(&ptr, nbytes, ACL_MEM_MALLOC_HUGE_FIRST), "aclrtMalloc");
    }
    return {ptr, ptr, &FreeDeviceMemory, c10::Device(DeviceType::PrivateUse1, device)};
  }
  c10::DeleterFnPtr raw_deleter() const override { return &FreeDeviceMemory; }
#if LNGRAD_NPU_HAS_COPY_DATA
  void copy_data(void* dest, const void* src, std::size_t count) const override {
    CheckAcl(aclrtMemcpy(dest, count, src, count, ACL_MEMCPY_DEVICE_TO_DEVICE), "aclrtMemcpy");
  }
#endif
};

NpuAllocator g_allocator;
REGISTER_ALLOCATOR(DeviceType::PrivateUse1, &g_allocator);

c10::Stream MakeStream(c10::DeviceIndex device, c10::StreamId id) {
  return c10::Stream(c10::Stream::UNSAFE, c10::Device(DeviceType::PrivateUse1, device), id);
}

class NpuGuardImpl final : public c10::impl::DeviceGuardImplInterface {
 public:
  DeviceType type() const override { return DeviceType::PrivateUse1; }
  c10::Device exchangeDevice(c10::Device d) const override {
    const c10::Device old = getDevice();
    if (old.index() != d.index()) setDevice(d);
    return old;
  }
  c10::Device getDevice() const override {
    return c10::Device(DeviceType::PrivateUse1, c10_npu::current_device());
  }
  void setDevice(c10::Device d) const override {
    TORCH_CHECK(d.type() == DeviceType::PrivateUse1, "torch_npu (lngrad): not an npu device: ", d);
    c10_npu::set_device(d.index());
  }
  void uncheckedSetDevice(c10::Device d) const noexcept override {
    try {
      c10_npu::set_device(d.index());
    } catch (...) {
      // Restoring a device that was valid when it was saved cannot fail.
    }
  }
  c10::Stream getStream(c10::Device d) const noexcept override {
    return MakeStream(d.index(), CurrentStreamId(d.index()));
  }
  c10::Stream getDefaultStream(c10::Device d) const override { return MakeStream(d.index(), 0); }
  c10::Stream getStreamFromGlobalPool(c10::Device d, bool /*high_priority*/) const override {
    return MakeStream(d.index(), NewPoolStream(d.index()));
  }
  c10::Stream exchangeStream(c10::Stream s) const noexcept override {
    const c10::Stream old = getStream(s.device());
    SetCurrentStreamId(s.device_index(), s.id());
    return old;
  }
  c10::DeviceIndex deviceCount() const noexcept override { return c10_npu::device_count(); }
  bool queryStream(const c10::Stream& /*stream*/) const override { return true; }
  void synchronizeStream(const c10::Stream& stream) const override {
    SynchronizeStream(stream.device_index(), stream.id());
  }
};

C10_REGISTER_GUARD_IMPL(PrivateUse1, NpuGuardImpl);

}  // namespace
}  // namespace lngrad::torch_npu
