#include "doc_example.h"

#include <charconv>
#include <sstream>

namespace lngrad::cli {

const NamedTensor* DocExample::Find(std::string_view name) const {
  for (const auto& t : tensors) {
    if (t.name == name) return &t;
  }
  return nullptr;
}

namespace {

Status ParseShape(std::string_view text, std::vector<int64_t>* shape) {
  // text is "[d0,d1,...]"
  if (text.size() < 2 || text.front() != '[' || text.back() != ']') {
    return Status::InvalidArgument("doc example: shape '" + std::string(text) +
                                   "' is not of the form [d0,d1,...]");
  }
  std::string_view body = text.substr(1, text.size() - 2);
  while (!body.empty()) {
    const size_t comma = body.find(',');
    const std::string_view item = body.substr(0, comma);
    int64_t v = 0;
    auto [ptr, ec] = std::from_chars(item.data(), item.data() + item.size(), v);
    if (ec != std::errc() || ptr != item.data() + item.size() || v <= 0) {
      return Status::InvalidArgument("doc example: bad dimension '" + std::string(item) + "'");
    }
    shape->push_back(v);
    if (comma == std::string_view::npos) break;
    body.remove_prefix(comma + 1);
  }
  return Status::Ok();
}

}  // namespace

Status ParseDocExample(std::string_view text, DocExample* out) {
  std::istringstream in{std::string(text)};
  std::string line;
  DocExample result;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream header(line);
    std::string name, shape_text;
    header >> name >> shape_text;
    std::string values_line;
    if (!std::getline(in, values_line)) {
      return Status::InvalidArgument("doc example: section '" + name + "' has no values line");
    }
    std::istringstream values(values_line);
    std::vector<double> numbers;
    for (double v; values >> v;) numbers.push_back(v);
    if (!values.eof()) {
      return Status::InvalidArgument("doc example: section '" + name + "' has a non-number");
    }
    if (shape_text.empty()) {
      if (numbers.size() != 1) {
        return Status::InvalidArgument("doc example: scalar '" + name + "' needs one value");
      }
      result.scalars[name] = numbers[0];
      continue;
    }
    NamedTensor t;
    t.name = name;
    LNGRAD_RETURN_IF_ERROR(ParseShape(shape_text, &t.shape));
    int64_t count = 1;
    for (int64_t d : t.shape) count *= d;
    if (static_cast<int64_t>(numbers.size()) != count) {
      return Status::InvalidArgument("doc example: tensor '" + name + "' has " +
                                     std::to_string(numbers.size()) + " values, shape needs " +
                                     std::to_string(count));
    }
    t.values = std::move(numbers);
    result.tensors.push_back(std::move(t));
  }
  *out = std::move(result);
  return Status::Ok();
}

}  // namespace lngrad::cli
