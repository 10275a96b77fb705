// The native path's implementations as an ordered list (as oneDNN's implementation lists): each
// entry accepts a call or refuses it with a reason, and the first that accepts runs. ListImpls()
// (lngrad.h) describes the same list in the same order.
#pragma once

#include <string>
#include <vector>

#include "kernels.h"
#include "lngrad/lngrad.h"

namespace lngrad::core {

// The implementation that takes a call, and the reasons of those ahead of it that refused.
struct ImplChoice {
  const KernelTable* table = nullptr;
  Impl impl = Impl::kAuto;           // kSimd or kScalar
  std::string target;                // RunInfo::target
  std::vector<std::string> refused;  // RunInfo::refused; filled only when Options::info is set
};

// Offers the call (options.impl, or for kAuto LNGRAD_IMPL through ImplFromEnvironment) to the
// list in order. InvalidArgument, prefixed with `fn`, for a LNGRAD_IMPL that names no Impl.
Status ChooseImpl(const char* fn, const Options& options, ImplChoice* out);

}  // namespace lngrad::core
