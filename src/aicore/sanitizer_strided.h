// Strided byte sets for the sanitizer (internal to sanitizer*.cpp): a strided copy's bursts as
// one record (first byte, burst length, pitch, count) instead of one per burst, where they meet
// each other exactly, and the block's GM shadow state kept over such records.
#pragma once

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <map>
#include <vector>

#include "sanitizer_shadow.h"

namespace lngrad::aicore::san {

// count bursts of len bytes, burst i at begin + i * pitch; pitch > len when count > 1 (count 1:
// one contiguous range, pitch unused).
struct Strided {
  uint64_t begin = 0, len = 0, pitch = 0, count = 1;
  uint64_t At(uint64_t i) const { return begin + i * pitch; }
  uint64_t End() const { return At(count - 1) + len; }
  bool operator==(const Strided&) const = default;
};

// The bursts of s that [x, y) meets, [*lo, *hi]; false: none.
inline bool BurstsMeeting(const Strided& s, uint64_t x, uint64_t y, uint64_t* lo, uint64_t* hi) {
  if (y <= s.begin || x >= s.End() || x >= y) return false;
  if (s.count == 1) {
    *lo = *hi = 0;
    return true;
  }
  const uint64_t j0 = x < s.begin + s.len ? 0 : (x - s.begin - s.len) / s.pitch + 1;
  const uint64_t j1 = std::min((y - 1 - s.begin) / s.pitch, s.count - 1);
  if (j0 > j1) return false;
  *lo = j0;
  *hi = j1;
  return true;
}

namespace strided_detail {
inline int64_t FloorDiv(int64_t n, int64_t d) {  // d > 0
  int64_t q = n / d;
  if (n % d != 0 && n < 0) --q;
  return q;
}
}  // namespace strided_detail

// The lowest byte range where a burst of a meets a burst of b, [*ob, *oe); false: none.
inline bool FirstOverlap(const Strided& a, const Strided& b, uint64_t* ob, uint64_t* oe) {
  if (a.End() <= b.begin || b.End() <= a.begin) return false;
  if (a.count > 1 && b.count > 1 && a.pitch == b.pitch) {
    // Burst i of a meets burst i + k of b when -b.len < d + k * pitch < a.len: at most three k.
    const auto p = static_cast<int64_t>(a.pitch);
    const int64_t d = static_cast<int64_t>(b.begin) - static_cast<int64_t>(a.begin);
    const int64_t la = static_cast<int64_t>(a.len), lb = static_cast<int64_t>(b.len);
    const int64_t ca = static_cast<int64_t>(a.count), cb = static_cast<int64_t>(b.count);
    bool found = false;
    for (int64_t k = strided_detail::FloorDiv(-lb - d, p) + 1;
         k <= strided_detail::FloorDiv(la - d - 1, p); ++k) {
      const int64_t i = std::max<int64_t>(0, -k);
      if (i >= std::min(ca, cb - k)) continue;
      const int64_t off = d + k * p;  // b's burst relative to a's, in (-lb, la)
      const uint64_t x = a.At(static_cast<uint64_t>(i));
      const uint64_t s = x + static_cast<uint64_t>(std::max<int64_t>(0, off));
      if (!found || s < *ob) {
        *ob = s;
        *oe = x + static_cast<uint64_t>(std::min(la, off + lb));
        found = true;
      }
    }
    return found;
  }
  // Walk the set with fewer bursts, from its first burst inside the other's extent.
  const Strided& few = a.count <= b.count ? a : b;
  const Strided& many = &few == &a ? b : a;
  uint64_t i0 = 0, i1 = 0;
  if (!BurstsMeeting(few, many.begin, many.End(), &i0, &i1)) return false;
  for (uint64_t i = i0; i <= i1; ++i) {
    const uint64_t x = few.At(i), y = x + few.len;
    uint64_t lo = 0, hi = 0;
    if (BurstsMeeting(many, x, y, &lo, &hi)) {
      *ob = std::max(x, many.At(lo));
      *oe = std::min(y, many.At(lo) + many.len);
      return true;
    }
  }
  return false;
}

inline bool Meet(const Strided& a, const Strided& b) {
  uint64_t ob = 0, oe = 0;
  return FirstOverlap(a, b, &ob, &oe);
}

// A block's GM shadow state: an interval map (ShadowMap), plus strided records for strided
// accesses that met no byte recorded before, each with one Cell for all its bursts. Invariant:
// the records are disjoint from each other and from the map, so each byte has one Cell. An
// access meeting a record turns the record into the map's ranges first (exactly the Cells the
// bursts had), except an access with the record's very bursts, which updates its Cell.
class GmShadow {
 public:
  // fn(burst begin, burst end, Cell&) as ShadowMap::Visit, over s's bursts in order; a strided
  // record's Cell stands for all its bursts, and fn sees the first burst's range.
  template <class Fn>
  void Visit(const Strided& s, Fn&& fn) {
    if (s.len == 0) return;
    std::vector<std::map<uint64_t, Record>::iterator> hits;
    const uint64_t from = s.begin > max_extent_ ? s.begin - max_extent_ : 0;
    for (auto it = records_.lower_bound(from); it != records_.end() && it->first < s.End(); ++it) {
      if (it->second.s.End() > s.begin && Meet(it->second.s, s)) hits.push_back(it);
    }
    if (s.count > 1 && !map_.Meets(s.begin, s.len, s.pitch, s.count)) {
      if (hits.empty()) {
        Cell c{};
        fn(s.begin, s.begin + s.len, c);
        records_.emplace(s.begin, Record{s, c});
        max_extent_ = std::max(max_extent_, s.End() - s.begin);
        return;
      }
      if (hits.size() == 1 && hits[0]->second.s == s) {
        fn(s.begin, s.begin + s.len, hits[0]->second.cell);
        return;
      }
    }
    for (auto it : hits) {
      const Record& r = it->second;
      for (uint64_t i = 0; i < r.s.count; ++i) {
        map_.Visit(r.s.At(i), r.s.At(i) + r.s.len,
                   [&](uint64_t, uint64_t, Cell& c) { c = r.cell; });
      }
      records_.erase(it);
    }
    for (uint64_t i = 0; i < s.count; ++i) map_.Visit(s.At(i), s.At(i) + s.len, fn);
  }

 private:
  struct Record {
    Strided s;
    Cell cell;
  };
  ShadowMap map_;
  std::map<uint64_t, Record> records_;  // by first byte
  uint64_t max_extent_ = 0;             // the largest record's End() - begin
};

}  // namespace lngrad::aicore::san
