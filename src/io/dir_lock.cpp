#include "io/dir_lock.h"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <tuple>
#include <utility>

namespace lngrad::io {
namespace {

std::string Quoted(std::string_view path) {
  std::string q;
  q += '\'';
  q.append(path);
  q += '\'';
  return q;
}

// One line of the journal: "R\t<temporary>\t<final>" or "D\t<name>".
struct JournalStep {
  bool rename = false;
  std::string from, to;
};

Status ParseJournal(const std::string& text, const std::string& where,
                    std::vector<JournalStep>* steps) {
  const Status bad = Status::InvalidArgument(where + " is not a complete lngrad commit journal");
  size_t pos = 0;
  std::vector<std::string> lines;
  while (pos < text.size()) {
    const size_t end = text.find('\n', pos);
    if (end == std::string::npos) return bad;  // every line ends with '\n', the last one too
    lines.push_back(text.substr(pos, end - pos));
    pos = end + 1;
  }
  if (lines.size() < 2 || lines.front() != "lngrad-commit/1" || lines.back() != "end") return bad;
  for (size_t i = 1; i + 1 < lines.size(); ++i) {
    const std::string& l = lines[i];
    JournalStep s;
    if (l.rfind("R\t", 0) == 0) {
      const size_t tab = l.find('\t', 2);
      if (tab == std::string::npos) return bad;
      s.rename = true;
      s.from = l.substr(2, tab - 2);
      s.to = l.substr(tab + 1);
    } else if (l.rfind("D\t", 0) == 0) {
      s.to = l.substr(2);
    } else {
      return bad;
    }
    // Plain names only: a journal never reaches outside its directory.
    auto plain = [](const std::string& n) {
      return !n.empty() && n.find('/') == std::string::npos && n != "." && n != "..";
    };
    if (!plain(s.to) || (s.rename && !plain(s.from))) return bad;
    steps->push_back(std::move(s));
  }
  return Status::Ok();
}

Status ReadJournal(int dir_fd, const std::string& where, bool* present, std::string* text) {
  const int fd = ::openat(dir_fd, std::string(kCommitJournal).c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    if (errno == ENOENT) {
      *present = false;
      return Status::Ok();
    }
    return Status::InvalidArgument("cannot open " + where + ": " + std::strerror(errno));
  }
  *present = true;
  char buf[4096];
  for (;;) {
    const ssize_t r = ::read(fd, buf, sizeof buf);
    if (r < 0 && errno == EINTR) continue;
    if (r < 0) {
      const int err = errno;
      ::close(fd);
      return Status::InvalidArgument("cannot read " + where + ": " + std::strerror(err));
    }
    if (r == 0) break;
    text->append(buf, static_cast<size_t>(r));
    if (text->size() > (1u << 20)) break;  // ParseJournal then finds no "end"
  }
  ::close(fd);
  return Status::Ok();
}

}  // namespace

bool IsTemporaryName(std::string_view name) {
  constexpr std::string_view kTmp = ".tmp-";
  if (name.size() < 1 + 1 + kTmp.size() + 6 || name[0] != '.') return false;
  return name.substr(name.size() - 6 - kTmp.size(), kTmp.size()) == kTmp;
}

Status SyncDirectory(int dir_fd, const std::string& dir) {
  // Some file systems cannot fsync a directory (EINVAL): their renames are as durable as they get.
  if (::fsync(dir_fd) != 0 && errno != EINVAL && errno != EROFS) {
    return Status::InvalidArgument("cannot sync directory " + Quoted(dir) + ": " +
                                   std::strerror(errno));
  }
  return Status::Ok();
}

Status FinishCommit(int dir_fd, const std::string& dir) {
  const std::string where = Quoted(dir + "/" + std::string(kCommitJournal));
  bool present = false;
  std::string text;
  LNGRAD_RETURN_IF_ERROR(ReadJournal(dir_fd, where, &present, &text));
  if (!present) return Status::Ok();
  std::vector<JournalStep> steps;
  LNGRAD_RETURN_IF_ERROR(ParseJournal(text, where, &steps));
  auto fail = [&](const std::string& what, int err) {
    return Status::InvalidArgument(
        Quoted(dir) + " holds an interrupted commit (" + std::string(kCommitJournal) +
        ") that cannot be completed: " + what + ": " + std::strerror(err));
  };
  for (const JournalStep& s : steps) {
    if (s.rename) {
      // Renamed already when the temporary is gone (the journal outlived its renames).
      if (::renameat(dir_fd, s.from.c_str(), dir_fd, s.to.c_str()) != 0 && errno != ENOENT) {
        return fail("rename " + s.from + " to " + s.to, errno);
      }
    } else if (::unlinkat(dir_fd, s.to.c_str(), 0) != 0 && errno != ENOENT) {
      return fail("remove " + s.to, errno);
    }
  }
  LNGRAD_RETURN_IF_ERROR(SyncDirectory(dir_fd, dir));
  if (::unlinkat(dir_fd, std::string(kCommitJournal).c_str(), 0) != 0 && errno != ENOENT) {
    return fail("remove the journal", errno);
  }
  return SyncDirectory(dir_fd, dir);
}

void RemoveStaleTemporaries(int dir_fd) {
  const int fd = ::dup(dir_fd);
  if (fd < 0) return;
  DIR* d = ::fdopendir(fd);
  if (d == nullptr) {
    ::close(fd);
    return;
  }
  std::vector<std::string> stale;
  while (const dirent* e = ::readdir(d)) {
    if (IsTemporaryName(e->d_name)) stale.emplace_back(e->d_name);
  }
  ::closedir(d);
  for (const std::string& name : stale) ::unlinkat(dir_fd, name.c_str(), 0);
}

void TestStopPoint(std::string_view step) {
  static const std::string at = [] {
    const char* v = std::getenv("LNGRAD_TEST_STOP_AT");
    return std::string(v == nullptr ? "" : v);
  }();
  if (!at.empty() && at == step) ::raise(SIGSTOP);
}

std::string DirectoryOf(const std::string& path) {
  const size_t slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  if (slash == 0) return "/";
  return path.substr(0, slash);
}

DirectoryReadLocks::~DirectoryReadLocks() { Release(); }

void DirectoryReadLocks::Release() {
  for (int fd : fds_) ::close(fd);  // closing releases the flock
  fds_.clear();
}

Status DirectoryReadLocks::Acquire(const std::vector<std::string>& dirs,
                                   const std::vector<std::string>& held,
                                   const std::function<void(const std::string&)>& on_wait) {
  using Id = std::pair<dev_t, ino_t>;
  std::vector<Id> skip;
  for (const std::string& h : held) {
    struct stat st {};
    if (::stat(h.c_str(), &st) == 0) skip.emplace_back(st.st_dev, st.st_ino);
  }
  struct Open {
    Id id;
    int fd;
    std::string dir;
  };
  std::vector<Open> open;
  for (const std::string& dir : dirs) {
    const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) continue;
    struct stat st {};
    const Id id = ::fstat(fd, &st) == 0 ? Id(st.st_dev, st.st_ino) : Id(0, 0);
    const bool seen =
        std::find(skip.begin(), skip.end(), id) != skip.end() ||
        std::any_of(open.begin(), open.end(), [&](const Open& o) { return o.id == id; });
    if (seen) {
      ::close(fd);
      continue;
    }
    open.push_back({id, fd, dir});
  }
  // One global order (device, inode) for every process: two commands never wait for each other.
  std::sort(open.begin(), open.end(), [](const Open& a, const Open& b) { return a.id < b.id; });
  for (const Open& o : open) fds_.push_back(o.fd);
  for (const Open& o : open) {
    if (::flock(o.fd, LOCK_SH | LOCK_NB) != 0) {
      if (errno != EWOULDBLOCK) continue;  // no flock here: read unlocked
      if (on_wait) on_wait(o.dir);
      while (::flock(o.fd, LOCK_SH) != 0 && errno == EINTR) {
      }
    }
    if (::faccessat(o.fd, std::string(kCommitJournal).c_str(), F_OK, 0) != 0) continue;
    // An interrupted commit: completed under the exclusive lock, then shared again.
    while (::flock(o.fd, LOCK_EX) != 0 && errno == EINTR) {
    }
    const Status st = FinishCommit(o.fd, o.dir);
    while (::flock(o.fd, LOCK_SH) != 0 && errno == EINTR) {
    }
    if (!st.ok()) {
      Release();
      return st;
    }
  }
  return Status::Ok();
}

}  // namespace lngrad::io
