// The commit journal, stale temporaries and the readers' shared lock (io/dir_lock.h).
#include "io/dir_lock.h"

#include <gtest/gtest.h>

#include <dirent.h>
#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <set>
#include <sstream>
#include <string>

#include "io/tensor_file.h"

namespace lngrad::io {
namespace {

class TempDir {
 public:
  TempDir() {
    std::string tmpl = ::testing::TempDir() + "lngrad_dirlock_XXXXXX";
    path_ = ::mkdtemp(tmpl.data()) ? tmpl : std::string();
  }
  ~TempDir() { std::system(("rm -rf '" + path_ + "'").c_str()); }
  std::string operator/(const std::string& name) const { return JoinPath(path_, name); }
  const std::string& path() const { return path_; }

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

void Write(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary) << bytes;
}

std::string Read(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

TEST(DirLock, TemporaryNames) {
  EXPECT_TRUE(IsTemporaryName(".pd_x.npy.tmp-Ab12Cd"));
  EXPECT_TRUE(IsTemporaryName(".lngrad-commit.tmp-000000"));
  EXPECT_FALSE(IsTemporaryName("pd_x.npy"));
  EXPECT_FALSE(IsTemporaryName(".lngrad-commit"));
  EXPECT_FALSE(IsTemporaryName(".tmp-Ab12Cd"));
  EXPECT_FALSE(IsTemporaryName(".a.tmp-Ab12C"));
}

// What a writer killed after its commit point leaves: the journal and some temporaries. The next
// writer completes the renames and removals, then removes the stale temporaries of others.
TEST(DirLock, TheNextWriterCompletesAnInterruptedCommit) {
  TempDir dir;
  Write(dir / "a.bin", "old a");
  Write(dir / "b.bin", "new b");                  // renamed before the kill
  Write(dir / ".a.bin.tmp-AAAAAA", "new a");      // not yet
  Write(dir / "output_old.bin", "replaced set");  // to be removed
  Write(dir / ".c.bin.tmp-ZZZZZZ", "a killed writer's, before its commit point");
  Write(dir / ".lngrad-commit",
        "lngrad-commit/1\nR\t.a.bin.tmp-AAAAAA\ta.bin\nR\t.b.bin.tmp-BBBBBB\tb.bin\n"
        "D\toutput_old.bin\nend\n");
  OutputSet out(dir.path(), false);
  ASSERT_TRUE(out.Open().ok());
  EXPECT_EQ(ListDir(dir.path()), (std::set<std::string>{"a.bin", "b.bin"}));
  EXPECT_EQ(Read(dir / "a.bin"), "new a");
  EXPECT_EQ(Read(dir / "b.bin"), "new b");
}

TEST(DirLock, AReaderCompletesAnInterruptedCommitAndHoldsTheLockShared) {
  TempDir dir;
  Write(dir / ".a.bin.tmp-AAAAAA", "new a");
  Write(dir / ".lngrad-commit", "lngrad-commit/1\nR\t.a.bin.tmp-AAAAAA\ta.bin\nend\n");
  {
    DirectoryReadLocks locks;
    // The same directory under two names is locked once (twice would wait for itself).
    ASSERT_TRUE(locks.Acquire({dir.path(), dir.path() + "/."}, {}, {}).ok());
    EXPECT_EQ(ListDir(dir.path()), (std::set<std::string>{"a.bin"}));
    const int fd = ::open(dir.path().c_str(), O_RDONLY | O_DIRECTORY);
    EXPECT_EQ(::flock(fd, LOCK_SH | LOCK_NB), 0);  // shared: another reader gets in
    ::flock(fd, LOCK_UN);
    EXPECT_NE(::flock(fd, LOCK_EX | LOCK_NB), 0);  // a writer waits
    ::close(fd);
  }
  const int fd = ::open(dir.path().c_str(), O_RDONLY | O_DIRECTORY);
  EXPECT_EQ(::flock(fd, LOCK_EX | LOCK_NB), 0);  // released
  ::close(fd);
}

TEST(DirLock, ACommitRemovesTheFilesOfTheSetItReplaces) {
  TempDir dir;
  Write(dir / "output_outputPdX.bin", "vendor-named");
  OutputSet out(dir.path(), false);
  ASSERT_TRUE(out.Open().ok());
  ASSERT_TRUE(out.AddBytes("pd_x.npy", "lngrad-named").ok());
  out.RemoveOnCommit("output_outputPdX.bin");
  EXPECT_EQ(ListDir(dir.path()).count("output_outputPdX.bin"), 1u);  // not before the commit
  ASSERT_TRUE(out.Commit().ok());
  EXPECT_EQ(ListDir(dir.path()), (std::set<std::string>{"pd_x.npy"}));
}

TEST(DirLock, AMalformedJournalIsAnErrorNamingIt) {
  TempDir dir;
  Write(dir / ".lngrad-commit", "lngrad-commit/1\nR\t../escape\ta.bin\nend\n");
  OutputSet out(dir.path(), false);
  const Status st = out.Open();
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.message().find(".lngrad-commit' is not a complete lngrad commit journal"),
            std::string::npos)
      << st.message();
}

}  // namespace
}  // namespace lngrad::io
