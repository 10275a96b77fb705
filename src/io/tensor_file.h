// lngrad_io: tensors from and to files (.npy and raw .bin), with all-or-nothing output.
#pragma once

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

// Reads a raw file of little-endian `dtype` elements that must hold exactly the elements of
// `shape` (C order); a size mismatch is an error that states both sizes.
Status ReadBinFile(const std::string& path, DType dtype, const std::vector<int64_t>& shape,
                   Tensor* out);

// Whole-file bytes of `t` in `format` (.bin: just the little-endian data).
std::string EncodeTensor(const Tensor& t, FileFormat format);

// A set of output files that appear together or not at all. Each Add* writes the complete file
// under a temporary name (".<name>.tmp-XXXXXX") in the target directory; Commit() renames them
// all to their final names. If anything fails before Commit(), or the set is destroyed
// uncommitted, the temporaries are removed and no existing file is touched.
class OutputSet {
 public:
  // `dir` is created (with missing parents) when `create_dir` is set and it does not exist.
  OutputSet(std::string dir, bool create_dir);
  ~OutputSet();
  OutputSet(const OutputSet&) = delete;
  OutputSet& operator=(const OutputSet&) = delete;

  // Checks (or creates) the directory; call once before the Add* calls. The error says what
  // is wrong with the directory (not one, not writable, cannot be created).
  Status Open();
  // file_name is a plain name inside the directory (no '/').
  Status AddBytes(const std::string& file_name, std::string_view bytes);
  Status AddTensor(const std::string& file_name, const Tensor& t, FileFormat format);
  // Renames every temporary into place. Refuses (before renaming anything) when a target name
  // is an existing directory.
  Status Commit();

  const std::string& dir() const { return dir_; }
  // Final paths of the files added so far, in order.
  std::vector<std::string> Paths() const;

 private:
  struct Pending {
    std::string final_path;
    std::string temp_path;
  };
  Status WritePieces(const std::string& file_name, std::string_view head, const void* data,
                     size_t data_bytes);
  void RemoveTemporaries();

  std::string dir_;
  bool create_dir_;
  bool opened_ = false;
  bool committed_ = false;
  std::vector<Pending> pending_;
};

// Joins a directory and a file name with one '/'.
std::string JoinPath(std::string_view dir, std::string_view name);
// True when `path` names an existing directory.
bool IsDirectory(const std::string& path);
// True when `path` names an existing file of any kind.
bool PathExists(const std::string& path);
// Reads a whole (small) text file; the error names the path.
Status ReadTextFile(const std::string& path, std::string* out);

}  // namespace lngrad::io
