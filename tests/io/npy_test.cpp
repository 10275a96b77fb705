// .npy header and data encoding/decoding (io/npy.h). Files are built by hand here (not with
// EncodeNpyHeader) so that the reader is checked against the format, not against our writer.
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "io/npy.h"

namespace lngrad::io {
namespace {

// A .npy file with the given dict text, version and data bytes; the header is padded so that
// the data starts at a multiple of 64 (version 1 uses a 2-byte length, 2 and 3 a 4-byte one).
std::string MakeNpy(const std::string& dict, int version, const std::string& data) {
  const size_t len_bytes = version == 1 ? 2 : 4;
  size_t total = 8 + len_bytes + dict.size() + 1;
  total = (total + 63) / 64 * 64;
  const size_t header_len = total - 8 - len_bytes;
  std::string f = "\x93NUMPY";
  f += static_cast<char>(version);
  f += '\0';
  for (size_t i = 0; i < len_bytes; ++i) f += static_cast<char>((header_len >> (8 * i)) & 0xFF);
  f += dict;
  f.append(total - f.size() - 1, ' ');
  f += '\n';
  return f + data;
}

std::string FloatBytes(const std::vector<float>& v) {
  std::string s(v.size() * 4, '\0');
  std::memcpy(s.data(), v.data(), s.size());  // the test host is little-endian (x86/arm64)
  return s;
}

Status Decode(const std::string& bytes, Tensor* t) { return DecodeNpy(bytes, "'t.npy'", t); }

TEST(NpyDecode, ReadsFloat32AllVersions) {
  for (int version : {1, 2, 3}) {
    const std::string f = MakeNpy("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }",
                                  version, FloatBytes({1, 2, 3, 4, 5, -6.5f}));
    Tensor t;
    ASSERT_TRUE(Decode(f, &t).ok()) << version;
    EXPECT_EQ(t.dtype(), DType::kFloat32);
    EXPECT_EQ(t.shape(), (std::vector<int64_t>{2, 3}));
    EXPECT_EQ(t.Get(5), -6.5);
    EXPECT_EQ(t.Get(0), 1.0);
  }
}

TEST(NpyDecode, ReadsHalfAndDouble) {
  // 0x3C00 = 1.0, 0xC000 = -2.0, 0x7BFF = 65504 in binary16.
  const std::string half_data("\x00\x3C\x00\xC0\xFF\x7B", 6);
  Tensor h;
  ASSERT_TRUE(
      Decode(MakeNpy("{'descr': '<f2', 'fortran_order': False, 'shape': (3,), }", 1, half_data), &h)
          .ok());
  EXPECT_EQ(h.dtype(), DType::kFloat16);
  EXPECT_EQ(h.Get(0), 1.0);
  EXPECT_EQ(h.Get(1), -2.0);
  EXPECT_EQ(h.Get(2), 65504.0);

  const double d[2] = {0.1, -1e300};
  std::string dd(16, '\0');
  std::memcpy(dd.data(), d, 16);
  Tensor t;
  ASSERT_TRUE(
      Decode(MakeNpy("{'descr': '<f8', 'fortran_order': False, 'shape': (1, 2), }", 1, dd), &t)
          .ok());
  EXPECT_EQ(t.dtype(), DType::kFloat64);
  EXPECT_EQ(t.Get(0), 0.1);
  EXPECT_EQ(t.Get(1), -1e300);
}

TEST(NpyDecode, AcceptsScalarsEmptyArraysKeyOrderQuotesAndPython2Longs) {
  Tensor t;
  ASSERT_TRUE(
      Decode(MakeNpy("{'descr': '<f4', 'fortran_order': False, 'shape': (), }", 1, FloatBytes({7})),
             &t)
          .ok());
  EXPECT_TRUE(t.shape().empty());
  EXPECT_EQ(t.size(), 1);
  EXPECT_EQ(t.Get(0), 7.0);

  ASSERT_TRUE(
      Decode(MakeNpy("{'descr': '<f4', 'fortran_order': False, 'shape': (0, 3), }", 1, ""), &t)
          .ok());
  EXPECT_EQ(t.size(), 0);

  ASSERT_TRUE(Decode(MakeNpy("{\"shape\": (2L, 1L), \"fortran_order\": False, \"descr\": \"<f4\"}",
                             1, FloatBytes({1, 2})),
                     &t)
                  .ok());
  EXPECT_EQ(t.shape(), (std::vector<int64_t>{2, 1}));
}

TEST(NpyDecode, FortranOrderOnlyWhenTheLayoutIsTheSame) {
  Tensor t;
  // One dimension > 1: Fortran and C order are the same bytes.
  EXPECT_TRUE(Decode(MakeNpy("{'descr': '<f4', 'fortran_order': True, 'shape': (1, 3), }", 1,
                             FloatBytes({1, 2, 3})),
                     &t)
                  .ok());
  const Status st = Decode(MakeNpy("{'descr': '<f4', 'fortran_order': True, 'shape': (2, 3), }", 1,
                                   FloatBytes({1, 2, 3, 4, 5, 6})),
                           &t);
  EXPECT_FALSE(st.ok());
  EXPECT_NE(st.message().find("Fortran-order"), std::string::npos) << st.message();
}

struct BadCase {
  const char* what;
  std::string file;
  const char* expect;  // substring of the message
};

TEST(NpyDecode, RefusesBadFilesWithAClearMessage) {
  const std::string ok_dict = "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }";
  const std::string two = FloatBytes({1, 2});
  std::string v4 = MakeNpy(ok_dict, 1, two);
  v4[6] = 4;
  std::string minor = MakeNpy(ok_dict, 1, two);
  minor[7] = 1;
  const std::vector<BadCase> cases = {
      {"not npy", "PK\x03\x04 zip file", "not a .npy file"},
      {"empty", "", "truncated"},
      {"magic only", "\x93NUMPY", "truncated"},
      {"version 4", v4, "version 4.0"},
      {"minor 1", minor, "version 1.1"},
      {"big-endian", MakeNpy("{'descr': '>f4', 'fortran_order': False, 'shape': (2,), }", 1, two),
       "big-endian"},
      {"native order", MakeNpy("{'descr': '=f4', 'fortran_order': False, 'shape': (2,), }", 1, two),
       "byte order"},
      {"int32", MakeNpy("{'descr': '<i4', 'fortran_order': False, 'shape': (2,), }", 1, two),
       "dtype '<i4' is not supported"},
      {"bytes", MakeNpy("{'descr': '|u1', 'fortran_order': False, 'shape': (8,), }", 1, two),
       "dtype '|u1' is not supported"},
      {"structured",
       MakeNpy("{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (2,), }", 1, two),
       "structured"},
      {"no shape", MakeNpy("{'descr': '<f4', 'fortran_order': False, }", 1, two), "no 'shape'"},
      {"no descr", MakeNpy("{'fortran_order': False, 'shape': (2,), }", 1, two), "no 'descr'"},
      {"no order", MakeNpy("{'descr': '<f4', 'shape': (2,), }", 1, two), "no 'fortran_order'"},
      {"repeated key",
       MakeNpy("{'descr': '<f4', 'descr': '<f4', 'fortran_order': False, 'shape': (2,), }", 1, two),
       "repeated key"},
      {"unknown key",
       MakeNpy("{'descr': '<f4', 'fortran_order': False, 'shape': (2,), 'x': 1}", 1, two),
       "unexpected key 'x'"},
      {"not a tuple", MakeNpy("{'descr': '<f4', 'fortran_order': False, 'shape': (2), }", 1, two),
       "not a tuple"},
      {"negative dim",
       MakeNpy("{'descr': '<f4', 'fortran_order': False, 'shape': (-2,), }", 1, two),
       "non-negative integer"},
      {"bad bool", MakeNpy("{'descr': '<f4', 'fortran_order': false, 'shape': (2,), }", 1, two),
       "True or False"},
      {"no brace", MakeNpy("'descr': '<f4', 'fortran_order': False, 'shape': (2,)", 1, two),
       "expected '{'"},
      {"text after dict",
       MakeNpy("{'descr': '<f4', 'fortran_order': False, 'shape': (2,), } x", 1, two),
       "after the dict"},
      {"truncated data", MakeNpy(ok_dict, 1, two.substr(0, 7)), "truncated data"},
      {"trailing bytes", MakeNpy(ok_dict, 1, two + "x"), "trailing bytes"},
      {"huge shape",
       MakeNpy("{'descr': '<f4', 'fortran_order': False, 'shape': (1048576, 1048576, 2), }", 1,
               two),
       "2^40"},
      {"huge dim",
       MakeNpy("{'descr': '<f4', 'fortran_order': False, 'shape': (99999999999999999999,), }", 1,
               two),
       "larger than 2^40"},
  };
  for (const BadCase& c : cases) {
    Tensor t;
    const Status st = Decode(c.file, &t);
    EXPECT_FALSE(st.ok()) << c.what;
    EXPECT_NE(st.message().find(c.expect), std::string::npos)
        << c.what << ": message was: " << st.message();
    EXPECT_NE(st.message().find("'t.npy'"), std::string::npos) << c.what << ": names the file";
  }
}

TEST(NpyDecode, EveryTruncationOfAValidFileIsAnError) {
  const std::string f = MakeNpy("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }", 1,
                                FloatBytes({1, 2, 3, 4, 5, 6}));
  for (size_t n = 0; n < f.size(); ++n) {
    Tensor t;
    const Status st = Decode(f.substr(0, n), &t);
    EXPECT_FALSE(st.ok()) << "prefix of " << n << " bytes";
    EXPECT_NE(st.message().find("truncated"), std::string::npos) << n << ": " << st.message();
  }
}

TEST(NpyDecode, RandomCorruptionNeverCrashes) {
  const std::string f = MakeNpy("{'descr': '<f2', 'fortran_order': False, 'shape': (4, 2), }", 2,
                                std::string(16, '\x11'));
  std::mt19937 rng(12345);
  int accepted = 0;
  for (int i = 0; i < 4000; ++i) {
    std::string g = f;
    const int edits = 1 + static_cast<int>(rng() % 3);
    for (int e = 0; e < edits; ++e) {
      g[rng() % 80] = static_cast<char>(rng() & 0xFF);  // the header region
    }
    Tensor t;
    if (Decode(g, &t).ok()) {
      ++accepted;
      // Whatever was accepted must fit in the file it came from.
      EXPECT_LE(t.ByteSize(), g.size());
    }
  }
  // Most single-byte edits land in the padding or a digit; some must be refused.
  EXPECT_LT(accepted, 4000);
}

TEST(NpyEncode, HeaderIsAlignedAndReadable) {
  const std::string h = EncodeNpyHeader(DType::kFloat32, {2, 3});
  ASSERT_GE(h.size(), 10u);
  EXPECT_EQ(h.substr(0, 6), "\x93NUMPY");
  EXPECT_EQ(h[6], 1);
  EXPECT_EQ(h[7], 0);
  EXPECT_EQ(h.size() % 64, 0u);
  EXPECT_EQ(h.back(), '\n');
  const size_t len = static_cast<unsigned char>(h[8]) | (static_cast<unsigned char>(h[9]) << 8);
  EXPECT_EQ(len + 10, h.size());
  EXPECT_NE(h.find("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }"),
            std::string::npos)
      << h;
  EXPECT_NE(EncodeNpyHeader(DType::kFloat16, {5}).find("'shape': (5,)"), std::string::npos);
  EXPECT_NE(EncodeNpyHeader(DType::kFloat64, {}).find("'descr': '<f8'"), std::string::npos);
  EXPECT_NE(EncodeNpyHeader(DType::kFloat64, {}).find("'shape': ()"), std::string::npos);
}

TEST(NpyEncode, RoundTripsEveryDtypeShapeAndVersion) {
  const std::vector<std::vector<int64_t>> shapes = {{}, {1}, {7}, {2, 3, 4}, {0, 5}, {3, 1, 1, 2}};
  for (DType dt : {DType::kFloat16, DType::kFloat32, DType::kFloat64}) {
    for (const auto& shape : shapes) {
      for (int version : {0, 1, 2, 3}) {
        Tensor t(dt, shape);
        for (int64_t i = 0; i < t.size(); ++i) t.Set(i, (static_cast<double>(i) - 3.0) * 0.375);
        const std::string f = EncodeNpy(t, version);
        EXPECT_EQ(f[6], version == 0 ? 1 : version);
        Tensor back;
        ASSERT_TRUE(Decode(f, &back).ok()) << ShapeText(shape) << " v" << version;
        EXPECT_EQ(back.dtype(), dt);
        EXPECT_EQ(back.shape(), shape);
        for (int64_t i = 0; i < t.size(); ++i) EXPECT_EQ(back.Get(i), t.Get(i));
      }
    }
  }
}

TEST(NpyEncode, PicksVersion2WhenTheHeaderOutgrows16Bits) {
  const std::vector<int64_t> shape(30000, 1);  // "1, " x 30000 > 65535 header bytes
  const std::string h = EncodeNpyHeader(DType::kFloat32, shape);
  EXPECT_EQ(h[6], 2);
  EXPECT_EQ(h.size() % 64, 0u);
  Tensor t(DType::kFloat32, shape);
  t.Set(0, 2.5);
  Tensor back;
  ASSERT_TRUE(Decode(EncodeNpy(t), &back).ok());
  EXPECT_EQ(back.shape().size(), 30000u);
  EXPECT_EQ(back.Get(0), 2.5);
  EXPECT_EQ(EncodeNpyHeader(DType::kFloat32, std::vector<int64_t>(100, 1))[6], 1);
}

}  // namespace
}  // namespace lngrad::io
