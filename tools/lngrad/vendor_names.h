// The file names of the vendor's LayerNormGrad and LayerNormGradBeta samples (dev kit history,
// examples/.../02_normalization/{layernorm_grad,layernormgradbeta} before commit a52267b58):
// what `run --names vendor` writes and what `verify` pairs with the goldens.
#pragma once

#include <array>
#include <string_view>

namespace lngrad::cli {

struct VendorName {
  std::string_view key;     // lngrad's name (manifest key, gen's golden_<key>)
  std::string_view output;  // the sample's output file, without ".bin"
  std::string_view golden;  // the sample's golden file, without ".bin"
};

inline constexpr std::array<VendorName, 4> kVendorNames = {{
    {"pd_x", "output_outputPdX", "golden_outputPdX"},
    {"res_for_gamma", "output_resForGamma", "golden_resForGamma"},
    {"dgamma", "output_PdGamma", "golden_output_PdGamma"},
    {"dbeta", "output_PdBeta", "golden_output_PdBeta"},
}};

// The LayerNormGrad sample's inputs, in the order dy, x, mean, variance, gamma (without ".bin").
inline constexpr std::array<std::string_view, 5> kVendorInputs = {
    "input_inputDy", "input_inputX", "input_inputMean", "input_inputVariance", "input_inputGamma"};

}  // namespace lngrad::cli
