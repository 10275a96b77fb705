// Layer acl: the kernel printf's messages of one <<<>>> launch (utils/debug/asc_printf.h),
// kept per block and printed when the launch ends, block 0 first, as the device's host side
// prints them.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace lngrad::acl::detail {

class LaunchPrints {
 public:
  explicit LaunchPrints(uint64_t blocks) : per_block_(blocks) {}
  // Prints what is left (a launch that threw still shows what its blocks printed).
  ~LaunchPrints() { Flush(); }
  LaunchPrints(const LaunchPrints&) = delete;
  LaunchPrints& operator=(const LaunchPrints&) = delete;

  // per_block with this launch's messages collected while it runs on a block's thread.
  std::function<void()> Wrap(const std::function<void()>& per_block);
  // Prints every block's messages in block order and forgets them.
  void Flush();
  // Keeps a message of block `block_idx` (called on that block's thread only).
  void Append(int64_t block_idx, const std::string& text);

 private:
  std::vector<std::string> per_block_;  // one writer each: the block's own thread
};

}  // namespace lngrad::acl::detail
