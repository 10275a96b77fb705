// lngrad AI core runtime (internal): the pooled host memory behind the simulated UBs, and what
// checked mode zeroes of it between blocks.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <new>
#include <vector>

#include "lngrad/product.h"

namespace lngrad::aicore::detail {

// The host memory behind one simulated UB; reused for the blocks a worker runs and, through
// UbPool, across launches (a fresh 200+ KiB allocation per worker and launch costs an mmap, page
// faults and an munmap every time).
struct UbMemory {
  // Zeroed once: a worker's first block sees zeros in unchecked mode too (RunOneBlock).
  explicit UbMemory(uint32_t bytes) : size(bytes) {
    data = static_cast<std::byte*>(std::aligned_alloc(64, bytes));
    if (data == nullptr) throw std::bad_alloc();
    std::memset(data, 0, bytes);
  }
  ~UbMemory() { std::free(data); }
  UbMemory(const UbMemory&) = delete;
  UbMemory& operator=(const UbMemory&) = delete;
  std::byte* data;
  uint32_t size;
  // Bytes [0, dirty) may be nonzero: what the blocks run on it since it was last zeroed may have
  // written (the whole UB after an unchecked block); zero from here up.
  uint32_t dirty = 0;
};

// Free UB memories, any size; a launch takes one at least as large as it needs (the block sees
// only `size` bytes of it: BlockContext::ub_size). Bounded so that a burst of concurrent
// launches does not pin memory for good.
class UbPool {
 public:
  static constexpr size_t kMaxFree = 16;
  // A free memory of at least `bytes`, a clean one (nothing to zero) first; a new one if none.
  std::unique_ptr<UbMemory> Take(uint32_t bytes) {
    if (std::unique_ptr<UbMemory> m = TakeFree(bytes, true)) return m;
    if (std::unique_ptr<UbMemory> m = TakeFree(bytes, false)) return m;
    return std::make_unique<UbMemory>(bytes);
  }
  // A free clean memory of at least `bytes`, or null.
  std::unique_ptr<UbMemory> TakeClean(uint32_t bytes) { return TakeFree(bytes, true); }
  // Zeroes the free memories that blocks left dirty, one at a time outside the lock (an idle
  // helper thread's work between launches, off the calling thread's path).
  void ZeroDirty() {
    for (size_t i = 0; i < kMaxFree; ++i) {
      std::unique_ptr<UbMemory> m;
      {
        std::lock_guard lock(mu_);
        auto it = std::find_if(free_.begin(), free_.end(), [](const auto& f) { return f->dirty; });
        if (it == free_.end()) return;
        m = std::move(*it);
        free_.erase(it);
      }
      std::memset(m->data, 0, m->dirty);
      m->dirty = 0;
      Give(std::move(m));
    }
  }
  void Give(std::unique_ptr<UbMemory> m) {
    std::lock_guard lock(mu_);
    if (free_.size() < kMaxFree) free_.push_back(std::move(m));
  }

 private:
  std::unique_ptr<UbMemory> TakeFree(uint32_t bytes, bool clean) {
    std::lock_guard lock(mu_);
    for (auto it = free_.begin(); it != free_.end(); ++it) {
      if ((*it)->size >= bytes && (!clean || (*it)->dirty == 0)) {
        std::unique_ptr<UbMemory> m = std::move(*it);
        free_.erase(it);
        return m;
      }
    }
    return nullptr;
  }

  std::mutex mu_;
  std::vector<std::unique_ptr<UbMemory>> free_;
};

UbPool& Ubs();

// A pooled UB for one worker, returned to the pool at scope exit.
class UbLease {
 public:
  explicit UbLease(uint32_t bytes) : mem_(Ubs().Take(bytes)), bytes_(bytes) {}
  ~UbLease() { Ubs().Give(std::move(mem_)); }
  UbLease(const UbLease&) = delete;
  UbLease& operator=(const UbLease&) = delete;
  std::byte* data() const { return mem_->data; }
  uint32_t size() const { return bytes_; }
  // Gives the next block zeros where earlier blocks may have written: trades the memory for a
  // clean free one when the pool has one (an idle helper zeroes the dirty one: UbPool::ZeroDirty),
  // else zeroes those bytes here. data() may change.
  void Zero() {
    if (mem_->dirty == 0) return;
    if (std::unique_ptr<UbMemory> clean = Ubs().TakeClean(bytes_)) {
      Ubs().Give(std::move(mem_));
      mem_ = std::move(clean);
      return;
    }
    const uint32_t n = std::min(mem_->dirty, bytes_);
    std::memset(mem_->data, 0, n);
    if (mem_->dirty <= bytes_) mem_->dirty = 0;
  }
  // Records what a block run on it may have written: [0, written_end) in checked mode, its
  // whole view otherwise.
  void NoteBlockDone(uint32_t written_end) const {
    mem_->dirty = std::max(mem_->dirty, std::min(written_end, bytes_));
  }

 private:
  std::unique_ptr<UbMemory> mem_;
  uint32_t bytes_;
};

inline uint32_t UbHostBytes(const Product& p) {
  const uint32_t need = std::max(p.ub_bytes, p.stack_end_bytes);
  return (need + 31) / 32 * 32;
}

// Debug builds: every UB byte at or above what a checked block recorded as written
// (BlockContext::ub_written_end) is still zero, which the next block's partial zeroing relies on;
// a write that no NoteUbWritten covered stops the process here.
void CheckUbWrittenEnd(const std::byte* ub, uint32_t from, uint32_t size, uint32_t block);

}  // namespace lngrad::aicore::detail
