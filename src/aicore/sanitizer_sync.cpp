// The synchronisation the sanitizer models (lngrad_aicore/sanitizer.h; the model is described at
// the top of sanitizer.cpp): SetFlag/WaitFlag, PipeBarrier, event IDs, the TQue framework's
// queue flags, SyncAll phases and the cross-block Release/Acquire clocks.
#include <algorithm>
#include <array>
#include <cstdint>
#include <string>

#include "lngrad_aicore/sync.h"
#include "sanitizer_state.h"

namespace lngrad::aicore::san {

namespace {
// The block, pipes and flag of a SetFlag/WaitFlag; no flag where the sanitizer is off, the ID is
// invalid (CheckId reports it) or the event is not between modelled pipes.
struct FlagAt {
  BlockState* s = nullptr;
  BlockState::Flag* f = nullptr;
  Pipe src{}, dst{};
};
FlagAt FindFlag(const char* api, AscendC::HardEvent evt, int32_t id, SrcLoc loc) {
  FlagAt at;
  at.s = Active();
  if (at.s == nullptr || !at.s->CheckId(api, evt, id, loc) || !EventPipes(evt, &at.src, &at.dst)) {
    return {};
  }
  at.f = &at.s->flags[{static_cast<int>(evt), id}];
  return at;
}
}  // namespace

void SetFlag(AscendC::HardEvent evt, int32_t id, SrcLoc loc) {
  const FlagAt at = FindFlag("SetFlag", evt, id, loc);
  // The flag is one bit: a second SetFlag before the WaitFlag changes nothing (the waiter may go
  // as soon as the first one fires).
  if (at.f == nullptr || at.f->set) return;
  at.f->set = true;
  at.f->snapshot = at.s->Snapshot(at.src);
  at.f->loc = loc;
}

void WaitFlag(AscendC::HardEvent evt, int32_t id, SrcLoc loc) {
  const FlagAt at = FindFlag("WaitFlag", evt, id, loc);
  if (at.f == nullptr) return;
  BlockState* s = at.s;
  BlockState::Flag& f = *at.f;
  const Pipe dst = at.dst;
  if (!f.set) {
    if ((s->tools & kSynccheck) != 0) {
      s->Report(kSynccheck, 11, s->Intern("WaitFlag", loc, dst), 0,
                std::string("WaitFlag<HardEvent::") + EventText(evt) + ">(" + std::to_string(id) +
                    ") at " + Where(loc) +
                    " has no SetFlag before it with the same event and ID: on the device pipe " +
                    PipeName(dst) +
                    " waits forever (the kernel hangs); insert SetFlag<HardEvent::" +
                    EventText(evt) + ">(" + std::to_string(id) + ") before it");
    }
    return;
  }
  f.set = false;
  s->Join(dst, f.snapshot);
}

void Barrier(pipe_t pipe, SrcLoc) {
  BlockState* s = Active();
  if (s == nullptr) return;
  auto complete = [s](Pipe p) {
    auto& own = s->known[PipeIndex(p)][PipeIndex(p)];
    own = std::max(own, s->epoch[PipeIndex(p)]);
    ++s->epoch[PipeIndex(p)];
  };
  if (pipe == PIPE_ALL) {
    std::array<uint32_t, kPipeCount> all = s->epoch;
    for (auto& row : s->known) {
      for (int q = 0; q < kPipeCount; ++q) row[q] = std::max(row[q], all[q]);
    }
    for (auto& e : s->epoch) ++e;
    return;
  }
  const int p = AscendC::detail_sync::ModelledPipeIndex(pipe);
  if (p >= 0) complete(static_cast<Pipe>(p));
}

void CrossCoreSet(pipe_t pipe) {
  BlockState* s = Active();
  const int p = AscendC::detail_sync::ModelledPipeIndex(pipe);
  if (s == nullptr || p < 0) return;
  const std::array<uint32_t, kPipeCount> snap = s->Snapshot(static_cast<Pipe>(p));
  for (int q = 0; q < kPipeCount; ++q) s->cross_set[q] = std::max(s->cross_set[q], snap[q]);
}

void CrossCoreWait() {
  BlockState* s = Active();
  if (s == nullptr) return;
  for (int q = 0; q < kPipeCount; ++q) s->Join(static_cast<Pipe>(q), s->cross_set);
}

void AllocEventId(AscendC::HardEvent evt, int32_t id, SrcLoc loc) {
  BlockState* s = Active();
  if (s == nullptr) return;
  if (id < 0) {
    if ((s->tools & kSynccheck) != 0) {
      s->Report(kSynccheck, 15, s->Intern("AllocEventID", loc, Pipe::kS), 0,
                std::string("AllocEventID<HardEvent::") + EventText(evt) + ">() at " + Where(loc) +
                    ": all " + std::to_string(kEventIds) +
                    " event IDs of this event are taken (returned -1); release one with "
                    "ReleaseEventID first");
    }
    return;
  }
  s->event_ids[{static_cast<int>(evt), id}] = loc;
}

void ReleaseEventId(AscendC::HardEvent evt, int32_t id, SrcLoc loc) {
  BlockState* s = Active();
  if (s == nullptr) return;
  if (s->event_ids.erase({static_cast<int>(evt), id}) == 0 && (s->tools & kSynccheck) != 0) {
    s->Report(kSynccheck, 12, s->Intern("ReleaseEventID", loc, Pipe::kS), 0,
              std::string("ReleaseEventID<HardEvent::") + EventText(evt) + ">(" +
                  std::to_string(id) + ") at " + Where(loc) +
                  ": that ID is not allocated (AllocEventID did not hand it out, or it was "
                  "released already)");
  }
}

void QueueSignal(const void* key, int32_t id, bool free_event, AscendC::HardEvent evt) {
  BlockState* s = Active();
  if (s == nullptr) return;
  Pipe src, dst;
  if (!EventPipes(evt, &src, &dst)) return;
  auto& slot = s->queue_flags[{key, id, free_event}];
  slot.first = dst;
  slot.second.set = true;
  slot.second.snapshot = s->Snapshot(src);
}

void QueueWait(const void* key, int32_t id, bool free_event) {
  BlockState* s = Active();
  if (s == nullptr) return;
  auto it = s->queue_flags.find({key, id, free_event});
  if (it == s->queue_flags.end()) return;
  s->Join(it->second.first, it->second.second.snapshot);
  s->queue_flags.erase(it);
}

void BufIdSync(const void* key, int32_t id, AscendC::HardEvent evt, bool producer) {
  BlockState* s = Active();
  if (s == nullptr) return;
  Pipe src, dst;
  if (!EventPipes(evt, &src, &dst)) return;
  const Pipe pipe = producer ? src : dst;
  auto [it, fresh] = s->buf_ids.try_emplace({key, id});
  // The same pipe getting the ID it released itself does not wait (the vendor's Lock/Unlock).
  if (!fresh && it->second.first != pipe) s->Join(pipe, it->second.second);
  it->second = {pipe, s->Snapshot(pipe)};
}

void OnSyncAll() {
  BlockState* s = Active();
  if (s == nullptr) return;
  ++s->phase;
}

void Release(uint64_t key) {
  BlockState* s = Active();
  if (s == nullptr || s->launch == nullptr) return;
  CrossClock c = s->clock;
  c[s->block] = s->xepoch;
  s->launch->Publish(key, c);
  ++s->xepoch;
}

void Acquire(uint64_t key) {
  BlockState* s = Active();
  if (s == nullptr || s->launch == nullptr) return;
  bool grew = false;
  for (const auto& [block, e] : s->launch->Fetch(key)) {
    if (block == s->block) continue;
    uint32_t& mine = s->clock[block];
    if (e > mine) {
      mine = e;
      grew = true;
    }
  }
  if (grew) s->clocks.push_back(s->clock);
}

}  // namespace lngrad::aicore::san
