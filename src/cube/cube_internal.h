// The cube's shared helpers: checks, element access by bits, the memory of a position.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <string>
#include <vector>

#include "lngrad_aicore/data_copy.h"
#include "lngrad_cube/cube.h"

namespace lngrad::cube {

// The L0C unit flags (MmadParams::unitFlag 2 and 3, a Fixpipe's 3): on the device an Mmad with a
// unit flag waits until the Fixpipe before it has read its L0C, and the last one (3) lets the
// next Fixpipe with unitFlag 3 read it. lngrad runs them in program order; the sanitizer is told
// this order through one pair of hidden flags of this key (for the whole L0C).
inline const void* UnitFlagKey() {
  static const char key = 0;
  return &key;
}

namespace checks {
inline constexpr const char* kPosition = "cube.position";    // an operand in the wrong memory
inline constexpr const char* kAlignment = "cube.alignment";  // an address off its fractal grid
inline constexpr const char* kParams = "cube.params";        // a parameter outside its range
inline constexpr const char* kBounds = "cube.bounds";        // an access past its tensor
inline constexpr const char* kType = "cube.type";            // a type combination not documented
}  // namespace checks

inline constexpr uint32_t kFractalBytes = 512;

[[noreturn]] void Raise(const char* check, const char* api, const std::string& msg);
// The memory name of a position ("L1", "L0A", ...; "UB", "GM").
const char* MemoryName(AscendC::TPosition pos) noexcept;
// Raises kPosition unless v is at one of the positions (a TPosition list).
void RequirePosition(const View& v, const char* api, const char* operand,
                     std::initializer_list<AscendC::TPosition> allowed);
// Raises kAlignment (checked mode) unless v's address in its memory is a multiple of align.
void RequireAligned(const View& v, const char* api, const char* operand, uint32_t align);
// Raises kBounds when [offset, offset + bytes) leaves the tensor (checked mode) or its memory
// (always).
void RequireRange(const View& v, const char* api, const char* operand, uint64_t offset,
                  uint64_t bytes);

inline std::byte* Mutable(const View& v) { return const_cast<std::byte*>(v.ptr); }

// Element i of `bits` bits (4, 8, 16 or 32) at base, as raw bits (int4: low nibble first).
inline uint32_t GetBits(const std::byte* base, uint64_t i, uint32_t bits) {
  if (bits == 4) {
    const auto b = static_cast<uint32_t>(base[i / 2]);
    return (i % 2 == 0 ? b : b >> 4) & 0xFu;
  }
  uint32_t v = 0;
  std::memcpy(&v, base + i * (bits / 8), bits / 8);
  return v;
}
inline void SetBits(std::byte* base, uint64_t i, uint32_t bits, uint32_t v) {
  if (bits == 4) {
    auto& b = base[i / 2];
    const uint32_t old = static_cast<uint32_t>(b);
    b = static_cast<std::byte>(i % 2 == 0 ? (old & 0xF0u) | (v & 0xFu)
                                          : (old & 0x0Fu) | ((v & 0xFu) << 4));
    return;
  }
  std::memcpy(base + i * (bits / 8), &v, bits / 8);
}

// The cube's configuration registers of the running block (made zero with its memories).
struct CubeRegisters {
  Fmatrix fmatrix[2] = {};  // left (0) and right (1): SetFmatrix
  uint32_t pad_value = 0;   // SetLoadDataPaddingValue, as raw bits
  // SetLoadDataRepeatWithStride: repeatStride, repeatTime, repeatMode, dstStride.
  uint32_t repeat_stride = 0, repeat_time = 1, repeat_mode = 0, dst_stride = 0;
  uint32_t l1_boundary = 0;             // SetLoadDataBoundary (bytes; 0: none)
  std::vector<std::byte> sparse_index;  // LoadDataWithSparse's index buffer (a quarter of L0B)
  // The Fixpipe registers of DataCopy CO1 -> GM: SetFixpipePreQuantFlag, SetFixpipeNz2ndFlag,
  // SetFixPipeConfig's Fixpipe Buffer tensor (has_quant_tensor: set since the block began).
  uint64_t pre_quant = 0;
  uint16_t nd_num = 1, src_nd_stride = 0;
  uint32_t dst_nd_stride = 0;
  View quant_tensor{};
  bool has_quant_tensor = false;
  std::vector<std::byte> mx[2];  // the 950's L0A_MX and L0B_MX (MX scales), kMxBytes each
  uint64_t nz_para = 0;          // the C API's ND2NZ/DN2NZ register (asc_set_gm2l1_nz_para)
};
CubeRegisters& Registers(const char* api);

// The MX scale buffer of an L0A (A2) or L0B (B2) tensor: its L0A_MX/L0B_MX, and in *offset the
// tensor's address / 16 (where its scales start).
inline constexpr uint64_t kMxBytes = 4096;
std::byte* MxScales(const View& l0, const char* api, uint64_t* offset);
// Whether e is an MX data type (fp8 e4m3/e5m2, fp4 e2m1/e1m2).
inline bool IsMxData(Elem e) {
  return e == Elem::kF8E4M3 || e == Elem::kF8E5M2 || e == Elem::kF4E2M1 || e == Elem::kF4E1M2;
}
// The byte of the scale of row r (m of A, n of B), K value k, in an MX buffer of k_total K values
// (a multiple of 64): 16 x 2 fractals, r blocks outer, K pairs of scales inner (A's Zz, B's Nn).
inline uint64_t MxScaleIndex(uint32_t r, uint32_t k, uint32_t k_total) {
  return (uint64_t{r / 16} * (k_total / 64) + k / 64) * 32 + (r % 16) * 2 + (k / 32) % 2;
}

// DataCopy between local tensors outside the UB: L1 (C1) -> BiasTable (C2) on MTE1, L1 -> Fixpipe
// Buffer (C2PIPE2GM) on FIX.
void CopyToBiasTable(const View& dst, const View& src, const AscendC::DataCopyParams& params,
                     aicore::SrcLoc loc);

}  // namespace lngrad::cube
