// torch_npu's devices and streams on lngrad's ACL runtime (issue 31, python/torch_npu): the
// current device per thread (with the thread's ACL device), one default aclrtStream per device
// and the streams getStreamFromPool made, named by their index (the c10::StreamId).
#include "npu_runtime.h"

#include <c10/util/Exception.h>

#include <array>
#include <mutex>
#include <vector>

#include "acl/acl.h"
#include "torch_npu/csrc/core/npu/NPUFunctions.h"
#include "torch_npu/csrc/core/npu/NPUStream.h"

namespace lngrad::torch_npu {
namespace {

constexpr int kMaxDevices = 8;  // lngrad's ACL runtime: devices 0..7

thread_local c10::DeviceIndex t_device = 0;
// The thread's ACL device as this library set it (-1: none yet). Kept here rather than asked
// of aclrtGetDevice, which reports a thread without a device as an error.
thread_local c10::DeviceIndex t_acl_device = -1;
// Per device: the id of this thread's current stream (-1: the default stream).
thread_local std::array<c10::StreamId, kMaxDevices> t_stream = [] {
  std::array<c10::StreamId, kMaxDevices> ids{};
  ids.fill(-1);
  return ids;
}();

struct Streams {
  std::mutex mu;
  std::array<std::vector<aclrtStream>, kMaxDevices> per_device;  // [0]: the default stream
};

Streams& AllStreams() {
  static auto* streams = new Streams;  // leaked: tensors may be freed from static destructors
  return *streams;
}

aclrtStream NewStream(c10::DeviceIndex device) {
  SetAclDevice(device);
  aclrtStream stream = nullptr;
  CheckAcl(aclrtCreateStream(&stream), "aclrtCreateStream");
  return stream;
}

}  // namespace

void CheckAcl(aclError code, const char* call) {
  if (code == ACL_SUCCESS) return;
  const char* message = aclGetRecentErrMsg();
  TORCH_CHECK(false, "torch_npu (lngrad): ", call, " failed with ACL error ", code,
              message != nullptr ? ": " : "", message != nullptr ? message : "");
}

c10::DeviceIndex CheckedDevice(c10::DeviceIndex device) {
  if (device < 0) return t_device;
  TORCH_CHECK(device < c10_npu::device_count(), "torch_npu (lngrad): device index ",
              static_cast<int>(device), " is out of range: the simulated npu has ",
              static_cast<int>(c10_npu::device_count()), " devices (0..",
              static_cast<int>(c10_npu::device_count()) - 1, ")");
  return device;
}

void SetAclDevice(c10::DeviceIndex device) {
  if (t_acl_device == device) return;
  CheckAcl(aclrtSetDevice(device), "aclrtSetDevice");
  t_acl_device = device;
}

void EnsureAclDevice() {
  if (t_acl_device < 0) SetAclDevice(t_device);
}

aclrtStream StreamHandle(c10::DeviceIndex device, c10::StreamId id) {
  device = CheckedDevice(device);
  Streams& s = AllStreams();
  std::lock_guard<std::mutex> lock(s.mu);
  std::vector<aclrtStream>& streams = s.per_device[device];
  if (streams.empty()) streams.push_back(NewStream(device));
  TORCH_CHECK(id >= 0 && static_cast<size_t>(id) < streams.size(),
              "torch_npu (lngrad): npu:", static_cast<int>(device), " has no stream with id ", id);
  return streams[id];
}

c10::StreamId NewPoolStream(c10::DeviceIndex device) {
  device = CheckedDevice(device);
  StreamHandle(device, 0);  // the default stream first: it keeps id 0
  aclrtStream stream = NewStream(device);
  Streams& s = AllStreams();
  std::lock_guard<std::mutex> lock(s.mu);
  s.per_device[device].push_back(stream);
  return static_cast<c10::StreamId>(s.per_device[device].size() - 1);
}

c10::StreamId CurrentStreamId(c10::DeviceIndex device) {
  const c10::StreamId id = t_stream[CheckedDevice(device)];
  return id < 0 ? 0 : id;
}

void SetCurrentStreamId(c10::DeviceIndex device, c10::StreamId id) {
  t_stream[CheckedDevice(device)] = id;
}

void SetCurrentDevice(c10::DeviceIndex device) {
  device = CheckedDevice(device);
  SetAclDevice(device);
  t_device = device;
}

void SynchronizeStream(c10::DeviceIndex device, c10::StreamId id) {
  device = CheckedDevice(device);
  aclrtStream stream = StreamHandle(device, id);
  SetAclDevice(device);
  CheckAcl(aclrtSynchronizeStream(stream), "aclrtSynchronizeStream (a kernel on this stream)");
}

}  // namespace lngrad::torch_npu

namespace c10_npu {

using lngrad::torch_npu::CheckedDevice;

NPUStream::NPUStream(c10::Stream stream) : stream_(stream) {
  TORCH_CHECK(stream.device_type() == c10::DeviceType::PrivateUse1,
              "torch_npu (lngrad): NPUStream needs a stream of the npu device type, got one of ",
              stream.device_type());
}

aclrtStream NPUStream::stream() const {
  return lngrad::torch_npu::StreamHandle(device_index(), id());
}

aclrtStream NPUStream::stream(bool /*need_empty*/) const { return stream(); }

void NPUStream::synchronize() const { lngrad::torch_npu::SynchronizeStream(device_index(), id()); }

NPUStream getCurrentNPUStream(c10::DeviceIndex device_index) {
  const c10::DeviceIndex device = CheckedDevice(device_index);
  const c10::StreamId id = lngrad::torch_npu::CurrentStreamId(device);
  lngrad::torch_npu::StreamHandle(device, id);  // created on first use
  return NPUStream(
      NPUStream::UNCHECKED,
      c10::Stream(c10::Stream::UNSAFE, c10::Device(c10::DeviceType::PrivateUse1, device), id));
}

NPUStream getDefaultNPUStream(c10::DeviceIndex device_index) {
  const c10::DeviceIndex device = CheckedDevice(device_index);
  lngrad::torch_npu::StreamHandle(device, 0);
  return NPUStream(
      NPUStream::UNCHECKED,
      c10::Stream(c10::Stream::UNSAFE, c10::Device(c10::DeviceType::PrivateUse1, device), 0));
}

NPUStream getStreamFromPool(bool /*isHighPriority*/, c10::DeviceIndex device_index) {
  const c10::DeviceIndex device = CheckedDevice(device_index);
  const c10::StreamId id = lngrad::torch_npu::NewPoolStream(device);
  return NPUStream(
      NPUStream::UNCHECKED,
      c10::Stream(c10::Stream::UNSAFE, c10::Device(c10::DeviceType::PrivateUse1, device), id));
}

void setCurrentNPUStream(NPUStream stream) {
  lngrad::torch_npu::SetCurrentStreamId(stream.device_index(), stream.id());
}

std::ostream& operator<<(std::ostream& stream, const NPUStream& s) { return stream << s.unwrap(); }

c10::DeviceIndex device_count() noexcept {
  uint32_t count = 0;
  if (aclrtGetDeviceCount(&count) != ACL_SUCCESS) return 0;
  return static_cast<c10::DeviceIndex>(count);
}

c10::DeviceIndex current_device() { return CheckedDevice(-1); }

void set_device(c10::DeviceIndex device) {
  TORCH_CHECK(device >= 0, "torch_npu (lngrad): set_device needs a device index >= 0, got ",
              static_cast<int>(device));
  lngrad::torch_npu::SetCurrentDevice(device);
}

void npuSynchronizeDevice() {
  lngrad::torch_npu::SetAclDevice(current_device());
  lngrad::torch_npu::CheckAcl(aclrtSynchronizeDevice(), "aclrtSynchronizeDevice");
}

}  // namespace c10_npu
