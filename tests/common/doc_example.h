// Reader for the documentation example files in data/ (LNGRAD_DATA_DIR): '#' comment lines,
// then sections of a name line ("inputDy [1,8,8]" or "epsilon") followed by one line of values.
//
// Shared by tests/core, tests/faithful, tests/examples and tests/replay; it includes nothing but
// the standard library, so the replay stays independent of src/.
#pragma once

#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace lngrad::test {

// Section name -> its values, each parsed straight from the text as T (float and double parse
// differently; every reader keeps the type it compares in). *opened (when given) says whether
// the file could be read; a missing file gives no sections.
template <class T = double>
std::map<std::string, std::vector<T>> ReadDocExample(const std::string& file,
                                                     bool* opened = nullptr) {
  std::map<std::string, std::vector<T>> sections;
  std::ifstream in(std::string(LNGRAD_DATA_DIR) + "/" + file);
  if (opened != nullptr) *opened = in.good();
  std::string line, name;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    if (name.empty()) {
      name = line.substr(0, line.find(' '));
      continue;
    }
    std::istringstream values(line);
    T v;
    while (values >> v) sections[name].push_back(v);
    name.clear();
  }
  return sections;
}

}  // namespace lngrad::test
