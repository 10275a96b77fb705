// libFuzzer target: the .npy reader (src/io) on arbitrary bytes, through both the in-memory
// decoder and the file reader. Invariants (abort on violation):
//  - both return (no crash, no UB, no allocation beyond the input's size);
//  - they agree: both fail, or both succeed with the same dtype, shape and element bytes;
//  - on error the output tensor is untouched;
//  - a tensor that was read encodes back to bytes that decode to the same tensor.
#include <fcntl.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>

#include "io/npy.h"
#include "io/tensor_file.h"

namespace {

void Fail(const char* what) {
  std::fprintf(stderr, "fuzz_npy invariant broken: %s\n", what);
  std::abort();
}

bool SameTensor(const lngrad::io::Tensor& a, const lngrad::io::Tensor& b) {
  if (a.dtype() != b.dtype() || a.shape() != b.shape() || a.ByteSize() != b.ByteSize()) {
    return false;
  }
  // An empty tensor's storage may be null, which memcmp must not see.
  return a.ByteSize() == 0 || std::memcmp(a.RawData(), b.RawData(), a.ByteSize()) == 0;
}

const std::string& ScratchPath() {
  static const std::string path = [] {
    const char* dir = std::getenv("TMPDIR");
    return std::string(dir != nullptr ? dir : "/tmp") + "/lngrad_fuzz_npy_" +
           std::to_string(::getpid()) + ".npy";
  }();
  return path;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  using lngrad::io::DType;
  using lngrad::io::Tensor;

  const Tensor sentinel(DType::kFloat64, {3});
  Tensor decoded = sentinel;
  const lngrad::Status ds = lngrad::io::DecodeNpy(bytes, "fuzz", &decoded);
  if (!ds.ok() && !SameTensor(decoded, sentinel)) Fail("DecodeNpy wrote its output on error");
  if (!ds.ok() && ds.message().empty()) Fail("error without a message");

  // The file reader: same bytes through a real file.
  const std::string& path = ScratchPath();
  {
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (fd < 0) Fail("cannot create the scratch file");
    size_t done = 0;
    while (done < size) {
      const ssize_t n = ::write(fd, data + done, size - done);
      if (n <= 0) Fail("cannot write the scratch file");
      done += static_cast<size_t>(n);
    }
    ::close(fd);
  }
  Tensor read = sentinel;
  const lngrad::Status rs = lngrad::io::ReadNpyFile(path, &read);
  ::unlink(path.c_str());
  if (!rs.ok() && !SameTensor(read, sentinel)) Fail("ReadNpyFile wrote its output on error");
  if (rs.ok() != ds.ok()) {
    std::fprintf(stderr, "DecodeNpy: %s\nReadNpyFile: %s\n", ds.ToString().c_str(),
                 rs.ToString().c_str());
    Fail("DecodeNpy and ReadNpyFile disagree");
  }
  if (!ds.ok()) return 0;
  if (!SameTensor(decoded, read)) Fail("DecodeNpy and ReadNpyFile read different tensors");

  const std::string again = lngrad::io::EncodeNpy(decoded);
  Tensor round = sentinel;
  if (!lngrad::io::DecodeNpy(again, "re-encoded", &round).ok()) Fail("re-encoded file refused");
  if (!SameTensor(round, decoded)) Fail("re-encoded file reads back differently");
  return 0;
}
