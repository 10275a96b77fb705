// lngrad: the simulated Ascend products (spec §6.6, §7). Host-side; no kernel types.
//
// The current product is chosen, in order of precedence, by SetCurrentSoc(), by the
// LNGRAD_SOC environment variable (read once, at first use), or defaults to Ascend910B1.
// An LNGRAD_SOC that names no product is an error for CurrentProductChecked(); only
// CurrentProduct(), which has no error channel, falls back to Ascend910B1 (with a warning).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "lngrad/status.h"

namespace lngrad {

// __NPU_ARCH__ values of the products we model.
enum class NpuArch : uint32_t {
  k1001 = 1001,  // Atlas training series (Ascend910A...)
  k2002 = 2002,  // Atlas inference series AI Core (Ascend310P*)
  k2201 = 2201,  // Atlas A2 / A3 (Ascend910B*, Ascend910_93*)
  k3002 = 3002,  // Atlas 200I/500 A2 (Ascend310B*)
  k3510 = 3510,  // Ascend 950PR/950DT, Atlas 350
};

// The cube's buffers (bytes a kernel may use; 0: the product's cube is not modelled). The
// vendor's 架构规格 pages: L1, L0A, L0B, L0C, BiasTable (BT) and Fixpipe Buffer (FB).
// l1_mix_reserve_bytes: the end of L1 the framework keeps in a mixed (cube and vector) kernel,
// which a cube-only kernel may use (2201: 256 bytes, ASC_L1_SIZE = 512 KiB - 256).
struct CubeBuffers {
  uint32_t l1_bytes, l0a_bytes, l0b_bytes, l0c_bytes, bt_bytes, fb_bytes;
  uint32_t l1_mix_reserve_bytes = 0;
};

struct Product {
  std::string_view soc;          // full SoC name, e.g. "Ascend910B1"
  std::string_view short_soc;    // e.g. "Ascend910B"
  std::string_view soc_version;  // platform_ascendc::SocVersion name, e.g. "ASCEND910B"
  NpuArch arch;
  std::string_view product_line;  // e.g. "Atlas A2"
  uint32_t ub_bytes;              // TOTAL_UB_SIZE: what TPipe may allocate
  uint32_t stack_end_bytes;       // PopStackBuffer end address (spec §6.2)
  bool supports_layernormgrad;    // spec §7.1
  bool supports_layernormgradbeta;
  bool supports_layernorm;
  // Core counts: the vendor's CPU test platform (its unit tests' platform stub) has one set per
  // architecture, and so do we; chips of one family may have fewer cores, which only changes
  // how many blocks host code asks for (a launch takes any numBlocks up to 65535).
  bool split_cores;            // separate cube (AIC) and vector (AIV) cores
  uint32_t aicore_count;       // AI cores (coupled products) or cube cores (split products)
  uint32_t vector_core_count;  // vector cores: AIV of split products, the extra ones of 310P
  CubeBuffers cube;
};

// All products, in spec §7.2 order.
std::span<const Product> AllProducts();
// nullptr when the name is unknown. Exact, case-sensitive SoC names.
const Product* FindProduct(std::string_view soc);
// The product in force (see the header comment). Never null.
const Product& CurrentProduct();
// The product in force, or InvalidArgument naming LNGRAD_SOC when that variable is set to an
// unknown name and SetCurrentSoc() has not chosen a product. What code with a Status to
// return (and the CLI) uses, so that a misspelt LNGRAD_SOC is not silently replaced.
Status CurrentProductChecked(const Product** out);
// InvalidArgument naming the unknown SoC (and listing a few valid ones); the current
// product is unchanged on error.
Status SetCurrentSoc(std::string_view soc);
// True when the arch takes the register-based (3510) implementation and tiling branch.
inline bool IsRegBaseArch(NpuArch a) { return a == NpuArch::k3510; }
const char* NpuArchName(NpuArch a);  // "2201", ...

}  // namespace lngrad
