// Layer acl: memcpy_s and memset_s with securec's contract (securec.h).
#include "securec.h"

#include <cstdint>
#include <cstring>

extern "C" {

errno_t memcpy_s(void* dest, size_t destMax, const void* src, size_t count) {
  if (destMax == 0 || destMax > SECUREC_MEM_MAX_LEN) return ERANGE;
  if (dest == nullptr) return EINVAL;
  if (src == nullptr) {
    std::memset(dest, 0, destMax);
    return EINVAL_AND_RESET;
  }
  if (count > destMax) {
    std::memset(dest, 0, destMax);
    return ERANGE_AND_RESET;
  }
  if (count == 0) return EOK;
  const auto d = reinterpret_cast<uintptr_t>(dest);
  const auto s = reinterpret_cast<uintptr_t>(src);
  if ((d < s && s - d < count) || (s < d && d - s < count) || d == s) {
    std::memset(dest, 0, destMax);
    return EOVERLAP_AND_RESET;
  }
  std::memcpy(dest, src, count);
  return EOK;
}

errno_t memset_s(void* dest, size_t destMax, int c, size_t count) {
  if (destMax == 0 || destMax > SECUREC_MEM_MAX_LEN) return ERANGE;
  if (dest == nullptr) return EINVAL;
  if (count > destMax) {
    std::memset(dest, c, destMax);
    return ERANGE_AND_RESET;
  }
  std::memset(dest, c, count);
  return EOK;
}

}  // extern "C"
