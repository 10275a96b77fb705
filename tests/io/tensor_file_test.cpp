// Files: .npy and .bin reading, and the all-or-nothing OutputSet.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <bit>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <set>
#include <string>
#include <thread>

#include "io/npy.h"
#include "io/tensor_file.h"
#include "io_test_util.h"

namespace lngrad::io {
namespace {

using test::ListDir;
using test::TempDir;
using test::WriteRaw;

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

TEST(TensorFile, BFloat16IsWrittenAndReadAsBinOnly) {
  TempDir dir;
  const Tensor a = Ramp(DType::kBFloat16, {3, 16});
  {
    OutputSet out(dir.path(), false);
    ASSERT_TRUE(out.Open().ok());
    const Status npy = out.AddTensor("a.npy", a, FileFormat::kNpy);
    EXPECT_EQ(npy.code(), StatusCode::kInvalidArgument);
    EXPECT_NE(npy.message().find("NumPy has no bfloat16 type"), std::string::npos) << npy.message();
    ASSERT_TRUE(out.AddTensor("a.bin", a, FileFormat::kBin).ok());
    ASSERT_TRUE(out.Commit().ok());
  }
  EXPECT_EQ(ListDir(dir.path()), (std::set<std::string>{"a.bin"}));
  Tensor r;
  ASSERT_TRUE(ReadBinFile(dir / "a.bin", DType::kBFloat16, {3, 16}, &r).ok());
  for (int64_t i = 0; i < a.size(); ++i) ASSERT_EQ(r.Get(i), a.Get(i));
  // The bytes are the top halves of the floats: read back as raw 16-bit codes.
  ASSERT_TRUE(ReadBinFile(dir / "a.bin", DType::kFloat16, {48}, &r).ok());
  for (int64_t i = 0; i < a.size(); ++i) {
    const float f = static_cast<float>(a.Get(i));
    ASSERT_EQ(r.f16()[static_cast<size_t>(i)].bits, std::bit_cast<uint32_t>(f) >> 16) << i;
  }
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

TEST(TensorFile, ReadsANpyHeaderWithoutTheData) {
  TempDir dir;
  WriteRaw(dir / "a.npy", EncodeNpy(Ramp(DType::kFloat16, {3, 5})));
  DType dt = DType::kFloat32;
  std::vector<int64_t> shape;
  ASSERT_TRUE(ReadNpyFileHeader(dir / "a.npy", &dt, &shape).ok());
  EXPECT_EQ(dt, DType::kFloat16);
  EXPECT_EQ(shape, (std::vector<int64_t>{3, 5}));
  // The same size check as ReadNpyFile: a truncated file is refused.
  const std::string bytes = EncodeNpy(Ramp(DType::kFloat32, {4}));
  WriteRaw(dir / "short.npy", bytes.substr(0, bytes.size() - 1));
  const Status st = ReadNpyFileHeader(dir / "short.npy", &dt, &shape);
  EXPECT_NE(st.message().find("truncated data"), std::string::npos) << st.message();
}

TEST(OutputSet, RemovesTheDirectoriesItCreatedUnlessCommitted) {
  TempDir dir;
  {
    OutputSet out(dir / "a/b/c", true);
    ASSERT_TRUE(out.Open().ok());
    EXPECT_TRUE(out.created_dir());
    ASSERT_TRUE(out.AddBytes("m.json", "{}").ok());
  }
  // Every level it made is gone; the directory that was there stays.
  EXPECT_TRUE(IsDirectory(dir.path()));
  EXPECT_TRUE(ListDir(dir.path()).empty());

  ::mkdir((dir / "a").c_str(), 0755);
  {
    OutputSet out(dir / "a/b", true);
    ASSERT_TRUE(out.Open().ok());
    EXPECT_FALSE(out.AddBytes("x/y", "{}").ok());  // a failure before the commit
  }
  EXPECT_EQ(ListDir(dir.path()), (std::set<std::string>{"a"}));
  EXPECT_TRUE(ListDir(dir / "a").empty());

  {
    OutputSet out(dir / "a/b", true);
    ASSERT_TRUE(out.Open().ok());
    ASSERT_TRUE(out.AddBytes("m.json", "{}").ok());
    ASSERT_TRUE(out.Commit().ok());
  }
  EXPECT_EQ(ListDir(dir / "a/b"), (std::set<std::string>{"m.json"}));

  OutputSet existing(dir.path(), true);
  ASSERT_TRUE(existing.Open().ok());
  EXPECT_FALSE(existing.created_dir());
}

// A write that fails half way (the file size limit fails write() as a full disk does) removes
// the temporaries and the directory the set created. In a child process: the limit and the
// ignored SIGXFSZ must not reach the other tests.
TEST(OutputSet, AFailedWriteLeavesNoNewDirectory) {
  TempDir dir;
  const pid_t pid = ::fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    ::signal(SIGXFSZ, SIG_IGN);
    struct rlimit rl {};
    ::getrlimit(RLIMIT_FSIZE, &rl);
    rl.rlim_cur = 4096;
    ::setrlimit(RLIMIT_FSIZE, &rl);
    int code = 0;
    {
      OutputSet out(dir / "new/sub", true);
      if (!out.Open().ok()) code = 10;
      if (!out.AddBytes("small.bin", "x").ok()) code = 11;
      const Status st = out.AddBytes("large.bin", std::string(100000, 'x'));
      if (st.ok() || st.message().find("File too large") == std::string::npos) code = 12;
    }
    ::_exit(code);
  }
  int status = 0;
  ASSERT_EQ(::waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0);
  EXPECT_TRUE(ListDir(dir.path()).empty());
}

TEST(OutputSet, WaitsForAnotherSetOnTheSameDirectory) {
  TempDir dir;
  OutputSet first(dir.path(), false);
  ASSERT_TRUE(first.Open().ok());
  ASSERT_TRUE(first.AddBytes("a.bin", "first").ok());
  std::atomic<bool> waiting{false}, opened{false};
  std::thread second_thread([&] {
    OutputSet second(dir.path(), false);
    ASSERT_TRUE(second.Open([&] { waiting = true; }).ok());
    opened = true;
    // The first set's files are complete when the second one gets the directory.
    EXPECT_EQ(ListDir(dir.path()), (std::set<std::string>{"a.bin"}));
    ASSERT_TRUE(second.AddBytes("a.bin", "second").ok());
    ASSERT_TRUE(second.Commit().ok());
  });
  for (int i = 0; i < 2000 && !waiting; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  EXPECT_TRUE(waiting);
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_FALSE(opened);
  ASSERT_TRUE(first.Commit().ok());
  second_thread.join();
  EXPECT_TRUE(opened);
  std::ifstream in(dir / "a.bin");
  std::string content;
  in >> content;
  EXPECT_EQ(content, "second");
  // Committed: the lock is free again.
  const int fd = ::open(dir.path().c_str(), O_RDONLY | O_DIRECTORY);
  EXPECT_EQ(::flock(fd, LOCK_EX | LOCK_NB), 0);
  ::close(fd);
}

// A set whose directory was removed and made again while it waited locks the new one.
TEST(OutputSet, LocksTheDirectoryTheNameMeansAfterTheWait) {
  TempDir dir;
  std::atomic<bool> waiting{false};
  auto first = std::make_unique<OutputSet>(dir / "d", true);
  ASSERT_TRUE(first->Open().ok());
  std::thread second_thread([&] {
    OutputSet second(dir / "d", true);
    ASSERT_TRUE(second.Open([&] { waiting = true; }).ok());
    ASSERT_TRUE(second.AddBytes("b.bin", "b").ok());
    ASSERT_TRUE(second.Commit().ok());
  });
  for (int i = 0; i < 2000 && !waiting; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  EXPECT_TRUE(waiting);
  first.reset();  // uncommitted: removes the directory it created, then unlocks
  second_thread.join();
  EXPECT_EQ(ListDir(dir / "d"), (std::set<std::string>{"b.bin"}));
}

// The signal handler removes what an uncommitted set left and exits with 128 + the signal.
TEST(OutputSet, ASignalRemovesTheUnfinishedOutput) {
  TempDir dir;
  ::mkdir((dir / "kept").c_str(), 0755);
  WriteRaw(dir / "kept/old.bin", "old");
  for (const int sig : {SIGINT, SIGTERM}) {
    const pid_t pid = ::fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      InstallSignalCleanup("io_test");
      OutputSet fresh(dir / "new/sub", true);
      OutputSet existing(dir / "kept", false);
      if (!fresh.Open().ok() || !existing.Open().ok()) ::_exit(10);
      if (!fresh.AddBytes("a.bin", "a").ok() || !existing.AddBytes("old.bin", "new").ok()) {
        ::_exit(11);
      }
      ::raise(sig);
      ::_exit(12);
    }
    int status = 0;
    ASSERT_EQ(::waitpid(pid, &status, 0), pid);
    ASSERT_TRUE(WIFEXITED(status)) << "signal " << sig;
    EXPECT_EQ(WEXITSTATUS(status), 128 + sig);
    EXPECT_EQ(ListDir(dir.path()), (std::set<std::string>{"kept"}));
    EXPECT_EQ(ListDir(dir / "kept"), (std::set<std::string>{"old.bin"}));
  }
}

TEST(TensorFile, CanonicalPaths) {
  TempDir dir;
  WriteRaw(dir / "f", "x");
  ASSERT_EQ(::symlink("f", (dir / "link").c_str()), 0);
  const std::string f = CanonicalPath(dir / "f");
  ASSERT_FALSE(f.empty());
  EXPECT_EQ(CanonicalPath(dir / "link"), f);
  EXPECT_EQ(CanonicalPath(dir.path() + "/./f"), f);
  EXPECT_EQ(CanonicalPath(dir / "missing"), "");
}

}  // namespace
}  // namespace lngrad::io
