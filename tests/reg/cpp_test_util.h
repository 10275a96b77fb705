// Tests of layer reg: what the C++-flavour tests share (registers from vectors, lanes back,
// bit comparison of registers).
#pragma once

#include <cstring>
#include <vector>

#include "basic_api/reg_compute/kernel_reg_compute_intf.h"
#include "capi_test_util.h"

namespace lngrad::reg::testing {

template <typename T>
AscendC::Reg::RegTensor<T> Tensor(const std::vector<T>& v) {
  AscendC::Reg::RegTensor<T> r;
  std::memcpy(r.lane, v.data(), sizeof(r.lane));
  return r;
}
template <typename T>
std::vector<T> Lanes(const VecReg<T>& r) {
  return std::vector<T>(r.lane, r.lane + kN<T>);
}
template <typename T>
bool SameRegs(const VecReg<T>& a, const VecReg<T>& b) {
  return std::memcmp(a.lane, b.lane, sizeof(a.lane)) == 0;
}

}  // namespace lngrad::reg::testing
