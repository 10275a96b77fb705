// The commit journal, stale temporaries and the readers' shared lock (io/dir_lock.h).
#include "io/dir_lock.h"

#include <gtest/gtest.h>

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <set>
#include <string>

#include "io/tensor_file.h"
#include "io_test_util.h"

namespace lngrad::io {
namespace {

using test::ListDir;
using test::ReadRaw;
using test::TempDir;
using test::WriteRaw;

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
  WriteRaw(dir / "a.bin", "old a");
  WriteRaw(dir / "b.bin", "new b");                  // renamed before the kill
  WriteRaw(dir / ".a.bin.tmp-AAAAAA", "new a");      // not yet
  WriteRaw(dir / "output_old.bin", "replaced set");  // to be removed
  WriteRaw(dir / ".c.bin.tmp-ZZZZZZ", "a killed writer's, before its commit point");
  WriteRaw(dir / ".lngrad-commit",
           "lngrad-commit/1\nR\t.a.bin.tmp-AAAAAA\ta.bin\nR\t.b.bin.tmp-BBBBBB\tb.bin\n"
           "D\toutput_old.bin\nend\n");
  OutputSet out(dir.path(), false);
  ASSERT_TRUE(out.Open().ok());
  EXPECT_EQ(ListDir(dir.path()), (std::set<std::string>{"a.bin", "b.bin"}));
  EXPECT_EQ(ReadRaw(dir / "a.bin"), "new a");
  EXPECT_EQ(ReadRaw(dir / "b.bin"), "new b");
}

TEST(DirLock, AReaderCompletesAnInterruptedCommitAndHoldsTheLockShared) {
  TempDir dir;
  WriteRaw(dir / ".a.bin.tmp-AAAAAA", "new a");
  WriteRaw(dir / ".lngrad-commit", "lngrad-commit/1\nR\t.a.bin.tmp-AAAAAA\ta.bin\nend\n");
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
  WriteRaw(dir / "output_outputPdX.bin", "vendor-named");
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
  WriteRaw(dir / ".lngrad-commit", "lngrad-commit/1\nR\t../escape\ta.bin\nend\n");
  OutputSet out(dir.path(), false);
  const Status st = out.Open();
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.message().find(".lngrad-commit' is not a complete lngrad commit journal"),
            std::string::npos)
      << st.message();
}

}  // namespace
}  // namespace lngrad::io
