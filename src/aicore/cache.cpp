// The data cache and CTRL register APIs (cache.h).
#include "lngrad_aicore/cache.h"

#include <cstring>
#include <string>

#include "lngrad_aicore/atomic.h"
#include "lngrad_aicore/block_sync.h"
#include "lngrad_aicore/ctrl.h"
#include "lngrad_aicore/sys.h"

namespace lngrad::aicore::detail {
namespace {

// Reads of one unchanged value in a row after which a ReadGmByPassDCache loop counts as polling.
constexpr uint32_t kPollSpins = 64;

uint64_t LoadBits(const void* p, uint64_t bytes) {
  uint64_t v = 0;
  switch (bytes) {
    case 1:
      v = std::atomic_ref<uint8_t>(*static_cast<uint8_t*>(const_cast<void*>(p))).load();
      break;
    case 2:
      v = std::atomic_ref<uint16_t>(*static_cast<uint16_t*>(const_cast<void*>(p))).load();
      break;
    case 4:
      v = std::atomic_ref<uint32_t>(*static_cast<uint32_t*>(const_cast<void*>(p))).load();
      break;
    default:
      v = std::atomic_ref<uint64_t>(*static_cast<uint64_t*>(const_cast<void*>(p))).load();
      break;
  }
  return v;
}

struct Field {
  int lo, hi;
};
// The documented CTRL fields per product (SetCtrlSpr's tables).
constexpr Field k950Fields[] = {{6, 8},   {9, 10},  {45, 45}, {48, 48},
                                {50, 50}, {53, 53}, {59, 59}, {60, 60}};
constexpr Field kA2Fields[] = {{48, 48}};

void CheckRange(const char* api, int start, int end, SrcLoc loc) {
  if (!CheckedMode()) return;
  const bool is950 = CurrentBlockProduct().arch == NpuArch::k3510;
  const Field* f = is950 ? k950Fields : kA2Fields;
  const int nf = is950 ? 8 : 1;
  for (int b = start; b <= end; ++b) {
    bool ok = false;
    for (int i = 0; i < nf; ++i)
      ok = ok || (f[i].lo <= b && b <= f[i].hi && f[i].lo >= start && f[i].hi <= end);
    if (!ok) {
      RaiseKernelCheck(checks::kCtrlSpr,
                       WithLoc(api, loc) + ": CTRL[" + std::to_string(end) + ":" +
                           std::to_string(start) + "] is not made of whole documented fields on " +
                           std::string(CurrentBlockProduct().soc) + " (bit " + std::to_string(b) +
                           "); " +
                           (is950 ? "Ascend 950 documents CTRL[8:6], [10:9], 45, 48, 50, 53, 59 "
                                    "and 60"
                                  : "Atlas A2/A3 document only CTRL[48]"));
    }
  }
}

uint64_t Mask(int start, int end) {
  const int w = end - start + 1;
  return (w == 64 ? ~uint64_t{0} : ((uint64_t{1} << w) - 1)) << start;
}

// The whole register as GetCtrlSpr sees it: CTRL[48] is the overflow mode.
uint64_t Register() {
  uint64_t r = CurrentBlockSys().ctrl & ~(uint64_t{1} << 48);
  if (!FloatSaturation()) r |= uint64_t{1} << 48;
  return r;
}
void SetRegister(uint64_t r) {
  SetFloatSaturation((r & (uint64_t{1} << 48)) == 0);
  CurrentBlockSys().ctrl = r & ~(uint64_t{1} << 48);
}

}  // namespace

void DcciCheck(SrcLoc loc) {
  RequireBlockContext("DataCacheCleanAndInvalid");
  RequireProduct("DataCacheCleanAndInvalid", k2002 | k2201 | k3002 | k3510,
                 "Ascend 950, Atlas A2/A3, Atlas 200I/500 A2 and the Atlas inference series' AI "
                 "Cores",
                 loc);
}

void BypassCheck(const char* api, const void* p, uint64_t bytes, SrcLoc loc) {
  RequireBlockContext(api);
  RequireProduct(api, k2201 | k3510, "Atlas A2/A3 and Ascend 950", loc);
  if (reinterpret_cast<uintptr_t>(p) % bytes != 0) {
    RaiseKernelCheck(checks::kGmAlignment, WithLoc(api, loc) + ": address is not aligned to " +
                                               std::to_string(bytes) + " bytes");
  }
  CheckGmAllocRange(p, bytes, api);
}

void BypassPolled(const void* p, uint64_t value, uint64_t bytes, SrcLoc loc) {
  BlockSys& sys = CurrentBlockSys();
  if (sys.poll_addr != p || sys.poll_value != value) {
    sys.poll_addr = p;
    sys.poll_value = value;
    sys.poll_count = 1;
    return;
  }
  if (++sys.poll_count < kPollSpins) return;
  sys.poll_count = 0;
  // A poll loop: wait (keeping this thread) until another block changes the value.
  const std::string what = WithLoc("ReadGmByPassDCache", loc) + " (block " +
                           std::to_string(CurrentBlockContext()->block_idx) +
                           ") polls a GM value that stays " + std::to_string(value);
  if (sys.barrier == nullptr) {
    RaiseKernelCheck(checks::kBlockSync, what +
                                             ": this block runs alone, so no other block can "
                                             "change it; on the device the kernel hangs");
  }
  sys.barrier->WaitUntil(
      checks::kBlockSync, what, [&](InterBlockState&) { return LoadBits(p, bytes) != value; },
      [](InterBlockState&) {});
}

void BypassWritten() {
  BlockSys& sys = CurrentBlockSys();
  if (sys.barrier != nullptr) sys.barrier->Change([](InterBlockState&) {});
}

void SetCtrlBits(int start, int end, int64_t value, SrcLoc loc) {
  RequireBlockContext("SetCtrlSpr");
  RequireProduct("SetCtrlSpr", k2201 | k3510, "Atlas A2/A3 and Ascend 950", loc);
  CheckRange("SetCtrlSpr", start, end, loc);
  const uint64_t m = Mask(start, end);
  const uint64_t bits = static_cast<uint64_t>(value) << start;
  if (CheckedMode() && (value < 0 || (bits & ~m) != 0 || (bits >> start) != uint64_t(value))) {
    RaiseKernelCheck(checks::kCtrlSpr, WithLoc("SetCtrlSpr", loc) + ": value " +
                                           std::to_string(value) + " does not fit CTRL[" +
                                           std::to_string(end) + ":" + std::to_string(start) +
                                           "] (" + std::to_string(end - start + 1) + " bits)");
  }
  SetRegister((Register() & ~m) | (bits & m));
}

int64_t GetCtrlBits(int start, int end, SrcLoc loc) {
  RequireBlockContext("GetCtrlSpr");
  RequireProduct("GetCtrlSpr", k2201 | k3510, "Atlas A2/A3 and Ascend 950", loc);
  CheckRange("GetCtrlSpr", start, end, loc);
  return static_cast<int64_t>((Register() & Mask(start, end)) >> start);
}

void ResetCtrlBits(int start, int end, SrcLoc loc) {
  RequireBlockContext("ResetCtrlSpr");
  RequireProduct("ResetCtrlSpr", k3510, "Ascend 950", loc);
  CheckRange("ResetCtrlSpr", start, end, loc);
  const uint64_t m = Mask(start, end);
  SetRegister((Register() & ~m) | (kCtrlDefault & m));
}

}  // namespace lngrad::aicore::detail
