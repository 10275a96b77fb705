// The cube's operand checks and element names.
#include <string>

#include "cube_internal.h"

namespace lngrad::cube {

namespace {
struct ElemRow {
  Elem elem;
  uint32_t bits;
  const char* name;
};
constexpr ElemRow kElems[] = {
    {Elem::kS4, 4, "int4b_t"},          {Elem::kS8, 8, "int8_t"},
    {Elem::kU8, 8, "uint8_t"},          {Elem::kS16, 16, "int16_t"},
    {Elem::kU16, 16, "uint16_t"},       {Elem::kF16, 16, "half"},
    {Elem::kBf16, 16, "bfloat16_t"},    {Elem::kF32, 32, "float"},
    {Elem::kS32, 32, "int32_t"},        {Elem::kU32, 32, "uint32_t"},
    {Elem::kF8E4M3, 8, "fp8_e4m3fn_t"}, {Elem::kF8E5M2, 8, "fp8_e5m2_t"},
    {Elem::kF4E2M1, 4, "fp4x2_e2m1_t"}, {Elem::kF4E1M2, 4, "fp4x2_e1m2_t"},
    {Elem::kE8M0, 8, "fp8_e8m0_t"},     {Elem::kHif8, 8, "hifloat8_t"}};
}  // namespace

uint32_t ElemBits(Elem e) noexcept {
  for (const ElemRow& r : kElems) {
    if (r.elem == e) return r.bits;
  }
  return 0;
}

const char* ElemName(Elem e) noexcept {
  for (const ElemRow& r : kElems) {
    if (r.elem == e) return r.name;
  }
  return "an unsupported type";
}

void Raise(const char* check, const char* api, const std::string& msg) {
  aicore::RaiseKernelCheck(check, std::string(api) + ": " + msg);
}

void RequirePosition(const View& v, const char* api, const char* operand,
                     std::initializer_list<AscendC::TPosition> allowed) {
  std::string names;
  for (const AscendC::TPosition p : allowed) {
    if (p == v.pos) return;
    names += (names.empty() ? "" : ", ") + std::string(AscendC::PositionName(p));
  }
  Raise(checks::kPosition, api,
        std::string(operand) + " is at " + AscendC::PositionName(v.pos) + " (" + MemoryName(v.pos) +
            "); it must be at " + names);
}

void RequireAligned(const View& v, const char* api, const char* operand, uint32_t align) {
  const auto addr = static_cast<uint64_t>(v.ptr - v.ub);
  if (aicore::CheckedMode() && addr % align != 0) {
    Raise(checks::kAlignment, api,
          std::string(operand) + " starts at " + MemoryName(v.pos) + " address " +
              std::to_string(addr) + ", which is not a multiple of " + std::to_string(align) +
              " B");
  }
}

void RequireRange(const View& v, const char* api, const char* operand, uint64_t offset,
                  uint64_t bytes) {
  const auto addr = static_cast<uint64_t>(v.ptr - v.ub);
  // L0A, L0B and L0C are read and written in whole fractals, and the vendor's samples size their
  // tensors by the data that matters: there the buffer, not the tensor, bounds an access.
  const bool l0 = v.pos == AscendC::TPosition::A2 || v.pos == AscendC::TPosition::B2 ||
                  v.pos == AscendC::TPosition::CO1;
  const bool past_tensor = !l0 && offset + bytes > v.size_bytes;
  if ((aicore::CheckedMode() && past_tensor) || addr + offset + bytes > v.ub_size) {
    Raise(checks::kBounds, api,
          std::string(operand) + " needs bytes [" + std::to_string(offset) + ", " +
              std::to_string(offset + bytes) + ") from " + MemoryName(v.pos) + " address " +
              std::to_string(addr) + ", but the tensor has " + std::to_string(v.size_bytes) +
              " B and the " + MemoryName(v.pos) + " " + std::to_string(v.ub_size) + " B");
  }
}

}  // namespace lngrad::cube
