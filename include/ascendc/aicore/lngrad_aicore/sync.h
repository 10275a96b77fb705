// lngrad Ascend C runtime: pipeline synchronisation (barriers, flags, event IDs).
//
// A simulated block executes its instructions one after another in program order, so the data
// is always in sync and barriers and flags have nothing to do to it. What they order on the
// device (its pipes run in parallel) is what the sanitizer checks (sanitizer.h): each one is
// reported to it, with its call site.
#pragma once

#include <cstdint>

#include "sanitizer.h"

// pipe_t and event_t are the device compiler's built-in types: kernel code names them and their
// values without a namespace (`PipeBarrier<PIPE_ALL>()`, `SetFlag<HardEvent::V_S>(EVENT_ID0)`),
// so they live at global scope, and namespace AscendC re-exports them for code that qualifies.
enum pipe_t : uint8_t {
  PIPE_S = 0,
  PIPE_V,
  PIPE_M,
  PIPE_MTE1,
  PIPE_MTE2,
  PIPE_MTE3,
  PIPE_ALL,
  PIPE_MTE4,
  PIPE_MTE5,
  PIPE_V2,
  PIPE_FIX
};

enum event_t : int32_t {
  EVENT_ID0 = 0,
  EVENT_ID1,
  EVENT_ID2,
  EVENT_ID3,
  EVENT_ID4,
  EVENT_ID5,
  EVENT_ID6,
  EVENT_ID7,
};

namespace AscendC {

using ::event_t;
using ::pipe_t;
using enum ::event_t;
using enum ::pipe_t;

enum class HardEvent : uint8_t {
  MTE2_MTE1,
  MTE1_MTE2,
  MTE1_M,
  M_MTE1,
  MTE2_V,
  V_MTE2,
  MTE3_V,
  V_MTE3,
  M_V,
  V_M,
  V_V,
  MTE3_MTE1,
  MTE1_MTE3,
  MTE1_V,
  MTE2_M,
  M_MTE2,
  V_MTE1,
  M_FIX,
  FIX_M,
  MTE3_MTE2,
  MTE2_MTE3,
  S_V,
  V_S,
  S_MTE2,
  MTE2_S,
  S_MTE3,
  MTE3_S,
  MTE2_FIX,
  FIX_MTE2,
  FIX_S,
  M_S,
  FIX_MTE3,
  MTE1_FIX,
  FIX_MTE1,
  FIX_FIX,
  MAX,
};

using TEventID = int8_t;

template <pipe_t pipe = PIPE_ALL>
inline void PipeBarrier(lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  lngrad::aicore::san::Barrier(pipe, loc);
}
// SetFlag: once every earlier instruction of the event's source pipe is done, the flag is set;
// WaitFlag: the event's destination pipe waits until it is set, then clears it.
template <HardEvent event>
inline void SetFlag(int32_t eventID,
                    lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  lngrad::aicore::san::SetFlag(event, eventID, loc);
}
template <HardEvent event>
inline void WaitFlag(int32_t eventID,
                     lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
  lngrad::aicore::san::WaitFlag(event, eventID, loc);
}

namespace detail_sync {
// The HardEvent from pipe src to pipe dst, for the vector core's pipes and the cube's (MAX
// otherwise).
struct PipeEdge {
  pipe_t src;
  pipe_t dst;
  HardEvent event;
};
inline constexpr PipeEdge kPipeEdges[] = {{PIPE_MTE2, PIPE_V, HardEvent::MTE2_V},
                                          {PIPE_V, PIPE_MTE2, HardEvent::V_MTE2},
                                          {PIPE_MTE3, PIPE_V, HardEvent::MTE3_V},
                                          {PIPE_V, PIPE_MTE3, HardEvent::V_MTE3},
                                          {PIPE_V, PIPE_V, HardEvent::V_V},
                                          {PIPE_MTE3, PIPE_MTE2, HardEvent::MTE3_MTE2},
                                          {PIPE_MTE2, PIPE_MTE3, HardEvent::MTE2_MTE3},
                                          {PIPE_S, PIPE_V, HardEvent::S_V},
                                          {PIPE_V, PIPE_S, HardEvent::V_S},
                                          {PIPE_S, PIPE_MTE2, HardEvent::S_MTE2},
                                          {PIPE_MTE2, PIPE_S, HardEvent::MTE2_S},
                                          {PIPE_S, PIPE_MTE3, HardEvent::S_MTE3},
                                          {PIPE_MTE3, PIPE_S, HardEvent::MTE3_S},
                                          {PIPE_MTE2, PIPE_MTE1, HardEvent::MTE2_MTE1},
                                          {PIPE_MTE1, PIPE_MTE2, HardEvent::MTE1_MTE2},
                                          {PIPE_MTE1, PIPE_M, HardEvent::MTE1_M},
                                          {PIPE_M, PIPE_MTE1, HardEvent::M_MTE1},
                                          {PIPE_M, PIPE_FIX, HardEvent::M_FIX},
                                          {PIPE_FIX, PIPE_M, HardEvent::FIX_M},
                                          {PIPE_MTE2, PIPE_M, HardEvent::MTE2_M},
                                          {PIPE_M, PIPE_MTE2, HardEvent::M_MTE2},
                                          {PIPE_MTE2, PIPE_FIX, HardEvent::MTE2_FIX},
                                          {PIPE_FIX, PIPE_MTE2, HardEvent::FIX_MTE2},
                                          {PIPE_MTE1, PIPE_FIX, HardEvent::MTE1_FIX},
                                          {PIPE_FIX, PIPE_MTE1, HardEvent::FIX_MTE1},
                                          {PIPE_FIX, PIPE_S, HardEvent::FIX_S},
                                          {PIPE_M, PIPE_S, HardEvent::M_S},
                                          {PIPE_FIX, PIPE_FIX, HardEvent::FIX_FIX},
                                          {PIPE_FIX, PIPE_MTE3, HardEvent::FIX_MTE3},
                                          {PIPE_M, PIPE_V, HardEvent::M_V},
                                          {PIPE_V, PIPE_M, HardEvent::V_M},
                                          {PIPE_MTE3, PIPE_MTE1, HardEvent::MTE3_MTE1},
                                          {PIPE_MTE1, PIPE_MTE3, HardEvent::MTE1_MTE3},
                                          {PIPE_MTE1, PIPE_V, HardEvent::MTE1_V},
                                          {PIPE_V, PIPE_MTE1, HardEvent::V_MTE1}};
constexpr HardEvent EventBetween(pipe_t src, pipe_t dst) {
  for (const PipeEdge& e : kPipeEdges) {
    if (e.src == src && e.dst == dst) return e.event;
  }
  return HardEvent::MAX;
}
// The pipes that lngrad models, in the order of the sanitizer's Pipe (kS, kV, kMte2, kMte3,
// kMte1, kM, kFix), and a pipe's index there (-1: not modelled, such as PIPE_ALL).
inline constexpr pipe_t kModelledPipes[lngrad::aicore::kPipeCount] = {
    PIPE_S, PIPE_V, PIPE_MTE2, PIPE_MTE3, PIPE_MTE1, PIPE_M, PIPE_FIX};
constexpr int ModelledPipeIndex(pipe_t p) {
  for (int i = 0; i < lngrad::aicore::kPipeCount; ++i) {
    if (kModelledPipes[i] == p) return i;
  }
  return -1;
}
}  // namespace detail_sync

// SetFlag/WaitFlag between two pipes named by pipe_t (TQueSync<PIPE_S, PIPE_MTE3> sync;
// sync.SetFlag(0); sync.WaitFlag(0);).
template <pipe_t src, pipe_t dst>
class TQueSync {
  static constexpr HardEvent kEvent = detail_sync::EventBetween(src, dst);
  static_assert(kEvent != HardEvent::MAX,
                "TQueSync: lngrad models the pipes S, V, MTE2, MTE3, MTE1, M and FIX");

 public:
  void SetFlag(TEventID id, lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
    lngrad::aicore::san::SetFlag(kEvent, id, loc);
  }
  void WaitFlag(TEventID id, lngrad::aicore::SrcLoc loc = lngrad::aicore::SrcLoc::Current()) {
    lngrad::aicore::san::WaitFlag(kEvent, id, loc);
  }
};

}  // namespace AscendC
