// The sanitizer's shadow state (internal to sanitizer*.cpp): what the last write and the reads
// since it were, per byte range, kept as an interval map; and the fingerprint that tells
// identical GM writes from different ones.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <map>

#include "lngrad_aicore/sanitizer.h"

namespace lngrad::aicore::san {

// One access of a byte range: its pipe's epoch and site (epoch 0: none).
struct Stamp {
  uint32_t epoch = 0;
  uint32_t site = 0;
  bool auto_synced = false;
  bool operator==(const Stamp&) const = default;
};

struct Cell {
  bool written = false;  // initcheck: an instruction of this block initialised the bytes
  // initcheck: unwritten because a copy brought them in from device memory that nothing wrote
  bool from_unwritten_gm = false;
  // initcheck: unwritten because a high-level API left them with contents lngrad does not model
  // (Instr::WriteUnmodelled): that call's site + 1; 0 otherwise.
  uint32_t left_by = 0;
  Pipe write_pipe = Pipe::kS;
  uint8_t write_atomic = 0;  // GmSpan::atomic of the last write
  Stamp write;
  std::array<Stamp, kPipeCount> reads{};  // since the last write, per pipe
  // UB: the last write raced with the one before it, which nothing had read (a write-only race,
  // BlockState::pending_waw index + 1); a read of the bytes makes it a finding. 0: none.
  uint32_t waw = 0;
  bool operator==(const Cell&) const = default;
};

constexpr uint64_t kFingerprintSeed = 0x9e3779b97f4a7c15ull;

// Continues `h` over `bytes` bytes at p, eight at a time (a multiply-xorshift mix; not
// cryptographic: it tells identical writes from different ones).
inline uint64_t Fingerprint(uint64_t h, const std::byte* p, uint64_t bytes) {
  uint64_t i = 0;
  for (; i + 8 <= bytes; i += 8) {
    uint64_t w;
    std::memcpy(&w, p + i, 8);
    h = (h ^ w) * 0xff51afd7ed558ccdull;
    h ^= h >> 32;
  }
  for (; i < bytes; ++i) h = (h ^ static_cast<uint8_t>(p[i])) * 0x100000001b3ull;
  return h ^ bytes;
}

// Byte ranges [begin, end) -> Cell; a range never accessed has no entry.
class ShadowMap {
 public:
  template <class Fn>
  void Visit(uint64_t begin, uint64_t end, Fn&& fn) {
    if (begin >= end) return;
    Split(begin);
    Split(end);
    uint64_t cur = begin;
    auto it = map_.lower_bound(begin);
    while (cur < end) {
      if (it == map_.end() || it->first > cur) {
        const uint64_t gap_end = it == map_.end() ? end : std::min(end, it->first);
        it = map_.emplace_hint(it, cur, Seg{gap_end, Cell{}});
      }
      fn(it->first, it->second.end, it->second.cell);
      cur = it->second.end;
      ++it;
    }
    Coalesce(begin, end);
  }
  size_t size() const { return map_.size(); }
  // Whether a range of the map meets a burst of count bursts of len bytes at begin + i * pitch
  // (pitch > len), or more than kMeetsScan ranges lie in their extent (then true too: the caller
  // takes the exact, slower way).
  bool Meets(uint64_t begin, uint64_t len, uint64_t pitch, uint64_t count) const {
    constexpr int kMeetsScan = 64;
    const uint64_t end = begin + (count - 1) * pitch + len;
    auto it = map_.upper_bound(begin);
    if (it != map_.begin()) --it;
    for (int n = 0; it != map_.end() && it->first < end; ++it, ++n) {
      if (n == kMeetsScan) return true;
      if (it->second.end <= begin) continue;
      // The first burst ending after the range's start begins before the range's end.
      const uint64_t from = std::max(it->first, begin);
      const uint64_t j = from < begin + len ? 0 : (from - begin - len) / pitch + 1;
      if (j < count && begin + j * pitch < it->second.end) return true;
    }
    return false;
  }

 private:
  struct Seg {
    uint64_t end;
    Cell cell;
  };
  void Split(uint64_t at) {
    auto it = map_.upper_bound(at);
    if (it == map_.begin()) return;
    --it;
    if (it->first < at && it->second.end > at) {
      Seg tail = it->second;
      it->second.end = at;
      map_.emplace_hint(std::next(it), at, tail);
    }
  }
  void Coalesce(uint64_t begin, uint64_t end) {
    auto it = map_.lower_bound(begin);
    if (it != map_.begin()) --it;
    while (it != map_.end() && it->first <= end) {
      auto next = std::next(it);
      if (next == map_.end()) break;
      if (it->second.end == next->first && it->second.cell == next->second.cell) {
        it->second.end = next->second.end;
        map_.erase(next);
      } else {
        it = next;
      }
    }
  }
  std::map<uint64_t, Seg> map_;
};

}  // namespace lngrad::aicore::san
