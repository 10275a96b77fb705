// torch_npu's stream API for lngrad's simulated device (issue 31, python/torch_npu): what a
// custom operator includes to launch an Ascend C kernel on the current stream,
//
//   auto stream = c10_npu::getCurrentNPUStream().stream(false);
//   kernel<<<numBlocks, nullptr, stream>>>(...);
//
// The device type is torch's PrivateUse1 (named `npu` where torch can rename it); its tensors
// live in aclrtMalloc memory of lngrad's ACL runtime, so kernels see them as device memory, and
// each stream is an aclrtStream of that runtime. Launches and copies complete before they return
// (lngrad's runtime is synchronous); synchronize() reports a kernel's failure as an exception.
#pragma once

#include <c10/core/Device.h>
#include <c10/core/Stream.h>
#include <torch/version.h>

#include <cstdint>
#include <ostream>

// aclrtStream from lngrad's ACL headers (lngrad-asc puts them on the include path); a C++ source
// compiled without them gets the same type here.
#if __has_include("acl/acl_base.h")
#include "acl/acl_base.h"
#else
typedef void* aclrtStream;
#endif

// torch_npu requires a torch with Tensor::mutable_data_ptr (2.1 and later), and the kit's samples
// call it. With an older torch (Debian's 1.13) the name means data_ptr, which returns the same
// pointer (a shim of lngrad's stand-in: docs/python.md).
#if TORCH_VERSION_MAJOR < 2 || (TORCH_VERSION_MAJOR == 2 && TORCH_VERSION_MINOR < 1)
#define mutable_data_ptr data_ptr
#endif

namespace c10_npu {

// One stream of one simulated device: a c10::Stream of device type PrivateUse1 whose id names
// an aclrtStream of lngrad's ACL runtime.
class NPUStream {
 public:
  enum Unchecked { UNCHECKED };

  // A stream of the npu device type (any other is a c10::Error naming it).
  explicit NPUStream(c10::Stream stream);
  explicit NPUStream(Unchecked, c10::Stream stream) : stream_(stream) {}

  bool operator==(const NPUStream& other) const noexcept { return stream_ == other.stream_; }
  bool operator!=(const NPUStream& other) const noexcept { return !(*this == other); }

  operator aclrtStream() const { return stream(); }
  operator c10::Stream() const { return unwrap(); }

  c10::DeviceType device_type() const { return c10::DeviceType::PrivateUse1; }
  c10::DeviceIndex device_index() const { return stream_.device_index(); }
  c10::Device device() const { return c10::Device(c10::DeviceType::PrivateUse1, device_index()); }
  c10::StreamId id() const { return stream_.id(); }
  c10::Stream unwrap() const { return stream_; }

  // The aclrtStream to launch on. need_empty is torch_npu's "drain the task queue first"; lngrad
  // has no task queue (every launch runs to completion), so both forms are the same.
  aclrtStream stream() const;
  aclrtStream stream(bool need_empty) const;

  // Waits for the stream (aclrtSynchronizeStream): a kernel that failed on it since the last
  // synchronisation raises c10::Error with the runtime's report.
  void synchronize() const;
  bool query() const { return true; }

 private:
  c10::Stream stream_;
};

// The current stream of a device (-1: the current device): its default stream unless
// setCurrentNPUStream chose another on this thread.
NPUStream getCurrentNPUStream(c10::DeviceIndex device_index = -1);
// The device's default stream (created on first use).
NPUStream getDefaultNPUStream(c10::DeviceIndex device_index = -1);
// A new stream of the device (lngrad's streams are cheap; there is no pool to run out of).
NPUStream getStreamFromPool(bool isHighPriority = false, c10::DeviceIndex device_index = -1);
// Makes the stream current for its device on this thread.
void setCurrentNPUStream(NPUStream stream);

std::ostream& operator<<(std::ostream& stream, const NPUStream& s);

}  // namespace c10_npu
