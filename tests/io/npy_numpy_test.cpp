// Reads .npy files written by NumPy (numpy_files.py write, run as a CTest fixture that sets
// LNGRAD_NUMPY_DIR) and checks them against the shared formula; NumPy's refusable files must
// be refused with the right message.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <string>

#include "io/tensor_file.h"
#include "numpy_samples.h"

namespace lngrad::io {
namespace {

std::string Dir() {
  const char* d = std::getenv("LNGRAD_NUMPY_DIR");
  return d ? d : "";
}

TEST(NumpyFiles, FixtureDirectoryIsSet) { ASSERT_FALSE(Dir().empty()) << "LNGRAD_NUMPY_DIR"; }

TEST(NumpyFiles, ReadsEveryDtypeVersionAndShape) {
  ASSERT_FALSE(Dir().empty());
  const std::pair<const char*, DType> dtypes[] = {
      {"f2", DType::kFloat16}, {"f4", DType::kFloat32}, {"f8", DType::kFloat64}};
  int files = 0;
  for (const auto& [dt_name, dt] : dtypes) {
    for (int version : {1, 2, 3}) {
      for (const auto& [name, shape] : samples::Shapes()) {
        const std::string path = JoinPath(
            Dir(), std::string(dt_name) + "_v" + std::to_string(version) + "_" + name + ".npy");
        Tensor t;
        const Status st = ReadNpyFile(path, &t);
        ASSERT_TRUE(st.ok()) << st.ToString();
        EXPECT_EQ(t.dtype(), dt) << path;
        EXPECT_EQ(t.shape(), shape) << path;
        for (int64_t i = 0; i < t.size(); ++i) ASSERT_EQ(t.Get(i), samples::Value(i)) << path;
        ++files;
      }
    }
  }
  EXPECT_EQ(files, 45);
}

TEST(NumpyFiles, ReadsSpecialValuesBitForBit) {
  ASSERT_FALSE(Dir().empty());
  for (const char* dt : {"f2", "f4"}) {
    Tensor t;
    ASSERT_TRUE(ReadNpyFile(JoinPath(Dir(), std::string("specials_") + dt + ".npy"), &t).ok());
    const std::vector<double> want = samples::Specials(dt);
    ASSERT_EQ(t.size(), static_cast<int64_t>(want.size()));
    for (size_t i = 0; i < want.size(); ++i) {
      const double got = t.Get(static_cast<int64_t>(i));
      if (std::isnan(want[i])) {
        EXPECT_TRUE(std::isnan(got)) << dt << " " << i;
      } else {
        EXPECT_EQ(got, want[i]) << dt << " " << i;
        EXPECT_EQ(std::signbit(got), std::signbit(want[i])) << dt << " " << i;
      }
    }
  }
}

TEST(NumpyFiles, RefusesWhatItCannotRead) {
  ASSERT_FALSE(Dir().empty());
  const std::pair<const char*, const char*> cases[] = {
      {"fortran.npy", "Fortran-order"},
      {"bigendian.npy", "big-endian"},
      {"int32.npy", "dtype '<i4' is not supported"},
      {"complex64.npy", "dtype '<c8' is not supported"},
      {"structured.npy", "structured"},
      {"object.npy", "dtype '|O' is not supported"},
      {"truncated.npy", "truncated data"},
  };
  for (const auto& [file, expect] : cases) {
    Tensor t;
    const Status st = ReadNpyFile(JoinPath(Dir(), file), &t);
    EXPECT_FALSE(st.ok()) << file;
    EXPECT_NE(st.message().find(expect), std::string::npos) << file << ": " << st.message();
  }
}

}  // namespace
}  // namespace lngrad::io
