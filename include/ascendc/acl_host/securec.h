// lngrad: the bounded memory functions of the securec library (`#include "securec.h"`) that the
// vendor's host code calls, with securec's signatures and return codes. Implemented in layer acl.
//
//   memcpy_s(dest, destMax, src, count)  copies count bytes;  memset_s(dest, destMax, c, count)
//
// Both return EOK (0) on success. destMax of 0 or above SECUREC_MEM_MAX_LEN: ERANGE, nothing
// written. dest nullptr: EINVAL. memcpy_s with src nullptr: EINVAL_AND_RESET, count > destMax:
// ERANGE_AND_RESET, overlapping ranges: EOVERLAP_AND_RESET, each after zeroing dest[0, destMax).
// memset_s with count > destMax: ERANGE_AND_RESET after setting dest[0, destMax). count == 0:
// EOK.
#ifndef LNGRAD_ASCENDC_SECUREC_H_
#define LNGRAD_ASCENDC_SECUREC_H_

#include <errno.h>
#include <stddef.h>

#ifndef SECUREC_MEM_MAX_LEN
#define SECUREC_MEM_MAX_LEN 0x7fffffffUL
#endif
#ifndef EOK
#define EOK 0
#endif
// securec's "_AND_RESET" codes: the errno value with bit 7 set.
#ifndef EINVAL_AND_RESET
#define EINVAL_AND_RESET (22 | 128)
#endif
#ifndef ERANGE_AND_RESET
#define ERANGE_AND_RESET (34 | 128)
#endif
#ifndef EOVERLAP_AND_RESET
#define EOVERLAP_AND_RESET (54 | 128)
#endif

#ifdef __cplusplus
extern "C" {
#endif

#ifndef LNGRAD_SECUREC_ERRNO_T_DEFINED
#define LNGRAD_SECUREC_ERRNO_T_DEFINED
typedef int errno_t;
#endif

errno_t memcpy_s(void* dest, size_t destMax, const void* src, size_t count);
errno_t memset_s(void* dest, size_t destMax, int c, size_t count);

#ifdef __cplusplus
}
#endif

#endif  // LNGRAD_ASCENDC_SECUREC_H_
