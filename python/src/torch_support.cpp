// lngrad.torch support in the Python module (args.h): torch tensors are recognised without
// importing torch, refused when they require grad, and results for torch callers are NumPy
// arrays wrapped by torch.from_numpy (the cheapest way torch has to make a tensor of memory it
// did not allocate: about 0.5 us, where a DLPack export costs more).
#include "args.h"

namespace lngrad::python {

namespace nb = nanobind;

namespace {

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

}  // namespace

bool IsTorchTensor(nb::handle h) {
  PyObject* t = TorchTensorType();
  return t != nullptr && PyObject_IsInstance(h.ptr(), t) == 1;
}

Kind KindOf(nb::handle h) { return IsTorchTensor(h) ? Kind::kTorch : Kind::kNumpy; }

void RefuseRequiresGrad(const char* fn, const char* name, nb::handle h) {
  if (IsTorchTensor(h) && nb::cast<bool>(h.attr("requires_grad"))) {
    Raise(PyExc_TypeError, Where(fn, name) +
                               " requires grad; pass tensor.detach() (lngrad.torch.layer_norm "
                               "and lngrad.torch.LayerNorm take part in autograd)");
  }
}

nb::object TorchFromNumpy(const nb::object& array) {
  static nb::object* from_numpy = nullptr;  // never destroyed, as the module's other state
  if (from_numpy == nullptr) {
    from_numpy = new nb::object(nb::module_::import_("torch").attr("from_numpy"));
  }
  PyObject* a[] = {array.ptr()};
  nb::object tensor = nb::steal(PyObject_Vectorcall(from_numpy->ptr(), a, 1, nullptr));
  if (!tensor.is_valid()) throw nb::python_error();
  return tensor;
}

nb::object TorchBFloat16FromNumpy(const nb::object& array) {
  static nb::object* bfloat16 = nullptr;  // never destroyed, as from_numpy above
  if (bfloat16 == nullptr) {
    bfloat16 = new nb::object(nb::module_::import_("torch").attr("bfloat16"));
  }
  return TorchFromNumpy(array).attr("view")(*bfloat16);
}

}  // namespace lngrad::python
