// The torch operators' large outputs (issue 31): blocks of at least kMinCachedBytes come from a
// cache of the blocks earlier outputs freed, so that a training loop does not page-fault its
// outputs in again at every step (glibc hands such blocks back to the kernel and maps fresh,
// zeroed pages for the next). Smaller outputs come from torch's CPU allocator.
#pragma once

#include <ATen/ATen.h>

#include <cstdint>
#include <vector>

namespace lngrad::torch_ops {

inline constexpr int64_t kMinCachedBytes = int64_t{1} << 20;

// An uninitialised CPU tensor of these sizes and options (contiguous), as at::empty gives.
at::Tensor EmptyOutput(at::IntArrayRef sizes, const at::TensorOptions& options);

// {bytes held for reuse, the limit, outputs served from the cache, outputs newly allocated}.
std::vector<int64_t> CacheInfo();

// Gives every held block back to the system.
void EmptyCache();

}  // namespace lngrad::torch_ops
