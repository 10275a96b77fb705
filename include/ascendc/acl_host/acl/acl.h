// lngrad: the AscendCL umbrella header (`#include "acl/acl.h"`) of the vendor's host code: the
// base types and return codes and the host runtime on the simulated device. Operator and model
// execution (acl_op.h, acl_mdl.h) are not provided.
#ifndef LNGRAD_ASCENDC_ACL_ACL_H_
#define LNGRAD_ASCENDC_ACL_ACL_H_

#include "acl/acl_base.h"
#include "acl/acl_prof.h"
#include "acl/acl_rt.h"

#endif  // LNGRAD_ASCENDC_ACL_ACL_H_
