// lngrad register API: the whole-register kernels the engines' fast paths call (src/reg/simd.cpp:
// Highway, compiled once per SIMD target and chosen at run time). A kernel's code is compiled
// by its user for the baseline instruction set; a register is 256 bytes, so the copies between
// UB and a register and the float arithmetic on every lane run here, on the widest vectors the
// machine has, through a table of function pointers chosen once (no dispatch per instruction).
// Each entry gives the bits of the plain C++ loop it replaces (copies; IEEE +, -, *, /, sqrt;
// the sum's tree adds the same pairs in the same order; exp and ln: RoundedFromDouble in
// simd.cpp).
#pragma once

#include <cstdint>

namespace lngrad::reg::detail {

using CopyVlFn = void (*)(void* dst, const void* src);                    // VL = 256 bytes
using BinaryVlFn = void (*)(float* dst, const float* a, const float* b);  // 64 lanes
using UnaryVlFn = void (*)(float* dst, const float* a);                   // 64 lanes
using SumVlFn = float (*)(const float* a);  // the adjacent-pair tree of 64 lanes (Reduce's)

// The float operations with a kernel, in the table's order: X(name) for the element function
// ops::name, the kernel name##Vl (simd.cpp) and its index VlBinary::k##name / VlUnary::k##name.
#define LNGRAD_REG_VL_BINARY_OPS(X) X(Add) X(Sub) X(Mul) X(Div)
#define LNGRAD_REG_VL_UNARY_OPS(X) X(Sqrt) X(Exp) X(Ln)
#define LNGRAD_REG_VL_INDEX(name) k##name,
enum class VlBinary : int { LNGRAD_REG_VL_BINARY_OPS(LNGRAD_REG_VL_INDEX) kCount };
enum class VlUnary : int { LNGRAD_REG_VL_UNARY_OPS(LNGRAD_REG_VL_INDEX) kCount };
#undef LNGRAD_REG_VL_INDEX

struct SimdTable {
  CopyVlFn copy;
  BinaryVlFn binary[static_cast<int>(VlBinary::kCount)];
  UnaryVlFn unary[static_cast<int>(VlUnary::kCount)];
  SumVlFn sum;
};
// The machine's best target's kernels (chosen while the program starts; the baseline target's
// before that).
extern constinit SimdTable g_simd;
// Tests: the Highway targets simd.cpp was compiled for (bits of HWY_TARGETS), and g_simd pointed
// at the target Highway chooses now (after hwy::SetSupportedTargetsForTest).
int64_t SimdTargets();
void ChooseSimdForTest();

}  // namespace lngrad::reg::detail
