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
// overflow mode), written by SetDeqScale. Cast int32_t -> half reads bits 0..15 (a half);
// CastDequant reads it as its SetDeqScale form wrote it (DeqForm, kept beside the register as the
// vendor's CPU debug keeps g_isVdeq, for checked mode's pairing of the two APIs).
// On Ascend 950 (arch 3510) the kit keeps the half scale apart (g_deqValue): SetDeqScale(half)
// writes only that (DeqValueBits; half 1 after InitSocState, as the kit's InitSocStateImpl, which
// TPipe's constructor runs, sets it; 1 before it too, see DeqValueDefined), and Cast /
// CastDequant int32_t -> half read it; the register (g_deqScale there) holds only what the other
// two forms write.
enum class DeqForm : uint8_t {
  kNone,    // not written in this block
  kHalf,    // SetDeqScale(half): bits 0..15 = the scale
  kScalar,  // SetDeqScale(float, int16_t, bool): one s162b8 parameter set
  kVector,  // SetDeqScale(vdeq, VdeqInfo): bits 0..13 = the vdeq tensor's UB address / 32
};
uint64_t DeqScaleRegister() noexcept;
DeqForm DeqScaleForm() noexcept;
void SetDeqScaleRegister(uint64_t v, DeqForm form = DeqForm::kHalf) noexcept;
// SetDeqScale(half): the register's bits 0..15 (form kHalf), or on arch 3510 the half scale.
void SetDeqScaleHalf(uint16_t bits);
uint16_t DeqValueBits() noexcept;  // arch 3510's half scale (g_deqValue)
bool DeqValueWritten() noexcept;   // SetDeqScale(half) ran in this block (arch 3510)
void ResetDeqValue() noexcept;     // InitSocState (and TPipe) on arch 3510: the half scale 1
// g_deqValue has no initialiser in the kit (a [[block_local]] half): until a TPipe, InitSocState
// or SetDeqScale(half) sets it, lngrad reads 1 and checked mode refuses the read (cast_dequant).
bool DeqValueDefined() noexcept;

// One s162b8 parameter set as the vendor's MakeDeqScaleConfig packs it: bits 0..31 = scale
// (float bits), 37..45 = the low 9 bits of offset, 46 = signMode.
inline uint64_t DeqScaleConfig(float scale, int16_t offset, bool signMode) noexcept {
  return uint64_t{std::bit_cast<uint32_t>(scale)} |
         (uint64_t{static_cast<uint16_t>(offset) & 0x1FFu} << 37) |
         (uint64_t{signMode ? 1u : 0u} << 46);
}

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
// bits 0..15 = scale; on Ascend 950 a variable of its own (SetDeqScaleHalf).
inline void SetDeqScale(half scale) { lngrad::aicore::SetDeqScaleHalf(scale.bits); }
// s162b8 without vector quantisation (CastDequant<..., isVecDeq = false>): one parameter set
// (DeqScaleConfig). The vector form, SetDeqScale(vdeq, VdeqInfo), is in vector_cast.h.
inline void SetDeqScale(float scale, int16_t offset, bool signMode) {
  lngrad::aicore::SetDeqScaleRegister(lngrad::aicore::DeqScaleConfig(scale, offset, signMode),
                                      lngrad::aicore::DeqForm::kScalar);
}

}  // namespace AscendC
