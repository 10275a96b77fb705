// lngrad's torch operators (issue 31): torch.ops.lngrad.layer_norm (with its autograd),
// layer_norm_forward and layer_norm_backward, registered with the dispatcher so that
// lngrad.torch calls lngrad's native library with no Python in the way and torch.compile sees
// ordinary operators (Meta kernels give the shapes without computing).
//
// Built against the torch the package will run with (python/CMakeLists.txt, find_torch.py);
// lngrad/torch.py loads it with torch.ops.load_library when the versions agree and otherwise
// keeps its Python path (torch.autograd.Function over the nanobind module). Both compute the
// same bits: float32 statistics for half data, the fused backward from the variance.
#include <ATen/ATen.h>
#include <ATen/core/dispatch/Dispatcher.h>
#include <torch/autograd.h>
#include <torch/csrc/autograd/autograd_not_implemented_fallback.h>
#include <torch/csrc/autograd/functions/basic_ops.h>
#include <torch/csrc/autograd/functions/utils.h>
#include <torch/library.h>
#include <torch/version.h>

#include <cstdint>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "lngrad/lngrad.h"
#include "output_cache.h"

namespace lngrad::torch_ops {
namespace {

// torch 1.x spells an optional argument c10::optional, torch 2.x std::optional (which
// c10::optional became an alias of): the schema inference takes the spelling of its version.
#if TORCH_VERSION_MAJOR >= 2
template <class T>
using Optional = std::optional<T>;
#else
template <class T>
using Optional = c10::optional<T>;
#endif

using at::Tensor;
using torch::autograd::variable_list;

constexpr const char* kFn = "lngrad.torch.layer_norm";

// The library's Status as torch's errors: ValueError for a broken rule, RuntimeError otherwise.
void ThrowIfError(const Status& st) {
  TORCH_CHECK_VALUE(st.code() != StatusCode::kInvalidArgument, kFn, ": ", st.message());
  TORCH_CHECK(st.ok(), kFn, ": ", st.message());
}

Options OptionsFrom(const Optional<int64_t>& num_threads, const std::string& half_eval) {
  Options o;
  TORCH_CHECK_VALUE(ParseHalfEval(half_eval, &o.half_eval).ok(), kFn,
                    ": half_eval must be 'fast' or 'correctly-rounded', got '", half_eval, "'");
  if (num_threads.has_value()) {
    const int64_t n = *num_threads;
    TORCH_CHECK_VALUE(n >= 0 && n <= INT32_MAX, kFn,
                      ": num_threads must be >= 0 (0 or None: one per hardware thread), got ", n);
    o.num_threads = static_cast<int>(n);
  }
  return o;
}

// lngrad::Half and at::Half are both IEEE binary16 in two bytes; lngrad::BFloat16 and
// at::BFloat16 both the top half of a binary32.
template <class T>
const T* In(const Tensor& t) {
  return reinterpret_cast<const T*>(t.data_ptr());
}
template <class T>
T* Out(Tensor& t) {
  return reinterpret_cast<T*>(t.data_ptr());
}

// Calls f(T{}) with T = Half for float16 tensors and BFloat16 for bfloat16: the 16-bit branch of
// a kernel, written once.
template <class F>
Status With16Bit(at::ScalarType type, F&& f) {
  return type == at::kBFloat16 ? f(BFloat16{}) : f(Half{});
}

int64_t Numel(at::IntArrayRef shape) {
  int64_t n = 1;
  for (const int64_t d : shape) n *= d;
  return n;
}

// The checks of torch.nn.functional.layer_norm's arguments, with lngrad's messages; returns H.
int64_t CheckShapes(const Tensor& input, at::IntArrayRef normalized_shape,
                    const Optional<Tensor>& weight, const Optional<Tensor>& bias) {
  const auto n = static_cast<int64_t>(normalized_shape.size());
  TORCH_CHECK(input.dim() >= n && input.sizes().slice(input.dim() - n).equals(normalized_shape),
              kFn, ": normalized_shape ", normalized_shape,
              " does not match the trailing dimensions of the input, of shape ", input.sizes());
  const std::pair<const char*, const Optional<Tensor>*> params[] = {{"weight", &weight},
                                                                    {"bias", &bias}};
  for (const auto& [name, p] : params) {
    TORCH_CHECK(!p->has_value() || !(*p)->defined() || (*p)->sizes().equals(normalized_shape), kFn,
                ": ", name, " has shape ", (*p)->sizes(), "; expected normalized_shape ",
                normalized_shape);
  }
  return Numel(normalized_shape);
}

// Whether lngrad computes this call (CPU, float32, float16 or bfloat16, weight and bias of the
// input's dtype); anything else goes to torch's own layer norm, as lngrad.torch.uses_lngrad says.
bool UsesLngrad(const Tensor& input, const Optional<Tensor>& weight, const Optional<Tensor>& bias) {
  if (!input.device().is_cpu()) return false;
  const at::ScalarType type = input.scalar_type();
  if (type != at::kFloat && type != at::kHalf && type != at::kBFloat16) return false;
  for (const Optional<Tensor>* p : {&weight, &bias}) {
    if (p->has_value() && (*p)->defined() &&
        (!(*p)->device().is_cpu() || (*p)->scalar_type() != input.scalar_type())) {
      return false;
    }
  }
  return true;
}

// The operators' own checks (they may be called directly): what lngrad takes, H >= 1.
RowShape CheckOperands(const Tensor& input, at::IntArrayRef normalized_shape,
                       const Optional<Tensor>& weight, const Optional<Tensor>& bias) {
  const int64_t h = CheckShapes(input, normalized_shape, weight, bias);
  TORCH_CHECK(
      UsesLngrad(input, weight, bias), kFn,
      ": the operators take CPU float32, float16 or bfloat16 tensors, weight and bias of the "
      "input's dtype (torch.ops.lngrad.layer_norm falls back to torch for the rest)");
  TORCH_CHECK(h > 0, kFn, ": normalized_shape must have at least one element");
  return {input.numel() / h, h};
}

// What lngrad reads: the tensor, contiguous, or H values of `fill` where it is not given.
Tensor Operand(const Optional<Tensor>& t, const Tensor& like, int64_t h, double fill) {
  if (t.has_value() && t->defined()) return t->contiguous();
  return at::full({h}, fill, like.options());
}

// An output: from the output cache on the CPU, at::empty's for Meta tensors.
Tensor NewOutput(at::IntArrayRef sizes, const at::TensorOptions& options) {
  return options.device().is_cpu() ? EmptyOutput(sizes, options) : at::empty(sizes, options);
}

std::vector<int64_t> StatShape(const Tensor& input, at::IntArrayRef normalized_shape) {
  const auto sizes = input.sizes();
  return sizes.slice(0, sizes.size() - normalized_shape.size()).vec();
}

std::tuple<Tensor, Tensor, Tensor> ForwardMeta(const Tensor& input,
                                               at::IntArrayRef normalized_shape,
                                               const Optional<Tensor>&, const Optional<Tensor>&,
                                               double, Optional<int64_t>) {
  const auto stats = input.options().dtype(at::kFloat);
  const auto stat_shape = StatShape(input, normalized_shape);
  return {NewOutput(input.sizes(), input.options()), NewOutput(stat_shape, stats),
          NewOutput(stat_shape, stats)};
}

// The output, and float32 mean and variance per row (float statistics for half data, as torch
// keeps them), of shape input.shape[:-len(normalized_shape)].
std::tuple<Tensor, Tensor, Tensor> ForwardCpu(const Tensor& input, at::IntArrayRef normalized_shape,
                                              const Optional<Tensor>& weight,
                                              const Optional<Tensor>& bias, double eps,
                                              Optional<int64_t> num_threads) {
  const RowShape shape = CheckOperands(input, normalized_shape, weight, bias);
  const Options options = OptionsFrom(num_threads, "fast");
  auto [y, mean, variance] = ForwardMeta(input, normalized_shape, weight, bias, eps, num_threads);
  if (shape.rows == 0) return {y, mean, variance};
  const Tensor x = input.contiguous();
  const Tensor g = Operand(weight, x, shape.h, 1), b = Operand(bias, x, shape.h, 0);
  const auto e = static_cast<float>(eps);
  Status st;
  if (x.scalar_type() == at::kFloat) {
    st = LayerNorm(shape, In<float>(x), In<float>(g), In<float>(b), e, Out<float>(y),
                   Out<float>(mean), Out<float>(variance), options);
  } else {
    st = With16Bit(x.scalar_type(), [&](auto tag) {
      using T = decltype(tag);
      return LayerNormFloatStats(shape, In<T>(x), In<T>(g), In<T>(b), e, Out<T>(y),
                                 Out<float>(mean), Out<float>(variance), options);
    });
  }
  ThrowIfError(st);
  return {y, mean, variance};
}

std::tuple<Tensor, Tensor, Tensor> BackwardMeta(const Tensor&, const Tensor& input,
                                                at::IntArrayRef normalized_shape, const Tensor&,
                                                const Tensor&, const Optional<Tensor>&, double,
                                                Optional<int64_t>, const std::string&) {
  return {NewOutput(input.sizes(), input.options()), NewOutput(normalized_shape, input.options()),
          NewOutput(normalized_shape, input.options())};
}

// dx, dgamma, dbeta (of normalized_shape) from the float32 mean and variance of the forward.
std::tuple<Tensor, Tensor, Tensor> BackwardCpu(const Tensor& grad_output, const Tensor& input,
                                               at::IntArrayRef normalized_shape, const Tensor& mean,
                                               const Tensor& variance,
                                               const Optional<Tensor>& weight, double eps,
                                               Optional<int64_t> num_threads,
                                               const std::string& half_eval) {
  const RowShape shape = CheckOperands(input, normalized_shape, weight, {});
  TORCH_CHECK(grad_output.sizes() == input.sizes(), kFn, ": grad_output has shape ",
              grad_output.sizes(), "; expected the input's, ", input.sizes());
  TORCH_CHECK(mean.numel() == shape.rows && variance.numel() == shape.rows &&
                  mean.scalar_type() == at::kFloat && variance.scalar_type() == at::kFloat,
              kFn, ": mean and variance must be float32 with one element per row (", shape.rows,
              ")");
  const Options options = OptionsFrom(num_threads, half_eval);
  auto [dx, dgamma, dbeta] = BackwardMeta(grad_output, input, normalized_shape, mean, variance,
                                          weight, eps, num_threads, half_eval);
  if (shape.rows == 0) {  // an empty batch, as torch takes it: sums over no rows
    dgamma.zero_();
    dbeta.zero_();
    return {dx, dgamma, dbeta};
  }
  const Tensor x = input.contiguous(), dy = grad_output.to(x.scalar_type()).contiguous();
  const Tensor m = mean.contiguous(), v = variance.contiguous(), g = Operand(weight, x, shape.h, 1);
  const auto e = static_cast<float>(eps);
  Status st;
  if (x.scalar_type() == at::kFloat) {
    st = LayerNormBackward(shape, In<float>(dy), In<float>(x), In<float>(m), In<float>(v),
                           In<float>(g), e, Out<float>(dx), Out<float>(dgamma), Out<float>(dbeta),
                           options);
  } else {
    st = With16Bit(x.scalar_type(), [&](auto tag) {
      using T = decltype(tag);
      return LayerNormBackwardFloatStats(shape, In<T>(dy), In<T>(x), In<float>(m), In<float>(v),
                                         In<T>(g), e, Out<T>(dx), Out<T>(dgamma), Out<T>(dbeta),
                                         options);
    });
  }
  ThrowIfError(st);
  return {dx, dgamma, dbeta};
}

// The operators through the dispatcher (so that Meta, tracing and torch.compile see them).
std::tuple<Tensor, Tensor, Tensor> CallForward(const Tensor& input,
                                               at::IntArrayRef normalized_shape,
                                               const Optional<Tensor>& weight,
                                               const Optional<Tensor>& bias, double eps,
                                               Optional<int64_t> num_threads) {
  static const auto op = c10::Dispatcher::singleton()
                             .findSchemaOrThrow("lngrad::layer_norm_forward", "")
                             .typed<decltype(ForwardCpu)>();
  return op.call(input, normalized_shape, weight, bias, eps, num_threads);
}

std::tuple<Tensor, Tensor, Tensor> CallBackward(const Tensor& grad_output, const Tensor& input,
                                                at::IntArrayRef normalized_shape,
                                                const Tensor& mean, const Tensor& variance,
                                                const Optional<Tensor>& weight, double eps,
                                                Optional<int64_t> num_threads,
                                                const std::string& half_eval) {
  static const auto op = c10::Dispatcher::singleton()
                             .findSchemaOrThrow("lngrad::layer_norm_backward", "")
                             .typed<decltype(BackwardCpu)>();
  return op.call(grad_output, input, normalized_shape, mean, variance, weight, eps, num_threads,
                 half_eval);
}

Optional<Tensor> Defined(const Tensor& t) {
  if (t.defined()) return t;
  return {};
}

// A new autograd node of type N: torch up to 2.x holds nodes in std::shared_ptr, later versions
// in c10::intrusive_ptr (what Edge::function is says which).
template <class N, class P = decltype(torch::autograd::Edge::function), class... Args>
auto NewNode(Args&&... args) {
  if constexpr (std::is_same_v<P, std::shared_ptr<torch::autograd::Node>>) {
    return std::make_shared<N>(std::forward<Args>(args)...);
  } else {
    return c10::make_intrusive<N>(std::forward<Args>(args)...);
  }
}

// The gradient of the first backward, when a graph of it is asked for, carries an error node
// as torch's @once_differentiable does: differentiating it again raises.
variable_list OnceDifferentiable(variable_list grads, bool graph_asked) {
  if (!graph_asked) return grads;
  for (auto& g : grads) {
    if (g.defined()) g = g.detach().requires_grad_(true);
  }
  const auto error = NewNode<torch::autograd::DelayedError>(
      std::string("lngrad.torch.layer_norm: trying to differentiate twice a function that was "
                  "marked with @once_differentiable (double backward is not supported)"),
      static_cast<int>(grads.size()));
  return error->apply(std::move(grads));
}

// The autograd node of layer_norm, built as torch's generated nodes are (saved variables and
// plain fields, edges to input, weight and bias): the fused backward, once differentiable.
struct LayerNormBackwardNode : public torch::autograd::Node {
  torch::autograd::SavedVariable input, weight, mean, variance;
  std::vector<int64_t> normalized_shape;
  double eps = 0;
  Optional<int64_t> num_threads;
  std::string half_eval;

  std::string name() const override { return "LngradLayerNormBackward"; }
  void release_variables() override {
    for (auto* v : {&input, &weight, &mean, &variance}) v->reset_data();
  }

  variable_list apply(variable_list&& grads) override {
    variable_list out(3);
    if (!grads[0].defined()) return out;  // no gradient flows here
    const bool graph_asked = torch::autograd::GradMode::is_enabled() && grads[0].requires_grad();
    Tensor dx, dgamma, dbeta;
    {
      at::NoGradGuard no_grad;
      std::tie(dx, dgamma, dbeta) =
          CallBackward(grads[0], input.unpack(), normalized_shape, mean.unpack(), variance.unpack(),
                       Defined(weight.unpack()), eps, num_threads, half_eval);
    }
    if (should_compute_output(0)) out[0] = dx;
    if (should_compute_output(1)) out[1] = dgamma;
    if (should_compute_output(2)) out[2] = dbeta;
    return OnceDifferentiable(std::move(out), graph_asked);
  }
};

// The arguments of layer_norm checked as torch checks them; true when lngrad computes the call
// (its options refused here, not at backward time), false for torch's own layer norm.
bool TakesLngrad(const Tensor& input, at::IntArrayRef normalized_shape,
                 const Optional<Tensor>& weight, const Optional<Tensor>& bias,
                 const Optional<int64_t>& num_threads, const std::string& half_eval) {
  const int64_t h = CheckShapes(input, normalized_shape, weight, bias);
  if (!UsesLngrad(input, weight, bias) || h == 0) return false;
  OptionsFrom(num_threads, half_eval);
  return true;
}

// torch.ops.lngrad.layer_norm with autograd: lngrad's forward and fused backward, or torch's
// own layer norm for what lngrad does not take.
Tensor LayerNormAutograd(const Tensor& input, at::IntArrayRef normalized_shape,
                         const Optional<Tensor>& weight, const Optional<Tensor>& bias, double eps,
                         Optional<int64_t> num_threads, const std::string& half_eval) {
  if (!TakesLngrad(input, normalized_shape, weight, bias, num_threads, half_eval)) {
    return at::layer_norm(input, normalized_shape, weight, bias, eps);
  }
  Tensor y, mean, variance;
  {
    at::AutoDispatchBelowADInplaceOrView guard;
    std::tie(y, mean, variance) =
        CallForward(input, normalized_shape, weight, bias, eps, num_threads);
  }
  if (torch::autograd::compute_requires_grad(input, weight, bias)) {
    const auto node = NewNode<LayerNormBackwardNode>();
    node->set_next_edges(torch::autograd::collect_next_edges(input, weight, bias));
    node->input = torch::autograd::SavedVariable(input, false);
    node->weight = torch::autograd::SavedVariable(weight, false);
    node->mean = torch::autograd::SavedVariable(mean, false);
    node->variance = torch::autograd::SavedVariable(variance, false);
    node->normalized_shape = normalized_shape.vec();
    node->eps = eps;
    node->num_threads = num_threads;
    node->half_eval = half_eval;
    torch::autograd::set_history(y, node);
  }
  return y;
}

// Below autograd (inference mode, Meta): the forward alone.
Tensor LayerNormNoGrad(const Tensor& input, at::IntArrayRef normalized_shape,
                       const Optional<Tensor>& weight, const Optional<Tensor>& bias, double eps,
                       Optional<int64_t> num_threads, const std::string& half_eval) {
  if (!TakesLngrad(input, normalized_shape, weight, bias, num_threads, half_eval)) {
    return at::layer_norm(input, normalized_shape, weight, bias, eps);
  }
  return std::get<0>(CallForward(input, normalized_shape, weight, bias, eps, num_threads));
}

}  // namespace

TORCH_LIBRARY(lngrad, m) {
  m.def(
      "layer_norm(Tensor input, int[] normalized_shape, Tensor? weight=None, "
      "Tensor? bias=None, float eps=1e-05, int? num_threads=None, str half_eval='fast') "
      "-> Tensor");
  m.def(
      "layer_norm_forward(Tensor input, int[] normalized_shape, Tensor? weight, Tensor? bias, "
      "float eps, int? num_threads=None) -> (Tensor, Tensor, Tensor)");
  m.def(
      "layer_norm_backward(Tensor grad_output, Tensor input, int[] normalized_shape, "
      "Tensor mean, Tensor variance, Tensor? weight, float eps, int? num_threads=None, "
      "str half_eval='fast') -> (Tensor, Tensor, Tensor)");
  // The output cache (output_cache.h): [bytes kept, limit, reused, new], and giving it back.
  m.def("cache_info() -> int[]", &CacheInfo);
  m.def("empty_cache() -> ()", &EmptyCache);
}

TORCH_LIBRARY_IMPL(lngrad, CPU, m) {
  m.impl("layer_norm_forward", &ForwardCpu);
  m.impl("layer_norm_backward", &BackwardCpu);
}

TORCH_LIBRARY_IMPL(lngrad, Meta, m) {
  m.impl("layer_norm_forward", &ForwardMeta);
  m.impl("layer_norm_backward", &BackwardMeta);
}

// layer_norm_forward and layer_norm_backward are the steps of layer_norm's autograd, not
// differentiable themselves: called on tensors that require grad they say so (and on Meta
// tensors in torch 1.x, which has no autograd fallthrough for them, they run).
TORCH_LIBRARY_IMPL(lngrad, Autograd, m) {
  m.impl("layer_norm", &LayerNormAutograd);
  m.impl("layer_norm_forward", torch::autograd::autogradNotImplementedFallback());
  m.impl("layer_norm_backward", torch::autograd::autogradNotImplementedFallback());
}

TORCH_LIBRARY_IMPL(lngrad, CompositeExplicitAutograd, m) { m.impl("layer_norm", &LayerNormNoGrad); }

}  // namespace lngrad::torch_ops
