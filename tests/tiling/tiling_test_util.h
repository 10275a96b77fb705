// Helpers shared by the tiling tests.
#pragma once

#include <gtest/gtest.h>

#include <cstring>
#include <string>

#include "lngrad/product.h"
#include "tiling/tiling_api.h"

namespace lngrad::tiling::testing {

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

inline bool Contains(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

}  // namespace lngrad::tiling::testing
