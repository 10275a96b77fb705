// lngrad Ascend C runtime: pipeline synchronisation (barriers, flags, event IDs).
//
// A simulated block executes its instructions one after another in program order, so every
// pipeline is always in sync: barriers and flags are accepted and have nothing to do. This is
// not a silent no-op of the device's semantics: the device needs them only to order its
// parallel pipelines, which the simulator does not have.
#pragma once

#include <cstdint>

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
inline void PipeBarrier() {}
template <HardEvent event>
inline void SetFlag(int32_t /*eventID*/) {}
template <HardEvent event>
inline void WaitFlag(int32_t /*eventID*/) {}

}  // namespace AscendC
