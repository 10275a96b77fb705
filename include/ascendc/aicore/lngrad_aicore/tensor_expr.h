// lngrad Ascend C runtime: the whole-tensor operator forms of the binary vector instructions,
// `dst = src0 + src1` (and -, *, /, &, |): the same instruction as Add(dst, src0, src1,
// dst.GetSize()) and its neighbours, with their types and checks. src0 OP src1 makes a
// BinaryExpr, which LocalTensor's operator= runs on the destination (docs/ascendc_compat.md).
#pragma once

#include "lngrad_aicore/logic_ops.h"
#include "lngrad_aicore/tensor.h"
#include "lngrad_aicore/vector_ops.h"

namespace AscendC {
namespace lngrad_expr {

// src0 OP src1 of LocalTensor<T>, run by LocalTensor<T>::operator= with Run(dst, src0, src1).
template <typename T, class Run>
struct BinaryExpr {
  const LocalTensor<T>& src0;
  const LocalTensor<T>& src1;
  void AssignTo(const LocalTensor<T>& dst) const { Run{}(dst, src0, src1); }
};

#define LNGRAD_TENSOR_OPERATOR(op, Instr)                                                   \
  struct Instr##Run {                                                                       \
    template <typename T>                                                                   \
    void operator()(const LocalTensor<T>& d, const LocalTensor<T>& a,                       \
                    const LocalTensor<T>& b) const {                                        \
      Instr(d, a, b, static_cast<int32_t>(d.GetSize()));                                    \
    }                                                                                       \
  };                                                                                        \
  template <typename T>                                                                     \
  BinaryExpr<T, Instr##Run> operator op(const LocalTensor<T>& a, const LocalTensor<T>& b) { \
    return {a, b};                                                                          \
  }
LNGRAD_TENSOR_OPERATOR(+, Add)
LNGRAD_TENSOR_OPERATOR(-, Sub)
LNGRAD_TENSOR_OPERATOR(*, Mul)
LNGRAD_TENSOR_OPERATOR(/, Div)
LNGRAD_TENSOR_OPERATOR(&, And)
LNGRAD_TENSOR_OPERATOR(|, Or)
#undef LNGRAD_TENSOR_OPERATOR

}  // namespace lngrad_expr
using lngrad_expr::operator+;
using lngrad_expr::operator-;
using lngrad_expr::operator*;
using lngrad_expr::operator/;
using lngrad_expr::operator&;
using lngrad_expr::operator|;
}  // namespace AscendC
