// lngrad's native functions in the Python module (lngrad.layer_norm_backward & co.): the checked
// arguments go to lngrad::LayerNorm* with the GIL released (python/lngrad/__init__.py has the
// Python-facing contract).
#include <nanobind/stl/string.h>

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "args.h"
#include "lngrad/lngrad.h"

namespace lngrad::python {

namespace nb = nanobind;

namespace {

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
  // Statistics: of the data's dtype, or float32 with 16-bit data (PyTorch keeps them so).
  for (const Arg* a : {&mean, &stat}) {
    if (a->dtype == x.dtype || a->dtype == DType::kFloat32) continue;
    if (x.dtype == DType::kFloat32) SameDType(fn, x, *a);
    Raise(PyExc_TypeError, Where(fn, a->name) + " is " + NameOf(a->dtype) + "; with " +
                               NameOf(x.dtype) + " data the statistics are " + NameOf(x.dtype) +
                               " or float32");
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
    const size_t rows = static_cast<size_t>(shape.rows);
    const bool stats16 = mean.dtype != DType::kFloat32;
    // The statistics go to the library as given (float32, or 16-bit with 16-bit data and a
    // variance), except that PyTorch's rstd = 1/sqrt(var + eps) becomes the variance with
    // epsilon 0, variance = 1/rstd^2 (lngrad::RstdToVariance: double, rounded once to float),
    // and 16-bit statistics then widen to float (exact).
    const bool as_given = !stat_is_rstd;
    const bool widen = stat_is_rstd && stats16;
    std::vector<float> stat32(as_given ? 0 : widen ? 2 * rows : rows);
    const float* mean32 = P<float>(mean);
    const float* var32 = P<float>(stat);
    if (!as_given) {
      float* var_out = stat32.data() + (widen ? rows : 0);
      if (widen) {
        With16Bit(x.dtype, [&](auto tag) {
          using T = decltype(tag);
          for (size_t i = 0; i < rows; ++i) {
            stat32[i] = static_cast<float>(P<T>(mean)[i]);
            var_out[i] = static_cast<float>(P<T>(stat)[i]);
          }
        });
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
      st = With16Bit(x.dtype, [&](auto tag) {
        using T = decltype(tag);
        const std::vector<T> ones = has_gamma ? std::vector<T>() : Filled<T>(shape.h, 1);
        const T* g = has_gamma ? P<T>(gamma) : ones.data();
        if (as_given && stats16) {
          return lngrad::LayerNormBackward(shape, P<T>(dy), P<T>(x), P<T>(mean), P<T>(stat), g,
                                           epsilon, P<T>(dx), P<T>(dgamma), P<T>(dbeta), options);
        }
        return lngrad::LayerNormBackwardFloatStats(shape, P<T>(dy), P<T>(x), mean32, var32, g,
                                                   epsilon, P<T>(dx), P<T>(dgamma), P<T>(dbeta),
                                                   options);
      });
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
                                    nb::handle variance, nb::handle gamma, double eps,
                                    nb::handle num_threads, const std::string& half_eval) {
  constexpr const char* kFn = "layer_norm_backward_variance";
  return Backward(kFn, dy, x, mean, variance, "variance", false, FloatEps(kFn, eps), gamma,
                  num_threads, half_eval);
}

nb::tuple LayerNormGrad(nb::handle dy_h, nb::handle x_h, nb::handle variance_h, nb::handle mean_h,
                        nb::handle gamma_h, double eps_arg, nb::handle num_threads,
                        const std::string& half_eval) {
  constexpr const char* kFn = "layer_norm_grad";
  const float eps = FloatEps(kFn, eps_arg);
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
      st = With16Bit(x.dtype, [&](auto tag) {
        using T = decltype(tag);
        return lngrad::LayerNormGrad(shape, P<T>(dy), P<T>(x), P<T>(mean), P<T>(variance),
                                     P<T>(gamma), eps, P<T>(pd_x), P<T>(res), options);
      });
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
      st = With16Bit(dy.dtype, [&](auto tag) {
        using T = decltype(tag);
        return lngrad::LayerNormGradBeta(shape, P<T>(dy), P<T>(res), P<T>(dgamma), P<T>(dbeta),
                                         options);
      });
    }
  }
  ThrowIfError(st);
  return nb::make_tuple(dgamma.object, dbeta.object);
}

nb::tuple LayerNorm(nb::handle x_h, nb::handle gamma_h, nb::handle beta_h, double eps_arg,
                    nb::handle num_threads, bool float32_stats) {
  constexpr const char* kFn = "layer_norm";
  const float eps = FloatEps(kFn, eps_arg);
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
  // float32_stats: float statistics of 16-bit data (rounded once from double), as PyTorch keeps
  // them and as lngrad.torch saves them for the backward.
  const bool stats32 = float32_stats && x.dtype != DType::kFloat32;
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
      st = With16Bit(x.dtype, [&](auto tag) {
        using T = decltype(tag);
        const auto g = has_gamma ? std::vector<T>() : Filled<T>(shape.h, 1);
        const auto b = has_beta ? std::vector<T>() : Filled<T>(shape.h, 0);
        const T* gp = has_gamma ? P<T>(gamma) : g.data();
        const T* bp = has_beta ? P<T>(beta) : b.data();
        return stats32 ? lngrad::LayerNormFloatStats(shape, P<T>(x), gp, bp, eps, P<T>(y),
                                                     P<float>(mean), P<float>(variance), options)
                       : lngrad::LayerNorm(shape, P<T>(x), gp, bp, eps, P<T>(y), P<T>(mean),
                                           P<T>(variance), options);
      });
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

// Defines fn(<name>, eps): Convert<kConvert> of the array argument `name`.
template <lngrad::Status (*kConvert)(int64_t, const float*, float, float*)>
void DefineConvert(nb::module_& m, const char* fn, const char* name) {
  m.def(
      fn,
      [fn, name](nb::handle in, double eps) {
        return Convert<kConvert>(fn, name, in, FloatEps(fn, eps));
      },
      ArrayArg(name), nb::arg("eps"));
}

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

}  // namespace

void DefineNative(nb::module_& m) {
  using nb::arg;
  const auto arr = ArrayArg;
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
  DefineConvert<lngrad::RstdToVariance>(m, "rstd_to_variance", "rstd");
  DefineConvert<lngrad::VarianceToRstd>(m, "variance_to_rstd", "variance");
  m.def("default_thread_count", &lngrad::DefaultThreadCount);
  m.def("_bench_backward_cpp", &BenchBackwardCpp);
}

}  // namespace lngrad::python
