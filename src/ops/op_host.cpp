// lngrad::ops::host: the host machinery the operators share.
#include "ops/op_host.h"

#include <algorithm>
#include <charconv>
#include <limits>
#include <new>

#include "kernel_operator.h"

namespace lngrad::ops {

const char* DTypeName(OpDType t) { return t == OpDType::kFloat16 ? "half" : "float"; }

bool HasDataCopyPad(const lngrad::Product& p) {
  return p.arch == lngrad::NpuArch::k2201 || p.arch == lngrad::NpuArch::k3002 ||
         p.arch == lngrad::NpuArch::k3510;
}

Status ParseTmpSize(std::string_view text, TmpSize* out) {
  if (text == "min") {
    *out = TmpSize{TmpSize::Kind::kMin, 0};
    return Status::Ok();
  }
  if (text == "max") {
    *out = TmpSize{TmpSize::Kind::kMax, 0};
    return Status::Ok();
  }
  uint32_t bytes = 0;
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, bytes);
  if (text.empty() || ec != std::errc() || ptr != end || bytes == 0) {
    return Status::InvalidArgument("tmp size \"" + std::string(text) +
                                   "\" must be min, max or a byte count in [1, 4294967295]");
  }
  *out = TmpSize{TmpSize::Kind::kBytes, bytes};
  return Status::Ok();
}

std::string TmpSizeText(const TmpSize& t) {
  switch (t.kind) {
    case TmpSize::Kind::kMin:
      return "min";
    case TmpSize::Kind::kMax:
      return "max";
    case TmpSize::Kind::kBytes:
      break;
  }
  return std::to_string(t.bytes) + " B";
}

}  // namespace lngrad::ops

namespace lngrad::ops::host {
namespace {

std::mutex& TilingMutex() {
  static std::mutex m;
  return m;
}

Status CheckShape(const char* op, int64_t b, int64_t s, int64_t h) {
  const std::string prefix = std::string(op) + ": ";
  if (b <= 0 || s <= 0 || h <= 0) {
    return Status::InvalidArgument(prefix + "shape [B,S,H] = [" + std::to_string(b) + "," +
                                   std::to_string(s) + "," + std::to_string(h) +
                                   "] must have every dimension > 0");
  }
  constexpr int64_t kMax32 = std::numeric_limits<uint32_t>::max();
  if (h > kMax32 || b > kMax32 / s) {
    return Status::OutOfRange(prefix + "B*S = " + std::to_string(b) + "*" + std::to_string(s) +
                              " and H = " + std::to_string(h) +
                              " must each fit the tiling's uint32 fields");
  }
  const uint64_t rows = static_cast<uint64_t>(b) * static_cast<uint64_t>(s);
  constexpr uint64_t kMaxElements = uint64_t{1} << 40;  // keeps every byte count far from 2^64
  if (rows > kMaxElements / static_cast<uint64_t>(h)) {
    return Status::OutOfRange(prefix + "B*S*H = " + std::to_string(rows) + "*" + std::to_string(h) +
                              " elements exceeds 2^40");
  }
  return Status::Ok();
}

// An H whose rows are not 32-byte aligned: fine for an operator that pads rows in UB on a
// product with DataCopyPad.
Status CheckRowAlignment(const OpId& api, int64_t h, OpDType dtype, const lngrad::Product& p) {
  if (static_cast<uint64_t>(h) * DTypeSize(dtype) % kBlockBytes == 0) return Status::Ok();
  const std::string row = std::string(api.op) + ": H = " + std::to_string(h) +
                          " makes rows that are not 32-byte aligned (H*sizeof(" + DTypeName(dtype) +
                          ") % 32 != 0; aligned H is a multiple of " +
                          std::to_string(kBlockBytes / DTypeSize(dtype)) + ")";
  if (api.padding == RowPadding::kNone) {
    return Status::InvalidArgument(row + ", and the API cannot split H: pad H in your own layout");
  }
  if (!lngrad::ops::HasDataCopyPad(p)) {
    return Status::InvalidArgument(
        row + ", which the operator pads in UB with DataCopyPad, and " + ProductText(p) +
        " has no DataCopyPad (e.g. Ascend910B1 or Ascend950PR_9599 have it)");
  }
  return Status::Ok();
}

Status CheckBlocks(const char* op, uint32_t blocks) {
  if (blocks < 1 || blocks > 65535) {
    return Status::InvalidArgument(std::string(op) + ": blocks = " + std::to_string(blocks) +
                                   " must be in [1, 65535]");
  }
  return Status::Ok();
}

}  // namespace

std::string ProductText(const lngrad::Product& p) {
  return std::string(p.soc) + " (" + std::string(p.product_line) + ", arch " +
         lngrad::NpuArchName(p.arch) + ")";
}

Status ResolveProduct(const std::string& soc, const char* api,
                      bool (*supported)(const lngrad::Product&), const lngrad::Product** out) {
  const lngrad::Product* p = nullptr;
  if (soc.empty()) {
    LNGRAD_RETURN_IF_ERROR(lngrad::CurrentProductChecked(&p));
  } else {
    p = lngrad::FindProduct(soc);
  }
  if (p == nullptr) {
    // SetCurrentSoc words the message (known names, the legacy-name hint) and changes nothing
    // on failure.
    const Status st = lngrad::SetCurrentSoc(soc);
    return Status::InvalidArgument(st.ok() ? "soc \"" + soc + "\" is unknown" : st.message());
  }
  if (!supported(*p)) {
    return Status::Unsupported(std::string(api) + " is not supported on " + ProductText(*p) +
                               " (spec §7.1: supported on Atlas A2/A3, Atlas inference AI Core "
                               "and Ascend 950/Atlas 350, e.g. Ascend910B1, Ascend310P1, "
                               "Ascend950PR_9599)");
  }
  *out = p;
  return Status::Ok();
}

TilingProductScope::TilingProductScope(const lngrad::Product& p)
    : lock_(TilingMutex()), previous_(lngrad::CurrentProduct().soc) {
  // p comes from the product table, so its name is valid.
  (void)lngrad::SetCurrentSoc(p.soc);
}

TilingProductScope::~TilingProductScope() { (void)lngrad::SetCurrentSoc(previous_); }

GmStage::GmStage(size_t bytes) : size_(bytes) {
  // GmPoolAlloc(0) is legal, but every buffer here holds at least one element.
  data_ = static_cast<uint8_t*>(aicore::GmPoolAlloc(std::max<size_t>(bytes, 1)));
}

GmStage::~GmStage() { aicore::GmPoolFree(data_); }

bool StagedOutputs(const LaunchConfig& launch, std::span<const HostRange> inputs,
                   std::span<const HostRange> outputs) {
  auto overlap = [](const HostRange& a, const HostRange& b) {
    const auto a0 = reinterpret_cast<uintptr_t>(a.p), b0 = reinterpret_cast<uintptr_t>(b.p);
    return a.bytes != 0 && b.bytes != 0 && a0 < b0 + b.bytes && b0 < a0 + a.bytes;
  };
  for (auto o = outputs.begin(); o != outputs.end(); ++o) {
    for (const HostRange& i : inputs) {
      if (overlap(*o, i)) return true;
    }
    for (auto o2 = o + 1; o2 != outputs.end(); ++o2) {
      if (overlap(*o, *o2)) return true;
    }
  }
  switch (launch.outputs) {
    case LaunchConfig::Outputs::kStaged:
      return true;
    case LaunchConfig::Outputs::kInPlace:
      return false;
    case LaunchConfig::Outputs::kAuto:
      break;
  }
  return aicore::CheckedMode();
}

GmOutput::GmOutput(void* host, size_t bytes, bool staged) : host_(host), bytes_(bytes) {
  if (staged) {
    stage_ = std::make_unique<GmStage>(bytes);
  } else {
    reg_ = aicore::GmRegistration(host, bytes);
  }
}

std::vector<BlockRows> SplitRows(uint64_t rows, uint32_t blocks, uint32_t granularity) {
  std::vector<BlockRows> out;
  if (rows == 0 || blocks == 0) return out;
  const uint64_t per = CeilTo(CeilDiv(rows, blocks), granularity);
  for (uint64_t start = 0; start < rows; start += per) {
    out.push_back(
        {static_cast<uint32_t>(start), static_cast<uint32_t>(std::min(per, rows - start))});
  }
  return out;
}

uint32_t LargestFitting(uint32_t max_rows, const std::function<bool(uint32_t)>& fits) {
  if (max_rows == 0 || !fits(1)) return 0;
  uint32_t lo = 1;  // fits
  uint32_t hi = max_rows;
  if (fits(hi)) return hi;
  // Invariant: fits(lo), !fits(hi).
  while (hi - lo > 1) {
    const uint32_t mid = lo + (hi - lo) / 2;
    if (fits(mid)) {
      lo = mid;
    } else {
      hi = mid;
    }
  }
  return lo;
}

uint32_t OpCall::MaxBlockRows() const {
  uint32_t m = 0;
  for (const BlockRows& br : split) m = std::max(m, br.count);
  return m;
}

size_t OpCall::Bytes(OpTensor::Extent e) const {
  switch (e) {
    case OpTensor::Extent::kTensor:
      return static_cast<size_t>(rows * h * type_size);
    case OpTensor::Extent::kStat:
      return static_cast<size_t>(rows * type_size);
    case OpTensor::Extent::kRow:
      break;
  }
  return size_t{h} * type_size;
}

Status StartCall(const OpId& api, const OpArgs& args, std::span<const OpTensor> tensors,
                 uint32_t granularity, OpCall* call) {
  LNGRAD_RETURN_IF_ERROR(CheckShape(api.op, args.b, args.s, args.h));
  LNGRAD_RETURN_IF_ERROR(CheckBlocks(api.op, args.launch.blocks));
  for (const OpTensor& t : tensors) {
    if (t.host == nullptr) {
      return Status::InvalidArgument(std::string(api.op) + ": " + t.name + " is null");
    }
  }
  LNGRAD_RETURN_IF_ERROR(ResolveProduct(args.launch.soc, api.api, api.supported, &call->product));
  LNGRAD_RETURN_IF_ERROR(CheckRowAlignment(api, args.h, args.dtype, *call->product));
  call->op = api.op;
  call->rows = static_cast<uint64_t>(args.b) * static_cast<uint64_t>(args.s);
  call->h = static_cast<uint32_t>(args.h);
  call->type_size = DTypeSize(args.dtype);
  call->storage_h = StorageH(call->h, call->type_size);
  call->granularity = granularity;
  call->split = SplitRows(call->rows, args.launch.blocks, granularity);
  return Status::Ok();
}

OpGm::OpGm(const OpCall& call, const LaunchConfig& launch, std::span<const OpTensor> tensors) {
  buffers_.resize(tensors.size());
  std::vector<HostRange> inputs, outputs;
  for (size_t i = 0; i < tensors.size(); ++i) {
    buffers_[i].tensor = &tensors[i];
    buffers_[i].bytes = call.Bytes(tensors[i].extent);
    (tensors[i].output() ? outputs : inputs).push_back({tensors[i].host, buffers_[i].bytes});
  }
  const bool staged = StagedOutputs(launch, inputs, outputs);
  // Tiles read and write the [B,S] tensors in whole 32-byte blocks of rows.
  const size_t pad = size_t{call.granularity} * call.type_size;
  for (Buffer& b : buffers_) {
    void* host = const_cast<void*>(b.tensor->host);
    switch (b.tensor->kind) {
      case OpTensor::Kind::kInput:
        b.input = std::make_unique<GmInput>(host, b.bytes);
        b.data = b.input->data();
        break;
      case OpTensor::Kind::kPaddedInput:
      case OpTensor::Kind::kPaddedOutput:
        b.padded = std::make_unique<GmStage>(b.bytes + pad);
        if (b.tensor->kind == OpTensor::Kind::kPaddedInput) b.padded->Upload(host, b.bytes);
        b.data = b.padded->data();
        break;
      case OpTensor::Kind::kOutput:
      case OpTensor::Kind::kStagedOutput:
        b.output = std::make_unique<GmOutput>(
            host, b.bytes, staged || b.tensor->kind == OpTensor::Kind::kStagedOutput);
        b.data = b.output->data();
        break;
    }
  }
}

void OpGm::Commit() const {
  for (const Buffer& b : buffers_) {
    if (b.output != nullptr) b.output->Commit();
    if (b.tensor->kind == OpTensor::Kind::kPaddedOutput) {
      b.padded->Download(const_cast<void*>(b.tensor->host), b.bytes);
    }
  }
}

uint32_t SelectTmpBytes(const TmpSize& tmp, uint32_t min_value, uint32_t max_value) {
  if (tmp.kind == TmpSize::Kind::kBytes) return tmp.bytes;
  return tmp.kind == TmpSize::Kind::kMax ? max_value : min_value;
}

OpTilingHeader MakeHeader(const OpArgs& args, const OpCall& call, size_t blocks,
                          const BlockPlanTotals& totals) {
  OpTilingHeader head{};
  head.dtype = args.dtype == OpDType::kFloat16 ? 1 : 0;
  head.isReuseSource = args.reuse_source ? 1 : 0;
  head.useSharedTmpBuffer = args.launch.shared_tmp_buffer ? 1 : 0;
  head.tmpBufferBytes =
      args.launch.shared_tmp_buffer ? static_cast<uint32_t>(totals.tbuf_bytes) : 0;
  head.hLength = call.storage_h;
  head.originalHLength = call.h;
  head.blockNum = static_cast<uint32_t>(blocks);
  return head;
}

Status LaunchOn(const OpCall& call, const LaunchConfig& launch, size_t blocks,
                const std::function<void()>& kernel) {
  aicore::LaunchOptions options;
  options.sequential = launch.sequential;
  options.soc = std::string(call.product->soc);
  options.sanitize = launch.sanitize;
  return aicore::Launch(static_cast<uint32_t>(blocks), kernel, options);
}

void FillInfo(const OpCall& call, const OpArgs& args, size_t blocks, const BlockPlanTotals& totals,
              OpInfo* info) {
  info->soc = std::string(call.product->soc);
  info->product_line = std::string(call.product->product_line);
  info->arch = static_cast<uint32_t>(call.product->arch);
  info->blocks_requested = args.launch.blocks;
  info->blocks_used = static_cast<uint32_t>(blocks);
  info->prototype = args.launch.shared_tmp_buffer ? "sharedTmpBuffer" : "PopStackBuffer";
  info->tmp_bytes = totals.tmp0;
  info->ub_bytes = totals.ub0;
  info->tiles = totals.tiles;
}

}  // namespace lngrad::ops::host
