#include "io/tensor_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <system_error>

#include "io/byte_order.h"
#include "io/npy.h"

namespace lngrad::io {
namespace {

// Built by appending: g++ 12 at -O3 warns (-Wrestrict, a known false positive) on "'" + string.
std::string Quoted(std::string_view path) {
  std::string quoted;
  quoted.reserve(path.size() + 2);
  quoted += '\'';
  quoted.append(path);
  quoted += '\'';
  return quoted;
}

Status SysError(std::string_view what, std::string_view path, int err) {
  return Status::InvalidArgument(std::string(what) + " " + Quoted(path) + ": " +
                                 std::strerror(err));
}

// An open file descriptor that closes itself.
class Fd {
 public:
  explicit Fd(int fd) : fd_(fd) {}
  ~Fd() {
    if (fd_ >= 0) ::close(fd_);
  }
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  int get() const { return fd_; }
  int Release() {
    const int fd = fd_;
    fd_ = -1;
    return fd;
  }

 private:
  int fd_;
};

// Opens a regular file for reading and reports its size.
Status OpenForRead(const std::string& path, std::unique_ptr<Fd>* fd, uint64_t* size) {
  const int raw = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (raw < 0) return SysError("cannot open", path, errno);
  auto f = std::make_unique<Fd>(raw);
  struct stat st {};
  if (::fstat(raw, &st) != 0) return SysError("cannot stat", path, errno);
  if (!S_ISREG(st.st_mode)) {
    return Status::InvalidArgument(Quoted(path) + " is not a regular file" +
                                   (S_ISDIR(st.st_mode) ? " (it is a directory)" : ""));
  }
  *size = static_cast<uint64_t>(st.st_size);
  *fd = std::move(f);
  return Status::Ok();
}

// Reads up to n bytes at the current offset; fewer only at the end of the file.
Status ReadUpTo(int fd, const std::string& path, void* dst, size_t n, size_t* got) {
  auto* p = static_cast<unsigned char*>(dst);
  size_t done = 0;
  while (done < n) {
    const ssize_t r = ::read(fd, p + done, n - done);
    if (r < 0) {
      if (errno == EINTR) continue;
      return SysError("cannot read", path, errno);
    }
    if (r == 0) break;
    done += static_cast<size_t>(r);
  }
  *got = done;
  return Status::Ok();
}

Status WriteAll(int fd, const std::string& path, const void* src, size_t n) {
  const auto* p = static_cast<const unsigned char*>(src);
  while (n > 0) {
    const ssize_t w = ::write(fd, p, n);
    if (w < 0) {
      if (errno == EINTR) continue;
      return SysError("cannot write", path, errno);
    }
    p += w;
    n -= static_cast<size_t>(w);
  }
  return Status::Ok();
}

// Reads the element data that follows the header straight into the tensor's storage.
Status ReadElements(int fd, const std::string& path, Tensor* t) {
  const size_t elem = DTypeSize(t->dtype());
  const size_t bytes = t->ByteSize();
  size_t got = 0;
  if constexpr (std::endian::native == std::endian::little) {
    LNGRAD_RETURN_IF_ERROR(ReadUpTo(fd, path, t->RawData(), bytes, &got));
  } else {
    std::vector<unsigned char> raw(bytes);
    LNGRAD_RETURN_IF_ERROR(ReadUpTo(fd, path, raw.data(), bytes, &got));
    detail::CopyLittleEndian(t->RawData(), raw.data(), bytes / elem, elem);
  }
  if (got != bytes) {
    return Status::InvalidArgument(Quoted(path) + ": file shrank while being read");
  }
  return Status::Ok();
}

}  // namespace

FileFormat FormatOfPath(std::string_view path) {
  if (path.size() >= 4) {
    std::string ext(path.substr(path.size() - 4));
    std::transform(ext.begin(), ext.end(), ext.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    if (ext == ".npy") return FileFormat::kNpy;
  }
  return FileFormat::kBin;
}

const char* FormatName(FileFormat f) { return f == FileFormat::kNpy ? "npy" : "bin"; }

Status ParseFormat(std::string_view text, FileFormat* out) {
  if (text == "npy") {
    *out = FileFormat::kNpy;
  } else if (text == "bin") {
    *out = FileFormat::kBin;
  } else {
    return Status::InvalidArgument("format \"" + std::string(text) + "\" is not npy or bin");
  }
  return Status::Ok();
}

Status ReadNpyFile(const std::string& path, Tensor* out) {
  std::unique_ptr<Fd> fd;
  uint64_t size = 0;
  LNGRAD_RETURN_IF_ERROR(OpenForRead(path, &fd, &size));
  const std::string name = Quoted(path);
  std::string head(12, '\0');
  size_t got = 0;
  LNGRAD_RETURN_IF_ERROR(ReadUpTo(fd->get(), path, head.data(), head.size(), &got));
  head.resize(got);
  NpyHeader h;
  LNGRAD_RETURN_IF_ERROR(ParseNpyPreamble(head, name, &h));
  if (size < h.data_offset) {
    return Status::InvalidArgument(name + ": truncated .npy header (file has " +
                                   std::to_string(size) + " bytes, the header needs " +
                                   std::to_string(h.data_offset) + ")");
  }
  const size_t dict_start = h.major_version == 1 ? 10 : 12;
  std::string dict(h.data_offset - dict_start, '\0');
  // The first 12 bytes already read may include the start of a 1.0 dict (or, for a tiny
  // header, even data bytes: hence the seek below).
  const size_t carried = std::min(head.size() - dict_start, dict.size());
  std::copy_n(head.begin() + static_cast<std::ptrdiff_t>(dict_start), carried, dict.begin());
  LNGRAD_RETURN_IF_ERROR(
      ReadUpTo(fd->get(), path, dict.data() + carried, dict.size() - carried, &got));
  LNGRAD_RETURN_IF_ERROR(ParseNpyDict(dict, name, &h));
  if (::lseek(fd->get(), static_cast<off_t>(h.data_offset), SEEK_SET) < 0) {
    return SysError("cannot seek in", path, errno);
  }
  const uint64_t want = static_cast<uint64_t>(h.element_count) * DTypeSize(h.dtype);
  const uint64_t have = size - h.data_offset;
  if (have != want) {
    return Status::InvalidArgument(
        name + ": " + (have < want ? "truncated data" : "trailing bytes after the data") +
        ": shape " + ShapeText(h.shape) + " of " + DTypeName(h.dtype) + " needs " +
        std::to_string(want) + " bytes, the file has " + std::to_string(have));
  }
  Tensor t(h.dtype, h.shape);
  LNGRAD_RETURN_IF_ERROR(ReadElements(fd->get(), path, &t));
  *out = std::move(t);
  return Status::Ok();
}

Status ReadBinFile(const std::string& path, DType dtype, const std::vector<int64_t>& shape,
                   Tensor* out) {
  int64_t count = 0;
  LNGRAD_RETURN_IF_ERROR(ElementCount(shape, &count));
  std::unique_ptr<Fd> fd;
  uint64_t size = 0;
  LNGRAD_RETURN_IF_ERROR(OpenForRead(path, &fd, &size));
  const uint64_t want = static_cast<uint64_t>(count) * DTypeSize(dtype);
  if (size != want) {
    return Status::InvalidArgument(
        Quoted(path) + ": size mismatch: shape " + ShapeText(shape) + " of " + DTypeName(dtype) +
        " needs " + std::to_string(want) + " bytes, the file has " + std::to_string(size) +
        (size % DTypeSize(dtype) == 0
             ? " (" + std::to_string(size / DTypeSize(dtype)) + " elements)"
             : " (not a whole number of " + std::string(DTypeName(dtype)) + " elements)"));
  }
  Tensor t(dtype, shape);
  LNGRAD_RETURN_IF_ERROR(ReadElements(fd->get(), path, &t));
  *out = std::move(t);
  return Status::Ok();
}

std::string EncodeTensor(const Tensor& t, FileFormat format) {
  if (format == FileFormat::kNpy) return EncodeNpy(t);
  std::string out(t.ByteSize(), '\0');
  detail::CopyLittleEndian(out.data(), t.RawData(), static_cast<size_t>(t.size()),
                           DTypeSize(t.dtype()));
  return out;
}

std::string JoinPath(std::string_view dir, std::string_view name) {
  std::string p(dir);
  if (!p.empty() && p.back() != '/') p += '/';
  return p + std::string(name);
}

bool IsDirectory(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

bool PathExists(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0;
}

Status ReadTextFile(const std::string& path, std::string* out) {
  std::unique_ptr<Fd> fd;
  uint64_t size = 0;
  LNGRAD_RETURN_IF_ERROR(OpenForRead(path, &fd, &size));
  if (size > (64u << 20)) return Status::InvalidArgument(Quoted(path) + " is too large for text");
  std::string s(size, '\0');
  size_t got = 0;
  LNGRAD_RETURN_IF_ERROR(ReadUpTo(fd->get(), path, s.data(), s.size(), &got));
  s.resize(got);
  *out = std::move(s);
  return Status::Ok();
}

OutputSet::OutputSet(std::string dir, bool create_dir)
    : dir_(std::move(dir)), create_dir_(create_dir) {}

OutputSet::~OutputSet() {
  if (!committed_) RemoveTemporaries();
}

void OutputSet::RemoveTemporaries() {
  for (const Pending& p : pending_) ::unlink(p.temp_path.c_str());
  pending_.clear();
}

Status OutputSet::Open() {
  if (dir_.empty()) return Status::InvalidArgument("output directory name is empty");
  struct stat st {};
  if (::stat(dir_.c_str(), &st) == 0) {
    if (!S_ISDIR(st.st_mode)) {
      return Status::InvalidArgument("output directory " + Quoted(dir_) +
                                     " exists and is not a directory");
    }
  } else if (create_dir_) {
    std::error_code ec;
    std::filesystem::create_directories(dir_, ec);
    if (ec) {
      return Status::InvalidArgument("cannot create output directory " + Quoted(dir_) + ": " +
                                     ec.message());
    }
  } else {
    return SysError("output directory", dir_, errno);
  }
  opened_ = true;
  return Status::Ok();
}

Status OutputSet::WritePieces(const std::string& file_name, std::string_view head, const void* data,
                              size_t data_bytes) {
  if (!opened_) return Status::Internal("OutputSet::Open was not called");
  if (committed_) return Status::Internal("OutputSet already committed");
  if (file_name.empty() || file_name.find('/') != std::string::npos) {
    return Status::InvalidArgument("output file name \"" + file_name + "\" is not a plain name");
  }
  const std::string final_path = JoinPath(dir_, file_name);
  std::string temp = JoinPath(dir_, "." + file_name + ".tmp-XXXXXX");
  const int raw = ::mkstemp(temp.data());
  if (raw < 0) {
    const int err = errno;
    RemoveTemporaries();
    return Status::InvalidArgument("cannot write into output directory " + Quoted(dir_) + ": " +
                                   std::strerror(err));
  }
  pending_.push_back({final_path, temp});
  Fd fd(raw);
  // mkstemp creates 0600; outputs are ordinary data files.
  ::fchmod(raw, 0644);
  Status st = WriteAll(raw, final_path, head.data(), head.size());
  if (st.ok() && data_bytes > 0) st = WriteAll(raw, final_path, data, data_bytes);
  if (st.ok() && ::close(fd.Release()) != 0) st = SysError("cannot write", final_path, errno);
  if (!st.ok()) RemoveTemporaries();
  return st;
}

Status OutputSet::AddBytes(const std::string& file_name, std::string_view bytes) {
  return WritePieces(file_name, bytes, nullptr, 0);
}

Status OutputSet::AddTensor(const std::string& file_name, const Tensor& t, FileFormat format) {
  const std::string head =
      format == FileFormat::kNpy ? EncodeNpyHeader(t.dtype(), t.shape()) : std::string();
  if constexpr (std::endian::native == std::endian::little) {
    return WritePieces(file_name, head, t.RawData(), t.ByteSize());
  } else {
    const std::string data = EncodeTensor(t, FileFormat::kBin);
    return WritePieces(file_name, head, data.data(), data.size());
  }
}

Status OutputSet::Commit() {
  if (committed_) return Status::Internal("OutputSet already committed");
  for (const Pending& p : pending_) {
    if (IsDirectory(p.final_path)) {
      const std::string clash = p.final_path;  // RemoveTemporaries() clears pending_
      RemoveTemporaries();
      return Status::InvalidArgument("cannot write " + Quoted(clash) +
                                     ": a directory of that name exists");
    }
  }
  for (size_t i = 0; i < pending_.size(); ++i) {
    if (::rename(pending_[i].temp_path.c_str(), pending_[i].final_path.c_str()) != 0) {
      const int err = errno;
      std::string done;
      for (size_t k = 0; k < i; ++k) done.append(" ").append(Quoted(pending_[k].final_path));
      pending_.erase(pending_.begin(), pending_.begin() + static_cast<std::ptrdiff_t>(i));
      RemoveTemporaries();
      return Status::InvalidArgument("cannot rename into " + Quoted(dir_) + ": " +
                                     std::strerror(err) +
                                     (done.empty() ? "" : "; already in place:" + done));
    }
  }
  committed_ = true;
  return Status::Ok();
}

std::vector<std::string> OutputSet::Paths() const {
  std::vector<std::string> out;
  for (const Pending& p : pending_) out.push_back(p.final_path);
  return out;
}

}  // namespace lngrad::io
