// lngrad Ascend C runtime: the control state a block's instructions read (the device's CTRL
// register bits the basic API exposes), and AscendCUtils.
//
// Per block, like the register: every block of a launch starts from the defaults below, and a
// standalone block (kernel code outside a launch) keeps its state between calls, like a core
// between kernels. InitSocState() does not touch the overflow mode (the vendor's InitSocState
// leaves CTRL[48] alone).
#pragma once

#include <cstdint>

namespace lngrad::aicore {

// Floating-point overflow handling of the running block (CTRL[48] on 2201/3510, CTRL[53] with
// the opposite polarity on 2002): true = saturation mode, the default (inf results become
// +-max of the type, NaN becomes 0); false = inf/NaN mode (AscendCUtils::SetOverflow(1):
// inf and NaN pass through). Read by the instructions whose float results or conversions can
// overflow; see docs/ascendc_compat.md, "Programming styles".
bool FloatSaturation() noexcept;
void SetFloatSaturation(bool on) noexcept;

}  // namespace lngrad::aicore

namespace AscendC {

// The vendor's utility class; kernels call its static members.
class AscendCUtils {
 public:
  // ctrlValue 1: inf/NaN mode; any other value: saturation mode (the vendor's meaning on every
  // product, whichever CTRL bit it sets).
  static void SetOverflow(uint64_t ctrlValue) {
    lngrad::aicore::SetFloatSaturation(ctrlValue != 1);
  }
};

}  // namespace AscendC
