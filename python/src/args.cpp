// The Python module's argument handling (args.h). NumPy arrays come in and go out through the
// NumPy C API: the buffer protocol and numpy.empty cost about 0.3 us per array, which at 64x16
// is most of the call (bench/bench_python.py).
#define NPY_NO_DEPRECATED_API NPY_1_7_API_VERSION
#define PY_ARRAY_UNIQUE_SYMBOL lngrad_ARRAY_API
#define NO_IMPORT_ARRAY  // module.cpp imports the NumPy C API
#include <numpy/arrayobject.h>

#include "args.h"

#include <nanobind/stl/string.h>

#include <cmath>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "lngrad/arg_checks.h"

namespace lngrad::python {

namespace nb = nanobind;

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

float FloatEps(const char* fn, double eps) {
  if (std::isfinite(eps) && !std::isfinite(static_cast<float>(eps))) {
    ThrowIfError(lngrad::CheckEpsilon(eps, std::string(fn) + ": argument 'eps'", false));
  }
  return static_cast<float>(eps);
}

namespace {

std::string DTypeText(nb::dlpack::dtype d) {
  // DLPack's type codes 0..6, in order.
  static const char* const kKinds[] = {"int",    "uint",    "float", "opaque",
                                       "bfloat", "complex", "bool"};
  const char* kind = d.code < std::size(kKinds) ? kKinds[d.code] : "?";
  return std::string(kind) + std::to_string(d.bits);
}

}  // namespace

std::string ShapeText(const int64_t* shape, size_t ndim) {
  std::string s = "(";
  for (size_t i = 0; i < ndim; ++i) {
    if (i) s += ", ";
    s += std::to_string(shape[i]);
  }
  if (ndim == 1) s += ",";
  return s + ")";
}

std::string Where(const char* fn, const char* name) {
  return std::string(fn) + ": argument '" + name + "'";
}

namespace {

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
    Raise(PyExc_TypeError, Where(fn, a->name) + " must be float32, float16 or bfloat16, not " +
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
    Raise(PyExc_TypeError, Where(fn, a->name) + " must be float32, float16 or bfloat16, not " +
                               FormatName(view->format, static_cast<size_t>(view->itemsize)));
  }
  a->ptr = view->buf;
  a->view = std::move(view);
  CheckContiguous(fn, *a, reinterpret_cast<const int64_t*>(a->view->strides), a->view->itemsize);
  return true;
}

}  // namespace

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
  RefuseRequiresGrad(fn, name, h);
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
  } else if (d.code == static_cast<uint8_t>(nb::dlpack::dtype_code::Bfloat) && d.bits == 16 &&
             d.lanes == 1) {
    // Results come back as torch tensors (Allocate); there is no NumPy array to return.
    if (!IsTorchTensor(h)) {
      Raise(PyExc_TypeError, Where(fn, name) +
                                 " is bfloat16 but not a torch tensor; lngrad takes bfloat16 as "
                                 "torch tensors (NumPy has no bfloat16)");
    }
    a.dtype = DType::kBFloat16;
  } else {
    Raise(PyExc_TypeError,
          Where(fn, name) + " must be float32, float16 or bfloat16, not " + DTypeText(d));
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

Out Allocate(Kind kind, DType dtype, const std::vector<size_t>& shape) {
  static_assert(sizeof(npy_intp) == sizeof(size_t));
  const int type = dtype == DType::kFloat32   ? NPY_FLOAT32
                   : dtype == DType::kFloat16 ? NPY_FLOAT16
                                              : NPY_INT16;  // bfloat16's bits, as from_numpy takes
  nb::object array = nb::steal(PyArray_EMPTY(
      static_cast<int>(shape.size()),
      reinterpret_cast<npy_intp*>(const_cast<size_t*>(shape.data())), type, /*fortran=*/0));
  if (!array.is_valid()) throw nb::python_error();
  Out o;
  o.data = PyArray_DATA(reinterpret_cast<PyArrayObject*>(array.ptr()));
  if (dtype == DType::kBFloat16) {
    o.object = TorchBFloat16FromNumpy(array);  // Take admits bfloat16 from torch callers only
  } else {
    o.object = kind == Kind::kTorch ? TorchFromNumpy(array) : std::move(array);
  }
  return o;
}

std::vector<size_t> ShapeOf(const Arg& a) {
  std::vector<size_t> s(a.ndim());
  for (size_t i = 0; i < a.ndim(); ++i) s[i] = static_cast<size_t>(a.dim(i));
  return s;
}

// half_eval: "fast" (the default) or "correctly-rounded" (lngrad::HalfEval).
lngrad::Options OptionsFrom(nb::handle num_threads, const std::string& half_eval) {
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
}  // namespace lngrad::python
