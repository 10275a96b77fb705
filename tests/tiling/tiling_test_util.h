// Helpers shared by the tiling tests.
#pragma once

#include <gtest/gtest.h>

#include <bit>
#include <cstring>
#include <iterator>
#include <optional>
#include <sstream>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "lngrad/product.h"
#include "tiling/tiling_api.h"

namespace lngrad::tiling::testing {

constexpr uint32_t kHalf = 2;
constexpr uint32_t kFloat = 4;

// A table entry that a case does not check.
constexpr uint32_t kUnchecked = 0xFFFFFFFF;

struct MaxMin {
  uint32_t max;
  uint32_t min;
};

// Selects a product for one test and restores the previous one afterwards.
class ScopedSoc {
 public:
  explicit ScopedSoc(std::string_view soc) : saved_(std::string(lngrad::CurrentProduct().soc)) {
    EXPECT_TRUE(lngrad::SetCurrentSoc(soc).ok()) << soc;
  }
  ~ScopedSoc() { EXPECT_TRUE(lngrad::SetCurrentSoc(saved_).ok()); }
  ScopedSoc(const ScopedSoc&) = delete;
  ScopedSoc& operator=(const ScopedSoc&) = delete;

 private:
  std::string saved_;
};

// Fixtures on the 2201 product (Ascend910B1) unless a test selects another.
class Ascend910B1Test : public ::testing::Test {
 protected:
  ScopedSoc soc_{"Ascend910B1"};
};
template <class Param>
class Ascend910B1ParamTest : public ::testing::TestWithParam<Param> {
 protected:
  ScopedSoc soc_{"Ascend910B1"};
};

#define LNGRAD_EXPECT_FIELD_EQ(type, name) EXPECT_EQ(actual.name, expected.name) << "field " #name;

inline void ExpectFieldsEq(const AscendC::tiling::LayerNormGradTiling& actual,
                           const AscendC::tiling::LayerNormGradTiling& expected) {
  LNGRAD_LAYERNORM_GRAD_TILING_FIELDS(LNGRAD_EXPECT_FIELD_EQ)
}
inline void ExpectFieldsEq(const AscendC::tiling::LayerNormGradBetaTiling& actual,
                           const AscendC::tiling::LayerNormGradBetaTiling& expected) {
  LNGRAD_LAYERNORM_GRAD_BETA_TILING_FIELDS(LNGRAD_EXPECT_FIELD_EQ)
}
inline void ExpectFieldsEq(const AscendC::tiling::LayerNormTiling& actual,
                           const AscendC::tiling::LayerNormTiling& expected) {
  LNGRAD_LAYERNORM_TILING_FIELDS(LNGRAD_EXPECT_FIELD_EQ)
}
#undef LNGRAD_EXPECT_FIELD_EQ

// A field's value by name, from the struct's field list (float fields as their bit pattern);
// nullopt when the struct has no such field.
inline uint64_t FieldBits(uint32_t v) { return v; }
inline uint64_t FieldBits(float v) { return std::bit_cast<uint32_t>(v); }
#define LNGRAD_FIELD_BY_NAME(type, field) \
  if (name == #field) return FieldBits(t.field);
inline std::optional<uint64_t> FieldByName(const AscendC::tiling::LayerNormGradTiling& t,
                                           std::string_view name) {
  LNGRAD_LAYERNORM_GRAD_TILING_FIELDS(LNGRAD_FIELD_BY_NAME)
  return std::nullopt;
}
inline std::optional<uint64_t> FieldByName(const AscendC::tiling::LayerNormGradBetaTiling& t,
                                           std::string_view name) {
  LNGRAD_LAYERNORM_GRAD_BETA_TILING_FIELDS(LNGRAD_FIELD_BY_NAME)
  return std::nullopt;
}
inline std::optional<uint64_t> FieldByName(const AscendC::tiling::LayerNormTiling& t,
                                           std::string_view name) {
  LNGRAD_LAYERNORM_TILING_FIELDS(LNGRAD_FIELD_BY_NAME)
  return std::nullopt;
}
#undef LNGRAD_FIELD_BY_NAME

// Some fields of a tiling and the values they must have, written "name=value name=value ..."
// (decimal values; float fields as their bit pattern).
template <class Tiling>
void ExpectFields(const Tiling& actual, std::string_view expected) {
  std::istringstream in{std::string(expected)};
  std::string item;
  while (in >> item) {
    const size_t eq = item.find('=');
    ASSERT_NE(eq, std::string::npos) << "not name=value: " << item;
    const std::string name = item.substr(0, eq);
    const std::optional<uint64_t> got = FieldByName(actual, name);
    ASSERT_TRUE(got.has_value()) << "no field " << name;
    EXPECT_EQ(*got, std::stoull(item.substr(eq + 1))) << "field " << name;
  }
}

// A struct whose every byte is `fill`, to detect any write.
template <class T>
T Poisoned(unsigned char fill = 0xA5) {
  T t;
  std::memset(static_cast<void*>(&t), fill, sizeof(T));
  return t;
}

template <class T>
bool SameBytes(const T& a, const T& b) {
  return std::memcmp(&a, &b, sizeof(T)) == 0;
}

// A plain tiling through the Status variant (which must succeed) and through the official
// overload (which must leave LastTilingStatus ok), into structs poisoned differently: both must
// write the same bytes. Returns the Status variant's.
template <class Tiling, class ViaStatus, class Official>
Tiling AgreeingTiling(ViaStatus via_status, Official official) {
  auto a = Poisoned<Tiling>();
  const Status s = via_status(a);
  EXPECT_TRUE(s.ok()) << s.ToString();
  auto b = Poisoned<Tiling>(0x11);
  official(b);
  EXPECT_TRUE(LastTilingStatus().ok()) << LastTilingStatus().ToString();
  EXPECT_TRUE(SameBytes(a, b));
  return a;
}

// A sizes query through the Status variant, via_status(max, min) (which must succeed), and
// through the official overload, official(max, min) (which must leave LastTilingStatus ok), into
// outputs poisoned differently: both must give the same sizes. Returns the Status variant's.
template <class ViaStatus, class Official>
MaxMin AgreeingMaxMin(ViaStatus via_status, Official official) {
  MaxMin a{1, 2};
  const Status s = via_status(a.max, a.min);
  EXPECT_TRUE(s.ok()) << s.ToString();
  MaxMin b{3, 4};
  official(b.max, b.min);
  EXPECT_TRUE(LastTilingStatus().ok()) << LastTilingStatus().ToString();
  EXPECT_EQ(a.max, b.max);
  EXPECT_EQ(a.min, b.min);
  return a;
}

inline bool Contains(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

// One sizes query and the sizes it must give (kUnchecked: not checked). `flag` is the query's
// bool argument: isReuseSource, or isComputeRstd for LayerNorm's [A, R] overload.
struct MaxMinCase {
  std::vector<int64_t> dims;
  uint32_t typeSize;
  bool flag;
  MaxMin want;
};

// Runs get(shape, typeSize, flag) for each case and checks the sizes it returns.
template <class Get, size_t N>
void ExpectMaxMins(Get get, const MaxMinCase (&cases)[N]) {
  for (const MaxMinCase& c : cases) {
    SCOPED_TRACE(::testing::Message() << "shape of " << c.dims.size()
                                      << " dims, dim 0 = " << (c.dims.empty() ? 0 : c.dims[0])
                                      << ", typeSize " << c.typeSize << ", flag " << c.flag);
    const MaxMin m = get(ge::Shape(c.dims), c.typeSize, c.flag);
    if (c.want.max != kUnchecked) {
      EXPECT_EQ(m.max, c.want.max);
    }
    if (c.want.min != kUnchecked) {
      EXPECT_EQ(m.min, c.want.min);
    }
  }
}

// The LayerNormGrad tiling a worked example expects: dims = {B, S, H, original H}, the loop
// fields as given, pos[9] = tmpTensorBSH, pdVar, pdMean, x1, x2, x3, tmp, tmp1, tmp2, and every
// size field oneCalSize (spec §2.1).
struct GradLoop {
  uint32_t loopNum, tailSize, nohTailSize;
};
inline AscendC::tiling::LayerNormGradTiling ExpectedGradTiling(const std::vector<int64_t>& dims,
                                                               uint32_t stack, uint32_t oneCalSize,
                                                               uint32_t nohCalSize, GradLoop loop,
                                                               const uint32_t (&pos)[9],
                                                               uint32_t lastDimValueBack,
                                                               uint32_t lastDimValueBackMulTwo) {
  AscendC::tiling::LayerNormGradTiling t;
  t.stackBufferSize = stack;
  t.bLength = static_cast<uint32_t>(dims[0]);
  t.sLength = static_cast<uint32_t>(dims[1]);
  t.hLength = static_cast<uint32_t>(dims[2]);
  t.originalHLength = static_cast<uint32_t>(dims[3]);
  t.oneCalSize = oneCalSize;
  t.nohCalSize = nohCalSize;
  t.loopNum = loop.loopNum;
  t.tailSize = loop.tailSize;
  t.nohTailSize = loop.nohTailSize;
  uint32_t* const positions[] = {&t.tmpTensorBSHPos, &t.pdVarTensorPos, &t.pdMeanTensorPos,
                                 &t.x1TensorPos,     &t.x2TensorPos,    &t.x3TensorPos,
                                 &t.tmpTensorPos,    &t.tmpTensor1Pos,  &t.tmpTensor2Pos};
  for (size_t i = 0; i < std::size(positions); ++i) *positions[i] = pos[i];
  t.tmpTensorBSHSize = t.pdVarTensorSize = t.pdMeanTensorSize = oneCalSize;
  t.x1TensorSize = t.x2TensorSize = t.x3TensorSize = oneCalSize;
  t.tmpTensorSize = t.tmpTensor1Size = t.tmpTensor2Size = oneCalSize;
  t.lastDimValueBack = lastDimValueBack;
  t.lastDimValueBackMulTwo = lastDimValueBackMulTwo;
  return t;
}

// A bad input to a tiling API: the device's log text, which our message must contain, and
// whether only the tiling call (not the sizes query) rejects it.
struct ErrorCase {
  const char* name;
  std::vector<int64_t> dims;
  uint32_t typeSize;
  uint32_t stack;
  StatusCode code;
  const char* message;
  bool tiling_only;
  // Stable CTest names (the default printer dumps pointer bytes).
  friend void PrintTo(const ErrorCase& c, std::ostream* os) { *os << c.name; }
};

// Test names for tables whose rows begin with `const char* name`.
struct CaseName {
  template <class Case>
  std::string operator()(const ::testing::TestParamInfo<Case>& info) const {
    return info.param.name;
  }
};

// The error of a MaxMinTmpSize Status variant: `s` carries c's code and "<prefix><message>",
// and the outputs the caller poisoned with 111 and 222 are untouched.
inline void ExpectMaxMinRejected(const ErrorCase& c, const Status& s, const std::string& prefix,
                                 uint32_t max, uint32_t min) {
  EXPECT_EQ(s.code(), c.code);
  EXPECT_TRUE(Contains(s.message(), prefix + c.message)) << s.message();
  EXPECT_EQ(max, 111u);
  EXPECT_EQ(min, 222u);
}

// The sizes query of an error case through its Status variant, status_fn(max, min) with both
// outputs poisoned (111, 222): a tiling-only case succeeds, any other is rejected as
// ExpectMaxMinRejected says. Returns whether the query was rejected.
template <class StatusFn>
bool ExpectMaxMinQuery(const ErrorCase& c, const std::string& prefix, StatusFn status_fn) {
  uint32_t max = 111;
  uint32_t min = 222;
  const Status ms = status_fn(max, min);
  if (c.tiling_only) {
    EXPECT_TRUE(ms.ok()) << ms.ToString();
    return false;
  }
  ExpectMaxMinRejected(c, ms, prefix, max, min);
  return true;
}

// The error path of an NDTilingInfo API `Api`: the Status variant, then the official call for
// the plain struct, then for the optiling class (`def`, already holding a marker field);
// `prefix` names the official function that reports. Plain outputs stay poisoned, stderr and
// LastTilingStatus() carry the message.
template <class Plain, class StatusFn, class OfficialFn>
void ExpectPlainTilingRejected(const ErrorCase& c, const std::string& prefix, StatusFn status_fn,
                               OfficialFn official_fn) {
  auto plain = Poisoned<Plain>();
  const Status s = status_fn(plain);
  EXPECT_EQ(s.code(), c.code);
  EXPECT_TRUE(Contains(s.message(), prefix + c.message)) << s.message();
  EXPECT_TRUE(SameBytes(plain, Poisoned<Plain>()));

  ::testing::internal::CaptureStderr();
  official_fn(plain);
  const std::string err = ::testing::internal::GetCapturedStderr();
  EXPECT_TRUE(Contains(err, prefix + c.message)) << err;
  EXPECT_TRUE(SameBytes(plain, Poisoned<Plain>()));
  EXPECT_EQ(LastTilingStatus().code(), c.code);
}

// The official call into an optiling class `host` rejects the case: the message on stderr
// under `prefix`; the caller checks that `host` kept its fields.
template <class Def, class OfficialFn>
void ExpectOptilingRejected(const ErrorCase& c, const std::string& prefix, Def& host,
                            OfficialFn official_fn) {
  ::testing::internal::CaptureStderr();
  official_fn(host);
  const std::string err = ::testing::internal::GetCapturedStderr();
  EXPECT_TRUE(Contains(err, prefix + c.message)) << err;
}

}  // namespace lngrad::tiling::testing
