// torch_npu's operators for the PrivateUse1 device type (issue 31, python/torch_npu): what moves
// tensors to and from the simulated device and what custom operators use on it (allocation,
// copies, views, fill_ and zero_), a fallback that names every other operator as not provided, and
// the torch_npu operators the Python package calls (torch.ops.torch_npu.*).
#include <ATen/ATen.h>
#include <ATen/EmptyTensor.h>
#include <ATen/NativeFunctions.h>
#include <ATen/core/dispatch/Dispatcher.h>
#include <c10/core/Allocator.h>
#include <c10/core/DeviceGuard.h>
#include <torch/library.h>
#include <torch/version.h>

#include <cstdint>
#include <string>

#include "acl/acl.h"
#include "npu_runtime.h"
#include "torch_npu/csrc/core/npu/NPUFunctions.h"
#include "torch_npu/csrc/core/npu/NPUStream.h"

namespace lngrad::torch_npu {
namespace {

bool IsNpu(const at::Tensor& t) { return t.device().type() == c10::DeviceType::PrivateUse1; }

c10::DispatchKeySet NpuKeys() { return c10::DispatchKeySet(c10::DispatchKey::PrivateUse1); }

c10::DeviceIndex TargetDevice(c10::optional<c10::Device> device) {
  if (!device.has_value() || !device->has_index()) return c10_npu::current_device();
  return device->index();
}

at::Tensor EmptyMemoryFormat(at::IntArrayRef size, c10::optional<at::ScalarType> dtype,
                             c10::optional<at::Layout> /*layout*/,
                             c10::optional<c10::Device> device, c10::optional<bool> /*pin*/,
                             c10::optional<at::MemoryFormat> memory_format) {
  const c10::DeviceGuard guard(c10::Device(c10::DeviceType::PrivateUse1, TargetDevice(device)));
  return at::detail::empty_generic(size, c10::GetAllocator(c10::DeviceType::PrivateUse1), NpuKeys(),
                                   c10::dtype_or_default(dtype), memory_format);
}

at::Tensor EmptyStrided(at::IntArrayRef size, at::IntArrayRef stride,
                        c10::optional<at::ScalarType> dtype, c10::optional<at::Layout> /*layout*/,
                        c10::optional<c10::Device> device, c10::optional<bool> /*pin*/) {
  const c10::DeviceGuard guard(c10::Device(c10::DeviceType::PrivateUse1, TargetDevice(device)));
  return at::detail::empty_strided_generic(size, stride,
                                           c10::GetAllocator(c10::DeviceType::PrivateUse1),
                                           NpuKeys(), c10::dtype_or_default(dtype));
}

// The device memory of an npu tensor seen as a CPU tensor (lngrad's device memory is host
// memory): CPU kernels then do what a copy kernel does on the device.
at::Tensor HostView(const at::Tensor& t) {
  if (!IsNpu(t)) return t;
  return at::from_blob(t.data_ptr(), t.sizes(), t.strides(), t.options().device(at::kCPU));
}

// Results of kernels on the current stream are read only after it synchronises (a failed kernel
// raises here, as torch_npu's copy to the host does).
void WaitForDevice(const at::Tensor& t) {
  if (IsNpu(t)) SynchronizeStream(t.device().index(), CurrentStreamId(t.device().index()));
}

aclrtMemcpyKind KindOf(const at::Tensor& dst, const at::Tensor& src) {
  if (IsNpu(dst)) return IsNpu(src) ? ACL_MEMCPY_DEVICE_TO_DEVICE : ACL_MEMCPY_HOST_TO_DEVICE;
  return IsNpu(src) ? ACL_MEMCPY_DEVICE_TO_HOST : ACL_MEMCPY_HOST_TO_HOST;
}

at::Tensor& Copy(at::Tensor& self, const at::Tensor& src, bool /*non_blocking*/) {
  TORCH_CHECK(self.device().is_cpu() || IsNpu(self), "torch_npu (lngrad): copy_ to ", self.device(),
              " from ", src.device(), " is not supported (CPU and npu only)");
  TORCH_CHECK(src.device().is_cpu() || IsNpu(src), "torch_npu (lngrad): copy_ from ", src.device(),
              " to ", self.device(), " is not supported (CPU and npu only)");
  WaitForDevice(src);
  const bool plain = self.dtype() == src.dtype() && self.sizes() == src.sizes() &&
                     self.is_contiguous() && src.is_contiguous() && !self.is_conj() &&
                     !src.is_conj() && !self.is_neg() && !src.is_neg();
  if (plain && self.nbytes() > 0) {
    const c10::DeviceGuard guard(IsNpu(self) ? self.device() : src.device());
    SetAclDevice(c10_npu::current_device());
    CheckAcl(aclrtMemcpy(self.data_ptr(), self.nbytes(), src.data_ptr(), src.nbytes(),
                         KindOf(self, src)),
             "aclrtMemcpy");
    return self;
  }
  HostView(self).copy_(HostView(src));
  return self;
}

at::Tensor CopyFrom(const at::Tensor& self, const at::Tensor& dst, bool non_blocking) {
  at::Tensor out = dst;
  return Copy(out, self, non_blocking);
}

at::Tensor& Fill(at::Tensor& self, const at::Scalar& value) {
  WaitForDevice(self);
  HostView(self).fill_(value);
  return self;
}

at::Tensor& Zero(at::Tensor& self) {
  WaitForDevice(self);
  HostView(self).zero_();
  return self;
}

at::Tensor AsStrided(const at::Tensor& self, at::IntArrayRef size, at::IntArrayRef stride,
                     c10::optional<int64_t> storage_offset) {
  return at::native::as_strided_tensorimpl(self, size, stride, storage_offset);
}

at::Tensor View(const at::Tensor& self, at::IntArrayRef size) {
  return at::native::view(self, size);
}

// reshape's view on torch versions that have it (1.13 does).
#if __has_include(<ATen/ops/_reshape_alias_native.h>)
#define LNGRAD_NPU_RESHAPE_ALIAS 1
at::Tensor ReshapeAlias(const at::Tensor& self, at::IntArrayRef size, at::IntArrayRef stride) {
  return at::native::_reshape_alias(self, size, stride);
}
#endif

// Every other aten operator on npu tensors: a NotImplementedError naming it, instead of torch's
// list of backends.
void NotProvided(const c10::OperatorHandle& op, torch::jit::Stack* /*stack*/) {
  TORCH_CHECK_NOT_IMPLEMENTED(
      false, "torch_npu (lngrad): '", op.schema().operator_name(),
      "' has no kernel for the simulated npu device. lngrad's torch_npu provides tensor "
      "creation, copies between the CPU and npu, views, fill_ and zero_; compute on npu tensors "
      "comes "
      "from your own operators (Ascend C kernels launched with <<<>>>). Move the tensors to the "
      "CPU (.cpu()) for anything else.");
}

void Synchronize(int64_t device) {
  const c10::DeviceIndex index = CheckedDevice(static_cast<c10::DeviceIndex>(device));
  const c10::DeviceGuard guard(c10::Device(c10::DeviceType::PrivateUse1, index));
  c10_npu::npuSynchronizeDevice();
}

int64_t DeviceCount() { return c10_npu::device_count(); }
int64_t CurrentDevice() { return c10_npu::current_device(); }
void SetDevice(int64_t device) { c10_npu::set_device(static_cast<c10::DeviceIndex>(device)); }
std::string SocName() { return aclrtGetSocName(); }

}  // namespace

TORCH_LIBRARY_IMPL(aten, PrivateUse1, m) {
  m.impl("empty.memory_format", TORCH_FN(EmptyMemoryFormat));
  m.impl("empty_strided", TORCH_FN(EmptyStrided));
  m.impl("copy_", TORCH_FN(Copy));
  m.impl("_copy_from", TORCH_FN(CopyFrom));
  m.impl("fill_.Scalar", TORCH_FN(Fill));
  m.impl("zero_", TORCH_FN(Zero));
  m.impl("as_strided", TORCH_FN(AsStrided));
  m.impl("view", TORCH_FN(View));
#ifdef LNGRAD_NPU_RESHAPE_ALIAS
  m.impl("_reshape_alias", TORCH_FN(ReshapeAlias));
#endif
}

TORCH_LIBRARY_IMPL(_, PrivateUse1, m) {
  m.fallback(torch::CppFunction::makeFromBoxedFunction<&NotProvided>());
}

// torch 1.13 has no autograd fallback for PrivateUse1 (2.0 added one): operators with no autograd
// kernel of their own (a custom operator registered for PrivateUse1 only) fall through to it, as
// on the CPU.
#if TORCH_VERSION_MAJOR < 2
TORCH_LIBRARY_IMPL(_, AutogradPrivateUse1, m) { m.fallback(torch::CppFunction::makeFallthrough()); }
#endif

TORCH_LIBRARY(torch_npu, m) {
  m.def("_synchronize(int device) -> ()", &Synchronize);
  m.def("_device_count() -> int", &DeviceCount);
  m.def("_current_device() -> int", &CurrentDevice);
  m.def("_set_device(int device) -> ()", &SetDevice);
  m.def("_soc_name() -> str", &SocName);
}

}  // namespace lngrad::torch_npu
