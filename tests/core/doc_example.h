// Reader for the documentation example files in data/ (LNGRAD_DATA_DIR): '#' comment lines,
// then sections of a name line ("inputDy [1,8,8]" or "epsilon") followed by one line of values.
#pragma once

#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace lngrad::test {

inline std::map<std::string, std::vector<double>> ReadDocExample(const std::string& file) {
  std::map<std::string, std::vector<double>> sections;
  std::ifstream in(std::string(LNGRAD_DATA_DIR) + "/" + file);
  std::string line, name;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    if (name.empty()) {
      name = line.substr(0, line.find(' '));
      continue;
    }
    std::istringstream values(line);
    double v;
    while (values >> v) sections[name].push_back(v);
    name.clear();
  }
  return sections;
}

}  // namespace lngrad::test
