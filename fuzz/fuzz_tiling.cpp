// libFuzzer target: the host tiling functions with any shape, type size, buffer size, reuse flag
// and product. Invariants checked (a violation aborts, which libFuzzer reports):
//  - the call returns (no crash, no UB, no unbounded allocation);
//  - on error the outputs are left exactly as they were (docs/ascendc_compat.md "Host tiling");
//  - on success the Status and the official API agree, min <= max, and a tiling built for the
//    reported minimum buffer succeeds and keeps its chunk inside the problem.
#include <fuzzer/FuzzedDataProvider.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <span>
#include <vector>

#include "lngrad/product.h"
#include "tiling/tiling_api.h"

namespace {

void Fail(const char* what) {
  std::fprintf(stderr, "fuzz_tiling invariant broken: %s\n", what);
  std::abort();
}

template <typename T>
void FillPattern(T* t) {
  std::memset(static_cast<void*>(t), 0xA5, sizeof(T));
}

template <typename T>
bool IsPattern(const T& t) {
  T ref;
  FillPattern(&ref);
  return std::memcmp(&ref, &t, sizeof(T)) == 0;
}

// Runs our tiling function `ours` on a patterned `tiling`, which it must leave untouched on error,
// then the official API `official`, which must agree on success or failure.
template <typename Tiling, typename Ours, typename Official>
lngrad::Status CheckTilingInfo(const char* wrote_on_error, Tiling& tiling, const Ours& ours,
                               const Official& official) {
  FillPattern(&tiling);
  const lngrad::Status t = ours(tiling);
  if (!t.ok() && !IsPattern(tiling)) Fail(wrote_on_error);
  official();
  if (lngrad::tiling::LastTilingStatus().ok() != t.ok()) Fail("official API disagrees");
  return t;
}

int64_t PickDim(FuzzedDataProvider& p) {
  switch (p.ConsumeIntegralInRange<int>(0, 5)) {
    case 0:
      return p.ConsumeIntegralInRange<int64_t>(1, 64);
    case 1:
      return p.ConsumeIntegralInRange<int64_t>(1, 4096);
    case 2:
      return p.ConsumeIntegral<int64_t>();  // negative, zero, huge
    case 3:
      return int64_t{1} << p.ConsumeIntegralInRange<int>(0, 40);
    case 4:
      return p.PickValueInArray<int64_t>({0, -1, -2, 65535, 65536, 4294967295LL});
    default:
      return p.ConsumeIntegralInRange<int64_t>(1, 1 << 20);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  FuzzedDataProvider p(data, size);
  const auto products = lngrad::AllProducts();
  const auto& product = products[p.ConsumeIntegralInRange<size_t>(0, products.size() - 1)];
  if (!lngrad::SetCurrentSoc(product.soc).ok()) Fail("SetCurrentSoc of a listed product");

  std::vector<int64_t> dims(p.ConsumeIntegralInRange<size_t>(0, 6));
  for (auto& d : dims) d = PickDim(p);
  // Make well-formed 4-dim shapes likely, so that the success paths are explored too.
  if (dims.size() == 4 && p.ConsumeBool()) dims[3] = dims[2];
  const ge::Shape shape(dims);
  const uint32_t type_size =
      p.ConsumeBool() ? p.PickValueInArray<uint32_t>({2, 4}) : p.ConsumeIntegral<uint32_t>();
  const bool reuse = p.ConsumeBool();
  uint32_t stack = p.ConsumeIntegral<uint32_t>();
  const int which = p.ConsumeIntegralInRange<int>(0, 2);
  const bool stack_from_min = p.ConsumeBool();

  uint32_t max_v = 0xDEADBEEF, min_v = 0xFEEDFACE;
  lngrad::Status s;
  if (which == 0) {
    s = lngrad::tiling::LayerNormGradMaxMinTmpSize(shape, type_size, reuse, max_v, min_v);
  } else if (which == 1) {
    s = lngrad::tiling::LayerNormGradBetaMaxMinTmpSize(shape, type_size, reuse, max_v, min_v);
  } else {
    s = lngrad::tiling::LayerNormMaxMinTmpSize(shape, type_size, reuse, max_v, min_v);
  }
  if (!s.ok()) {
    if (max_v != 0xDEADBEEF || min_v != 0xFEEDFACE) Fail("MaxMinTmpSize wrote outputs on error");
    if (s.message().empty()) Fail("error without a message");
  } else {
    if (min_v > max_v) Fail("min > max");
    if (stack_from_min) stack = min_v;
  }

  // The tiling functions on their own (any buffer size), checked for untouched outputs.
  lngrad::Status t;
  if (which == 0) {
    AscendC::tiling::LayerNormGradTiling tiling;
    t = CheckTilingInfo(
        "LayerNormGradNDTilingInfo wrote on error", tiling,
        [&](auto& out) {
          return lngrad::tiling::LayerNormGradNDTilingInfo(shape, stack, type_size, reuse, out);
        },
        [&] {
          optiling::LayerNormGradTiling host;
          AscendC::GetLayerNormGradNDTilingInfo(shape, stack, type_size, reuse, host);
        });
    if (t.ok()) {
      if (tiling.oneCalSize == 0) Fail("oneCalSize 0");
      // The kernel walks loopNum chunks of oneCalSize plus a tail; together they cover B*S*H.
      const uint64_t bsh = uint64_t{tiling.bLength} * tiling.sLength * tiling.hLength;
      if (uint64_t{tiling.loopNum} * tiling.oneCalSize + tiling.tailSize != bsh)
        Fail("LayerNormGrad chunks do not cover B*S*H");
      (void)lngrad::tiling::LayerNormGradScratchFloats(tiling, type_size, reuse);
    }
  } else if (which == 1) {
    AscendC::tiling::LayerNormGradBetaTiling tiling;
    t = CheckTilingInfo(
        "LayerNormGradBetaNDTilingInfo wrote on error", tiling,
        [&](auto& out) {
          return lngrad::tiling::LayerNormGradBetaNDTilingInfo(shape, stack, type_size, reuse, out);
        },
        [&] {
          AscendC::tiling::LayerNormGradBetaTiling plain;
          AscendC::GetLayerNormGradBetaNDTilingInfo(shape, stack, type_size, reuse, plain);
        });
  } else {
    AscendC::tiling::LayerNormTiling tiling;
    t = CheckTilingInfo(
        "LayerNormNDTilingInfo wrote on error", tiling,
        [&](auto& out) {
          return lngrad::tiling::LayerNormNDTilingInfo(shape, stack, type_size, reuse, out);
        },
        [&] {
          AscendC::tiling::LayerNormTiling plain;
          AscendC::GetLayerNormNDTilingInfo(shape, stack, type_size, reuse, plain);
        });
    // The [A, R] overload as well.
    uint32_t a = 7, b = 9;
    const bool rstd = p.ConsumeBool(), only = p.ConsumeBool();
    const lngrad::Status r =
        lngrad::tiling::LayerNormMaxMinTmpSize(shape, type_size, reuse, rstd, only, a, b);
    if (!r.ok() && (a != 7 || b != 9)) Fail("LayerNormMaxMinTmpSize (A,R) wrote on error");
  }
  return 0;
}
