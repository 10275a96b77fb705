// Power<int32_t> on arch 2201/2002 (replay_power_int.h). Provenance: written by helper mt
// (session 19) from the toolkit's sources (asc-devkit, the mirror's HEAD), read for this file:
// power/power_int_impl.h (InitBulkPowerI: |y| by a Muls -1 selected where float(y) < 0, the
// first CompareZeroPositive, record 0 or 1, dst 1 or x, one ShiftRightOneBit; BulkProcessPowerI:
// ReduceSum of float(expUBIterate), dst squared and record doubled where the mask is clear, the
// next halving, CompareIntZero; InitFinePowerI: record = |y| - record; FineProcessPowerI: one
// product by x and record - 1 per round while the float sum of the records is not 0;
// HandleNegativeExpPowerI) and power_v200_impl.h (ShiftRightOneBit: And with 0xfffffffe on
// 16-bit words, Cast<float, int32_t> CAST_NONE, Muls 0.5f, Cast<int32_t, float> CAST_RINT;
// CompareZeroPositive: the int32 bits compared as a float with 0.0f, so 0x80000000 (-0.0f)
// counts as zero; CompareIntZero: bits + 0x3f800000 compared with 1.0f). Written before
// lngrad's check, without reading it; a separate reading by the same helper who then changed
// lngrad (include/ascendc/adv/lib/math/power.h's PowerInt2002Ends).
#include "replay_power_int.h"

#include <cmath>

namespace lngrad_replay {

int32_t ReplayPowerIntHalve2002(int32_t e) {
  const uint32_t bits = static_cast<uint32_t>(e) & 0xfffffffeu;
  const volatile float f = static_cast<float>(static_cast<int32_t>(bits));
  const volatile float h = f * 0.5f;
  return static_cast<int32_t>(std::nearbyint(h));  // in range: |h| <= 2^30
}

bool ReplayPowerInt2002Ends(int32_t y) {
  // |y| as the kit forms it: y * -1 (wrapping) where float(y) < 0.
  const uint32_t abs_y = y < 0 ? 0u - static_cast<uint32_t>(y) : static_cast<uint32_t>(y);
  if (abs_y == 0x80000000u) return false;  // halves to -2^30 .. -1, then -1 for ever
  // The squarings: one per halving that is not yet 0 (record doubles with each).
  uint64_t record = abs_y == 0 ? 0 : 1;
  for (int32_t e = ReplayPowerIntHalve2002(static_cast<int32_t>(abs_y)); e != 0;
       e = ReplayPowerIntHalve2002(e)) {
    record *= 2;
  }
  return record <= abs_y;
}

int32_t ReplayPowerInt(int32_t x, int32_t y) {
  const uint32_t abs_y = y < 0 ? 0u - static_cast<uint32_t>(y) : static_cast<uint32_t>(y);
  uint32_t p = 1, b = static_cast<uint32_t>(x);
  for (uint32_t e = abs_y; e != 0; e >>= 1) {
    if ((e & 1u) != 0) p *= b;
    b *= b;
  }
  const auto v = static_cast<int32_t>(p);
  if (y >= 0) return v;
  if (v == 0) return 0;
  const volatile float r = 1.0f / static_cast<float>(v);
  return static_cast<int32_t>(std::trunc(r));
}

}  // namespace lngrad_replay
