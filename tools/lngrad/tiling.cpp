// `lngrad tiling`: what the host tiling API gives for a shape on a product.
#include <bit>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>

#include "cli_common.h"
#include "command.h"
#include "lngrad/product.h"
#include "tiling/tiling_api.h"

namespace lngrad::cli {
namespace {

constexpr const char* kCmd = "tiling";
constexpr const char* kDescription =
    "Print what the host tiling API gives for a shape on a product: the min/max tmp sizes\n"
    "and every field of LayerNormGradTiling and LayerNormGradBetaTiling. For LayerNormGrad\n"
    "also where the scratch layout of the tiling for min and for max ends, with a warning\n"
    "(stderr and --json \"warnings\") when min or max is smaller than that layout.";

struct TilingOptions {
  std::string shape_text;
  std::string dtype_text = "float";
  bool reuse_source = false;
  std::string soc;
  std::string stack_text = "min";
  bool json = false;
};

struct Field {
  const char* name;
  uint32_t value;
};

// The fields of a tiling struct in declaration order, from the X-macro lists that define them.
template <typename T>
std::vector<Field> FieldsOf(const T& t);

template <>
std::vector<Field> FieldsOf(const AscendC::tiling::LayerNormGradTiling& t) {
#define LNGRAD_FIELD(type, name) {#name, static_cast<uint32_t>(t.name)},
  return {LNGRAD_LAYERNORM_GRAD_TILING_FIELDS(LNGRAD_FIELD)};
#undef LNGRAD_FIELD
}

template <>
std::vector<Field> FieldsOf(const AscendC::tiling::LayerNormGradBetaTiling& t) {
#define LNGRAD_FIELD(type, name) {#name, static_cast<uint32_t>(t.name)},
  return {LNGRAD_LAYERNORM_GRAD_BETA_TILING_FIELDS(LNGRAD_FIELD)};
#undef LNGRAD_FIELD
}

// Fields that hold float bit patterns rather than counts.
bool IsFloatBits(const char* name) {
  return std::strcmp(name, "lastDimValueBack") == 0 ||
         std::strcmp(name, "lastDimValueBackMulTwo") == 0;
}

// Everything reported for one API.
struct ApiReport {
  const char* api = "";
  uint32_t min_tmp = 0, max_tmp = 0, stack = 0;
  std::vector<Field> fields;
  uint64_t scratch_bytes = 0;  // what the kernel touches (LayerNormGrad only)
  bool has_scratch = false;
  // LayerNormGrad: where the scratch layout of the tiling for minValue / maxValue ends (bytes).
  uint64_t min_layout_bytes = 0, max_layout_bytes = 0;
};

Status StackFor(const std::string& text, uint32_t min_tmp, uint32_t max_tmp, uint32_t* out) {
  if (text == "min") {
    *out = min_tmp;
  } else if (text == "max") {
    *out = max_tmp;
  } else {
    uint64_t v = 0;
    LNGRAD_RETURN_IF_ERROR(
        ParseUint(text, "--stack-buffer (min, max or a byte count)", UINT32_MAX, &v));
    *out = static_cast<uint32_t>(v);
  }
  return Status::Ok();
}

io::Json ReportJson(const ApiReport& r) {
  io::Json j = io::Json::object();
  j["min_tmp_size"] = r.min_tmp;
  j["max_tmp_size"] = r.max_tmp;
  j["stack_buffer_bytes"] = r.stack;
  io::Json f = io::Json::object();
  for (const Field& field : r.fields) f[field.name] = field.value;
  j["tiling"] = f;
  if (r.has_scratch) {
    j["min_tmp_layout_bytes"] = r.min_layout_bytes;
    j["max_tmp_layout_bytes"] = r.max_layout_bytes;
    j["min_tmp_too_small"] = r.min_layout_bytes > r.min_tmp;
    j["scratch_bytes_touched"] = r.scratch_bytes;
    j["scratch_overrun"] = r.scratch_bytes > r.stack;
  }
  return j;
}

void PrintReport(const ApiReport& r, const std::string& stack_text) {
  std::printf("%s\n", r.api);
  std::printf("  Get%sMaxMinTmpSize: minValue %u bytes, maxValue %u bytes", r.api, r.min_tmp,
              r.max_tmp);
  if (r.has_scratch) {
    std::printf(" (the scratch layouts of their tilings end at byte %llu and %llu)",
                static_cast<unsigned long long>(r.min_layout_bytes),
                static_cast<unsigned long long>(r.max_layout_bytes));
  }
  std::printf("\n");
  std::printf("  Get%sNDTilingInfo with stackBufferSize %u bytes (%s):\n", r.api, r.stack,
              stack_text.c_str());
  for (const Field& f : r.fields) {
    if (IsFloatBits(f.name)) {
      std::printf("    %-24s 0x%08X (%.9g)\n", f.name, f.value,
                  static_cast<double>(std::bit_cast<float>(f.value)));
    } else {
      std::printf("    %-24s %u\n", f.name, f.value);
    }
  }
  if (r.has_scratch) {
    std::printf("  scratch the kernel touches: %llu bytes%s\n",
                static_cast<unsigned long long>(r.scratch_bytes),
                r.scratch_bytes > r.stack
                    ? " -- MORE than stackBufferSize: rows per loop are rounded up to a 32-byte "
                      "block (spec §2.8); on the device this overwrites what follows in UB"
                    : "");
  }
}

// One API through the host tiling: its max/min tmp sizes, the stack buffer --stack-buffer picks
// from them, then the tiling struct for that buffer (and its fields into `r`).
template <typename MaxMin, typename TilingInfo, typename Tiling>
Status TileApi(const TilingOptions& o, const ge::Shape& shape, uint32_t type_size, MaxMin max_min,
               TilingInfo tiling_info, ApiReport* r, Tiling* t) {
  LNGRAD_RETURN_IF_ERROR(max_min(shape, type_size, o.reuse_source, r->max_tmp, r->min_tmp));
  LNGRAD_RETURN_IF_ERROR(StackFor(o.stack_text, r->min_tmp, r->max_tmp, &r->stack));
  LNGRAD_RETURN_IF_ERROR(tiling_info(shape, r->stack, type_size, o.reuse_source, *t));
  r->fields = FieldsOf(*t);
  return Status::Ok();
}

// Bytes of scratch that LayerNormGrad's kernel touches with the tiling for `stack` bytes; 0 when
// the tiling API refuses that size.
uint64_t GradLayoutBytes(const ge::Shape& shape, uint32_t stack, uint32_t type_size, bool reuse) {
  AscendC::tiling::LayerNormGradTiling t;
  if (!tiling::LayerNormGradNDTilingInfo(shape, stack, type_size, reuse, t).ok()) return 0;
  return 4 * tiling::LayerNormGradScratchFloats(t, type_size, reuse);
}

// The warning when a documented tmp size is smaller than the layout its own tiling uses (spec
// §2.8: half rounds the rows per loop up to 16): the documentation says the minimum ensures
// correct function, but a kernel given it writes past its buffer.
std::string TmpTooSmallWarning(const char* which, uint32_t value, uint64_t layout) {
  return std::string("GetLayerNormGradMaxMinTmpSize's ") + which + " (" + std::to_string(value) +
         " bytes) is smaller than the scratch layout of the tiling that "
         "GetLayerNormGradNDTilingInfo computes for it (it ends at byte " +
         std::to_string(layout) + "): a kernel given a buffer of " + which +
         " bytes overwrites the " + std::to_string(layout - value) +
         " bytes of UB after it on the device (checked mode reports "
         "LayerNormGrad.scratch_overrun); give the kernel at least " +
         std::to_string(layout) + " bytes";
}

// --dtype of the device's tiling: float or half (the vendor's types).
Status ParseDeviceDType(const std::string& text, io::DType* dt) {
  if (Status st = io::ParseDType(text, dt); !st.ok())
    return Status::InvalidArgument("--" + st.message());
  if (*dt == io::DType::kFloat64) return Status::InvalidArgument("--dtype must be float or half");
  if (*dt == io::DType::kBFloat16) {
    return Status::InvalidArgument(std::string("--dtype bf16: ") + kDeviceRefusesBf16);
  }
  return Status::Ok();
}

int RunTiling(const TilingOptions& o) {
  std::vector<int64_t> dims;
  if (Status st = io::ParseShape(o.shape_text, "--shape", &dims); !st.ok()) return Fail(kCmd, st);
  if (dims.size() != 3 && dims.size() != 4) {
    return Fail(kCmd, "--shape \"" + o.shape_text + "\" must be B,S,H or B,S,H,H0");
  }
  if (dims.size() == 3) dims.push_back(dims[2]);
  // B*S*H*H0 wraps past 2^64 for shapes like 1,1,2^32 (H0 = H), which the tiling functions
  // would then see as 0 elements: refused here, in exact arithmetic.
  uint64_t elements = 0;
  if (Status st = lngrad::CheckedProduct(
          dims.data(), dims.size(), "--shape " + io::ShapeText(dims) + ": B*S*H*H0", &elements);
      !st.ok()) {
    return Fail(kCmd, st);
  }
  io::DType dt;
  if (Status st = ParseDeviceDType(o.dtype_text, &dt); !st.ok()) return Fail(kCmd, st);
  if (!o.soc.empty()) {
    if (Status st = lngrad::SetCurrentSoc(o.soc); !st.ok())
      return Fail(kCmd, "--soc: " + st.message());
  } else {
    // The tiling functions fall back to Ascend910B1 for a misspelt LNGRAD_SOC; refuse it here.
    const lngrad::Product* chosen = nullptr;
    if (Status st = lngrad::CurrentProductChecked(&chosen); !st.ok()) return Fail(kCmd, st);
  }
  // The stack-buffer choice is checked before any tiling call, so that its error is its own.
  if (o.stack_text != "min" && o.stack_text != "max") {
    uint32_t ignored = 0;
    if (Status st = StackFor(o.stack_text, 0, 0, &ignored); !st.ok()) return Fail(kCmd, st);
  }
  const lngrad::Product& p = lngrad::CurrentProduct();
  const uint32_t type_size = static_cast<uint32_t>(io::DTypeSize(dt));
  const ge::Shape shape(dims);

  ApiReport grad;
  grad.api = "LayerNormGrad";
  AscendC::tiling::LayerNormGradTiling gt;
  Status st = TileApi(o, shape, type_size, tiling::LayerNormGradMaxMinTmpSize,
                      tiling::LayerNormGradNDTilingInfo, &grad, &gt);
  if (!st.ok()) return Fail(kCmd, "LayerNormGrad: " + st.message());
  grad.has_scratch = true;
  grad.scratch_bytes = 4 * tiling::LayerNormGradScratchFloats(gt, type_size, o.reuse_source);
  grad.min_layout_bytes = GradLayoutBytes(shape, grad.min_tmp, type_size, o.reuse_source);
  grad.max_layout_bytes = GradLayoutBytes(shape, grad.max_tmp, type_size, o.reuse_source);
  io::Json warnings = io::Json::array();
  if (grad.min_layout_bytes > grad.min_tmp) {
    warnings.push_back(TmpTooSmallWarning("minValue", grad.min_tmp, grad.min_layout_bytes));
  }
  if (grad.max_layout_bytes > grad.max_tmp) {
    warnings.push_back(TmpTooSmallWarning("maxValue", grad.max_tmp, grad.max_layout_bytes));
  }

  ApiReport beta;
  beta.api = "LayerNormGradBeta";
  AscendC::tiling::LayerNormGradBetaTiling bt;
  st = TileApi(o, shape, type_size, tiling::LayerNormGradBetaMaxMinTmpSize,
               tiling::LayerNormGradBetaNDTilingInfo, &beta, &bt);
  if (!st.ok()) return Fail(kCmd, "LayerNormGradBeta: " + st.message());

  const char* unaligned_note =
      (dims[2] * static_cast<int64_t>(type_size)) % 32 != 0
          ? "H is not 32-byte aligned: the APIs need hLength * sizeof(T) to be a multiple of 32; "
            "an operator pads each row in UB (DataCopyPad) and passes the padded H as hLength, "
            "H as originalHLength"
          : nullptr;
  // The tiling calls above all succeeded, so the warnings belong to a complete report.
  for (const auto& w : warnings) Warn(kCmd, w.get<std::string>());
  if (o.json) {
    io::Json j = io::Json::object();
    j["command"] = "tiling";
    j["soc"] = std::string(p.soc);
    j["npu_arch"] = lngrad::NpuArchName(p.arch);
    j["ub_bytes"] = p.ub_bytes;
    j["shape"] = io::Json(dims);
    j["dtype"] = io::DTypeName(dt);
    j["type_size"] = type_size;
    j["reuse_source"] = o.reuse_source;
    j["stack_buffer"] = o.stack_text;
    j["LayerNormGrad"] = ReportJson(grad);
    j["LayerNormGradBeta"] = ReportJson(beta);
    if (unaligned_note) j["note"] = unaligned_note;
    j["warnings"] = warnings;
    return PrintJson(j);
  }
  std::printf(
      "%s (%s, NPU arch %s, UB %u bytes): srcShape %s, %s (typeSize %u), "
      "isReuseSource %s\n",
      std::string(p.soc).c_str(), std::string(p.product_line).c_str(), lngrad::NpuArchName(p.arch),
      p.ub_bytes, io::ShapeText(dims).c_str(), io::DTypeName(dt), type_size,
      o.reuse_source ? "true" : "false");
  PrintReport(grad, o.stack_text);
  std::printf("  (stackBufferSize is in bytes; positions and sizes in float elements)\n");
  PrintReport(beta, o.stack_text);
  std::printf("  (this struct's stackBufferSize is in float elements: bytes / 4)\n");
  if (unaligned_note) std::printf("note: %s\n", unaligned_note);
  return kExitOk;
}

}  // namespace

void AddTilingCommand(CLI::App& root, std::vector<Command>* commands) {
  auto [app, o] = AddCommand<TilingOptions>(root, commands, kCmd, kDescription, RunTiling);
  app->add_option("--shape", o->shape_text,
                  "B,S,H[,H0]: srcShape {B, S, storage H, original H} (H0 defaults to H)")
      ->required();
  app->add_option("--dtype", o->dtype_text, "float or half (typeSize 4 or 2)")
      ->capture_default_str();
  app->add_flag("--reuse-source", o->reuse_source, "isReuseSource = true");
  app->add_option("--soc", o->soc,
                  "Product, e.g. Ascend910B1 or Ascend950PR_9599 (default: $LNGRAD_SOC or\n"
                  "Ascend910B1); its NPU arch selects the 2201/2002 or the 3510 formulas");
  app->add_option("--stack-buffer", o->stack_text,
                  "stackBufferSize given to Get*NDTilingInfo: min, max (each API's own) or BYTES")
      ->capture_default_str();
  app->add_flag("--json", o->json, "Print JSON on stdout instead of text");
}

}  // namespace lngrad::cli
