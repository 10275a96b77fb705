// lngrad: what the 950's (arch 3510) reduce code leaves in the source and the scratch. The
// orders are reduce_3510.h's; here they run on the memory the device's register code folds in:
//
// - AR, rows of whole blocks longer than a register (reduce_common_ar_reuse_align_3510_impl.h):
//   with isReuseSource in src itself (row a at a * last): x[j] op= x[m + j] for j < last - m,
//   then each 16-vector fold stores its vector r over vector r; without it in the scratch (as T),
//   row a at a * m: t[j] = x[j] op x[m + j] over the tail's whole vectors, x[j] copied for the
//   rest of [0, m), the tail's last partial vector taken onto t's first lanes, then the same
//   folds. Rows up to a register are only read. The 2, 4 or 8 vectors a fold leaves are reduced
//   in registers (nothing stored).
// - AR, rows not of whole blocks of at least a register (reduce_common_ar_ra_reuse_unalign_3510
//   _impl.h): in src whatever isReuseSource says: the tail step, then the strided 16-folds.
// - RA, columns of whole blocks (reduce_common_ra_reuse_align_3510_impl.h), A columns, R rows,
//   m = the main rows: more than half a register and at most 65535 columns: without
//   isReuseSource rows [tail, m) copied to the scratch (same offsets: row r at r * A), then rows
//   r < tail = x row r op x row m + r (in src with isReuseSource, else in the scratch), then the
//   16-row folds over row r (rows 16r .. 16r + 15 up to a register of columns, r, r + L, ..
//   wider); at most half a register or wider than 65535 (the concatenated form): the same copy
//   and tail step over the flat elements, then halvings of whole registers: w[i] op= w[F + i]
//   for every lane of the ceil(F / V) registers from the start (F = the rows left times A), so
//   lanes past F get w[k] op w[F + k] too. Two rows (one without isReuseSource, except the form
//   of up to a register of columns, which folds the pair into the scratch's row 0) are read only.
// - RA, columns not of whole blocks: in src whatever isReuseSource says: the tail rows, then the
//   strided 16-row folds.
// - 8-byte integers (the B64 functions: ReduceARB64OverVL, ReduceRAB64ReuseSource and the
//   unaligned ...B64 paths): the same with registers of 64 elements and 8 folded a pass, always
//   strided (r, r + L, .., r + 7L), and RA in the first form for every A (no concatenated form;
//   two rows without isReuseSource go through the scratch's row 0).
//
// Mem is the operand as the device addresses it: the tensor's elements [0, extent) and, past its
// end, the UB after the operand (`room` elements up to the UB's end), read and written as the
// device does. Past the UB's end an element is not known: a lane that reads one is not written.
// Reach() is one past the last element stored; CheckReach refuses a call whose stores leave the
// UB (always) or, in checked mode, the operand (the kit's host minimum of some calls is smaller
// than the 950's own layout: docs/ascendc_kernels.md, Reduce).
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "lib/reduce/reduce_3510.h"

namespace lngrad::aicore::reduce_detail {

template <typename T>
class Mem {
 public:
  // `base`: the operand's first byte (nullptr: an operand never touched); `extent` elements of T
  // belong to it; the fold may address up to `need` elements.
  // `room`: elements of T after the operand that lie inside the UB.
  Mem(uint8_t* base, uint64_t extent, uint64_t need, uint64_t room = 0)
      : base_(base),
        extent_(base ? extent : 0),
        room_(base ? room : 0),
        v_(std::max(extent_, need)),
        ok_(v_.size(), 0) {
    const uint64_t in_ub = std::min<uint64_t>(v_.size(), extent_ + room_);
    for (uint64_t k = 0; k < in_ub; ++k) {
      std::memcpy(&v_[k], base_ + k * sizeof(T), sizeof(T));
      ok_[k] = 1;
    }
  }
  // The operand's elements and the UB after it, as a LocalTensor `t` of elements `U` sees them.
  template <typename U>
  static Mem Of(const AscendC::LocalTensor<U>& t, uint64_t need) {
    const detail::TensorView v = t.View();
    const uint64_t end = static_cast<uint64_t>(v.ptr - v.ub) + v.size_bytes;
    const uint64_t room = end < v.ub_size ? (v.ub_size - end) / sizeof(T) : 0;
    return Mem(reinterpret_cast<uint8_t*>(t.HostPtr()), v.size_bytes / sizeof(T), need, room);
  }
  T Get(uint64_t k) const { return k < v_.size() ? v_[k] : T{}; }
  bool Known(uint64_t k) const { return k < v_.size() && ok_[k] != 0; }
  void Set(uint64_t k, T x, bool known) {
    if (k >= v_.size()) return;
    v_[k] = x;
    ok_[k] = known ? 1 : 0;
    written_ = std::max(written_, k + 1);
  }
  // dst = a op b (dst, a, b element indexes; a and b in `from`).
  void SetOp(uint64_t k, const Mem& from, uint64_t a, uint64_t b, Op op) {
    Set(k, Apply3510(op, from.Get(a), from.Get(b)), from.Known(a) && from.Known(b));
  }
  void Copy(uint64_t k, const Mem& from, uint64_t a) { Set(k, from.Get(a), from.Known(a)); }
  // Writes the known elements back into the operand and the UB after it.
  void Commit() const {
    for (uint64_t k = 0; k < Stored(); ++k) {
      if (ok_[k]) std::memcpy(base_ + k * sizeof(T), &v_[k], sizeof(T));
    }
  }
  uint64_t WrittenBytes() const { return Stored() * sizeof(T); }
  uint8_t* Base() const { return base_; }
  uint64_t Extent() const { return extent_; }
  uint64_t Room() const { return room_; }
  uint64_t Reach() const { return written_; }

 private:
  uint64_t Stored() const { return std::min(written_, extent_ + room_); }
  uint8_t* base_;
  uint64_t extent_;
  uint64_t room_;
  std::vector<T> v_;
  std::vector<uint8_t> ok_;
  uint64_t written_ = 0;
};

// Refuses the call when its stores reach past the UB's end (every mode: ub_bounds). Stores past
// the operand but inside the UB run in every mode, as on the device: the kit's host minimum is
// smaller than the 950's layout in the cases docs/ascendc_kernels.md names (Reduce, stores past an
// operand), its own samples size the scratch with it, and the device runs them.
template <typename T>
void CheckReach(const Mem<T>& m, const std::string& api, const char* operand) {
  const uint64_t reach = m.Reach(), extent = m.Extent();
  if (m.Base() == nullptr || reach <= extent) return;
  const uint64_t past = (reach - extent) * sizeof(T);
  if (reach > extent + m.Room()) {
    const uint64_t beyond = (reach - extent - m.Room()) * sizeof(T);
    RaiseKernelCheck(checks::kUbBounds,
                     api + ": the 950 would write " + std::to_string(past) + " bytes past " +
                         operand + ", " + std::to_string(beyond) + " of them beyond the UB's end");
  }
}

// FoldBy16's 16-item folds in memory: `count` items of `width` elements from w0 (item i at
// w0 + i * width); item r of each pass gets the fold of its 16 (16r + i, strided r + i * L).
// Returns the items left (1, 2, 4 or 8), which the caller reduces in registers.
template <typename T>
uint32_t Fold16Mem(Mem<T>& w, uint64_t w0, uint32_t count, uint32_t width, Op op, bool strided) {
  constexpr uint32_t kG = kFoldWays3510<T>;  // 8 for the 8-byte types' B64 functions
  const uint32_t folds = Log2(count);
  std::vector<T> group(kG * width);
  std::vector<uint8_t> known(width);
  for (uint32_t k = 0; k < folds / Log2(kG); ++k) {
    count /= kG;
    for (uint32_t r = 0; r < count; ++r) {
      std::fill(known.begin(), known.end(), 1);
      for (uint32_t i = 0; i < kG; ++i) {
        const uint64_t item = w0 + uint64_t{strided ? r + i * count : kG * r + i} * width;
        for (uint32_t c = 0; c < width; ++c) {
          group[i * width + c] = w.Get(item + c);
          known[c] = known[c] && w.Known(item + c);
        }
      }
      FoldRows3510(group.data(), kG, width, op);
      for (uint32_t c = 0; c < width; ++c) w.Set(w0 + uint64_t{r} * width + c, group[c], known[c]);
    }
  }
  return count;
}

// The items [w0, w0 + count * width) folded by halving (registers only; nothing stored).
template <typename T>
std::vector<T> Halve(const Mem<T>& w, uint64_t w0, uint32_t count, uint32_t width, Op op) {
  std::vector<T> v(uint64_t{count} * width);
  for (uint64_t k = 0; k < v.size(); ++k) v[k] = w.Get(w0 + k);
  FoldRows3510(v.data(), count, width, op);
  v.resize(width);
  return v;
}

// One AR row longer than a register: src row at s0; t0 the row's place in the scratch.
template <typename T>
T ArLongRowMem(Mem<T>& src, uint64_t s0, Mem<T>& tmp, uint64_t t0, uint32_t n, Op op, bool reuse,
               bool unaligned) {
  constexpr uint32_t kVl = kLanes3510<T>;
  const uint32_t m = MainPart(n, reuse || unaligned), tail = n - m;
  const bool in_src = reuse || unaligned;
  Mem<T>& w = in_src ? src : tmp;
  const uint64_t w0 = in_src ? s0 : t0;
  if (in_src) {
    for (uint32_t j = 0; j < tail; ++j) w.SetOp(w0 + j, src, s0 + j, s0 + m + j, op);
  } else {
    const uint32_t whole = tail / kVl * kVl;
    for (uint32_t j = 0; j < whole; ++j) w.SetOp(w0 + j, src, s0 + j, s0 + m + j, op);
    for (uint32_t j = whole; j < m; ++j) w.Copy(w0 + j, src, s0 + j);
    for (uint32_t j = 0; j < tail - whole; ++j) {
      w.Set(w0 + j, Apply3510(op, w.Get(w0 + j), src.Get(s0 + m + whole + j)),
            w.Known(w0 + j) && src.Known(s0 + m + whole + j));
    }
  }
  const uint32_t left = Fold16Mem(w, w0, m / kVl, kVl, op, unaligned || sizeof(T) == 8);
  const std::vector<T> v = Halve(w, w0, left, kVl, op);
  return RegReduce(op, v.data(), kVl);
}

// The concatenated RA form (A <= half a register or > 65535 columns, whole blocks), R > 2.
template <typename T>
void RaConcatMem(Mem<T>& src, Mem<T>& tmp, uint32_t rows, uint32_t cols, Op op, bool reuse,
                 T* out) {
  constexpr uint32_t kVl = kLanes3510<T>;
  uint32_t m = FloorPow2(rows);
  uint32_t halvings = Log2(m) - 1;
  if (!reuse && m == rows) {
    m /= 2;
    --halvings;
  }
  const uint64_t a = cols, tail = uint64_t{rows - m} * a, main = uint64_t{m} * a;
  Mem<T>& w = reuse ? src : tmp;
  for (uint64_t k = tail; k < main && !reuse; ++k) w.Copy(k, src, k);
  for (uint64_t k = 0; k < tail; ++k) w.SetOp(k, src, k, main + k, op);
  for (uint32_t h = 0; h < halvings; ++h) {
    m /= 2;
    const uint64_t f = uint64_t{m} * a;
    std::vector<T> lane(kVl);
    std::vector<uint8_t> known(kVl);
    for (uint64_t i = 0; i * kVl < f; ++i) {  // one register: both loads, then the store
      for (uint32_t l = 0; l < kVl; ++l) {
        const uint64_t k = i * kVl + l;
        lane[l] = Apply3510(op, w.Get(k), w.Get(f + k));
        known[l] = w.Known(k) && w.Known(f + k);
      }
      for (uint32_t l = 0; l < kVl; ++l) w.Set(i * kVl + l, lane[l], known[l]);
    }
  }
  for (uint32_t c = 0; c < cols; ++c) out[c] = Apply3510(op, w.Get(c), w.Get(a + c));
}

// RA over `rows` rows of `cols` (src row r at r * cols): out[c] for every column, src and the
// scratch left as the 950 leaves them.
template <typename T>
void RaColsMem(Mem<T>& src, Mem<T>& tmp, uint32_t rows, uint32_t cols, Op op, bool reuse, T* out) {
  constexpr uint32_t kBlk = 32 / sizeof(T), kVl = kLanes3510<T>;
  constexpr bool kB64 = sizeof(T) == 8;  // ReduceRAB64ReuseSource: every A, strided 8-row folds
  const bool unaligned = cols % kBlk != 0 && SplitsUnaligned(op);
  const bool concat = !kB64 && (cols <= kVl / 2 || cols > 65535);
  // One row copies; two rows are folded in registers (the aligned forms; the one of up to a
  // register of columns and the B64 one without isReuseSource go through the scratch's row 0).
  if (rows == 1 || (rows == 2 && !unaligned && (concat || (!reuse && cols > kVl && !kB64)))) {
    for (uint32_t c = 0; c < cols; ++c) {
      out[c] = rows == 1 ? src.Get(c) : Apply3510(op, src.Get(c), src.Get(uint64_t{cols} + c));
    }
    return;
  }
  if (concat && !unaligned) return RaConcatMem(src, tmp, rows, cols, op, reuse, out);
  const bool in_src = reuse || unaligned;
  const uint32_t m = MainPart(rows, in_src), tail = rows - m;
  const uint64_t a = cols;
  Mem<T>& w = in_src ? src : tmp;
  for (uint64_t k = uint64_t{tail} * a; k < uint64_t{m} * a && !in_src; ++k) w.Copy(k, src, k);
  for (uint64_t k = 0; k < uint64_t{tail} * a; ++k) w.SetOp(k, src, k, uint64_t{m} * a + k, op);
  const uint32_t left = Fold16Mem(w, 0, m, cols, op, unaligned || cols > kVl || kB64);
  const std::vector<T> v = Halve(w, 0, left, cols, op);
  std::copy(v.begin(), v.end(), out);
}

// The scratch elements (as T) the 950's fold addresses: AR first * m, RA m * last (+ a register
// for the concatenated form's whole-register halvings).
template <typename T>
uint64_t ScratchNeed(bool ar, bool reuse, uint32_t first, uint32_t last) {
  if (reuse) return 0;
  return ar ? uint64_t{first} * MainPart(last, false)
            : uint64_t{MainPart(first, false)} * last + kLanes3510<T>;
}

// Sum and Mean on the 950 (sum_3510_impl.h, mean_3510_impl.h ReduceSumNextN): rows of more than
// a register store each level of more than one sum in the scratch (as the accumulation type U),
// row r at r * offset, offset = ceil(inner / V) rounded up to 32 elements; the level after
// overwrites the one before from the row's start. Returns row r's sum; `Commit` the scratch after
// the rows.
template <typename U>
uint64_t SumLevelsOffset(uint32_t inner) {
  constexpr uint32_t kVl = kLanes3510<U>;
  return uint64_t{(inner + kVl - 1) / kVl + 31} / 32 * 32;
}
template <typename U>
U SumRowMem3510(const U* x, uint32_t n, Mem<U>& tmp, uint64_t t0) {
  return SumRow3510Levels(x, n, [&](uint32_t j, U v) { tmp.Set(t0 + j, v, true); });
}

}  // namespace lngrad::aicore::reduce_detail
