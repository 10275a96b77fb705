// The one reader of LNGRAD_IMPL, LNGRAD_ADV_FUSE and LNGRAD_SEQUENTIAL_BLOCKS (environment.h).
#include "lngrad/environment.h"

#include <atomic>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <utility>
#include <vector>

namespace lngrad {
namespace {

constexpr const char* kImplVariable = "LNGRAD_IMPL";
constexpr std::pair<Impl, const char*> kImplNames[] = {
    {Impl::kAuto, "auto"}, {Impl::kSimd, "simd"}, {Impl::kScalar, "scalar"}};

// "auto, simd or scalar": the accepted values, for every message that lists them.
std::string AcceptedImplNames() {
  std::string all;
  const size_t n = std::size(kImplNames);
  for (size_t i = 0; i < n; ++i) {
    all += std::string(i == 0 ? "" : i + 1 == n ? " or " : ", ") + kImplNames[i].second;
  }
  return all;
}

bool Is(const char* value, const char* text) {
  return value != nullptr && std::string_view(value) == text;
}

Environment Read() {
  Environment e;
  const char* impl = std::getenv(kImplVariable);
  if (impl != nullptr && *impl != '\0' && !ParseImpl(impl, &e.impl).ok()) {
    e.impl_error = std::string("environment variable ") + kImplVariable + " must be " +
                   AcceptedImplNames() + " (got '" + impl + "')";
  }
  e.adv_fuse = !Is(std::getenv("LNGRAD_ADV_FUSE"), "0");
  e.sequential_blocks = Is(std::getenv("LNGRAD_SEQUENTIAL_BLOCKS"), "1");
  return e;
}

// The current settings: null until the first use; replaced only by RereadEnvironmentForTesting.
// Every object ever published is owned by Owned(), so references handed out stay valid.
std::atomic<const Environment*> g_current{nullptr};
std::mutex g_mu;  // serialises the reads and guards Owned()
std::vector<std::unique_ptr<const Environment>>& Owned() {
  static std::vector<std::unique_ptr<const Environment>> owned;
  return owned;
}

// Reads the environment and makes the result current; g_mu held.
const Environment* PublishLocked() {
  Owned().push_back(std::make_unique<const Environment>(Read()));
  const Environment* e = Owned().back().get();
  g_current.store(e, std::memory_order_release);
  return e;
}

}  // namespace

const char* ImplName(Impl impl) {
  for (const auto& [value, name] : kImplNames) {
    if (value == impl) return name;
  }
  return "unknown";
}

Status ParseImpl(const std::string& text, Impl* out) {
  if (out == nullptr) return Status::InvalidArgument("ParseImpl: argument 'out' is null");
  for (const auto& [value, name] : kImplNames) {
    if (text == name) {
      *out = value;
      return Status::Ok();
    }
  }
  return Status::InvalidArgument("ParseImpl: argument 'text' must be " + AcceptedImplNames() +
                                 " (got '" + text + "')");
}

const Environment& ProcessEnvironment() {
  const Environment* e = g_current.load(std::memory_order_acquire);
  if (e == nullptr) {
    // First use: one thread reads, any other waits for it and takes its result.
    std::lock_guard lock(g_mu);
    e = g_current.load(std::memory_order_relaxed);
    if (e == nullptr) e = PublishLocked();
  }
  return *e;
}

Status ImplFromEnvironment(std::string_view fn, Impl* out) {
  if (out == nullptr) return Status::InvalidArgument("ImplFromEnvironment: argument 'out' is null");
  const Environment& e = ProcessEnvironment();
  if (!e.impl_error.empty()) {
    return Status::InvalidArgument(std::string(fn) + (fn.empty() ? "" : ": ") + e.impl_error);
  }
  *out = e.impl;
  return Status::Ok();
}

void RereadEnvironmentForTesting() {
  std::lock_guard lock(g_mu);
  PublishLocked();
}

}  // namespace lngrad
