// Layer acl: aclrtGetDeviceInfo, the simulated product's properties.
#include <unistd.h>

#include <string>

#include "lngrad/product.h"
#include "lngrad_simt/runtime.h"
#include "state.h"

namespace lngrad::acl::detail {
namespace {

// The memory of the host: what a kernel's global memory can take at most.
int64_t HostMemoryBytes() {
  const long pages = sysconf(_SC_PHYS_PAGES);
  const long page = sysconf(_SC_PAGESIZE);
  return pages > 0 && page > 0 ? static_cast<int64_t>(pages) * page : 0;
}

// The value of one attribute for device `device` of product p; false when lngrad has none.
bool AttributeValue(const Product& p, uint32_t device, aclrtDevAttr attr, int64_t* value) {
  const bool simt = p.arch == NpuArch::k3510;
  switch (attr) {
    case ACL_DEV_ATTR_AICORE_CORE_NUM:
    case ACL_DEV_ATTR_CUBE_CORE_NUM:
      *value = p.aicore_count;
      return true;
    case ACL_DEV_ATTR_VECTOR_CORE_NUM:
      *value = p.split_cores ? p.vector_core_count : p.aicore_count;
      return true;
    case ACL_DEV_ATTR_WARP_SIZE:
      *value = simt::kWarpSize;
      return simt;
    case ACL_DEV_ATTR_MAX_THREAD_PER_VECTOR_CORE:
      *value = simt::kMaxThreadsPerBlock;
      return simt;
    case ACL_DEV_ATTR_UBUF_PER_VECTOR_CORE:
      *value = p.ub_bytes;
      return simt;
    case ACL_DEV_ATTR_TOTAL_GLOBAL_MEM_SIZE:
      *value = HostMemoryBytes();
      return true;
    case ACL_DEV_ATTR_PHY_CHIP_ID:
      *value = device;
      return true;
    case ACL_DEV_ATTR_SMP_ID:
    case ACL_DEV_ATTR_SUPER_POD_DEVICE_ID:
    case ACL_DEV_ATTR_SUPER_POD_SERVER_ID:
    case ACL_DEV_ATTR_SUPER_POD_ID:
    case ACL_DEV_ATTR_IS_VIRTUAL:  // one machine, not a virtual instance
      *value = 0;
      return true;
    default:  // AI CPUs, L2, the mainboard, custom-op privileges: not modelled
      return false;
  }
}

}  // namespace
}  // namespace lngrad::acl::detail

extern "C" aclError aclrtGetDeviceInfo(uint32_t deviceId, aclrtDevAttr attr, int64_t* value) {
  using lngrad::acl::detail::Fail;
  const std::string api = "aclrtGetDeviceInfo: ";
  if (value == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, api + "value is nullptr");
  if (deviceId >= static_cast<uint32_t>(lngrad::acl::detail::kDeviceCount)) {
    return Fail(ACL_ERROR_RT_INVALID_DEVICEID,
                api + "deviceId " + std::to_string(deviceId) +
                    " is not a device; lngrad simulates devices 0.." +
                    std::to_string(lngrad::acl::detail::kDeviceCount - 1));
  }
  const lngrad::Product& p = lngrad::CurrentProduct();
  int64_t v = 0;
  if (!lngrad::acl::detail::AttributeValue(p, deviceId, attr, &v)) {
    return Fail(ACL_ERROR_INVALID_PARAM,
                api + "attribute " + std::to_string(static_cast<int>(attr)) +
                    " has no value on the simulated " + std::string(p.soc) +
                    " (lngrad models the core counts, the SIMT "
                    "attributes of the Ascend 950, the memory size and the ids)");
  }
  *value = v;
  return ACL_SUCCESS;
}
