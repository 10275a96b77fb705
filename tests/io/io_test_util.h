// Helpers of the file tests (tensor_file_test.cpp, dir_lock_test.cpp): a fresh directory per
// test, its listing, and whole-file reads and writes.
#pragma once

#include <gtest/gtest.h>

#include <dirent.h>
#include <stdlib.h>

#include <cstdlib>
#include <fstream>
#include <set>
#include <sstream>
#include <string>

#include "io/tensor_file.h"

namespace lngrad::io::test {

// A fresh directory per test, removed afterwards.
class TempDir {
 public:
  TempDir() {
    std::string tmpl = ::testing::TempDir() + "lngrad_io_XXXXXX";
    path_ = ::mkdtemp(tmpl.data()) ? tmpl : std::string();
  }
  ~TempDir() { std::system(("rm -rf '" + path_ + "'").c_str()); }
  const std::string& path() const { return path_; }
  std::string operator/(const std::string& name) const { return JoinPath(path_, name); }

 private:
  std::string path_;
};

// The names in `dir`, without "." and "..".
inline std::set<std::string> ListDir(const std::string& dir) {
  std::set<std::string> names;
  if (DIR* d = ::opendir(dir.c_str())) {
    while (dirent* e = ::readdir(d)) {
      const std::string n = e->d_name;
      if (n != "." && n != "..") names.insert(n);
    }
    ::closedir(d);
  }
  return names;
}

inline void WriteRaw(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary) << bytes;
}

inline std::string ReadRaw(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace lngrad::io::test
