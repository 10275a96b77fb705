// The configuration types that Sin and Cos (lib/math/sin.h) and their host tiling
// (tiling/math/math_transcendental_tiling.h) both take, with the vendor's names and values:
// SinAlgo, SinConfig, defaultSinConfig, CosAlgo, CosConfig, defaultCosConfig (the toolkit's
// adv_api/math/sin_utils.h and cos_utils.h).
#pragma once

namespace AscendC {

enum class SinAlgo {
  POLYNOMIAL_APPROXIMATION = 0,
  RADIAN_REDUCTION,
};

struct SinConfig {
  SinAlgo algo = SinAlgo::POLYNOMIAL_APPROXIMATION;
};

constexpr SinConfig defaultSinConfig = {SinAlgo::POLYNOMIAL_APPROXIMATION};

enum class CosAlgo {
  POLYNOMIAL_APPROXIMATION = 0,
  RADIAN_REDUCTION,
};

struct CosConfig {
  CosAlgo algo = CosAlgo::POLYNOMIAL_APPROXIMATION;
};

constexpr CosConfig defaultCosConfig = {CosAlgo::POLYNOMIAL_APPROXIMATION};

}  // namespace AscendC
