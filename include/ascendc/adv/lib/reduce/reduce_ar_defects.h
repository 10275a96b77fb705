// lngrad: the AR shapes whose result the 2201 sequences of the vendor's reduce APIs get wrong on
// the device, and the checked-mode refusal of them (checks::kReduceDeviceDefect).
//
// lngrad follows those sequences bit for bit (reduce_ar_2201.h, reduce_ar_mean_half_2201.h), so
// unchecked mode gives the device's numbers there. But for the shapes below the device's numbers
// are not the reduction the API documents: rows get no result, another row's data or only part
// of their own. The device does this silently; checked mode says so before the call writes
// anything, naming the instruction sequence and a shape that avoids it:
// - ReduceSum/ReduceMean on float and ReduceMean on half with rows of at most 8 elements and
//   4080 rows or more: BlkReduceForLoop runs every whole 2040-row call at offset 0, so rows
//   2040 .. calls * 2040 - 1 get no result. (uint8_t ReduceAny/ReduceAll end with the same loop,
//   but 4080 rows of at least 32 bytes and their scratch of 32 bytes a row do not fit the UB.)
// - ReduceAny/ReduceAll on uint8_t with rows of 17 to 31 bytes: no fold below 32 bytes, and the
//   block reduction takes 16 lanes, so only each row's first 16 bytes count.
// - ReduceSum/ReduceMean on float with isReuseSource, rows longer than 64 and more than 248 rows:
//   ReduceSumInLargeLast's work rows for group g start at 248 * g * 64 floats into src while its
//   source rows start at 248 * g * padLast, so groups past the first sum other rows' data.
// - ReduceSum/ReduceMean on float with padLast = 2048 (rows of 2041 to 2048) whose tail adds run
//   as repeats over a group's rows: the repeat stride padLast / 8 = 256 blocks is stored in a
//   uint8_t, i.e. 0, so every row adds row 0's tail.
// - ReduceMean on half with rows longer than 64: ReduceSumCommon's steps keep the float
//   constants (8 elements a block, 64 a repeat), so work row r holds src row 2r's data and only
//   a group's first ceil(rows / 2) sums are written.
#pragma once

#include <cstdint>
#include <string>
#include <type_traits>

#include "lib/reduce/reduce_ar_2201.h"
#include "lib/reduce/reduce_model.h"

namespace lngrad::aicore::checks {
// A reduce API shape whose 2201 instruction sequence gives another result than the reduction
// (the device computes it wrongly and silently; unchecked mode follows the device).
inline constexpr const char* kReduceDeviceDefect = "reduce_device_defect";
}  // namespace lngrad::aicore::checks

namespace lngrad::aicore::reduce_detail {

inline constexpr uint32_t kBlkReduceCallRows = 255 * 8;  // rows of one BlkReduceForLoop call

// Why the 2201 AR sequence of `op` on T gets rows x last wrong on the device; empty when it
// does not.
template <typename T>
std::string ArDeviceDefect(Op op, bool reuse, uint32_t first, uint32_t last) {
  constexpr bool f = std::is_same_v<T, float>, h = std::is_same_v<T, half>;
  constexpr bool u8 = std::is_same_v<T, uint8_t>;
  const bool sum = op == Op::kSum || op == Op::kMean;
  if (sum && (f || h) && last <= 8 && first >= 2 * kBlkReduceCallRows) {
    return "with " + std::to_string(first) +
           " rows BlkReduceForLoop runs every whole 2040-row call at offset 0, so rows 2040 to " +
           std::to_string(first / kBlkReduceCallRows * kBlkReduceCallRows - 1) +
           " get no result; call it with at most 4079 rows at a time";
  }
  if (u8 && (op == Op::kAny || op == Op::kAll) && last > 16 && last < 32) {
    return "rows of " + std::to_string(last) +
           " bytes count only their first 16 (no fold below 32 bytes, 16-lane block "
           "reduction); pad the rows to 32 bytes with the neutral value";
  }
  if (sum && h && last > 64) {
    return "on half, rows longer than 64 run ReduceSumCommon's float-sized steps: work row r "
           "holds src row 2r and only half the sums are written; use float for rows of " +
           std::to_string(last);
  }
  if (!sum || !f || last <= 64) return {};
  const ArSumPlan q = PlanArSum(first, last);
  if (reuse && first > kArSumGroup) {
    return "with isReuseSource and more than 248 rows of more than 64 floats, "
           "ReduceSumInLargeLast's work rows of row group g start at 248 * g * 64 floats into src, "
           "so groups past the first sum other rows' data; call it with at most 248 rows, or "
           "without isReuseSource";
  }
  const uint32_t len = q.tail == 0 ? q.pad - q.p : q.tail;
  const uint32_t rows = first < kArSumGroup ? first : kArSumGroup;
  const bool repeats = (len + 63) / 64 < rows && q.p / 8 <= 255;
  if (repeats && q.pad / 8 > 255) {
    return "rows padded to " + std::to_string(q.pad) +
           " floats add their tails as repeats whose stride (padLast / 8 blocks) is a uint8_t, "
           "0 here: every row adds row 0's tail; call it with at most " +
           std::to_string((len + 63) / 64) + " rows at a time";
  }
  return {};
}

// Checked mode on 2201: refuses an AR shape ArDeviceDefect names.
template <typename T>
void CheckArDeviceDefect(Op op, bool reuse, uint32_t first, uint32_t last) {
  const std::string why = ArDeviceDefect<T>(op, reuse, first, last);
  if (why.empty()) return;
  RaiseKernelCheck(checks::kReduceDeviceDefect,
                   std::string(Name(op)) + ": srcShape {" + std::to_string(first) + ", " +
                       std::to_string(last) + "} is computed wrongly by the device's AR sequence " +
                       "on arch 2201: " + why + " (unchecked mode gives the device's numbers)");
}

}  // namespace lngrad::aicore::reduce_detail
