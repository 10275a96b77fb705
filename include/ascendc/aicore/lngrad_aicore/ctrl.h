// lngrad Ascend C runtime: the control state a block's instructions read (the device's CTRL
// register bits the basic API exposes), and AscendCUtils.
//
// Per block, like the register: every block of a launch starts from the defaults below, and a
// standalone block (kernel code outside a launch) keeps its state between calls, like a core
// between kernels. InitSocState() does not touch the overflow mode (the vendor's InitSocState
// leaves CTRL[48] alone).
#pragma once

#include <bit>
#include <cstdint>

#include "half.h"

namespace lngrad::aicore {

// Floating-point overflow handling of the running block (CTRL[48] on 2201/3510, CTRL[53] with
// the opposite polarity on 2002): true = saturation mode, the default (inf results become
// +-max of the type, NaN becomes 0); false = inf/NaN mode (AscendCUtils::SetOverflow(1):
// inf and NaN pass through). Read by the instructions whose float results or conversions can
// overflow; see docs/ascendc_compat.md, "Programming styles".
bool FloatSaturation() noexcept;
void SetFloatSaturation(bool on) noexcept;

// The running block's DEQSCALE register (64 bits; 0 at the start of every block, like the
// overflow mode), written by SetDeqScale. Cast int32_t -> half reads bits 0..15 (a half).
uint64_t DeqScaleRegister() noexcept;
void SetDeqScaleRegister(uint64_t v) noexcept;

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

// The DEQSCALE register (the vendor's bit layout). s322fp16 (Cast int32_t -> half, AddDeqRelu):
// bits 0..15 = scale.
inline void SetDeqScale(half scale) { lngrad::aicore::SetDeqScaleRegister(scale.bits); }
// s162b8 without vector quantisation (CastDequant): bits 0..31 = scale (float bits), 37..45 = the
// low 9 bits of offset, 46 = signMode. Stored only: lngrad has no CastDequant yet.
inline void SetDeqScale(float scale, int16_t offset, bool signMode) {
  const uint64_t v = uint64_t{std::bit_cast<uint32_t>(scale)} |
                     (uint64_t{static_cast<uint16_t>(offset) & 0x1FFu} << 37) |
                     (uint64_t{signMode ? 1u : 0u} << 46);
  lngrad::aicore::SetDeqScaleRegister(v);
}

}  // namespace AscendC
