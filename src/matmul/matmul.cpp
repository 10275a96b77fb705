// AscendC::Matmul's non-template parts: the tiling's checks and the block cursor.
#include <string>

#include "lngrad_aicore/launch.h"
#include "lngrad_matmul/matmul.h"

namespace lngrad::matmul {

void CheckShape(const Shape& s, const char* api) {
  const std::string shapes = "single " + std::to_string(s.single_m) + " x " +
                             std::to_string(s.single_n) + " x " + std::to_string(s.single_k) +
                             ", original M " + std::to_string(s.org_m) + ", N " +
                             std::to_string(s.org_n) + ", Ka " + std::to_string(s.org_ka) +
                             ", Kb " + std::to_string(s.org_kb);
  if (s.base_m == 0 || s.base_n == 0 || s.base_k == 0 || s.base_m > 4095 || s.base_n > 4095 ||
      s.base_k > 4095) {
    Fail(api, "the tiling's baseM, baseN and baseK must be in [1, 4095]");
  }
  if (s.single_m == 0 || s.single_n == 0 || s.single_k == 0) {
    Fail(api, "the single-core shape is empty (" + shapes + ")");
  }
  if (s.single_m > s.org_m || s.single_n > s.org_n || s.single_k > s.org_ka ||
      s.single_k > s.org_kb) {
    Fail(api, "the single-core shape exceeds the original shape (" + shapes + ")");
  }
}

bool UbRowsAligned() { return IsRegBaseArch(aicore::CurrentBlockProduct().arch); }

// The 950's Fixpipe to UB in its dual-destination split-M mode: the block's rows rounded up to
// even, the first half to AIV 0 and the second to AIV 1 (the odd block's last padding row not
// written).
RowShare SplitMShare(uint32_t m) {
  if (!UbRowsAligned() || AscendC::GetTaskRation() != 2) return {0, m};
  const uint32_t half = (m + 1) / 2;
  return AscendC::GetSubBlockIdx() == 0 ? RowShare{0, half} : RowShare{half, m - half};
}

bool SecondAivOf950() {
  return UbRowsAligned() && AscendC::GetTaskRation() == 2 && AscendC::GetSubBlockIdx() == 1;
}

bool Cursor::Next(const Shape& s) {
  m_iter = CeilDiv(s.single_m, s.base_m);
  n_iter = CeilDiv(s.single_n, s.base_n);
  index = started ? index + 1 : 0;
  if (index >= m_iter * n_iter) {
    started = false;  // the next Iterate starts over
    return false;
  }
  started = true;
  const bool n_first = s.iterate_order == 1;
  mi = n_first ? index / n_iter : index % m_iter;
  ni = n_first ? index % n_iter : index / m_iter;
  return true;
}

}  // namespace lngrad::matmul
