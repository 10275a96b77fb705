// lngrad: the ACL profiling ranges (`#include "acl/acl_prof.h"`) that operators wrap around a
// launch to describe it to a profiler (msOpProf): aclprofStr2Id, aclprofRangePushEx and
// aclprofRangePop, with the vendor's names and return codes. lngrad has no profiler to attach:
// the calls check their arguments and keep each thread's range depth, and the description goes
// nowhere. docs/ascendc_compat.md, "The ACL host runtime".
//
// The range's description (aclprofEventAttributes and the aclprofTensorInfo it points to) is
// declared, not defined: an operator defines the layout it reports (the kit's
// torch_library_report_tensor sample does, unless ACL_PROF_TENSOR_INFO_DEFINED).
#ifndef LNGRAD_ASCENDC_ACL_ACL_PROF_H_
#define LNGRAD_ASCENDC_ACL_ACL_PROF_H_

#include <stdint.h>

#include "acl/acl_base.h"

#ifdef __cplusplus
struct aclprofEventAttributes;
extern "C" {
#else
typedef struct aclprofEventAttributes aclprofEventAttributes;
#endif

// A stable non-zero id for a string (the same string, the same id, in this process); 0 for
// nullptr.
ACL_FUNC_VISIBILITY uint64_t aclprofStr2Id(const char* message);
// Opens a range on the calling thread; attr nullptr is ACL_ERROR_INVALID_PARAM.
ACL_FUNC_VISIBILITY aclError aclprofRangePushEx(aclprofEventAttributes* attr);
// Closes the calling thread's innermost range; none open is ACL_ERROR_INVALID_PARAM.
ACL_FUNC_VISIBILITY aclError aclprofRangePop();

#ifdef __cplusplus
}
#endif

#endif  // LNGRAD_ASCENDC_ACL_ACL_PROF_H_
