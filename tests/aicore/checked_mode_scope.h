// Test helper: sets the runtime's checked mode for a scope and restores the previous mode.
#pragma once

#include "lngrad_aicore/check.h"

namespace lngrad::aicore::test {

class CheckedModeScope {
 public:
  explicit CheckedModeScope(bool on) : previous_(CheckedMode()) { SetCheckedMode(on); }
  ~CheckedModeScope() { SetCheckedMode(previous_); }
  CheckedModeScope(const CheckedModeScope&) = delete;
  CheckedModeScope& operator=(const CheckedModeScope&) = delete;

 private:
  bool previous_;
};

}  // namespace lngrad::aicore::test
