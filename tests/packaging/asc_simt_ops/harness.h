// What the operators of this directory share: device buffers through ACL, a check that counts
// mismatches against the host reference, and the per-file entry points main.asc calls.
#pragma once

#include <cstdint>
#include <cstdio>
#include <vector>

#include "acl/acl.h"

namespace simt_ops {

// A device copy of `host` (or `count` zeroed elements when host is empty).
template <class T>
T* ToDevice(const std::vector<T>& host, size_t count = 0) {
  const size_t n = host.empty() ? count : host.size();
  void* d = nullptr;
  aclrtMalloc(&d, n * sizeof(T), ACL_MEM_MALLOC_HUGE_FIRST);
  if (!host.empty()) {
    aclrtMemcpy(d, n * sizeof(T), host.data(), n * sizeof(T), ACL_MEMCPY_HOST_TO_DEVICE);
  }
  return static_cast<T*>(d);
}

// The device buffer's n elements, and the buffer freed.
template <class T>
std::vector<T> FromDevice(T* d, size_t n) {
  std::vector<T> host(n);
  aclrtMemcpy(host.data(), n * sizeof(T), d, n * sizeof(T), ACL_MEMCPY_DEVICE_TO_HOST);
  aclrtFree(d);
  return host;
}

// 0 when got equals want element by element; else prints the first mismatch and returns 1.
template <class T>
int Expect(const char* what, const std::vector<T>& got, const std::vector<T>& want) {
  if (got.size() != want.size()) {
    std::printf("[Failed] %s: %zu elements, expected %zu\n", what, got.size(), want.size());
    return 1;
  }
  for (size_t i = 0; i < got.size(); ++i) {
    if (!(got[i] == want[i])) {
      std::printf("[Failed] %s: element %zu is %lld, expected %lld\n", what, i,
                  static_cast<long long>(got[i]), static_cast<long long>(want[i]));
      return 1;
    }
  }
  return 0;
}

// Each returns the number of failed checks.
int RunBlocks(aclrtStream stream);
int RunWarps(aclrtStream stream);
int RunAtomics(aclrtStream stream);
int RunUb(aclrtStream stream);

}  // namespace simt_ops
