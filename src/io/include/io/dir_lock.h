// lngrad_io: the data directory's lock for readers, the commit journal that makes a set of
// renames one step, and the removal of temporaries that killed writers left behind.
//
// A writer (OutputSet) commits through a journal: every file is written and fsync'd under a
// temporary name, then ".lngrad-commit" (the renames and removals of the set, fsync'd) is
// renamed into place and the directory fsync'd (the commit point), the renames and removals are
// made, the directory fsync'd again and the journal removed. A process killed before the commit
// point leaves the old set and stale temporaries; killed after it, a journal that the next
// lngrad process opening the directory (writer or reader) completes before anything else.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "lngrad/status.h"

namespace lngrad::io {

// The commit journal's name inside a data directory.
inline constexpr std::string_view kCommitJournal = ".lngrad-commit";

// True for the names of OutputSet's temporaries: ".<name>.tmp-XXXXXX".
bool IsTemporaryName(std::string_view name);

// Completes the commit that `dir_fd` (an open directory, named `dir` in messages) holds a journal
// of, if any: the renames whose temporary is still there, the removals, then the journal itself;
// the directory is fsync'd. The caller holds the directory's lock exclusively.
Status FinishCommit(int dir_fd, const std::string& dir);

// Removes every temporary of `dir_fd` (what writers killed by SIGKILL or SIGXFSZ left). The
// caller holds the directory's lock exclusively, so no living writer has temporaries there.
void RemoveStaleTemporaries(int dir_fd);

// fsync(2) of an open directory; the error names `dir`.
Status SyncDirectory(int dir_fd, const std::string& dir);

// For the tests only: when LNGRAD_TEST_STOP_AT (read once) equals `step`, the process stops
// itself (SIGSTOP) there, so that a test can kill it at a known point. Steps: "commit" (the
// temporaries written, before the journal), "commit-journal" (the journal in place, before the
// renames), "commit-renamed-1" (after the first rename), "inputs-read-1" (run: after the first
// input file).
void TestStopPoint(std::string_view step);

// Shared flock(2)s on the directories a command reads, held until destruction: a writer (which
// holds the lock exclusively from before its first temporary until its commit is complete)
// cannot change them meanwhile, so the files read are one set. A directory with an unfinished
// commit has it completed first (the lock taken exclusively for that).
class DirectoryReadLocks {
 public:
  DirectoryReadLocks() = default;
  ~DirectoryReadLocks();
  DirectoryReadLocks(const DirectoryReadLocks&) = delete;
  DirectoryReadLocks& operator=(const DirectoryReadLocks&) = delete;

  // Locks each directory of `dirs` once (the same directory under two names once), in the order
  // of their device and inode numbers, skipping those in `held` (directories this process
  // already holds exclusively). A directory that cannot be opened is read unlocked (its files'
  // reads report what is wrong). `on_wait(dir)` is called before waiting for a writer.
  Status Acquire(const std::vector<std::string>& dirs, const std::vector<std::string>& held,
                 const std::function<void(const std::string&)>& on_wait);
  void Release();

 private:
  std::vector<int> fds_;
};

// The directory part of a file path ("." for a plain name).
std::string DirectoryOf(const std::string& path);

}  // namespace lngrad::io
