// Layer acl: the <<<>>> launcher (lngrad_acl/launch.h) and the compile-time default product.
#include <chrono>
#include <cstdlib>
#include <cstdio>
#include <string>
#include <vector>

#include "lngrad_aicore/launch.h"
#include "lngrad/product.h"
#include "debug_print.h"
#include "lngrad_acl/launch.h"
#include "state.h"

namespace lngrad::acl::detail {
namespace {

// How many failed blocks a stream's message lists (all are on stderr already).
constexpr size_t kListedBlocks = 8;

std::string Site(const char* name, const char* file, int line) {
  return std::string(file != nullptr ? file : "?") + ":" + std::to_string(line) + ": kernel '" +
         (name != nullptr ? name : "?") + "'";
}

// A launch that cannot run or failed: on its stream if it has one, else on the thread. `printed`
// is what stderr gets (the full message unless the block report is there already).
void Record(Stream* st, aclError code, const std::string& message,
            const std::string& printed = {}) {
  // C stdio throughout layer acl: usable from static initialisers (LNGRAD_DEFAULT_SOC).
  std::fprintf(stderr, "lngrad acl: %s\n", (printed.empty() ? message : printed).c_str());
  const std::string kept = message + " (" + ErrorName(code) + " = " + std::to_string(code) + ")";
  if (st != nullptr) {
    if (st->error == ACL_SUCCESS) st->error = code;
    st->messages.push_back(kept);
    return;
  }
  OrphanError& o = ThreadOrphanError();
  if (o.code == ACL_SUCCESS) o.code = code;
  o.messages.push_back(kept);
}

}  // namespace

void LaunchOnStream(const char* name, const char* file, int line, uint64_t blocks,
                    bool blocks_valid, void* stream, bool cce_auto_sync,
                    const std::function<void()>& per_block, aicore::CoreSplit split) noexcept {
  const std::string site = Site(name, file, line);
  State& s = GetState();
  Stream* st = nullptr;
  {
    std::lock_guard lock(s.mu);
    aclError code = ACL_SUCCESS;
    // Not printed by ResolveStream: Record prints the launch's own line.
    st = ResolveStream(s, static_cast<aclrtStream>(stream), "<<<>>>", &code, false);
    if (st == nullptr) {
      Record(nullptr, code,
             site + ": not launched: " +
                 (stream == nullptr ? std::string("no device is set on this thread (stream "
                                                  "nullptr needs aclrtSetDevice)")
                                    : "stream " + PtrText(stream) +
                                          " is not a live stream from aclrtCreateStream") +
                 "; the next aclrtSynchronizeStream returns " + std::to_string(code));
      NoteLastError(code);  // a launch that cannot start is a launch error of the thread
      return;
    }
    if (!blocks_valid || blocks == 0 || blocks > aicore::kMaxBlocks) {
      Record(st, ACL_ERROR_RT_PARAM_INVALID,
             site + ": not launched: numBlocks " +
                 (blocks_valid ? std::to_string(blocks) + " is" : std::string("is negative,")) +
                 " outside [1, " + std::to_string(aicore::kMaxBlocks) + "]");
      NoteLastError(ACL_ERROR_RT_PARAM_INVALID);
      return;
    }
  }
  std::vector<aicore::BlockFailure> failures;
  Status status = Status::Ok();
  aicore::LaunchOptions options;
  options.cce_auto_sync = cce_auto_sync;
  options.device_memory_only = true;  // a kernel on the device sees only device memory
  options.split = split;
  const auto start = std::chrono::steady_clock::now();
  try {
    LaunchPrints prints(blocks * split.PerCore());
    status = aicore::RunBlocks(name, static_cast<uint32_t>(blocks), prints.Wrap(per_block), options,
                               &failures);
  } catch (const std::exception& e) {
    status = Status::Internal(e.what());
  } catch (...) {
    status = Status::Internal("unknown exception");
  }
  NoteProfiledLaunch(
      name, blocks * split.PerCore(),
      std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count());
  if (status.ok()) return;
  std::lock_guard lock(s.mu);
  if (failures.empty()) {
    Record(st, ACL_ERROR_RT_INTERNAL_ERROR, site + ": the launch failed: " + status.message());
    return;
  }
  // The blocks' report is on stderr (RunBlocks); the stream keeps a summary of them.
  std::string m = site + " failed in " + std::to_string(failures.size()) + " of " +
                  std::to_string(blocks * split.PerCore()) + " block(s) on " +
                  std::string(CurrentProduct().soc) + ":";
  for (size_t i = 0; i < failures.size() && i < kListedBlocks; ++i) {
    const aicore::BlockFailure& f = failures[i];
    m += "\n  block " + std::to_string(f.block_idx) + ": [" + f.check + "] " + f.message;
  }
  if (failures.size() > kListedBlocks) {
    m += "\n  ... and " + std::to_string(failures.size() - kListedBlocks) + " more";
  }
  Record(st, ACL_ERROR_RT_AICORE_EXCEPTION, m,
         site + " failed (report above); the next aclrtSynchronizeStream of its stream returns " +
             std::to_string(ACL_ERROR_RT_AICORE_EXCEPTION) + " (ACL_ERROR_RT_AICORE_EXCEPTION)");
}

bool ApplyDefaultSoc(const char* soc) noexcept {
  if (soc == nullptr || FindProduct(soc) == nullptr) {
    const std::string stays(CurrentProduct().soc);
    std::fprintf(stderr,
                 "lngrad acl: LNGRAD_DEFAULT_SOC \"%s\" is not a known SoC name (e.g. "
                 "Ascend910B1, Ascend310P1, Ascend950PR_9599); the product stays %s\n",
                 soc != nullptr ? soc : "", stays.c_str());
    return false;
  }
  // The environment wins, and an unknown LNGRAD_SOC stays the error it is everywhere else (every
  // launch fails its stream naming the variable): a compiled default must not hide a typo.
  const char* env = std::getenv("LNGRAD_SOC");
  if (env != nullptr && *env != '\0') return false;
  return SetCurrentSoc(soc).ok();
}

}  // namespace lngrad::acl::detail
