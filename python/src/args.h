// The Python module's argument handling (python/src; bindings only): array arguments checked and
// viewed without a copy (Take), the checks calls share (one dtype, one shape, rows), outputs in
// the caller's array type (Allocate), Status to exceptions.
#pragma once

#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "lngrad/lngrad.h"

namespace lngrad::python {

namespace nb = nanobind;

using InArray = nb::ndarray<nb::ro>;

// bfloat16 comes only as torch tensors (NumPy has no bfloat16 dtype).
enum class DType { kFloat32, kFloat16, kBFloat16 };

inline const char* NameOf(DType t) {
  return t == DType::kFloat16 ? "float16" : t == DType::kBFloat16 ? "bfloat16" : "float32";
}

[[noreturn]] void Raise(PyObject* type, const std::string& message);

// A Status that is not OK becomes ValueError (bad arguments, unsupported requests, sizes, kernel
// checks) or RuntimeError (a bug in lngrad), with the library's message.
void ThrowIfError(const lngrad::Status& s);

std::string ShapeText(const int64_t* shape, size_t ndim);  // "(2, 3)", "(4,)"

// Argument 'eps' of `fn` as the native library takes it (float). A finite value beyond the
// largest float, which the conversion would make inf, is refused here by lngrad::CheckEpsilon
// with the value as given (ValueError); every other value goes on to the library's own check.
float FloatEps(const char* fn, double eps);

// The kind of array the caller passed, so that results come back as the same kind.
enum class Kind { kNumpy, kTorch };

// torch support (torch_support.cpp): whether `h` is a torch.Tensor (false until someone imports
// torch), the kind of results for a call whose first data argument is `h`, a refusal of tensors
// that require grad, and a NumPy array wrapped as a tensor sharing its memory.
bool IsTorchTensor(nb::handle h);
Kind KindOf(nb::handle h);
void RefuseRequiresGrad(const char* fn, const char* name, nb::handle h);
nb::object TorchFromNumpy(const nb::object& array);
// An int16 NumPy array's memory as a torch.bfloat16 tensor (the bits as they are).
nb::object TorchBFloat16FromNumpy(const nb::object& array);

// One checked array argument: CPU, float32, float16 or (a torch tensor) bfloat16, C-contiguous.
// Objects with the buffer protocol (NumPy arrays) are read through it, everything else (torch
// tensors) through DLPack; either way the view is held until the Arg is destroyed (with the GIL
// held).
struct BufferRelease {
  void operator()(Py_buffer* b) const {
    PyBuffer_Release(b);
    delete b;
  }
};

static_assert(sizeof(Py_ssize_t) == sizeof(int64_t), "shapes are read as int64_t");

struct Arg {
  DType dtype = DType::kFloat32;
  const char* name = "";
  const void* ptr = nullptr;
  const int64_t* shape = nullptr;  // ndim extents, owned by `array` or `view`
  size_t nd = 0;
  size_t count = 0;
  InArray array;                                   // a DLPack import
  std::unique_ptr<Py_buffer, BufferRelease> view;  // a buffer-protocol view
  const void* data() const { return ptr; }
  size_t size() const { return count; }
  size_t ndim() const { return nd; }
  int64_t dim(size_t i) const { return shape[i]; }
  std::string shape_text() const { return ShapeText(shape, nd); }
};

std::string Where(const char* fn, const char* name);  // "fn: argument 'name'"

// The checked array argument `name` of `fn`: CPU, float32, float16 or bfloat16 (torch tensors
// only), C-contiguous.
Arg Take(const char* fn, const char* name, nb::handle h);
void SameDType(const char* fn, const Arg& ref, const Arg& a);
void SameShape(const char* fn, const Arg& ref, const Arg& a);
// The row layout of a [..., H] tensor: H = last extent, rows = the product of the others.
lngrad::RowShape RowsOf(const char* fn, const Arg& a);
void NeedSize(const char* fn, const Arg& a, int64_t n, const char* what);

// An output array of the caller's kind: a new NumPy array (PyArray_EMPTY), wrapped by
// torch.from_numpy for torch callers (bfloat16: an int16 array viewed as torch.bfloat16) (the
// cheapest way torch has to make a tensor of memory it did not allocate: about 0.5 us, where a
// DLPack export costs more).
struct Out {
  void* data = nullptr;
  nb::object object;
};

Out Allocate(Kind kind, DType dtype, const std::vector<size_t>& shape);
std::vector<size_t> ShapeOf(const Arg& a);

// half_eval: "fast" (the default) or "correctly-rounded" (lngrad::HalfEval).
lngrad::Options OptionsFrom(nb::handle num_threads, const std::string& half_eval = "fast");

// An array argument: None is accepted at the binding level, so that Take() names it in the error.
inline auto ArrayArg(const char* name) { return nb::arg(name).none(); }

// A typed view of an argument's data (float, lngrad::Half or lngrad::BFloat16).
template <class T>
const T* P(const Arg& a) {
  return static_cast<const T*>(a.data());
}
template <class T>
T* P(const Out& o) {
  return static_cast<T*>(o.data);
}

// Calls f(T{}) with T = lngrad::Half for float16 data, lngrad::BFloat16 for bfloat16: the
// 16-bit branch of a binding, written once.
template <class F>
auto With16Bit(DType d, F&& f) {
  return d == DType::kBFloat16 ? f(lngrad::BFloat16{}) : f(lngrad::Half{});
}

// gamma = None means ones; beta = None means zeros.
template <class T>
std::vector<T> Filled(int64_t h, float value) {
  return std::vector<T>(static_cast<size_t>(h), T(value));
}

// The checked inputs of LayerNormGrad (native and on the device): one dtype, dy and x of one
// shape (..., H), variance and mean one per row, gamma H.
struct GradInputs {
  Arg dy, x, variance, mean, gamma;
  lngrad::RowShape shape;
  GradInputs(const char* fn, nb::handle dy_h, nb::handle x_h, nb::handle variance_h,
             nb::handle mean_h, nb::handle gamma_h)
      : dy(Take(fn, "dy", dy_h)),
        x(Take(fn, "x", x_h)),
        variance(Take(fn, "variance", variance_h)),
        mean(Take(fn, "mean", mean_h)),
        gamma(Take(fn, "gamma", gamma_h)) {
    for (const Arg* a : {&dy, &variance, &mean, &gamma}) SameDType(fn, x, *a);
    SameShape(fn, x, dy);
    shape = RowsOf(fn, x);
    NeedSize(fn, variance, shape.rows, "one per row of x");
    NeedSize(fn, mean, shape.rows, "one per row of x");
    NeedSize(fn, gamma, shape.h, "H, the last extent of x");
  }
};

// The bindings of each API, defined by native.cpp and ascendc.cpp, called by NB_MODULE.
void DefineNative(nb::module_& m);
void DefineAscendc(nb::module_& dev);

}  // namespace lngrad::python
