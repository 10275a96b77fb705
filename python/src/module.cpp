// lngrad._lngrad: the Python bindings (nanobind). Bindings only: every number comes from the
// C++ library (lngrad::LayerNorm*, lngrad::ops::Run*Op, the host tiling API); this file checks
// the Python arguments, allocates the outputs in the caller's array type, releases the GIL and
// maps Status to exceptions. The Python-facing contract is in python/lngrad/__init__.py and
// docs/python.md.//
// Files: args.h/args.cpp (argument handling and outputs, shared by every call), torch_support.cpp
// (torch tensors in and out), native.cpp (lngrad's native functions), ascendc.cpp
// (lngrad.ascendc: the simulated device's operators and tiling).
#define NPY_NO_DEPRECATED_API NPY_1_7_API_VERSION
#define PY_ARRAY_UNIQUE_SYMBOL lngrad_ARRAY_API
#include <numpy/arrayobject.h>

#include <nanobind/nanobind.h>

#include "args.h"

namespace nb = nanobind;

NB_MODULE(_lngrad, m) {
  if (_import_array() < 0) throw nb::python_error();  // the NumPy C API
  m.doc() = "lngrad's compiled core (use the lngrad package, not this module)";
  lngrad::python::DefineNative(m);
  nb::module_ dev = m.def_submodule("ascendc", "the operators on the simulated Ascend device");
  lngrad::python::DefineAscendc(dev);
}
