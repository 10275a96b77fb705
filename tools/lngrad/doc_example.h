// The documentation examples built into the CLI (data/*.txt, embedded at build time).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "lngrad/status.h"

namespace lngrad::cli {

// One named tensor of a documentation example: its printed shape and values.
struct NamedTensor {
  std::string name;
  std::vector<int64_t> shape;
  std::vector<double> values;
};

// A parsed example file: sections in file order plus scalars such as "epsilon".
struct DocExample {
  std::vector<NamedTensor> tensors;
  std::map<std::string, double> scalars;
  const NamedTensor* Find(std::string_view name) const;
};

// Parses the text format of data/*.txt ('#' comments; a "name [d0,d1,...]" line followed by a
// line of values, or a bare "name" line followed by one scalar). InvalidArgument on bad text.
Status ParseDocExample(std::string_view text, DocExample* out);

// The embedded texts of data/layernormgrad_doc_example.txt and layernormgradbeta_doc_example.txt.
std::string_view LayerNormGradDocText();
std::string_view LayerNormGradBetaDocText();

}  // namespace lngrad::cli
