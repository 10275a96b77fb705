// Layer acl: the profiling ranges of acl/acl_prof.h and msopprof's record. Ids are interned
// strings; ranges a per-thread stack of descriptions, kept only while msopprof records
// (LNGRAD_OPPROF_OUTPUT), when each launch appends a line to its file (state.h).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "acl/acl_prof.h"
#include "state.h"

namespace lngrad::acl::detail {
namespace {

// The description a range carries (aclprofEventAttributes, message type 0: tensor info), as
// operators lay it out (the kit's torch_library_report_tensor sample defines it).
struct ProfTensor {
  uint32_t type;  // 0 input, 1 output
  uint32_t format;
  uint32_t dataType;
  uint32_t shapeDim;
  uint32_t shape[8];
};
struct ProfTensorInfo {
  uint64_t opNameId;
  uint64_t opTypeId;
  uint32_t resv;
  uint32_t tensorNum;
  uint32_t kernelType;
  uint32_t blockNums;
  void* stream;
  ProfTensor* tensors;
};
struct ProfEventAttributes {
  uint16_t version;
  uint16_t size;
  uint32_t messageType;
  ProfTensorInfo* tensorInfo;
};

constexpr uint32_t kTensorInfoMessage = 0;
constexpr uint32_t kMaxDims = 8;
constexpr uint32_t kMaxTensors = 256;

struct Names {
  std::mutex mu;
  std::unordered_map<std::string, uint64_t> ids;
  std::vector<std::string> names;  // names[id - 1]
};

Names& AllNames() {
  static auto* names = new Names;  // leaked, as the runtime's state
  return *names;
}

std::string NameOf(uint64_t id) {
  Names& n = AllNames();
  std::lock_guard lock(n.mu);
  return id >= 1 && id <= n.names.size() ? n.names[id - 1] : std::to_string(id);
}

const char* OutputFile() {
  static const char* file = [] {
    const char* f = std::getenv("LNGRAD_OPPROF_OUTPUT");
    return f != nullptr && *f != '\0' ? f : nullptr;
  }();
  return file;
}

// Each thread's open ranges: the description of each (empty when it has none).
thread_local std::vector<std::string> t_ranges;

const char* DataTypeName(uint32_t t) {
  static const std::unordered_map<uint32_t, const char*> kNames = {
      {ACL_FLOAT, "FLOAT"},   {ACL_FLOAT16, "FLOAT16"},    {ACL_INT8, "INT8"},
      {ACL_INT32, "INT32"},   {ACL_UINT8, "UINT8"},        {ACL_INT16, "INT16"},
      {ACL_UINT16, "UINT16"}, {ACL_UINT32, "UINT32"},      {ACL_INT64, "INT64"},
      {ACL_UINT64, "UINT64"}, {ACL_DOUBLE, "DOUBLE"},      {ACL_BOOL, "BOOL"},
      {ACL_BF16, "BF16"},     {ACL_COMPLEX64, "COMPLEX64"}};
  const auto it = kNames.find(t);
  return it != kNames.end() ? it->second : "UNDEFINED";
}

const char* FormatName(uint32_t f) {
  static const std::unordered_map<uint32_t, const char*> kNames = {
      {ACL_FORMAT_NCHW, "NCHW"},
      {ACL_FORMAT_NHWC, "NHWC"},
      {ACL_FORMAT_ND, "ND"},
      {ACL_FORMAT_NC1HWC0, "NC1HWC0"},
      {ACL_FORMAT_FRACTAL_Z, "FRACTAL_Z"},
      {ACL_FORMAT_HWCN, "HWCN"},
      {ACL_FORMAT_NDHWC, "NDHWC"},
      {ACL_FORMAT_FRACTAL_NZ, "FRACTAL_NZ"},
      {ACL_FORMAT_NCDHW, "NCDHW"},
      {ACL_FORMAT_NC, "NC"},
      {ACL_FORMAT_NCL, "NCL"}};
  const auto it = kNames.find(f);
  return it != kNames.end() ? it->second : "UNDEFINED";
}

// The inputs' or outputs' shapes ("8,2048;8,2048"), data types and formats, tab-separated.
std::string TensorColumns(const ProfTensorInfo& info, uint32_t type) {
  std::string shapes, types, formats;
  for (uint32_t i = 0; i < info.tensorNum && i < kMaxTensors; ++i) {
    const ProfTensor& t = info.tensors[i];
    if (t.type != type) continue;
    const char* sep = shapes.empty() && types.empty() ? "" : ";";
    shapes += sep;
    for (uint32_t d = 0; d < t.shapeDim && d < kMaxDims; ++d) {
      shapes += (d == 0 ? "" : ",") + std::to_string(t.shape[d]);
    }
    types += std::string(sep) + DataTypeName(t.dataType);
    formats += std::string(sep) + FormatName(t.format);
  }
  return shapes + "\t" + types + "\t" + formats;
}

std::string Describe(const ProfEventAttributes& attr) {
  if (attr.messageType != kTensorInfoMessage || attr.tensorInfo == nullptr) return {};
  const ProfTensorInfo& info = *attr.tensorInfo;
  if (info.tensorNum > 0 && info.tensors == nullptr) return {};
  return NameOf(info.opNameId) + "\t" + NameOf(info.opTypeId) + "\t" + TensorColumns(info, 0) +
         "\t" + TensorColumns(info, 1);
}

}  // namespace

void NoteProfiledLaunch(const char* kernel, uint64_t blocks, double micros) noexcept {
  const char* file = OutputFile();
  if (file == nullptr) return;
  try {
    const bool described = !t_ranges.empty() && !t_ranges.back().empty();
    const std::string range = described ? t_ranges.back() : std::string(7, '\t');  // 8 columns
    const std::string line = std::string(kernel != nullptr ? kernel : "?") + "\t" +
                             std::to_string(blocks) + "\t" + std::to_string(micros) + "\t" + range +
                             "\n";
    static std::mutex mu;
    std::lock_guard lock(mu);
    if (std::FILE* f = std::fopen(file, "a")) {
      std::fputs(line.c_str(), f);
      std::fclose(f);
    }
  } catch (...) {
    // A profile line is never worth a failed launch.
  }
}

}  // namespace lngrad::acl::detail

extern "C" {

uint64_t aclprofStr2Id(const char* message) {
  if (message == nullptr) return 0;
  lngrad::acl::detail::Names& n = lngrad::acl::detail::AllNames();
  std::lock_guard lock(n.mu);
  const auto [it, added] = n.ids.emplace(message, n.names.size() + 1);
  if (added) n.names.emplace_back(message);
  return it->second;
}

aclError aclprofRangePushEx(aclprofEventAttributes* attr) {
  using namespace lngrad::acl::detail;
  if (attr == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "aclprofRangePushEx: attr is nullptr");
  t_ranges.push_back(OutputFile() != nullptr
                         ? Describe(*reinterpret_cast<const ProfEventAttributes*>(attr))
                         : std::string());
  return ACL_SUCCESS;
}

aclError aclprofRangePop() {
  using namespace lngrad::acl::detail;
  if (t_ranges.empty()) {
    return Fail(ACL_ERROR_INVALID_PARAM,
                "aclprofRangePop: no range is open on this thread (aclprofRangePushEx)");
  }
  t_ranges.pop_back();
  return ACL_SUCCESS;
}

}  // extern "C"
