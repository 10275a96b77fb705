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

BatchStep BatchStepOf(LayoutMode layout, const int32_t (&axes)[5], uint64_t elems,
                      uint32_t user_stride) {
  const uint64_t b = axes[0], s = axes[1], n = axes[2], g = axes[3], d = axes[4];
  const bool known = b > 0 && s > 0 && n > 0 && g > 0 && d > 0;
  if (layout != LayoutMode::NONE && layout != LayoutMode::NORMAL && !known)
    Fail("IterateBatch",
         "a BSNGD, SBNGD or BNGS1S2 layout needs its axes (SetALayout, "
         "SetBLayout, SetCLayout on the host)");
  switch (layout) {
    case LayoutMode::BSNGD:
      return {d, n * g * d, n * g, s * n * g * d};
    case LayoutMode::SBNGD:
      return {d, b * n * g * d, n * g, n * g * d};
    case LayoutMode::BNGS1S2:
      return {user_stride != 0 ? user_stride : s * d, d, 0, 0};
    default:
      return {user_stride != 0 ? user_stride : elems, 0, 0, 0};
  }
}

uint32_t BatchSource(uint32_t c, uint32_t batch_c, uint32_t batch, const char* api) {
  if (batch == 0 || batch_c % batch != 0)
    Fail(api, "batchA and batchB must be at least 1 and divide the larger of them (" +
                  std::to_string(batch) + " into " + std::to_string(batch_c) + ")");
  return c / (batch_c / batch);
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
