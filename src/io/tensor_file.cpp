#include "io/tensor_file.h"

#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>

#include "byte_order.h"
#include "io/dir_lock.h"
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

// What the signal handler removes: paths registered by OutputSets, each in a slot of its own
// that is written once and never reused, so that a handler running on any thread never reads a
// path while it is being written. Slots run out after kCleanupSlots registrations in one process;
// later paths are then simply not removed on a signal.
constexpr int kCleanupSlots = 256;
enum SlotState : int { kSlotUnused = 0, kSlotFile, kSlotDir, kSlotRetired };
struct CleanupSlot {
  std::atomic<int> state{kSlotUnused};
  char path[PATH_MAX];
};
CleanupSlot g_cleanup[kCleanupSlots];
std::atomic<int> g_cleanup_next{0};
static_assert(std::atomic<int>::is_always_lock_free, "the signal handler reads these atomics");

// Messages of the handler, built by InstallSignalCleanup.
constexpr int kSignals[] = {SIGINT, SIGTERM, SIGHUP};
char g_signal_message[3][160];
size_t g_signal_message_len[3];
volatile sig_atomic_t g_signal_seen = 0;
// The thread that installed the handler, and the only one that handles the signals: it holds
// them back while it registers a path, which another thread could not see.
std::atomic<long> g_signal_thread{0};

int RegisterCleanup(const std::string& path, SlotState kind) {
  if (path.size() >= PATH_MAX) return -1;
  const int i = g_cleanup_next.fetch_add(1);
  if (i >= kCleanupSlots) return -1;
  std::memcpy(g_cleanup[i].path, path.c_str(), path.size() + 1);
  g_cleanup[i].state.store(kind, std::memory_order_release);
  return i;
}

void RetireCleanup(int slot) {
  if (slot >= 0) g_cleanup[slot].state.store(kSlotRetired, std::memory_order_release);
}

extern "C" void OnTerminatingSignal(int sig) {
  const long handler_thread = g_signal_thread.load();
  if (handler_thread != 0 && ::syscall(SYS_gettid) != handler_thread) {
    // A process-directed signal may land on any thread (a worker of the native kernels, say),
    // even while the main thread is between a mkstemp and its registration: hand it to the
    // main thread, which takes it once the registration is complete.
    ::syscall(SYS_tgkill, ::getpid(), handler_thread, sig);
    return;
  }
  if (g_signal_seen) _exit(128 + sig);  // a second signal while cleaning up
  g_signal_seen = 1;
  const int n = std::min(g_cleanup_next.load(std::memory_order_acquire), kCleanupSlots);
  // Files first, then directories innermost first (they were registered outermost first).
  for (int i = n - 1; i >= 0; --i) {
    if (g_cleanup[i].state.load(std::memory_order_acquire) == kSlotFile) {
      ::unlink(g_cleanup[i].path);
    }
  }
  for (int i = n - 1; i >= 0; --i) {
    if (g_cleanup[i].state.load(std::memory_order_acquire) == kSlotDir) {
      ::rmdir(g_cleanup[i].path);
    }
  }
  for (int k = 0; k < 3; ++k) {
    if (kSignals[k] == sig && g_signal_message_len[k] > 0) {
      const ssize_t ignored = ::write(STDERR_FILENO, g_signal_message[k], g_signal_message_len[k]);
      (void)ignored;
    }
  }
  _exit(128 + sig);
}

// Holds SIGINT, SIGTERM and SIGHUP back on this thread while it lives: a registration and the
// step it records happen together, and a commit is not cut in half.
class SignalsHeld {
 public:
  SignalsHeld() {
    sigset_t set;
    sigemptyset(&set);
    for (int sig : kSignals) sigaddset(&set, sig);
    pthread_sigmask(SIG_BLOCK, &set, &old_);
  }
  ~SignalsHeld() { pthread_sigmask(SIG_SETMASK, &old_, nullptr); }
  SignalsHeld(const SignalsHeld&) = delete;
  SignalsHeld& operator=(const SignalsHeld&) = delete;

 private:
  sigset_t old_;
};

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

namespace {

// A file name inside the directory: no '/', and none of the journal's separators.
bool IsPlainName(const std::string& name) {
  return !name.empty() && name != "." && name != ".." &&
         name.find_first_of("/\t\n") == std::string::npos;
}

// Opens a .npy file and parses its header; on success the file offset is at the data, whose
// size has been checked against the header.
Status OpenNpy(const std::string& path, std::unique_ptr<Fd>* fd, NpyHeader* h) {
  uint64_t size = 0;
  LNGRAD_RETURN_IF_ERROR(OpenForRead(path, fd, &size));
  const std::string name = Quoted(path);
  std::string head(12, '\0');
  size_t got = 0;
  LNGRAD_RETURN_IF_ERROR(ReadUpTo((*fd)->get(), path, head.data(), head.size(), &got));
  head.resize(got);
  LNGRAD_RETURN_IF_ERROR(ParseNpyPreamble(head, name, h));
  if (size < h->data_offset) {
    return Status::InvalidArgument(name + ": truncated .npy header (file has " +
                                   std::to_string(size) + " bytes, the header needs " +
                                   std::to_string(h->data_offset) + ")");
  }
  const size_t dict_start = h->major_version == 1 ? 10 : 12;
  std::string dict(h->data_offset - dict_start, '\0');
  // The first 12 bytes already read may include the start of a 1.0 dict (or, for a tiny
  // header, even data bytes: hence the seek below).
  const size_t carried = std::min(head.size() - dict_start, dict.size());
  std::copy_n(head.begin() + static_cast<std::ptrdiff_t>(dict_start), carried, dict.begin());
  LNGRAD_RETURN_IF_ERROR(
      ReadUpTo((*fd)->get(), path, dict.data() + carried, dict.size() - carried, &got));
  LNGRAD_RETURN_IF_ERROR(ParseNpyDict(dict, name, h));
  if (::lseek((*fd)->get(), static_cast<off_t>(h->data_offset), SEEK_SET) < 0) {
    return SysError("cannot seek in", path, errno);
  }
  const uint64_t want = static_cast<uint64_t>(h->element_count) * DTypeSize(h->dtype);
  const uint64_t have = size - h->data_offset;
  if (have != want) {
    return Status::InvalidArgument(
        name + ": " + (have < want ? "truncated data" : "trailing bytes after the data") +
        ": shape " + ShapeText(h->shape) + " of " + DTypeName(h->dtype) + " needs " +
        std::to_string(want) + " bytes, the file has " + std::to_string(have));
  }
  return Status::Ok();
}

}  // namespace

Status ReadNpyFile(const std::string& path, Tensor* out) {
  std::unique_ptr<Fd> fd;
  NpyHeader h;
  LNGRAD_RETURN_IF_ERROR(OpenNpy(path, &fd, &h));
  Tensor t(h.dtype, h.shape);
  LNGRAD_RETURN_IF_ERROR(ReadElements(fd->get(), path, &t));
  *out = std::move(t);
  return Status::Ok();
}

Status ReadNpyFileHeader(const std::string& path, DType* dtype, std::vector<int64_t>* shape) {
  std::unique_ptr<Fd> fd;
  NpyHeader h;
  LNGRAD_RETURN_IF_ERROR(OpenNpy(path, &fd, &h));
  *dtype = h.dtype;
  *shape = h.shape;
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
  if (!committed_) {
    RemoveTemporaries();
    RemoveCreatedDirs();
  }
  Unlock();
}

void OutputSet::RemoveTemporaries() {
  for (const Pending& p : pending_) {
    ::unlink(p.temp_path.c_str());
    RetireCleanup(p.cleanup_slot);
  }
  pending_.clear();
}

void OutputSet::RemoveCreatedDirs() {
  // rmdir removes only empty directories: whatever someone else put there meanwhile stays.
  for (auto it = created_.rbegin(); it != created_.rend(); ++it) {
    ::rmdir(it->path.c_str());
    RetireCleanup(it->cleanup_slot);
  }
  created_.clear();
}

void OutputSet::Unlock() {
  if (lock_fd_ >= 0) ::close(lock_fd_);  // closing the last descriptor releases the flock
  lock_fd_ = -1;
  locked_ = false;
}

Status OutputSet::CreateDirs() {
  // mkdir -p by hand, to know which directories are ours to remove again.
  std::vector<std::string> prefixes;
  for (size_t pos = dir_.find('/', 1); pos != std::string::npos; pos = dir_.find('/', pos + 1)) {
    prefixes.push_back(dir_.substr(0, pos));
  }
  prefixes.push_back(dir_);
  for (const std::string& p : prefixes) {
    if (p.empty() || p.back() == '/') continue;
    struct stat st {};
    if (::stat(p.c_str(), &st) == 0) {
      if (S_ISDIR(st.st_mode)) continue;
      RemoveCreatedDirs();
      return Status::InvalidArgument("cannot create output directory " + Quoted(dir_) + ": " +
                                     Quoted(p) + " is not a directory");
    }
    SignalsHeld held;
    if (::mkdir(p.c_str(), 0777) != 0) {
      const int err = errno;
      if (err == EEXIST && IsDirectory(p)) continue;  // made by someone else just now
      RemoveCreatedDirs();
      return Status::InvalidArgument("cannot create output directory " + Quoted(dir_) + ": " +
                                     std::strerror(err));
    }
    created_.push_back({p, RegisterCleanup(p, kSlotDir)});
  }
  return Status::Ok();
}

Status OutputSet::Lock(const std::function<void()>& on_wait, bool* stale) {
  *stale = false;
  const int fd = ::open(dir_.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  // A directory that cannot be opened for reading (mode -wx) is written unlocked; a file system
  // without flock likewise. What matters then is what the writes themselves report.
  if (fd < 0) return Status::Ok();
  lock_fd_ = fd;
  if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    if (errno != EWOULDBLOCK) return Status::Ok();
    if (on_wait) on_wait();
    while (::flock(fd, LOCK_EX) != 0) {
      if (errno != EINTR) return Status::Ok();
    }
  }
  locked_ = true;
  // The previous holder may have removed the directory it had created (its run failed) and
  // someone may have made a new one of that name: the lock must be on what the name means now.
  struct stat held {
  }, now{};
  if (::fstat(fd, &held) != 0 || ::stat(dir_.c_str(), &now) != 0 || held.st_dev != now.st_dev ||
      held.st_ino != now.st_ino) {
    Unlock();
    *stale = true;
  }
  return Status::Ok();
}

Status OutputSet::Open(const std::function<void()>& on_wait) {
  if (dir_.empty()) return Status::InvalidArgument("output directory name is empty");
  if (opened_) return Status::Internal("OutputSet::Open called twice");
  bool waited = false;
  for (int attempt = 0; attempt < 100; ++attempt) {
    struct stat st {};
    if (::stat(dir_.c_str(), &st) == 0) {
      if (!S_ISDIR(st.st_mode)) {
        return Status::InvalidArgument("output directory " + Quoted(dir_) +
                                       " exists and is not a directory");
      }
    } else if (create_dir_) {
      LNGRAD_RETURN_IF_ERROR(CreateDirs());
    } else {
      return SysError("output directory", dir_, errno);
    }
    bool stale = false;
    LNGRAD_RETURN_IF_ERROR(Lock(
        [&] {
          if (!waited && on_wait) on_wait();
          waited = true;
        },
        &stale));
    if (!stale) {
      if (locked_) {
        // The directory is ours alone now: what a killed writer left is finished or removed.
        LNGRAD_RETURN_IF_ERROR(FinishCommit(lock_fd_, dir_));
        RemoveStaleTemporaries(lock_fd_);
      }
      opened_ = true;
      return Status::Ok();
    }
  }
  return Status::InvalidArgument("output directory " + Quoted(dir_) +
                                 " keeps being replaced while waiting for its lock");
}

Status OutputSet::WritePieces(const std::string& file_name, std::string_view head, const void* data,
                              size_t data_bytes) {
  if (!opened_) return Status::Internal("OutputSet::Open was not called");
  if (committed_) return Status::Internal("OutputSet already committed");
  if (!IsPlainName(file_name)) {
    return Status::InvalidArgument("output file name \"" + file_name + "\" is not a plain name");
  }
  const std::string final_path = JoinPath(dir_, file_name);
  std::string temp = JoinPath(dir_, "." + file_name + ".tmp-XXXXXX");
  int raw = -1;
  {
    SignalsHeld held;
    raw = ::mkstemp(temp.data());
    if (raw >= 0) pending_.push_back({final_path, temp, RegisterCleanup(temp, kSlotFile)});
  }
  if (raw < 0) {
    const int err = errno;
    RemoveTemporaries();
    return Status::InvalidArgument("cannot write into output directory " + Quoted(dir_) + ": " +
                                   std::strerror(err));
  }
  Fd fd(raw);
  // mkstemp creates 0600; outputs are ordinary data files.
  ::fchmod(raw, 0644);
  Status st = WriteAll(raw, final_path, head.data(), head.size());
  if (st.ok() && data_bytes > 0) st = WriteAll(raw, final_path, data, data_bytes);
  // On disk before the commit names it: a crash after the commit finds the data, not a hole.
  if (st.ok() && ::fsync(raw) != 0 && errno != EINVAL)
    st = SysError("cannot sync", final_path, errno);
  if (st.ok() && ::close(fd.Release()) != 0) st = SysError("cannot write", final_path, errno);
  if (!st.ok()) RemoveTemporaries();
  return st;
}

Status OutputSet::AddBytes(const std::string& file_name, std::string_view bytes) {
  return WritePieces(file_name, bytes, nullptr, 0);
}

Status OutputSet::AddTensor(const std::string& file_name, const Tensor& t, FileFormat format) {
  if (format == FileFormat::kNpy && *TraitsOf(t.dtype()).npy_descr == '\0') {
    return Status::InvalidArgument("cannot write " + file_name + " as .npy: NumPy has no " +
                                   DTypeName(t.dtype()) + " type (write it as .bin)");
  }
  const std::string head =
      format == FileFormat::kNpy ? EncodeNpyHeader(t.dtype(), t.shape()) : std::string();
  if constexpr (std::endian::native == std::endian::little) {
    return WritePieces(file_name, head, t.RawData(), t.ByteSize());
  } else {
    const std::string data = EncodeTensor(t, FileFormat::kBin);
    return WritePieces(file_name, head, data.data(), data.size());
  }
}

void OutputSet::RemoveOnCommit(const std::string& file_name) {
  if (IsPlainName(file_name)) removals_.push_back(file_name);
}

namespace {

std::string BaseName(const std::string& path) { return path.substr(path.rfind('/') + 1); }

}  // namespace

Status OutputSet::WriteJournal(std::string* temp, int* slot) {
  std::string text = "lngrad-commit/1\n";
  for (const Pending& p : pending_)
    text += "R\t" + BaseName(p.temp_path) + "\t" + BaseName(p.final_path) + "\n";
  for (const std::string& name : removals_) {
    const bool written = std::any_of(pending_.begin(), pending_.end(), [&](const Pending& p) {
      return BaseName(p.final_path) == name;
    });
    if (!written) text += "D\t" + name + "\n";
  }
  text += "end\n";
  *temp = JoinPath(dir_, "." + std::string(kCommitJournal).substr(1) + ".tmp-XXXXXX");
  int raw = -1;
  {
    SignalsHeld held;
    raw = ::mkstemp(temp->data());
    *slot = raw >= 0 ? RegisterCleanup(*temp, kSlotFile) : -1;
  }
  if (raw < 0) return SysError("cannot write into", dir_, errno);
  Fd fd(raw);
  Status st = WriteAll(raw, *temp, text.data(), text.size());
  if (st.ok() && ::fsync(raw) != 0 && errno != EINVAL) st = SysError("cannot sync", *temp, errno);
  if (st.ok() && ::close(fd.Release()) != 0) st = SysError("cannot write", *temp, errno);
  if (!st.ok()) {
    ::unlink(temp->c_str());
    RetireCleanup(*slot);
  }
  return st;
}

Status OutputSet::Commit() {
  if (!opened_) return Status::Internal("OutputSet::Open was not called");
  if (committed_) return Status::Internal("OutputSet already committed");
  for (const Pending& p : pending_) {
    if (IsDirectory(p.final_path)) {
      const std::string clash = p.final_path;  // RemoveTemporaries() clears pending_
      RemoveTemporaries();
      return Status::InvalidArgument("cannot write " + Quoted(clash) +
                                     ": a directory of that name exists");
    }
  }
  TestStopPoint("commit");
  // The directory's descriptor: the lock's, else one for the fsyncs alone.
  std::unique_ptr<Fd> own;
  int dir_fd = lock_fd_;
  if (dir_fd < 0) {
    own = std::make_unique<Fd>(::open(dir_.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
    dir_fd = own->get();
  }
  std::string journal_temp;
  int journal_slot = -1;
  if (Status st = WriteJournal(&journal_temp, &journal_slot); !st.ok()) {
    RemoveTemporaries();
    return st;
  }
  // A directory this set created must survive with the files: its entry in its parent too.
  for (const Created& c : created_) {
    Fd parent(::open(DirectoryOf(c.path).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
    if (parent.get() >= 0) (void)SyncDirectory(parent.get(), DirectoryOf(c.path));
  }
  const std::string journal = JoinPath(dir_, kCommitJournal);
  // Signals wait from the commit point until the set is in place: a signal never interrupts it.
  SignalsHeld held;
  // The commit point: once the journal has its name, the set is committed, and whoever opens
  // the directory next completes the renames should this process die now.
  if (::rename(journal_temp.c_str(), journal.c_str()) != 0) {
    const int err = errno;
    ::unlink(journal_temp.c_str());
    RetireCleanup(journal_slot);
    RemoveTemporaries();
    return SysError("cannot commit into", dir_, err);
  }
  RetireCleanup(journal_slot);
  for (const Pending& p : pending_) RetireCleanup(p.cleanup_slot);
  for (const Created& c : created_) RetireCleanup(c.cleanup_slot);
  created_.clear();
  committed_ = true;
  Status st = dir_fd >= 0 ? SyncDirectory(dir_fd, dir_) : Status::Ok();
  TestStopPoint("commit-journal");
  if (st.ok()) st = ApplyCommit(dir_fd, journal);
  Unlock();
  if (!st.ok()) {
    return Status::InvalidArgument(st.message() +
                                   " (the outputs are committed: the next lngrad command that "
                                   "opens the directory completes the renames)");
  }
  return Status::Ok();
}

Status OutputSet::ApplyCommit(int dir_fd, const std::string& journal) {
  // The journal's steps by path (a directory that cannot be opened for reading has no
  // descriptor), then the journal itself; what is done survives a crash once fsync'd.
  for (size_t i = 0; i < pending_.size(); ++i) {
    if (::rename(pending_[i].temp_path.c_str(), pending_[i].final_path.c_str()) != 0) {
      return SysError("cannot rename into", dir_, errno);
    }
    if (i == 0) TestStopPoint("commit-renamed-1");
  }
  for (const std::string& name : removals_) {
    const std::string path = JoinPath(dir_, name);
    const bool written = std::any_of(pending_.begin(), pending_.end(),
                                     [&](const Pending& p) { return p.final_path == path; });
    if (!written && ::unlink(path.c_str()) != 0 && errno != ENOENT) {
      return SysError("cannot remove", path, errno);
    }
  }
  if (dir_fd >= 0) LNGRAD_RETURN_IF_ERROR(SyncDirectory(dir_fd, dir_));
  if (::unlink(journal.c_str()) != 0) return SysError("cannot remove", journal, errno);
  return dir_fd >= 0 ? SyncDirectory(dir_fd, dir_) : Status::Ok();
}

std::vector<std::string> OutputSet::Paths() const {
  std::vector<std::string> out;
  for (const Pending& p : pending_) out.push_back(p.final_path);
  return out;
}

void InstallSignalCleanup(std::string_view command) {
  // On a terminal the progress line may be half drawn: start the message on a clean line.
  const char* lead = ::isatty(STDERR_FILENO) ? "\r\033[K" : "";
  const char* names[] = {"SIGINT", "SIGTERM", "SIGHUP"};
  for (int k = 0; k < 3; ++k) {
    const int n = std::snprintf(g_signal_message[k], sizeof g_signal_message[k],
                                "%slngrad %.*s: interrupted by %s; the unfinished output was "
                                "removed\n",
                                lead, static_cast<int>(std::min<size_t>(command.size(), 40)),
                                command.data(), names[k]);
    g_signal_message_len[k] =
        n > 0 ? std::min(static_cast<size_t>(n), sizeof g_signal_message[k] - 1) : 0;
  }
  g_signal_thread.store(static_cast<long>(::syscall(SYS_gettid)));
  for (int sig : kSignals) {
    struct sigaction old {};
    if (::sigaction(sig, nullptr, &old) != 0 || old.sa_handler == SIG_IGN) continue;
    struct sigaction sa {};
    sa.sa_handler = OnTerminatingSignal;
    sigemptyset(&sa.sa_mask);
    for (int other : kSignals) sigaddset(&sa.sa_mask, other);
    ::sigaction(sig, &sa, nullptr);
  }
}

std::string CanonicalPath(const std::string& path) {
  char* p = ::realpath(path.c_str(), nullptr);
  if (p == nullptr) return std::string();
  std::string out(p);
  std::free(p);
  return out;
}

}  // namespace lngrad::io
