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
  std::unique_ptr<UbMemory> Take(uint32_t bytes) {
    {
      std::lock_guard lock(mu_);
      for (auto it = free_.begin(); it != free_.end(); ++it) {
        if ((*it)->size >= bytes) {
          std::unique_ptr<UbMemory> m = std::move(*it);
          free_.erase(it);
          return m;
        }
      }
    }
    return std::make_unique<UbMemory>(bytes);
  }
  void Give(std::unique_ptr<UbMemory> m) {
    std::lock_guard lock(mu_);
    if (free_.size() < kMaxFree) free_.push_back(std::move(m));
  }

 private:
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
  // Zeroes the bytes a block may see that earlier blocks may have written.
  void Zero() const {
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
