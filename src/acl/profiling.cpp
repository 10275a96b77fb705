// Layer acl: the profiling ranges of acl/acl_prof.h. No profiler attaches to lngrad: ids are
// interned strings, ranges a per-thread depth.
#include <cstdint>
#include <mutex>
#include <string>
#include <unordered_map>

#include "acl/acl_prof.h"
#include "state.h"

namespace {

thread_local uint64_t t_range_depth = 0;

}  // namespace

extern "C" {

uint64_t aclprofStr2Id(const char* message) {
  if (message == nullptr) return 0;
  static std::mutex mu;
  static auto* ids = new std::unordered_map<std::string, uint64_t>;  // leaked, as the state is
  std::lock_guard<std::mutex> lock(mu);
  return ids->emplace(message, ids->size() + 1).first->second;
}

aclError aclprofRangePushEx(aclprofEventAttributes* attr) {
  if (attr == nullptr) {
    return lngrad::acl::detail::Fail(ACL_ERROR_INVALID_PARAM,
                                     "aclprofRangePushEx: attr is nullptr");
  }
  ++t_range_depth;
  return ACL_SUCCESS;
}

aclError aclprofRangePop() {
  if (t_range_depth == 0) {
    return lngrad::acl::detail::Fail(ACL_ERROR_INVALID_PARAM,
                                     "aclprofRangePop: no range is open on this thread "
                                     "(aclprofRangePushEx)");
  }
  --t_range_depth;
  return ACL_SUCCESS;
}

}  // extern "C"
