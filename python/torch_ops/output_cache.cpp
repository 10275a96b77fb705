// The cache behind EmptyOutput (output_cache.h). A freed output block is kept (most recent first)
// while the blocks kept stay within the limit (LNGRAD_TORCH_CACHE_MB, default 1024; 0 keeps
// none), the oldest given back first; a request takes the smallest kept block that holds it
// with at most a quarter to spare, so that shapes that vary do not pin blocks much larger than
// they use. Blocks of 4 MiB and more are 2 MiB-aligned and advised for transparent huge pages,
// as NumPy does for its large arrays, so that a new block faults in a few pages, not thousands.
#include "output_cache.h"

#include <ATen/EmptyTensor.h>
#include <c10/core/Allocator.h>
#include <c10/core/CPUAllocator.h>
#include <sys/mman.h>

#include <cstdlib>
#include <cstring>
#include <list>
#include <mutex>
#include <string>
#include <type_traits>

namespace lngrad::torch_ops {
namespace {

constexpr size_t kHugePage = size_t{2} << 20;

struct Block {
  void* data;
  size_t bytes;
};

class Cache {
 public:
  Cache() : limit_(LimitFromEnvironment()) {}

  // A block of at least `bytes`, kept or new (nullptr when the system has none).
  Block Take(size_t bytes) {
    {
      std::lock_guard<std::mutex> lock(mu_);
      auto best = kept_.end();
      for (auto it = kept_.begin(); it != kept_.end(); ++it) {
        if (it->bytes >= bytes && it->bytes - bytes <= bytes / 4 &&
            (best == kept_.end() || it->bytes < best->bytes)) {
          best = it;
        }
      }
      if (best != kept_.end()) {
        const Block b = *best;
        kept_bytes_ -= b.bytes;
        kept_.erase(best);
        ++hits_;
        return b;
      }
      ++misses_;
    }
    return NewBlock(bytes);
  }

  // Keeps b for reuse, giving back the oldest blocks (or b) past the limit.
  void Give(Block b) {
    std::list<Block> out;
    {
      std::lock_guard<std::mutex> lock(mu_);
      if (b.bytes > limit_) {
        out.push_back(b);
      } else {
        kept_.push_front(b);
        kept_bytes_ += b.bytes;
        while (kept_bytes_ > limit_) {
          kept_bytes_ -= kept_.back().bytes;
          out.splice(out.end(), kept_, std::prev(kept_.end()));
        }
      }
    }
    for (const Block& x : out) std::free(x.data);
  }

  void Clear() {
    std::list<Block> out;
    {
      std::lock_guard<std::mutex> lock(mu_);
      out.swap(kept_);
      kept_bytes_ = 0;
    }
    for (const Block& x : out) std::free(x.data);
  }

  std::vector<int64_t> Info() {
    std::lock_guard<std::mutex> lock(mu_);
    return {static_cast<int64_t>(kept_bytes_), static_cast<int64_t>(limit_), hits_, misses_};
  }

 private:
  static size_t LimitFromEnvironment() {
    const char* env = std::getenv("LNGRAD_TORCH_CACHE_MB");
    if (env == nullptr || *env == '\0') return size_t{1024} << 20;
    char* end = nullptr;
    const long long mb = std::strtoll(env, &end, 10);
    TORCH_CHECK_VALUE(*end == '\0' && mb >= 0 && mb <= (int64_t{1} << 30),
                      "LNGRAD_TORCH_CACHE_MB must be a whole number of MiB >= 0, got '", env, "'");
    return static_cast<size_t>(mb) << 20;
  }

  static Block NewBlock(size_t bytes) {
    const size_t align = bytes >= 2 * kHugePage ? kHugePage : size_t{64};
    void* p = nullptr;
    if (posix_memalign(&p, align, bytes) != 0) return {nullptr, bytes};
    if (align == kHugePage) madvise(p, bytes & ~(kHugePage - 1), MADV_HUGEPAGE);  // a hint
    return {p, bytes};
  }

  std::mutex mu_;
  std::list<Block> kept_;  // most recently freed first
  size_t kept_bytes_ = 0;
  const size_t limit_;
  int64_t hits_ = 0, misses_ = 0;
};

// Never destroyed: outputs may be freed after static destructors, at interpreter shutdown.
Cache& TheCache() {
  static Cache* cache = new Cache;
  return *cache;
}

void Release(void* ctx) {
  auto* b = static_cast<Block*>(ctx);
  TheCache().Give(*b);
  delete b;
}

c10::DataPtr Allocate(size_t bytes) {
  if (bytes < static_cast<size_t>(kMinCachedBytes)) return c10::GetCPUAllocator()->allocate(bytes);
  const Block b = TheCache().Take(bytes);
  TORCH_CHECK(b.data != nullptr, "lngrad.torch: out of memory allocating ", bytes, " bytes");
  return {b.data, new Block(b), &Release, c10::Device(c10::DeviceType::CPU)};
}

// torch's Allocator interface changed: allocate became non-const and copy_data was added (torch
// 2.3). The allocator implements whichever its torch declares.
constexpr bool kConstAllocate = std::is_same_v<decltype(&c10::Allocator::allocate),
                                               c10::DataPtr (c10::Allocator::*)(size_t) const>;
template <class A>
constexpr bool kHasCopyData = requires(const A& a, void* d, const void* s) {
  a.copy_data(d, s, size_t{0});
};

template <class Base>
struct WithCopyData : Base {
  void copy_data(void* dest, const void* src, std::size_t count) const override {
    std::memcpy(dest, src, count);
  }
};
using AllocatorBase =
    std::conditional_t<kHasCopyData<c10::Allocator>, WithCopyData<c10::Allocator>, c10::Allocator>;

template <bool kConst, class Base>
struct CachingAllocator;
template <class Base>
struct CachingAllocator<true, Base> : Base {
  c10::DataPtr allocate(size_t bytes) const override { return Allocate(bytes); }
};
template <class Base>
struct CachingAllocator<false, Base> : Base {
  c10::DataPtr allocate(size_t bytes) override { return Allocate(bytes); }
};

}  // namespace

at::Tensor EmptyOutput(at::IntArrayRef sizes, const at::TensorOptions& options) {
  static auto* allocator = new CachingAllocator<kConstAllocate, AllocatorBase>;  // as TheCache
  return at::Tensor(at::detail::empty_generic(sizes, allocator,
                                              c10::DispatchKeySet(c10::DispatchKey::CPU),
                                              c10::typeMetaToScalarType(options.dtype()), {}));
}

std::vector<int64_t> CacheInfo() { return TheCache().Info(); }

void EmptyCache() { TheCache().Clear(); }

}  // namespace lngrad::torch_ops
