// Device-memory initialisation for the sanitizer's initcheck (lngrad_aicore/sanitizer.h): the
// ranges aclrtMalloc handed out that no copy, memset or kernel has written yet, shared by every
// launch of the process.
#include <algorithm>
#include <atomic>
#include <cstdint>
#include <map>
#include <mutex>
#include <utility>
#include <vector>

#include "sanitizer_state.h"

namespace lngrad::aicore::san {
namespace {

// Device memory nothing wrote yet (aclrtMalloc without a copy): disjoint ranges begin -> end.
struct GmUninit {
  std::mutex mu;
  std::map<uintptr_t, uintptr_t> ranges;
  std::atomic<bool> empty{true};  // read without the lock on the fast path; written under it
};

GmUninit& Uninit() {
  static GmUninit* u = new GmUninit;  // leaked: memory may be freed from static destructors
  return *u;
}

void EraseRange(std::map<uintptr_t, uintptr_t>& m, uintptr_t b, uintptr_t e) {
  auto it = m.upper_bound(b);
  if (it != m.begin()) --it;
  while (it != m.end() && it->first < e) {
    const uintptr_t rb = it->first, re = it->second;
    if (re <= b) {
      ++it;
      continue;
    }
    it = m.erase(it);
    if (rb < b) m.emplace(rb, b);
    if (re > e) {
      m.emplace(e, re);
      break;
    }
  }
}

}  // namespace

bool GmHasUninitialised() noexcept { return !Uninit().empty.load(std::memory_order_relaxed); }

// The first never-written sub-range of [b, e), or false.
bool FirstUninit(uintptr_t b, uintptr_t e, uintptr_t* ub, uintptr_t* ue) {
  GmUninit& u = Uninit();
  std::lock_guard lock(u.mu);
  auto it = u.ranges.upper_bound(b);
  if (it != u.ranges.begin()) --it;
  for (; it != u.ranges.end() && it->first < e; ++it) {
    if (it->second <= b) continue;
    *ub = std::max(b, it->first);
    *ue = std::min(e, it->second);
    return true;
  }
  return false;
}

std::vector<std::pair<uintptr_t, uintptr_t>> UninitIn(uintptr_t b, uintptr_t e) {
  std::vector<std::pair<uintptr_t, uintptr_t>> out;
  GmUninit& u = Uninit();
  std::lock_guard lock(u.mu);
  auto it = u.ranges.upper_bound(b);
  if (it != u.ranges.begin()) --it;
  for (; it != u.ranges.end() && it->first < e; ++it) {
    if (it->second > b) out.emplace_back(std::max(b, it->first), std::min(e, it->second));
  }
  return out;
}

bool FirstUninit(const Strided& s, uintptr_t* ub, uintptr_t* ue, uint64_t* burst) {
  GmUninit& u = Uninit();
  std::lock_guard lock(u.mu);
  auto it = u.ranges.upper_bound(s.begin);
  if (it != u.ranges.begin()) --it;
  // The first range (in address order) that meets a burst meets the lowest such burst first.
  for (; it != u.ranges.end() && it->first < s.End(); ++it) {
    uint64_t lo = 0, hi = 0;
    if (!BurstsMeeting(s, it->first, it->second, &lo, &hi)) continue;
    *burst = lo;
    *ub = std::max<uintptr_t>(it->first, s.At(lo));
    *ue = std::min<uintptr_t>(it->second, s.At(lo) + s.len);
    return true;
  }
  return false;
}

void GmMarkWritten(const Strided& s) {
  GmUninit& u = Uninit();
  if (u.empty.load(std::memory_order_relaxed)) return;
  std::lock_guard lock(u.mu);
  std::vector<std::pair<uintptr_t, uintptr_t>> met;
  auto it = u.ranges.upper_bound(s.begin);
  if (it != u.ranges.begin()) --it;
  for (; it != u.ranges.end() && it->first < s.End(); ++it) met.emplace_back(*it);
  for (const auto& [rb, re] : met) {
    uint64_t lo = 0, hi = 0;
    if (!BurstsMeeting(s, rb, re, &lo, &hi)) continue;
    for (uint64_t j = lo; j <= hi; ++j) EraseRange(u.ranges, s.At(j), s.At(j) + s.len);
  }
  u.empty.store(u.ranges.empty(), std::memory_order_relaxed);
}

void GmMarkUninitialised(const void* p, uint64_t bytes) {
  if (p == nullptr || bytes == 0) return;
  GmUninit& u = Uninit();
  std::lock_guard lock(u.mu);
  const auto b = reinterpret_cast<uintptr_t>(p);
  EraseRange(u.ranges, b, b + bytes);
  u.ranges.emplace(b, b + bytes);
  u.empty.store(false, std::memory_order_relaxed);
}

void GmMarkWritten(const void* p, uint64_t bytes) {
  GmUninit& u = Uninit();
  if (u.empty.load(std::memory_order_relaxed) || p == nullptr || bytes == 0) return;
  std::lock_guard lock(u.mu);
  const auto b = reinterpret_cast<uintptr_t>(p);
  EraseRange(u.ranges, b, b + bytes);
  u.empty.store(u.ranges.empty(), std::memory_order_relaxed);
}

void GmForget(const void* p, uint64_t bytes) { GmMarkWritten(p, bytes); }

void GmForgetUninitialised() {
  GmUninit& u = Uninit();
  if (u.empty.load(std::memory_order_relaxed)) return;
  std::lock_guard lock(u.mu);
  u.ranges.clear();
  u.empty.store(true, std::memory_order_relaxed);
}

}  // namespace lngrad::aicore::san
