// The ordered list of the native implementations (impl_list.h).
#include "impl_list.h"

#include <hwy/targets.h>

namespace lngrad {
namespace core {
namespace {

// What a call asks for: an Impl, and where the request comes from.
struct Request {
  Impl impl = Impl::kAuto;
  bool from_environment = false;  // LNGRAD_IMPL rather than Options::impl
};

// An entry refuses a request that names another implementation.
std::string NotRequested(const Request& r, Impl self) {
  if (r.impl == Impl::kAuto || r.impl == self) return {};
  return std::string("not requested (") +
         (r.from_environment ? "LNGRAD_IMPL=" : "Options::impl is ") + ImplName(r.impl) + ")";
}

std::string CompiledTargetNames() {
  std::string names;
  for (int64_t t = CompiledSimdTargets(); t != 0; t &= t - 1) {
    if (!names.empty()) names += ' ';
    names += hwy::TargetName(t & -t);
  }
  return names;
}

struct Entry {
  Impl impl;
  // Empty when the entry accepts the request; otherwise why it does not.
  std::string (*refusal)(const Request&);
  // Its kernels; sets *target to RunInfo::target.
  const KernelTable& (*kernels)(std::string* target);
  // ImplDescription::detail.
  std::string (*detail)();
};

// Fastest first, reference last.
constexpr Entry kEntries[] = {
    {Impl::kSimd, [](const Request& r) { return NotRequested(r, Impl::kSimd); },
     [](std::string* target) -> const KernelTable& {
       int64_t t = 0;
       const KernelTable& table = SimdKernels(&t);
       *target = hwy::TargetName(t);
       return table;
     },
     [] {
       int64_t t = 0;
       SimdKernels(&t);
       return std::string("Highway ") + hwy::TargetName(t) +
              " (compiled: " + CompiledTargetNames() + ")";
     }},
    {Impl::kScalar, [](const Request& r) { return NotRequested(r, Impl::kScalar); },
     [](std::string* target) -> const KernelTable& {
       *target = "scalar";
       return ScalarKernels();
     },
     [] { return std::string("portable C++ reference, one element at a time"); }},
};

}  // namespace

Status ChooseImpl(const char* fn, const Options& options, ImplChoice* out) {
  Request request{options.impl, false};
  if (request.impl == Impl::kAuto) {
    LNGRAD_RETURN_IF_ERROR(ImplFromEnvironment(fn, &request.impl));
    request.from_environment = true;
  }
  for (const Entry& e : kEntries) {
    const std::string why = e.refusal(request);
    if (!why.empty()) {
      if (options.info != nullptr)
        out->refused.push_back(std::string(ImplName(e.impl)) + ": " + why);
      continue;
    }
    out->table = &e.kernels(&out->target);
    out->impl = e.impl;
    return Status::Ok();
  }
  return Status::Internal(std::string(fn) + ": no implementation accepted the call (Impl " +
                          ImplName(request.impl) + ")");
}

}  // namespace core

std::vector<ImplDescription> ListImpls() {
  std::vector<ImplDescription> list;
  for (const core::Entry& e : core::kEntries) {
    list.push_back({e.impl, ImplName(e.impl), true, e.detail()});
  }
  return list;
}

}  // namespace lngrad
