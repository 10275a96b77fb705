// What the SoftMax family's defect tests (softmax_defect_test.cpp, softmax_simple_defect_test.cpp)
// record of one call: the check and message of a refusal (checked mode) and whether the operands
// kept their bytes (a refused call writes nothing).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "kernel_operator.h"

namespace softmax_defect_test {

struct Outcome {
  std::string check, msg;
  bool kept = false;  // src, dst, the statistics and the work buffer as they were
};

// Runs call, catching a kernel check into r; r.kept: snapshot() unchanged by the call.
template <class Snapshot, class Call>
void RecordCall(Outcome& r, const Snapshot& snapshot, const Call& call) {
  const std::vector<uint8_t> before = snapshot();
  try {
    call();
  } catch (const lngrad::aicore::KernelCheckError& e) {
    lngrad::aicore::DismissKernelCheck(e);
    r.check = e.check();
    r.msg = e.message();
  }
  r.kept = snapshot() == before;
}

}  // namespace softmax_defect_test
