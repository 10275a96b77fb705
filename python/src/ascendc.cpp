// lngrad.ascendc in the Python module: the operators on the simulated device
// (lngrad::ops::Run*Op), their host tiling and the products (python/lngrad/ascendc.py has the
// Python-facing contract).
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "args.h"
#include "kernel_tiling/kernel_tiling.h"
#include "lngrad/arg_checks.h"
#include "lngrad/product.h"
#include "ops/layernorm_grad_beta_op.h"
#include "ops/layernorm_grad_op.h"
#include "ops/op_host.h"
#include "tiling/tiling_api.h"

namespace lngrad::python {

namespace nb = nanobind;

namespace {

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
  if (x.dtype == DType::kBFloat16) {
    Raise(PyExc_TypeError, Where(fn, x.name) +
                               " is bfloat16; the device's LayerNormGrad family takes half or "
                               "float (its CPU-debug check: \"template parameter (T) is not half "
                               "or float\"); lngrad.layer_norm_grad computes bfloat16 natively");
  }
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
                              nb::handle mean_h, nb::handle gamma_h, double eps,
                              const std::string& soc, bool reuse_source, nb::handle tmp,
                              nb::handle blocks) {
  constexpr const char* kFn = "ascendc.layer_norm_grad";
  const GradInputs in(kFn, dy_h, x_h, variance_h, mean_h, gamma_h);
  const Arg &dy = in.dy, &x = in.x, &variance = in.variance, &mean = in.mean, &gamma = in.gamma;
  // The rule of `lngrad run --eps` (the device kernels take epsilon as the data's type), on the
  // value as given, before its conversion to float.
  if (const lngrad::Status st = lngrad::CheckEpsilon(eps, std::string(kFn) + ": argument 'eps'",
                                                     x.dtype == DType::kFloat16);
      !st.ok()) {
    Raise(PyExc_ValueError, st.message());
  }
  lngrad::ops::LayerNormGradOpArgs g;
  static_cast<lngrad::ops::OpArgs&>(g) = DeviceArgs(kFn, x, soc, reuse_source, tmp, blocks);
  const Kind kind = KindOf(x_h);
  Out pd_x = Allocate(kind, x.dtype, ShapeOf(x));
  Out res = Allocate(kind, x.dtype, ShapeOf(x));
  g.SetTensors(dy.data(), x.data(), mean.data(), variance.data(), gamma.data(), pd_x.data,
               res.data);
  g.epsilon = static_cast<float>(eps);
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
#define LNGRAD_FIELD(type, name) d[#name] = static_cast<uint32_t>(t.name);
nb::dict FieldsOf(const AscendC::tiling::LayerNormGradTiling& t) {
  nb::dict d;
  LNGRAD_LAYERNORM_GRAD_TILING_FIELDS(LNGRAD_FIELD)
  return d;
}
nb::dict FieldsOf(const AscendC::tiling::LayerNormGradBetaTiling& t) {
  nb::dict d;
  LNGRAD_LAYERNORM_GRAD_BETA_TILING_FIELDS(LNGRAD_FIELD)
  return d;
}
#undef LNGRAD_FIELD

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
  // As `lngrad tiling`: B*S*H*H0 in exact arithmetic, never wrapped past 2^64 to a small number.
  uint64_t elements = 0;
  std::string shape_text;
  for (int64_t v : dims) shape_text += (shape_text.empty() ? "" : ", ") + std::to_string(v);
  if (const lngrad::Status st = lngrad::CheckedProduct(
          dims.data(), dims.size(),
          "ascendc.tiling: argument 'shape' (" + shape_text + "): B*S*H*H0", &elements);
      !st.ok()) {
    Raise(PyExc_ValueError, st.message());
  }
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

void DefineAscendc(nb::module_& dev) {
  using nb::arg;
  const auto arr = ArrayArg;
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

}  // namespace lngrad::python
