// Shared checks and reporting for the host tiling functions (internal to lngrad_tiling).
#pragma once

#include <cstdint>
#include <string>

#include "graph/tensor.h"
#include "lngrad/product.h"
#include "lngrad/status.h"

namespace lngrad::tiling::internal {

// {B, S, storageH, originH} of a validated 4-dim shape, with the products the formulas use.
struct Bsh {
  uint32_t b = 0;
  uint32_t s = 0;
  uint32_t h = 0;
  uint32_t orig_h = 0;
  uint32_t bs = 0;
  uint32_t bsh = 0;
};

// The order in which the toolkit's common check tests its arguments.
enum class CheckOrder {
  kTypeSizeFirst,  // LayerNormGrad, LayerNormGradBeta: typeSize, shape size, dim count
  kTypeSizeLast,   // LayerNorm: shape size, dim count, typeSize
};

// "[api][func] " - the prefix of every message, as the toolkit's logs have it.
std::string Prefix(const char* api, const char* func);

// Unsupported when the current product does not run `api` (spec §7.1).
Status CheckProductSupports(const char* api, const char* func, bool supported);

// The toolkit's common checks (type size 2 or 4, shape size > 0, exactly 4 dims, in `order`),
// then ours: every dim > 0 and < 2^32, B*S*H < 2^32.
Status CheckBshShape(const char* api, const char* func, const ge::Shape& shape, uint32_t typeSize,
                     CheckOrder order, Bsh* out);

// OutOfRange naming `what` when value does not fit in uint32; else stores it.
Status FitU32(const char* api, const char* func, const char* what, uint64_t value, uint32_t* out);

// Records the outcome for LastTilingStatus() and prints a failure's message on stderr.
void Report(const Status& status);

constexpr uint64_t CeilTo(uint64_t v, uint64_t m) { return (v + m - 1) / m * m; }

}  // namespace lngrad::tiling::internal
