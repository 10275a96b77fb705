// The simulated product table (spec §6.6, §7.1, §7.2) and the current-product selection.
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <string>

#include "lngrad/product.h"

namespace lngrad {
namespace {

constexpr uint32_t kKiB = 1024;

// What the product table needs to know about each arch.
struct ArchTraits {
  NpuArch arch;
  const char* name;
  // UB constants (spec §6.6): TOTAL_UB_SIZE and the PopStackBuffer end address.
  uint32_t ub_bytes, stack_end_bytes;
  // LayerNormGrad, LayerNormGradBeta and LayerNorm share one support table (spec §7.1).
  bool supported;
  bool split_cores;
  uint32_t aicore_count, vector_core_count;
  CubeBuffers cube;
};

// The cube (架构规格 NPU架构版本2201 / 3510): L1 512 KiB, of which 2201 keeps the last 256 bytes
// in mixed kernels (its ASC_L1_SIZE; the page's note: the reserve is for cube-and-vector
// kernels), L0A, L0B, L0C and BiasTable their sizes, the Fixpipe Buffer its size.
constexpr CubeBuffers kCube2201 = {512 * kKiB, 64 * kKiB, 64 * kKiB, 128 * kKiB,
                                   1 * kKiB,   2 * kKiB,  256};
constexpr CubeBuffers kCube3510 = {512 * kKiB, 64 * kKiB, 64 * kKiB,
                                   256 * kKiB, 4 * kKiB,  4 * kKiB};
constexpr CubeBuffers kNoCube = {0, 0, 0, 0, 0, 0};

constexpr ArchTraits kArchs[] = {
    {NpuArch::k1001, "1001", 256 * kKiB, 256 * kKiB, false, false, 32, 0, kNoCube},
    {NpuArch::k2002, "2002", 256 * kKiB, 256 * kKiB, true, false, 10, 8, kNoCube},
    // 2201 keeps the last 64 bytes for the KFC message slot.
    {NpuArch::k2201, "2201", 192 * kKiB, 192 * kKiB - 64, true, true, 24, 48, kCube2201},
    {NpuArch::k3002, "3002", 248 * kKiB, 248 * kKiB, false, false, 1, 1, kNoCube},
    {NpuArch::k3510, "3510", 248 * kKiB, 248 * kKiB, true, true, 24, 48, kCube3510},
};

constexpr ArchTraits kUnknownArch = {NpuArch{}, "unknown", 0, 0, false, false, 0, 0, kNoCube};

constexpr const ArchTraits& TraitsOf(NpuArch a) {
  for (const ArchTraits& t : kArchs) {
    if (t.arch == a) return t;
  }
  return kUnknownArch;
}

constexpr Product Make(std::string_view soc, std::string_view short_soc, std::string_view version,
                       NpuArch arch, std::string_view line) {
  const ArchTraits& t = TraitsOf(arch);
  return Product{soc,
                 short_soc,
                 version,
                 arch,
                 line,
                 t.ub_bytes,
                 t.stack_end_bytes,
                 t.supported,
                 t.supported,
                 t.supported,
                 t.split_cores,
                 t.aicore_count,
                 t.vector_core_count,
                 t.cube};
}

constexpr std::string_view kA2 = "Atlas A2";
constexpr std::string_view kA3 = "Atlas A3";
constexpr std::string_view kInference = "Atlas inference series";
constexpr std::string_view k200I = "Atlas 200I/500 A2";
constexpr std::string_view kTraining = "Atlas training series";
constexpr std::string_view k950 = "Ascend 950PR/950DT";
constexpr std::string_view k350 = "Atlas 350 card";

#define LNGRAD_P910B(name) Make(name, "Ascend910B", "ASCEND910B", NpuArch::k2201, kA2)
#define LNGRAD_P91093(name) Make(name, "Ascend910_93", "ASCEND910B", NpuArch::k2201, kA3)
#define LNGRAD_P310P(name) Make(name, "Ascend310P", "ASCEND310P", NpuArch::k2002, kInference)
#define LNGRAD_P310B(name) Make(name, "Ascend310B", "ASCEND310B", NpuArch::k3002, k200I)
#define LNGRAD_P910(name) Make(name, "Ascend910", "ASCEND910", NpuArch::k1001, kTraining)
#define LNGRAD_P950(name) Make(name, "Ascend950", "ASCEND950", NpuArch::k3510, k950)
#define LNGRAD_P350(name) Make(name, "Ascend350", "ASCEND350", NpuArch::k3510, k350)

// The legacy digit-less "Ascend910B" (listed under the old Ascend910 family in one upstream
// map) is deliberately absent: it would silently select arch 1001 for users who mean A2.
constexpr Product kProducts[] = {
    LNGRAD_P910B("Ascend910B1"),      LNGRAD_P910B("Ascend910B2"),
    LNGRAD_P910B("Ascend910B2C"),     LNGRAD_P910B("Ascend910B3"),
    LNGRAD_P910B("Ascend910B4"),      LNGRAD_P910B("Ascend910B4-1"),
    LNGRAD_P91093("Ascend910_9391"),  LNGRAD_P91093("Ascend910_9392"),
    LNGRAD_P91093("Ascend910_9381"),  LNGRAD_P91093("Ascend910_9382"),
    LNGRAD_P91093("Ascend910_9372"),  LNGRAD_P91093("Ascend910_9362"),
    LNGRAD_P310P("Ascend310P1"),      LNGRAD_P310P("Ascend310P3"),
    LNGRAD_P310B("Ascend310B1"),      LNGRAD_P310B("Ascend310B2"),
    LNGRAD_P310B("Ascend310B3"),      LNGRAD_P310B("Ascend310B4"),
    LNGRAD_P910("Ascend910A"),        LNGRAD_P910("Ascend910ProA"),
    LNGRAD_P910("Ascend910ProB"),     LNGRAD_P910("Ascend910PremiumA"),
    LNGRAD_P950("Ascend950PR_9599"),  LNGRAD_P950("Ascend950PR_958a"),
    LNGRAD_P950("Ascend950PR_9589"),  LNGRAD_P950("Ascend950PR_958b"),
    LNGRAD_P950("Ascend950PR_9579"),  LNGRAD_P950("Ascend950PR_957b"),
    LNGRAD_P950("Ascend950PR_957bx"), LNGRAD_P950("Ascend950PR_957c"),
    LNGRAD_P950("Ascend950PR_957d"),  LNGRAD_P950("Ascend950PR_950z"),
    LNGRAD_P950("Ascend950DT_950x"),  LNGRAD_P950("Ascend950DT_950y"),
    LNGRAD_P950("Ascend950DT_95A1"),  LNGRAD_P950("Ascend950DT_95A2"),
    LNGRAD_P950("Ascend950DT_9591"),  LNGRAD_P950("Ascend950DT_9592"),
    LNGRAD_P950("Ascend950DT_9595"),  LNGRAD_P950("Ascend950DT_9596"),
    LNGRAD_P950("Ascend950DT_9581"),  LNGRAD_P950("Ascend950DT_9582"),
    LNGRAD_P950("Ascend950DT_9583"),  LNGRAD_P950("Ascend950DT_9584"),
    LNGRAD_P950("Ascend950DT_9585"),  LNGRAD_P950("Ascend950DT_9586"),
    LNGRAD_P950("Ascend950DT_9587"),  LNGRAD_P950("Ascend950DT_9588"),
    LNGRAD_P950("Ascend950DT_9582x"), LNGRAD_P950("Ascend950DT_9571"),
    LNGRAD_P950("Ascend950DT_9572"),  LNGRAD_P950("Ascend950DT_9573"),
    LNGRAD_P950("Ascend950DT_9574"),  LNGRAD_P950("Ascend950DT_9575"),
    LNGRAD_P950("Ascend950DT_9576"),  LNGRAD_P950("Ascend950DT_9577"),
    LNGRAD_P950("Ascend950DT_9578"),  LNGRAD_P350("Ascend350_354f"),
    LNGRAD_P350("Ascend350_355e"),
};

#undef LNGRAD_P910B
#undef LNGRAD_P91093
#undef LNGRAD_P310P
#undef LNGRAD_P310B
#undef LNGRAD_P910
#undef LNGRAD_P950
#undef LNGRAD_P350

constexpr std::string_view kDefaultSoc = "Ascend910B1";
constexpr const char* kEnvVar = "LNGRAD_SOC";

std::string UnknownSocMessage(std::string_view soc, std::string_view origin) {
  std::string m = std::string(origin) + " \"" + std::string(soc) +
                  "\" is not a known SoC name (exact, case-sensitive; e.g. Ascend910B1, "
                  "Ascend910_9391, Ascend310P3, Ascend950PR_9599, Ascend350_354f";
  if (soc == "Ascend910B") m += "; the digit-less legacy name is ambiguous, use Ascend910B1";
  return m + ")";
}

// Set once the first time anyone asks; SetCurrentSoc() overrides it afterwards.
std::atomic<const Product*> g_current{nullptr};
// True once SetCurrentSoc() has chosen a product: the environment no longer matters.
std::atomic<bool> g_explicit{false};

// LNGRAD_SOC, read once: the product it names (the default when it is unset or empty), and
// the error when it names none.
struct EnvChoice {
  const Product* product = nullptr;
  std::string error;
};

const EnvChoice& FromEnv() {
  static const EnvChoice choice = [] {
    EnvChoice c;
    c.product = FindProduct(kDefaultSoc);
    const char* env = std::getenv(kEnvVar);
    if (env == nullptr || *env == '\0') return c;
    if (const Product* p = FindProduct(env)) {
      c.product = p;
    } else {
      c.error = UnknownSocMessage(env, kEnvVar);
    }
    return c;
  }();
  return choice;
}

const Product& DefaultFromEnv() {
  const EnvChoice& c = FromEnv();
  if (!c.error.empty()) {
    // CurrentProduct() has no error channel; a wrong product must not go unnoticed.
    static std::once_flag warned;
    std::call_once(warned, [&] {
      std::fprintf(stderr, "lngrad: warning: %s; using %s\n", c.error.c_str(),
                   c.product->soc.data());
    });
  }
  return *c.product;
}

}  // namespace

std::span<const Product> AllProducts() { return kProducts; }

const Product* FindProduct(std::string_view soc) {
  for (const Product& p : kProducts) {
    if (p.soc == soc) return &p;
  }
  return nullptr;
}

const Product& CurrentProduct() {
  const Product* p = g_current.load(std::memory_order_acquire);
  if (p != nullptr) return *p;
  const Product* env = &DefaultFromEnv();
  // A concurrent SetCurrentSoc() wins over the environment default.
  if (g_current.compare_exchange_strong(p, env, std::memory_order_acq_rel)) return *env;
  return *p;
}

Status CurrentProductChecked(const Product** out) {
  if (!g_explicit.load(std::memory_order_acquire)) {
    const EnvChoice& c = FromEnv();
    if (!c.error.empty()) {
      return Status::InvalidArgument(c.error +
                                     "; set it to a SoC name listed by `lngrad socs`, "
                                     "or unset it for the default " +
                                     std::string(kDefaultSoc));
    }
  }
  *out = &CurrentProduct();
  return Status::Ok();
}

Status SetCurrentSoc(std::string_view soc) {
  const Product* p = FindProduct(soc);
  if (p == nullptr) return Status::InvalidArgument(UnknownSocMessage(soc, "soc"));
  g_current.store(p, std::memory_order_release);
  g_explicit.store(true, std::memory_order_release);
  return Status::Ok();
}

const char* NpuArchName(NpuArch a) { return TraitsOf(a).name; }

}  // namespace lngrad
