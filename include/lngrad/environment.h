// The implementation choice (lngrad::Impl) and the process's LNGRAD_* settings that select a
// path: LNGRAD_IMPL, LNGRAD_ADV_FUSE and LNGRAD_SEQUENTIAL_BLOCKS. One reader for the whole
// library, in lngrad_base, the lowest layer that both the native library (lngrad_core) and the
// simulated AI core (lngrad_aicore) link: each variable is read once per process, on first use.
// (LNGRAD_SOC is read the same way by the product table, product.h.)
#pragma once

#include <string>
#include <string_view>

#include "lngrad/status.h"

namespace lngrad {

// Implementation choice, as a user names it (LNGRAD_IMPL, the CLI's --impl, Options::impl):
//   auto   the fastest available: simd (the default);
//   simd   Google Highway, the best target for this CPU at run time;
//   scalar the portable C++ reference.
// The native library (lngrad.h) and the simulated AI core's instruction set (aicore::Impl, which
// adds a debugging mode of its own) give these names the same meaning.
enum class Impl { kAuto, kSimd, kScalar };

// "auto", "simd", "scalar" ("unknown" for a value outside the enum).
const char* ImplName(Impl impl);
// Parses "auto", "simd", "scalar" (exact, lower case); InvalidArgument otherwise, *out untouched.
Status ParseImpl(const std::string& text, Impl* out);

// The settings, as read from the environment.
struct Environment {
  // LNGRAD_IMPL: kAuto when unset or empty (or invalid, see impl_error).
  Impl impl = Impl::kAuto;
  // Empty, or the error for a LNGRAD_IMPL that names no Impl: "environment variable LNGRAD_IMPL
  // must be auto, simd or scalar (got '<value>')". Every reader reports this one message.
  std::string impl_error;
  // LNGRAD_ADV_FUSE: false when it is "0" (the simulated core's SIMD steps without row fusion).
  bool adv_fuse = true;
  // LNGRAD_SEQUENTIAL_BLOCKS: true when it is "1" (a launch runs its blocks on the caller's
  // thread, one after another).
  bool sequential_blocks = false;
};

// The settings of this process, read on the first call (thread-safe); every later call returns
// the same object, whatever the environment says by then.
const Environment& ProcessEnvironment();

// What LNGRAD_IMPL asks Impl::kAuto to mean (ProcessEnvironment().impl, read once per process):
// kAuto when it is unset or empty, else its value; InvalidArgument with impl_error when it is not
// auto, simd or scalar, *out untouched. `fn` prefixes the message ("LayerNormGrad: "; empty: none).
Status ImplFromEnvironment(std::string_view fn, Impl* out);

// For tests that change the environment at run time (setenv): reads it again now, so that later
// ProcessEnvironment() calls see the change. References returned before stay valid. Not for
// library code: the settings are meant to be read once.
void RereadEnvironmentForTesting();

}  // namespace lngrad
