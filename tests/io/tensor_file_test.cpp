// Files: .npy and .bin reading, and the all-or-nothing OutputSet.
#include <gtest/gtest.h>

#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <set>
#include <string>

#include "io/npy.h"
#include "io/tensor_file.h"

namespace lngrad::io {
namespace {

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

std::set<std::string> ListDir(const std::string& dir) {
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

void WriteRaw(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary) << bytes;
}

Tensor Ramp(DType dt, std::vector<int64_t> shape) {
  Tensor t(dt, std::move(shape));
  for (int64_t i = 0; i < t.size(); ++i) t.Set(i, 0.25 * static_cast<double>(i) - 2);
  return t;
}

TEST(TensorFile, FormatFromTheFileName) {
  EXPECT_EQ(FormatOfPath("a/b.npy"), FileFormat::kNpy);
  EXPECT_EQ(FormatOfPath("B.NPY"), FileFormat::kNpy);
  EXPECT_EQ(FormatOfPath("input_x.bin"), FileFormat::kBin);
  EXPECT_EQ(FormatOfPath("npy"), FileFormat::kBin);
}

TEST(TensorFile, WritesAndReadsNpyAndBin) {
  TempDir dir;
  const Tensor a = Ramp(DType::kFloat16, {2, 3, 16});
  const Tensor b = Ramp(DType::kFloat32, {5});
  {
    OutputSet out(dir.path(), false);
    ASSERT_TRUE(out.Open().ok());
    ASSERT_TRUE(out.AddTensor("a.npy", a, FileFormat::kNpy).ok());
    ASSERT_TRUE(out.AddTensor("b.bin", b, FileFormat::kBin).ok());
    ASSERT_TRUE(out.Commit().ok());
    EXPECT_EQ(out.Paths().size(), 2u);
  }
  EXPECT_EQ(ListDir(dir.path()), (std::set<std::string>{"a.npy", "b.bin"}));
  struct stat st {};
  ASSERT_EQ(::stat((dir / "b.bin").c_str(), &st), 0);
  EXPECT_EQ(st.st_size, 20);
  EXPECT_EQ(st.st_mode & 0777, 0644u);

  Tensor ra;
  ASSERT_TRUE(ReadNpyFile(dir / "a.npy", &ra).ok());
  EXPECT_EQ(ra.dtype(), DType::kFloat16);
  EXPECT_EQ(ra.shape(), a.shape());
  for (int64_t i = 0; i < a.size(); ++i) ASSERT_EQ(ra.Get(i), a.Get(i));
  Tensor rb;
  ASSERT_TRUE(ReadBinFile(dir / "b.bin", DType::kFloat32, {5}, &rb).ok());
  for (int64_t i = 0; i < b.size(); ++i) ASSERT_EQ(rb.Get(i), b.Get(i));
  // The same bytes are also 10 halves.
  ASSERT_TRUE(ReadBinFile(dir / "b.bin", DType::kFloat16, {2, 5}, &rb).ok());
}

TEST(TensorFile, ReadErrorsNameTheFileAndTheRule) {
  TempDir dir;
  WriteRaw(dir / "seven.bin", std::string(7, '\0'));
  WriteRaw(dir / "eight.bin", std::string(8, '\0'));
  WriteRaw(dir / "junk.npy", "hello world, not numpy");
  const std::string full = EncodeNpy(Ramp(DType::kFloat32, {4}));
  WriteRaw(dir / "short.npy", full.substr(0, full.size() - 3));
  WriteRaw(dir / "short_header.npy", full.substr(0, 70));
  ::mkdir((dir / "sub.npy").c_str(), 0755);
  Tensor t;
  Status st = ReadBinFile(dir / "seven.bin", DType::kFloat32, {2}, &t);
  EXPECT_NE(st.message().find("size mismatch"), std::string::npos) << st.message();
  EXPECT_NE(st.message().find("needs 8 bytes, the file has 7"), std::string::npos);
  EXPECT_NE(st.message().find("not a whole number"), std::string::npos);
  st = ReadBinFile(dir / "eight.bin", DType::kFloat32, {3}, &t);
  EXPECT_NE(st.message().find("(2 elements)"), std::string::npos) << st.message();
  st = ReadNpyFile(dir / "missing.npy", &t);
  EXPECT_NE(st.message().find("missing.npy"), std::string::npos);
  EXPECT_NE(st.message().find("No such file"), std::string::npos) << st.message();
  st = ReadNpyFile(dir / "junk.npy", &t);
  EXPECT_NE(st.message().find("not a .npy file"), std::string::npos) << st.message();
  st = ReadNpyFile(dir / "short.npy", &t);
  EXPECT_NE(st.message().find("truncated data"), std::string::npos) << st.message();
  st = ReadNpyFile(dir / "short_header.npy", &t);
  EXPECT_NE(st.message().find("truncated .npy header"), std::string::npos) << st.message();
  st = ReadNpyFile(dir / "sub.npy", &t);
  EXPECT_NE(st.message().find("directory"), std::string::npos) << st.message();
}

TEST(TensorFile, ReadsTheSmallestValidHeader) {
  // A hand-made 1.0 file whose dict is shorter than the 12 bytes read first.
  TempDir dir;
  std::string dict = "{'descr':'<f4','fortran_order':False,'shape':(1,)}";
  std::string f = std::string("\x93NUMPY\x01\x00", 8);
  f += static_cast<char>(dict.size());
  f += '\0';
  f += dict;
  const float v = 3.5f;
  f.append(reinterpret_cast<const char*>(&v), 4);
  WriteRaw(dir / "tiny.npy", f);
  Tensor t;
  ASSERT_TRUE(ReadNpyFile(dir / "tiny.npy", &t).ok());
  EXPECT_EQ(t.Get(0), 3.5);
}

TEST(OutputSet, NothingAppearsUntilCommit) {
  TempDir dir;
  {
    OutputSet out(dir.path(), false);
    ASSERT_TRUE(out.Open().ok());
    ASSERT_TRUE(out.AddBytes("m.json", "{}").ok());
    // Only the temporary exists, under a hidden name.
    const auto names = ListDir(dir.path());
    ASSERT_EQ(names.size(), 1u);
    EXPECT_EQ(names.begin()->rfind(".m.json.tmp-", 0), 0u) << *names.begin();
  }
  EXPECT_TRUE(ListDir(dir.path()).empty());
}

TEST(OutputSet, CommitRefusesADirectoryTargetAndRenamesNothing) {
  TempDir dir;
  WriteRaw(dir / "a.bin", "old");
  ::mkdir((dir / "b.bin").c_str(), 0755);
  OutputSet out(dir.path(), false);
  ASSERT_TRUE(out.Open().ok());
  ASSERT_TRUE(out.AddBytes("a.bin", "new").ok());
  ASSERT_TRUE(out.AddBytes("b.bin", "new").ok());
  const Status st = out.Commit();
  EXPECT_FALSE(st.ok());
  EXPECT_NE(st.message().find("a directory of that name exists"), std::string::npos);
  EXPECT_EQ(ListDir(dir.path()), (std::set<std::string>{"a.bin", "b.bin"}));
  std::ifstream in(dir / "a.bin");
  std::string content;
  in >> content;
  EXPECT_EQ(content, "old");
}

TEST(OutputSet, DirectoryChecks) {
  TempDir dir;
  WriteRaw(dir / "file", "x");
  OutputSet not_dir(dir / "file", true);
  Status st = not_dir.Open();
  EXPECT_NE(st.message().find("is not a directory"), std::string::npos) << st.message();

  OutputSet under_file(dir / "file/sub", true);
  st = under_file.Open();
  EXPECT_NE(st.message().find("cannot create output directory"), std::string::npos) << st.message();

  OutputSet missing(dir / "nope", false);
  EXPECT_FALSE(missing.Open().ok());

  OutputSet nested(dir / "x/y/z", true);
  ASSERT_TRUE(nested.Open().ok());
  EXPECT_TRUE(IsDirectory(dir / "x/y/z"));
  EXPECT_FALSE(nested.AddBytes("a/b", "x").ok());
  EXPECT_FALSE(nested.AddBytes("", "x").ok());

  // A directory in which nothing can be created (procfs refuses new files even for root).
  OutputSet proc("/proc/self", false);
  ASSERT_TRUE(proc.Open().ok());
  st = proc.AddBytes("x.bin", "x");
  EXPECT_NE(st.message().find("cannot write into output directory '/proc/self'"), std::string::npos)
      << st.message();
}

}  // namespace
}  // namespace lngrad::io
