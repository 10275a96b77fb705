// Beside hand_op.asc, included after kernel_operator.h: a __ubuf__ array declared in a header is
// block UB as one in the .asc is (the driver rewrites this header's copy with the .asc).
#pragma once
#include <cstddef>

inline bool HandUbArrayIsBlockUb() {
  __ubuf__ int32_t tile[8];
  const lngrad::aicore::BlockContext* ctx = lngrad::aicore::CurrentBlockContext();
  const auto* at = reinterpret_cast<const std::byte*>(tile);
  return ctx != nullptr && at >= ctx->ub && at < ctx->ub + ctx->ub_size;
}
