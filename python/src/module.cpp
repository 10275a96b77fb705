// lngrad._lngrad: the Python bindings (nanobind). Bindings only: every number comes from the
// C++ library (lngrad::LayerNorm*, lngrad::ops::Run*Op, the host tiling API); this file checks
// the Python arguments, allocates the outputs in the caller's array type, releases the GIL and
// maps Status to exceptions. The Python-facing contract is in python/lngrad/__init__.py and
// docs/python.md.
//
// NumPy arrays come in and go out through the NumPy C API: the buffer protocol and numpy.empty
// cost about 0.3 us per array, which at 64x16 is most of the call (bench/bench_python.py).
#define NPY_NO_DEPRECATED_API NPY_1_7_API_VERSION
#define PY_ARRAY_UNIQUE_SYMBOL lngrad_ARRAY_API
#include <numpy/arrayobject.h>

#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <array>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <memory>
#include <new>
#include <string>
#include <vector>

#include "kernel_tiling/kernel_tiling.h"
#include "lngrad/lngrad.h"
#include "lngrad/product.h"
#include "ops/layernorm_grad_beta_op.h"
#include "ops/layernorm_grad_op.h"
#include "ops/op_host.h"
#include "tiling/tiling_api.h"

namespace nb = nanobind;

namespace {

using InArray = nb::ndarray<nb::ro>;

enum class DType { kFloat32, kFloat16 };

const char* NameOf(DType t) { return t == DType::kFloat16 ? "float16" : "float32"; }

[[noreturn]] void Raise(PyObject* type, const std::string& message) {
  throw nb::builtin_exception(
      type == PyExc_TypeError ? nb::exception_type::type_error : nb::exception_type::value_error,
      message.c_str());
}

// A Status that is not OK becomes ValueError (bad arguments, unsupported requests, sizes, kernel
// checks) or RuntimeError (a bug in lngrad), with the library's message.
void ThrowIfError(const lngrad::Status& s) {
  if (s.ok()) return;
  if (s.code() == lngrad::StatusCode::kInternal) throw std::runtime_error(s.message());
  Raise(PyExc_ValueError, s.message());
}

std::string DTypeText(nb::dlpack::dtype d) {
  // DLPack's type codes 0..6, in order.
  static const char* const kKinds[] = {"int",    "uint",    "float", "opaque",
                                       "bfloat", "complex", "bool"};
  const char* kind = d.code < std::size(kKinds) ? kKinds[d.code] : "?";
  return std::string(kind) + std::to_string(d.bits);
}

std::string ShapeText(const int64_t* shape, size_t ndim) {
  std::string s = "(";
  for (size_t i = 0; i < ndim; ++i) {
    if (i) s += ", ";
    s += std::to_string(shape[i]);
  }
  if (ndim == 1) s += ",";
  return s + ")";
}

// The kind of array the caller passed, so that results come back as the same kind.
enum class Kind { kNumpy, kTorch };

// torch.Tensor, once torch has been imported by someone (lngrad never imports it itself). Until
// then each call looks "torch" up in sys.modules with an interned key (a hash-table probe).
PyObject* TorchTensorType() {
  static PyObject* type = nullptr;
  static PyObject* key = PyUnicode_InternFromString("torch");
  if (type == nullptr) {
    PyObject* torch = PyDict_GetItem(PyImport_GetModuleDict(), key);       // borrowed, no error set
    if (torch != nullptr) type = PyObject_GetAttrString(torch, "Tensor");  // kept for good
    if (type == nullptr) PyErr_Clear();
  }
  return type;
}

bool IsTorchTensor(nb::handle h) {
  PyObject* t = TorchTensorType();
  return t != nullptr && PyObject_IsInstance(h.ptr(), t) == 1;
}

// The kind of results for a call whose first data argument is `h`.
Kind KindOf(nb::handle h) { return IsTorchTensor(h) ? Kind::kTorch : Kind::kNumpy; }

// One checked array argument: CPU, float32 or float16, C-contiguous. Objects with the buffer
// protocol (NumPy arrays) are read through it, everything else (torch tensors) through DLPack;
// either way the view is held until the Arg is destroyed (with the GIL held).
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

std::string Where(const char* fn, const char* name) {
  return std::string(fn) + ": argument '" + name + "'";
}

// C-contiguous: strides (in units of `unit`: bytes or elements) of a row-major array; extents
// of 1 carry no stride.
void CheckContiguous(const char* fn, const Arg& a, const int64_t* strides, int64_t unit) {
  if (a.size() == 0) return;  // no element, no layout
  int64_t expected = unit;
  for (size_t i = a.ndim(); i-- > 0;) {
    if (a.shape[i] != 1 && strides[i] != expected) {
      std::vector<int64_t> elements(strides, strides + a.ndim());
      for (int64_t& e : elements) e /= unit;
      Raise(PyExc_ValueError,
            Where(fn, a.name) + " must be C-contiguous (rows over the last axis); it has shape " +
                a.shape_text() + " and strides " + ShapeText(elements.data(), elements.size()) +
                " in elements (numpy.ascontiguousarray or tensor.contiguous() makes a copy)");
    }
    expected *= a.shape[i];
  }
}

// The buffer protocol's format of one float32 or float16 element ("f", "e", with an optional
// native byte-order prefix); false for anything else.
bool FormatDType(const char* format, size_t itemsize, DType* out) {
  if (format == nullptr) return false;
  if (*format == '@' || *format == '=' || *format == '<') ++format;
  if (std::strcmp(format, "f") == 0 && itemsize == 4) {
    *out = DType::kFloat32;
    return true;
  }
  if (std::strcmp(format, "e") == 0 && itemsize == 2) {
    *out = DType::kFloat16;
    return true;
  }
  return false;
}

// A buffer format as NumPy names its dtype ("float64", "int32", ...), for messages.
std::string FormatName(const char* format, size_t itemsize) {
  std::string f = format ? format : "B";
  if (!f.empty() && (f[0] == '@' || f[0] == '=' || f[0] == '<' || f[0] == '>' || f[0] == '!')) {
    f.erase(0, 1);
  }
  const std::string bits = std::to_string(8 * itemsize);
  if (f == "e" || f == "f" || f == "d" || f == "g") return "float" + bits;
  if (f == "b" || f == "h" || f == "i" || f == "l" || f == "q") return "int" + bits;
  if (f == "B" || f == "H" || f == "I" || f == "L" || f == "Q") return "uint" + bits;
  if (f == "?") return "bool";
  if (f == "Zf" || f == "Zd" || f == "Zg") return "complex" + bits;
  return "the buffer format '" + f + "' (" + std::to_string(itemsize) + " bytes)";
}

// A NumPy array, through the NumPy C API. The caller's reference keeps it alive for the call.
void TakeNumpy(const char* fn, PyArrayObject* array, Arg* a) {
  const int type = PyArray_TYPE(array);
  if (type == NPY_FLOAT32) {
    a->dtype = DType::kFloat32;
  } else if (type == NPY_FLOAT16) {
    a->dtype = DType::kFloat16;
  } else {
    Raise(PyExc_TypeError, Where(fn, a->name) + " must be float32 or float16, not " +
                               nb::cast<std::string>(nb::str(
                                   nb::handle(reinterpret_cast<PyObject*>(PyArray_DESCR(array))))));
  }
  if (!PyArray_ISNOTSWAPPED(array)) {
    Raise(PyExc_TypeError, Where(fn, a->name) + " must be in the machine's byte order");
  }
  a->nd = static_cast<size_t>(PyArray_NDIM(array));
  a->shape = reinterpret_cast<const int64_t*>(PyArray_DIMS(array));
  a->count = static_cast<size_t>(PyArray_SIZE(array));
  a->ptr = PyArray_DATA(array);
  CheckContiguous(fn, *a, reinterpret_cast<const int64_t*>(PyArray_STRIDES(array)),
                  PyArray_ITEMSIZE(array));
}

bool TakeBuffer(const char* fn, nb::handle h, Arg* a) {
  std::unique_ptr<Py_buffer, BufferRelease> view(new Py_buffer);
  if (PyObject_GetBuffer(h.ptr(), view.get(), PyBUF_RECORDS_RO) != 0) {
    PyErr_Clear();
    delete view.release();
    return false;
  }
  a->nd = static_cast<size_t>(view->ndim);
  a->shape = reinterpret_cast<const int64_t*>(view->shape);
  a->count = 1;
  for (size_t i = 0; i < a->nd; ++i) a->count *= static_cast<size_t>(a->shape[i]);
  if (!FormatDType(view->format, static_cast<size_t>(view->itemsize), &a->dtype)) {
    Raise(PyExc_TypeError, Where(fn, a->name) + " must be float32 or float16, not " +
                               FormatName(view->format, static_cast<size_t>(view->itemsize)));
  }
  a->ptr = view->buf;
  a->view = std::move(view);
  CheckContiguous(fn, *a, reinterpret_cast<const int64_t*>(a->view->strides), a->view->itemsize);
  return true;
}

Arg Take(const char* fn, const char* name, nb::handle h) {
  Arg a;
  a.name = name;
  if (h.is_none()) Raise(PyExc_TypeError, Where(fn, name) + " is None; an array is required");
  if (PyArray_Check(h.ptr())) {
    TakeNumpy(fn, reinterpret_cast<PyArrayObject*>(h.ptr()), &a);
    return a;
  }
  if (PyObject_CheckBuffer(h.ptr()) && TakeBuffer(fn, h, &a)) return a;
  // A tensor that requires grad is refused (nanobind would import it, and the results would
  // silently leave the autograd graph).
  if (IsTorchTensor(h) && nb::cast<bool>(h.attr("requires_grad"))) {
    Raise(PyExc_TypeError, Where(fn, name) +
                               " requires grad; pass tensor.detach() (lngrad.torch.layer_norm "
                               "and lngrad.torch.LayerNorm take part in autograd)");
  }
  if (!nb::try_cast<InArray>(h, a.array, /*convert=*/false)) {
    Raise(PyExc_TypeError,
          Where(fn, name) +
              " must be an array with the buffer protocol or DLPack (a NumPy array "
              "or a torch CPU tensor), not " +
              std::string(nb::type_name(h.type()).c_str()));
  }
  if (a.array.device_type() != nb::device::cpu::value) {
    Raise(PyExc_ValueError, Where(fn, name) + " must be on the CPU (its DLPack device type is " +
                                std::to_string(a.array.device_type()) + ")");
  }
  const nb::dlpack::dtype d = a.array.dtype();
  if (d == nb::dtype<float>()) {
    a.dtype = DType::kFloat32;
  } else if (d.code == static_cast<uint8_t>(nb::dlpack::dtype_code::Float) && d.bits == 16 &&
             d.lanes == 1) {
    a.dtype = DType::kFloat16;
  } else {
    Raise(PyExc_TypeError, Where(fn, name) + " must be float32 or float16, not " + DTypeText(d));
  }
  a.shape = a.array.shape_ptr();
  a.nd = a.array.ndim();
  a.count = a.array.size();
  a.ptr = a.array.data();
  CheckContiguous(fn, a, a.array.stride_ptr(), 1);
  return a;
}

void SameDType(const char* fn, const Arg& ref, const Arg& a) {
  if (a.dtype != ref.dtype) {
    Raise(PyExc_TypeError, Where(fn, a.name) + " is " + NameOf(a.dtype) + " but '" + ref.name +
                               "' is " + NameOf(ref.dtype) +
                               "; every tensor of the call has one dtype");
  }
}

void SameShape(const char* fn, const Arg& ref, const Arg& a) {
  bool same = a.ndim() == ref.ndim();
  for (size_t i = 0; same && i < a.ndim(); ++i) same = a.dim(i) == ref.dim(i);
  if (!same) {
    Raise(PyExc_ValueError, Where(fn, a.name) + " has shape " + a.shape_text() + " but '" +
                                ref.name + "' has shape " + ref.shape_text() +
                                "; they must be equal");
  }
}

// The row layout of a [..., H] tensor: H = last extent, rows = the product of the others.
lngrad::RowShape RowsOf(const char* fn, const Arg& a) {
  if (a.ndim() == 0) {
    Raise(PyExc_ValueError,
          Where(fn, a.name) + " is a scalar; it needs at least one axis (rows over the last)");
  }
  lngrad::RowShape s;
  s.h = a.dim(a.ndim() - 1);
  s.rows = 1;
  for (size_t i = 0; i + 1 < a.ndim(); ++i) s.rows *= a.dim(i);
  return s;
}

void NeedSize(const char* fn, const Arg& a, int64_t n, const char* what) {
  if (static_cast<int64_t>(a.size()) != n) {
    Raise(PyExc_ValueError, Where(fn, a.name) + " has " + std::to_string(a.size()) +
                                " elements (shape " + a.shape_text() + ") but must have " +
                                std::to_string(n) + " (" + what + ")");
  }
}

// An output array of the caller's kind: a new NumPy array (PyArray_EMPTY), wrapped by
// torch.from_numpy for torch callers (the cheapest way torch has to make a tensor of memory it
// did not allocate: about 0.5 us, where a DLPack export costs more).
struct Out {
  void* data = nullptr;
  nb::object object;
};

Out Allocate(Kind kind, DType dtype, const std::vector<size_t>& shape) {
  static_assert(sizeof(npy_intp) == sizeof(size_t));
  nb::object array =
      nb::steal(PyArray_EMPTY(static_cast<int>(shape.size()),
                              reinterpret_cast<npy_intp*>(const_cast<size_t*>(shape.data())),
                              dtype == DType::kFloat16 ? NPY_FLOAT16 : NPY_FLOAT32, /*fortran=*/0));
  if (!array.is_valid()) throw nb::python_error();
  Out o;
  o.data = PyArray_DATA(reinterpret_cast<PyArrayObject*>(array.ptr()));
  if (kind == Kind::kTorch) {
    static nb::object* from_numpy = nullptr;  // never destroyed, as the module's other state
    if (from_numpy == nullptr) {
      from_numpy = new nb::object(nb::module_::import_("torch").attr("from_numpy"));
    }
    PyObject* a[] = {array.ptr()};
    o.object = nb::steal(PyObject_Vectorcall(from_numpy->ptr(), a, 1, nullptr));
    if (!o.object.is_valid()) throw nb::python_error();
  } else {
    o.object = std::move(array);
  }
  return o;
}

std::vector<size_t> ShapeOf(const Arg& a) {
  std::vector<size_t> s(a.ndim());
  for (size_t i = 0; i < a.ndim(); ++i) s[i] = static_cast<size_t>(a.dim(i));
  return s;
}

// half_eval: "fast" (the default) or "correctly-rounded" (lngrad::HalfEval).
lngrad::Options OptionsFrom(nb::handle num_threads, const std::string& half_eval = "fast") {
  lngrad::Options o;
  if (!lngrad::ParseHalfEval(half_eval, &o.half_eval).ok()) {
    Raise(PyExc_ValueError,
          "argument 'half_eval' must be 'fast' or 'correctly-rounded', got '" + half_eval + "'");
  }
  if (!num_threads.is_none()) {
    int64_t n = 0;
    if (!nb::try_cast<int64_t>(num_threads, n)) {
      Raise(PyExc_TypeError, "argument 'num_threads' must be an int or None");
    }
    if (n < 0 || n > INT32_MAX) {
      Raise(PyExc_ValueError,
            "argument 'num_threads' must be >= 0 (0 or None: one per hardware thread), got " +
                std::to_string(n));
    }
    o.num_threads = static_cast<int>(n);
  }
  return o;
}

// A typed view of an argument's data (float or lngrad::Half).
template <class T>
const T* P(const Arg& a) {
  return static_cast<const T*>(a.data());
}
template <class T>
T* P(const Out& o) {
  return static_cast<T*>(o.data);
}

// gamma = None means ones; beta = None means zeros.
template <class T>
std::vector<T> Filled(int64_t h, float value) {
  return std::vector<T>(static_cast<size_t>(h), T(value));
}

// The fused backward. `stat` is rstd (PyTorch's convention, eps unused) or the variance with
// eps (Ascend C's, what lngrad.torch saves from lngrad.layer_norm).
nb::tuple Backward(const char* fn, nb::handle dy_h, nb::handle x_h, nb::handle mean_h,
                   nb::handle stat_h, const char* stat_name, bool stat_is_rstd, float eps,
                   nb::handle gamma_h, nb::handle num_threads, const std::string& half_eval) {
  const Arg dy = Take(fn, "dy", dy_h), x = Take(fn, "x", x_h);
  const Arg mean = Take(fn, "mean", mean_h), stat = Take(fn, stat_name, stat_h);
  SameDType(fn, x, dy);
  SameShape(fn, x, dy);
  const lngrad::RowShape shape = RowsOf(fn, x);
  // Statistics: of the data's dtype, or float32 with float16 data (PyTorch keeps them so).
  for (const Arg* a : {&mean, &stat}) {
    if (a->dtype != x.dtype && x.dtype == DType::kFloat32) SameDType(fn, x, *a);
  }
  SameDType(fn, mean, stat);
  NeedSize(fn, mean, shape.rows, "one per row of x");
  NeedSize(fn, stat, shape.rows, "one per row of x");
  Arg gamma;
  const bool has_gamma = !gamma_h.is_none();
  if (has_gamma) {
    gamma = Take(fn, "gamma", gamma_h);
    SameDType(fn, x, gamma);
    if (gamma.ndim() != 1) {
      Raise(PyExc_ValueError,
            Where(fn, "gamma") + " has shape " + gamma.shape_text() + "; it must be 1-D, (H,)");
    }
    NeedSize(fn, gamma, shape.h, "H, the last extent of x");
  }
  const lngrad::Options options = OptionsFrom(num_threads, half_eval);
  const Kind kind = KindOf(x_h);
  Out dx = Allocate(kind, x.dtype, ShapeOf(x));
  Out dgamma = Allocate(kind, x.dtype, {static_cast<size_t>(shape.h)});
  Out dbeta = Allocate(kind, x.dtype, {static_cast<size_t>(shape.h)});
  lngrad::Status conversion, st;
  {
    nb::gil_scoped_release release;
    using lngrad::Half;
    const size_t rows = static_cast<size_t>(shape.rows);
    const bool stats_half = mean.dtype == DType::kFloat16;
    // The statistics go to the library as given (float32, or half with half data and a
    // variance), except that PyTorch's rstd = 1/sqrt(var + eps) becomes the variance with
    // epsilon 0, variance = 1/rstd^2 (lngrad::RstdToVariance: double, rounded once to float),
    // and half statistics then widen to float (exact).
    const bool as_given = !stat_is_rstd;
    const bool widen = stat_is_rstd && stats_half;
    std::vector<float> stat32(as_given ? 0 : widen ? 2 * rows : rows);
    const float* mean32 = P<float>(mean);
    const float* var32 = P<float>(stat);
    if (!as_given) {
      float* var_out = stat32.data() + (widen ? rows : 0);
      if (widen) {
        for (size_t i = 0; i < rows; ++i) {
          stat32[i] = static_cast<float>(P<Half>(mean)[i]);
          var_out[i] = static_cast<float>(P<Half>(stat)[i]);
        }
        mean32 = stat32.data();
      }
      if (rows > 0) {
        conversion =
            lngrad::RstdToVariance(shape.rows, widen ? var_out : P<float>(stat), 0.0f, var_out);
      }
      var32 = var_out;
    }
    const float epsilon = stat_is_rstd ? 0.0f : eps;
    if (!conversion.ok()) {
      // nothing to compute: the statistics are refused
    } else if (x.dtype == DType::kFloat32) {
      const std::vector<float> ones = has_gamma ? std::vector<float>() : Filled<float>(shape.h, 1);
      st = lngrad::LayerNormBackward(shape, P<float>(dy), P<float>(x), mean32, var32,
                                     has_gamma ? P<float>(gamma) : ones.data(), epsilon,
                                     P<float>(dx), P<float>(dgamma), P<float>(dbeta), options);
    } else {
      const std::vector<Half> ones = has_gamma ? std::vector<Half>() : Filled<Half>(shape.h, 1);
      const Half* g = has_gamma ? P<Half>(gamma) : ones.data();
      if (as_given && stats_half) {
        st = lngrad::LayerNormBackward(shape, P<Half>(dy), P<Half>(x), P<Half>(mean), P<Half>(stat),
                                       g, epsilon, P<Half>(dx), P<Half>(dgamma), P<Half>(dbeta),
                                       options);
      } else {
        st = lngrad::LayerNormBackwardFloatStats(shape, P<Half>(dy), P<Half>(x), mean32, var32, g,
                                                 epsilon, P<Half>(dx), P<Half>(dgamma),
                                                 P<Half>(dbeta), options);
      }
    }
  }
  if (!conversion.ok()) Raise(PyExc_ValueError, std::string(fn) + ": " + conversion.message());
  ThrowIfError(st);
  return nb::make_tuple(dx.object, dgamma.object, dbeta.object);
}

nb::tuple LayerNormBackward(nb::handle dy, nb::handle x, nb::handle mean, nb::handle rstd,
                            nb::handle gamma, nb::handle num_threads,
                            const std::string& half_eval) {
  return Backward("layer_norm_backward", dy, x, mean, rstd, "rstd", true, 0.0f, gamma, num_threads,
                  half_eval);
}

nb::tuple LayerNormBackwardVariance(nb::handle dy, nb::handle x, nb::handle mean,
                                    nb::handle variance, nb::handle gamma, float eps,
                                    nb::handle num_threads, const std::string& half_eval) {
  return Backward("layer_norm_backward_variance", dy, x, mean, variance, "variance", false, eps,
                  gamma, num_threads, half_eval);
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

nb::tuple LayerNormGrad(nb::handle dy_h, nb::handle x_h, nb::handle variance_h, nb::handle mean_h,
                        nb::handle gamma_h, float eps, nb::handle num_threads,
                        const std::string& half_eval) {
  constexpr const char* kFn = "layer_norm_grad";
  const GradInputs in(kFn, dy_h, x_h, variance_h, mean_h, gamma_h);
  const Arg &dy = in.dy, &x = in.x, &variance = in.variance, &mean = in.mean, &gamma = in.gamma;
  const lngrad::RowShape shape = in.shape;
  const lngrad::Options options = OptionsFrom(num_threads, half_eval);
  const Kind kind = KindOf(x_h);
  Out pd_x = Allocate(kind, x.dtype, ShapeOf(x));
  Out res = Allocate(kind, x.dtype, ShapeOf(x));
  lngrad::Status st;
  {
    nb::gil_scoped_release release;
    if (x.dtype == DType::kFloat32) {
      st = lngrad::LayerNormGrad(shape, P<float>(dy), P<float>(x), P<float>(mean),
                                 P<float>(variance), P<float>(gamma), eps, P<float>(pd_x),
                                 P<float>(res), options);
    } else {
      using lngrad::Half;
      st = lngrad::LayerNormGrad(shape, P<Half>(dy), P<Half>(x), P<Half>(mean), P<Half>(variance),
                                 P<Half>(gamma), eps, P<Half>(pd_x), P<Half>(res), options);
    }
  }
  ThrowIfError(st);
  return nb::make_tuple(pd_x.object, res.object);
}

nb::tuple LayerNormGradBeta(nb::handle dy_h, nb::handle res_h, nb::handle num_threads) {
  constexpr const char* kFn = "layer_norm_grad_beta";
  const Arg dy = Take(kFn, "dy", dy_h), res = Take(kFn, "res_for_gamma", res_h);
  SameDType(kFn, dy, res);
  SameShape(kFn, dy, res);
  const lngrad::RowShape shape = RowsOf(kFn, dy);
  const lngrad::Options options = OptionsFrom(num_threads);
  const Kind kind = KindOf(dy_h);
  Out dgamma = Allocate(kind, dy.dtype, {static_cast<size_t>(shape.h)});
  Out dbeta = Allocate(kind, dy.dtype, {static_cast<size_t>(shape.h)});
  lngrad::Status st;
  {
    nb::gil_scoped_release release;
    if (dy.dtype == DType::kFloat32) {
      st = lngrad::LayerNormGradBeta(shape, P<float>(dy), P<float>(res), P<float>(dgamma),
                                     P<float>(dbeta), options);
    } else {
      using lngrad::Half;
      st = lngrad::LayerNormGradBeta(shape, P<Half>(dy), P<Half>(res), P<Half>(dgamma),
                                     P<Half>(dbeta), options);
    }
  }
  ThrowIfError(st);
  return nb::make_tuple(dgamma.object, dbeta.object);
}

nb::tuple LayerNorm(nb::handle x_h, nb::handle gamma_h, nb::handle beta_h, float eps,
                    nb::handle num_threads, bool float32_stats) {
  constexpr const char* kFn = "layer_norm";
  const Arg x = Take(kFn, "x", x_h);
  const lngrad::RowShape shape = RowsOf(kFn, x);
  const bool has_gamma = !gamma_h.is_none(), has_beta = !beta_h.is_none();
  Arg gamma, beta;
  if (has_gamma) {
    gamma = Take(kFn, "gamma", gamma_h);
    SameDType(kFn, x, gamma);
    NeedSize(kFn, gamma, shape.h, "H, the last extent of x");
  }
  if (has_beta) {
    beta = Take(kFn, "beta", beta_h);
    SameDType(kFn, x, beta);
    NeedSize(kFn, beta, shape.h, "H, the last extent of x");
  }
  const lngrad::Options options = OptionsFrom(num_threads);
  const Kind kind = KindOf(x_h);
  std::vector<size_t> stat_shape = ShapeOf(x);
  stat_shape.pop_back();
  // float32_stats: float statistics of half data (rounded once from double), as PyTorch keeps
  // them and as lngrad.torch saves them for the backward.
  const bool stats32 = float32_stats && x.dtype == DType::kFloat16;
  const DType stat_dtype = float32_stats ? DType::kFloat32 : x.dtype;
  Out y = Allocate(kind, x.dtype, ShapeOf(x));
  Out mean = Allocate(kind, stat_dtype, stat_shape);
  Out variance = Allocate(kind, stat_dtype, stat_shape);
  lngrad::Status st;
  {
    nb::gil_scoped_release release;
    if (x.dtype == DType::kFloat32) {
      const auto g = has_gamma ? std::vector<float>() : Filled<float>(shape.h, 1);
      const auto b = has_beta ? std::vector<float>() : Filled<float>(shape.h, 0);
      st = lngrad::LayerNorm(shape, P<float>(x), has_gamma ? P<float>(gamma) : g.data(),
                             has_beta ? P<float>(beta) : b.data(), eps, P<float>(y), P<float>(mean),
                             P<float>(variance), options);
    } else {
      using lngrad::Half;
      const auto g = has_gamma ? std::vector<Half>() : Filled<Half>(shape.h, 1);
      const auto b = has_beta ? std::vector<Half>() : Filled<Half>(shape.h, 0);
      const Half* gp = has_gamma ? P<Half>(gamma) : g.data();
      const Half* bp = has_beta ? P<Half>(beta) : b.data();
      st = stats32 ? lngrad::LayerNormFloatStats(shape, P<Half>(x), gp, bp, eps, P<Half>(y),
                                                 P<float>(mean), P<float>(variance), options)
                   : lngrad::LayerNorm(shape, P<Half>(x), gp, bp, eps, P<Half>(y), P<Half>(mean),
                                       P<Half>(variance), options);
    }
  }
  ThrowIfError(st);
  return nb::make_tuple(y.object, mean.object, variance.object);
}

// rstd <-> variance (float32 only, as the library's conversions).
template <lngrad::Status (*kConvert)(int64_t, const float*, float, float*)>
nb::object Convert(const char* fn, const char* name, nb::handle in_h, float eps) {
  const Arg in = Take(fn, name, in_h);
  if (in.dtype != DType::kFloat32) {
    Raise(PyExc_TypeError, std::string(fn) + ": argument '" + name + "' must be float32");
  }
  Out out = Allocate(KindOf(in_h), in.dtype, ShapeOf(in));
  if (in.size() > 0) ThrowIfError(kConvert(in.size(), P<float>(in), eps, P<float>(out)));
  return out.object;
}

// ---- lngrad.ascendc: the operators on the simulated device -------------------------------

// "min", "max" or a byte count (an int, or its decimal text) of argument `name`.
lngrad::ops::TmpSize TmpFrom(const char* fn, const char* name, nb::handle h) {
  lngrad::ops::TmpSize t;
  int64_t bytes = 0;
  if (nb::isinstance<nb::str>(h)) {
    const lngrad::Status st = lngrad::ops::ParseTmpSize(nb::cast<std::string>(h), &t);
    if (!st.ok()) Raise(PyExc_ValueError, Where(fn, name) + ": " + st.message());
  } else if (!nb::try_cast<int64_t>(h, bytes)) {
    Raise(PyExc_TypeError, Where(fn, name) + " must be \"min\", \"max\" or a byte count (int)");
  } else if (bytes < 0 || bytes > UINT32_MAX) {
    Raise(PyExc_ValueError,
          Where(fn, name) + " must be a byte count in [0, 2^32), got " + std::to_string(bytes));
  } else {
    t.kind = lngrad::ops::TmpSize::Kind::kBytes;
    t.bytes = static_cast<uint32_t>(bytes);
  }
  return t;
}

lngrad::ops::OpArgs DeviceArgs(const char* fn, const Arg& x, const std::string& soc,
                               bool reuse_source, nb::handle tmp, nb::handle blocks) {
  lngrad::ops::OpArgs a;
  // [B, S, H] (the caller's RowsOf has refused a scalar x): H the last extent, S the one before it,
  // B the product of the rest.
  const int64_t h = x.dim(x.ndim() - 1);
  const int64_t s = x.ndim() >= 2 ? x.dim(x.ndim() - 2) : 1;
  int64_t b = 1;
  for (size_t i = 0; i + 2 < x.ndim(); ++i) b *= x.dim(i);
  a.SetShape(
      x.dtype == DType::kFloat16 ? lngrad::ops::OpDType::kFloat16 : lngrad::ops::OpDType::kFloat32,
      b, s, h);
  // isReuseSource has no effect for half (spec §1.9, §3.3); as `lngrad run --impl ascendc`.
  a.reuse_source = reuse_source && x.dtype == DType::kFloat32;
  a.tmp = TmpFrom(fn, "tmp", tmp);
  int64_t n = 1;
  if (!blocks.is_none() && !nb::try_cast<int64_t>(blocks, n)) {
    Raise(PyExc_TypeError, std::string(fn) + ": argument 'blocks' must be an int or None");
  }
  if (n < 1 || n > 65535) {
    Raise(PyExc_ValueError,
          std::string(fn) + ": argument 'blocks' must be in [1, 65535], got " + std::to_string(n));
  }
  a.launch.blocks = static_cast<uint32_t>(n);
  a.launch.soc = soc;  // an unknown one is the operator's InvalidArgument
  return a;
}

nb::tuple DeviceLayerNormGrad(nb::handle dy_h, nb::handle x_h, nb::handle variance_h,
                              nb::handle mean_h, nb::handle gamma_h, float eps,
                              const std::string& soc, bool reuse_source, nb::handle tmp,
                              nb::handle blocks) {
  constexpr const char* kFn = "ascendc.layer_norm_grad";
  const GradInputs in(kFn, dy_h, x_h, variance_h, mean_h, gamma_h);
  const Arg &dy = in.dy, &x = in.x, &variance = in.variance, &mean = in.mean, &gamma = in.gamma;
  lngrad::ops::LayerNormGradOpArgs g;
  static_cast<lngrad::ops::OpArgs&>(g) = DeviceArgs(kFn, x, soc, reuse_source, tmp, blocks);
  const Kind kind = KindOf(x_h);
  Out pd_x = Allocate(kind, x.dtype, ShapeOf(x));
  Out res = Allocate(kind, x.dtype, ShapeOf(x));
  g.SetTensors(dy.data(), x.data(), mean.data(), variance.data(), gamma.data(), pd_x.data,
               res.data);
  g.epsilon = eps;
  lngrad::Status st;
  {
    nb::gil_scoped_release release;
    st = lngrad::ops::RunLayerNormGradOp(g);
  }
  ThrowIfError(st);
  return nb::make_tuple(pd_x.object, res.object);
}

nb::tuple DeviceLayerNormGradBeta(nb::handle dy_h, nb::handle res_h, const std::string& soc,
                                  bool reuse_source, nb::handle tmp, nb::handle blocks) {
  constexpr const char* kFn = "ascendc.layer_norm_grad_beta";
  const Arg dy = Take(kFn, "dy", dy_h), res = Take(kFn, "res_for_gamma", res_h);
  SameDType(kFn, dy, res);
  SameShape(kFn, dy, res);
  const lngrad::RowShape shape = RowsOf(kFn, dy);
  lngrad::ops::LayerNormGradBetaOpArgs b;
  static_cast<lngrad::ops::OpArgs&>(b) = DeviceArgs(kFn, dy, soc, reuse_source, tmp, blocks);
  const Kind kind = KindOf(dy_h);
  Out pd_gamma = Allocate(kind, dy.dtype, {static_cast<size_t>(shape.h)});
  Out pd_beta = Allocate(kind, dy.dtype, {static_cast<size_t>(shape.h)});
  b.SetTensors(res.data(), dy.data(), pd_gamma.data, pd_beta.data);
  lngrad::Status st;
  {
    nb::gil_scoped_release release;
    st = lngrad::ops::RunLayerNormGradBetaOp(b);
  }
  ThrowIfError(st);
  return nb::make_tuple(pd_gamma.object, pd_beta.object);
}

// The fields of a tiling struct in declaration order, from the X-macro lists that define them.
nb::dict FieldsOf(const AscendC::tiling::LayerNormGradTiling& t) {
  nb::dict d;
#define LNGRAD_FIELD(type, name) d[#name] = static_cast<uint32_t>(t.name);
  LNGRAD_LAYERNORM_GRAD_TILING_FIELDS(LNGRAD_FIELD)
#undef LNGRAD_FIELD
  return d;
}
nb::dict FieldsOf(const AscendC::tiling::LayerNormGradBetaTiling& t) {
  nb::dict d;
#define LNGRAD_FIELD(type, name) d[#name] = static_cast<uint32_t>(t.name);
  LNGRAD_LAYERNORM_GRAD_BETA_TILING_FIELDS(LNGRAD_FIELD)
#undef LNGRAD_FIELD
  return d;
}

// One API's host tiling: its max/min tmp sizes, the stack buffer chosen from them, the tiling.
template <class Tiling, class MaxMin, class Info>
nb::dict TileApi(const char* api, const ge::Shape& shape, uint32_t type_size, bool reuse,
                 const lngrad::ops::TmpSize& stack, MaxMin max_min, Info info) {
  uint32_t max_tmp = 0, min_tmp = 0;
  lngrad::Status st = max_min(shape, type_size, reuse, max_tmp, min_tmp);
  if (!st.ok()) Raise(PyExc_ValueError, std::string(api) + ": " + st.message());
  using TmpKind = lngrad::ops::TmpSize::Kind;
  const uint32_t chosen = stack.kind == TmpKind::kMin   ? min_tmp
                          : stack.kind == TmpKind::kMax ? max_tmp
                                                        : stack.bytes;
  Tiling t;
  st = info(shape, chosen, type_size, reuse, t);
  if (!st.ok()) Raise(PyExc_ValueError, std::string(api) + ": " + st.message());
  nb::dict d;
  d["min_tmp_size"] = min_tmp;
  d["max_tmp_size"] = max_tmp;
  d["stack_buffer_bytes"] = chosen;
  d["tiling"] = FieldsOf(t);
  if constexpr (std::is_same_v<Tiling, AscendC::tiling::LayerNormGradTiling>) {
    d["scratch_bytes_touched"] =
        4 * lngrad::tiling::LayerNormGradScratchFloats(t, type_size, reuse);
  }
  return d;
}

nb::dict Tiling(nb::handle shape_h, const std::string& dtype, const std::string& soc,
                bool reuse_source, nb::handle stack_buffer) {
  std::vector<int64_t> dims;
  if (!nb::try_cast<std::vector<int64_t>>(shape_h, dims) ||
      (dims.size() != 3 && dims.size() != 4)) {
    Raise(PyExc_ValueError,
          "ascendc.tiling: argument 'shape' must be (B, S, H) or (B, S, H, H0), a sequence of "
          "ints");
  }
  if (dims.size() == 3) dims.push_back(dims[2]);
  uint32_t type_size = 0;
  if (dtype == "float" || dtype == "float32") {
    type_size = 4;
  } else if (dtype == "half" || dtype == "float16") {
    type_size = 2;
  } else {
    Raise(PyExc_ValueError,
          "ascendc.tiling: argument 'dtype' must be \"float\" (\"float32\") or "
          "\"half\" (\"float16\"), not \"" +
              dtype + "\"");
  }
  const lngrad::ops::TmpSize stack = TmpFrom("ascendc.tiling", "stack_buffer", stack_buffer);
  const lngrad::Product* p = lngrad::FindProduct(soc);
  if (p == nullptr) {
    // SetCurrentSoc words the message (the known names) and changes nothing on failure.
    const lngrad::Status st = lngrad::SetCurrentSoc(soc);
    Raise(PyExc_ValueError, st.ok() ? "soc \"" + soc + "\" is unknown" : st.message());
  }
  // The tiling functions read the current product; held for the call.
  lngrad::ops::host::TilingProductScope scope(*p);
  const ge::Shape shape(dims);
  nb::dict d;
  d["soc"] = std::string(p->soc);
  d["npu_arch"] = lngrad::NpuArchName(p->arch);
  d["ub_bytes"] = p->ub_bytes;
  nb::list shape_list;
  for (int64_t v : dims) shape_list.append(v);
  d["shape"] = shape_list;
  d["dtype"] = type_size == 4 ? "float32" : "float16";  // as `lngrad tiling --json`
  d["type_size"] = type_size;
  d["reuse_source"] = reuse_source;
  d["LayerNormGrad"] = TileApi<AscendC::tiling::LayerNormGradTiling>(
      "LayerNormGrad", shape, type_size, reuse_source, stack,
      lngrad::tiling::LayerNormGradMaxMinTmpSize, lngrad::tiling::LayerNormGradNDTilingInfo);
  d["LayerNormGradBeta"] = TileApi<AscendC::tiling::LayerNormGradBetaTiling>(
      "LayerNormGradBeta", shape, type_size, reuse_source, stack,
      lngrad::tiling::LayerNormGradBetaMaxMinTmpSize,
      lngrad::tiling::LayerNormGradBetaNDTilingInfo);
  return d;
}

nb::list Socs() {
  nb::list out;
  for (const lngrad::Product& p : lngrad::AllProducts()) {
    nb::dict d;
    d["soc"] = std::string(p.soc);
    d["short_soc"] = std::string(p.short_soc);
    d["product_line"] = std::string(p.product_line);
    d["npu_arch"] = lngrad::NpuArchName(p.arch);
    d["ub_bytes"] = p.ub_bytes;
    d["layer_norm_grad"] = p.supports_layernormgrad;
    d["layer_norm_grad_beta"] = p.supports_layernormgradbeta;
    d["layer_norm"] = p.supports_layernorm;
    d["data_copy_pad"] = lngrad::ops::HasDataCopyPad(p);
    out.append(d);
  }
  return out;
}

}  // namespace

// Benchmark support (bench/bench_python.py): `iterations` C++ calls of LayerNormBackward on the
// given float32 arrays with outputs allocated once, the GIL released, as a C++ program makes
// them; returns the seconds they took. Not part of the API.
double BenchBackwardCpp(nb::handle dy_h, nb::handle x_h, nb::handle mean_h, nb::handle variance_h,
                        nb::handle gamma_h, int64_t iterations) {
  constexpr const char* kFn = "_bench_backward_cpp";
  const Arg dy = Take(kFn, "dy", dy_h), x = Take(kFn, "x", x_h), mean = Take(kFn, "mean", mean_h);
  const Arg variance = Take(kFn, "variance", variance_h), gamma = Take(kFn, "gamma", gamma_h);
  for (const Arg* a : {&dy, &x, &mean, &variance, &gamma}) {
    if (a->dtype != DType::kFloat32) Raise(PyExc_TypeError, "float32 arrays only");
  }
  const lngrad::RowShape shape = RowsOf(kFn, x);
  // Outputs of the kind the Python call returns (NumPy arrays), allocated once.
  const Out dx = Allocate(Kind::kNumpy, DType::kFloat32, ShapeOf(x));
  const Out dgamma = Allocate(Kind::kNumpy, DType::kFloat32, {static_cast<size_t>(shape.h)});
  const Out dbeta = Allocate(Kind::kNumpy, DType::kFloat32, {static_cast<size_t>(shape.h)});
  lngrad::Options options;
  options.num_threads = 1;
  lngrad::Status st;
  nb::gil_scoped_release release;
  const auto start = std::chrono::steady_clock::now();
  for (int64_t i = 0; i < iterations && st.ok(); ++i) {
    st = lngrad::LayerNormBackward(shape, P<float>(dy), P<float>(x), P<float>(mean),
                                   P<float>(variance), P<float>(gamma), 0.0f, P<float>(dx),
                                   P<float>(dgamma), P<float>(dbeta), options);
  }
  const std::chrono::duration<double> seconds = std::chrono::steady_clock::now() - start;
  if (!st.ok()) throw std::runtime_error(st.message());
  return seconds.count();
}

NB_MODULE(_lngrad, m) {
  if (_import_array() < 0) throw nb::python_error();  // the NumPy C API
  using nb::arg;
  // Array arguments accept None at the binding level, so that Take() names them in the error.
  auto arr = [](const char* name) { return nb::arg(name).none(); };
  m.doc() = "lngrad's compiled core (use the lngrad package, not this module)";
  m.def("layer_norm_backward", &LayerNormBackward, arr("dy"), arr("x"), arr("mean"), arr("rstd"),
        arg("gamma").none() = nb::none(), nb::kw_only(), arg("num_threads").none() = nb::none(),
        arg("half_eval") = "fast");
  m.def("layer_norm_backward_variance", &LayerNormBackwardVariance, arr("dy"), arr("x"),
        arr("mean"), arr("variance"), arg("gamma").none() = nb::none(), arg("eps") = 1e-5f,
        nb::kw_only(), arg("num_threads").none() = nb::none(), arg("half_eval") = "fast");
  m.def("layer_norm_grad", &LayerNormGrad, arr("dy"), arr("x"), arr("variance"), arr("mean"),
        arr("gamma"), arg("eps"), nb::kw_only(), arg("num_threads").none() = nb::none(),
        arg("half_eval") = "fast");
  m.def("layer_norm_grad_beta", &LayerNormGradBeta, arr("dy"), arr("res_for_gamma"), nb::kw_only(),
        arg("num_threads").none() = nb::none());
  m.def("layer_norm", &LayerNorm, arr("x"), arg("gamma").none() = nb::none(),
        arg("beta").none() = nb::none(), arg("eps") = 1e-5f, nb::kw_only(),
        arg("num_threads").none() = nb::none(), arg("float32_stats") = false);
  m.def(
      "rstd_to_variance",
      [](nb::handle rstd, float eps) {
        return Convert<lngrad::RstdToVariance>("rstd_to_variance", "rstd", rstd, eps);
      },
      arr("rstd"), arg("eps"));
  m.def(
      "variance_to_rstd",
      [](nb::handle variance, float eps) {
        return Convert<lngrad::VarianceToRstd>("variance_to_rstd", "variance", variance, eps);
      },
      arr("variance"), arg("eps"));
  m.def("default_thread_count", &lngrad::DefaultThreadCount);
  m.def("_bench_backward_cpp", &BenchBackwardCpp);

  nb::module_ dev = m.def_submodule("ascendc", "the operators on the simulated Ascend device");
  dev.def("layer_norm_grad", &DeviceLayerNormGrad, arr("dy"), arr("x"), arr("variance"),
          arr("mean"), arr("gamma"), arg("eps"), nb::kw_only(), arg("soc") = "Ascend910B1",
          arg("reuse_source") = false, arg("tmp") = "min", arg("blocks").none() = nb::none());
  dev.def("layer_norm_grad_beta", &DeviceLayerNormGradBeta, arr("dy"), arr("res_for_gamma"),
          nb::kw_only(), arg("soc") = "Ascend910B1", arg("reuse_source") = false,
          arg("tmp") = "min", arg("blocks").none() = nb::none());
  dev.def("tiling", &Tiling, arg("shape"), arg("dtype") = "float", nb::kw_only(),
          arg("soc") = "Ascend910B1", arg("reuse_source") = false, arg("stack_buffer") = "min");
  dev.def("socs", &Socs);
}
