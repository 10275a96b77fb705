// The cores of an AI core (cores.h): kernel types, per-core system variables and the cross-core
// flags. The launcher (launch.cpp) runs each core as a block; the flags' state is the launch's
// InterBlockState (block_sync_state.h) and their waits are the launcher's.
#include "lngrad_aicore/cores.h"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "block_sync_state.h"
#include "lngrad_aicore/defs.h"
#include "lngrad_aicore/launch.h"
#include "lngrad_aicore/sys.h"

namespace AscendC {
thread_local int32_t g_coreType = AIV;
}  // namespace AscendC

namespace lngrad::aicore {
namespace {

// Sanitizer keys: the counter `idx` of host block `block` (san::Release/Acquire).
constexpr uint64_t kCrossKey = uint64_t{5} << 59;
uint64_t CounterKey(int64_t block, uint32_t idx) {
  return kCrossKey | (static_cast<uint64_t>(block) << 8) | idx;
}

// The host blocks of AI core `core`: its AIC (if any) first, then its AIVs.
int64_t FirstOf(const BlockContext& c, int64_t core) { return core * c.split.PerCore(); }
int64_t AicOf(const BlockContext& c) { return FirstOf(c, c.ai_core); }
int64_t AivOf(const BlockContext& c, int32_t sub) {
  return FirstOf(c, c.ai_core) + c.split.aic + sub;
}

// The cores a set of `mode` by the running core counts towards: every core of the group that
// must set before a round completes (sets), and the cores whose counter the round raises.
struct Round {
  std::vector<int64_t> setters, targets;
  int64_t group = 0;
};
Round RoundOf(const BlockContext& c, uint8_t mode) {
  Round r;
  const bool aic = c.core_type == AscendC::AIC;
  if (mode == 0) {
    for (int64_t b = 0; b < c.block_num; ++b) {
      const bool b_aic = (b % c.split.PerCore()) < c.split.aic;
      if (b_aic == aic) r.setters.push_back(b);
    }
    r.targets = r.setters;
    r.group = aic ? -1 : -2;
    return r;
  }
  r.group = c.ai_core;
  for (int32_t s = 0; s < c.split.aiv; ++s) r.setters.push_back(AivOf(c, s));
  if (mode == 1) {
    r.targets = r.setters;
  } else if (aic) {  // mode 2 from the AIC: each AIV's counter, at once
    r.setters = {AicOf(c)};
    r.targets.clear();
    for (int32_t s = 0; s < c.split.aiv; ++s) r.targets.push_back(AivOf(c, s));
    r.group = -3 - c.ai_core;
  } else {  // mode 2 from an AIV: the AIC's, once every AIV set
    r.targets = {AicOf(c)};
  }
  return r;
}

std::string At(const char* api, const BlockContext& c, SrcLoc loc) {
  return detail::WithLoc(api, loc) + " (" + (c.core_type == AscendC::AIC ? "AIC " : "AIV ") +
         std::to_string(c.core_idx) + ")";
}

void Require(bool ok, const std::string& msg) {
  if (!ok) RaiseKernelCheck(checks::kCrossCore, msg);
}

// The modes' rules (CrossCoreSetFlag's reference page): the kernel type, the mode, the pipe.
void CheckUse(const char* api, const BlockContext& c, uint8_t mode, pipe_t pipe, uint16_t flag,
              SrcLoc loc) {
  const std::string at = At(api, c, loc);
  Require(c.split.mix, at + ": the kernel is not a mixed kernel (__mix__ or KERNEL_TYPE_MIX_*): "
                            "without one the device starts no cross-core scheduler");
  const bool is950 = CurrentBlockProduct().arch == NpuArch::k3510;
  Require(mode <= 2 || (mode == 4 && is950),
          at + ": modeId " + std::to_string(mode) + " must be 0, 1 or 2 (4 on Ascend 950)");
  Require((mode != 1 && mode != 2) || c.split.aic + c.split.aiv >= 2,
          at + ": modeId " + std::to_string(mode) + " needs __mix__(1, 1) or __mix__(1, 2)");
  Require(mode != 1 || c.core_type == AscendC::AIV, at + ": modeId 1 syncs the AIVs only");
  Require(mode != 4 || (c.split.aic == 1 && c.split.aiv == 2),
          at + ": modeId 4 needs __mix__(1, 2)");
  Require(pipe != PIPE_ALL && (pipe != PIPE_S || mode == 4),
          at + ": pipe must not be PIPE_ALL (nor PIPE_S in modes 0-2)");
  if (mode == 4) {
    const bool ok = flag <= 10 || (c.core_type == AscendC::AIC && flag >= 16 && flag <= 26);
    Require(ok, at + ": flagId " + std::to_string(flag) +
                    " of mode 4 must be in [0, 10] (on the AIC also [16, 26])");
  }
}

// Mode 4 (950): the counter a set raises: the AIC's 0-10 / 16-26 go to AIV0 / AIV1's 0-10, an
// AIV's 0-10 to the AIC's 0-10 (AIV0) or 16-26 (AIV1).
std::pair<int64_t, uint32_t> Mode4Target(const BlockContext& c, uint16_t flag) {
  if (c.core_type == AscendC::AIC) return {AivOf(c, flag >= 16 ? 1 : 0), 16u + flag % 16};
  return {AicOf(c), 16u + flag + 16u * static_cast<uint32_t>(c.sub_idx)};
}

void Sized(detail::InterBlockState& s, int64_t blocks) {
  if (s.cross_counters.empty()) {
    s.cross_counters.assign(static_cast<size_t>(blocks), {});
    s.cross_sets.assign(static_cast<size_t>(blocks), {});
    s.cross_ub_writes.assign(static_cast<size_t>(blocks), {});
  }
}

}  // namespace

CoreSplit SplitOf(KernelMetaType type) noexcept {
  switch (type) {
    case KERNEL_TYPE_AIC_ONLY:
      return {1, 0, false};
    case KERNEL_TYPE_MIX_AIV_1_0:
      return {0, 1, true};
    case KERNEL_TYPE_MIX_AIC_1_0:
      return {1, 0, true};
    case KERNEL_TYPE_MIX_AIC_1_1:
      return {1, 1, true};
    case KERNEL_TYPE_MIX_AIC_1_2:
      return {1, 2, true};
    default:
      return {0, 1, false};
  }
}

bool AicOfMixedKernel() noexcept {
  const BlockContext* c = CurrentBlockContext();
  return c != nullptr && c->core_type == AscendC::AIC && c->split.aiv > 0;
}

std::byte* SubBlockUb(int32_t sub, uint32_t* bytes, const char* api) {
  const BlockContext& c = RequireBlockContext(api);
  detail::BlockSys& sys = detail::CurrentBlockSys();
  if (c.core_type != AscendC::AIC || sub < 0 || sub >= c.split.aiv || sys.barrier == nullptr) {
    RaiseKernelCheck("cube.position",
                     std::string(api) + ": the destination is the UB of AIV " +
                         std::to_string(sub) + " of this AI core, but this core is " +
                         (c.core_type == AscendC::AIC ? "an AIC with " : "not an AIC; it has ") +
                         std::to_string(c.split.aiv) +
                         " AIV(s) (Fixpipe to UB runs on the AIC of a __mix__ kernel)");
  }
  return sys.barrier->CoreUb(static_cast<uint32_t>(AivOf(c, sub)), bytes);
}

std::shared_ptr<void> AiCoreShared(const std::function<std::shared_ptr<void>()>& make) {
  const BlockContext* c = CurrentBlockContext();
  if (c == nullptr || c->split.aic == 0 || c->split.aiv == 0 ||
      detail::CurrentBlockSys().barrier == nullptr) {
    return nullptr;
  }
  std::shared_ptr<void> shared;
  detail::ChangeShared([&](detail::InterBlockState& s) {
    auto& slot = s.ai_core_shared[c->ai_core];
    if (slot == nullptr) slot = make();
    shared = slot;
  });
  return shared;
}

void NoteSubBlockUbWrite(int32_t sub, uint64_t offset, uint64_t bytes) {
  const BlockContext& c = RequireBlockContext("Fixpipe");
  if (c.san == nullptr) return;
  const auto target = static_cast<size_t>(AivOf(c, sub));
  detail::ChangeShared([&](detail::InterBlockState& s) {
    Sized(s, c.block_num);
    s.cross_ub_writes[target].emplace_back(offset, bytes);
  });
}

namespace detail {

void CrossCoreSet(uint8_t mode, pipe_t pipe, uint16_t flag, SrcLoc loc) {
  const BlockContext& c = RequireBlockContext("CrossCoreSetFlag");
  CheckUse("CrossCoreSetFlag", c, mode, pipe, flag, loc);
  san::CrossCoreSet(pipe);
  if (mode == 4) {
    // Not a structured binding: clang 14 cannot capture those in the lambda below.
    const std::pair<int64_t, uint32_t> to = Mode4Target(c, flag);
    const int64_t target = to.first;
    const uint32_t idx = to.second;
    san::Release(CounterKey(target, idx));
    ChangeShared([&](InterBlockState& s) {
      Sized(s, c.block_num);
      ++s.cross_counters[static_cast<size_t>(target)][idx];
    });
    return;
  }
  const uint32_t f = flag & 15u;
  const Round r = RoundOf(c, mode);
  for (int64_t t : r.targets) san::Release(CounterKey(t, f));
  ChangeShared([&](InterBlockState& s) {
    Sized(s, c.block_num);
    ++s.cross_sets[static_cast<size_t>(c.block_idx)][mode * 16u + f];
    uint64_t& done = s.cross_rounds[{mode, r.group, f}];
    for (;;) {
      for (int64_t b : r.setters) {
        if (s.cross_sets[static_cast<size_t>(b)][mode * 16u + f] <= done) return;
      }
      ++done;
      for (int64_t t : r.targets) ++s.cross_counters[static_cast<size_t>(t)][f];
    }
  });
}

void CrossCoreWait(uint8_t mode, pipe_t pipe, uint16_t flag, SrcLoc loc) {
  const BlockContext& c = RequireBlockContext("CrossCoreWaitFlag");
  CheckUse("CrossCoreWaitFlag", c, mode, pipe == PIPE_S && mode != 4 ? PIPE_V : pipe, flag, loc);
  const uint32_t idx = mode == 4 ? 16u + flag : flag & 15u;
  const auto me = static_cast<size_t>(c.block_idx);
  std::vector<std::pair<uint64_t, uint64_t>> ub_writes;
  WaitOrRaise(
      checks::kCrossCore,
      At("CrossCoreWaitFlag", c, loc) + " waits for flagId " + std::to_string(flag) + " (mode " +
          std::to_string(mode) + "), which no CrossCoreSetFlag raised",
      [&](InterBlockState& s) {
        Sized(s, c.block_num);
        return s.cross_counters[me][idx] > 0;
      },
      [&](InterBlockState& s) {
        --s.cross_counters[me][idx];
        ub_writes.swap(s.cross_ub_writes[me]);
      });
  san::Acquire(CounterKey(c.block_idx, idx));
  san::CrossCoreWait();
  for (const auto& [offset, bytes] : ub_writes) san::ForeignUbWrite(offset, bytes);
}

}  // namespace detail
}  // namespace lngrad::aicore

namespace AscendC {

int64_t GetSubBlockIdx() {
  const auto& c = lngrad::aicore::RequireBlockContext("GetSubBlockIdx");
  return c.core_type == AIV ? c.sub_idx : 0;
}
int64_t GetTaskRation() {
  const auto& c = lngrad::aicore::RequireBlockContext("GetTaskRation");
  return c.core_type == AIV ? std::max<int64_t>(1, c.split.aiv) : 1;
}
int64_t GetSubBlockNum() { return GetTaskRation(); }

}  // namespace AscendC
