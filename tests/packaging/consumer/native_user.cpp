// Uses the installed native API: LayerNormGradBeta on a 2x8 problem with known sums.
#include <cstdio>
#include <vector>

#include "lngrad/lngrad.h"

// lngrad::lngrad puts only include/ on the include path, never the Ascend C include root.
#if __has_include("kernel_operator.h") || __has_include("lngrad_aicore/tensor.h")
#error "lngrad::lngrad must not put the Ascend C include root include/ascendc on the include path"
#endif
#ifdef LNGRAD_EXPECT_CXX17
static_assert(__cplusplus == 201703L, "native_user17 must be compiled as C++17");
#endif

int main() {
  const lngrad::RowShape shape{2, 8};
  std::vector<float> dy(16), res(16), dgamma(8), dbeta(8);
  for (int i = 0; i < 16; ++i) {
    dy[i] = static_cast<float>(i);
    res[i] = 2.0f;
  }
  lngrad::Status st =
      lngrad::LayerNormGradBeta(shape, dy.data(), res.data(), dgamma.data(), dbeta.data());
  if (!st.ok()) {
    std::fprintf(stderr, "%s\n", st.ToString().c_str());
    return 1;
  }
  for (int c = 0; c < 8; ++c) {
    const float want_beta = static_cast<float>(c + (c + 8));
    if (dbeta[c] != want_beta || dgamma[c] != 2.0f * want_beta) return 1;
  }
  std::puts("native_user: ok");
  return 0;
}
