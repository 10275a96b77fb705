// Layer acl: the host's element-type helpers (aclFloat16ToFloat, aclFloatToFloat16,
// aclDataTypeSize in acl/acl_base.h).
#include "acl/acl_base.h"
#include "lngrad/half.h"

extern "C" {

float aclFloat16ToFloat(aclFloat16 value) { return lngrad::HalfBitsToFloat(value); }

aclFloat16 aclFloatToFloat16(float value) { return lngrad::FloatToHalfBits(value); }

size_t aclDataTypeSize(aclDataType dataType) {
  switch (dataType) {
    case ACL_INT8:
    case ACL_UINT8:
    case ACL_BOOL:
    case ACL_HIFLOAT8:
    case ACL_FLOAT8_E5M2:
    case ACL_FLOAT8_E4M3FN:
    case ACL_FLOAT8_E8M0:
      return 1;
    case ACL_FLOAT16:
    case ACL_BF16:
    case ACL_INT16:
    case ACL_UINT16:
      return 2;
    case ACL_FLOAT:
    case ACL_INT32:
    case ACL_UINT32:
    case ACL_COMPLEX32:
      return 4;
    case ACL_INT64:
    case ACL_UINT64:
    case ACL_DOUBLE:
    case ACL_COMPLEX64:
      return 8;
    case ACL_COMPLEX128:
      return 16;
    default:
      return 0;
  }
}

}  // extern "C"
