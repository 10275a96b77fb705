// lngrad register API: a whole-register load's sanitizer record, lane by lane.
//
// An aligned load reads a whole register (256 bytes) from UB, whatever lanes its operations later
// select: a kernel whose tile ends inside a register loads bytes past it and never uses them (the
// mask of its operations and stores leaves those lanes out), and the device computes it
// correctly even when those bytes were never written or another pipe writes them meanwhile. So
// with a sanitizer tool on, a whole-register load records nothing at once: its bytes are noted
// against the register, and each operation or store that selects lanes of it records the load's
// read of those lanes' bytes (the load's instruction and source line, on PIPE_V), where racecheck
// and initcheck judge them as if the load had recorded them. Inside a vector function no other
// pipe issues anything, so the read is judged against the same synchronisation state as at the
// load. An operation that writes the register drops what no use recorded (those bytes were never
// used). A register is known by the address of its lanes; a note also keeps the bytes the load put
// there, and one whose lanes no longer hold them is dropped (a write the hooks do not see). The
// notes end with the vector function. Without a sanitizer tool the hooks cost one thread-local
// test.
#pragma once

#include <cstdint>

#include "lngrad_aicore/sanitizer.h"
#include "lngrad_reg/registers.h"

namespace lngrad::reg::detail {

// t_unwritten_regs (registers.h): how many registers have a note.

// A whole-register load into lanes from ub (checked already), with a sanitizer tool on.
void NoteLoad(const void* lanes, const void* ub, const char* api, aicore::SrcLoc loc);
// The lanes of laneBytes the mask selects (every byte: mask nullptr) are used: their bytes'
// read is recorded, once.
void CheckLaneUse(const void* lanes, uint32_t laneBytes, const MaskReg* mask);
void ForgetAllLanes() noexcept;  // ForgetLanes, UseAllLanes: registers.h

// An engine's hooks: the lanes of srcs the mask selects (every lane: nullptr) are read...
template <class... Srcs>
inline void LaneRead(const MaskReg* mask, const Srcs&... srcs) {
  if (t_unwritten_regs == 0) return;
  (CheckLaneUse(srcs.lane, sizeof(srcs.lane[0]), mask), ...);
}
// ... and dst's lanes are written (after LaneRead: dst may be one of the sources).
template <class Reg>
inline void LaneWrite(Reg& dst) {
  if (t_unwritten_regs != 0) ForgetLanes(dst.lane);
}

}  // namespace lngrad::reg::detail
