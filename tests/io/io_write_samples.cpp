// Writes the .npy files that numpy_files.py checks with NumPy (ours_*.npy), through the same
// OutputSet path the CLI uses. Usage: io_write_samples DIR
#include <cstdio>

#include "io/npy.h"
#include "io/tensor_file.h"
#include "numpy_samples.h"

int main(int argc, char** argv) {
  using namespace lngrad::io;
  if (argc != 2) {
    std::fprintf(stderr, "usage: io_write_samples DIR\n");
    return 2;
  }
  OutputSet out(argv[1], true);
  lngrad::Status st = out.Open();
  const std::pair<const char*, DType> dtypes[] = {
      {"f2", DType::kFloat16}, {"f4", DType::kFloat32}, {"f8", DType::kFloat64}};
  for (const auto& [dt_name, dt] : dtypes) {
    for (int version : {1, 2, 3}) {
      for (const auto& [name, shape] : samples::Shapes()) {
        Tensor t(dt, shape);
        for (int64_t i = 0; i < t.size(); ++i) t.Set(i, samples::Value(i));
        const std::string file =
            std::string("ours_") + dt_name + "_v" + std::to_string(version) + "_" + name + ".npy";
        if (st.ok()) st = out.AddBytes(file, EncodeNpy(t, version));
      }
    }
  }
  for (const auto& [dt_name, dt] : {dtypes[0], dtypes[1]}) {
    const std::vector<double> v = samples::Specials(dt_name);
    Tensor t(dt, {static_cast<int64_t>(v.size())});
    for (size_t i = 0; i < v.size(); ++i) t.Set(static_cast<int64_t>(i), v[i]);
    if (st.ok())
      st = out.AddTensor(std::string("ours_specials_") + dt_name + ".npy", t, FileFormat::kNpy);
  }
  if (st.ok()) st = out.Commit();
  if (!st.ok()) {
    std::fprintf(stderr, "io_write_samples: %s\n", st.ToString().c_str());
    return 1;
  }
  return 0;
}
