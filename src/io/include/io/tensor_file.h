// lngrad_io: tensors from and to files (.npy and raw .bin), with all-or-nothing output.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "io/tensor.h"

namespace lngrad::io {

enum class FileFormat { kNpy, kBin };

// ".npy" (case-insensitive) is NumPy; every other name is raw data (the official samples use
// ".bin").
FileFormat FormatOfPath(std::string_view path);
const char* FormatName(FileFormat f);  // "npy", "bin"
// Parses "npy" or "bin".
Status ParseFormat(std::string_view text, FileFormat* out);

// Reads a .npy file (see io/npy.h for what is accepted). The error names the path and the rule.
Status ReadNpyFile(const std::string& path, Tensor* out);

// Reads only the header of a .npy file: what ReadNpyFile would allocate, without reading the
// data (the same checks of the header and of the file size).
Status ReadNpyFileHeader(const std::string& path, DType* dtype, std::vector<int64_t>* shape);

// Reads a raw file of little-endian `dtype` elements that must hold exactly the elements of
// `shape` (C order); a size mismatch is an error that states both sizes.
Status ReadBinFile(const std::string& path, DType dtype, const std::vector<int64_t>& shape,
                   Tensor* out);

// Whole-file bytes of `t` in `format` (.bin: just the little-endian data).
std::string EncodeTensor(const Tensor& t, FileFormat format);

// A set of output files that appear together or not at all. Each Add* writes the complete file
// under a temporary name (".<name>.tmp-XXXXXX") in the target directory and fsyncs it; Commit()
// makes them all appear in one step through the directory's commit journal (io/dir_lock.h):
// the journal is renamed into place (the commit point), then the temporaries are renamed to
// their final names and the files of RemoveOnCommit() removed. If anything fails before
// Commit(), or the set is destroyed uncommitted, the temporaries are removed, so are the
// directories that Open() created, and no existing file is touched. A process killed after the
// commit point leaves the journal, which the next lngrad process opening the directory
// completes; killed before it, stale temporaries, which the next writer removes.
//
// Between Open() and Commit() (or destruction) the set holds an exclusive flock(2) on the
// directory itself (no lock file is left behind), so two sets writing one directory, in one
// process or in two, follow each other and a directory always holds one set's complete files.
// Readers take it shared (io::DirectoryReadLocks).
//
// With InstallSignalCleanup(), SIGINT, SIGTERM and SIGHUP also remove the temporaries and the
// created directories of every uncommitted set before the process exits.
class OutputSet {
 public:
  // `dir` is created (with missing parents) when `create_dir` is set and it does not exist.
  OutputSet(std::string dir, bool create_dir);
  ~OutputSet();
  OutputSet(const OutputSet&) = delete;
  OutputSet& operator=(const OutputSet&) = delete;

  // Checks (or creates) the directory and locks it; call once before the Add* calls. When
  // another set holds the lock, `on_wait` (if given) is called once and Open() waits for it.
  // Holding the lock, it completes an interrupted commit and removes stale temporaries.
  // The error says what is wrong with the directory (not one, not writable, cannot be created).
  Status Open(const std::function<void()>& on_wait = {});
  // file_name is a plain name inside the directory (no '/').
  Status AddBytes(const std::string& file_name, std::string_view bytes);
  Status AddTensor(const std::string& file_name, const Tensor& t, FileFormat format);
  // A file of the directory that the commit removes (the replaced set's file that this set does
  // not write again); nothing happens to it before the commit.
  void RemoveOnCommit(const std::string& file_name);
  // Commits the set (the journal, then the renames and removals, with SIGINT, SIGTERM and SIGHUP
  // held back meanwhile, so that a signal cannot leave half a set; the directory fsync'd), then
  // releases the lock. Refuses (before renaming anything) when a target name is an existing
  // directory.
  Status Commit();

  const std::string& dir() const { return dir_; }
  bool opened() const { return opened_; }
  // True when Open() created `dir` (or one of its parents).
  bool created_dir() const { return !created_.empty(); }
  // Final paths of the files added so far, in order.
  std::vector<std::string> Paths() const;

 private:
  struct Pending {
    std::string final_path;
    std::string temp_path;
    int cleanup_slot;  // in the signal cleanup registry, or -1
  };
  struct Created {
    std::string path;
    int cleanup_slot;
  };
  Status CreateDirs();
  Status Lock(const std::function<void()>& on_wait, bool* stale);
  Status WriteJournal(std::string* temp, int* slot);
  Status ApplyCommit(int dir_fd, const std::string& journal);
  Status WritePieces(const std::string& file_name, std::string_view head, const void* data,
                     size_t data_bytes);
  void RemoveTemporaries();
  void RemoveCreatedDirs();
  void Unlock();

  std::string dir_;
  bool create_dir_;
  bool opened_ = false;
  bool committed_ = false;
  int lock_fd_ = -1;
  bool locked_ = false;  // lock_fd_ holds the flock (a file system without flock: not)
  std::vector<std::string> removals_;
  std::vector<Pending> pending_;
  std::vector<Created> created_;  // outermost first
};

// Installs handlers for SIGINT, SIGTERM and SIGHUP (each unless it is ignored, as under nohup)
// that remove the temporaries and created directories of every uncommitted OutputSet, print
// "lngrad <command>: interrupted by SIG...; the unfinished output was removed" on stderr and
// exit with 128 + the signal number (130, 143, 129). The handler only calls unlink, rmdir,
// write, _exit and tgkill on data prepared in advance (async-signal-safe). Call once, early,
// from the thread that uses the OutputSets: the signals are handled on that thread (another
// thread that receives one passes it on), so that a path is never half registered.
void InstallSignalCleanup(std::string_view command);

// The canonical form of an existing path (symlinks, "." and ".." resolved), or "" when it does
// not exist.
std::string CanonicalPath(const std::string& path);

// Joins a directory and a file name with one '/'.
std::string JoinPath(std::string_view dir, std::string_view name);
// True when `path` names an existing directory.
bool IsDirectory(const std::string& path);
// True when `path` names an existing file of any kind.
bool PathExists(const std::string& path);
// Reads a whole (small) text file; the error names the path.
Status ReadTextFile(const std::string& path, std::string* out);

}  // namespace lngrad::io
